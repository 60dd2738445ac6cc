package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// parseError is a settings file that does not parse. It renders
// `file:line:col: text` (line and col are 0 when unknown).
type parseError struct {
	File      string
	Line, Col int
	Err       error
}

func (e *parseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *parseError) Unwrap() error { return e.Err }

// keyError is a problem with one key of a file that parsed.
type keyError struct {
	line, col int
	err       error
	warning   bool // a [Warning]: the value applied or nothing was lost
}

var hujsonPos = regexp.MustCompile(`^hujson: line (\d+), column (\d+): `)

// parseFile parses a settings.json (JSONC). A fatal error (*parseError)
// means the file gives nothing; otherwise the values and per-key problems.
func parseFile(name string, data []byte) (values, []keyError, error) {
	var v values
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 BOM
	if len(bytes.TrimSpace(data)) == 0 {
		return v, nil, nil // an empty settings.json is {}
	}
	var problems []keyError
	if !utf8.Valid(data) {
		// VS Code decodes settings.json as UTF-8 with each invalid byte read
		// as U+FFFD, so a Latin-1 "café" in a comment costs it nothing; hujson
		// instead rejects the whole file ("invalid UTF-8 in comment"), which
		// would drop the file's other, possibly tightening, values. Read what
		// VS Code reads, and say so.
		line, col := lineCol(data, invalidUTF8(data))
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
		problems = append(problems, keyError{line, col, errors.New("not valid UTF-8; invalid bytes read as U+FFFD, as VS Code reads them"), true})
	}
	// hujson wants a line comment to end with a newline; VS Code does not.
	// An extra newline at the end moves no line or column.
	orig := data
	data = append(data[:len(data):len(data)], '\n')
	ast, err := hujson.Parse(data)
	if err != nil && commentsOnly(data) {
		return v, problems, nil // like an empty file
	}
	if err != nil {
		pe := &parseError{File: name, Err: err}
		if m := hujsonPos.FindStringSubmatch(err.Error()); m != nil {
			pe.Line, _ = strconv.Atoi(m[1])
			pe.Col, _ = strconv.Atoi(m[2])
			pe.Err = errors.New(strings.TrimPrefix(err.Error(), m[0]))
			if pe.Line > 1+bytes.Count(orig, []byte("\n")) { // at the added newline
				pe.Line, pe.Col = lineCol(orig, len(orig))
			}
		}
		return v, nil, pe
	}
	ast.Standardize() // comments and trailing commas become spaces; offsets kept
	top, ok := ast.Value.(*hujson.Object)
	if !ok {
		line, col := lineCol(data, ast.StartOffset)
		return v, nil, &parseError{File: name, Line: line, Col: col, Err: errNotObject}
	}
	addErrs := func(off int, errs []error) {
		line, col := lineCol(data, off)
		for _, err := range errs {
			problems = append(problems, keyError{line: line, col: col, err: err})
		}
	}
	for _, m := range top.Members {
		name := memberName(m)
		switch {
		case name == Section:
			obj, ok := m.Value.Value.(*hujson.Object)
			if !ok {
				var val any
				_ = json.Unmarshal(m.Value.Pack(), &val)
				addErrs(m.Name.StartOffset, []error{fmt.Errorf("%s: want an object, got %s", Section, typeName(val))})
				continue
			}
			for _, mm := range obj.Members {
				addErrs(mm.Name.StartOffset, setMember(&v, memberName(mm), mm.Value, data, mm.Name.StartOffset))
			}
		case strings.HasPrefix(name, Section+"."):
			addErrs(m.Name.StartOffset, setMember(&v, strings.TrimPrefix(name, Section+"."), m.Value, data, m.Name.StartOffset))
		}
	}
	return v, problems, nil
}

func memberName(m hujson.ObjectMember) string {
	if lit, ok := m.Name.Value.(hujson.Literal); ok {
		return lit.String()
	}
	return ""
}

func setMember(v *values, key string, val hujson.Value, data []byte, off int) []error {
	if v.pos == nil {
		v.pos = map[string][2]int{}
	}
	line, col := lineCol(data, off)
	v.pos[key] = [2]int{line, col}
	var x any
	if err := json.Unmarshal(val.Pack(), &x); err != nil {
		// Standardized hujson is JSON; this is defensive.
		return []error{fmt.Errorf("%s.%s: %w", Section, key, err)}
	}
	return v.set(key, x)
}

func lineCol(b []byte, n int) (line, col int) {
	if n > len(b) {
		n = len(b)
	}
	line = 1 + bytes.Count(b[:n], []byte("\n"))
	col = 1 + n - (bytes.LastIndexByte(b[:n], '\n') + 1)
	return line, col
}

// invalidUTF8 returns the offset of the first byte of b that is not part of
// valid UTF-8 (len(b) when there is none).
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// commentsOnly reports whether b holds nothing but comments and whitespace.
func commentsOnly(b []byte) bool {
	v, err := hujson.Parse(append(b[:len(b):len(b)], "{}"...))
	if err != nil {
		return false
	}
	obj, ok := v.Value.(*hujson.Object)
	return ok && len(obj.Members) == 0
}
