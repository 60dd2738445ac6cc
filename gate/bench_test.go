package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/classifier"
)

// typical is a mix of what coding agents run, weighted towards reads and tests.
var typical = []string{
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

// benchEnv makes a real home with a workspace in it (with src/ and build/),
// as on a developer's machine: path resolution asks the real filesystem.
func benchEnv(b *testing.B) classifier.Options {
	home := b.TempDir()
	ws := filepath.Join(home, "ws")
	for _, d := range []string{"src", "build"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	return classifier.Options{Cwd: ws, Workspaces: []string{ws}, Home: home}
}

func BenchmarkClassifyTypical(b *testing.B) {
	benchOpts := benchEnv(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		classifier.Classify(typical[i%len(typical)], benchOpts)
	}
}

func BenchmarkClassifyEach(b *testing.B) {
	benchOpts := benchEnv(b)
	for _, cmd := range typical {
		b.Run(cmd, func(b *testing.B) {
			for b.Loop() {
				classifier.Classify(cmd, benchOpts)
			}
		})
	}
}

func hostile() map[string]string {
	return map[string]string{
		"64KiB-words":    "echo " + strings.Repeat("abcdefg ", (64<<10-5)/8),
		"64KiB-pipeline": strings.Repeat("ls | ", (64<<10)/5-1) + "ls",
		"64KiB-and-list": strings.Repeat("rm a && ", (64<<10)/8-1) + "ls",
		"64-deep-subst":  strings.Repeat("echo $(", 64) + "ls" + strings.Repeat(")", 64),
		"65-deep-subst":  strings.Repeat("echo $(", 65) + "ls" + strings.Repeat(")", 65),
		"nested-sh-c":    nestedShC(),
		"over-limit":     strings.Repeat("a", 64<<10+1),
		"64KiB-quotes":   "echo '" + strings.Repeat("x", 64<<10-8) + "'",
		"deep-subshells": strings.Repeat("(", 200) + "ls" + strings.Repeat(")", 200),
		"many-redirects": "ls" + strings.Repeat(" > /tmp/x", (64<<10)/10-1),
		"20000-commands": strings.Repeat("ls;", (64<<10)/3-1),
		"deep-parens":    strings.Repeat("(", 32000) + "ls" + strings.Repeat(")", 32000),
	}
}

// nestedShC nests `sh -c '...'` as deep as fits in 64 KiB (quoting grows
// the text fourfold per level).
func nestedShC() string {
	s := "ls"
	for {
		next := "sh -c " + shQuote(s)
		if len(next) > 64<<10 {
			return s
		}
		s = next
	}
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func BenchmarkClassifyHostile(b *testing.B) {
	benchOpts := benchEnv(b)
	for name, cmd := range hostile() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				classifier.Classify(cmd, benchOpts)
			}
		})
	}
}
