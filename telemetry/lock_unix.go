//go:build unix

package telemetry

import (
	"errors"
	"os"
	"syscall"
)

// fileLock is an exclusive lock on a file, held until unlock or until the
// process ends (flock: the kernel releases it with the descriptor).
type fileLock struct{ f *os.File }

// tryLock takes the lock on path without waiting, or fails with ErrLocked.
func tryLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, err
	}
	return &fileLock{f}, nil
}

func (l *fileLock) unlock() {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	_ = l.f.Close()
}
