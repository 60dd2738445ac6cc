package audit

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

func TestSuggest(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	log := func(n int, outcome Status, v gate.Verdict) {
		t.Helper()
		for range n {
			id := mustAppend(t, l, v)
			if outcome != "" {
				if err := l.Resolve(ctx, id, outcome, "alice"); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	prompt := func(c effects.Class, text, program string) gate.Effect { return part(c, text, program, effects.Prompt) }
	withMode := func(v gate.Verdict, mode string) gate.Verdict { v.Mode = mode; return v }

	// claude-code: network approved 4 times over two programs.
	log(3, StatusApproved, verdict("git push origin main", "claude-code", prompt(effects.Network, "git push origin main", "git")))
	log(1, StatusApproved, verdict("curl -s https://api", "claude-code", prompt(effects.Network, "curl -s https://api", "curl"),
		part(effects.Read, "ls", "ls", effects.Allow)))
	// Held by two effects: no single entry frees it, so it is not counted.
	log(2, StatusApproved, verdict("git push && rm x", "claude-code", prompt(effects.Network, "git push", "git"),
		prompt(effects.Deletion, "rm x", "rm")))
	// Prompted only because command safety was off: not counted.
	off := verdict("git fetch", "claude-code", prompt(effects.Network, "git fetch", "git"))
	off.ClassificationEnabled = false
	log(2, StatusApproved, off)
	// Still pending: not counted.
	log(3, "", verdict("git pull", "claude-code", prompt(effects.Network, "git pull", "git")))
	// Opaque execution and privilege escalation: never.
	log(5, StatusApproved, verdict("make build", "claude-code", prompt(effects.OpaqueLow, "make build", "make")))
	log(5, StatusApproved, verdict("python -c 'print(1)'", "claude-code", prompt(effects.OpaqueMedium, "python -c 'print(1)'", "python")))
	log(5, StatusApproved, verdict("./gen.sh", "claude-code", prompt(effects.OpaqueLow, "./gen.sh", "./gen.sh")))
	log(5, StatusApproved, verdict("sudo ls", "claude-code", prompt(effects.Privilege, "sudo ls", "sudo")))
	// Interpreters and wrappers: never, whatever effect the part has.
	log(5, StatusApproved, verdict("bash x.sh", "codex", prompt(effects.WriteOutside, "bash x.sh", "bash")))
	log(5, StatusApproved, verdict("timeout 5 x", "codex", prompt(effects.Network, "timeout 5 x", "timeout")))
	log(5, StatusApproved, verdict("python3 x.py", "codex", prompt(effects.SystemChange, "python3 x.py", "python3")))
	log(5, StatusApproved, verdict("/tmp/x/git push", "codex", prompt(effects.Network, "/tmp/x/git push", "/tmp/x/git")))

	// copilot: deletion approved 3 times but rejected once: never.
	log(3, StatusApproved, verdict("rm build/x", "copilot", prompt(effects.Deletion, "rm build/x", "rm")))
	log(1, StatusRejected, verdict("rm -r src", "copilot", prompt(effects.Deletion, "rm -r src", "rm")))
	// copilot: network approved twice.
	log(2, StatusApproved, verdict("git push", "copilot", prompt(effects.Network, "git push", "git")))

	// cursor in autopilot: writes outside approved twice; network approved
	// but another agent's autopilot network prompt was rejected.
	log(2, StatusApproved, withMode(verdict("cp a /tmp/b", "cursor", prompt(effects.WriteOutside, "cp a /tmp/b", "cp")), "autopilot"))
	log(2, StatusApproved, withMode(verdict("git push", "cursor", prompt(effects.Network, "git push", "git")), "autopilot"))
	log(1, StatusRejected, withMode(verdict("wget x", "default", prompt(effects.Network, "wget x", "wget")), "autopilot"))

	got, err := l.Suggest(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Suggestion{
		{Agent: "claude-code", Effect: effects.Network, Approved: 4, Programs: []ProgramCount{
			{Program: "git", Subcommand: "push", Count: 3, Example: "git push origin main"},
			{Program: "curl", Count: 1, Example: "curl -s https://api"},
		}},
		{Agent: "copilot", Effect: effects.Network, Approved: 2, Programs: []ProgramCount{
			{Program: "git", Subcommand: "push", Count: 2, Example: "git push"},
		}},
		{Agent: "cursor", Mode: "autopilot", Effect: effects.WriteOutside, Approved: 2, Programs: []ProgramCount{
			{Program: "cp", Count: 2, Example: "cp a /tmp/b"},
		}},
	}
	if diff := cmp.Diff(want, got, cmpIgnoreSetting); diff != "" {
		t.Errorf("Suggest (-want +got):\n%s", diff)
	}
	settings := []map[string]map[string]map[string]string{
		{"ml-ai.agentBudgets": {"claude-code": {"network": "allow"}}},
		{"ml-ai.agentBudgets": {"copilot": {"network": "allow"}}},
		{"ml-ai.agentBudgets": {"cursor": {"write-outside-workspace": "allow"}, "autopilot": {"write-outside-workspace": "allow"}}},
	}
	for i, s := range got {
		if i >= len(settings) {
			break
		}
		var m map[string]map[string]map[string]string
		if err := json.Unmarshal([]byte(s.Setting), &m); err != nil {
			t.Errorf("suggestion %d: setting does not parse: %v\n%s", i, err, s.Setting)
		}
		if diff := cmp.Diff(settings[i], m); diff != "" {
			t.Errorf("suggestion %d setting (-want +got):\n%s", i, diff)
		}
		if s.Caveat == "" {
			t.Errorf("suggestion %d has no caveat", i)
		}
	}

	got, err = l.Suggest(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Agent != "claude-code" {
		t.Errorf("Suggest(min 3) = %+v, want only claude-code network", got)
	}
}

var cmpIgnoreSetting = cmp.FilterPath(func(p cmp.Path) bool {
	s := p.String()
	return s == "Setting" || s == "Caveat"
}, cmp.Ignore())

func TestSubcommand(t *testing.T) {
	tests := []struct{ program, text, want string }{
		{"git", "git push origin main", "push"},
		{"git", "git -C sub status", "status"},
		{"git", `"git" push`, "push"},
		{"git", "/usr/bin/git push", "push"},
		{"git", "git frobnicate", ""},
		{"cp", "cp a b", ""},
		{"curl", "curl x", ""},
	}
	for _, tt := range tests {
		if got := subcommand(tt.program, tt.text); got != tt.want {
			t.Errorf("subcommand(%q, %q) = %q, want %q", tt.program, tt.text, got, tt.want)
		}
	}
}
