package main

import (
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hookrun"
	"github.com/ml-ai/command-safety/settings"
)

// settingsEnv is [hookrun.SettingsEnv]: where this process finds the
// settings files and the managed policy.
func settingsEnv() settings.Env { return hookrun.SettingsEnv() }

// withPolicyNote adds to v's reason what the managed policy decided, if it
// did (settings.Snapshot.PolicyNote).
func withPolicyNote(v gate.Verdict, snap settings.Snapshot) gate.Verdict {
	v.Reason += snap.PolicyNote(v.Agent, v.Mode, v.Rule, v.Decision)
	return v
}
