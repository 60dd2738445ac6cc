//go:build !unix

package settings

// openFlags: Windows has no FIFOs or terminal devices to open by a path in a
// repository; the descriptor check and the deadline of ReadFile still apply.
const openFlags = 0
