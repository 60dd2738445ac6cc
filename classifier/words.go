package classifier

import (
	"math"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// field is one argument after bash's literal expansions (quotes, $'..',
// backslashes, braces, tilde). A field whose value depends on run time is
// dynamic and its value is not to be trusted.
type field struct {
	value   string
	dynamic bool         // the word holds $X, $(..), $((..)) or <(..)
	glob    bool         // the word holds unquoted *, ? or [
	word    *syntax.Word // where it came from; nil for synthesised fields
}

// wordFields is what one word expands to.
type wordFields struct {
	fields  []field
	dynamic bool
}

func (f wordFields) values() []string {
	vs := make([]string, len(f.fields))
	for i, x := range f.fields {
		vs[i] = x.value
	}
	return vs
}

// word expands one word the way bash would where it is literal.
func (w *walker) word(word *syntax.Word) wordFields {
	if word == nil {
		return wordFields{}
	}
	if w.zsh() {
		if f, ok := w.zshWord(word); ok {
			return f
		}
	}
	if v, ok := plainLiteral(word); ok {
		return wordFields{fields: []field{{value: v, word: word}}}
	}
	if len(word.Parts) == 1 {
		if _, ok := word.Parts[0].(*syntax.ProcSubst); ok {
			// bash passes <(cmd) and >(cmd) as a /dev/fd path; the command
			// inside is walked where the word is.
			return wordFields{fields: []field{{value: "/dev/fd/63", word: word}}}
		}
	}
	if isDynamicWord(word, w.opts.Home != "") {
		return dynamicFields(word)
	}
	if v, ok := extGlobLiteral(word); ok {
		// The expander does not take extended globs: keep the pattern.
		return wordFields{fields: []field{{value: v, glob: true, word: word}}}
	}
	// Tildes after = and : in a word that looks like an assignment are
	// expanded first, on the word as written: `a={x,~}` keeps its ~.
	aw, ok := w.assignmentTildes(word)
	if !ok {
		return dynamicFields(word)
	}
	braced := *aw // SplitBraces replaces the Parts slice
	if !syntax.SplitBraces(&braced) {
		if braceLike(aw) {
			return dynamicFields(word) // braces the expander reads otherwise than bash
		}
		return w.wordNoBraces(aw, word)
	}
	// Each field of a brace expansion is a word to classify: `{1..16000}`
	// is 16,000 of them, and the expander builds up to 16Ki per word. They
	// count against MaxUnits before any is built, two units each: building
	// a field costs about as much as classifying it.
	if n := braceProduct(&braced); n > 1 {
		if w.units += 2 * (n - 1); w.units > w.unitLimit {
			w.tooLarge()
			return dynamicFields(word)
		}
	}
	return w.braceWords(&braced, word)
}

// braceWords expands a word whose brace expansions are split out (braced)
// the way bash does: braces first, then each resulting word on its own,
// tilde included: `{,x}~-` is $OLDPWD and x~-, `{~..~}` is $HOME, while
// `'~'{,}` stays ~ twice. It is apart from [walker.word] because the loop
// over the expansions makes its variables escape, which cost every word an
// allocation.
func (w *walker) braceWords(braced, word *syntax.Word) wordFields {
	var out wordFields
	for bw, err := range expand.BracesSeq(nil, braced) {
		if err != nil {
			return dynamicFields(word)
		}
		bw = joinLits(bw)
		if v, ok := plainLiteral(bw); ok {
			out.fields = append(out.fields, field{value: v, word: word}) // the common case: `src/f{1..9}`
			continue
		}
		if braceLike(bw) {
			return dynamicFields(word) // `{a},{x,}~}`: bash reads more braces
		}
		f := w.wordNoBraces(bw, word)
		if len(f.fields) == 0 && w.zsh() {
			f.fields = []field{{word: word}} // zsh keeps the empty words of `{,}`
		}
		out.dynamic = out.dynamic || f.dynamic
		for _, x := range f.fields {
			if x.value == "" && !x.dynamic && !hasQuotes(bw) && !w.zsh() {
				continue // bash drops the empty words of a brace expansion: `{,}`
			}
			out.fields = append(out.fields, x)
		}
	}
	return out
}

// assignmentTildes expands the tildes bash expands in an argument that looks
// like an assignment (`of=~/x`, `PATH=a:~/bin`): after the first `=` and
// after each `:`, an unquoted tilde-prefix ending at `/`, `:` or the end of
// the word. `--prefix=~` is no such word and keeps its tilde. It returns word
// itself when there is nothing to expand, a copy with the tildes replaced,
// or ok false when a tilde-prefix is only known at run time (`a=~-`,
// `a=~user`) or the home directory is not known.
func (w *walker) assignmentTildes(orig *syntax.Word) (*syntax.Word, bool) {
	if len(orig.Parts) == 0 {
		return orig, true
	}
	if _, ok := orig.Parts[0].(*syntax.Lit); !ok {
		return orig, true
	}
	word := orig
	if len(orig.Parts) > 1 {
		word = joinLits(orig) // the parser splits `a[1]=~` in two
	}
	if len(word.Parts) == 0 {
		return orig, true
	}
	first, ok := word.Parts[0].(*syntax.Lit)
	if !ok {
		return orig, true
	}
	eq := strings.IndexByte(first.Value, '=')
	if eq <= 0 || !strings.Contains(first.Value[eq:], "~") {
		return orig, true
	}
	name := strings.TrimSuffix(first.Value[:eq], "+")
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		name = name[:i] // a[1]=~ is an assignment too
	}
	if !isAssignName(name) {
		return orig, true
	}
	home := w.opts.Home
	var cwd string
	if len(w.cwd) == 1 {
		cwd = w.cwd[0]
	}
	v := first.Value
	var b strings.Builder
	b.WriteString(v[:eq+1])
	changed := false
	for i := eq + 1; i <= len(v); {
		// i starts a segment (after = or :); copy up to the next :.
		end := strings.IndexByte(v[i:], ':')
		seg := v[i:]
		if end >= 0 {
			seg = v[i : i+end]
		}
		last := end < 0
		if strings.HasPrefix(seg, "~") {
			prefix, _, _ := strings.Cut(seg, "/")
			if last && !strings.Contains(seg, "/") && len(word.Parts) > 1 {
				return nil, false // quotes follow the prefix: bash may or may not expand
			}
			var repl string
			switch prefix {
			case "~":
				repl = home
			case "~+":
				repl = cwd
			}
			if repl == "" || strings.ContainsAny(repl, "\\*?[{$'\"`") || strings.Contains(prefix, "\\") {
				return nil, false
			}
			seg = repl + seg[len(prefix):]
			changed = true
		}
		b.WriteString(seg)
		if last {
			break
		}
		b.WriteByte(':')
		i += end + 1
	}
	if !changed {
		return orig, true
	}
	lit := *first
	lit.Value = b.String()
	out := &syntax.Word{Parts: append([]syntax.WordPart{&lit}, word.Parts[1:]...)}
	return out, true
}

