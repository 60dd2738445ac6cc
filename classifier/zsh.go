package classifier

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// This file holds what zsh reads otherwise than bash (SPEC §1, §3 rule 1):
// glob qualifiers and groups, `=cmd`, parameter flags that evaluate, the
// options that change how later words are read, modules, autoloaded and
// special functions, and zsh's special parameters. mvdan.cc/sh parses glob
// qualifiers, glob groups and parameter flags as literal text, so the code
// they hold is found here, in that text, or the part is refused.

// lookup returns the table entry of a bare program name as the shell being
// walked knows it: zsh's own builtins only under zsh. On a platform whose
// file names are case-insensitive (Windows, macOS) the program a name runs
// from $PATH is found in any case (`RM` runs rm), and on Windows with or
// without `.exe` (`sudo.exe`): such a spelling is its entry (SPEC rule 6).
// A shell's builtins and zsh's own are found by the exact name only, as the
// shell finds them: `CD` is no builtin, and a spelling of one is unknown.
func (w *walker) lookup(name string) *effects.Program {
	e := effects.Lookup(name)
	if e == nil && w.foldCase() {
		e = foldedEntry(name, w.opts.Platform == Windows)
	}
	if e != nil && e.Zsh && !w.zsh() {
		return nil
	}
	return e
}

// foldedEntry is the entry of a program name spelled in another case or,
// when exe, with Windows' `.exe` suffix; nil for a shell builtin's name.
func foldedEntry(name string, exe bool) *effects.Program {
	n := strings.ToLower(name)
	if exe {
		n = strings.TrimSuffix(n, ".exe")
	}
	if n == name || n == "" || bashBuiltins[n] {
		return nil
	}
	e := effects.Lookup(n)
	if e == nil || e.Zsh {
		return nil
	}
	return e
}

// bashBuiltins are bash 5.2's builtins (`compgen -b`; TestBashBuiltins
// compares them with the bash installed): bash finds them by the exact
// name, never through $PATH's case-insensitive file lookup.
var bashBuiltins = map[string]bool{}

func init() {
	for _, b := range strings.Fields(". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait") {
		bashBuiltins[b] = true
	}
}

// zshRefuse adds a part that zsh runs code or reads words the walker cannot
// follow: opaque-high (an absolute refusal, SPEC §5.7).
func (w *walker) zshRefuse(n syntax.Node, reason string) {
	p := w.part(n, effects.OpaqueHigh, "", reason)
	p.Refusal = effects.UnidentifiableProgram
	w.allKnown = false
	w.add(p)
}

// zshGlobs looks at a word zsh expands into file names (an argument, a
// redirection target, an array element, a for list) for glob groups whose
// text runs code: qualifiers `*(e:CMD:)`, `*(e{CMD})`, `*(+func)`, words a
// qualifier adds (`*(P:/:)`), and substitutions inside a group, which the
// parser leaves in the group's text.
func (w *walker) zshGlobs(word *syntax.Word, depth int) {
	if word == nil || depth > MaxDepth {
		return
	}
	for i, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			last := i == len(word.Parts)-1
			if strings.IndexByte(x.Value, '(') >= 0 {
				w.zshGroups(word, x.Value, last)
			}
			if x.Value == "$" && !last {
				if l, ok := word.Parts[i+1].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "[") {
					w.zshRefuse(word, fmt.Sprintf("`%s` uses zsh's $[...] arithmetic, which evaluates values as code and which the classifier does not read", brief(w.textOf(word))))
				}
			}
		case *syntax.ParamExp:
			if x.Exp != nil {
				w.zshGlobs(x.Exp.Word, depth+1) // ${x:-*(e:..:)}
			}
		}
	}
}

