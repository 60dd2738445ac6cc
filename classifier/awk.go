package classifier

import (
	"strings"
)

// An awk program is read as tokens, so that what sits in its string and
// regular-expression literals is data: `print $1 " => " $2` and `/a|b/`
// neither write a file nor run a command. Only a `>` or `>>` at the top of
// a print statement's expression list (outside parentheses) redirects its
// output, as gawk's lexer decides (`print ($2 > 3)` compares).

// awkKind is the kind of an awk token.
type awkKind int

const (
	awkOp    awkKind = iota // an operator or punctuation
	awkWord                 // a name or keyword
	awkNum                  // a number
	awkStr                  // a string literal (text: its value)
	awkRegex                // a regular-expression literal
	awkNL                   // a newline (a statement may end there)
)

// awkTok is one token of an awk program.
type awkTok struct {
	kind awkKind
	text string
	// exact is false for a string whose escapes awks decode differently
	// (`\x`, an unknown `\c`): its value is not known.
	exact bool
}

// awkOps are awk's operators of more than one character, longest first.
var awkOps = []string{"**=", "&&", "||", "|&", "==", "!=", "<=", ">=", ">>", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**", "!~"}

// lexAwk splits an awk program into tokens; ok is false for a program
// whose string or regular expression does not end on its line.
func lexAwk(s string) (toks []awkTok, ok bool) {
	prev := func() *awkTok {
		if len(toks) == 0 {
			return nil
		}
		return &toks[len(toks)-1]
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '\\' && strings.HasPrefix(s[i+1:], "\n"):
			i += 2 // a line continued
		case c == '\\' && strings.HasPrefix(s[i+1:], "\r\n"):
			i += 3
		case c == '\n':
			toks = append(toks, awkTok{kind: awkNL, text: "\n"})
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\n' {
					return nil, false
				}
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, false
			}
			val, exact := awkUnescape(s[i+1 : j])
			toks = append(toks, awkTok{kind: awkStr, text: val, exact: exact})
			i = j + 1
		case c == '/' && awkRegexMayStart(prev()):
			j, brack := i+1, false
			for j < len(s) && (brack || s[j] != '/') {
				switch s[j] {
				case '\n':
					return nil, false
				case '\\':
					j++
				case '/':
					// Inside a bracket expression: gawk goes on, other
					// awks may end the pattern here. Read as text.
					return nil, false
				case '[':
					if !brack {
						brack = true
						// `[]...]` and `[^]...]` hold a `]`.
						if strings.HasPrefix(s[j+1:], "^") {
							j++
						}
						if strings.HasPrefix(s[j+1:], "]") {
							j++
						}
					}
				case ']':
					brack = false
				}
				j++
			}
			if j >= len(s) {
				return nil, false
			}
			toks = append(toks, awkTok{kind: awkRegex, text: s[i : j+1]})
			i = j + 1
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			toks = append(toks, awkTok{kind: awkWord, text: s[i:j]})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i + 1
			for j < len(s) && (isNameByte(s[j]) || s[j] == '.' || (s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E')) {
				j++
			}
			toks = append(toks, awkTok{kind: awkNum, text: s[i:j]})
			i = j
		default:
			op := s[i : i+1]
			for _, o := range awkOps {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			toks = append(toks, awkTok{kind: awkOp, text: op})
			i += len(op)
		}
	}
	return toks, true
}

// awkRegexMayStart reports whether a `/` after token prev starts a
// regular expression rather than dividing. Where both could be, it divides:
// what follows is then read as code, never hidden as a pattern.
func awkRegexMayStart(prev *awkTok) bool {
	if prev == nil {
		return true
	}
	switch prev.kind {
	case awkNL:
		return true
	case awkWord:
		switch prev.text {
		case "print", "printf", "return", "case":
			return true
		}
		return false
	case awkOp:
		switch prev.text {
		case ")", "]", "$", "++", "--":
			return false
		}
		return true
	}
	return false
}

// awkUnescape decodes the escapes of an awk string literal's text. exact is
// false where awks differ (gawk's `\x` takes a varying number of digits,
// an unknown escape keeps or drops its backslash).
func awkUnescape(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, true
	}
	var b strings.Builder
	exact := true
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case '"', '\\', '/':
			b.WriteByte(c)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			exact = false
			b.WriteByte(c)
		}
	}
	return b.String(), exact
}

