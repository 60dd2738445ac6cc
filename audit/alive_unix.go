//go:build unix

package audit

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this pid runs (EPERM: it runs
// as another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
