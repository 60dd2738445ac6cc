package classifier

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// TestLimits checks SPEC §3 rule 10: over-large and over-deep commands are
// refused with their rule, and large but legal ones are still classified.
func TestLimits(t *testing.T) {
	tests := []struct {
		name string
		cmd  string
		want effects.Rule // "" means no refusal expected
	}{
		{"over 64 KiB", strings.Repeat("a", MaxBytes+1), effects.TooLarge},
		{"exactly 64 KiB", "echo " + strings.Repeat("x", MaxBytes-5), ""},
		{"65-deep substitutions", strings.Repeat("echo $(", 65) + "ls" + strings.Repeat(")", 65), effects.TooDeep},
		{"200-deep subshells", strings.Repeat("(", 200) + "ls" + strings.Repeat(")", 200), effects.TooDeep},
		// A chain is flat: only real nesting counts toward MaxDepth.
		{"long pipeline", strings.Repeat("ls | ", 100) + "ls", ""},
		{"long and-list", strings.Repeat("ls && ", 500) + "ls", ""},
		{"long mixed chain", strings.Repeat("ls && ls || ls | ", 150) + "ls", ""},
		{"10,000-part chain", strings.Repeat("ls && ", 9999) + "ls", effects.TooLarge},
		// Arithmetic follows names through values: bounded, never exponential.
		{"names naming names", arithNames(), effects.UnidentifiableProgram},
		{"long arithmetic text used often", "x='" + strings.Repeat("1+", 16000) + "1'; " + strings.Repeat("echo $((x)); ", 300), effects.UnidentifiableProgram},
		{"65 groups around chains", strings.Repeat("{ ls && ls | ", 65) + "ls" + strings.Repeat("; }", 65), effects.TooDeep},
		// Past MaxUnits of syntax, refused before parsing (SPEC rule 10's
		// bounded time): each shape took 5–13 ms at 64 KiB.
		{"64 KiB pipeline", strings.Repeat("ls | ", (64<<10)/5-1) + "ls", effects.TooLarge},
		{"20,000 commands", strings.Repeat("ls;", (64<<10)/3-1), effects.TooLarge},
		{"command substitutions", "echo " + strings.Repeat("$(ls)", 5000), effects.TooLarge},
		{"commands in a double-quoted substitution", `echo "$(` + strings.Repeat("ls;", 5000) + `)"`, effects.TooLarge},
		{"commands in a here-document's substitution", "cat <<EOF\n$(" + strings.Repeat("ls;", 5000) + ")\nEOF", effects.TooLarge},
		{"a shift that looks like a here-document", "echo $((1<<X))\n" + strings.Repeat("ls;", 5000) + "\nX", effects.TooLarge},
		{"commands in sh -c", "sh -c '" + strings.Repeat("ls;", 5000) + "'", effects.TooLarge},
		{"2,100 words", "echo" + strings.Repeat(" w", 2100), effects.TooLarge},
		{"2,000 words", "echo" + strings.Repeat(" w", 2000), ""},
		{"brace expansions", "echo" + strings.Repeat(" {1..16000}", 100), effects.TooLarge},
		{"combinatorial braces", "echo " + strings.Repeat("{a,b}", 26), effects.TooLarge},
		{"brace expansion under the limit", "echo {a..j}{0..99}", ""},
		// Data is one unit, however long.
		{"64 KiB here-document", "cat > f.py <<'EOF'\n" + strings.Repeat("x = 1; y = [2, 3] | 4\n", 2900) + "EOF", ""},
		{"64 KiB unquoted here-document", "cat > f.md <<EOF\n" + strings.Repeat("a b c d e f g h i j k l m n\n", 2300) + "EOF", ""},
		{"64 KiB quoted words", "echo '" + strings.Repeat("a b c; ", 9000) + "'", ""},
		{"64 KiB comment", "ls # " + strings.Repeat("a b c; ", 9000), ""},
		{"deep sh -c", strings.Repeat("sh -c '", 1) + "ls" + "'", ""},
		{"unparseable", "if then fi (", effects.Unparseable},
		// Refused by the bracket pre-scan, before the parser (which takes
		// about a second on 32,000 nested parentheses).
		{"32000 nested parentheses", strings.Repeat("(", 32000) + "ls" + strings.Repeat(")", 32000), effects.TooDeep},
		{"nested braces", strings.Repeat("{ ", 16000) + "ls;", effects.TooDeep},
		{"deep arithmetic", "echo $((" + strings.Repeat("(", 30000) + "1" + strings.Repeat(")", 30000) + "))", effects.TooDeep},
		// Brackets in quotes and comments are data.
		{"parentheses in quotes", "echo '" + strings.Repeat("(", 200) + "' \"" + strings.Repeat("{", 200) + "\"", ""},
		{"parentheses in a comment", "ls # " + strings.Repeat("(", 200), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Classify(tc.cmd, tableOpts)
			rs := refusals(r)
			if tc.want == "" {
				if len(rs) > 0 {
					t.Errorf("refused %v, want no refusal", rs)
				}
				if len(r.Parts) == 0 {
					t.Error("no parts")
				}
				return
			}
			found := false
			for _, x := range rs {
				found = found || x == string(tc.want)
			}
			if !found {
				t.Errorf("refusals %v, want %s", rs, tc.want)
			}
		})
	}
}

