package classifier

import (
	"fmt"
	"maps"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// Expansions that evaluate code (issue 13, point 5).
//
// bash and zsh evaluate text as arithmetic in $((..)), $[..], ((..)), let,
// for ((..)), the arithmetic operators of [[ ]] (-eq, -lt, ..), the
// subscripts of indexed arrays, ${x:offset:length} and assignments to
// integer variables (declare -i, integer). That text is a variable's value
// (`x` or `$x`), a command's output or whatever it names in turn, and the
// evaluation expands the subscript of every name in it: a value
// `a[$(cmd)]` runs cmd. So does the subscript of a name the shell is given
// as text: `${!x}`, a nameref, `read`, `printf -v`, `mapfile`, `unset`,
// `[[ -v ]]`, `test -v`, `getopts`, `declare 'a[..]=1'`. bash's `[` and
// `test` compare integers without evaluating them. Where such text is not
// known to be harmless, the part is opaque-high: what runs cannot be
// identified. Harmless is a literal number or expression whose names are
// harmless, a value assigned in this line that is, and the values that are
// always numbers ($#, $?, $((..)), ${#x}, `$(wc -l < f)`).

// Values in [walker.vars] that are known only in kind.
const (
	// unknownValue is a value only known at run time (`x=$(cat f)`, `read x`).
	unknownValue = "$(unknown)"
	// numberValue is an integer whose digits are only known at run time
	// (`n=$((n+1))`, `n=$(wc -l < f)`, `(( n++ ))`).
	numberValue = "$((number))"
)

// varAttrs are the attributes the line gives variables (`declare -i`,
// `declare -A`, `declare -n`), which change how the shell reads their values
// and subscripts.
type varAttrs struct {
	ints  map[string]bool // integer: every assignment evaluates its value
	assoc map[string]bool // associative array: subscripts are strings, not arithmetic
	refs  map[string]bool // namerefs declared without a target: the next assignment names it
}

func (a varAttrs) clone() varAttrs {
	return varAttrs{ints: maps.Clone(a.ints), assoc: maps.Clone(a.assoc), refs: maps.Clone(a.refs)}
}

// setAttr sets or clears an attribute of name in m.
func setAttr(m *map[string]bool, name string, on bool) {
	if *m == nil {
		if !on {
			return
		}
		*m = map[string]bool{}
	}
	(*m)[name] = on
}

// maxNameHops bounds how many names the arithmetic check follows through
// values (`x=y; y=z; $((x))`); past it the value counts as unknown.
// maxNameVisits bounds the names it looks up in one command (a value of
// thousands of names, each naming thousands, took exponential time), a
// visit per 64 bytes of text scanned, and
// maxValueLen the text kept for an array's or a loop variable's values:
// past either, values count as unknown.
const (
	maxNameHops   = 16
	maxNameVisits = 4096
	maxValueLen   = 4096
)

// numberParams are parameters whose value is always a number, in every
// dialect: the shell sets them and ignores the environment's.
var numberParams = map[string]bool{"#": true, "?": true, "$": true, "!": true,
	"SHLVL": true, "OPTIND": true, "PPID": true, "SECONDS": true, "RANDOM": true,
	"LINENO": true, "HISTCMD": true}

// bashNumberParams are bash's own (zsh takes them from the environment);
// zshNumberParams are zsh's own (bash takes UID and EUID from the
// environment when they are set there).
var (
	bashNumberParams = map[string]bool{"EPOCHSECONDS": true, "EPOCHREALTIME": true, "BASHPID": true,
		"BASH_SUBSHELL": true, "SRANDOM": true}
	zshNumberParams = map[string]bool{"UID": true, "EUID": true, "GID": true, "EGID": true}
)

// numberParam reports whether the shell being walked always gives name a
// number.
func (w *walker) numberParam(name string) bool {
	if numberParams[name] {
		return true
	}
	if w.zsh() {
		return zshNumberParams[name]
	}
	return bashNumberParams[name]
}

// evalRefuse adds an opaque-high part: at makes the shell evaluate text
// that can run commands the line does not show.
func (w *walker) evalRefuse(at syntax.Node, why string) {
	w.unidentified(at, fmt.Sprintf("`%s`: %s; a subscript in such text (`a[$(cmd)]`) runs commands that cannot be identified", brief(w.textOf(at)), why))
}

// unidentified adds an opaque-high part for at with reason.
func (w *walker) unidentified(at syntax.Node, reason string) {
	p := w.part(at, effects.OpaqueHigh, "", reason)
	p.Refusal = effects.UnidentifiableProgram
	w.allKnown = false
	w.add(p)
}

// setVar records the value of name: literal text, [numberValue] or
// [unknownValue].
func (w *walker) setVar(name, value string) {
	if w.vars == nil {
		w.vars = map[string]string{}
	}
	w.vars[name] = value
	delete(w.globVars, name)
	delete(w.lits, name)
}

// setElem records that an element of the array name was assigned value:
// the array's value holds every element's, side by side (values are only
// ever scanned for names).
func (w *walker) setElem(name, value string) {
	w.setVar(name, joinValues(w.vars[name], value))
}

// textRisk says why text, evaluated as arithmetic, may run code ("" when
// it cannot): it holds an expansion (`$`, a backquote) or a name whose
// value may. hops counts the names followed so far.
func (w *walker) textRisk(text string, hops int) string {
	if w.nameVisits += len(text) / 64; w.nameVisits > maxNameVisits {
		return "the shell evaluates more text as arithmetic than the classifier follows"
	}
	if strings.ContainsAny(text, "$`") {
		return fmt.Sprintf("the shell evaluates %q as arithmetic, expansions included", brief(text))
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c >= '0' && c <= '9':
			// A number, in any base: 0x1f, 2#101, 64#_@.
			for i++; i < len(text) && (isNameByte(text[i]) || text[i] == '#' || text[i] == '@'); i++ {
			}
		case isNameByte(c):
			j := i + 1
			for j < len(text) && isNameByte(text[j]) {
				j++
			}
			if why := w.nameRisk(text[i:j], hops+1); why != "" {
				return why
			}
			i = j
		default:
			i++
		}
	}
	return ""
}

