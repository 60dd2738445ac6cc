package classifier

import "strings"

// MaxUnits bounds the syntax a command may have: words, operators, quotes,
// and expansions, as [syntaxUnits] counts them. The parser and the
// walker spend about a microsecond per unit on a small machine, and 64 KiB
// of dense syntax (`ls;ls;…`, `a | a | …`, `$(ls)$(ls)…`) holds 30,000 of
// them, so without this bound classification took over 10 ms. Commands
// agents write have tens to hundreds; here-document bodies and quoted text
// count once.
const MaxUnits = 2048

// syntaxUnits counts the syntax units of src, stopping once the count passes
// limit. It is a scan, not a parse: it only has to be close, and where it
// errs it must count fewer units, not more, so that it never refuses a
// command for syntax it does not have. Counted are word starts, operator
// bytes, quotes and `$`; escapes are not (they stay in one literal), and
// here-document bodies are skipped when
// their delimiter line is found (expansions in them are counted when the
// delimiter is unquoted); comments are skipped; `$(…)`, backquotes and
// arithmetic inside quotes and here-documents are scanned as code.
func syntaxUnits(src string, limit int) int {
	s := unitScanner{src: src, limit: limit}
	s.code(0, 0)
	return s.n
}

// operatorByte marks the bytes that are shell operators on their own.
var operatorByte = [256]bool{';': true, '&': true, '|': true, '(': true, ')': true, '<': true, '>': true}

type unitScanner struct {
	src   string
	limit int
	n     int
	// pending here-documents, whose bodies start after the next newline
	heredocs []heredoc
}

type heredoc struct {
	delim  string
	strip  bool // <<- strips leading tabs
	quoted bool // the body is data: no expansions
}

// Stop marks for [unitScanner.code].
const (
	untilEOF      = 0
	untilParen    = ')'
	untilBackquot = '`'
)

// code scans shell code from i until the end, or until the byte that closes
// it (an unmatched `)` for `$(…)`, a backquote), and returns the index just
// past that byte.
func (s *unitScanner) code(i int, until byte) int {
	src := s.src
	wordStart := true
	parens := 0 // ( opened inside this code, so that `)` closes them first
	for i < len(src) && s.n <= s.limit {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			wordStart = true
			i++
			continue
		case c == '\n': // a separator; the words around it count, blank lines do not
			wordStart = true
			i = s.bodies(i + 1)
			continue
		case c == until && until == untilBackquot:
			return i + 1
		case c == ')' && parens == 0 && until == untilParen:
			return i + 1
		case c == '#' && wordStart:
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(src)
			}
			continue
		case c == '(' && i+1 < len(src) && src[i+1] == '(' && wordStart:
			// (( arithmetic )): operators in it (<<) are not redirections.
			s.n++
			i = s.arith(i + 2)
			wordStart = false
			continue
		case strings.HasPrefix(src[i:], "<<<"): // a here-string, not a here-document
			s.n++
			i += 3
			wordStart = true
			continue
		case strings.HasPrefix(src[i:], "<<"):
			s.n++
			i = s.heredocOp(i + 2)
			wordStart = true
			continue
		case operatorByte[c]:
			s.n++
			if c == '(' {
				parens++
			} else if c == ')' {
				parens--
			}
			wordStart = true
			i++
			continue
		}
		if wordStart {
			s.n++
			wordStart = false
		}
		i = s.wordByte(i)
	}
	return i
}

// wordByte scans the word byte at i (a quote, an escape, an expansion or a
// literal byte) and returns the index after it.
func (s *unitScanner) wordByte(i int) int {
	src := s.src
	switch src[i] {
	case '\\':
		return i + 2 // an escaped byte is part of the literal, not a node
	case '\'':
		s.n++
		if j := strings.IndexByte(src[i+1:], '\''); j >= 0 {
			return i + 1 + j + 1
		}
		return len(src) // unterminated: the parser fails fast
	case '"':
		s.n++
		return s.dquoted(i + 1)
	case '`':
		s.n++
		return s.code(i+1, untilBackquot)
	case '$':
		return s.dollar(i)
	}
	return i + 1
}

