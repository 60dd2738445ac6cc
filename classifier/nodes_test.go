package classifier

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
	"mvdan.cc/sh/v3/syntax"
)

// nodeTypes lists every syntax node type the bash parser produces; the walker
// has a case for each. The test fails on a type the corpus reaches that is
// not listed, and on a listed type no golden case reaches.
var nodeTypes = []string{
	"ArithmCmd", "ArithmExp", "ArrayElem", "ArrayExpr", "Assign", "BinaryArithm", "BinaryCmd",
	"BinaryTest", "Block", "CStyleLoop", "CallExpr", "CaseClause", "CaseItem", "CmdSubst",
	"CoprocClause", "DblQuoted", "DeclClause", "ExtGlob", "File", "ForClause", "FuncDecl",
	"IfClause", "LetClause", "Lit", "ParamExp", "ParenArithm", "ParenTest", "ProcSubst",
	"Redirect", "SglQuoted", "Stmt", "Subshell", "TestClause", "TimeClause", "UnaryArithm",
	"UnaryTest", "WhileClause", "Word", "WordIter",
}

// notFromBash are node types the bash parser does not produce here: zsh,
// bats and mksh forms, comments (not kept), and BraceExp (only from
// syntax.SplitBraces, which the expander applies itself). The walker
// refuses them as unsupported if they ever appear.
var notFromBash = []string{"BraceExp", "Comment", "FlagsArithm", "TestDecl"}

// corpusCommands returns every command of the golden corpus.
func corpusCommands(t testing.TB) map[string]string {
	files, err := filepath.Glob("../testdata/commands/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	cmds := map[string]string{}
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, fl := range a.Files {
			if strings.HasSuffix(fl.Name, ".sh") {
				cmds[filepath.Base(f)+"/"+fl.Name] = strings.TrimSuffix(string(fl.Data), "\n")
			}
		}
	}
	return cmds
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
	for name, cmd := range corpusCommands(t) {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(strings.ReplaceAll(cmd, "\r", "\n")), "")
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
	for _, n := range nodeTypes {
		if !seen[n] {
			t.Errorf("no golden case reaches node type %s", n)
		}
	}
}

// TestBashAgrees checks that what the classifier parses, bash parses too
// (`bash -n`), and what it refuses as unparseable, bash rejects.
func TestBashAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	bash := realBash(t)
	for name, cmd := range corpusCommands(t) {
		_, perr := parse(cmd, syntax.LangBash)
		out, berr := exec.Command(bash, "-n", "-O", "extglob", "-c", cmd).CombinedOutput()
		if perr == nil && berr != nil {
			t.Errorf("%s: the classifier parses %q but bash -n says: %s", name, cmd, out)
		}
		if perr != nil && berr == nil && !strings.Contains(perr.Error(), "not supported") {
			t.Logf("%s: bash accepts %q, the classifier refuses it: %v", name, cmd, perr)
		}
	}
}