// isNameByte reports whether c may stand in a name: a shell variable's, a
// client command's, an identifier of inline code.
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// nameRisk says why the value of the variable name, evaluated as
// arithmetic, may run code ("" when it cannot).
func (w *walker) nameRisk(name string, hops int) string {
	if w.nameVisits++; hops > maxNameHops || w.nameVisits > maxNameVisits {
		return fmt.Sprintf("the shell evaluates %s as arithmetic through more names than the classifier follows", name)
	}
	if v, ok := w.vars[name]; ok {
		switch v {
		case unknownValue:
			return fmt.Sprintf("the shell evaluates the value of %s as arithmetic, and that value is only known at run time", name)
		case numberValue:
			return ""
		}
		return w.textRisk(v, hops)
	}
	if w.numberParam(name) {
		return ""
	}
	return fmt.Sprintf("the shell evaluates the value of %s as arithmetic, and that value comes from outside the command", name)
}

// numeric reports whether the variable name holds a number or text without
// names: what a substring or a replacement of it leaves is harmless too.
func (w *walker) numeric(name string) bool {
	if v, ok := w.vars[name]; ok {
		if w.nameVisits += len(v) / 64; w.nameVisits > maxNameVisits {
			return false
		}
		return v == numberValue || v != unknownValue && !strings.ContainsAny(v, "$`") && !hasName(v)
	}
	return w.numberParam(name)
}

// hasName reports whether text, read as arithmetic, names a variable.
func hasName(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= '0' && c <= '9' {
			for i++; i < len(text) && (isNameByte(text[i]) || text[i] == '#' || text[i] == '@'); i++ {
			}
			i--
			continue
		}
		if isNameByte(c) {
			return true
		}
	}
	return false
}

// arithWordRisk says why the text a word in arithmetic expands to may run
// code when it is evaluated ("" when it cannot).
func (w *walker) arithWordRisk(word *syntax.Word) string {
	for _, p := range word.Parts {
		if why := w.partRisk(p, 0); why != "" {
			return why
		}
	}
	return ""
}

func (w *walker) partRisk(p syntax.WordPart, depth int) string {
	if depth > MaxDepth {
		return "nests too deep"
	}
	switch x := p.(type) {
	case *syntax.Lit:
		return w.textRisk(x.Value, 0)
	case *syntax.SglQuoted:
		return w.textRisk(x.Value, 0)
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			if why := w.partRisk(q, depth+1); why != "" {
				return why
			}
		}
		return ""
	case *syntax.ArithmExp:
		return "" // a number; its own names are checked where it is walked
	case *syntax.ParamExp:
		return w.paramRisk(x, depth+1)
	case *syntax.CmdSubst:
		if w.printsNumber(x.Stmts) {
			return ""
		}
		return "the shell evaluates the output of the command substitution as arithmetic"
	}
	return fmt.Sprintf("the shell evaluates %s as arithmetic", brief(w.textOf(p)))
}

// paramRisk says why the text of a parameter expansion, evaluated as
// arithmetic, may run code.
func (w *walker) paramRisk(x *syntax.ParamExp, depth int) string {
	if x.Length {
		return "" // a count; the subscript is checked where it is walked
	}
	if x.Param == nil || x.Flags != nil || x.NestedParam != nil || x.Width || x.IsSet {
		return fmt.Sprintf("the shell evaluates %s as arithmetic", brief(w.textOf(x)))
	}
	name := x.Param.Value
	if x.Excl {
		if x.Names == 0 && x.Index != nil && !w.isAssoc(name) && allIndex(x.Index) {
			return "" // the indexes of an indexed array
		}
		return fmt.Sprintf("the shell evaluates %s as arithmetic: each name or key it expands to in turn", brief(w.textOf(x)))
	}
	base := w.nameRisk(name, 0)
	switch {
	case x.Slice != nil, x.Repl != nil:
		if !w.numeric(name) {
			return fmt.Sprintf("the shell evaluates part of the value of %s as arithmetic, and that value is not a known number", name)
		}
		if x.Repl != nil && x.Repl.With != nil {
			return w.wordRiskIn(x.Repl.With, depth)
		}
		return ""
	case x.Exp == nil:
		return base
	}
	switch x.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return w.wordRiskIn(x.Exp.Word, depth)
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if base != "" {
			return base
		}
		return w.wordRiskIn(x.Exp.Word, depth)
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.OtherParamOps:
		return base
	}
	// Trims and case changes make other names of a value's names.
	if !w.numeric(name) {
		return fmt.Sprintf("the shell evaluates a changed value of %s as arithmetic, and that value is not a known number", name)
	}
	return ""
}