// braceLike reports whether the unquoted, unescaped text of word still holds
// a `{` before a `,` or `..` before a `}`: brace syntax that the expander
// left alone or read differently from bash (`{a},}}`, `{a},{x,}~}`).
func braceLike(word *syntax.Word) bool {
	var b strings.Builder
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(unescaped(l.Value))
		}
		b.WriteByte(0) // quoted text separates
	}
	t := b.String()
	open := strings.IndexByte(t, '{')
	if open < 0 {
		return false
	}
	rest := t[open:]
	sep := strings.IndexAny(rest, ",")
	if dots := strings.Index(rest, ".."); dots >= 0 && (sep < 0 || dots < sep) {
		sep = dots
	}
	return sep >= 0 && strings.IndexByte(rest[sep:], '}') >= 0
}

// isAssignName reports whether s is a shell variable name.
func isAssignName(s string) bool {
	for i, c := range s {
		if c != '_' && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return s != ""
}

// joinLits returns word with adjacent literal parts joined and empty ones
// dropped: brace expansion leaves `~` and "" as two parts, and a tilde is
// only expanded at the start of a literal that is not followed by quotes.
func joinLits(word *syntax.Word) *syntax.Word {
	out := &syntax.Word{Parts: make([]syntax.WordPart, 0, len(word.Parts))}
	for _, p := range word.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			out.Parts = append(out.Parts, p)
			continue
		}
		if l.Value == "" {
			continue
		}
		if n := len(out.Parts); n > 0 {
			if prev, ok := out.Parts[n-1].(*syntax.Lit); ok {
				joined := *prev
				joined.Value += l.Value
				joined.ValueEnd = l.ValueEnd
				out.Parts[n-1] = &joined
				continue
			}
		}
		out.Parts = append(out.Parts, l)
	}
	return out
}

// dynamicFields is the one unknown field of a word whose value depends on
// run time.
func dynamicFields(word *syntax.Word) wordFields {
	return wordFields{dynamic: true, fields: []field{{value: partialLiteral(word), dynamic: true, word: word}}}
}

