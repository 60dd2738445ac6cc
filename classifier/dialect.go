package classifier

import (
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

//go:generate go tool stringer -type=Dialect -linecomment

// Dialect is the shell that will run a command (SPEC §1): the command is
// parsed and its words are read the way that shell reads them. Its String
// is the wire spelling.
type Dialect int

// The dialects.
const (
	// UnknownDialect: nothing says which shell runs the command. It is
	// treated as the worst case: the command is classified as bash and as
	// zsh, and the worse of both wins.
	UnknownDialect Dialect = iota // unknown
	// Bash is GNU bash, the shell of Linux terminals, Gemini CLI and the
	// VS Code tool.
	Bash // bash
	// Zsh is the Z shell, the login shell on macOS (mvdan.cc/sh/v3 LangZsh).
	Zsh // zsh
	// Sh is POSIX sh: dash or busybox ash on Linux, and bash in POSIX mode
	// as /bin/sh on macOS, so a command is classified as both POSIX sh and
	// bash, and the worse wins.
	Sh // sh
)

// Dialects lists every dialect, [UnknownDialect] first.
var Dialects = []Dialect{UnknownDialect, Bash, Zsh, Sh}

// ParseDialect returns the dialect whose wire spelling is s. The empty
// string is [UnknownDialect], and so are the names of the shells that run
// as one of the others (`dash` is sh).
func ParseDialect(s string) (Dialect, error) {
	switch strings.ToLower(s) {
	case "", "unknown":
		return UnknownDialect, nil
	case "bash":
		return Bash, nil
	case "zsh":
		return Zsh, nil
	case "sh", "dash", "ash", "posix":
		return Sh, nil
	}
	return UnknownDialect, fmt.Errorf("unknown shell %q (want bash, zsh, sh or unknown)", s)
}

// MarshalText writes the wire spelling.
func (d Dialect) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads the wire spelling.
func (d *Dialect) UnmarshalText(b []byte) error {
	v, err := ParseDialect(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// readings are the parsers' languages a dialect is classified in; the
// worst reading wins.
func (d Dialect) readings() []syntax.LangVariant {
	switch d {
	case Bash:
		return bashOnly
	case Zsh:
		return zshOnly
	case Sh:
		return shReadings
	}
	return unknownReadings
}

var (
	bashOnly        = []syntax.LangVariant{syntax.LangBash}
	zshOnly         = []syntax.LangVariant{syntax.LangZsh}
	shReadings      = []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}
	unknownReadings = []syntax.LangVariant{syntax.LangBash, syntax.LangZsh}
)

// langName names a reading in reasons.
func langName(l syntax.LangVariant) string {
	switch l {
	case syntax.LangZsh:
		return "zsh"
	case syntax.LangPOSIX:
		return "POSIX sh (dash)"
	}
	return "bash"
}

// dialectOf is the dialect of one reading.
func dialectOf(l syntax.LangVariant) Dialect {
	switch l {
	case syntax.LangZsh:
		return Zsh
	case syntax.LangPOSIX:
		return Sh
	}
	return Bash
}

// parsers pools a parser per language: a Parser is reusable but not safe
// for concurrent use, and making one costs more than parsing a short
// command.
var parsers = map[syntax.LangVariant]*sync.Pool{
	syntax.LangBash:  {New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }},
	syntax.LangZsh:   {New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangZsh)) }},
	syntax.LangPOSIX: {New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangPOSIX)) }},
}

// parse parses src in lang.
func parse(src string, lang syntax.LangVariant) (*syntax.File, error) {
	pool := parsers[lang]
	p := pool.Get().(*syntax.Parser)
	defer pool.Put(p)
	return p.Parse(strings.NewReader(lineBreaks(src)), "")
}

// parsedBefore returns the statements of src that lang parses before its
// first error. bash and dash run each line of a `-c` string as soon as it
// parses, and every shell does so with a script it reads from a file or
// stdin, so what comes before a line a shell cannot read may run.
func parsedBefore(src string, lang syntax.LangVariant) []*syntax.Stmt {
	pool := parsers[lang]
	p := pool.Get().(*syntax.Parser)
	defer pool.Put(p)
	var stmts []*syntax.Stmt
	for s, err := range p.StmtsSeq(strings.NewReader(lineBreaks(src))) {
		if err != nil || len(stmts) >= MaxParts {
			break
		}
		stmts = append(stmts, s)
	}
	return stmts
}

// lineBreaks makes a bare carriage return a line break, as it is to a
// terminal (SPEC §3 judgment calls), so that what follows is seen as a
// command. The length is unchanged, so byte offsets still hold.
func lineBreaks(src string) string {
	if strings.IndexByte(src, '\r') >= 0 {
		return strings.ReplaceAll(src, "\r", "\n")
	}
	return src
}
