//go:build unix

package main

import (
	"os"
	"syscall"
)

// mkfifo makes a FIFO at path (tests of files that are not regular).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// dumpGoroutines asks a Go process for its goroutine dump (on its stderr).
func dumpGoroutines(p interface{ Signal(os.Signal) error }) { _ = p.Signal(syscall.SIGQUIT) }
