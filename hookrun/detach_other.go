//go:build !unix

package hookrun

import "syscall"

func detached() *syscall.SysProcAttr { return nil }