// arithNames is a command whose arithmetic names a value of 5,000 names,
// each naming 5,000 names, and so on.
func arithNames() string {
	return "x='" + strings.Repeat("b ", 5000) + "'; b='" + strings.Repeat("c ", 5000) + "'; c='" + strings.Repeat("d ", 5000) + "'; d=1; echo $((x))"
}

// TestChainWalkIsFlat walks a 10,000-part chain of every operator with the
// unit limit lifted (Classify refuses it as too large before parsing): the
// walk neither counts the chain as nesting nor runs out of stack.
func TestChainWalkIsFlat(t *testing.T) {
	for _, op := range []string{" && ", " || ", " | ", " |& "} {
		src := strings.Repeat("ls"+op, 9999) + "ls"
		f, err := parse(src, syntax.LangBash)
		if err != nil {
			t.Fatal(err)
		}
		w := newWalker(src, tableOpts)
		w.unitLimit = 1 << 30
		w.walkSource(f.Stmts, src, 0, len(src), true, syntax.LangBash, 0)
		if rs := refusals(Result{Parts: w.parts}); len(rs) > 0 {
			t.Errorf("%q chain: refusals %v, want none", op, rs)
		}
	}
}

// TestPanicBecomesRefusal checks that a bug is an internal-error refusal,
// never a crash, when PanicOnBugs is off.
func TestPanicBecomesRefusal(t *testing.T) {
	PanicOnBugs = false
	defer func() { PanicOnBugs = true }()
	r := Classify("rm -rf build", Options{Cwd: "/ws", Workspaces: []string{"/ws"}, Home: "/home/u", FS: panicFS{}})
	if rs := refusals(r); len(rs) != 1 || rs[0] != string(effects.InternalError) {
		t.Fatalf("refusals %v, want internal-error", rs)
	}
	if r.Parts[0].Reason == "" {
		t.Error("internal-error without a reason")
	}
}

type panicFS struct{}

func (panicFS) EvalSymlinks(string) (string, error) { panic("boom") }
func (panicFS) IsFile(string) bool                  { panic("boom") }

// TestBraceFields: the field count computed without expanding matches what
// the expander builds, so the unit budget charges what the walker will see.
func TestBraceFields(t *testing.T) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for _, src := range []string{
		"plain", "{a,b}", "x{a,b}y{1..3}", "{1..10}", "{10..1}", "{1..10..3}", "{1..10..-3}",
		"{a..e}", "{z..a..2}", "{01..10}", "{a,{b,c}{d,e}}", "{a}", "{,}", "{-5..5}",
		"'{a,b}'", "{a,b}'{c,d}'", "{1..2}{a..c}{x,y,z}",
	} {
		f, err := p.Parse(strings.NewReader("echo "+src), "")
		if err != nil {
			t.Fatal(err)
		}
		word := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		vals, err := expand.Fields(&expand.Config{}, word)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := braceFields(word); got != len(vals) {
			t.Errorf("braceFields(%s) = %d, the expander makes %d: %q", src, got, len(vals), vals)
		}
	}
	for src, want := range map[string]int{
		"{1..9223372036854775807}":                    MaxUnits + 1,
		"{-9223372036854775808..9223372036854775807}": MaxUnits + 1,
		"{1..10..-9223372036854775808}":               1,
		"{0..9}{0..9}{0..9}{0..9}":                    MaxUnits + 1,
	} {
		f, _ := p.Parse(strings.NewReader("echo "+src), "")
		if got := braceFields(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]); got != want {
			t.Errorf("braceFields(%s) = %d, want %d", src, got, want)
		}
	}
}

// TestSyntaxUnits pins what the pre-parse scan counts: word starts,
// operators, quotes, escapes and expansions, but not data.
func TestSyntaxUnits(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"ls", 1},
		{"ls -la src", 3},
		{"a | b && c", 6}, // three words, |, and the two bytes of &&
		{"echo 'x y z; | &'", 3},
		{`echo "a $b $(c d)"`, 7},
		{"ls # a b c ; | &", 1},
		{"cat <<'EOF'\nx y; z | w\n$(a b c)\nEOF\nls", 3},
		{"cat <<EOF\nx y; z | w\n$(a b)\nEOF", 5},
		{"cat <<EOF\nno delimiter line; a b c", 9}, // scanned as code: counts more, not less
		{"echo $((1 << 2)) x", 7},
		{"echo $'a\\'b' c", 4},
		{"echo \"$'\" x", 5},          // in double quotes $' is a $ and a plain quote
		{"cat <<< \"$x\"\n$x\nls", 8}, // a here-string: the line "$x" is code, not a delimiter
	} {
		if got := syntaxUnits(tc.src, MaxUnits); got != tc.want {
			t.Errorf("syntaxUnits(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

// braceFields returns how many fields the brace expansions of word make
// (1 without any), computed without building them; it saturates above
// MaxUnits.
func braceFields(word *syntax.Word) int {
	cp := *word // SplitBraces replaces the Parts slice
	if !syntax.SplitBraces(&cp) {
		return 1
	}
	return braceProduct(&cp)
}
