package main

import (
	"os"
	"runtime"

	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/settings"
)

// settingsEnv is where this process finds the settings files and the
// managed policy. The policy is at its system location (settings.PolicyFile);
// only a test build moves it ([testPolicyFile]).
func settingsEnv() settings.Env {
	env := settings.EnvFrom(runtime.GOOS, os.Getenv)
	env.PolicyFile = testPolicyFile()
	return env
}

// testPolicyFile returns "" in a release binary. Test builds (the
// cstesthooks tag, and this package's test binary through TestMain) set it
// to read CS_TEST_POLICY_FILE, so that process tests can install a policy
// without root; a release binary never reads that variable.
var testPolicyFile = func() string { return "" }

// withPolicyNote adds to v's reason what the managed policy decided, if it
// did (settings.Snapshot.PolicyNote).
func withPolicyNote(v gate.Verdict, snap settings.Snapshot) gate.Verdict {
	v.Reason += snap.PolicyNote(v.Agent, v.Mode, v.Rule, v.Decision)
	return v
}
