//go:build cstesthooks

package jsonrpc

import (
	"strconv"
	"strings"
	"time"
)

// In test builds only: a classify whose command starts with
// "#cstest-sleep=MS " sleeps MS milliseconds before deciding, and the command
// "#cstest-panic" panics. The serve tests use them for concurrency,
// cancellation and panic recovery.
func init() { testHook = slowOrPanic }

func slowOrPanic(command string) {
	if rest, ok := strings.CutPrefix(command, "#cstest-sleep="); ok {
		ms, _, _ := strings.Cut(rest, " ")
		if n, err := strconv.Atoi(ms); err == nil {
			time.Sleep(time.Duration(n) * time.Millisecond)
		}
	}
	if command == "#cstest-panic" {
		panic("test panic")
	}
}
