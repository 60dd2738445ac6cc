package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/ml-ai/command-safety/hookrun"
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
	// The test binary is a test build: CS_TEST_POLICY_FILE moves the
	// managed policy, as in a cstesthooks build (policy_testtag.go).
	hookrun.TestPolicyFile = func() string { return os.Getenv("CS_TEST_POLICY_FILE") }
	testscript.Main(m, map[string]func(){"command-safety": main})
}

// TestScripts runs testdata/script/*.txtar against the real command. Each
// script has HOME and XDG_* inside its own work directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"expand": cmdExpand, "frame": cmdFrame},
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

// cmdExpand is `expand SRC DST`: DST is SRC with the script's $VARS
// expanded (settings and payloads that name paths under $WORK).
func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expand SRC DST")
	}
	data := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(data), 0o644))
}

// cmdFrame is `frame SRC DST`: each non-empty line of SRC, a JSON-RPC
// message with $VARS expanded, becomes one LSP frame in DST (txtar is LF
// only, and frames need CRLF), for `stdin DST` before `exec command-safety serve`.
func cmdFrame(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: frame SRC DST")
	}
	var b strings.Builder
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		if line = strings.TrimSpace(os.Expand(line, ts.Getenv)); line != "" {
			fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(line), line)
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
}
