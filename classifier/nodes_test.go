package classifier

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
	"mvdan.cc/sh/v3/syntax"
)

// nodeTypes lists every syntax node type the bash, zsh and POSIX parsers
// produce; the walker has a case for each. The test fails on a type the
// corpus reaches (each file read in its dialect) that is not listed, and on
// a listed type no golden case reaches.
var nodeTypes = []string{
	"ArithmCmd", "ArithmExp", "ArrayElem", "ArrayExpr", "Assign", "BinaryArithm", "BinaryCmd",
	"BinaryTest", "Block", "CStyleLoop", "CallExpr", "CaseClause", "CaseItem", "CmdSubst",
	"CoprocClause", "DblQuoted", "DeclClause", "ExtGlob", "File", "FlagsArithm", "ForClause", "FuncDecl",
	"IfClause", "LetClause", "Lit", "ParamExp", "ParenArithm", "ParenTest", "ProcSubst",
	"Redirect", "SglQuoted", "Stmt", "Subshell", "TestClause", "TimeClause", "UnaryArithm",
	"UnaryTest", "WhileClause", "Word", "WordIter",
}

// notFromBash are node types the parsers do not produce here: bats and
// mksh forms, comments (not kept), and BraceExp (only from
// syntax.SplitBraces, which the expander applies itself). The walker
// refuses them as unsupported if they ever appear.
var notFromBash = []string{"BraceExp", "Comment", "TestDecl"}

// corpusCase is a golden command and the dialect its file names (`shell:`
// in the comment; bash by default).
type corpusCase struct {
	cmd   string
	shell Dialect
}

// corpusCases returns every command of the golden corpus with its dialect.
func corpusCases(t testing.TB) map[string]corpusCase {
	files, err := filepath.Glob("../testdata/commands/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	cases := map[string]corpusCase{}
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		shell := Bash
		for _, line := range strings.Split(string(a.Comment), "\n") {
			if v, ok := strings.CutPrefix(line, "shell:"); ok {
				if shell, err = ParseDialect(strings.TrimSpace(v)); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
		}
		for _, fl := range a.Files {
			if strings.HasSuffix(fl.Name, ".sh") {
				cases[filepath.Base(f)+"/"+fl.Name] = corpusCase{strings.TrimSuffix(string(fl.Data), "\n"), shell}
			}
		}
	}
	return cases
}

func TestNodeCoverage(t *testing.T) {
	listed := map[string]bool{}
	for _, n := range nodeTypes {
		listed[n] = true
	}
	for _, n := range notFromBash {
		if listed[n] {
			t.Errorf("%s is both listed and said not to come from the bash parser", n)
		}
	}
	seen := map[string]bool{}
	for name, c := range corpusCases(t) {
		for _, lang := range c.shell.readings() {
			f, err := syntax.NewParser(syntax.Variant(lang)).Parse(strings.NewReader(strings.ReplaceAll(c.cmd, "\r", "\n")), "")
			if err != nil {
				continue
			}
			syntax.Walk(f, func(n syntax.Node) bool {
				if n == nil {
					return true
				}
				typ := strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")
				seen[typ] = true
				if !listed[typ] {
					t.Errorf("%s: node type %s is not in nodeTypes", name, typ)
				}
				return true
			})
		}
	}
	for _, n := range nodeTypes {
		if !seen[n] {
			t.Errorf("no golden case reaches node type %s", n)
		}
	}
}

// TestBashAgrees checks that what the classifier parses as bash, bash
// parses too (`bash -n`), and what it refuses as unparseable, bash rejects:
// for every corpus case that bash may run (its file's shell is bash, sh or
// unknown).
func TestBashAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	shellAgrees(t, realBash(t), []string{"-n", "-O", "extglob"}, syntax.LangBash, Zsh)
}

// TestZshAgrees is TestBashAgrees for zsh (`zsh -f -n`), for every corpus
// case zsh may run (its file's shell is zsh or unknown).
func TestZshAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	shellAgrees(t, realZsh(t), []string{"-f", "-n"}, syntax.LangZsh, Bash, Sh)
}

// shellAgrees runs shell's syntax check on the corpus commands whose
// dialect is not one of skip, each fed on stdin.
func shellAgrees(t *testing.T, shell string, args []string, lang syntax.LangVariant, skip ...Dialect) {
	for name, c := range corpusCases(t) {
		if slices.Contains(skip, c.shell) {
			continue
		}
		_, perr := parse(c.cmd, lang)
		cmd := exec.Command(shell, args...)
		cmd.Stdin = strings.NewReader(c.cmd + "\n")
		out, serr := cmd.CombinedOutput()
		if perr == nil && serr != nil {
			t.Errorf("%s: the classifier parses %q as %s but %s -n says: %s", name, c.cmd, langName(lang), shell, out)
		}
		if perr != nil && serr == nil && !strings.Contains(perr.Error(), "not supported") {
			t.Logf("%s: %s accepts %q, the classifier refuses it: %v", name, shell, c.cmd, perr)
		}
	}
}