// awkFacts is what an awk program's tokens say it does.
type awkFacts struct {
	// runs: it may run commands or reads the environment (system,
	// a pipe, getline, an @ directive or indirect call, ENVIRON).
	runs bool
	// commands are the commands it gives as whole string literals, fed
	// when the program prints into them.
	commands []awkCommandLit
	// systems counts its calls of system(), literals counts those of them
	// given a literal command.
	systems, literals int
	// indirect: it calls a function it names at run time (gawk's @f()).
	indirect bool
	// writes are the files its print statements redirect to; nil where
	// the target is not one literal string.
	writes []*string
}

// awkCommandLit is a command an awk program gives literally.
type awkCommandLit struct {
	code string
	fed  bool // print | "CMD": it reads what the program prints
}

// scanAwk reads the facts of an awk program from its tokens.
func scanAwk(toks []awkTok) awkFacts {
	var f awkFacts
	at := func(i int) *awkTok {
		if i < 0 || i >= len(toks) {
			return nil
		}
		return &toks[i]
	}
	isOp := func(t *awkTok, ops ...string) bool {
		if t == nil || t.kind != awkOp {
			return false
		}
		for _, o := range ops {
			if t.text == o {
				return true
			}
		}
		return false
	}
	ends := func(t *awkTok) bool { return t == nil || t.kind == awkNL || isOp(t, ";", "}", ")") }
	inPrint, depth := false, 0
	for i := 0; i < len(toks); i++ {
		t := &toks[i]
		switch t.kind {
		case awkWord:
			switch t.text {
			case "system":
				f.runs = true
				if isOp(at(i+1), "(") {
					f.systems++
					if s := at(i + 2); s != nil && s.kind == awkStr && s.exact && isOp(at(i+3), ")") {
						f.literals++
						f.commands = append(f.commands, awkCommandLit{code: s.text})
					}
				}
			case "getline":
				f.runs = true
				if s := at(i - 2); s != nil && s.kind == awkStr && s.exact && isOp(at(i-1), "|", "|&") {
					f.commands = append(f.commands, awkCommandLit{code: s.text})
				}
			case "ENVIRON":
				f.runs = true
			case "print", "printf":
				inPrint, depth = true, 0
			}
		case awkOp:
			switch t.text {
			case "@":
				f.runs = true
				if n := at(i + 1); n != nil && n.kind == awkWord && isOp(at(i+2), "(") {
					// gawk's indirect call `@f(...)`: the function is the
					// value of f, system() among them.
					f.indirect = true
				}
			case "|", "|&":
				f.runs = true
				if s := at(i + 1); s != nil && s.kind == awkStr && s.exact && ends(at(i+2)) {
					f.commands = append(f.commands, awkCommandLit{code: s.text, fed: true})
				}
				if inPrint && depth == 0 {
					inPrint = false
				}
			case "(":
				if inPrint {
					depth++
				}
			case ")":
				if inPrint {
					if depth--; depth < 0 {
						inPrint = false
					}
				}
			case ";", "{", "}":
				if inPrint && depth == 0 {
					inPrint = false
				}
			case ">", ">>":
				if !inPrint || depth > 0 {
					continue
				}
				// The target runs to the end of the statement.
				j := i + 1
				for j < len(toks) && toks[j].kind != awkNL && !isOp(&toks[j], ";", "{", "}", "|", "|&") {
					j++
				}
				if j == i+2 && toks[i+1].kind == awkStr && toks[i+1].exact {
					name := toks[i+1].text
					f.writes = append(f.writes, &name)
				} else {
					f.writes = append(f.writes, nil)
				}
				inPrint = false
				i = j - 1
			}
		case awkNL:
			// A newline ends the statement after an operand; after an
			// operator or a comma the expression goes on.
			if p := at(i - 1); inPrint && depth == 0 && p != nil && (p.kind != awkOp || isOp(p, ")", "]")) {
				inPrint = false
			}
		}
	}
	return f
}
