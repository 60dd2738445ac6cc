package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// logHome points HOME and the XDG directories into a temp dir, so that no
// test reads the real settings or writes the real log.
func logHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	return home
}

func logVerdict(cmd, agent string, c effects.Class, d effects.Decision, at time.Time) gate.Verdict {
	e := gate.Effect{Effect: c, Text: cmd, Span: [2]int{0, len(cmd)}, Program: strings.Fields(cmd)[0], Outcome: d}
	return gate.Verdict{Time: at, Command: cmd, Agent: agent, Decision: d, Effects: []gate.Effect{e}, DecidedBy: &e,
		Rule: c.String(), Reason: "`" + cmd + "` is " + c.String(), ClassificationEnabled: true, Workspaces: []string{}}
}

// logFixture writes a small log and returns its path and ids by command.
func logFixture(t *testing.T) (string, map[string]int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "decisions.db")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	day := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	ids := map[string]int64{}
	add := func(v gate.Verdict) int64 {
		id, err := l.Append(ctx, v, "", audit.StatusAsked)
		if err != nil {
			t.Fatal(err)
		}
		ids[v.Command] = id
		return id
	}
	add(logVerdict("ls -la", "copilot", effects.Read, effects.Allow, day))
	for i := range 3 {
		id := add(logVerdict("git push origin b"+strconv.Itoa(i), "claude-code", effects.Network, effects.Prompt, day.Add(time.Hour)))
		if err := l.Resolve(ctx, id, audit.StatusApproved, "alice"); err != nil {
			t.Fatal(err)
		}
	}
	add(logVerdict("rm -rf build\nrm -rf dist", "copilot", effects.Deletion, effects.Prompt, day.Add(48*time.Hour)))
	add(logVerdict("sudo ls", "cursor", effects.Privilege, effects.Refuse, day.Add(49*time.Hour)))
	return path, ids
}

func runLogCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"log"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestLogQuery(t *testing.T) {
	logHome(t)
	path, _ := logFixture(t)
	code, out, errs := runLogCmd(t, "--log", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "TIME") || !strings.Contains(lines[0], "COMMAND") {
		t.Fatalf("table:\n%s", out)
	}
	for i, want := range []string{"sudo ls", "rm -rf build⏎rm -rf dist", "git push origin b2", "git push origin b1", "git push origin b0", "ls -la"} {
		if !strings.HasSuffix(lines[i+1], want) {
			t.Errorf("row %d = %q, want it to end with %q", i+1, lines[i+1], want)
		}
	}
	for _, col := range []string{"refuse", "auto", "cursor", "privilege-escalation"} {
		if !strings.Contains(lines[1], col) {
			t.Errorf("row 1 %q lacks %q", lines[1], col)
		}
	}

	tests := []struct {
		name string
		args []string
		want []string // commands, newest first
	}{
		{"decision", []string{"--decision", "prompt"}, []string{"rm -rf build\nrm -rf dist", "git push origin b2", "git push origin b1", "git push origin b0"}},
		{"agent", []string{"--agent", "copilot"}, []string{"rm -rf build\nrm -rf dist", "ls -la"}},
		{"status", []string{"--status", "pending"}, []string{"rm -rf build\nrm -rf dist"}},
		{"effect", []string{"--effect", "network", "--limit", "2"}, []string{"git push origin b2", "git push origin b1"}},
		{"grep", []string{"--grep", "B1"}, []string{"git push origin b1"}},
		{"since date", []string{"--since", "2026-12-01T11:00:00Z"}, []string{"sudo ls", "rm -rf build\nrm -rf dist"}},
		{"since RFC 3339", []string{"--since", "2026-12-01T12:30:00Z"}, []string{"sudo ls"}},
		{"limit 0 is all", []string{"--limit", "0", "--agent", "cursor"}, []string{"sudo ls"}},
		{"nothing", []string{"--agent", "nobody"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runLogCmd(t, append([]string{"--log", path, "--json"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var es []audit.Entry
			if err := json.Unmarshal([]byte(out), &es); err != nil {
				t.Fatalf("JSON: %v\n%s", err, out)
			}
			got := []string{}
			for _, e := range es {
				got = append(got, e.Command)
				if e.LogID == 0 || e.Status == "" {
					t.Errorf("entry without logId or status: %+v", e)
				}
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLogUsageErrors(t *testing.T) {
	logHome(t)
	path, ids := logFixture(t)
	id := strconv.FormatInt(ids["ls -la"], 10)
	tests := [][]string{
		{"frobnicate"},
		{"--log", path, "--decision", "maybe"},
		{"--log", path, "--status", "done"},
		{"--log", path, "--effect", "teleport"},
		{"--log", path, "--since", "yesterday"},
		{"--log", path, "--limit", "-1"},
		{"--log", path, "--no-such-flag"},
		{"--log", path, "extra"},
		{"resolve", "--log", path, id},
		{"resolve", "--log", path, "abc", "approve"},
		{"resolve", "--log", path, id, "maybe"},
		{"suggest", "--log", path, "--min", "0"},
		{"note", "--log", path, id},
	}
	for _, args := range tests {
		code, _, errs := runLogCmd(t, args...)
		if code != exitUsage {
			t.Errorf("log %q: exit %d, want %d (usage)", args, code, exitUsage)
		}
		if !strings.Contains(errs, "usage:") {
			t.Errorf("log %q: stderr lacks usage:\n%s", args, errs)
		}
	}
}

func TestLogResolve(t *testing.T) {
	logHome(t)
	path, ids := logFixture(t)
	pending := strconv.FormatInt(ids["rm -rf build\nrm -rf dist"], 10)
	t.Setenv("USER", "carol")
	code, out, errs := runLogCmd(t, "resolve", pending, "reject", "--log", path)
	if code != 0 || !strings.Contains(out, "rejected by carol") {
		t.Fatalf("resolve: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runLogCmd(t, "resolve", "--log", path, "--reviewer", "dave", pending, "approve")
	if code != logExitError || !strings.Contains(errs, "already rejected by carol") {
		t.Errorf("resolve twice: exit %d, stderr %q; want %d saying it was rejected by carol", code, errs, logExitError)
	}
	code, _, errs = runLogCmd(t, "resolve", "--log", path, strconv.FormatInt(ids["ls -la"], 10), "approve")
	if code != logExitError || !strings.Contains(errs, "not pending") {
		t.Errorf("resolve an allow: exit %d, stderr %q", code, errs)
	}
	code, _, errs = runLogCmd(t, "resolve", "--log", path, "9999", "approve")
	if code != logExitError || !strings.Contains(errs, "no such") {
		t.Errorf("resolve unknown: exit %d, stderr %q", code, errs)
	}
	t.Setenv("USER", "")
	t.Setenv("USERNAME", "")
	if code, _, _ := runLogCmd(t, "resolve", "--log", path, pending, "approve"); code != exitUsage {
		t.Errorf("resolve without a reviewer: exit %d, want %d", code, exitUsage)
	}

	code, _, errs = runLogCmd(t, "note", "--log", path, pending, "rm of dist was wrong")
	if code != 0 {
		t.Fatalf("note: exit %d %s", code, errs)
	}
	_, out, _ = runLogCmd(t, "--log", path, "--json", "--status", "rejected")
	var es []audit.Entry
	if err := json.Unmarshal([]byte(out), &es); err != nil || len(es) != 1 || es[0].Note != "rm of dist was wrong" || es[0].Reviewer != "carol" {
		t.Errorf("after resolve and note: %v %s", err, out)
	}
}

func TestLogStatsAndSuggest(t *testing.T) {
	logHome(t)
	path, _ := logFixture(t)
	code, out, errs := runLogCmd(t, "stats", "--log", path)
	if code != 0 {
		t.Fatalf("stats: exit %d %s", code, errs)
	}
	for _, want := range []string{"verdicts: 6", "0 held, 1 asked, 0 advisory, 3 approved, 0 rejected (approval rate 100%)", "by effect:", "3 network", "by agent:", "by rule:"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runLogCmd(t, "stats", "--log", path, "--json", "--agent", "copilot")
	var st audit.Stats
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || st.Total != 2 || st.ByDecision["prompt"] != 1 {
		t.Errorf("stats --json --agent copilot: %d %v %s", code, err, out)
	}

	code, out, errs = runLogCmd(t, "suggest", "--log", path)
	if code != 0 {
		t.Fatalf("suggest: exit %d %s", code, errs)
	}
	for _, want := range []string{"claude-code: 3 approved network prompts", "git push", `"ml-ai.agentBudgets": {`, `"network": "allow"`} {
		if !strings.Contains(out, want) {
			t.Errorf("suggest lacks %q:\n%s", want, out)
		}
	}
	if code, out, _ := runLogCmd(t, "suggest", "--log", path, "--min", "4"); code != 0 || !strings.HasPrefix(out, "no suggestions") {
		t.Errorf("suggest --min 4: %d %q", code, out)
	}
}

func TestLogMissingFileIsNotCreated(t *testing.T) {
	logHome(t)
	path := filepath.Join(t.TempDir(), "none", "decisions.db")
	for _, args := range [][]string{{}, {"stats"}, {"suggest"}} {
		code, _, errs := runLogCmd(t, append(args, "--log", path)...)
		if code != 0 || !strings.Contains(errs, "no decision log at") {
			t.Errorf("log %q on a missing file: exit %d, stderr %q", args, code, errs)
		}
	}
	if code, _, _ := runLogCmd(t, "resolve", "--log", path, "1", "approve", "--reviewer", "x"); code != logExitError {
		t.Errorf("resolve on a missing file: exit %d, want %d", code, logExitError)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("reading a missing log created %s (%v)", filepath.Dir(path), err)
	}
}

func TestLogPathResolution(t *testing.T) {
	home := logHome(t)
	// No flag, no setting: the platform default under $XDG_STATE_HOME.
	l, err := audit.Open(filepath.Join(home, "state", "ml-ai", "decisions.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(context.Background(), logVerdict("echo default", "a", effects.Read, effects.Allow, time.Now()), "", audit.StatusAsked); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, out, errs := runLogCmd(t); !strings.Contains(out, "echo default") {
		t.Errorf("default path: %q %q", out, errs)
	}

	// The user setting ml-ai.decisionLog wins over the default.
	setPath, _ := logFixture(t)
	userSettings := filepath.Join(home, "config", "Code", "User", "settings.json")
	if err := os.MkdirAll(filepath.Dir(userSettings), 0o700); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(setPath)
	if err := os.WriteFile(userSettings, []byte(`{
		// JSONC, as VS Code writes it
		"ml-ai.decisionLog": `+string(js)+`,
	}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, out, errs := runLogCmd(t); !strings.Contains(out, "sudo ls") || strings.Contains(out, "echo default") {
		t.Errorf("setting path: %q %q", out, errs)
	}
	// --log wins over both.
	other, _ := logFixture(t)
	if code, _, errs := runLogCmd(t, "resolve", "--log", other, "5", "reject", "--reviewer", "x"); code != 0 {
		t.Errorf("resolve --log: %d %s", code, errs)
	}
	if _, out, _ := runLogCmd(t, "--status", "rejected", "--json"); strings.Contains(out, "sudo") || !strings.HasPrefix(strings.TrimSpace(out), "[") {
		t.Errorf("--log resolve changed the settings' log: %s", out)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"1h", now.Add(-time.Hour)},
		{"90m", now.Add(-90 * time.Minute)},
		{"2d", now.AddDate(0, 0, -2)},
		{"1w", now.AddDate(0, 0, -7)},
		{"2026-11-29", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)},
		{"2026-11-29T08:30", time.Date(2026, 11, 29, 8, 30, 0, 0, time.UTC)},
		{"2026-11-29T08:30:00+01:00", time.Date(2026, 11, 29, 7, 30, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		got, err := parseSince(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-1h", "d", "2026-13-01", "1y"} {
		if got, err := parseSince(bad, now); err == nil {
			t.Errorf("parseSince(%q) = %v, want an error", bad, got)
		}
	}
}

func TestTruncateCommand(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"ls", 10, "ls"},
		{"a\nb\r\nc\td", 10, "a⏎b⏎c→d"},
		{"0123456789abc", 10, "012345678…"},
		{"éééééééééééé", 5, "éééé…"},
	}
	for _, tt := range tests {
		if got := truncateCommand(tt.in, tt.width); got != tt.want {
			t.Errorf("truncateCommand(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}
