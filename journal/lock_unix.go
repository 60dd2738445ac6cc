//go:build unix

package journal

import (
	"os"
	"syscall"
)

// Supported reports whether this platform has the journal (flock).
const Supported = true

// lock takes f's flock, shared or exclusive, waiting for it. The kernel
// releases it when f is closed (or the process dies).
func lock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// openNonblock keeps opening a FIFO from waiting for a reader.
const openNonblock = syscall.O_NONBLOCK

// tryLock takes f's exclusive flock if nobody holds it, without waiting, and
// reports whether it did.
func tryLock(f *os.File) bool {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != syscall.EINTR {
			return err == nil
		}
	}
}
