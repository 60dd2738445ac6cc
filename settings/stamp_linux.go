package settings

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the inode change time (st_ctim): no user can set it, so a
// write that restores the modification time still changes it.
func changeTime(info fs.FileInfo) time.Time {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return time.Time{}
}
