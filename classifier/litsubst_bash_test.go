package classifier

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestLiteralsMatchBash checks the second reading of a command with the
// line's literal values put in (substitute.go): for each assignment
// `x=VALUE` and each word using x, the fields of the substituted text as the
// walker expands them are the fields bash passes to printf. Only bash's
// printf runs, on literal values, with HOME and the working directory in a
// temporary directory; a pair the walker does not substitute is skipped
// (today's reading of the word as only known at run time stands).
func TestLiteralsMatchBash(t *testing.T) {
	bash := realBash(t)
	values := []string{
		`-rf`, `delete`, `'-o /x'`, `"a  b"`, `' lead'`, `'trail '`, `a\ b`, `"x'y"`, `'a"b'`,
		`'--output=/h/.bashrc'`, `'-exec rm -rf ~ ;'`, `"\$HOME"`, `'a	b'`, `"-x \"q\" \\"`, `'$(x)'`,
		`-i.bak`, `'  '`, `'\'`, `~`, `~/x`, `~/a\ b`, `x~`,
	}
	uses := []string{
		`$x`, `"$x"`, `-$x`, `${x}`, `a$x`, `"$x"b`, `$x$x`, `'q'$x`, `"-$x-"`, `$x"$x"`, `"${x}"`,
		`$x $x`, `-- $x`, `""$x`, `$x''`, `\$x`, `'$x'`,
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	type pair struct{ value, use string }
	var pairs []pair
	var script strings.Builder
	for _, v := range values {
		for _, u := range uses {
			pairs = append(pairs, pair{v, u})
			fmt.Fprintf(&script, "(x=%s; printf '%%s\\0' @ %s); printf '\\036'\n", v, u)
		}
	}
	records := shellRecords(t, bash, []string{"--norc", "--noprofile", "-s"}, dir, home, script.String(), len(pairs))
	opts := Options{Cwd: dir, Workspaces: []string{dir}, Home: home, FS: emptyFS{}, Shell: Bash}
	compared := 0
	for i, pr := range pairs {
		src := fmt.Sprintf("x=%s; printf @ %s", pr.value, pr.use)
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		w := newWalker(src, opts)
		w.frame = frame{src: src, end: len(src), exact: true, lang: syntax.LangBash}
		w.call(f.Stmts[0].Cmd.(*syntax.CallExpr), 0, redirInfo{})
		text := w.substituted(f.Stmts[1].Cmd.(*syntax.CallExpr))
		if text == "" {
			continue
		}
		g, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		if err != nil {
			t.Errorf("%s: the substituted text %q does not parse: %v", src, text, err)
			continue
		}
		w2 := newWalker(text, opts)
		w2.frame = frame{src: text, end: len(text), exact: true, lang: syntax.LangBash}
		var got []string
		dynamic := false
		for _, a := range g.Stmts[0].Cmd.(*syntax.CallExpr).Args[2:] { // after printf @
			wf := w2.word(a)
			dynamic = dynamic || wf.dynamic
			got = append(got, wf.values()...)
		}
		want := strings.Split(records[i], "\x00")
		want = want[1 : len(want)-1] // the @, and the empty string after the last NUL
		if !strings.HasPrefix(records[i], "@\x00") {
			t.Errorf("%s: bash printed %q", src, records[i])
			continue
		}
		if dynamic {
			t.Errorf("%s: the substituted text %q is still only known at run time", src, text)
			continue
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%s: read again as %q, fields %q; bash passes %q", src, text, got, want)
		}
		compared++
	}
	if compared < len(pairs)/2 {
		t.Errorf("only %d of %d pairs compared", compared, len(pairs))
	}
	t.Logf("%d of %d pairs substituted as bash expands them", compared, len(pairs))
}
