//go:build !unix

package journal

import (
	"errors"
	"os"
)

// Supported reports whether this platform has the journal (flock). Where it
// has not, hooks write the decision log itself.
const Supported = false

func lock(*os.File, bool) error {
	return errors.New("the hook journal needs flock, which this platform lacks")
}

const openNonblock = 0

// tryLock never takes a lock here: no ring is ever abandoned.
func tryLock(*os.File) bool { return false }

// datasync flushes f's data.
func datasync(f *os.File) error { return f.Sync() }
