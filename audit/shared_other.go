//go:build !unix

package audit

// sharedWithOthers reports whether another process has the log open.
// Without a cheap test here it says no, so that [Log.Leave] always tries to
// checkpoint a WAL past [WALLimit].
func sharedWithOthers(string) bool { return false }
