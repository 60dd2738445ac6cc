//go:build unix

package gate_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/effects"
)

// TestProgramPositionsMatchBash builds random command lines from wrappers
// (env, timeout, nice, nohup, xargs, find -exec, command, exec, eval, sh -c,
// bash -c, stdbuf, flock, time, builtin) around stand-in programs p1…p4, lets
// a real bash run them, and requires every stand-in that ran to be a part
// of the classification, or the classification to have an unknown program
// part (which prompts or refuses). A program position the classifier misses
// is a command that runs unclassified (SPEC §3 rule 1).
//
// The stand-ins only append their name to a log; the wrappers are the
// system's own. Each line runs in a temporary directory, with HOME there,
// a PATH of the stand-ins and /usr/bin:/bin, no stdin and a time limit.
func TestProgramPositionsMatchBash(t *testing.T) {
	programPositionsMatch(t, "bash", []string{"--norc", "--noprofile", "-c"}, classifier.Bash, nil, nil)
}

// programPositionsMatch runs the lines of TestProgramPositionsMatchBash,
// the shell's own extra lines and random lines of wrappers (with the
// shell's own extra wrappers) in shell, and requires every stand-in that
// ran to be named by a part of the classification as dialect d.
func programPositionsMatch(t *testing.T, shellName string, shellArgs []string, d classifier.Dialect, extraLines, extraWraps []string) {
	for _, p := range []string{shellName, "env", "timeout", "nice", "nohup", "xargs", "find", "stdbuf", "flock"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("REQUIRE_SHELLS") == "1" {
				t.Fatalf("%s is required", p)
			}
			t.Skipf("no %s on this machine", p)
		}
	}
	shell, _ := exec.LookPath(shellName)
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	work := filepath.Join(dir, "work")
	logFile := filepath.Join(dir, "ran.log")
	for _, dir := range []string{bin, work} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A file for globs to match (`*(e:p1:)` runs p1 once per file).
	if err := os.WriteFile(filepath.Join(work, "a"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	stands := []string{"p1", "p2", "p3", "p4"}
	for _, s := range stands {
		script := fmt.Sprintf("#!/bin/sh\necho %s >> %q\n", s, logFile)
		if err := os.WriteFile(filepath.Join(bin, s), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(4, 2))
	lines := []string{
		"env p1", "env -i p1", "env -u HOME p1", "env A=1 B=2 p1", "env -S 'p1 a'", "env -- p1",
		"timeout 5 p1", "timeout -s KILL 5 p1", "timeout -k 1 5 p1", "nice p1", "nice -n 5 p1",
		"nohup p1", "stdbuf -o0 p1", "flock lock p1", "flock -w 1 lock p1", "time p1", "time -p p1",
		"command p1", "command -p p1", "builtin echo x; p1", "exec p1", "eval p1", "eval 'p1; p2'",
		"sh -c 'p1'", "bash -c 'p1 && p2'", "sh -c 'p1' sh x", "echo a | xargs p1", "echo a | xargs -I{} p1 {}",
		"echo a | xargs -n1 -P1 p1", "find . -maxdepth 0 -exec p1 {} \\;", "find . -maxdepth 0 -exec p1 {} +",
		"find . -maxdepth 0 -execdir p1 {} \\;", "p1 | p2", "p1 && p2 || p3", "{ p1; p2; }", "(p1)",
		"$(p1)", "echo $(p1)", "echo `p1`", "p1 <(p2)", "p1 > >(p2)", "if p1; then p2; fi", "while false; do p1; done; p2",
		"for i in a; do p1; done", "case a in a) p1;; esac", "f() { p1; }; f", "x=$(p1) p2", "A=1 p1",
		"timeout 5 env -i nice -n 1 p1", "env timeout 5 sh -c 'xargs p1 < /dev/null; p2'",
	}
	lines = append(lines, extraLines...)
	wrap := []string{"env", "env -i", "timeout 5", "nice -n 2", "nohup", "stdbuf -oL", "command", "time", "flock lock"}
	wrap = append(wrap, extraWraps...)
	for range 150 {
		prog := stands[rng.IntN(len(stands))]
		line := prog + " a"
		for range rng.IntN(4) {
			switch rng.IntN(4) {
			case 0:
				line = wrap[rng.IntN(len(wrap))] + " " + line
			case 1:
				line = "sh -c " + shellQuote(line)
			case 2:
				line = "echo x | xargs " + line
			case 3:
				line = line + "; " + stands[rng.IntN(len(stands))]
			}
		}
		lines = append(lines, line)
	}
	opts := classifier.Options{Cwd: work, Workspaces: []string{work}, Home: dir, Shell: d}
	compared := 0
	for _, line := range lines {
		os.Remove(logFile)
		cmd := exec.Command("timeout", append(append([]string{"10", shell}, shellArgs...), line)...)
		cmd.Dir = work
		cmd.Env = []string{"HOME=" + dir, "PATH=" + bin + ":/usr/bin:/bin"}
		cmd.Stdin = nil
		// Its own process group, so that the test can wait for what bash
		// leaves running: a process substitution (`p1 > >(p2)`) may write
		// to the log after bash exits, and on a loaded machine it wrote
		// into the next line's log, which then named a program that line
		// never runs.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pgid := cmd.Process.Pid
		_ = cmd.Wait() // the stand-ins' log says what ran; exit codes do not matter
		for end := time.Now().Add(10 * time.Second); syscall.Kill(-pgid, 0) == nil; {
			if time.Now().After(end) {
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		data, _ := os.ReadFile(logFile)
		ran := strings.Fields(string(data))
		if len(ran) == 0 {
			continue
		}
		compared++
		r := classifier.Classify(line, opts)
		unknown := false
		var seen []string
		for _, p := range r.Parts {
			seen = append(seen, strings.Fields(p.Program)...)
			if p.Class == effects.OpaqueHigh || p.Refusal == effects.Unparseable {
				unknown = true
			}
		}
		for _, p := range ran {
			if !slices.Contains(seen, p) && !unknown {
				t.Errorf("%s: %s ran %s, which no part of the classification names (parts %+v)", line, shellName, p, r.Parts)
				break
			}
		}
	}
	if compared < len(lines)/2 {
		t.Errorf("only %d of %d lines ran a stand-in", compared, len(lines))
	}
	t.Logf("%d lines ran stand-ins; each was classified", compared)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