// zshGroups checks the parenthesised groups of one literal of word; last
// says the literal ends the word, where a group is a list of glob
// qualifiers.
func (w *walker) zshGroups(word *syntax.Word, text string, last bool) {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
			continue
		case '(':
		default:
			continue
		}
		j, depth := i+1, 1
		for ; j < len(text) && depth > 0; j++ {
			switch text[j] {
			case '\\':
				j++
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		body := text[i+1 : max(i+1, j-1)]
		if strings.ContainsAny(body, "$`") {
			w.zshRefuse(word, fmt.Sprintf("`%s` has a substitution inside a zsh glob group, which the classifier cannot read", brief(w.textOf(word))))
			return
		}
		final := last && j >= len(text)
		if q, ok := strings.CutPrefix(body, "#"); ok {
			// Globbing flags: (#i), (#b), (#a2); (#q...) are qualifiers.
			if k := strings.IndexByte(q, 'q'); k >= 0 {
				if why := qualifierRuns(q[k+1:]); why != "" {
					w.zshRefuse(word, fmt.Sprintf("`%s`: the glob qualifier %s", brief(w.textOf(word)), why))
					return
				}
			}
			continue
		}
		if final && !unquotedBar(body) {
			if why := qualifierRuns(body); why != "" {
				w.zshRefuse(word, fmt.Sprintf("`%s`: the glob qualifier %s", brief(w.textOf(word)), why))
				return
			}
		}
	}
}

// unquotedBar reports whether s has a `|` outside quotes: a final group
// with one is an alternation (`*.(c|h)`), one without is a list of glob
// qualifiers, as zsh 5.9 decides (`*(e:'a|b':)` runs code).
func unquotedBar(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			if k := strings.IndexByte(s[i+1:], '\''); k >= 0 {
				i += k + 1
			}
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '|':
			return true
		}
	}
	return false
}

// qualifierRuns reports what a list of zsh glob qualifiers runs or adds
// (zsh 5.9 manual, "Glob Qualifiers"), or "" when it only selects, sorts
// and modifies names within their directory (see modifiersMove). It errs on the side of finding code: a delimited
// argument is skipped only after the letters that take one, and a letter
// it does not know is harmless because zsh rejects the pattern.
func qualifierRuns(q string) string {
	for i := 0; i < len(q); i++ {
		switch c := q[i]; c {
		case ':':
			return modifiersMove(q[i:]) // modifiers to the end
		case 'e':
			return "(e…) runs shell code for every file it matches"
		case '+':
			return "(+cmd) runs a command for every file it matches"
		case 'P':
			return "(P…) adds words of its own before every file it matches"
		case 'u', 'g':
			if i+1 < len(q) && (q[i+1] < '0' || q[i+1] > '9') {
				i = skipDelimited(q, i+1)
			}
		case 'f':
			if i+1 < len(q) && !strings.ContainsRune("=+-01234567", rune(q[i+1])) {
				i = skipDelimited(q, i+1)
			}
		case 'o', 'O':
			if i+1 < len(q) && q[i+1] != 'e' && q[i+1] != '+' {
				i++ // the sort key
			}
		case 'L', 'a', 'm', 'c', 'l':
			// Sizes, times and link counts: a unit, a + or -, digits.
			units := "kKmMpPgGtT"
			if c != 'L' {
				units = "Mwhms"
			}
			if c != 'l' && i+1 < len(q) && strings.ContainsRune(units, rune(q[i+1])) {
				i++
			}
			if i+1 < len(q) && (q[i+1] == '+' || q[i+1] == '-') {
				i++
			}
		case '[':
			if k := strings.IndexByte(q[i:], ']'); k >= 0 {
				i += k
			}
		}
	}
	return ""
}

// modifiersMove reports how a list of zsh modifiers (`:t:r`, `:s/a/b/`,
// zsh 5.9 manual, "Modifiers") makes a glob name another path, or "" when
// the modifiers keep it in its directory (`:r`, `:e`, `:t`, `:l`, `:u`,
// `:q`). `:h`, `:a`, `:A`, `:P`, `:c` and the substitutions `:s`, `:gs`,
// `:S`, `:&` can name any path (`main.go(:s:main.go:/:)` is `/`), which
// the classifier then does not know.
func modifiersMove(m string) string {
	for i := 0; i < len(m); i++ {
		c := m[i]
		if c == ':' || c == 'g' || c == 'w' || c >= '0' && c <= '9' {
			continue
		}
		switch c {
		case 'h', 'a', 'A', 'P', 'c', 's', 'S', '&', 'W', 'F', 'f', 'I':
			return fmt.Sprintf("modifier :%c rewrites the name it matches into a path the classifier does not know", c)
		}
	}
	return ""
}

