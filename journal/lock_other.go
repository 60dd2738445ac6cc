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
