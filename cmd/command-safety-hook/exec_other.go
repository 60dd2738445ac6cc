//go:build !unix

package main

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"

	"github.com/ml-ai/command-safety/hookrun"
)

// journalSupported is false: without flock every hook is command-safety's.
const journalSupported = false

// delegate runs command-safety with this process's streams and exits with
// its code; if it cannot run, the hook denies (exit 2 is a block).
func delegate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	bin, err := full()
	if err == nil {
		cmd := exec.Command(bin, args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
		err = cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err == nil {
			return 0
		}
	}
	fmt.Fprintf(stderr, "%s: cannot run command-safety for this hook (%v); the command is denied\n", hookrun.HookName, err)
	return 2
}

func detached() *syscall.SysProcAttr { return nil }

func shipping(string) bool { return false }
