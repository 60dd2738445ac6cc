//go:build !unix && !windows

package telemetry

import "syscall"

func detached() *syscall.SysProcAttr { return nil }
