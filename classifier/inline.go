package classifier

import (
	"fmt"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// The shell commands in an interpreter's inline code ([effects.Program.ShellCalls]).
//
// Inline code (`python3 -c CODE`, `node -e CODE`, a here-document fed to
// perl) is another language, not analysed: it stays opaque-medium (SPEC
// §3). But a command line it hands to a shell through one of its
// language's shell calls is found and classified as `sh -c` is, so that
// `python3 -c 'import os; os.system("rm -rf ~")'` is refused as `rm -rf ~`
// is (SPEC §5.1). This is a floor, not a parse: a whole string literal is
// the command, a list of string literals spells one (`subprocess.run(["rm",
// "-rf", p])`), and any other argument is a command built at run time,
// which cannot be identified (as `sh -c "$x"`).

// shellCall is one call found: the command line, or built when its
// argument is not made of literals.
type shellCall struct {
	code  string
	built bool
	// literal: the argument is a string literal (built when it
	// interpolates).
	literal bool
}

// inlineShellCalls classifies the shell calls and deletions of inline
// code.
func (inv *invocation) inlineShellCalls(code field) {
	e := inv.entry
	if e == nil || code.dynamic {
		return
	}
	w := inv.w
	// Stored credentials a string literal names (`open('/home/u/.ssh/id_rsa')`,
	// `readFileSync(".env")`) are read, and a network name makes the code
	// network: together, credential-exfiltration (SPEC §5.5).
	for _, lit := range stringLiterals(code.value) {
		if w.credential == nil && lit != "" && w.credentialPath(lit) {
			w.noteCredential(inv.at, lit)
		}
	}
	if mentions(code.value, e.NetCalls) {
		w.add(w.part(inv.at, effects.Network, inv.prog, fmt.Sprintf("`%s` reaches the network from its inline %s code", inv.text, inv.prog)))
	}
	for _, p := range findDeleteCalls(code.value, e.DeleteCalls, e.HomeExprs) {
		word := shellQuote(p) // the language does not expand ~ in a literal
		if p == "" {
			word = "~" // a home expression
		}
		inv.w.codeValue("rm -rf -- "+word, false, inv.at, inv.depth, inv.carried())
	}
	for _, c := range findShellCalls(code.value, e.ShellCalls, e.Name == "perl" || e.Name == "php") {
		if c.built {
			inv.opaqueHigh(fmt.Sprintf("a shell command its inline %s code builds at run time", inv.prog))
			continue
		}
		inv.w.codeValue(c.code, false, inv.at, inv.depth, inv.carried())
	}
}

// findDeleteCalls finds the paths the deletion calls of code name: a
// string literal (not interpolated), or "" for one of homes. A method
// counts (`require("fs").rmSync(..)`): only a literal or home argument is
// taken.
func findDeleteCalls(code string, names, homes []string) []string {
	var out []string
	nameSites(code, names, func(name string, at, end int) (int, bool) {
		if at > 0 && isNameByte(code[at-1]) || end < len(code) && isNameByte(code[end]) {
			return end, false
		}
		p, ok := pathArgument(code[end:], homes)
		if ok {
			out = append(out, p)
		}
		return end, ok
	})
	return out
}

// mentions reports whether one of names stands in code, outside a string
// literal, as a whole name (`requests.get`, not `myrequests`).
func mentions(code string, names []string) bool {
	found := false
	nameSites(code, names, func(name string, at, end int) (int, bool) {
		if found || at > 0 && isNameByte(code[at-1]) || end < len(code) && isNameByte(code[end]) && isNameByte(name[len(name)-1]) {
			return end, false
		}
		found = true
		return len(code), true
	})
	return found
}

// stringLiterals are the bodies of code's string literals ('...', "...",
// `...`), as stringMask finds them.
func stringLiterals(code string) []string {
	mask := stringMask(code)
	var out []string
	start := -1
	for i := 0; i < len(code) && len(out) < maxShellCalls; i++ {
		switch {
		case mask[i] && start < 0:
			start = i
		case !mask[i] && start >= 0:
			out = append(out, literalBody(code[start:i]))
			start = -1
		}
	}
	if start >= 0 && len(out) < maxShellCalls {
		out = append(out, literalBody(code[start:])) // one that ends the code
	}
	return out
}

// literalBody is a string literal's masked span without its closing quote
// and with escaped quotes undone.
func literalBody(span string) string {
	span = span[:len(span)-1] // the closing quote is inside the mask
	return strings.NewReplacer(`\'`, `'`, `\"`, `"`, "\\`", "`").Replace(span)
}

// nameSites calls f for each place one of names stands in code outside a
// string literal, with where it starts and ends, until f has taken
// maxShellCalls of them (its second result); f returns where to look on
// from.
func nameSites(code string, names []string, f func(name string, at, end int) (int, bool)) {
	quoted := stringMask(code)
	taken := 0
	for _, name := range names {
		for from := 0; from < len(code) && taken < maxShellCalls; {
			i := strings.Index(code[from:], name)
			if i < 0 {
				break
			}
			at := from + i
			if quoted[at] {
				from = at + len(name) // in a string: `print('os.system(x)')`
				continue
			}
			next, took := f(name, at, at+len(name))
			if took {
				taken++
			}
			from = max(next, at+len(name))
		}
	}
}

// pathArgument reads a deletion call's first argument when it is a path
// known here: a string literal without interpolation, or a home
// expression ("").
func pathArgument(rest string, homes []string) (string, bool) {
	i := skipBlanks(rest, 0)
	if i < len(rest) && rest[i] == '(' {
		i = skipBlanks(rest, i+1)
	} else if i == 0 {
		return "", false
	}
	if i >= len(rest) {
		return "", false
	}
	var p string
	n := 0
	switch c := rest[i]; c {
	case '\'', '"':
		body, m, ok := delimited(rest[i:], c)
		if !ok || c == '"' && strings.ContainsAny(body, "$@{") {
			return "", false
		}
		p, n = body, m
	default:
		for _, h := range homes {
			if strings.HasPrefix(rest[i:], h) {
				n = len(h)
				break
			}
		}
		if n == 0 {
			return "", false
		}
	}
	j := skipBlanks(rest, i+n)
	if j < len(rest) && strings.IndexByte("),;\n", rest[j]) < 0 {
		return "", false // `rmtree("a" + b)`: built
	}
	return p, p != "" || n > 0 && rest[i] != '\'' && rest[i] != '"'
}

// maxShellCalls bounds the calls taken from one piece of code.
const maxShellCalls = 32

// findShellCalls finds the calls of names in code (see above); dollars:
// the language interpolates `$name` in double-quoted strings (perl, php).
func findShellCalls(code string, names []string, dollars bool) []shellCall {
	var out []shellCall
	nameSites(code, names, func(name string, at, from int) (int, bool) {
		switch name {
		case "`":
			end := strings.IndexByte(code[from:], '`')
			if end < 0 {
				return from, false
			}
			body := code[from : from+end]
			out = append(out, shellCall{code: body, built: strings.Contains(body, "${") || strings.Contains(body, "#{")})
			return from + end + 1, true
		case "qx", "%x":
			if !identStart(code, at) || from >= len(code) {
				return from, false
			}
			open := code[from]
			if isNameByte(open) || open == ' ' || open == '\t' || open == '=' || open == ',' || open == ';' || open == ')' {
				return from, false // qx as a name, not the operator
			}
			body, n, ok := delimited(code[from:], open)
			if !ok {
				return from, false
			}
			out = append(out, shellCall{code: body, built: strings.ContainsAny(body, "$@") || strings.Contains(body, "#{")})
			return from + n, true
		}
		if at > 0 && isNameByte(code[at-1]) && !strings.Contains(name, ".") || from < len(code) && isNameByte(code[from]) {
			return from, false // part of another name
		}
		// A method of something (`require("child_process").exec(..)`,
		// `/re/.exec(s)`): a string literal is taken as the command, any
		// other argument as no shell call at all.
		method := !strings.Contains(name, ".") && !identStart(code, at)
		c, ok := callArgument(code[from:], dollars)
		if !ok || method && c.built && c.code == "" && !c.literal {
			return from, false
		}
		out = append(out, c)
		return from, true
	})
	return out
}

// stringMask reports for each byte of code whether it lies inside a
// string literal ('...', "..." or `...`, backslash escapes), as the
// languages of ShellCalls mostly write them.
func stringMask(code string) []bool {
	mask := make([]bool, len(code))
	var q byte
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case q == 0:
			if c == '\'' || c == '"' || c == '`' {
				q = c
			}
		case c == '\\':
			mask[i] = true
			if i+1 < len(code) {
				i++
				mask[i] = true
			}
		case c == q:
			mask[i] = true
			q = 0
		default:
			mask[i] = true
		}
	}
	return mask
}

