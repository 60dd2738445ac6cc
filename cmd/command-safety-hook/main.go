// Command command-safety-hook is the agents' pre-command hook without the
// rest of command-safety: `command-safety-hook hook <agent> [flags]` takes
// the same arguments and answers exactly as `command-safety hook <agent>`
// does ([hookrun.Run]: the same settings, rule store, classifier and
// answer), but it does not link SQLite, the JSON-RPC server or the
// OpenTelemetry SDK: it records each verdict in the hooks' journal (one
// write and one fsync), which every reader of the decision log ingests
// first. `hook install` writes it for the pre-command event when it is
// installed beside command-safety (issue 17: a hook within 3× an empty Go
// program's start).
//
// What needs the log itself goes to command-safety beside it: hold mode
// (the binary is replaced by it, stdin unread) and the agents'
// post-execution reports (it runs with the payload, after the answer is
// known to be none).
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/ml-ai/command-safety/hookrun"
	"github.com/ml-ai/command-safety/hooks"
)

func main() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) }

func run(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	args := argv[1:]
	if len(args) == 0 || args[0] != "hook" {
		fmt.Fprintf(stderr, "usage: %s hook <agent> [--hold[=DURATION]] [--event=NAME] [--limit=DURATION]\n(the agents' hook; everything else is command-safety's)\n", hookrun.HookName)
		return 2 // exit 2 is a block for every supported agent
	}
	args = args[1:]
	if needsFull(args) {
		return delegate(argv[1:], stdin, stdout, stderr)
	}
	var payload bytes.Buffer
	tee := io.TeeReader(stdin, &payload)
	return hookrun.Run(args, tee, stdout, stderr, hookrun.Backend{
		Report: func(ctx context.Context, e *hookrun.Env, agent string, r hooks.Report) error {
			return report(ctx, argv[1:], payload.Bytes(), e.Stderr)
		},
		Answered: func(e *hookrun.Env) {
			kickExport(e)
			if e.IngestDue {
				hookrun.IngestLater(e)
			}
		},
	})
}

// needsFull reports whether this run is command-safety's: hold mode (it
// waits on the log), `hook install`, help, or a platform without the journal.
func needsFull(args []string) bool {
	if len(args) == 0 || args[0] == "install" || args[0] == "uninstall" || !journalSupported {
		return true
	}
	for _, a := range args[1:] {
		if a == "--hold" || strings.HasPrefix(a, "--hold=") {
			return true
		}
	}
	return false
}

// full is command-safety beside this binary.
func full() (string, error) {
	if p := hookrun.Sibling(hookrun.FullName); p != "" {
		return p, nil
	}
	return "", errors.New("command-safety is not installed beside " + hookrun.HookName)
}

// report runs command-safety's hook with the same arguments and payload: a
// post-execution report matches rows in the log (after ingesting the
// journal), and answers nothing.
func report(ctx context.Context, args []string, payload []byte, stderr io.Writer) error {
	bin, err := full()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Stderr = stderr // what it says (a failed match, a settings problem) reaches the agent as its own would
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v", bin, err)
	}
	return nil
}
