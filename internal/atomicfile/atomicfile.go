// Package atomicfile replaces a file whole: a reader sees the old contents
// or the new, never a part, and after a crash the file is one or the other.
// The settings files `hook install` and `rules add` edit and the export
// state of package telemetry are written through it.
//
// It is written here rather than taken from github.com/google/renameio,
// which does the same, because renameio does not build for Windows, a
// platform the .vsix ships.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data: a temporary file in the same directory,
// given mode, written, fsynced, closed and renamed over path. The
// directory must exist. On an error path is unchanged and the temporary
// file is gone.
func Write(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename this fails harmlessly
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}