func (w *walker) wordRiskIn(word *syntax.Word, depth int) string {
	if word == nil {
		return ""
	}
	for _, p := range word.Parts {
		if why := w.partRisk(p, depth+1); why != "" {
			return why
		}
	}
	return ""
}

// isNameLit reports whether s is a variable name.
func isNameLit(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// wordValue is what an assignment of word records in [walker.vars]: its
// literal text, [numberValue] when it is a number only known at run time
// (`$((n+1))`, `${#a[@]}`, `$(nproc)`), or [unknownValue].
func (w *walker) wordValue(word *syntax.Word) string {
	if word == nil {
		return ""
	}
	if !isDynamicWord(word, w.opts.Home != "") {
		return strings.Join(w.word(word).values(), " ")
	}
	var b strings.Builder
	number := true
	for _, p := range word.Parts {
		if !w.partValue(p, &b, &number, 0) {
			return unknownValue
		}
	}
	if number && b.Len() == 0 {
		return numberValue
	}
	if s := b.String(); !strings.ContainsAny(s, "$`") && !hasName(s) {
		return numberValue // digits and operators around numbers
	}
	return unknownValue
}

// partValue renders the value of p into b, a number as 0, and reports
// whether it is known that well; number stays true while every part is a
// number.
func (w *walker) partValue(p syntax.WordPart, b *strings.Builder, number *bool, depth int) bool {
	if depth > MaxDepth {
		return false
	}
	switch x := p.(type) {
	case *syntax.Lit:
		b.WriteString(x.Value)
		*number = false
		return true
	case *syntax.SglQuoted:
		if x.Dollar {
			return false
		}
		b.WriteString(x.Value)
		*number = false
		return true
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			if !w.partValue(q, b, number, depth+1) {
				return false
			}
		}
		return true
	case *syntax.ArithmExp:
		b.WriteString("0")
		return true
	case *syntax.CmdSubst:
		if w.printsNumber(x.Stmts) {
			b.WriteString("0")
			return true
		}
		return false
	case *syntax.ParamExp:
		if x.Length && x.Slice == nil && x.Repl == nil && x.Exp == nil {
			b.WriteString("0")
			return true
		}
		if !isSimpleParam(x) || !(w.numeric(x.Param.Value)) {
			return false
		}
		if v, ok := w.vars[x.Param.Value]; ok && v != numberValue {
			b.WriteString(v)
			*number = false
			return true
		}
		b.WriteString("0")
		return true
	}
	return false
}

// printsNumber reports whether a command substitution prints one number
// and nothing else: the last command of its pipeline is a program that
// prints a count (`nproc`, `wc -l` of its input, `date +%s`, `id -u`, `seq
// 1 5`, `grep -c PATTERN FILE`), with its standard error not on its
// output, and no function of the line has its name. Anything else prints text that may name things.
func (w *walker) printsNumber(stmts []*syntax.Stmt) bool {
	if len(stmts) != 1 {
		return false
	}
	s := pipeTail(stmts[0])
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Background || s.Coprocess || len(c.Args) == 0 {
		return false
	}
	for _, r := range s.Redirs {
		switch {
		case r.Op == syntax.RdrIn:
		case r.N != nil && r.N.Value == "2" && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut):
		default:
			return false // stderr on stdout, stdout elsewhere, here-strings
		}
	}
	var args []string
	for _, a := range c.Args {
		if isDynamicWord(a, false) {
			return false
		}
		args = append(args, w.word(a).values()...)
	}
	if len(args) == 0 || w.funcs[args[0]] != nil {
		return false
	}
	e := w.lookup(args[0])
	if e == nil {
		return false
	}
	opts := args[1:]
	switch e.Name {
	case "nproc":
		return allOf(opts, func(a string) bool { return a == "--all" || strings.HasPrefix(a, "--ignore=") })
	case "wc": // counts of its input, without file names
		return len(opts) > 0 && allOf(opts, func(a string) bool {
			return a == "--lines" || a == "--words" || a == "--bytes" || a == "--chars" ||
				len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "lwcm") == ""
		})
	case "date":
		return len(opts) > 0 && allOf(opts, func(a string) bool {
			return a == "-u" || a == "--utc" || strings.HasPrefix(a, "+") && numericFormat(a[1:])
		})
	case "id":
		return len(opts) > 0 && allOf(opts, func(a string) bool {
			return a == "-u" || a == "-g" || a == "-r" || a == "-ur" || a == "-ru" || a == "-gr" || a == "-rg"
		})
	case "grep": // a count of one file's (or the input's) matching lines, without its name
		count, words := false, 0
		for _, a := range opts {
			switch {
			case a == "--count":
				count = true
			case len(a) > 1 && a[0] == '-':
				if strings.Trim(a[1:], "civwxsEFGP") != "" {
					return false // -e, -f, -r, -H, -o, ...: values, names, other output
				}
				count = count || strings.ContainsRune(a, 'c')
			default:
				words++
			}
		}
		return count && words >= 1 && words <= 2
	case "seq":
		return len(opts) > 0 && len(opts) <= 3 && allOf(opts, func(a string) bool {
			return strings.Trim(a, "0123456789.") == "" || a[0] == '-' && strings.Trim(a[1:], "0123456789.") == "" && a != "-"
		})
	}
	return false
}

