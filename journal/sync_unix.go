//go:build unix && !linux

package journal

import "os"

// datasync flushes f's data (fsync; on macOS Go's F_FULLFSYNC).
func datasync(f *os.File) error { return f.Sync() }
