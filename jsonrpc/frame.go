package jsonrpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxFrame is the largest message body [FrameReader] accepts (1 MiB). A larger
// frame is skipped whole and answered with an error.
const MaxFrame = 1 << 20

// maxHeaderLine bounds one header line; maxGarbage bounds the bytes skipped
// while looking for the next header before the stream is declared lost.
const (
	maxHeaderLine = 4 << 10
	maxGarbage    = MaxFrame
)

// headerKey is what resynchronisation looks for in the byte stream.
const headerKey = "Content-Length:"

// ErrStreamLost is wrapped by [FrameReader.ReadFrame] when the stream cannot be
// resynchronised: too many bytes without a header, or the input ended in the
// middle of a frame.
var ErrStreamLost = errors.New("input stream lost")

// FrameError is a recoverable framing problem: the bad frame was skipped and
// the next ReadFrame continues with the next frame.
type FrameError struct {
	// Code is the JSON-RPC error code for the reply (-32600 or -32700).
	Code int
	// ID is the raw JSON id of the skipped request when it could be found, or nil.
	ID []byte
	// Err says what was wrong.
	Err error
}

func (e *FrameError) Error() string { return e.Err.Error() }

func (e *FrameError) Unwrap() error { return e.Err }

// FrameReader reads LSP base-protocol frames (`Content-Length: N\r\n\r\n` and N
// bytes of body) with a cap on the body size, and resynchronises after bad
// frames by scanning for the next `Content-Length:` header.
type FrameReader struct {
	r       *bufio.Reader
	back    []byte // bytes pushed back, read before r
	max     int
	resync  bool // the next read starts by skipping to a header
	skipped int  // bytes skipped by the last resynchronisation
}