// pipeTail is the last command of s's pipeline (s itself when it is no
// pipeline): the one whose output a substitution gets.
func pipeTail(s *syntax.Stmt) *syntax.Stmt {
	for {
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe {
			return s
		}
		s = b.Y
	}
}

// printsCount reports whether a command substitution prints one count, a
// number without a sign ([walker.printsNumber], but not seq, whose numbers
// may be negative and many): even unquoted it is at most one word, and no
// option (`make -j $(nproc) test`).
func (w *walker) printsCount(stmts []*syntax.Stmt) bool {
	if !w.printsNumber(stmts) {
		return false
	}
	s := pipeTail(stmts[0])
	vs := w.word(s.Cmd.(*syntax.CallExpr).Args[0]).values()
	if len(vs) == 0 {
		return false
	}
	e := w.lookup(vs[0])
	return e != nil && e.Name != "seq"
}

// numericFormat reports whether a date format prints only digits and
// separators.
func numericFormat(f string) bool {
	for i := 0; i < len(f); i++ {
		switch c := f[i]; {
		case c == '%':
			i++
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				i++
			}
			if i >= len(f) || !strings.ContainsRune("sNYmdHMSjuwyCGgVU", rune(f[i])) {
				return false
			}
		case c >= '0' && c <= '9', c == '.', c == ':', c == '-', c == ' ':
		default:
			return false
		}
	}
	return true
}

func allOf(xs []string, ok func(string) bool) bool {
	for _, x := range xs {
		if !ok(x) {
			return false
		}
	}
	return true
}

// nameRefRisk says why the shell, given text as the name of a variable
// (`read NAME`, `printf -v NAME`, `${!x}`, a nameref's target), may run
// code: a subscript in it is expanded, and evaluated as arithmetic for an
// indexed array. "" when it cannot.
func (w *walker) nameRefRisk(text string) string {
	name, sub, ok := strings.Cut(text, "[")
	if !ok {
		return ""
	}
	sub = strings.TrimSuffix(sub, "]")
	if strings.ContainsAny(sub, "$`") {
		return fmt.Sprintf("the shell expands the subscript of the variable name %q", brief(text))
	}
	if w.isAssoc(name) {
		return ""
	}
	if why := w.textRisk(sub, 0); why != "" {
		return fmt.Sprintf("the shell evaluates the subscript of the variable name %q as arithmetic: %s", brief(text), why)
	}
	return ""
}

// nameField checks a field the shell takes as the name of a variable.
func (w *walker) nameField(f field, at syntax.Node) {
	if f.word != nil {
		at = f.word
	}
	text := f.value
	if f.dynamic {
		if f.word == nil {
			w.evalRefuse(at, "the shell takes a variable name only known at run time, and expands a subscript in it")
			return
		}
		var b strings.Builder
		number := true
		for _, p := range f.word.Parts {
			if !w.partValue(p, &b, &number, 0) {
				w.evalRefuse(at, "the shell takes a variable name only known at run time, and expands a subscript in it")
				return
			}
		}
		text = b.String()
	}
	if why := w.nameRefRisk(text); why != "" {
		w.evalRefuse(at, why)
	}
}

// assignedAtRunTime records that a builtin gives name a value only known
// at run time (`read name`, `mapfile name`); an integer variable evaluates
// it at once.
func (w *walker) assignedAtRunTime(f field, at syntax.Node) {
	w.nameField(f, at)
	name, _, _ := strings.Cut(f.value, "[")
	if f.dynamic || !isNameLit(name) {
		return
	}
	if w.attrs.ints[name] {
		if f.word != nil {
			at = f.word
		}
		w.evalRefuse(at, fmt.Sprintf("the shell gives the integer variable %s a value only known at run time and evaluates it as arithmetic", name))
	}
	w.setVar(name, unknownValue)
}

