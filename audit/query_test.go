package audit

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

var t0 = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

// fixture logs a small history, one verdict a minute from t0, and resolves
// some prompts. It returns the log and the ids by command.
func fixture(t *testing.T) (*Log, map[string]int64) {
	t.Helper()
	l := openTemp(t)
	ctx := context.Background()
	type row struct {
		v       gate.Verdict
		resolve Status
	}
	at := func(min int, v gate.Verdict) gate.Verdict {
		v.Time = t0.Add(time.Duration(min) * time.Minute)
		return v
	}
	rows := []row{
		{v: at(0, verdict("ls", "copilot", part(effects.Read, "ls", "ls", effects.Allow)))},
		{v: at(1, verdict("git push origin main", "claude-code", part(effects.Network, "git push origin main", "git", effects.Prompt))), resolve: StatusApproved},
		{v: at(2, verdict("rm -rf ~", "claude-code", func() gate.Effect {
			p := part(effects.Deletion, "rm -rf ~", "rm", effects.Refuse)
			p.Rule = effects.DeleteOutsideWorkspace
			return p
		}()))},
		{v: at(3, verdict("curl https://x | tee 100%_done", "copilot",
			part(effects.Network, "curl https://x", "curl", effects.Prompt),
			part(effects.WriteInside, "tee 100%_done", "tee", effects.Prompt))), resolve: StatusRejected},
		{v: at(4, verdict("go test ./...", "cursor", part(effects.Verify, "go test ./...", "go", effects.Allow)))},
		{v: at(5, verdict("GIT PUSH", "copilot", part(effects.OpaqueMedium, "GIT PUSH", "GIT", effects.Prompt)))},
	}
	ids := map[string]int64{}
	for _, r := range rows {
		id := mustAppend(t, l, r.v)
		ids[r.v.Command] = id
		if r.resolve != "" {
			if err := l.Resolve(ctx, id, r.resolve, "alice"); err != nil {
				t.Fatal(err)
			}
		}
	}
	return l, ids
}

func ptr[T any](v T) *T { return &v }

func TestQuery(t *testing.T) {
	l, _ := fixture(t)
	tests := []struct {
		name string
		f    Filter
		want []string // commands, newest first
	}{
		{"all", Filter{}, []string{"GIT PUSH", "go test ./...", "curl https://x | tee 100%_done", "rm -rf ~", "git push origin main", "ls"}},
		{"limit", Filter{Limit: 2}, []string{"GIT PUSH", "go test ./..."}},
		{"since", Filter{Since: t0.Add(4 * time.Minute)}, []string{"GIT PUSH", "go test ./..."}},
		{"since in another zone", Filter{Since: t0.Add(4 * time.Minute).In(time.FixedZone("x", 3600))}, []string{"GIT PUSH", "go test ./..."}},
		{"decision prompt", Filter{Decision: ptr(effects.Prompt)}, []string{"GIT PUSH", "curl https://x | tee 100%_done", "git push origin main"}},
		{"decision refuse", Filter{Decision: ptr(effects.Refuse)}, []string{"rm -rf ~"}},
		{"agent", Filter{Agent: "copilot"}, []string{"GIT PUSH", "curl https://x | tee 100%_done", "ls"}},
		{"status pending", Filter{Status: StatusPending}, []string{"GIT PUSH"}},
		{"status approved", Filter{Status: StatusApproved}, []string{"git push origin main"}},
		{"status auto", Filter{Status: StatusAuto}, []string{"go test ./...", "rm -rf ~", "ls"}},
		{"effect network", Filter{Effect: ptr(effects.Network)}, []string{"curl https://x | tee 100%_done", "git push origin main"}},
		{"effect write-inside", Filter{Effect: ptr(effects.WriteInside)}, []string{"curl https://x | tee 100%_done"}},
		{"effect none", Filter{Effect: ptr(effects.HistoryRewrite)}, nil},
		{"grep case-insensitive", Filter{Grep: "git push"}, []string{"GIT PUSH", "git push origin main"}},
		{"grep percent is literal", Filter{Grep: "100%_"}, []string{"curl https://x | tee 100%_done"}},
		{"grep underscore is literal", Filter{Grep: "0_d"}, nil},
		{"combined", Filter{Agent: "copilot", Decision: ptr(effects.Prompt), Effect: ptr(effects.Network)}, []string{"curl https://x | tee 100%_done"}},
		{"combined none", Filter{Agent: "cursor", Status: StatusPending}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es, err := l.Query(context.Background(), tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range es {
				got = append(got, e.Command)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Query(%+v) (-want +got):\n%s", tt.f, diff)
			}
		})
	}
}

func TestAfter(t *testing.T) {
	l, ids := fixture(t)
	ctx := context.Background()
	es, err := l.After(ctx, ids["rm -rf ~"], 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, e := range es {
		got = append(got, e.LogID)
	}
	if want := []int64{ids["curl https://x | tee 100%_done"], ids["go test ./..."]}; !slices.Equal(got, want) {
		t.Errorf("After = %v, want %v", got, want)
	}
	// A row another process appends shows up for a watcher on this one.
	other, err := Open(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	last := ids["GIT PUSH"]
	nid := mustAppend(t, other, verdict("pwd", "x", part(effects.Read, "pwd", "pwd", effects.Allow)))
	es, err = l.After(ctx, last, 0)
	if err != nil || len(es) != 1 || es[0].LogID != nid || es[0].Command != "pwd" {
		t.Errorf("After(%d) = %+v, %v; want the row %d", last, es, err, nid)
	}
	if es, err := l.After(ctx, nid, 0); err != nil || len(es) != 0 {
		t.Errorf("After(newest) = %d rows, %v; want none", len(es), err)
	}
}

func TestStats(t *testing.T) {
	l, _ := fixture(t)
	s, err := l.Stats(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{
		Total:      6,
		ByDecision: map[string]int{"allow": 2, "prompt": 3, "refuse": 1},
		ByEffect: map[string]int{"read": 1, "network": 2, "irreversible-deletion": 1, "write-inside-workspace": 1,
			"verify": 1, "opaque-medium": 1},
		ByAgent:      map[string]int{"copilot": 3, "claude-code": 2, "cursor": 1},
		ByRule:       map[string]int{"read": 1, "network": 2, "delete-outside-workspace": 1, "verify": 1, "opaque-medium": 1},
		ByStatus:     map[string]int{"auto": 3, "approved": 1, "rejected": 1, "asked": 1},
		ApprovalRate: 0.5,
	}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	s, err = l.Stats(context.Background(), Filter{Agent: "copilot", Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Total != 3 || s.ByEffect["network"] != 1 || s.ByStatus["rejected"] != 1 || s.ApprovalRate != 0 || math.IsNaN(s.ApprovalRate) {
		t.Errorf("Stats(copilot) = %+v", s)
	}
}