// NewFrameReader returns a reader of frames from r whose bodies are at most max
// bytes (max <= 0 means [MaxFrame]).
func NewFrameReader(r io.Reader, max int) *FrameReader {
	if max <= 0 {
		max = MaxFrame
	}
	return &FrameReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Skipped returns how many bytes the last resynchronisation skipped.
func (f *FrameReader) Skipped() int { return f.skipped }

// Resync makes the next ReadFrame skip everything up to the next
// `Content-Length:` header (after a body that did not parse).
func (f *FrameReader) Resync() { f.resync = true }

// Unread pushes p back so that the next ReadFrame reads it first (trailing
// bytes found after a body's JSON value).
func (f *FrameReader) Unread(p []byte) {
	f.back = append(append([]byte{}, p...), f.back...)
}

func (f *FrameReader) readByte() (byte, error) {
	if len(f.back) > 0 {
		b := f.back[0]
		f.back = f.back[1:]
		return b, nil
	}
	return f.r.ReadByte()
}

func (f *FrameReader) read(p []byte) (int, error) {
	if len(f.back) > 0 {
		n := copy(p, f.back)
		f.back = f.back[n:]
		return n, nil
	}
	return f.r.Read(p)
}

// ReadFrame returns the next frame's body. Its errors are of three kinds:
//   - io.EOF: the input ended cleanly between frames;
//   - a *[FrameError]: a bad frame was skipped; call ReadFrame again;
//   - an error wrapping [ErrStreamLost]: the stream cannot be resynchronised.
func (f *FrameReader) ReadFrame() ([]byte, error) {
	f.skipped = 0
	if f.resync {
		f.resync = false
		if err := f.skipToHeader(); err != nil {
			return nil, err
		}
	}
	length := -1
	var badLength error
	lines := 0
	for {
		line, err := f.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && lines == 0 && len(line) == 0 {
				return nil, io.EOF
			}
			if errors.Is(err, errLineTooLong) {
				f.resync = true
				return nil, &FrameError{Code: codeParseError, Err: fmt.Errorf("header line longer than %d bytes: skipped to the next frame", maxHeaderLine)}
			}
			return nil, fmt.Errorf("%w: input ended inside a frame header", ErrStreamLost)
		}
		if len(line) == 0 {
			if lines == 0 {
				continue // stray blank line between frames
			}
			break
		}
		lines++
		name, value, ok := splitHeader(line)
		if !ok {
			// Not a header: garbage. Look for the next header, starting
			// inside this very line (a body shorter than its length leaves
			// the rest of it in front of the next frame).
			if i := bytes.Index(line, []byte(headerKey)); i >= 0 {
				f.Unread(append(line[i:len(line):len(line)], '\r', '\n'))
			} else {
				f.resync = true
			}
			return nil, &FrameError{Code: codeParseError, Err: fmt.Errorf("invalid header line %q: skipped to the next frame", clip(line, 60))}
		}
		if strings.EqualFold(name, "Content-Length") {
			n, err := strconv.ParseInt(value, 10, 32)
			switch {
			case err != nil:
				badLength = fmt.Errorf("invalid Content-Length %q", clip([]byte(value), 30))
			case n <= 0:
				badLength = fmt.Errorf("invalid Content-Length %d", n)
			default:
				length = int(n)
			}
		}
		// Content-Type and other headers are accepted and ignored.
	}
	if badLength != nil || length < 0 {
		if badLength == nil {
			badLength = errors.New("missing Content-Length header")
		}
		f.resync = true
		return nil, &FrameError{Code: codeParseError, Err: fmt.Errorf("%w: skipped to the next frame", badLength)}
	}
	if length > f.max {
		var id idScanner
		if err := f.discard(length, &id); err != nil {
			return nil, err
		}
		return nil, &FrameError{Code: codeInvalidRequest, ID: id.ID(),
			Err: fmt.Errorf("message of %d bytes exceeds the %d-byte limit", length, f.max)}
	}
	body := make([]byte, length)
	n := 0
	for n < length {
		m, err := f.read(body[n:])
		n += m
		if err != nil {
			if n == length {
				break
			}
			return nil, fmt.Errorf("%w: input ended after %d of %d body bytes", ErrStreamLost, n, length)
		}
	}
	return body, nil
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its "\n" or "\r\n".
func (f *FrameReader) readLine() ([]byte, error) {
	var line []byte
	for {
		b, err := f.readByte()
		if err != nil {
			return line, err
		}
		if b == '\n' {
			return bytes.TrimSuffix(line, []byte{'\r'}), nil
		}
		if len(line) >= maxHeaderLine {
			f.Unread([]byte{b})
			return line, errLineTooLong
		}
		line = append(line, b)
	}
}

// skipToHeader consumes input up to the next "Content-Length:" and leaves
// that header to be read.
func (f *FrameReader) skipToHeader() error {
	matched := 0
	for {
		b, err := f.readByte()
		if err != nil {
			return fmt.Errorf("%w: input ended while looking for the next frame (%d bytes skipped)", ErrStreamLost, f.skipped)
		}
		if b == headerKey[matched] {
			matched++
			if matched == len(headerKey) {
				f.Unread([]byte(headerKey))
				return nil
			}
			continue
		}
		f.skipped += matched
		matched = 0
		if b == headerKey[0] {
			matched = 1
			continue
		}
		f.skipped++
		if f.skipped > maxGarbage {
			return fmt.Errorf("%w: more than %d bytes without a Content-Length header", ErrStreamLost, maxGarbage)
		}
	}
}

// discard reads and drops n body bytes, feeding them to w.
func (f *FrameReader) discard(n int, w io.Writer) error {
	buf := make([]byte, 32<<10)
	for n > 0 {
		m, err := f.read(buf[:min(n, len(buf))])
		_, _ = w.Write(buf[:m])
		n -= m
		if err != nil && n > 0 {
			return fmt.Errorf("%w: input ended inside an oversized frame", ErrStreamLost)
		}
	}
	return nil
}

// splitHeader splits "Name: value"; the name must be an HTTP token.
func splitHeader(line []byte) (name, value string, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	for _, c := range line[:i] {
		if !isTokenChar(c) {
			return "", "", false
		}
	}
	return string(line[:i]), strings.TrimSpace(string(line[i+1:])), true
}

func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// idScanner finds the top-level "id" member of a JSON object fed to it in
// pieces, without holding the object: enough to answer an oversized or
// malformed request by its id. It keeps at most 128 bytes of the value.
type idScanner struct {
	depth    int
	inString bool
	escape   bool
	// key tracking at depth 1
	key       []byte
	keyOK     bool // key fits and is being collected
	inKey     bool
	expectKey bool
	afterKey  bool // key read, waiting for ':'
	wantValue bool // ':' seen after "id"
	value     []byte
	inValue   bool
	done      bool
	isID      bool
}

// Write implements io.Writer; it never fails.
func (s *idScanner) Write(p []byte) (int, error) {
	for _, c := range p {
		if s.done {
			break
		}
		s.step(c)
	}
	return len(p), nil
}

func (s *idScanner) step(c byte) {
	if s.inValue {
		if s.value[0] == '"' {
			s.value = append(s.value, c)
			if s.escape {
				s.escape = false
			} else if c == '\\' {
				s.escape = true
			} else if c == '"' {
				s.done = true
			}
		} else if (c >= '0' && c <= '9') || strings.IndexByte("+-.eEnulltrfas", c) >= 0 {
			s.value = append(s.value, c)
		} else {
			s.done = true
		}
		if len(s.value) > 128 {
			s.value, s.inValue, s.done = nil, false, true
		}
		return
	}
	if s.inString {
		if s.inKey && s.keyOK {
			if len(s.key) < 8 {
				s.key = append(s.key, c)
			} else {
				s.keyOK = false
			}
		}
		switch {
		case s.escape:
			s.escape = false
		case c == '\\':
			s.escape = true
			s.keyOK = false
		case c == '"':
			s.inString = false
			if s.inKey {
				s.inKey = false
				s.afterKey = true
				s.isID = s.keyOK && string(s.key) == `id"`
			}
		}
		return
	}
	switch c {
	case ' ', '\t', '\r', '\n':
		return
	case '"':
		s.inString = true
		if s.depth == 1 && s.expectKey {
			s.expectKey = false
			s.inKey, s.keyOK, s.key = true, true, s.key[:0]
			return
		}
	case '{', '[':
		s.depth++
		if s.depth == 1 {
			if c != '{' {
				s.done = true
				return
			}
			s.expectKey = true
		}
	case '}', ']':
		s.depth--
		if s.depth <= 0 {
			s.done = true
		}
	case ':':
		if s.depth == 1 && s.afterKey {
			s.afterKey = false
			s.wantValue = s.isID
			return
		}
	case ',':
		if s.depth == 1 {
			s.expectKey = true
		}
	}
	if s.wantValue && s.depth == 1 {
		s.wantValue = false
		if c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 'n' {
			s.inValue = true
			s.value = append(s.value[:0], c)
			if c == '"' {
				s.inString = false // the value collects its own string
			}
		}
		return
	}
	if s.wantValue {
		// The id is an object or array: not usable.
		s.wantValue = false
	}
}

// ID returns the raw JSON id found, or nil when there was none or it was not a
// string or number.
func (s *idScanner) ID() []byte {
	v := s.value
	if !s.done || len(v) == 0 || string(v) == "null" {
		return nil
	}
	// Only a valid JSON string or number may be echoed into a response.
	if !json.Valid(v) || (v[0] != '"' && v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return nil
	}
	return v
}

// scanID returns the top-level id of a (possibly truncated) JSON object.
func scanID(body []byte) []byte {
	var s idScanner
	_, _ = s.Write(body)
	return s.ID()
}
