package classifier

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCdMatchesBash runs random sequences of cd, pushd and popd in a real
// bash, in a tree with symlinks, and requires the directory bash ends in
// (pwd -P) to be one of the walker's candidate working directories (or the
// walker to call the directory unknown). A cd the walker follows wrongly
// makes every relative path after it wrong: `cd link && cd ../.. && rm -rf
// *` deletes outside the workspace while a physical reading of the `..`
// stays inside. Only cd, pushd, popd and pwd run, in a temporary directory.
func TestCdMatchesBash(t *testing.T) {
	bash := realBash(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "ws")
	for _, d := range []string{"ws/a/b/c", "ws/d", "out/e/f"} {
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
	targets := []string{"deep", "up", "away", "a", "a/b", "..", "../..", ".", "deep/..", "deep/../..",
		"away/..", "a/b/back", "a/b/back/..", "missing", "/", ws, ws + "/deep/..", "-P ..", "-P deep/..", "-L ..", "~"}
	rng := rand.New(rand.NewPCG(5, 8))
	var seqs [][]string
	for range 400 {
		var seq []string
		for range 1 + rng.IntN(4) {
			switch rng.IntN(8) {
			case 0:
				seq = append(seq, "pushd "+targets[rng.IntN(len(targets))])
			case 1:
				seq = append(seq, "popd")
			default:
				seq = append(seq, "cd "+targets[rng.IntN(len(targets))])
			}
		}
		seqs = append(seqs, seq)
	}
	var script strings.Builder
	for _, seq := range seqs {
		// Each sequence in a subshell from the workspace; failures go on.
		fmt.Fprintf(&script, "( cd %q; %s; pwd -P ) 2>/dev/null || echo FAILED\n", ws,
			strings.Join(withQuiet(seq), "; "))
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-s")
	cmd.Stdin = strings.NewReader(script.String())
	cmd.Env = []string{"HOME=" + filepath.Join(root, "out"), "PATH=/usr/bin:/bin"}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(seqs) {
		t.Fatalf("bash printed %d lines for %d sequences", len(lines), len(seqs))
	}
	opts := Options{Cwd: ws, Workspaces: []string{ws}, Home: filepath.Join(root, "out")}
	for i, seq := range seqs {
		src := strings.Join(seq, "; ")
		w := newWalker(src, opts)
		w.classifySource(src, 0, len(src), true, 0)
		w.settle() // where the line ends, its last cd failed or not
		if lines[i] == "FAILED" || slices.Contains(w.cwd, "") {
			continue
		}
		if !slices.Contains(w.cwd, lines[i]) {
			t.Errorf("%s: bash ends in %s, the walker's candidates are %q", src, lines[i], w.cwd)
		}
	}
}

// withQuiet silences pushd and popd, which print the stack.
func withQuiet(seq []string) []string {
	out := make([]string, len(seq))
	for i, c := range seq {
		if strings.HasPrefix(c, "pushd") || c == "popd" {
			c += " >/dev/null"
		}
		out[i] = c
	}
	return out
}
