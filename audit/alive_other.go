//go:build !unix

package audit

// processAlive reports whether a process with this pid runs. Without a
// cheap check here it says yes: such holds are released once their timeout
// has passed by a minute.
func processAlive(int) bool { return true }
