package journal

import (
	"os"
	"syscall"
)

// datasync flushes f's data and what reading it back needs (fdatasync):
// not its times, which a ring's overwrite in place would otherwise make
// the file system journal at every verdict.
func datasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
