//go:build !unix

package classifier

import "os"

// openNoBlock opens p for reading (Windows has no FIFOs in the filesystem;
// the regular-file check after opening still applies).
func openNoBlock(p string) (*os.File, error) { return os.Open(p) }
