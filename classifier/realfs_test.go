package classifier

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// realTree makes a home with a workspace and symlinks on the real
// filesystem, for the path resolution that uses lstat (the corpus uses a
// fake filesystem without it).
//
//	home/ws/src/               a directory
//	home/ws/out -> home/elsewhere         leaves the workspace
//	home/ws/hop -> home/ws/out            a chain that leaves it
//	home/ws/in -> home/ws/src             stays inside
//	home/ws/file.txt, home/ws/filelink -> home/.bashrc
func realTree(t *testing.T) (Options, string) {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(home, "ws")
	for _, d := range []string{filepath.Join(ws, "src"), filepath.Join(home, "elsewhere")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(ws, "file.txt"), filepath.Join(home, ".bashrc")} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"out": filepath.Join(home, "elsewhere"), "hop": filepath.Join(ws, "out"),
		"in": filepath.Join(ws, "src"), "filelink": filepath.Join(home, ".bashrc"),
	} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	return Options{Cwd: ws, Workspaces: []string{ws}, Home: home}, home
}

// TestRealSymlinks: symlinks on existing prefixes are followed on the real
// filesystem, one component at a time from resolved parents, with the same
// results as resolving whole paths.
func TestRealSymlinks(t *testing.T) {
	opts, home := realTree(t)
	for _, tc := range []struct {
		cmd     string
		class   effects.Class
		refusal effects.Rule
	}{
		{"rm -rf src/x", effects.Deletion, ""},
		{"rm -rf in/x", effects.Deletion, ""},
		{"rm -rf out/x", effects.Deletion, effects.DeleteOutsideWorkspace},
		{"rm -rf hop/x/y", effects.Deletion, effects.DeleteOutsideWorkspace},
		{"rm -rf in/../x", effects.Deletion, ""},                                // in/.. is ws
		{"rm -rf out/../x", effects.Deletion, effects.DeleteOutsideWorkspace},   // out/.. is home
		{"rm -rf out/../ws/x", effects.Deletion, ""},                            // back inside
		{"rm -rf missing/a/b/c", effects.Deletion, ""},                          // nothing exists: lexical
		{"rm -rf file.txt/x", effects.Deletion, ""},                             // a file is not a directory
		{"echo x > out/f", effects.WriteOutside, effects.WriteProtectedPath},    // home/elsewhere/f
		{"echo x > filelink", effects.WriteOutside, effects.WriteProtectedPath}, // ~/.bashrc
		{"echo x > in/f", effects.WriteInside, ""},
		{"cd out && rm -rf x", effects.Deletion, effects.DeleteOutsideWorkspace},
		{"cd in && rm -rf x", effects.Deletion, ""},
		{"rm -rf " + home + "/ws/out/x", effects.Deletion, effects.DeleteOutsideWorkspace},
	} {
		r := Classify(tc.cmd, opts)
		found := false
		for _, p := range r.Parts {
			if p.Class == tc.class && p.Refusal == tc.refusal {
				found = true
			}
			if p.Refusal != "" && p.Refusal != tc.refusal {
				t.Errorf("%s: unexpected refusal %s: %s", tc.cmd, p.Refusal, p.Reason)
			}
		}
		if !found {
			t.Errorf("%s: no %s part with refusal %q in %+v", tc.cmd, tc.class, tc.refusal, r.Parts)
		}
	}
}

// TestResolutionBudget: past maxResolutions new paths are unknown, so their
// deletion is refused with a reason that says why; paths already resolved
// stay known.
func TestResolutionBudget(t *testing.T) {
	opts, _ := realTree(t)
	var b strings.Builder
	b.WriteString("rm -f")
	for i := range maxResolutions + 10 {
		fmt.Fprintf(&b, " src/f%d", i)
	}
	r := Classify(b.String(), opts)
	var capped *Part
	for i, p := range r.Parts {
		if p.Refusal == effects.DeleteOutsideWorkspace {
			capped = &r.Parts[i]
		}
	}
	if capped == nil || !strings.Contains(capped.Reason, fmt.Sprintf("names more than %d paths", maxResolutions)) {
		t.Fatalf("no refusal saying the paths were not resolved: %+v", capped)
	}
	// Under the budget: the same deletions inside the workspace, no refusal.
	if rs := refusals(Classify("rm -f src/f1 src/f2 src/f3 in/f4", opts)); len(rs) > 0 {
		t.Errorf("a few paths refused: %v", rs)
	}
	// Repeating resolved paths costs nothing: a long command naming the
	// same directory is not capped.
	repeat := "rm -f" + strings.Repeat(" src/f1", maxResolutions+10)
	if rs := refusals(Classify(repeat, opts)); len(rs) > 0 {
		t.Errorf("repeated paths refused: %v", rs)
	}
}
