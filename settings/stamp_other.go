//go:build !linux && !darwin

package settings

import (
	"io/fs"
	"time"
)

// changeTime is unknown here: the zero time (a stamp then compares the
// file's identity, size, mode and modification time).
func changeTime(fs.FileInfo) time.Time { return time.Time{} }