// skipDelimited skips the argument of a qualifier that starts with its
// delimiter at q[i] (`u:root:`, `u{root}`), returning the index of the
// closing delimiter.
func skipDelimited(q string, i int) int {
	open := q[i]
	closer := open
	switch open {
	case '{':
		closer = '}'
	case '[':
		closer = ']'
	case '<':
		closer = '>'
	}
	if k := strings.IndexByte(q[i+1:], closer); k >= 0 {
		return i + 1 + k
	}
	return len(q)
}

// equalsProgram returns the name in a zsh `=name` command word: zsh runs
// the program name found in $PATH (never a function or builtin).
func equalsProgram(word *syntax.Word) (string, bool) {
	if len(word.Parts) != 1 {
		return "", false
	}
	l, ok := word.Parts[0].(*syntax.Lit)
	if !ok || len(l.Value) < 2 || l.Value[0] != '=' {
		return "", false
	}
	name := l.Value[1:]
	if strings.ContainsAny(name, "=\\/*?[(~") {
		return "", false
	}
	return name, true
}

// zshWord expands what zsh reads otherwise than bash: ok is false when the
// word is read alike. A word whose value zsh gives at run time is dynamic;
// a final glob qualifier group is taken off and the rest is a pattern
// (`~(/)` is the home directory, `..(/)` the parent); a word with zsh's
// pattern syntax is a glob.
func (w *walker) zshWord(word *syntax.Word) (wordFields, bool) {
	if zshWordDynamic(word) {
		return dynamicFields(word), true
	}
	n := len(word.Parts)
	if n > 1 {
		if l, ok := word.Parts[n-1].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "(") && strings.HasSuffix(l.Value, ")") && !unquotedBar(l.Value) {
			rest := &syntax.Word{Parts: word.Parts[:n-1]}
			f := w.word(rest)
			for i := range f.fields {
				f.fields[i].glob, f.fields[i].word = true, word
			}
			return f, true
		}
	}
	if zshPattern(word) {
		if v, ok := plainLiteral(word); ok {
			return wordFields{fields: []field{{value: v, glob: true, word: word}}}, true
		}
	}
	return wordFields{}, false
}

// zshPattern reports whether an unquoted literal of word holds zsh pattern
// syntax beyond bash's: groups `(a|b)`, numeric ranges `<1-9>`, and, with
// EXTENDED_GLOB, `^x`, `x~y` and `x#`.
func zshPattern(word *syntax.Word) bool {
	for i, p := range word.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		v := unescaped(l.Value)
		if strings.ContainsAny(v, "(<^#|") {
			return true
		}
		if k := strings.IndexByte(v, '~'); k > 0 || k == 0 && i > 0 {
			return true
		}
	}
	return false
}

// zshWordDynamic reports whether zsh gives word a value the walker does
// not know: `=name` (a path found in $PATH), `a=~` (expanded only with
// MAGIC_EQUAL_SUBST), `$"x"`, a character range with a step.
func zshWordDynamic(word *syntax.Word) bool {
	empty := true // only empty quotes so far: zsh still expands a ~ after them
	for i, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted:
			if x.Dollar && zshNulEscape(x.Value) {
				return true // $'\x' and $'\0' are a NUL byte to zsh, which ends the argument
			}
			empty = empty && x.Value == ""
		case *syntax.DblQuoted:
			empty = empty && len(x.Parts) == 0
		}
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		if i > 0 && empty && strings.HasPrefix(l.Value, "~") {
			return true // `""~` is the home directory to zsh
		}
		empty = false
		v := l.Value
		if i == 0 && len(v) > 1 && v[0] == '=' {
			return true
		}
		if eq := strings.IndexByte(v, '='); eq > 0 && strings.Contains(v[eq:], "~") {
			return true
		}
		if v == "$" || strings.HasSuffix(v, "$") && i+1 < len(word.Parts) {
			return true // `$"x"` and `$[...]`
		}
		if charRangeStep(v) {
			return true // {a..c..2} is no range to zsh
		}
	}
	return false
}

