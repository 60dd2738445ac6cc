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

	"mvdan.cc/sh/v3/syntax"
)

// TestWordsMatchBash expands random literal words (quotes, escapes, $'…',
// braces, tildes) both ways: with the walker's expansion and with a real
// bash, and requires the same fields. Programs and paths are classified by
// these values, so an expansion that differs from bash's would classify
// another command than the one that runs (`'r'm`, `$'\x72m'`, `r{m,}`).
//
// Only bash's printf runs, on words without `$(`, backquotes, `${`, `$NAME`
// or operators, with HOME in a temporary directory and that directory as
// the working directory, so nothing is executed or expanded from outside.
// Words the walker calls dynamic (run-time values) are skipped: they are
// unknown, which is the conservative answer.
func TestWordsMatchBash(t *testing.T) {
	wordsMatch(t, realBash(t), []string{"--norc", "--noprofile", "-s"}, Bash, 1500)
}

// wordWords are the fixed words of the word-expansion checks.
var wordWords = []string{
	`'r'm`, `$'\x72m'`, `\rm`, `r\m`, `"r"m`, `r{m,}`, `{a,b}{c,d}`, `{1..3}`, `{a..c}`,
	`{1..10..3}`, `{01..3}`, `~`, `~/x`, `a~`, `{a,~}`, `$'\u0041'`, `$'\101\t'`,
	`$"x"`, `'a'"b"c`, `{a,b`, `{}`, `{a}`, `x{,}y`, `{a,{b,c}}`, `$'\cA'`, `$'\e'`,
	// Tildes in words that look like assignments, and after braces.
	`a=~`, `m+=~`, `of=~/x`, `a=x:~`, `a=~/x:~+`, `--p=~`, `a[1]=~`, `{a,b}=~`, `a={x,~}`,
	`"a"=~`, `a\=~`, `{,y}~+`, `{~..~}`, `'~'{,}`, `\~{,y}`, `{,}`, `''{,}`, `{a},}}`,
}

// wordsMatch expands the fixed words and n random ones with the walker (as
// dialect d reads them) and with the real shell, and requires the same
// fields (see TestWordsMatchBash).
func wordsMatch(t *testing.T, shell string, shellArgs []string, d Dialect, n int) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	words := slices.Clone(wordWords)
	if testing.Short() {
		n = 200
	}
	for range n {
		words = append(words, randomWord(rng))
	}
	lang := d.readings()[0]
	p := syntax.NewParser(syntax.Variant(lang))
	var script strings.Builder
	var kept []string
	for _, w := range words {
		if _, err := p.Parse(strings.NewReader("x "+w), ""); err != nil {
			if d == Bash {
				t.Errorf("%s: does not parse: %v", w, err)
			}
			continue // a word the walker refuses: nothing to compare
		}
		kept = append(kept, w)
		// Each word's fields, NUL-terminated, then a record separator. The
		// leading @ tells no fields (`{,}`) from one empty field, and a
		// record without it a word the shell could not read (the eval
		// failed; the shell goes on with the next line).
		fmt.Fprintf(&script, "eval %s; printf '\\036'\n", shellQuoteTest("printf '%s\\0' @ "+w))
	}
	words = kept
	records := shellRecords(t, shell, shellArgs, dir, home, script.String(), len(words))
	opts := Options{Cwd: dir, Workspaces: []string{dir}, Home: home, FS: emptyFS{}, Shell: d}
	compared := 0
	for i, word := range words {
		f, err := p.Parse(strings.NewReader("x "+word), "")
		if err != nil {
			t.Fatal(err)
		}
		w := newWalker(word, opts)
		w.frame.lang = lang
		var got []string
		dynamic := false
		for _, a := range f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1:] {
			wf := w.word(a)
			dynamic = dynamic || wf.dynamic
			got = append(got, wf.values()...)
		}
		if dynamic || w.largeDone {
			continue
		}
		if !strings.HasPrefix(records[i], "@\x00") {
			continue // the shell rejects the word: it runs nothing
		}
		want := strings.Split(records[i], "\x00")
		want = want[1 : len(want)-1] // the @, and the empty string after the last NUL
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%s: the walker expands to %q, %s to %q", word, got, d, want)
		}
		compared++
	}
	if compared < len(words)/2 {
		t.Errorf("only %d of %d words compared: the generator makes too many dynamic words", compared, len(words))
	}
	t.Logf("%d of %d words expanded as %s does", compared, len(words), d)
}

// shellRecords runs script with the real shell (its arguments shellArgs)
// in dir, with HOME set to home, a bare PATH and a UTF-8 locale, as agents'
// shells have ($'\u00e9' is é there; in the C locale bash keeps non-ASCII
// \u escapes as written), and returns the n records the script prints, each
// ended by a record separator (\x1e). A failed run or another count fails
// the test.
func shellRecords(t *testing.T, shell string, shellArgs []string, dir, home, script string, n int) []string {
	t.Helper()
	cmd := exec.Command(shell, shellArgs...)
	cmd.Stdin = strings.NewReader(script)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", shell, err, stderr.String())
	}
	records := strings.Split(out.String(), "\x1e")
	if len(records) != n+1 {
		t.Fatalf("%s printed %d records for %d inputs\n%s", shell, len(records)-1, n, stderr.String())
	}
	return records[:n]
}

func shellQuoteTest(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// randomWord makes a word of literal shell syntax: letters, slashes, dots,
// single and double quotes, backslash escapes, $'…' escapes, braces and
// tildes, balanced so that bash reads it as one or more words.
func randomWord(rng *rand.Rand) string {
	var b strings.Builder
	n := 1 + rng.IntN(5)
	for range n {
		switch rng.IntN(9) {
		case 0:
			b.WriteString([]string{"r", "m", "a", "b", "x", "/", ".", "-", "_", "1", "9"}[rng.IntN(11)])
		case 1:
			fmt.Fprintf(&b, "'%s'", []string{"", "a b", "r", "\\", "\"", "{a,b}", "~", "$x"}[rng.IntN(8)])
		case 2:
			fmt.Fprintf(&b, "\"%s\"", []string{"", "a b", "r", "\\\\", "\\\"", "'", "{a,b}", "~", "\\x"}[rng.IntN(9)])
		case 3:
			b.WriteString([]string{`\r`, `\m`, `\\`, `\'`, `\"`, `\ `, `\{`, `\,`, `\~`}[rng.IntN(9)])
		case 4:
			fmt.Fprintf(&b, "$'%s'", []string{`\x72`, `\101`, `\t`, `\n`, `\'`, `\\`, `\u00e9`, `\a`, `a b`, `\x`, `\cB`}[rng.IntN(11)])
		case 5:
			b.WriteString([]string{"{a,b}", "{x,}", "{,y}", "{1..3}", "{a..c}", "{3..1}", "{1..5..2}", "{a,b,c}", "{a}", "{}", "{,}", "{a,{b,c}}", "{0..0}"}[rng.IntN(13)])
		case 6:
			if b.Len() == 0 {
				b.WriteString([]string{"~", "~/", "~+", "~-"}[rng.IntN(4)])
			} else {
				b.WriteString("~")
			}
		case 7:
			b.WriteString([]string{":", "=", "@", "%", "+", ","}[rng.IntN(6)])
		case 8:
			b.WriteString([]string{"{", "}", ","}[rng.IntN(3)])
		}
	}
	return b.String()
}