// allIndex reports whether a subscript is @ or *: all elements.
func allIndex(x syntax.ArithmExpr) bool {
	word, ok := x.(*syntax.Word)
	return ok && (word.Lit() == "@" || word.Lit() == "*")
}

// assignOp reports whether op assigns its left side (`=`, `+=`, ..).
func assignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn,
		syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// arithTest reports whether a [[ ]] operator compares its sides as
// arithmetic.
func arithTest(op syntax.BinTestOperator) bool {
	switch op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
		return true
	}
	return false
}

// arithTarget walks the variable an arithmetic assignment (or `++`)
// assigns: its subscript is evaluated, its value read when reads is set,
// and it holds a number after.
func (w *walker) arithTarget(x syntax.ArithmExpr, reads bool, depth int) {
	word, ok := x.(*syntax.Word)
	if !ok || len(word.Parts) != 1 {
		w.arith(x, depth)
		return
	}
	switch p := word.Parts[0].(type) {
	case *syntax.Lit:
		if reads {
			w.arith(x, depth)
		}
		if isNameLit(p.Value) {
			w.setVar(p.Value, numberValue)
			w.setEnv(p.Value, "", false, word, word, depth) // rule 8: `let PATH=1`
		}
	case *syntax.ParamExp:
		if reads || !p.Short || p.Param == nil || p.Index == nil {
			w.arith(x, depth)
		} else {
			w.subscript(p.Param, p.Index, depth)
		}
		if p.Param != nil {
			w.setElem(p.Param.Value, numberValue)
		}
	default:
		w.arith(x, depth)
	}
}

// Associative arrays the shells define themselves: their subscripts are
// strings (zsh/parameter's and zsh/mapfile's, bash's alias and command
// tables).
var (
	zshAssocParams = map[string]bool{"options": true, "commands": true, "functions": true, "functions_source": true,
		"dis_functions": true, "dis_functions_source": true, "builtins": true, "dis_builtins": true, "reswords": true,
		"dis_reswords": true, "aliases": true, "dis_aliases": true, "galiases": true, "dis_galiases": true,
		"saliases": true, "dis_saliases": true, "parameters": true, "modules": true, "nameddirs": true,
		"userdirs": true, "usergroups": true, "jobdirs": true, "jobstates": true, "jobtexts": true,
		"history": true, "mapfile": true, "sysparams": true, "termcap": true, "terminfo": true,
		"patchars": true, "dis_patchars": true, "widgets": true}
	bashAssocParams = map[string]bool{"BASH_ALIASES": true, "BASH_CMDS": true}
)

// isAssoc reports whether name is an associative array: declared so in the
// line, or one of the shell's own.
func (w *walker) isAssoc(name string) bool {
	if w.attrs.assoc[name] {
		return true
	}
	if w.zsh() {
		return zshAssocParams[name]
	}
	return bashAssocParams[name]
}

// subscript walks the subscript of the array name: arithmetic for an
// indexed array, a string (its substitutions run) for an associative one.
func (w *walker) subscript(name *syntax.Lit, x syntax.ArithmExpr, depth int) {
	if name != nil && w.isAssoc(name.Value) {
		if word, ok := x.(*syntax.Word); ok {
			w.wordSubst(word, depth)
			return
		}
	}
	w.arith(x, depth)
}

// wordField is the field a word makes, for the checks of names.
func (w *walker) wordField(word *syntax.Word) field {
	return field{value: strings.Join(w.word(word).values(), " "), dynamic: isDynamicWord(word, w.opts.Home != ""), word: word}
}

// indirect checks `${!x}`: the shell reads the variable whose name is x's
// value, and evaluates a subscript in that name.
func (w *walker) indirect(x *syntax.ParamExp) {
	name := x.Param.Value
	v, ok := w.vars[name]
	switch {
	case !ok && w.numberParam(name), v == numberValue:
		return // ${!#}: a positional parameter
	case !ok:
		w.evalRefuse(x, fmt.Sprintf("the shell reads the variable named by the value of %s, which comes from outside the command, and expands a subscript in that name", name))
	case v == unknownValue:
		w.evalRefuse(x, fmt.Sprintf("the shell reads the variable named by the value of %s, which is only known at run time, and expands a subscript in that name", name))
	default:
		for _, n := range strings.Fields(v) {
			if why := w.nameRefRisk(n); why != "" {
				w.evalRefuse(x, "the value of "+name+" is a name: "+why)
				return
			}
		}
	}
}

// nakedName checks a declaration's argument that is a quoted or built
// word, `declare 'a[$(cmd)]=1'`: the shell parses the name in it.
func (w *walker) nakedName(word *syntax.Word) {
	f := w.wordField(word)
	if strings.HasPrefix(f.value, "-") || strings.HasPrefix(f.value, "+") {
		return
	}
	name, _, _ := strings.Cut(f.value, "=")
	f.value = name
	w.nameField(f, word)
}