// charRangeStep reports whether v holds a brace sequence of characters
// with a step (`{a..e..2}`), which bash expands and zsh keeps as written.
func charRangeStep(v string) bool {
	for {
		i := strings.IndexByte(v, '{')
		if i < 0 {
			return false
		}
		v = v[i+1:]
		j := strings.IndexByte(v, '}')
		if j < 0 {
			return false
		}
		if parts := strings.Split(v[:j], ".."); len(parts) == 3 && !(isSignedDigits(parts[0]) && isSignedDigits(parts[1])) {
			return true
		}
	}
}

func isSignedDigits(s string) bool { return isDigits(strings.TrimPrefix(s, "-")) }

// zshNulEscape reports whether a $'...' body has an escape zsh turns into
// a NUL byte: `\x` without hex digits, `\0`, `\u0000`.
func zshNulEscape(v string) bool {
	for i := 0; i+1 < len(v); i++ {
		if v[i] != '\\' {
			continue
		}
		switch v[i+1] {
		case '0':
			return true
		case 'x', 'u', 'U':
			if i+2 >= len(v) || !strings.ContainsRune("0123456789abcdefABCDEF", rune(v[i+2])) || strings.HasPrefix(v[i+2:], "00") {
				return true
			}
		}
		i++
	}
	return false
}

// zshParamFlags classifies the flags and prefixes of a zsh parameter
// expansion: those that evaluate the value as code or read another
// variable are opaque-high (zsh 5.9 manual, "Parameter Expansion Flags").
func (w *walker) zshParamFlags(x *syntax.ParamExp) {
	if x.GlobSubst == syntax.OptOn {
		w.zshRefuse(x, fmt.Sprintf("`%s` uses the value as a glob pattern, whose qualifiers can run code", w.textOf(x)))
	}
	for _, m := range x.Modifiers {
		if strings.ContainsAny(m.Value, "$`") {
			w.zshRefuse(x, fmt.Sprintf("`%s` has a substitution inside a modifier, which the classifier cannot read", w.textOf(x)))
		}
	}
	if x.Flags == nil {
		return
	}
	f := x.Flags.Value
	if strings.ContainsAny(f, "$`") {
		w.zshRefuse(x, fmt.Sprintf("`%s` has a substitution inside its flags, which the classifier cannot read", w.textOf(x)))
		return
	}
	for i := 0; i < len(f); i++ {
		switch c := f[i]; c {
		case 'e':
			w.zshRefuse(x, fmt.Sprintf("`%s` evaluates the value as shell code (the e flag)", w.textOf(x)))
			return
		case 'P':
			w.zshRefuse(x, fmt.Sprintf("`%s` reads the variable the value names (the P flag), and evaluates its subscripts", w.textOf(x)))
			return
		case '%':
			w.zshRefuse(x, fmt.Sprintf("`%s` expands the value as a prompt, which can run commands", w.textOf(x)))
			return
		case '#':
			w.zshRefuse(x, fmt.Sprintf("`%s` evaluates the value as arithmetic (the # flag), which can run commands", w.textOf(x)))
			return
		case 'l', 'r', 'I':
			// l:expr::pad:, r:expr::pad:, I:expr: evaluate expr as arithmetic.
			if i+1 >= len(f) {
				continue
			}
			end := skipDelimited(f, i+1)
			if expr := f[i+2 : min(end, len(f))]; !isDigits(expr) {
				w.zshRefuse(x, fmt.Sprintf("`%s` evaluates %q as arithmetic, which can run commands", w.textOf(x), expr))
				return
			}
			i = end
			if c != 'I' && i+1 < len(f) && f[i+1] == f[i] {
				i = skipDelimited(f, i+1) // ::pad:
				if i+1 < len(f) && f[i+1] == f[i] {
					i = skipDelimited(f, i+1) // ::pad2:
				}
			}
		case 'j', 's', 'Z', 'g', '_':
			if i+1 < len(f) {
				i = skipDelimited(f, i+1)
			}
		case '@', 'A', 'a', 'b', 'c', 'C', 'D', 'f', 'F', 'i', 'k', 'L', 'n', 'o', 'O', 'q', 'Q', 't', 'u', 'U',
			'v', 'V', 'w', 'W', 'X', 'z', 'p', '0', '~', 'B', 'E', 'M', 'N', 'R', 'S', 'm', '*', '!':
		default:
			p := w.part(x, effects.Unknown, "", fmt.Sprintf("`%s` uses the zsh parameter flag %q, which the classifier does not support", w.textOf(x), string(c)))
			p.Refusal = effects.Unparseable
			w.allKnown = false
			w.add(p)
			return
		}
	}
}

