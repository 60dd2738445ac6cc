//go:build !windows

package settings

// programData is Windows' ProgramData folder; off Windows (paths computed
// for another GOOS, as in tests) its default location.
func programData() string { return `C:\ProgramData` }
