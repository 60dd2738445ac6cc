package classifier

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Literal values followed into later words (issue 13, smaller gaps): in
// `x=delete; find . -$x` or `x=-rf; rm $x ~` the line itself says what the
// words become. A simple command whose words use such a value is read a
// second time with the values put in (`find . '-delete'`), in addition to
// today's reading of the words as only known at run time: the parts of both
// count, so the verdict is at least as strict as the expanded command and
// never less strict than without the values (the worse wins).
//
// The values followed are the exact ones: a plain `NAME=VALUE` (also under
// export, declare, local, readonly, typeset) whose value is literal text,
// kept in walker.lits beside walker.vars and saved, restored and joined
// with it, so an assignment in a subshell or a pipeline's element does not
// reach what follows and one in a branch or a loop leaves no value. Any
// other assignment of the name ([walker.setVar]) forgets it.

// litMax bounds the text of one substituted reading.
const litMax = 4096

// literalAssign records the value of the plain assignment a to name when
// it is literal text: no expansion, tilde, brace or glob character that
// would make the value bash stores differ from the text.
func (w *walker) literalAssign(a *syntax.Assign, name string) {
	if a.Value == nil || a.Array != nil || a.Index != nil || a.Append {
		return
	}
	v, ok := literalText(a.Value, w.opts.Home)
	if !ok || v == "" {
		return
	}
	if w.lits == nil {
		w.lits = map[string]string{}
	}
	w.lits[name] = v
}

// tempLits returns what puts back the literal values of the names that
// assignments in front of a command set: they hold for that command only
// (`x=-delete true; find . $x` passes the x from before).
func (w *walker) tempLits(as []*syntax.Assign) func() {
	old := map[string]*string{}
	for _, a := range as {
		if a.Name == nil {
			continue
		}
		if v, ok := w.lits[a.Name.Value]; ok {
			old[a.Name.Value] = &v
		} else {
			old[a.Name.Value] = nil
		}
	}
	return func() {
		for name, v := range old {
			if v == nil {
				delete(w.lits, name)
				continue
			}
			if w.lits == nil {
				w.lits = map[string]string{}
			}
			w.lits[name] = *v
		}
	}
}

// literalText is the value of a word made only of literal text and quotes:
// a leading `~` or `~/` is home (when known), as bash expands it in an
// assignment; other tildes and the characters that make the value read
// differently as a word (`{`, globs, which the second reading would have
// to quote apart) are not followed.
func literalText(word *syntax.Word, home string) (string, bool) {
	var b strings.Builder
	for i, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			v := x.Value
			if rest, ok := strings.CutPrefix(v, "~"); ok && i == 0 && home != "" && (rest == "" || rest[0] == '/') {
				b.WriteString(home)
				v = rest
			}
			if strings.ContainsAny(v, "~{}*?[]") {
				return "", false
			}
			b.WriteString(unbackslash(v))
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescapeDouble(l.Value))
			}
		default:
			return "", false
		}
		if b.Len() > litMax {
			return "", false
		}
	}
	return b.String(), true
}

// unescapeDouble removes the backslashes bash removes inside double quotes
// (before `$`, a backquote, `"`, `\` and a newline).
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// substituted is the text of the simple command c with the literal values
// of walker.lits put in, each resulting field single-quoted, or "" when no
// word uses such a value. A word that also has another expansion, or that
// cannot be rendered exactly, keeps its text (it stays only known at run
// time, as today); a command with a substitution, arithmetic or process
// substitution in a word is not read again (what it runs is read once).
func (w *walker) substituted(c *syntax.CallExpr) string {
	if len(w.lits) == 0 {
		return ""
	}
	if _, ok := w.vars["IFS"]; ok {
		return "" // the line changes how words split
	}
	var out []string
	used := false
	for _, word := range c.Args {
		fields, uses, ok := w.litFields(word)
		if !ok {
			return ""
		}
		if !uses {
			out = append(out, w.textOf(word))
			continue
		}
		used = true
		for _, f := range fields {
			out = append(out, shellQuote(f))
		}
	}
	if !used {
		return ""
	}
	text := strings.Join(out, " ")
	if len(text) > litMax {
		return ""
	}
	return text
}

