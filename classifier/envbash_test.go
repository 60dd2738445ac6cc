package classifier

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// TestEnvReachMatchesBash runs lines that set GIT_PAGER in every way bash
// has (in front of the command, plainly, export, declare -x, env, read,
// printf -v, loops, functions, eval, subshells, set -a, quoted export
// words) around a stand-in `git` that records the GIT_PAGER it was given,
// and requires that whenever the stand-in saw the line's value, the
// classifier counts GIT_PAGER for that line (opaque-medium, or
// opaque-high for a value only known at run time). The classifier may
// count more (a plain assignment may be exported already), never less.
//
// Only the stand-in and bash's builtins run, in a temporary directory with
// HOME there; the value is a marker, never run.
func TestEnvReachMatchesBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash")
	}
	envReachMatches(t, realBash(t), []string{"--norc", "--noprofile", "-c"}, Bash)
}

// TestEnvReachMatchesZsh is TestEnvReachMatchesBash against zsh (`zsh -f`),
// read as zsh.
func TestEnvReachMatchesZsh(t *testing.T) {
	if testing.Short() {
		t.Skip("runs zsh")
	}
	envReachMatches(t, realZsh(t), []string{"-f", "-c"}, Zsh)
}

// envReachMatches runs the lines of TestEnvReachMatchesBash in shell.
func envReachMatches(t *testing.T, shell string, shellArgs []string, d Dialect) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(root, "git.log")
	stand := "#!/bin/sh\nprintf '%s\\n' \"${GIT_PAGER-unset}\" >> " + shellQuote(logFile) + "\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(stand), 0o755); err != nil {
		t.Fatal(err)
	}
	const mark = "cs-marker"
	cmd := "git log"
	lines := []string{
		"GIT_PAGER=M C",
		"export GIT_PAGER=M; C",
		"GIT_PAGER=M; C",
		"declare -x GIT_PAGER=M; C",
		"typeset -x GIT_PAGER=M; C",
		"env GIT_PAGER=M C",
		"env -- GIT_PAGER=M C",
		"(export GIT_PAGER=M); C",
		"f() { export GIT_PAGER=M; }; f; C",
		"f() { C; }; export GIT_PAGER=M; f",
		"f() { local -x GIT_PAGER=M; C; }; f",
		"for i in 1 2; do C; export GIT_PAGER=M; done",
		"x=; while [ -z \"$x\" ]; do C; export GIT_PAGER=M; x=1; done; C",
		"bash -c 'export GIT_PAGER=M; C'",
		"export GIT_PAGER; GIT_PAGER=M; C",
		"declare -x GIT_PAGER; GIT_PAGER=M; C",
		"GIT_PAGER=M eval C",
		"GIT_PAGER=M timeout 5 C",
		"GIT_PAGER=M command C",
		"GIT_PAGER=M sh -c 'C'",
		"eval 'export GIT_PAGER=M'; C",
		"for GIT_PAGER in M; do export GIT_PAGER; C; done",
		"read GIT_PAGER <<< M; export GIT_PAGER; C",
		"while read GIT_PAGER; do export GIT_PAGER; C; done <<< M",
		"printf -v GIT_PAGER M; export GIT_PAGER; C",
		"export -n GIT_PAGER=M; C",
		"C; export GIT_PAGER=M",
		"export GIT_PAGER=M && C",
		"true || export GIT_PAGER=M; C",
		"{ export GIT_PAGER=M; }; C",
		"if true; then export GIT_PAGER=M; fi; C",
		"case x in x) export GIT_PAGER=M;; esac; C",
		"set -a; GIT_PAGER=M; C",
		"export \"GIT_PAGER=M\"; C",
		"export GIT_PAGER\"=M\"; C",
		"declare 'GIT_PAGER=M'; export GIT_PAGER; C",
		"export GIT_PAGER+=M; C",
		"GIT_PAGER=M xargs C < /dev/null",
		"declare -n p=GIT_PAGER; p=M; export GIT_PAGER; C",
		"declare -n p=GIT_PAGER; export p=M; C",
		"declare -n p=GIT_PAGER; read p <<< M; export GIT_PAGER; C",
		"declare -n p; for p in GIT_PAGER; do p=M; export GIT_PAGER; C; done",
		"mapfile -t GIT_PAGER <<< M; export GIT_PAGER; C",
		"read -a GIT_PAGER <<< M; export GIT_PAGER; C",
	}
	opts := Options{Cwd: root, Workspaces: []string{root}, Home: root, Shell: d}
	for _, tmpl := range lines {
		line := strings.ReplaceAll(strings.ReplaceAll(tmpl, "M", mark), "C", cmd)
		os.Remove(logFile)
		run := exec.Command(shell, append(shellArgs, line)...)
		run.Dir = root
		run.Env = []string{"HOME=" + root, "PATH=" + bin + ":" + os.Getenv("PATH")}
		if out, err := run.CombinedOutput(); err != nil {
			t.Logf("%s: %v %s", line, err, out)
		}
		seen, _ := os.ReadFile(logFile)
		reached := strings.Contains(string(seen), mark)
		got := classesOf(Classify(line, opts))
		counted := hasClass(got, effects.OpaqueMedium) || hasClass(got, effects.OpaqueHigh)
		if reached && !counted {
			t.Errorf("%s: %s gives git GIT_PAGER=%s, the classifier sees [%s]", line, d, mark, renderSet(got))
		}
		t.Logf("%-60s %s: %-5v classifier: %v", line, d, reached, counted)
	}
}
