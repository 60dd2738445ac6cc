package gate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/internal/benchmix"
)

// typical is the mix of the README's typical-command figure.
var typical = benchmix.Typical

// benchEnv is a real home with a workspace in it.
func benchEnv(b *testing.B) classifier.Options { return benchmix.Env(b) }

// typicalZsh is what coding agents run in zsh (macOS): the typical mix,
// with some of zsh's own forms (glob qualifiers, parameter flags).
var typicalZsh = append(append([]string(nil), typical...),
	"print -l *.md", "ls **/*.go", "print -l *(.om[1,3])", "echo ${(j:,:)${(f)\"$(git status --short)\"}}")

// installedEnv is benchEnv with an installation's rule store on disk, as
// check, serve and hook pass it (gate.Installation): every editor's user
// settings (VS Code's exists), the agents' hook files (Claude Code's
// exists), the decision log with its WAL, and the binary.
func installedEnv(b *testing.B) classifier.Options {
	o := benchEnv(b)
	h := func(p string) string { return filepath.Join(o.Home, p) }
	for _, f := range []string{".config/Code/User/settings.json", ".claude/settings.json",
		".local/state/ml-ai/decisions.db", ".local/state/ml-ai/decisions.db-wal", "bin/command-safety"} {
		if err := os.MkdirAll(filepath.Dir(h(f)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(h(f), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	in := gate.Installation{
		Binaries: []string{h("bin/command-safety")},
		UserSettings: []string{h(".config/Code/User/settings.json"), h(".config/Code - Insiders/User/settings.json"),
			h(".config/VSCodium/User/settings.json"), h(".config/Cursor/User/settings.json"),
			h(".local/share/code-server/User/settings.json")},
		AgentFiles: []string{h(".claude/settings.json"), h(".claude/settings.local.json"), h(".cursor/hooks.json"), h(".gemini/settings.json")},
		Logs:       []string{h(".local/state/ml-ai/decisions.db")},
	}
	o.RuleStore, o.Binaries = in.RuleStore(), in.Binaries
	return o
}

// BenchmarkClassifyInstalled is BenchmarkClassifyTypical with an
// installation's rule store: what a command costs in check, serve and hook.
// Commands that write, move or delete resolve the store once.
func BenchmarkClassifyInstalled(b *testing.B) {
	benchOpts := installedEnv(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		classifier.Classify(typical[i%len(typical)], benchOpts)
	}
}

func BenchmarkClassifyInstalledEach(b *testing.B) {
	benchOpts := installedEnv(b)
	for _, cmd := range typical {
		b.Run(cmd, func(b *testing.B) {
			for b.Loop() {
				classifier.Classify(cmd, benchOpts)
			}
		})
	}
}

func BenchmarkClassifyTypical(b *testing.B) {
	benchOpts := benchEnv(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		classifier.Classify(typical[i%len(typical)], benchOpts)
	}
}

// BenchmarkClassifyTypicalZsh is BenchmarkClassifyTypical read as zsh, and
// BenchmarkClassifyTypicalUnknown as bash and as zsh (the shell not known).
func BenchmarkClassifyTypicalZsh(b *testing.B) {
	benchOpts := benchEnv(b)
	benchOpts.Shell = classifier.Zsh
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		classifier.Classify(typical[i%len(typical)], benchOpts)
	}
}

func BenchmarkClassifyTypicalUnknown(b *testing.B) {
	benchOpts := benchEnv(b)
	benchOpts.Shell = classifier.UnknownDialect
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		classifier.Classify(typical[i%len(typical)], benchOpts)
	}
}

// BenchmarkClassifyEachShell is BenchmarkClassifyEach for every dialect,
// with zsh's own forms too: a zsh command against the same bash one.
func BenchmarkClassifyEachShell(b *testing.B) {
	benchOpts := benchEnv(b)
	for _, d := range classifier.Dialects {
		o := benchOpts
		o.Shell = d
		for _, cmd := range typicalZsh {
			b.Run(d.String()+"/"+cmd, func(b *testing.B) {
				for b.Loop() {
					classifier.Classify(cmd, o)
				}
			})
		}
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
	m := map[string]string{
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
		"64KiB-escapes":  "echo " + strings.Repeat(`\a`, 32000),
		"64KiB-dq-lines": `echo -e "` + strings.Repeat(`a\n`, 21000) + `"`,
		"arith-names":    "x='" + strings.Repeat("b ", 5000) + "'; b='" + strings.Repeat("c ", 5000) + "'; c='" + strings.Repeat("d ", 5000) + "'; d=1; echo $((x))",
		"arith-text":     "x='" + strings.Repeat("1+", 16000) + "1'; " + strings.Repeat("echo $((x)); ", 300),
	}
	// Just under classifier.MaxUnits: the costliest commands that are
	// classified rather than refused before parsing.
	units := classifier.MaxUnits
	for name, cmd := range map[string]string{
		"limit-commands":      strings.Repeat("ls;", units/2-1),
		"limit-pipeline":      strings.Repeat("ls | ", units/2-1) + "ls",
		"limit-and-list":      strings.Repeat("ls && ", units/3-1) + "ls",
		"limit-mixed-chain":   strings.Repeat("ls && ls || ls | ", units/9-1) + "ls",
		"limit-words":         "echo" + strings.Repeat(" abcdefg", units-2),
		"limit-substitutions": "echo " + strings.Repeat("$(ls)", units/2-2),
		"limit-sh-c":          "sh -c '" + strings.Repeat("ls;", units/2-4) + "'",
		"limit-rm-files":      "rm" + numbered(" src/f%d", units-2),
		"limit-rm-dirs":       "rm" + numbered(" d%d/f", units-2),
		"limit-writes":        numbered("echo>f%d;", units/4-1),
		"limit-cd":            numbered("cd d%d;ls;", units/5-1),
		"limit-brace-fields":  fmt.Sprintf("rm src/f{1..%d}", units/2-1), // a field counts twice
		"limit-glob-reads":    "cat" + numbered(" src/*%d*.x", units-2),  // each glob compared with credential names
		"limit-find-names":    "find ." + strings.Repeat(" -name '*a*b*c*d*e*f*g*' -o", units/4) + " -print",
	} {
		if len(cmd) > classifier.MaxBytes {
			panic(name + " is over 64 KiB")
		}
		m[name] = cmd
	}
	return m
}

// numbered repeats format (one %d) with 0, 1, … n-1.
func numbered(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
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

// BenchmarkClassifyHostileShells is BenchmarkClassifyHostile read as zsh
// and as an unknown shell (bash and zsh), where the slowest input is read
// twice.
func BenchmarkClassifyHostileShells(b *testing.B) {
	benchOpts := benchEnv(b)
	for _, d := range []classifier.Dialect{classifier.Zsh, classifier.UnknownDialect} {
		o := benchOpts
		o.Shell = d
		for name, cmd := range hostile() {
			b.Run(d.String()+"/"+name, func(b *testing.B) {
				for b.Loop() {
					classifier.Classify(cmd, o)
				}
			})
		}
	}
}

// issue14 are the shapes issue 14 made read or verify: check scripts by
// name, package runners naming an installed program (one stat per
// directory up to the root, and package.json for pnpm's shorthand), loopback
// reads, and a Windows command line.
var issue14 = []string{
	"npm run lint",
	"npx tsc --noEmit",
	"pnpm vitest run",
	"uv run pytest -q",
	"curl -s http://localhost:3000/api/health",
	"curl -sS -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/",
}

// BenchmarkClassifyIssue14Each is BenchmarkClassifyEach for issue14's
// shapes, in a workspace with node_modules/.bin, .venv/bin and a
// package.json on disk (and, for the last case, Git Bash's spelling).
func BenchmarkClassifyIssue14Each(b *testing.B) {
	o := benchEnv(b)
	for _, f := range []string{"node_modules/.bin/tsc", "node_modules/.bin/vitest", ".venv/bin/pytest"} {
		p := filepath.Join(o.Cwd, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(o.Cwd, "package.json"), []byte(`{"scripts": {"lint": "eslint ."}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, cmd := range issue14 {
		b.Run(cmd, func(b *testing.B) {
			for b.Loop() {
				classifier.Classify(cmd, o)
			}
		})
	}
	win := classifier.Options{Cwd: `C:\Users\me\ws`, Workspaces: []string{`C:\Users\me\ws`}, Home: `C:\Users\me`, Platform: classifier.Windows, FS: winCorpusFS{}}
	b.Run(`windows cd "C:\Users\me\ws" && rm -rf build`, func(b *testing.B) {
		for b.Loop() {
			classifier.Classify(`cd "C:\Users\me\ws" && rm -rf build`, win)
		}
	})
}