// dollar scans an expansion at i (src[i] is `$`).
func (s *unitScanner) dollar(i int) int {
	src := s.src
	s.n++
	switch {
	case strings.HasPrefix(src[i:], "$(("):
		return s.arith(i + 3)
	case strings.HasPrefix(src[i:], "$("):
		return s.code(i+2, untilParen)
	case strings.HasPrefix(src[i:], "$'"):
		for j := i + 2; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case '\'':
				return j + 1
			}
		}
		return len(src)
	}
	return i + 1
}

// dquoted scans a double-quoted string from i (just past the opening quote)
// and returns the index after the closing one.
func (s *unitScanner) dquoted(i int) int {
	for i < len(s.src) && s.n <= s.limit {
		if s.src[i] == '"' {
			return i + 1
		}
		i = s.expansion(i)
	}
	return i
}

// expansion scans the byte at i of text where only escapes and expansions
// are syntax (double quotes, unquoted here-document bodies) and returns the
// index after what it scanned: `$…` and `$(…)` (as code), a backquoted
// command, an escape, or one plain byte.
func (s *unitScanner) expansion(i int) int {
	switch s.src[i] {
	case '\\':
		return i + 2 // `"a\nb\n…"` is one literal to the parser
	case '$':
		if i+1 < len(s.src) && s.src[i+1] == '\'' {
			s.n++ // $'…' is not a quote here: a $ and a plain '
			return i + 2
		}
		return s.dollar(i)
	case '`':
		s.n++
		return s.code(i+1, untilBackquot)
	}
	return i + 1
}

// arith scans arithmetic from i (just past `((`) to the matching `))`.
func (s *unitScanner) arith(i int) int {
	src := s.src
	depth := 2
	for i < len(src) && s.n <= s.limit {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '$':
			i = s.dollar(i)
			continue
		case '`':
			s.n++
			i = s.code(i+1, untilBackquot)
			continue
		case ' ', '\t', '\n':
		default:
			if i == 0 || strings.IndexByte(" \t\n()", src[i-1]) >= 0 {
				s.n++ // an operand or operator starts
			}
		}
		i++
	}
	return i
}

// heredocOp reads the delimiter after `<<` (i is just past it) and queues
// the here-document; its body starts after the next newline.
func (s *unitScanner) heredocOp(i int) int {
	src := s.src
	h := heredoc{}
	if i < len(src) && src[i] == '-' {
		h.strip = true
		i++
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	var d strings.Builder
	for i < len(src) && strings.IndexByte(" \t\n;&|()<>", src[i]) < 0 {
		switch c := src[i]; c {
		case '\'', '"':
			h.quoted = true
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				return len(src)
			}
			d.WriteString(src[i+1 : i+1+j])
			i += j + 2
		case '\\':
			h.quoted = true
			if i+1 < len(src) {
				d.WriteByte(src[i+1])
			}
			i += 2
		default:
			d.WriteByte(c)
			i++
		}
	}
	if d.Len() > 0 {
		h.delim = d.String()
		s.heredocs = append(s.heredocs, h)
	}
	return i
}

// bodies skips the bodies of the pending here-documents, which start at i,
// and returns where code resumes. A body whose delimiter line never comes is
// not skipped: it is scanned as code, which counts more, never less, than
// the parser sees.
func (s *unitScanner) bodies(i int) int {
	pending := s.heredocs
	s.heredocs = nil
	for _, h := range pending {
		end, ok := s.body(i, h)
		if !ok {
			return i
		}
		i = end
	}
	return i
}

// body finds the end of one here-document body starting at i: the index
// after its delimiter line. In an unquoted body, expansions are counted.
func (s *unitScanner) body(i int, h heredoc) (int, bool) {
	src := s.src
	start := i
	for i <= len(src) {
		eol := strings.IndexByte(src[i:], '\n')
		line := src[i:]
		if eol >= 0 {
			line = src[i : i+eol]
		}
		if h.strip {
			line = strings.TrimLeft(line, "\t")
		}
		if line == h.delim {
			if !h.quoted {
				s.expansions(start, i)
			}
			if eol < 0 {
				return len(src), true
			}
			return i + eol + 1, true
		}
		if eol < 0 {
			return start, false
		}
		i += eol + 1
	}
	return start, false
}

// expansions counts the expansions of an unquoted here-document body
// src[i:end]: `$`, backquotes and escapes, with `$(…)` scanned as code.
func (s *unitScanner) expansions(i, end int) {
	for i < end && s.n <= s.limit {
		i = s.expansion(i)
	}
}
