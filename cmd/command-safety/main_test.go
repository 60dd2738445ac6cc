package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("u", false, "update testscript golden output")

// TestMain lets testscript run this binary's main as `command-safety`.
// Other tests in this package that need the real binary as a file use
// [builtBinary]. With CS_TEST_LOCK_LOG set, the test binary is instead a
// process that holds the write lock of that decision log ([lockLogProcess]).
func TestMain(m *testing.M) {
	if path := os.Getenv("CS_TEST_LOCK_LOG"); path != "" {
		os.Exit(lockLogProcess(path))
	}
	testscript.Main(m, map[string]func(){"command-safety": main})
}

// TestScripts runs testdata/script/*.txtar against the real command. Each
// script has HOME and XDG_* inside its own work directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
			return nil
		},
	})
}