// identStart reports whether code[at:] starts an identifier that is no
// method or member of something else (`.x`, `->x`, `::x`, `$x`).
func identStart(code string, at int) bool {
	return at == 0 || !isNameByte(code[at-1]) && code[at-1] != '.' && code[at-1] != '$' && code[at-1] != '>' && code[at-1] != ':'
}

// callArgument reads the first argument of a call whose name ends where
// rest starts: `(ARG` or, in perl and ruby, ` ARG` without parentheses.
// ok is false when rest is no call (`system = 1`, a name in a string). A
// string the language interpolates into (`${x}`, `#{x}`, perl's and php's
// `"$x"`) is built at run time.
func callArgument(rest string, dollars bool) (shellCall, bool) {
	i := skipBlanks(rest, 0)
	paren := i < len(rest) && rest[i] == '('
	if paren {
		i = skipBlanks(rest, i+1)
	} else if i == 0 {
		return shellCall{}, false // `systemd`, `exec_x`: not this name
	}
	if i >= len(rest) {
		return shellCall{}, false
	}
	switch c := rest[i]; c {
	case '\'', '"', '`':
		body, n, ok := delimited(rest[i:], c)
		if !ok {
			return shellCall{}, false
		}
		j := skipBlanks(rest, i+n)
		whole := j >= len(rest) || strings.IndexByte("),;\n}", rest[j]) >= 0
		built := !whole || c == '`' && strings.Contains(body, "${") ||
			c == '"' && (strings.Contains(body, "#{") || dollars && strings.ContainsAny(body, "$@"))
		if !built && j < len(rest) && rest[j] == ',' {
			// The program and its arguments: `spawn("rm", ["-rf", p])`,
			// perl's `system("rm", "-rf", "x")`; up to the first argument
			// that is neither a literal nor a list of them.
			if more := moreArguments(rest[j+1:], dollars); more != "" {
				return shellCall{code: shellQuote(body) + " " + more, literal: true}, true
			}
		}
		return shellCall{code: body, built: built, literal: true}, true
	case '[':
		return listArgument(rest[i:]), true
	case ')', '=', '.', ',':
		return shellCall{}, false
	default:
		if !paren && !isNameByte(c) && c != '$' && c != '@' {
			return shellCall{}, false // `system + 1`, `exec;`
		}
		return shellCall{built: true}, true // a variable, a call, an f-string
	}
}

