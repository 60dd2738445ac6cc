package telemetry

import (
	"errors"
	"syscall"
)

// fileLock is the lock file opened without sharing: a second open fails
// until the handle is closed, which the system does when the process ends.
type fileLock struct{ h syscall.Handle }

const errorSharingViolation syscall.Errno = 32

// tryLock takes the lock on path without waiting, or fails with ErrLocked.
func tryLock(path string) (*fileLock, error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if errors.Is(err, errorSharingViolation) {
		return nil, ErrLocked
	}
	if err != nil {
		return nil, err
	}
	return &fileLock{h}, nil
}

func (l *fileLock) unlock() { _ = syscall.CloseHandle(l.h) }
