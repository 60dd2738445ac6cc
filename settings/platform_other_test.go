//go:build !unix

package settings

import "errors"

// mkfifo: no FIFOs by path here; the tests that need one skip.
func mkfifo(string) error { return errors.ErrUnsupported }
