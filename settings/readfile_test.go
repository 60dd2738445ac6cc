package settings

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "settings.json")
	write(t, regular, `{"ml-ai.commandSafety": false}`)
	big := filepath.Join(dir, "big.json")
	write(t, big, strings.Repeat(" ", 101))
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(regular, link); err != nil {
		t.Fatal(err)
	}
	type readCase struct {
		name, path string
		want       string // content, or the error text it contains
		wantErr    error  // errors.Is
	}
	cases := []readCase{
		{"regular", regular, `{"ml-ai.commandSafety": false}`, nil},
		{"symlink to a regular file", link, `{"ml-ai.commandSafety": false}`, nil},
		{"missing", filepath.Join(dir, "nope.json"), "no such file", fs.ErrNotExist},
		{"over the limit", big, "larger than 100 bytes", nil},
		{"directory", dir, "is not a regular file (a directory)", ErrNotRegular},
	}
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		if err := mkfifo(fifo); err != nil {
			t.Fatal(err)
		}
		cases = append(cases,
			readCase{"fifo", fifo, "is not a regular file (a FIFO)", ErrNotRegular},
			readCase{"/dev/zero", "/dev/zero", "is not a regular file (a character device)", ErrNotRegular},
			readCase{"/dev/null", "/dev/null", "is not a regular file (a character device)", ErrNotRegular},
		)
		// /dev/stdin of the test process is whatever go test gave it: a
		// pipe, a terminal or /dev/null, never a regular file here.
		if st, err := os.Stdin.Stat(); err == nil && !st.Mode().IsRegular() {
			cases = append(cases, readCase{"/dev/stdin", "/dev/stdin", "is not a regular file", ErrNotRegular})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			data, _, err := ReadFile(tc.path, 100)
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v, want one wrapping %v", err, tc.wantErr)
			}
			switch {
			case err != nil && !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q, want it to contain %q", err, tc.want)
			case err == nil && string(data) != tc.want:
				t.Errorf("read %q, want %q", data, tc.want)
			}
		})
	}
}

// TestReadFileDeadline: a read that stalls (a hung mount) is abandoned after
// the timeout, and the same path then fails at once until it returns.
func TestReadFileDeadline(t *testing.T) {
	release := make(chan struct{})
	oldOpen, oldTimeout := openFile, readTimeout
	openFile = func(path string) (*os.File, error) {
		<-release
		return oldOpen(path)
	}
	readTimeout = 50 * time.Millisecond
	t.Cleanup(func() { openFile, readTimeout = oldOpen, oldTimeout })
	path := filepath.Join(t.TempDir(), "settings.json")
	write(t, path, "{}")

	start := time.Now()
	if _, _, err := ReadFile(path, 100); err == nil || !strings.Contains(err.Error(), "took longer than 50ms") {
		t.Errorf("stalled read: %v, want a timeout", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("stalled read returned after %v", d)
	}
	start = time.Now()
	if _, _, err := ReadFile(path, 100); err == nil || !strings.Contains(err.Error(), "stalled") {
		t.Errorf("second read while the first is stalled: %v, want an immediate failure", err)
	}
	if d := time.Since(start); d > 40*time.Millisecond {
		t.Errorf("second read took %v, want an immediate failure", d)
	}
	close(release)
	for deadline := time.Now().Add(5 * time.Second); stalled.has(path); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the stalled read never cleared")
		}
	}
	if data, _, err := ReadFile(path, 100); err != nil || string(data) != "{}" {
		t.Errorf("read after the stall cleared: %q, %v", data, err)
	}
}
