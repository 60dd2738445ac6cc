package main

import (
	"os"
	"path/filepath"
	"runtime"

	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hooks"
	"github.com/ml-ai/command-safety/settings"
)

// installation is this installation's permission-rule store (SPEC §5.6)
// with the decision logs in use: the binary (as started and resolved),
// every editor's user settings, the agents' hook files and the logs. check,
// serve and hook all take the store from here, so that they agree on it
// (issue 12 point 8); serve adds the log per request, as its settings change.
func installation(logs ...string) gate.Installation {
	env := settings.EnvFrom(runtime.GOOS, os.Getenv)
	in := gate.Installation{
		UserSettings: settings.UserFiles(env),
		AgentFiles:   hooks.HookFiles(env.Home, os.Getenv),
	}
	if exe, err := os.Executable(); err == nil {
		in.Binaries = append(in.Binaries, exe)
		if r, err := filepath.EvalSymlinks(exe); err == nil && r != exe {
			in.Binaries = append(in.Binaries, r)
		}
	}
	for _, l := range logs {
		if l == "" {
			continue
		}
		if abs, err := filepath.Abs(l); err == nil {
			l = abs // SQLite opens a relative path from the cwd, as Abs resolves it
		}
		in.Logs = append(in.Logs, l)
	}
	return in
}
