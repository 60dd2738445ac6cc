//go:build unix

package classifier

import (
	"io/fs"
	"syscall"
)

// platformID is the device and inode of a FileInfo from os.Lstat.
func platformID(fi fs.FileInfo) (FileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return FileID{}, false
	}
	return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true // Dev is int32 on darwin
}
