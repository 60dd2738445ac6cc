//go:build !unix

package settings

import "io/fs"

// policyOwnerWarning checks nothing off Unix (file ownership there is ACLs).
func policyOwnerWarning(fs.FileInfo) string { return "" }
