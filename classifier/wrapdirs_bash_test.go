package classifier

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestWrapperDirsMatchBash runs random lines in a real bash, in a tree with
// symlinks: wrappers with directory options (env -C in each spelling,
// unshare --wd), wrappers without (timeout, nice, stdbuf, command, flock,
// xargs), find -exec and -execdir, sh -c, and before them cd, pushd,
// wrapped cds, and cds in subshells, pipelines, background jobs, after &&
// and ||, in if, case and loop bodies, functions and eval, around a
// stand-in program rec that records
// the directory it runs in (pwd -P). Each directory rec ran in must be one
// of the candidate directories the walker gives that invocation of rec (or
// the walker must call its directory unknown), and rec must have been
// classified at all. A wrapper's directory that the walker misses, or a
// directory that leaks from one command to the next, makes every relative
// path of the carried command wrong: `env --chdir=/ rm -rf x` deleted /x
// while it was classified as ./x.
//
// Only rec and the wrappers run (no program that writes, except flock's
// lock file and rec's log), in a temporary directory with HOME there.
func TestWrapperDirsMatchBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash")
	}
	bash := realBash(t)
	for _, p := range []string{"env", "timeout", "nice", "stdbuf", "flock", "xargs", "find", "unshare"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("REQUIRE_SHELLS") == "1" {
				t.Fatalf("%s is required", p)
			}
			t.Skipf("no %s on this machine", p)
		}
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "ws")
	out := filepath.Join(root, "out")
	bin := filepath.Join(root, "bin")
	for _, d := range []string{"ws/a/b/c", "ws/d", "out/e/f", "bin"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"ws/deep": "a/b/c", "ws/up": "..", "ws/away": "../out/e/f", "ws/a/b/back": "../../d",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	logFile := filepath.Join(root, "rec.log")
	rec := fmt.Sprintf("#!/bin/sh\necho \"$REC_ID $(pwd -P)\" >> %q\n", logFile)
	if err := os.WriteFile(filepath.Join(bin, "rec"), []byte(rec), 0o755); err != nil {
		t.Fatal(err)
	}

	dirs := []string{"deep", "up", "away", "a", "a/b", "..", ".", "a/b/back", "a/b/back/..", "deep/..",
		"missing", "/", ws, out, ws + "/deep/..", "d/../a"}
	rng := rand.New(rand.NewPCG(13, 1))
	d := func() string { return dirs[rng.IntN(len(dirs))] }
	// wrapper returns a wrapper prefix (ending in a space) for a command
	// line, or, for sh -c and find, the whole line around rest.
	var chain func(depth int) string
	wrapper := func(rest string, depth int) string {
		switch rng.IntN(16) {
		case 0:
			return "env -C " + d() + " " + rest
		case 1:
			return "env --chdir=" + d() + " " + rest
		case 2:
			return "env -C" + d() + " " + rest
		case 3:
			return "env --ch " + d() + " " + rest
		case 4:
			return "env -u X --chd=" + d() + " " + rest
		case 5:
			return "unshare --wd=" + d() + " " + rest
		case 6:
			return "unshare -w " + d() + " " + rest
		case 7:
			return "timeout 5 " + rest
		case 8:
			return "nice " + rest
		case 9:
			return "stdbuf -oL " + rest
		case 10:
			return "command " + rest
		case 11:
			return "flock -n .lk " + rest // -n: a nested flock of the same file does not wait
		case 12:
			return "xargs -a /dev/null " + rest
		case 13:
			if depth < 2 {
				return `sh -c "` + chain(depth+1) + `"`
			}
			return rest
		case 14:
			return "find " + d() + " -maxdepth 0 -exec " + rest + ` \;`
		default:
			return "find " + d() + " -maxdepth 0 -execdir " + rest + ` \;`
		}
	}
	prefix := func() string {
		switch rng.IntN(22) {
		case 8:
			return "false && cd " + d() + "; "
		case 9:
			return "cd " + d() + " || cd " + d() + "; "
		case 10:
			return "cd " + d() + " | cat; "
		case 11:
			return "true | cd " + d() + "; "
		case 12:
			return "cd " + d() + " & wait; "
		case 13:
			return "if false; then cd " + d() + "; fi; "
		case 14:
			return "if cd " + d() + "; then cd " + d() + "; else cd " + d() + "; fi; "
		case 15:
			return "for i in 1 2; do cd " + d() + "; done; "
		case 16:
			return "while false; do cd " + d() + "; done; "
		case 17:
			return "f() { cd " + d() + "; }; f; "
		case 18:
			return "eval 'cd " + d() + "'; "
		case 19:
			return "! cd " + d() + " && "
		case 20:
			return "case x in x) cd " + d() + ";; esac; "
		case 21:
			return "{ cd " + d() + "; } | cat; "
		case 0:
			return "cd " + d() + " && "
		case 1:
			return "cd " + d() + "; "
		case 2:
			return "pushd " + d() + " >/dev/null && "
		case 3:
			return "env -C " + d() + " true && "
		case 4:
			return "timeout 5 cd " + d() + "; "
		case 5:
			return "(cd " + d() + "); "
		case 6:
			return "command cd " + d() + " && "
		default:
			return ""
		}
	}
	chain = func(depth int) string {
		var b strings.Builder
		for range rng.IntN(3) {
			b.WriteString(prefix())
		}
		line := "rec"
		for range 1 + rng.IntN(3) {
			line = wrapper(line, depth)
		}
		b.WriteString(line)
		return b.String()
	}
	var lines []string
	for range 500 {
		lines = append(lines, chain(0))
	}

	var script strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&script, "( cd %q; export REC_ID=%d; timeout 10 bash -c %s ) </dev/null >/dev/null 2>&1\n", ws, i, shellQuote(l))
	}
	script.WriteString("true\n") // a failing last line is not a failure of the test
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-s")
	cmd.Stdin = strings.NewReader(script.String())
	cmd.Env = []string{"HOME=" + out, "PATH=" + bin + ":/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash: %v\n%s", err, stderr.String())
	}
	ran := map[int][]string{}
	if f, err := os.Open(logFile); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			id, dir, _ := strings.Cut(sc.Text(), " ")
			n, err := strconv.Atoi(id)
			if err != nil {
				t.Fatalf("bad log line %q", sc.Text())
			}
			ran[n] = append(ran[n], dir)
		}
		f.Close()
	}
	if len(ran) < len(lines)/4 {
		t.Fatalf("rec ran for only %d of %d lines", len(ran), len(lines))
	}

	opts := Options{Cwd: ws, Workspaces: []string{ws}, Home: out}
	for i, src := range lines {
		var cands []string
		seen := false
		w := newWalker(src, opts)
		w.traceArgv = func(prog string, ctx callCtx) {
			if prog == "rec" {
				seen = true
				cands = append(cands, ctx.dirs...)
			}
		}
		w.classifySource(src, 0, len(src), true, 0)
		for _, got := range ran[i] {
			switch {
			case !seen:
				t.Errorf("%s: bash ran rec in %s, the walker never classified rec", src, got)
			case slices.Contains(cands, ""):
			case !slices.Contains(cands, got):
				t.Errorf("%s: bash ran rec in %s, the walker's candidates are %q", src, got, cands)
			}
		}
	}
	t.Logf("%d lines, rec ran for %d", len(lines), len(ran))
}