// zshSafeOptions are the options whose setting changes nothing the
// classifier reads (zsh 5.9 manual, "Options"): errors, tracing, history,
// prompts and job control. The glob options are here because the walker
// reads every glob conservatively whatever they say. Names are as zsh
// compares them: lower case, without underscores.
var zshSafeOptions = map[string]bool{
	"errexit": true, "errreturn": true, "pipefail": true, "nounset": true, "unset": true, "xtrace": true,
	"verbose": true, "clobber": true, "noclobber": true, "localoptions": true, "localtraps": true,
	"localpatterns": true, "warncreateglobal": true, "warnnestedvar": true, "extendedglob": true,
	"nullglob": true, "nomatch": true, "cshnullglob": true, "globdots": true, "caseglob": true,
	"nocaseglob": true, "numericglobsort": true, "markdirs": true, "listtypes": true, "promptpercent": true,
	"monitor": true, "notify": true, "hup": true, "checkjobs": true, "bgnice": true, "beep": true,
	"histignoredups": true, "histignorespace": true, "sharehistory": true, "incappendhistory": true,
	"appendhistory": true, "extendedhistory": true, "histreduceblanks": true, "histverify": true,
	"multios": true, "printexitvalue": true, "interactivecomments": true, "longlistjobs": true,
	"pushdsilent": true, "cdsilent": true, "evallineno": true, "functionargzero": true,
	"badpattern": true, "equals": true,
}

// zshOptionSafe reports whether setting the option spelled o (`extended_glob`,
// `NO_CLOBBER`, `noclobber`) leaves the walker's reading of zsh right.
func zshOptionSafe(o string) bool {
	o = strings.ToLower(strings.ReplaceAll(o, "_", ""))
	if zshSafeOptions[o] {
		return true
	}
	if rest, ok := strings.CutPrefix(o, "no"); ok {
		return zshSafeOptions[rest]
	}
	return false
}

// zshOptions classifies setopt, unsetopt, emulate, enable and disable:
// after an option that changes how zsh reads later words (`setopt
// shwordsplit globsubst`, `emulate sh`, `disable -r if`), the rest of the
// line is refused. `emulate MODE -c CODE` runs CODE in that emulation: it
// is read as zsh and as bash.
func (inv *invocation) zshOptions(args []field) {
	w := inv.w
	inv.emit()
	if !w.zsh() {
		return
	}
	changes := ""
	switch inv.key() {
	case "setopt", "unsetopt":
		for _, a := range args {
			if a.dynamic {
				changes = "options only known at run time"
				break
			}
			if a.value == "-m" || zshOptionSafe(a.value) {
				continue
			}
			changes = "the option " + a.value
			break
		}
	case "emulate":
		mode := ""
		for i, a := range args {
			if a.dynamic {
				changes = "an emulation only known at run time"
				break
			}
			switch {
			case a.value == "-c" && i+1 < len(args):
				if args[i+1].dynamic {
					inv.opaqueHigh("code only known at run time")
				} else {
					w.nestedIn(args[i+1].value, args[i+1].word, inv.depth, UnknownDialect.readings())
				}
				return
			case isOption(a.value):
			case mode == "":
				mode = a.value
			}
		}
		if mode != "" && mode != "zsh" && changes == "" {
			changes = "the emulation of " + mode
		}
	default: // enable, disable
		for _, a := range args {
			if a.dynamic || a.value == "-p" || a.value == "-r" || a.value == "-a" || a.value == "-s" {
				changes = "what `" + inv.prog + " " + a.value + "` turns on or off"
				break
			}
		}
	}
	if changes != "" && w.zshOpts == "" {
		w.zshOpts = fmt.Sprintf("after `%s`, zsh reads the rest of the line with %s, which the classifier does not model", inv.text, changes)
	}
}

