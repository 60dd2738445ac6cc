//go:build !unix

package classifier

import "io/fs"

// platformID: files have no identity in a FileInfo on this platform (on
// Windows it needs a handle), so aliases are matched by resolved path only.
func platformID(fs.FileInfo) (FileID, bool) { return FileID{}, false }