// declAttrs applies the attribute letters of a declaration's options
// (`-i`, `+i`, `-A`, `-n`, in the order given) to the variable a declares.
func (w *walker) declAttrs(a *syntax.Assign, opts string) {
	name := a.Name.Value
	on := true
	for i := 0; i < len(opts); i++ {
		switch opts[i] {
		case '-':
			on = true
		case '+':
			on = false
		case 'i':
			setAttr(&w.attrs.ints, name, on)
		case 'A':
			setAttr(&w.attrs.assoc, name, on)
		case 'n':
			if !on {
				continue
			}
			if a.Value == nil {
				setAttr(&w.attrs.refs, name, true) // the next assignment names the target
			} else {
				w.nameField(w.wordField(a.Value), a.Value)
			}
		}
	}
}

// assignVar records what an assignment gives the variable name, and checks
// what the shell evaluates on the way: the value of an integer variable,
// the target of a nameref.
func (w *walker) assignVar(a *syntax.Assign, name string) {
	if w.attrs.refs[name] && a.Value != nil && a.Index == nil {
		setAttr(&w.attrs.refs, name, false)
		w.nameField(w.wordField(a.Value), a.Value) // `declare -n r; r=$x` names r's target
		return
	}
	if w.attrs.ints[name] {
		words := []*syntax.Word{a.Value}
		if a.Array != nil {
			words = words[:0]
			for _, el := range a.Array.Elems {
				words = append(words, el.Value)
			}
		}
		for _, word := range words {
			if word == nil {
				continue
			}
			if why := w.arithWordRisk(word); why != "" {
				w.evalRefuse(word, fmt.Sprintf("assigns the integer variable %s, and %s", name, why))
			}
		}
	}
	switch {
	case a.Array != nil:
		if !a.Append {
			w.setVar(name, "")
		}
		value := w.vars[name]
		for _, el := range a.Array.Elems {
			value = joinValues(value, w.wordValue(el.Value))
		}
		w.setVar(name, value)
	case a.Value == nil:
		// `declare x`, `local x`: the value is what it was.
	case w.attrs.ints[name] && a.Index == nil:
		w.setVar(name, numberValue)
	case w.attrs.ints[name]:
		w.setElem(name, numberValue)
	case a.Index != nil:
		w.setElem(name, w.wordValue(a.Value))
	case a.Append:
		w.setVar(name, appendValue(w.vars[name], w.wordValue(a.Value)))
	default:
		w.setVar(name, w.wordValue(a.Value))
		w.literalAssign(a, name)
	}
}

// appendValue is the value `x+=add` leaves after old.
func appendValue(old, add string) string {
	switch {
	case old == unknownValue || add == unknownValue:
		return unknownValue
	case old == numberValue || add == numberValue:
		if (old == numberValue || isDigits(old) || old == "") && (add == numberValue || isDigits(add)) {
			return numberValue
		}
		return unknownValue
	}
	return old + add
}

// loopVar records the values a `for NAME in ..` loop gives NAME: the items
// when they are literal, otherwise unknown; an integer NAME evaluates each.
func (w *walker) loopVar(l *syntax.WordIter) {
	name := l.Name.Value
	if len(l.Items) == 0 && !l.InPos.IsValid() {
		w.setVar(name, unknownValue) // for x; do: the positional parameters
		return
	}
	value := ""
	for _, it := range l.Items {
		if w.attrs.ints[name] {
			if why := w.arithWordRisk(it); why != "" {
				w.evalRefuse(it, fmt.Sprintf("assigns the integer variable %s, and %s", name, why))
			}
		}
		v := w.wordValue(it)
		for _, f := range w.word(it).fields {
			if f.glob {
				v = unknownValue // file names
			}
		}
		value = joinValues(value, v)
	}
	w.setVar(name, value)
	if value == unknownValue && globItems(w, l.Items) {
		if w.globVars == nil {
			w.globVars = map[string]bool{}
		}
		w.globVars[name] = true // file names, as a glob operand's (mayBeOption)
	}
}

// globItems reports whether every item of a for loop is a literal or a glob
// whose file names cannot be options.
func globItems(w *walker, items []*syntax.Word) bool {
	for _, it := range items {
		f := w.word(it)
		if f.dynamic {
			return false
		}
		for _, x := range f.fields {
			if x.glob && w.globMayBeOption(x.value, w.cwd) {
				return false // `for f in *` where a file is named -delete
			}
		}
	}
	return true
}

// joinValues is what a variable holds that takes a or b.
func joinValues(a, b string) string {
	switch {
	case a == "":
		return b
	case a == unknownValue || b == unknownValue:
		return unknownValue
	case a == numberValue && b == numberValue:
		return numberValue
	case a == numberValue:
		return b
	case b == numberValue:
		return a
	case len(a)+len(b) >= maxValueLen:
		return unknownValue
	}
	return a + " " + b
}

