package settings

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the inode change time (st_ctimespec): no user can set it, so
// a write that restores the modification time still changes it.
func changeTime(info fs.FileInfo) time.Time {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctimespec.Sec, st.Ctimespec.Nsec)
	}
	return time.Time{}
}