// zshAfterOptions refuses a statement that runs after an option changed how
// zsh reads words, once per line.
func (w *walker) zshAfterOptions(s *syntax.Stmt) {
	if w.zshOpts == "" || w.zshOptsRefused {
		return
	}
	w.zshOptsRefused = true
	p := w.part(s, effects.Unknown, "", w.zshOpts)
	p.Refusal = effects.Unparseable
	w.allKnown = false
	w.add(p)
}

// zshModules are the modules of zsh 5.9 whose builtins and parameters the
// walker knows: zsh/files gives rm, mv, ln, mkdir, rmdir, chmod, chown,
// chgrp and sync as builtins (and their zf_ spellings), which the table
// classifies as the programs; the parameters of zsh/mapfile and
// zsh/parameter are read in any case. Other modules add builtins the table
// does not know, which are then unknown programs.
var zshModules = map[string]bool{
	"zsh/files": true, "zsh/mapfile": true, "zsh/parameter": true, "zsh/stat": true, "zsh/datetime": true,
	"zsh/mathfunc": true, "zsh/zutil": true, "zsh/complete": true, "zsh/complist": true, "zsh/computil": true,
	"zsh/zle": true, "zsh/terminfo": true, "zsh/termcap": true, "zsh/langinfo": true, "zsh/regex": true,
	"zsh/pcre": true, "zsh/system": true, "zsh/sched": true, "zsh/zpty": true, "zsh/net/tcp": true,
	"zsh/net/socket": true, "zsh/zftp": true, "zsh/nearcolor": true, "zsh/zprof": true, "zsh/zselect": true,
	"zsh/curses": true, "zsh/param/private": true, "zsh/watch": true, "zsh/newuser": true, "zsh/random": true,
	"zsh/main": true, "zsh/rlimits": true, "zsh/clone": true, "zsh/deltochar": true, "zsh/attr": true,
	"zsh/cap": true, "zsh/db/gdbm": true, "zsh/ksh93": true, "zsh/zleparameter": true, "zsh/example": true,
}

// zmodload loads modules from $module_path: one the walker does not know is
// code from elsewhere (opaque-medium).
func (inv *invocation) zmodload(args []field) {
	inv.emit()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("a module only known at run time")
			return
		}
		if isOption(a.value) {
			if strings.ContainsAny(a.value, "u") {
				return // unloading changes nothing the walker reads
			}
			if strings.ContainsAny(a.value, "ab") && i+1 < len(args) {
				i++ // -ab MODULE BUILTIN...: the module, then names
			}
			continue
		}
		if strings.HasPrefix(a.value, "b:") || strings.HasPrefix(a.value, "p:") || strings.HasPrefix(a.value, "f:") || strings.HasPrefix(a.value, "c:") {
			continue // -F features
		}
		if !zshModules[a.value] {
			inv.opaqueMedium("the zsh module " + a.value + ", which is loaded from $module_path and not inspected")
			return
		}
	}
}

// autoload marks functions that zsh loads from a file in $fpath when they
// are first called: calling one runs code that is not inspected.
func (inv *invocation) autoload(args []field) {
	w := inv.w
	inv.emit()
	if !w.zsh() {
		return
	}
	for _, a := range args {
		if a.dynamic {
			inv.opaqueHigh("a function only known at run time")
			return
		}
		if isOption(a.value) || strings.HasPrefix(a.value, "+") {
			continue
		}
		w.autoloaded(path.Base(a.value))
	}
}

// autoloaded records that name is a function zsh loads from $fpath.
func (w *walker) autoloaded(name string) {
	if w.funcs == nil {
		w.funcs = map[string]*funcDef{}
	}
	w.funcGen++
	w.funcs[name] = &funcDef{autoload: true}
}

// zshHookFunction reports whether zsh calls a function of this name by
// itself, later: traps (TRAPINT, TRAPEXIT, TRAPDEBUG, TRAPZERR, ...) and the
// hook functions (zsh 5.9 manual, "Special Functions").
func zshHookFunction(name string) bool {
	switch name {
	case "chpwd", "periodic", "precmd", "preexec", "zshaddhistory", "zshexit", "command_not_found_handler":
		return true
	}
	return strings.HasPrefix(name, "TRAP") && len(name) > 4
}

