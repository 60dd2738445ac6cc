//go:build unix

package telemetry

import "syscall"

// detached puts the child in a session of its own.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
