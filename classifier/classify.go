package classifier

import (
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// Limits of SPEC §3 rule 10.
const (
	MaxBytes = 64 << 10 // commands longer than this are refused as too-large
	MaxDepth = 64       // nesting deeper than this is refused as too-deep
	// MaxParts bounds the parts of a result: past it, only parts with a new
	// class or refusal are kept (the decision is unchanged).
	MaxParts = 256
)

// PanicOnBugs makes [Classify] re-panic instead of turning a panic into an
// internal-error refusal. Tests set it so that bugs fail loudly.
var PanicOnBugs = false

// Classify parses src as bash and classifies every part of it. It never panics
// and never fails: input it cannot prove safe yields parts with a Refusal.
// An empty or whitespace-only command yields no parts.
func Classify(src string, opts Options) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			if PanicOnBugs {
				panic(r)
			}
			res = Result{Parts: []Part{{
				Class: effects.Unknown, Text: src, End: len(src), Refusal: effects.InternalError,
				Reason: fmt.Sprintf("the classifier failed on this command (%v), so it is refused", r),
			}}}
		}
	}()
	if len(src) > MaxBytes {
		return Result{Parts: []Part{{
			Class: effects.Unknown, Text: src[:80] + "…", End: len(src), Refusal: effects.TooLarge,
			Reason: fmt.Sprintf("the command is %d bytes, over the limit of %d", len(src), MaxBytes),
		}}}
	}
	if nestingExceeds(src, MaxDepth) {
		return Result{Parts: []Part{{
			Class: effects.Unknown, Text: src, End: len(src), Refusal: effects.TooDeep,
			Reason: fmt.Sprintf("the command nests brackets deeper than %d levels", MaxDepth),
		}}}
	}
	w := newWalker(src, opts)
	w.classifySource(src, 0, len(src), true, 0)
	w.finish()
	return Result{Parts: w.parts, AllKnown: w.allKnown}
}

// parsers pools bash parsers: a Parser is reusable but not safe for
// concurrent use, and making one costs more than parsing a short command.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// parse parses src as bash.
func parse(src string) (*syntax.File, error) {
	// A bare carriage return is a line break to a terminal (SPEC §3 judgment
	// calls): normalise it so that what follows is seen as a command. The
	// length is unchanged, so byte offsets still hold.
	if strings.IndexByte(src, '\r') >= 0 {
		src = strings.ReplaceAll(src, "\r", "\n")
	}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	return p.Parse(strings.NewReader(src), "")
}

// classifySource parses src (the whole command, or the text of an `sh -c`
// argument) and walks it. base is the byte offset of src in the original
// command when exact is true; otherwise every span is [base, end).
func (w *walker) classifySource(src string, base, end int, exact bool, depth int) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	if strings.TrimSpace(src) == "" {
		return
	}
	if w.units += syntaxUnits(src, MaxUnits-w.units); w.units > MaxUnits {
		w.tooLarge()
		return
	}
	f, err := parse(src)
	if err != nil {
		msg := err.Error()
		if syntax.IsIncomplete(err) {
			msg = "the command is incomplete: " + msg
		}
		if exact {
			end = base + len(src)
		}
		w.add(Part{Class: effects.Unknown, Text: src, Start: base, End: end,
			Refusal: effects.Unparseable, Reason: "the command does not parse as bash (" + msg + ")"})
		w.allKnown = false
		return
	}
	saved := w.frame
	w.frame = frame{src: src, base: base, end: end, exact: exact}
	w.stmts(f.Stmts, depth+1)
	w.frame = saved
}

// nestingExceeds reports whether src nests brackets — `(`, `$(`, `((`, `{`,
// `${` — deeper than max, outside quotes and comments. Such a command is
// too deep for the walker anyway (each bracket is at least one level of the
// syntax tree), and the parser spends seconds on tens of thousands of them,
// so it is refused before parsing. The scan only ever refuses: a miscount
// (brackets in a here-document body) makes a refusal, never an allow.
func nestingExceeds(src string, max int) bool {
	depth := 0
	wordStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\\':
			i++ // the next byte is literal
		case '\'':
			if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
				i += j + 1
			} else {
				return false // unterminated: the parser will say so
			}
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
				if src[i-1] == '$' && i < len(src) && src[i] == '(' {
					// $( inside double quotes nests too; count it.
					depth++
					if depth > max {
						return true
					}
				}
			}
		case '#':
			if wordStart {
				if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
					i += j
				} else {
					return false
				}
			}
		case '(', '{':
			depth++
			if depth > max {
				return true
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		}
		wordStart = c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')'
	}
	return false
}