// varNames checks the variable names a builtin is given before its
// options are parsed: every word of `read`, `mapfile`, `readarray` and
// `unset` that is not an option is taken as a name (an option's value, a
// prompt or a delimiter, is checked too, since the builtins' options differ
// between bash and zsh), and so is getopts' second operand and what follows
// test's `-v`. What the builtins read is only known at run time (`read
// 'a[$(cmd)]'`, `unset "a[$i]"`, `test -v "$x"`).
func (inv *invocation) varNames(args []field) {
	w, key := inv.w, inv.key()
	switch key {
	case "[":
		for i := 0; i+1 < len(args); i++ {
			if args[i].value == "-v" && !args[i].dynamic {
				w.nameField(args[i+1], inv.at)
			}
		}
		return
	case "getopts":
		if len(args) >= 2 {
			w.assignedAtRunTime(args[1], inv.at)
		}
		w.setVar("OPTARG", unknownValue)
		return
	}
	var names []field
	functions := false
	for i, a := range args {
		if !a.dynamic && a.value == "--" {
			names = append(names, args[i+1:]...)
			break
		}
		if !a.dynamic && len(a.value) > 1 && a.value[0] == '-' {
			functions = functions || strings.ContainsRune(a.value, 'f')
			continue
		}
		names = append(names, a)
	}
	if key == "unset" {
		if functions {
			return // unset -f: the names are functions'
		}
		for _, n := range names {
			w.nameField(n, inv.at)
			if name, _, _ := strings.Cut(n.value, "["); !n.dynamic && isNameLit(name) {
				w.setVar(name, unknownValue) // unset here, or a local unset shows the caller's
			}
		}
		return
	}
	for _, n := range names {
		if w.zsh() {
			n.value, _, _ = strings.Cut(n.value, "?") // read 'name?prompt'
		}
		w.assignedAtRunTime(n, inv.at)
	}
	w.setVar("REPLY", unknownValue)
	w.setVar("MAPFILE", unknownValue)
}

// namedByFlag checks, once options are parsed, the variable a flag of a
// builtin names (`printf -v NAME`, zsh's `print -v NAME`, `wait -p NAME`),
// and classifies the code `mapfile -C CODE` runs in this shell, as `CODE
// INDEX LINE` every -c lines.
func (inv *invocation) namedByFlag() {
	w := inv.w
	switch inv.key() {
	case "printf", "print":
		if h := inv.has("-v"); h != nil && h.value != nil {
			w.assignedAtRunTime(*h.value, inv.at)
		}
	case "wait":
		if h := inv.has("-p"); h != nil && h.value != nil {
			w.assignedAtRunTime(*h.value, inv.at)
		}
	case "mapfile", "readarray":
		if h := inv.has("-C"); h != nil && h.value != nil {
			if h.value.dynamic {
				inv.opaqueHigh("a mapfile callback only known at run time")
			} else {
				w.nested(h.value.value, h.value.word, inv.depth)
			}
		}
	}
}

// zshNumbers checks zsh's `integer` and `float`: each `name=value`
// evaluates value as arithmetic, and name keeps evaluating what it is
// given.
func (inv *invocation) zshNumbers(args []field) {
	w := inv.w
	for _, a := range args {
		if !a.dynamic && strings.HasPrefix(a.value, "-") {
			continue
		}
		name, value, assigns := strings.Cut(a.value, "=")
		if a.dynamic && a.word != nil {
			// The value is what follows the first = in the word's literal start.
			name, assigns = "", false
			var rest []syntax.WordPart
			for i, p := range a.word.Parts {
				l, ok := p.(*syntax.Lit)
				if !ok {
					break
				}
				if n, v, ok := strings.Cut(l.Value, "="); ok {
					name, assigns = n, true
					rest = append([]syntax.WordPart{&syntax.Lit{Value: v}}, a.word.Parts[i+1:]...)
					break
				}
			}
			if !assigns {
				inv.opaqueHigh("arithmetic on a variable whose name is only known at run time")
				continue
			}
			for _, p := range rest {
				if why := w.partRisk(p, 0); why != "" {
					w.evalRefuse(a.word, fmt.Sprintf("assigns the number variable %s, and %s", name, why))
					break
				}
			}
		} else if assigns {
			if why := w.textRisk(value, 0); why != "" {
				w.evalRefuse(inv.at, fmt.Sprintf("assigns the number variable %s, and %s", name, why))
			}
		}
		if isNameLit(name) {
			setAttr(&w.attrs.ints, name, true)
			w.setVar(name, numberValue)
		} else {
			w.nameField(field{value: name, word: a.word}, inv.at)
		}
	}
}

// varsState is what the walker knows of the variables at one point, saved
// around code whose assignments do not reach what follows (a subshell, a
// substitution, a pipeline's element in bash, a job) or may not (a branch,
// a loop body, the rest of a chain).
type varsState struct {
	vars  map[string]string
	assoc map[string]bool
	lits  map[string]string
}

func (w *walker) saveVars() varsState {
	return varsState{maps.Clone(w.vars), maps.Clone(w.attrs.assoc), maps.Clone(w.lits)}
}

// restoreVars makes s the state again: what ran in between assigned in a
// child process. Integer attributes stay: they only add checks.
func (w *walker) restoreVars(s varsState) {
	w.vars, w.attrs.assoc, w.lits = s.vars, s.assoc, maps.Clone(s.lits)
}

