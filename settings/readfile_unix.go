//go:build unix

package settings

import "syscall"

// openFlags make opening a FIFO return at once (O_NONBLOCK) and keep a
// terminal device from becoming the controlling terminal (O_NOCTTY).
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
