package audit

import (
	"context"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

func TestSuggestRules(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	log := func(n int, outcome Status, v gate.Verdict) {
		t.Helper()
		for range n {
			id := mustAppend(t, l, v)
			if err := l.Resolve(ctx, id, outcome, "alice"); err != nil {
				t.Fatal(err)
			}
		}
	}
	unknown := func(text, program string) gate.Effect {
		e := part(effects.OpaqueMedium, text, program, effects.Prompt)
		e.Reason = "`" + program + "` is not a known program, so what it does is not known"
		return e
	}
	log(3, StatusApproved, verdict("kx get pods", "claude-code", unknown("kx get pods", "kx")))
	log(1, StatusApproved, verdict("kx get pods -A", "codex", unknown("kx get pods -A", "kx")))
	// Rejected once: never proposed, whatever subcommand.
	log(5, StatusApproved, verdict("zork list", "claude-code", unknown("zork list", "zork")))
	log(1, StatusRejected, verdict("zork wipe", "claude-code", unknown("zork wipe", "zork")))
	// Interpreters and programs the table knows: never.
	log(5, StatusApproved, verdict("python -c 'x'", "claude-code", unknown("python -c 'x'", "python")))
	// Too few.
	log(2, StatusApproved, verdict("few a", "claude-code", unknown("few a", "few")))
	// No example that classifies as read: not proposed.
	log(3, StatusApproved, verdict("out get > f", "claude-code", unknown("out get", "out")))

	rs, err := l.SuggestRules(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("suggestions %+v", rs)
	}
	r := rs[0]
	if r.Program != "kx" || r.Subcommand != "get" || r.Approved != 4 || strings.Join(r.Agents, ",") != "claude-code,codex" ||
		len(r.Examples) != 1 || // `kx get pods -A`: -A is an option the rule does not declare
		!strings.Contains(r.Setting, `"ml-ai.rules"`) ||
		!strings.HasPrefix(r.Add, "command-safety rules add --program kx --subcommand get --effect read --example 'kx get pods'") {
		t.Errorf("suggestion %+v", r)
	}
	// The proposed rule compiles.
	if _, errs := gate.CompileRules([]gate.Rule{SuggestedRule(r.Program, r.Subcommand, r.Effects, r.Examples)}); len(errs) > 0 {
		t.Errorf("proposed rule rejected: %v", errs)
	}
}
