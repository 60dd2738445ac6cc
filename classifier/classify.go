package classifier

import (
	"fmt"
	"strings"

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

// Classify parses src in the dialect opts.Shell names and classifies every
// part of it. It never panics and never fails: input it cannot prove safe
// yields parts with a Refusal. An empty or whitespace-only command yields no
// parts. Under [UnknownDialect] (and [Sh]) it classifies every reading and
// the parts of all of them count: the worst wins.
func Classify(src string, opts Options) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			if PanicOnBugs {
				panic(r)
			}
			res = Result{Shell: opts.Shell, Parts: []Part{{
				Class: effects.Unknown, Text: src, End: len(src), Refusal: effects.InternalError,
				Reason: fmt.Sprintf("the classifier failed on this command (%v), so it is refused", r),
			}}}
		}
	}()
	if len(src) > MaxBytes {
		return Result{Shell: opts.Shell, Parts: []Part{{
			Class: effects.Unknown, Text: src[:80] + "…", End: len(src), Refusal: effects.TooLarge,
			Reason: fmt.Sprintf("the command is %d bytes, over the limit of %d", len(src), MaxBytes),
		}}}
	}
	if nestingExceeds(src, MaxDepth) {
		return Result{Shell: opts.Shell, Parts: []Part{{
			Class: effects.Unknown, Text: src, End: len(src), Refusal: effects.TooDeep,
			Reason: fmt.Sprintf("the command nests brackets deeper than %d levels", MaxDepth),
		}}}
	}
	w := walkers.Get().(*walker)
	w.init(src, opts)
	w.classifyLine(src)
	w.envLeftovers()
	w.finish()
	res = Result{Parts: w.parts, AllKnown: w.allKnown, Shell: opts.Shell}
	w.release() // not on a panic: that walker is dropped
	return res
}

// classifyLine classifies the whole command src in the dialect the options
// name.
func (w *walker) classifyLine(src string) {
	w.classifySource(src, 0, len(src), true, 0, w.opts.Shell.readings())
}

// classifySource parses src (the whole command, or the text of an `sh -c`
// argument) in each of langs and walks it. base is the byte offset of src in
// the original command when exact is true; otherwise every span is [base,
// end).
//
// With several readings (a shell that is not known), each is walked from
// the same shell state, the shell ends where any of them ends, and a reading
// that does not parse makes the command prompt at least (SPEC §1): what it
// parsed before its error is walked too, since bash and dash run each line
// as it parses. When no reading parses, the command is refused.
func (w *walker) classifySource(src string, base, end int, exact bool, depth int, langs []syntax.LangVariant) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	if strings.TrimSpace(src) == "" {
		return
	}
	if w.units += syntaxUnits(src, w.unitLimit-w.units); w.units > w.unitLimit {
		w.tooLarge()
		return
	}
	if exact {
		end = base + len(src)
	}
	if len(langs) == 1 {
		f, err := parse(src, langs[0])
		if err != nil {
			w.unparseable(src, base, end, langs[0], err)
			return
		}
		w.walkSource(f.Stmts, src, base, end, exact, langs[0], depth)
		return
	}
	files := make([]*syntax.File, len(langs))
	errs := make([]error, len(langs))
	parsed := 0
	for i, l := range langs {
		if files[i], errs[i] = parse(src, l); errs[i] == nil {
			parsed++
		}
	}
	if parsed == 0 {
		for i, l := range langs {
			w.unparseable(src, base, end, l, errs[i])
		}
		return
	}
	w.dedupeParts()
	start := w.saveShell()
	var ends cwdState
	var assigned []*envAssign // what the readings assigned: after them, the line has it all
	for i, l := range langs {
		if i > 0 {
			// Every reading counts its syntax units again (the source's own,
			// counted above, once): nested readings (`sh -c` in `sh -c`)
			// stay bounded by the limit, not by the depth.
			if start.env <= len(w.env) {
				assigned = append(assigned, w.env[start.env:]...)
			}
			w.restoreShell(start)
			if w.units += syntaxUnits(src, w.unitLimit-w.units); w.units > w.unitLimit {
				w.tooLarge()
				return
			}
		}
		if errs[i] != nil {
			w.add(Part{Class: effects.Unknown, Text: src, Start: base, End: end, Prompt: true,
				Reason: fmt.Sprintf("%s cannot read this command (%s), and the shell that runs it is not known, so it asks a human", langName(l), errs[i])})
			w.allKnown = false
			w.walkSource(parsedBefore(src, l), src, base, end, exact, l, depth)
		} else {
			w.walkSource(files[i].Stmts, src, base, end, exact, l, depth)
		}
		w.settle()
		if i == 0 {
			ends = w.saveCwd()
		} else {
			ends = unionState(ends, w.saveCwd())
		}
	}
	w.env = append(w.env, assigned...)
	w.restoreCwd(ends)
}

// unparseable refuses src, which lang cannot read.
func (w *walker) unparseable(src string, base, end int, lang syntax.LangVariant, err error) {
	msg := err.Error()
	if syntax.IsIncomplete(err) {
		msg = "the command is incomplete: " + msg
	}
	w.add(Part{Class: effects.Unknown, Text: src, Start: base, End: end,
		Refusal: effects.Unparseable, Reason: "the command does not parse as " + langName(lang) + " (" + msg + ")"})
	w.allKnown = false
}

// walkSource walks the statements of src, read as lang.
func (w *walker) walkSource(stmts []*syntax.Stmt, src string, base, end int, exact bool, lang syntax.LangVariant, depth int) {
	saved := w.frame
	w.frame = frame{src: src, base: base, end: end, exact: exact, lang: lang}
	w.stmts(stmts, depth+1)
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