// wordNoBraces expands a word without brace expansions (the word as
// written, or one word of a brace expansion); orig is the word as written,
// which the fields point at.
func (w *walker) wordNoBraces(word, orig *syntax.Word) wordFields {
	tilde := tildeForm(word)
	if tilde == tildeUnknown || tilde == tildeLiteral && w.zsh() || isDynamicWord(word, w.opts.Home != "") {
		// zsh expands `~""` and `~-""`: quotes do not stop its tilde.
		return dynamicFields(orig)
	}
	if w.expandCfg == nil {
		w.expandCfg = &expand.Config{Env: expand.ListEnviron("HOME=" + w.opts.Home)}
	}
	cfg := w.expandCfg
	if tilde == tildeLiteral || tilde == tildeCwd {
		cfg = noTildeCfg
	}
	vals, err := expand.Fields(cfg, word)
	if err != nil {
		return dynamicFields(orig)
	}
	if tilde == tildeCwd {
		if len(w.cwd) != 1 || w.cwd[0] == "" {
			return dynamicFields(orig)
		}
		for i, v := range vals {
			vals[i] = w.cwd[0] + strings.TrimPrefix(v, "~+")
		}
	}
	glob := hasGlob(word) || w.zsh() && zshPattern(word)
	out := wordFields{fields: make([]field, 0, len(vals))}
	for _, v := range vals {
		out.fields = append(out.fields, field{value: v, glob: glob, word: orig})
	}
	return out
}

// plainLiteral returns the value of a word that needs no expansion: one
// unquoted literal without globs, braces or a tilde (backslashes only quote
// the next byte), or one '...' string. It is the common case and skips the
// expander.
func plainLiteral(word *syntax.Word) (string, bool) {
	if len(word.Parts) != 1 {
		return "", false
	}
	switch x := word.Parts[0].(type) {
	case *syntax.Lit:
		v := x.Value
		if v == "" || strings.ContainsAny(v, "*?[{~") {
			return "", false
		}
		// Backslashes only quote the next byte: `r\m` is rm. The expander
		// takes 12 ms for a 64 KiB word of them.
		return unbackslash(v), true
	case *syntax.SglQuoted:
		if x.Dollar {
			return "", false
		}
		return x.Value, true
	}
	return "", false
}

// unbackslash removes the backslashes of an unquoted literal: `\x` is x, and
// a backslash before a newline is a line continuation, removed with it.
func unbackslash(v string) string {
	if strings.IndexByte(v, '\\') < 0 {
		return v
	}
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// noTildeCfg expands without a home, so a tilde stays a literal `~`.
var noTildeCfg = &expand.Config{Env: expand.ListEnviron()}

// The forms of a word's leading tilde.
const (
	tildeNone    = iota // no leading tilde, or `~`, `~/..`: the expander does it
	tildeCwd            // `~+`: the working directory
	tildeUnknown        // `~-` (the previous cwd) or `~user` (another home)
	tildeLiteral        // a tilde prefix with quoted characters is not expanded: `~""`, `~\/x`
)

// tildeForm classifies a word's leading unquoted tilde the way bash reads
// its tilde-prefix: the characters up to the first unquoted slash.
func tildeForm(word *syntax.Word) int {
	if len(word.Parts) == 0 {
		return tildeNone
	}
	l, ok := word.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(l.Value, "~") {
		return tildeNone
	}
	prefix, _, slash := strings.Cut(l.Value, "/")
	if strings.Contains(prefix, "\\") || !slash && len(word.Parts) > 1 && !startsWithSlash(word.Parts[1]) {
		return tildeLiteral
	}
	switch prefix {
	case "~":
		return tildeNone
	case "~+":
		return tildeCwd
	}
	return tildeUnknown
}

func startsWithSlash(p syntax.WordPart) bool {
	switch x := p.(type) {
	case *syntax.Lit:
		return strings.HasPrefix(x.Value, "/")
	case *syntax.SglQuoted:
		return strings.HasPrefix(x.Value, "/")
	case *syntax.DblQuoted:
		return len(x.Parts) > 0 && startsWithSlash(x.Parts[0])
	}
	return false
}

// extGlobLiteral renders a word with extended globs (`+(a|b).txt`) as its
// pattern text, when its other parts are plain literals.
func extGlobLiteral(word *syntax.Word) (string, bool) {
	var b strings.Builder
	ext := false
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "\\{~") {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.ExtGlob:
			ext = true
			b.WriteString(x.Op.String() + x.Pattern.Value + ")")
		default:
			return "", false
		}
	}
	return b.String(), ext
}

