package settings

import (
	"io/fs"
	"os"
	"time"
)

// racyWindow is how close to its read a file's change time may be for the
// read to be trusted as its content: file systems keep times in ticks (a
// few milliseconds on Linux, 1 s on HFS+, 2 s on FAT), so a file written
// again within the tick of a read can keep its size and times. A file read
// within the window of its last change is read again next time (git's
// "racily clean" entries). A variable for tests.
var racyWindow = 2 * time.Second

// stamp is what a stat says about the file a read saw: which file (device
// and inode), its size, mode and times. A later stat that matches means the
// file has not changed since, unless the read was racy.
type stamp struct {
	info   fs.FileInfo
	ctime  time.Time // inode change time, where the platform has one
	readAt time.Time
}

func newStamp(info fs.FileInfo, readAt time.Time) stamp {
	return stamp{info: info, ctime: changeTime(info), readAt: readAt}
}

// racy reports whether the file changed too close to the read for its
// times to tell a later write apart.
func (s stamp) racy() bool {
	return s.readAt.Sub(s.info.ModTime()) < racyWindow || s.readAt.Sub(s.ctime) < racyWindow
}

// matches reports whether info (a later stat of the same path) describes
// the file as it was read.
func (s stamp) matches(info fs.FileInfo) bool {
	return os.SameFile(s.info, info) && s.info.Size() == info.Size() && s.info.Mode() == info.Mode() &&
		s.info.ModTime().Equal(info.ModTime()) && s.ctime.Equal(changeTime(info))
}
