package classifier

import "strings"

// Glob patterns compared with glob patterns: whether some name matches
// both. find's -name and -path patterns, shell globs and curl's file lists
// are checked this way against the names that hold stored credentials
// (SPEC §5.5), and find's tests against the name of the start path
// (issue 13 point 9).

// globTok is one position of a pattern: the bytes it accepts, once or (a
// star) any number of times.
type globTok struct {
	set  [4]uint64 // the bytes accepted
	star bool
}

func (t *globTok) add(c byte)      { t.set[c>>6] |= 1 << (c & 63) }
func (t *globTok) has(c byte) bool { return t.set[c>>6]&(1<<(c&63)) != 0 }
func (t globTok) meets(u globTok) bool {
	return t.set[0]&u.set[0]|t.set[1]&u.set[1]|t.set[2]&u.set[2]|t.set[3]&u.set[3] != 0
}

// addAll accepts every byte, the slash only when slash is set.
func (t *globTok) addAll(slash bool) {
	t.set = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	t.slashless(slash)
}

// slashless drops the slash from the bytes accepted unless slash is set.
func (t *globTok) slashless(slash bool) {
	if !slash {
		t.set['/'>>6] &^= 1 << ('/' & 63)
	}
}

// globOpts says how a pattern is read: whether `*`, `?` and classes match a
// slash (find's -path: yes; -name and the shell: no), and case folding.
type globOpts struct {
	slash bool
	fold  bool
	// dots: the shell's rule that a `.` starting a name is matched only by
	// a `.` in the pattern. A wildcard starting a name then matches no `.`
	// at all, which loses only matches that another string also gives.
	dots bool
}

// maxGlob bounds the patterns compared: a longer one is taken to match
// anything, which every caller treats as the conservative answer.
const maxGlob = 256

// parseGlob reads pattern p the way fnmatch does (`*`, `?`, `[...]` with
// `!`/`^` negation and ranges, backslash escapes). exact is false when the
// reading may differ from fnmatch's (a named class such as [:alpha:], an
// unclosed bracket, folding of non-ASCII bytes): the tokens then accept
// at least what fnmatch would.
func parseGlob(p string, o globOpts) (toks []globTok, exact bool) {
	exact = true
	var lead []int
	defer func() {
		for _, k := range lead {
			if k < len(toks) {
				toks[k].set['.'>>6] &^= 1 << ('.' & 63)
			}
		}
	}()
	lit := func(c byte) globTok {
		var t globTok
		t.add(c)
		if o.fold {
			if c >= 0x80 {
				exact = false
				t.addAll(o.slash)
			}
			t.add(lower(c))
			t.add(upper(c))
		}
		return t
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if o.dots && (i == 0 || p[i-1] == '/') && (c == '*' || c == '?' || c == '[') {
			lead = append(lead, len(toks)) // the wildcard this makes
		}
		switch c {
		case '\\':
			if i+1 < len(p) {
				i++
				toks = append(toks, lit(p[i]))
			} else {
				toks = append(toks, lit('\\'))
			}
		case '*':
			if n := len(toks); n > 0 && toks[n-1].star {
				continue
			}
			t := globTok{star: true}
			t.addAll(o.slash)
			toks = append(toks, t)
		case '?':
			var t globTok
			t.addAll(o.slash)
			toks = append(toks, t)
		case '[':
			t, n, ok := parseClass(p[i:], o)
			if !ok {
				// fnmatch reads an unclosed bracket as itself; accept
				// anything here.
				exact = false
				var any globTok
				any.addAll(o.slash)
				toks = append(toks, any)
				continue
			}
			if n < 0 {
				exact = false
				n = -n
			}
			toks = append(toks, t)
			i += n - 1
		default:
			toks = append(toks, lit(c))
		}
	}
	return toks, exact
}

// parseClass reads the bracket expression at the start of s. n is its length,
// negative when the class was read loosely (a named class: any byte).
func parseClass(s string, o globOpts) (t globTok, n int, ok bool) {
	i := 1
	neg := i < len(s) && (s[i] == '!' || s[i] == '^')
	if neg {
		i++
	}
	loose := false
	first := true
	for i < len(s) {
		c := s[i]
		if c == ']' && !first {
			break
		}
		first = false
		if c == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '=' || s[i+1] == '.') {
			end := strings.Index(s[i+2:], string(s[i+1])+"]")
			if end < 0 {
				return t, 0, false
			}
			loose = true
			i += end + 4
			continue
		}
		if c == '\\' && i+1 < len(s) {
			i++
			c = s[i]
		}
		hi := c
		if i+2 < len(s) && s[i+1] == '-' && s[i+2] != ']' {
			hi = s[i+2]
			if hi == '\\' && i+3 < len(s) {
				hi = s[i+3]
				i++
			}
			i += 2
		}
		for b := int(c); b <= int(hi); b++ {
			t.add(byte(b))
			if o.fold {
				t.add(lower(byte(b)))
				t.add(upper(byte(b)))
			}
		}
		i++
	}
	if i >= len(s) {
		return t, 0, false
	}
	if loose {
		t.addAll(o.slash)
		return t, -(i + 1), true
	}
	if neg {
		for k := range t.set {
			t.set[k] = ^t.set[k]
		}
		if o.fold {
			// [!a] under folding rejects A too.
			var u globTok
			for b := 0; b < 256; b++ {
				if t.has(byte(b)) && t.has(lower(byte(b))) && t.has(upper(byte(b))) {
					u.add(byte(b))
				}
			}
			t = u
		}
	}
	t.slashless(o.slash)
	return t, i + 1, true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// literalToks are the tokens of a name taken literally.
func literalToks(s string) []globTok {
	toks := make([]globTok, len(s))
	for i := 0; i < len(s); i++ {
		toks[i].add(s[i])
	}
	return toks
}

// meet reports whether some string matches both token sequences: a walk of
// the product of the two patterns' automata. Unless loose, a star of a may
// take only what a star of b takes: b's fixed characters must be spelled
// by a's (see [walker.credentialGlob]).
func meet(a, b []globTok, loose bool) bool {
	n, m := len(a), len(b)
	var seenBuf [1024]bool
	var stackBuf [64]int
	var seen []bool
	if k := (n + 1) * (m + 1); k <= len(seenBuf) {
		seen = seenBuf[:k]
	} else {
		seen = make([]bool, k)
	}
	stack := append(stackBuf[:0], 0)
	seen[0] = true
	push := func(i, j int) {
		if k := i*(m+1) + j; !seen[k] {
			seen[k] = true
			stack = append(stack, k)
		}
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, j := k/(m+1), k%(m+1)
		if i == n && j == m {
			return true
		}
		if i < n && a[i].star {
			push(i+1, j)
		}
		if j < m && b[j].star {
			push(i, j+1)
		}
		if i < n && j < m && a[i].meets(b[j]) {
			switch {
			case a[i].star && b[j].star:
			case a[i].star:
				if loose {
					push(i, j+1)
				}
			case b[j].star:
				push(i+1, j)
			default:
				push(i+1, j+1)
			}
		}
	}
	return false
}

// globMatch reports whether name matches pattern p: yes, no, or maybe
// (known false) when p is read loosely or is too long.
func globMatch(p, name string, o globOpts) (match, known bool) {
	if len(p) > maxGlob || len(name) > 4*maxGlob {
		return true, false
	}
	toks, exact := parseGlob(p, o)
	m := meet(toks, literalToks(name), true)
	if !exact && m {
		return true, false // a loose reading matches more than fnmatch may
	}
	return m, exact || !m
}