// fields expands a list of words into fields.
func (w *walker) fields(words []*syntax.Word) []field {
	var out []field
	for _, word := range words {
		out = append(out, w.word(word).fields...)
	}
	return out
}

// isDynamicWord reports whether word's value is only known at run time.
// $HOME is literal when the home directory is known.
func isDynamicWord(word *syntax.Word, homeKnown bool) bool {
	for _, p := range word.Parts {
		if dynamicPart(p, homeKnown) {
			return true
		}
	}
	return false
}

func dynamicPart(p syntax.WordPart, homeKnown bool) bool {
	switch x := p.(type) {
	case *syntax.SglQuoted:
		// $'\cX' is a control character to bash; the expander keeps it as
		// written. No control character is a / or a ., so only the name
		// would differ, but a value that is not bash's is not known.
		return x.Dollar && strings.Contains(x.Value, `\c`)
	case *syntax.Lit, *syntax.ExtGlob:
		return false
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			if dynamicPart(q, homeKnown) {
				return true
			}
		}
		return false
	case *syntax.ParamExp:
		return !(homeKnown && x.Param != nil && x.Param.Value == "HOME" && isSimpleParam(x))
	case *syntax.BraceExp:
		for _, e := range x.Elems {
			if isDynamicWord(e, homeKnown) {
				return true
			}
		}
		return false
	default: // CmdSubst, ArithmExp, ProcSubst and anything new
		return true
	}
}

func isSimpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Length && !p.Width && !p.IsSet &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 && p.Slice == nil &&
		p.Repl == nil && p.Names == 0 && p.Exp == nil
}

// partialLiteral is the literal text of a word up to its first dynamic part,
// for reasons only.
func partialLiteral(word *syntax.Word) string {
	var b strings.Builder
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		default:
			return b.String()
		}
	}
	return b.String()
}

// hasGlob reports whether an unquoted part of word is a glob pattern.
func hasGlob(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if isPattern(unescaped(x.Value)) {
				return true
			}
		case *syntax.ExtGlob:
			return true
		}
	}
	return false
}

// unescaped drops backslash-escaped characters, which are not glob syntax.
func unescaped(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// hasQuotes reports whether word has a quoted part, which keeps an empty
// field a field: empty double or single quotes are explicit null arguments.
func hasQuotes(word *syntax.Word) bool {
	for _, p := range word.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

func hasProcSubst(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, p := range word.Parts {
		if _, ok := p.(*syntax.ProcSubst); ok {
			return true
		}
	}
	return false
}

func hasGlobChars(s string) bool { return strings.ContainsAny(s, "*?[") }

// isPattern reports whether s holds glob syntax bash would expand: `*`, `?`,
// or a bracket expression with its closing `]` (a lone `[` is literal).
func isPattern(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}

// braceProduct is the number of words w expands to: the product of its
// brace expansions' sizes.
func braceProduct(w *syntax.Word) int {
	n := 1
	for _, p := range w.Parts {
		if br, ok := p.(*syntax.BraceExp); ok {
			n = min(n*braceSize(br), MaxUnits+1) // both factors are at most MaxUnits+1: no overflow
		}
	}
	return n
}

// braceSize is the number of alternatives of one brace expansion, the way
// mvdan.cc/sh/v3/expand counts them: a sequence {a..b[..step]} of numbers or
// characters, or the sum of its elements' expansions.
func braceSize(br *syntax.BraceExp) int {
	if !br.Sequence {
		n := 0
		for _, e := range br.Elems {
			n = min(n+braceProduct(e), MaxUnits+1)
		}
		return max(n, 1)
	}
	if len(br.Elems) < 2 {
		return 1
	}
	fromLit, toLit := br.Elems[0].Lit(), br.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	if err1 != nil || err2 != nil {
		if fromLit == "" || toLit == "" {
			return 1
		}
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	step := int64(1)
	if len(br.Elems) > 2 {
		if n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64); n != 0 {
			step = n
		}
	}
	step = max(step, -step) // only the step's size matters
	if step < 0 {
		step = math.MaxInt64 // -MinInt64 overflows: a single element
	}
	span := uint64(to) - uint64(from) // exact in two's complement, whatever the signs
	if to < from {
		span = uint64(from) - uint64(to)
	}
	return int(min(span/uint64(step), uint64(MaxUnits))) + 1
}
