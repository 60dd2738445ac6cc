package telemetry

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkKick is what a hook or check pays for export: the lock probe and
// starting the detached shipper (here /bin/true), without waiting for it.
func BenchmarkKick(b *testing.B) {
	exe, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1)")
	}
	log := filepath.Join(b.TempDir(), "decisions.db")
	for b.Loop() {
		if err := Kick(log, exe, []string{"true"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKickWhileShipping is the same while a shipper holds the log's
// export: only the lock probe.
func BenchmarkKickWhileShipping(b *testing.B) {
	log := filepath.Join(b.TempDir(), "decisions.db")
	l, err := tryLock(LockFile(log))
	if err != nil {
		b.Fatal(err)
	}
	defer l.unlock()
	for b.Loop() {
		if err := Kick(log, "/nonexistent", []string{"x"}); err != nil {
			b.Fatal(err)
		}
	}
}
