//go:build unix

package classifier

import (
	"os"
	"syscall"
)

// openNoBlock opens p for reading without blocking on a FIFO or a device
// that a repository may hold in place of a manifest.
func openNoBlock(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
