//go:build !unix

package main

import (
	"errors"
	"os"
)

// mkfifo: no FIFOs by path here; the tests that need one skip.
func mkfifo(string) error { return errors.ErrUnsupported }

// dumpGoroutines: no SIGQUIT here.
func dumpGoroutines(interface{ Signal(os.Signal) error }) {}
