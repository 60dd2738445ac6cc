package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the module root, two directories above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestGoModTidy: go.mod lists every direct requirement as direct and
// nothing it does not need (`go mod tidy -diff` prints nothing).
func TestGoModTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	cmd := exec.Command("go", "mod", "tidy", "-diff")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go mod tidy is not clean (run it): %v\n%s", err, out)
	}
}

// TestGeneratedFilesCurrent runs `go generate ./...` in a copy of the
// module's Go sources and requires every generated file to equal the
// committed one: a table or vocabulary edited without `go generate` fails
// here, not only in scripts/test.sh.
func TestGeneratedFilesCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generators")
	}
	root := repoRoot(t)
	out, err := exec.Command("git", "-C", root, "ls-files", "*.go", "go.mod", "go.sum").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	files := strings.Fields(string(out))
	cp := t.TempDir()
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(cp, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen := exec.Command("go", "generate", "./...")
	gen.Dir = cp
	if msg, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("go generate: %v\n%s", err, msg)
	}
	checked := 0
	for _, rel := range files {
		got, err := os.ReadFile(filepath.Join(cp, rel))
		if err != nil || !bytes.HasPrefix(got, []byte("// Code generated")) {
			continue
		}
		checked++
		if want, _ := os.ReadFile(filepath.Join(root, rel)); !bytes.Equal(got, want) {
			t.Errorf("%s is not what go generate makes of the sources: run go generate ./...", rel)
		}
	}
	if checked == 0 {
		t.Fatal("no generated file found")
	}
}
