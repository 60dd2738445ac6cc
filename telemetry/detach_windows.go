package telemetry

import "syscall"

// detached starts the child in a process group of its own, without a console.
func detached() *syscall.SysProcAttr {
	const createNewProcessGroup, detachedProcess = 0x00000200, 0x00000008
	return &syscall.SysProcAttr{CreationFlags: createNewProcessGroup | detachedProcess}
}
