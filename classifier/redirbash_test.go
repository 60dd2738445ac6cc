package classifier

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRedirectionsMatchBash runs random lines of redirections on the no-op
// `:` (and on groups, loops, subshells and `exec`) in a real bash, after an
// optional cd, and requires every file bash creates to be one the walker
// classified as written (SPEC §3 rule 4: redirections are writes whatever the
// program). Only `:` and cd run, in a fresh temporary directory per line.
func TestRedirectionsMatchBash(t *testing.T) {
	bash := realBash(t)
	rng := rand.New(rand.NewPCG(6, 1))
	targets := []string{"a", "b", "sub/c", "../up", "sub/../d", "./e", "sub/./f", "link/g", "'q r'", `"h"i`, "$'j'"}
	ops := []string{">", ">>", ">|", "&>", "&>>", "<>", "2>", "3>", "1>>", "2>>"}
	shapes := []string{": R", "{ :; } R", "( : ) R", "for i in 1; do :; done R", "if :; then :; fi R",
		"exec R", ": R | :", "x=1 R", ": <<<x R", "f() { :; } R; f"}
	var lines []string
	for range 200 {
		var rs []string
		for range 1 + rng.IntN(3) {
			rs = append(rs, ops[rng.IntN(len(ops))]+targets[rng.IntN(len(targets))])
		}
		if rng.IntN(4) == 0 {
			rs = append(rs, []string{"2>&1", ">&2", "3>&1"}[rng.IntN(3)])
		}
		line := strings.Replace(shapes[rng.IntN(len(shapes))], "R", strings.Join(rs, " "), 1)
		if rng.IntN(3) == 0 {
			line = []string{"cd sub && ", "cd sub; ", "cd link; ", "cd ..; cd work; "}[rng.IntN(4)] + line
		}
		lines = append(lines, line)
	}
	compared := 0
	for _, line := range lines {
		root, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		work := filepath.Join(root, "work")
		if err := os.MkdirAll(filepath.Join(work, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, "elsewhere"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(work, "link")); err != nil {
			t.Fatal(err)
		}
		before := files(t, root)
		cmd := exec.Command("timeout", "10", bash, "--norc", "--noprofile", "-c", line)
		cmd.Dir = work
		cmd.Env = []string{"HOME=" + root, "PATH=/usr/bin:/bin"}
		_ = cmd.Run()
		var created []string
		for _, f := range files(t, root) {
			if !slices.Contains(before, f) {
				created = append(created, f)
			}
		}
		if len(created) == 0 {
			continue
		}
		compared++
		w := newWalker(line, Options{Cwd: work, Workspaces: []string{work}, Home: root, Shell: Bash})
		w.classifyLine(line)
		var written []string
		for _, tc := range w.touched {
			written = append(written, tc.path)
		}
		for _, f := range created {
			if !slices.Contains(written, f) {
				t.Errorf("%s: bash created %s, the walker classified writes to %q", line, f, written)
			}
		}
	}
	if compared < len(lines)/2 {
		t.Errorf("only %d of %d lines created files", compared, len(lines))
	}
	t.Logf("%d lines created files; each was classified as written", compared)
}

// files lists the regular files under root, with symlinks resolved to where
// they are.
func files(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
