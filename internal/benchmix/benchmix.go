// Package benchmix holds what the classifier's benchmarks measure: the mix
// of commands coding agents typically run and the environment they run it
// in. The gate's benchmarks (targets) and bench/classify (the ratio to the
// parser alone) share it, so their figures are of the same inputs.
package benchmix

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ml-ai/command-safety/classifier"
)

// Typical is a mix of what coding agents run, weighted towards reads and
// tests. Its median is the "typical command" figure of the README.
var Typical = []string{
	"ls -la",
	"git status",
	"git diff --stat HEAD~1",
	"cat go.mod",
	"grep -rn 'func main' .",
	"go test ./...",
	"npm test",
	"rg -n TODO src",
	"find . -name '*.go' -not -path './vendor/*'",
	"git log --oneline -20",
	"cd src && ls",
	"sed -n '1,40p' main.go",
	"python -m pytest -q tests/",
	"npm install lodash",
	"rm -rf build",
	"git add -A && git commit -m 'fix: handle empty input'",
	"head -50 README.md | tail -20",
	"cargo test --workspace",
	"echo done > /tmp/out.txt",
	"bash -lc 'ls && git status'",
}

// Env makes a real home with a workspace in it (with src/ and build/), as
// on a developer's machine: path resolution asks the real filesystem.
func Env(tb testing.TB) classifier.Options {
	home := tb.TempDir()
	ws := filepath.Join(home, "ws")
	for _, d := range []string{"src", "build"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	return classifier.Options{Cwd: ws, Workspaces: []string{ws}, Home: home, Shell: classifier.Bash}
}
