//go:build unix

package settings

import "syscall"

// mkfifo makes a FIFO at path (tests of files that are not regular).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
