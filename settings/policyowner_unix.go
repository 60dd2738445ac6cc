//go:build unix

package settings

import (
	"fmt"
	"io/fs"
	"syscall"
)

// policyOwnerWarning says when the policy file a read saw (info) can be
// changed by others than an administrator: not owned by root, or writable
// by its group or by everyone. Such a policy still applies (whoever can
// write it can also remove it, which a warning would not stop), but the
// administrator should know.
func policyOwnerWarning(info fs.FileInfo) string {
	if info == nil {
		return ""
	}
	if info.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("the managed policy is writable by others than its owner (mode %v); make it writable only by an administrator", info.Mode().Perm())
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Uid != 0 {
		return fmt.Sprintf("the managed policy is owned by uid %d, not root; make it owned and writable only by an administrator", st.Uid)
	}
	return ""
}
