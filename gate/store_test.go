package gate_test

import (
	"slices"
	"testing"

	"github.com/ml-ai/command-safety/gate"
)

// TestInstallationRuleStore: every path once, each log with the files
// SQLite keeps beside it and the hooks' journal.
func TestInstallationRuleStore(t *testing.T) {
	in := gate.Installation{
		Binaries:      []string{"/u/bin/command-safety", "/u/bin/command-safety"},
		UserSettings:  []string{"/u/.config/Code/User/settings.json"},
		AgentFiles:    []string{"/u/.claude/settings.json", ""},
		Logs:          []string{"/u/logs/gate.db"},
		ManagedPolicy: []string{"/etc/ml-ai/policy.json"},
	}
	want := []string{"/u/bin/command-safety", "/u/.config/Code/User/settings.json", "/etc/ml-ai/policy.json", "/u/.claude/settings.json",
		"/u/logs/gate.db", "/u/logs/gate.db-wal", "/u/logs/gate.db-shm", "/u/logs/gate.db-journal", "/u/logs/gate.db.hooks", "/u/logs/gate.db.serve",
		"/u/logs/gate.db.otlp", "/u/logs/gate.db.otlp.lock"}
	if got := in.RuleStore(); !slices.Equal(got, want) {
		t.Errorf("RuleStore() = %q\nwant %q", got, want)
	}
	if got := (gate.Installation{}).RuleStore(); len(got) != 0 {
		t.Errorf("empty installation: %q", got)
	}
}