// litFields renders word with walker.lits' values as the fields bash makes
// of it (unquoted values split at blanks). uses says whether a value was
// put in; ok is false when the word holds an expansion that runs code (the
// command is then not read again). A word with another parameter, or a
// part this does not render, is left as it is (uses false).
func (w *walker) litFields(word *syntax.Word) (fields []string, uses, ok bool) {
	var cur strings.Builder
	have := false // cur is a field even when empty (quotes)
	keep := false // leave the word as written
	var walk func(parts []syntax.WordPart, quoted bool)
	walk = func(parts []syntax.WordPart, quoted bool) {
		for _, p := range parts {
			switch x := p.(type) {
			case *syntax.Lit:
				if !quoted && strings.ContainsAny(x.Value, "~{}*?[]") {
					keep = true
					continue
				}
				if quoted {
					cur.WriteString(unescapeDouble(x.Value))
				} else {
					cur.WriteString(unbackslash(x.Value))
				}
				have = true
			case *syntax.SglQuoted:
				if x.Dollar {
					keep = true
					continue
				}
				cur.WriteString(x.Value)
				have = true
			case *syntax.DblQuoted:
				have = true
				walk(x.Parts, true)
			case *syntax.ParamExp:
				v, known := w.litParam(x)
				if !known {
					keep = true
					continue
				}
				uses = true
				if quoted {
					cur.WriteString(v)
					have = true
					continue
				}
				if strings.ContainsAny(v, "*?[") || w.zsh() && strings.ContainsAny(v, " \t\n") {
					keep = true // a glob, or zsh's unsplit words
					continue
				}
				words := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
				if len(words) == 0 {
					continue
				}
				if strings.IndexByte(" \t\n", v[0]) >= 0 && have {
					fields = append(fields, cur.String())
					cur.Reset()
				}
				for i, wd := range words {
					if i > 0 {
						fields = append(fields, cur.String())
						cur.Reset()
					}
					cur.WriteString(wd)
				}
				have = true
				if strings.IndexByte(" \t\n", v[len(v)-1]) >= 0 {
					fields = append(fields, cur.String())
					cur.Reset()
					have = false
				}
			case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
				ok = false
				return
			default:
				keep = true
			}
		}
	}
	ok = true
	walk(word.Parts, false)
	if !ok {
		return nil, false, false
	}
	if keep {
		return nil, false, true
	}
	if have {
		fields = append(fields, cur.String())
	}
	return fields, uses, true
}

// litParam is the literal value of a plain `$NAME` or `${NAME}` that the
// line assigned (walker.lits).
func (w *walker) litParam(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Flags != nil || p.Excl || p.Length || p.Width || p.IsSet || p.Split != 0 || p.GlobSubst != 0 || p.RcExpand != 0 ||
		p.NestedParam != nil || p.Index != nil || p.Modifiers != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil {
		return "", false
	}
	if _, ref := w.namerefs[p.Param.Value]; ref {
		return "", false
	}
	v, ok := w.lits[p.Param.Value]
	return v, ok
}

// readLiterals reads the simple command c a second time with the line's
// literal values put in (text from [walker.substituted]), in the shell
// state it is in now; what that reading changes in the shell does not
// remain (today's reading of c changes it). A reading that would take the
// line past [MaxUnits] is not made: the line stays within its bound and
// keeps the first reading's verdict, a word only known at run time.
func (w *walker) readLiterals(c *syntax.CallExpr, text string, depth int) {
	if w.units+syntaxUnits(text, w.unitLimit-w.units) > w.unitLimit {
		return
	}
	saved, frame := w.saveShell(), w.frame
	s, e, _ := w.span(c)
	w.classifySource(text, s, e, false, depth+1, w.dialect().readings())
	w.frame = frame
	w.restoreShell(saved)
}
