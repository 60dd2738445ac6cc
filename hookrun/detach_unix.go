//go:build unix

package hookrun

import "syscall"

// detached puts a child in a session of its own: it outlives the hook.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