// moreArguments reads the arguments after a call's first, while they are
// string literals or a list of them, quoted for sh ("" for none).
func moreArguments(s string, dollars bool) string {
	var words []string
	for i := skipBlanks(s, 0); i < len(s); i = skipBlanks(s, i) {
		c := s[i]
		switch {
		case c == '[':
			l := listArgument(s[i:])
			if l.built {
				return strings.Join(words, " ")
			}
			return strings.Join(append(words, l.code), " ")
		case c == '\'' || c == '"':
			body, n, ok := delimited(s[i:], c)
			if !ok || c == '"' && (strings.Contains(body, "#{") || dollars && strings.ContainsAny(body, "$@")) {
				return strings.Join(words, " ")
			}
			words = append(words, shellQuote(body))
			i = skipBlanks(s, i+n)
			if i >= len(s) || s[i] != ',' {
				return strings.Join(words, " ")
			}
			i++
		default:
			return strings.Join(words, " ")
		}
	}
	return strings.Join(words, " ")
}

// listArgument reads `[LIT, LIT, ...]`: the command they spell, each
// word quoted for sh, or built when an item is not a literal.
func listArgument(s string) shellCall {
	var words []string
	i := 1
	for {
		i = skipBlanks(s, i)
		if i >= len(s) {
			return shellCall{built: true}
		}
		if s[i] == ']' {
			break
		}
		c := s[i]
		if c != '\'' && c != '"' {
			return shellCall{built: true}
		}
		body, n, ok := delimited(s[i:], c)
		if !ok {
			return shellCall{built: true}
		}
		words = append(words, shellQuote(body))
		i = skipBlanks(s, i+n)
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
	if len(words) == 0 {
		return shellCall{built: true}
	}
	return shellCall{code: strings.Join(words, " ")}
}

// delimited reads a quoted or bracketed body starting at s[0]: `'...'`,
// `"..."`, `(...)`, `{...}`, `/.../`; it returns the body, the length read
// and whether the closing delimiter was found. A backslash escapes the next
// byte; the body is returned with escapes of quotes and backslashes undone.
func delimited(s string, open byte) (string, int, bool) {
	closer := open
	switch open {
	case '(':
		closer = ')'
	case '{':
		closer = '}'
	case '[':
		closer = ']'
	case '<':
		closer = '>'
	}
	var b strings.Builder
	depth := 0
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			if n := s[i+1]; n == closer || n == open || n == '\\' {
				b.WriteByte(n)
			} else {
				b.WriteByte(c)
				b.WriteByte(n)
			}
			i++
		case c == closer && depth == 0:
			return b.String(), i + 1, true
		default:
			if open != closer {
				if c == open {
					depth++
				} else if c == closer {
					depth--
				}
			}
			b.WriteByte(c)
		}
	}
	return "", len(s), false
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}