// joinVars makes the state one in which the code since s may or may not
// have run: a variable it assigned holds either value (a variable that had
// none comes from outside the command), and only arrays associative in
// both stay so.
func (w *walker) joinVars(s varsState) {
	for name, v := range w.vars {
		old, ok := s.vars[name]
		switch {
		case ok && old == v:
		case !ok:
			w.vars[name] = unknownValue
		default:
			w.vars[name] = joinValues(old, v)
		}
	}
	for name := range w.attrs.assoc {
		if !s.assoc[name] {
			delete(w.attrs.assoc, name)
		}
	}
	for name, v := range w.lits {
		if old, ok := s.lits[name]; !ok || old != v {
			delete(w.lits, name) // either value: none is exact
		}
	}
}

// promptVars are the variables whose value the shell expands when it
// prints the prompt: PS4 before every traced command (`set -x`), the others
// in an interactive shell (zsh with PROMPT_SUBST). The parameter
// expansions, command substitutions and arithmetic in the value run then.
var promptVars = map[string]bool{"PS0": true, "PS1": true, "PS2": true, "PS4": true,
	"PROMPT": true, "PROMPT2": true, "PROMPT3": true, "PROMPT4": true, "RPROMPT": true, "RPROMPT2": true,
	"RPS1": true, "RPS2": true, "SPROMPT": true}

// promptVar classifies the expansions of a prompt's value as code that
// runs later, from wherever the shell is then: a literal value as the
// double-quoted word it is expanded like (`PS4='+ $(date) '` runs date), a
// value only known at run time as unidentifiable.
func (w *walker) promptVar(a *syntax.Assign, name string, depth int) {
	if name == "PROMPT_COMMAND" && a.Value != nil && w.wordValue(a.Value) == unknownValue {
		// A literal one is classified where it is assigned (rule 11).
		w.unidentified(a.Value, fmt.Sprintf("`%s` sets PROMPT_COMMAND to code only known at run time, which the shell runs before each prompt: it cannot be identified", brief(w.textOf(a))))
		return
	}
	if !promptVars[name] || a.Value == nil {
		return
	}
	switch v := w.wordValue(a.Value); {
	case v == unknownValue:
		w.unidentified(a.Value, fmt.Sprintf("`%s` sets %s to a value only known at run time, which the shell expands as a prompt, running the commands in it: they cannot be identified", brief(w.textOf(a)), name))
	case v != numberValue && strings.ContainsAny(v, "$`"):
		// Escapes the prompt decodes are quoted again before the
		// expansion (bash's decode_prompt_string): `\$` stays literal.
		code := `: "` + strings.ReplaceAll(v, `"`, `\"`) + `"`
		// As [walker.later], with every span the value's: the code is not
		// the command's text.
		saved, vars, frame := w.saveCwd(), w.saveVars(), w.frame
		w.restoreCwd(cwdState{cwd: unknownDirs, lcwd: unknownDirs, stackUncertain: true})
		start, end, _ := w.span(a.Value)
		w.classifySource(code, start, end, false, depth+1, w.dialect().readings())
		w.frame = frame
		w.restoreCwd(saved)
		w.restoreVars(vars)
	}
}

// letArg walks one argument of `let`: a quoted word is an expression the
// shell parses from the word's text (`let "i = n + 1"`), walked as such
// when its text is known; otherwise the text is evaluated as a whole.
func (w *walker) letArg(x syntax.ArithmExpr, depth int) {
	word, ok := x.(*syntax.Word)
	quoted := false
	if ok {
		for _, p := range word.Parts {
			switch p.(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
				quoted = true
			}
		}
	}
	if !quoted {
		w.arith(x, depth)
		return
	}
	w.wordSubst(word, depth) // the substitutions in it run first
	var b strings.Builder
	number := true
	for _, p := range word.Parts {
		if !w.partValue(p, &b, &number, 0) {
			if why := w.arithWordRisk(word); why != "" {
				w.evalRefuse(word, why)
			}
			return
		}
	}
	// The expression, with every span the word's, when the text is one
	// expression and nothing else (a text that closes the (( )) around it
	// is evaluated as a whole).
	code := "(( " + b.String() + " ))"
	if f, err := parse(code, w.frame.lang); err != nil || len(f.Stmts) != 1 || strings.ContainsAny(b.String(), ";#\n") ||
		strings.Contains(b.String(), "))") || strings.Contains(b.String(), "((") {
		if why := w.arithWordRisk(word); why != "" {
			w.evalRefuse(word, why)
		}
		return
	} else if _, ok := f.Stmts[0].Cmd.(*syntax.ArithmCmd); !ok {
		w.evalRefuse(word, "the shell evaluates the text as arithmetic")
		return
	}
	frame := w.frame
	start, end, _ := w.span(word)
	w.classifySource(code, start, end, false, depth+1, w.dialect().readings())
	w.frame = frame
}
