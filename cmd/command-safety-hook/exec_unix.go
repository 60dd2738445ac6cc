//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/ml-ai/command-safety/hookrun"
	"github.com/ml-ai/command-safety/journal"
)

const journalSupported = journal.Supported

// delegate replaces this process with command-safety (same pid, stdin
// unread, the agent's signals reach it directly). If that fails, the hook
// denies: exit 2 is a block for every agent.
func delegate(args []string, _ io.Reader, _, stderr io.Writer) int {
	bin, err := full()
	if err == nil {
		err = syscall.Exec(bin, append([]string{hookrun.FullName}, args...), os.Environ())
	}
	fmt.Fprintf(stderr, "%s: cannot run command-safety for this hook (%v); the command is denied\n", hookrun.HookName, err)
	return 2
}

// detached puts the child in a session of its own.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// shipping reports whether a process holds the export's lock (telemetry's
// tryLock: an exclusive flock).
func shipping(lockPath string) bool {
	f, err := os.OpenFile(lockPath, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