// zshLater walks the body of a function zsh calls by itself later (a trap, a
// hook): from a directory that is not known, since it runs wherever the
// shell is then (SPEC §3 rule 11).
func (w *walker) zshLater(def *funcDef, depth int) {
	w.dedupeParts() // what the body does wherever it runs, once
	saved := w.saveCwd()
	w.restoreCwd(cwdState{cwd: unknownDirs, lcwd: unknownDirs, stackUncertain: true})
	w.enter(def)
	w.stmt(def.body, depth+1, stdinNone)
	w.settle()
	w.leave(def)
	w.restoreCwd(saved)
}

// zshCodeParams are zsh's special parameters (zsh/parameter) whose elements
// are code the shell runs later: `functions[ls]='rm -rf ~'` defines a
// function, `aliases[ls]=...` an alias.
var zshCodeParams = map[string]bool{"functions": true, "aliases": true, "galiases": true, "saliases": true,
	"dis_functions": true, "dis_aliases": true, "dis_galiases": true, "dis_saliases": true, "functions_source": true}

// zshRunsPrograms are zsh's parameters that change what runs (SPEC §3 rule
// 8): the arrays tied to PATH and its relatives, the command hash table,
// the startup files of a child zsh, and the commands run for a redirection
// without a command.
var zshRunsPrograms = map[string]string{
	"path":        "changes which programs run",
	"fpath":       "changes which functions autoload runs",
	"FPATH":       "changes which functions autoload runs",
	"module_path": "changes which modules zmodload loads",
	"MODULE_PATH": "changes which modules zmodload loads",
	"commands":    "changes which program a name runs",
	"ZDOTDIR":     "names the startup files of every zsh",
	"NULLCMD":     "names the command a redirection without a command runs",
	"READNULLCMD": "names the command a redirection without a command runs",
	"builtins":    "changes which builtins run",
}

// zshAssign classifies an assignment to one of zsh's special parameters,
// besides what [walker.assign] does with every assignment.
func (w *walker) zshAssign(a *syntax.Assign, at syntax.Node, depth int) {
	name := a.Name.Value
	switch {
	case zshCodeParams[name]:
		if a.Index == nil && a.Array == nil && a.Value == nil {
			return
		}
		if a.Value != nil && !isDynamicWord(a.Value, w.opts.Home != "") && a.Index != nil {
			w.nested(strings.Join(w.word(a.Value).values(), " "), a.Value, depth)
			return
		}
		w.zshRefuse(at, fmt.Sprintf("`%s` sets %s, code the shell runs later, with a value the classifier cannot read", brief(w.textOf(a)), name))
	case name == "mapfile":
		// zsh/mapfile: mapfile[FILE]=TEXT writes FILE.
		base := w.part(at, effects.WriteOutside, "", "")
		idx, ok := a.Index.(*syntax.Word)
		if !ok || a.Index == nil || isDynamicWord(idx, w.opts.Home != "") {
			w.write(base, "", true)
			return
		}
		for _, p := range w.resolve(strings.Join(w.word(idx).values(), ""), false) {
			w.write(base, p, p == "")
		}
	case name == "cdpath":
		w.cdpath = true
	case name == "dirstack":
		// Setting the stack makes popd go anywhere (new slices: saved
		// states share the old ones, see cwdState).
		n := len(w.dirStack)
		w.dirStack, w.ldirStack = make([][]string, n), make([][]string, n)
		for i := range n {
			w.dirStack[i], w.ldirStack[i] = unknownDirs, unknownDirs
		}
		w.stackUncertain = true
	case name == "options":
		if w.zshOpts == "" {
			w.zshOpts = fmt.Sprintf("after `%s`, zsh reads the rest of the line with other options, which the classifier does not model", brief(w.textOf(a)))
		}
	}
	if why, ok := zshRunsPrograms[name]; ok {
		w.allKnown = false
		w.add(w.part(at, effects.OpaqueMedium, "", fmt.Sprintf("`%s` sets %s, which %s", brief(w.textOf(a)), name, why)))
	}
}
