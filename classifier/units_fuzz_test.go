package classifier

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzSyntaxUnits checks that the pre-parse scan does not count much more
// syntax than the parser finds: an overcount refuses a command for syntax it
// does not have. The bound is loose (operators are counted by bytes), but
// counting data as code (quoted text, a here-document body, escapes, blank
// lines) breaks it once there is enough of it.
func FuzzSyntaxUnits(f *testing.F) {
	for _, s := range []string{
		"ls -la", "echo 'a b c' \"d $e $(f g)\"", "cat <<'EOF'\na b c\nEOF\nls",
		"cat <<EOF\n$(a b)\nEOF", "echo $((1 << 2))", "echo \"$'\" x", "cat <<< \"$x\"",
		"git commit -m \"$(cat <<'EOF'\nfix: a; b | c\nEOF\n)\"", "a && b || c; d & e | f",
	} {
		f.Add(s)
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || nestingExceeds(src, MaxDepth) {
			return // Classify refuses these before parsing; the parser is slow on them
		}
		file, err := p.Parse(strings.NewReader(src), "")
		if err != nil {
			return
		}
		nodes := 0
		syntax.Walk(file, func(n syntax.Node) bool {
			if n != nil {
				nodes++
			}
			return true
		})
		if units := syntaxUnits(src, 1<<30); units > 4*nodes+16 {
			t.Errorf("%d units for %d syntax nodes in %q", units, nodes, src)
		}
	})
}
