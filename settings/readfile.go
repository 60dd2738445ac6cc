package settings

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"
)

// MaxFileSize bounds a settings file read by [Load] and a [Watcher].
const MaxFileSize = 8 << 20

// ReadTimeout bounds one [ReadFile]. Reading a regular file takes
// microseconds; only a stalled file system (a hung network mount, a FUSE
// server that does not answer) takes longer.
const ReadTimeout = 2 * time.Second

// ErrNotRegular is wrapped by the error of [ReadFile] for a path that is not
// a regular file once opened (symlinks followed).
var ErrNotRegular = errors.New("not a regular file")

// notRegularError says what the file is instead.
type notRegularError struct{ kind string }

func (e *notRegularError) Error() string { return "is not a regular file (" + e.kind + ")" }
func (e *notRegularError) Unwrap() error { return ErrNotRegular }

// kindOf names a non-regular file mode for people.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "an irregular file"
}

// ReadFile reads a configuration file without trusting what the path leads
// to: a repository can commit `.vscode/settings.json` as a FIFO or as a
// symlink to /dev/stdin, /dev/stdout, /dev/tty or /dev/zero, and a plain
// read of any of them blocks for ever, takes input meant for someone else
// or never ends (issue 12). Every settings file of this project, and any
// other configuration file read by cmd/command-safety, is read through it.
//
// ReadFile opens path for reading without blocking and without acquiring a
// controlling terminal (O_NONBLOCK|O_NOCTTY on Unix), following symlinks as
// editors and dotfile managers use them; then it checks on the opened
// descriptor (fstat, so a swap after a check cannot fool it) that it is a
// regular file of at most limit bytes, and only then reads it. The whole
// call is bounded by [ReadTimeout]: a read that does not finish in time is
// abandoned and reported (its goroutine ends when the read does; while one
// is pending for path, later calls for path fail at once instead of
// starting another).
//
// It returns the content and the descriptor's [fs.FileInfo]. A missing file
// is an error wrapping [fs.ErrNotExist]; anything that is not a regular file
// wraps [ErrNotRegular] and reads as "is not a regular file (a FIFO)". Error
// texts other than the open's do not repeat the path.
func ReadFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	if stalled.has(path) {
		return nil, nil, fmt.Errorf("an earlier read has been stalled for more than %v", readTimeout)
	}
	type result struct {
		data []byte
		info fs.FileInfo
		err  error
	}
	done := make(chan result, 1)
	var call stalledCall
	go func() {
		data, info, err := readFile(path, limit)
		done <- result{data, info, err}
		stalled.finish(path, &call)
	}()
	t := time.NewTimer(readTimeout)
	defer t.Stop()
	select {
	case r := <-done:
		return r.data, r.info, r.err
	case <-t.C:
		if !stalled.abandon(path, &call) {
			r := <-done // it finished just now
			return r.data, r.info, r.err
		}
		return nil, nil, fmt.Errorf("reading took longer than %v", readTimeout)
	}
}

// readTimeout is [ReadTimeout]; tests shorten it.
var readTimeout = ReadTimeout

// openFile opens a file for ReadFile; tests replace it to stall.
var openFile = func(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|openFlags, 0)
}

func readFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat() // fstat of the opened descriptor
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, info, &notRegularError{kindOf(info.Mode())}
	}
	if info.Size() > limit {
		return nil, info, fmt.Errorf("larger than %d bytes", limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, info, err
	}
	if int64(len(data)) > limit { // it grew while read
		return nil, info, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, info, nil
}

// stalled tracks paths whose read timed out and has not returned yet.
var stalled = stalledReads{m: map[string]int{}}

type stalledReads struct {
	mu sync.Mutex
	m  map[string]int // path -> abandoned reads still running
}

// stalledCall is one ReadFile's read, as stalledReads sees it.
type stalledCall struct{ finished, abandoned bool }

func (s *stalledReads) has(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[path] > 0
}

// abandon marks c's path stalled unless c has finished; it reports whether
// it did.
func (s *stalledReads) abandon(path string, c *stalledCall) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.finished {
		return false
	}
	c.abandoned = true
	s.m[path]++
	return true
}

// finish records that c's read returned.
func (s *stalledReads) finish(path string, c *stalledCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.finished = true
	if c.abandoned {
		if s.m[path]--; s.m[path] <= 0 {
			delete(s.m, path)
		}
	}
}
