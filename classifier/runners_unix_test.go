//go:build unix

package classifier

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestRunnersRealFS checks package runners against the real filesystem: an
// installed binary (a symlink, as npm makes it) runs as its entry, a
// manifest's scripts shadow a binary, and a package.json that is a FIFO is
// neither waited on nor trusted.
func TestRunnersRealFS(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(ws, "node_modules", ".bin")
	must(os.MkdirAll(filepath.Join(ws, "node_modules", "typescript", "bin"), 0o755))
	must(os.MkdirAll(bin, 0o755))
	must(os.WriteFile(filepath.Join(ws, "node_modules", "typescript", "bin", "tsc"), []byte("#!/usr/bin/env node\n"), 0o755))
	must(os.Symlink("../typescript/bin/tsc", filepath.Join(bin, "tsc")))
	must(os.Symlink("../typescript/bin/missing", filepath.Join(bin, "vitest"))) // dangling: not installed
	must(os.WriteFile(filepath.Join(ws, "package.json"), []byte(`{"scripts": {"tsc": "tsc -p ."}}`), 0o644))
	must(os.MkdirAll(filepath.Join(ws, "fifo", "node_modules", ".bin"), 0o755))
	must(os.WriteFile(filepath.Join(ws, "fifo", "node_modules", ".bin", "eslint"), nil, 0o755))
	must(syscall.Mkfifo(filepath.Join(ws, "fifo", "package.json"), 0o644))
	via := filepath.Join(filepath.Dir(ws), "via")
	must(os.Symlink(ws, via))
	opts := Options{Cwd: ws, Workspaces: []string{ws}, Home: filepath.Dir(ws)}
	// The cwd as an agent gives it, through a link to the workspace (macOS's
	// /tmp is /private/tmp): the same project.
	linked := Options{Cwd: via, Workspaces: []string{ws}, Home: filepath.Dir(ws)}
	for cmd, want := range map[string]string{"npx tsc --noEmit": "verify", "npm test": "verify", "make lint": "verify"} {
		if got := classSet(Classify(cmd, linked)); got != want {
			t.Errorf("from %s: %q = [%s], want [%s]", via, cmd, got, want)
		}
	}
	for cmd, want := range map[string]string{
		"npx tsc --noEmit":            "verify",
		"npx vitest run":              "network opaque-medium verify",
		"pnpm tsc --noEmit":           "opaque-low",
		"cd fifo && pnpm eslint .":    "opaque-low",
		"cd fifo && npx eslint --fix": "write-inside-workspace",
	} {
		done := make(chan string, 1)
		go func() { done <- classSet(Classify(cmd, opts)) }()
		select {
		case got := <-done:
			if got != want {
				t.Errorf("%q = [%s], want [%s]", cmd, got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: classification blocked (a FIFO read?)", cmd)
		}
	}
}
