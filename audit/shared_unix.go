//go:build unix

package audit

import (
	"os"
	"syscall"
)

// sharedWithOthers reports whether another process has the log at path
// open, by SQLite's own test (unixLockSharedMemory): every connection holds
// a read lock on byte 128 of the WAL index (the -shm file), and F_GETLK
// reports a lock that another process holds. False when it cannot tell.
//
// The file stays open until the process exits: closing any descriptor of a
// file drops all of the process's POSIX locks on it, SQLite's included, so
// call this only from a process about to exit ([Log.Leave]).
func sharedWithOthers(path string) bool {
	f, err := os.OpenFile(path+"-shm", os.O_RDWR, 0)
	if err != nil {
		return false
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 128, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return false
	}
	leaveOpen = append(leaveOpen, f) // never closed: see above
	return lk.Type != syscall.F_UNLCK
}

// leaveOpen holds the files sharedWithOthers opened, so that no finalizer
// closes them before the process exits.
var leaveOpen []*os.File
