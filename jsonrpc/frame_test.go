package jsonrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
)

func fr(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// readAll reads frames until the stream ends, recording bodies and errors.
func readAll(t testing.TB, in string, max int) (bodies []string, errs []error, final error) {
	r := NewFrameReader(strings.NewReader(in), max)
	for i := 0; ; i++ {
		if i > len(in)+2 {
			t.Fatalf("ReadFrame does not make progress on %q", in)
		}
		b, err := r.ReadFrame()
		var fe *FrameError
		switch {
		case err == nil:
			bodies = append(bodies, string(b))
		case errors.As(err, &fe):
			errs = append(errs, err)
		default:
			return bodies, errs, err
		}
	}
}

func TestReadFrame(t *testing.T) {
	ok := `{"a":1}`
	for _, tc := range []struct {
		name   string
		in     string
		max    int
		bodies []string
		errs   int
		lost   bool // ends with ErrStreamLost rather than io.EOF
	}{
		{"one", fr(ok), 0, []string{ok}, 0, false},
		{"two", fr(ok) + fr(`{}`), 0, []string{ok, `{}`}, 0, false},
		{"content-type and other headers", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 7\r\nX-Y: z\r\n\r\n" + ok, 0, []string{ok}, 0, false},
		{"lower-case name, LF only", "content-length: 7\n\n" + ok, 0, []string{ok}, 0, false},
		{"blank lines between frames", "\r\n\r\n" + fr(ok) + "\r\n" + fr(ok), 0, []string{ok, ok}, 0, false},
		{"empty input", "", 0, nil, 0, false},
		{"missing length", "Content-Type: x\r\n\r\n" + ok + fr(ok), 0, []string{ok}, 1, false},
		{"bad length", "Content-Length: x\r\n\r\n" + ok + fr(ok), 0, []string{ok}, 1, false},
		{"zero length", "Content-Length: 0\r\n\r\n" + fr(ok), 0, []string{ok}, 1, false},
		{"negative length", "Content-Length: -3\r\n\r\n" + ok + fr(ok), 0, []string{ok}, 1, false},
		{"length over 32 bits", "Content-Length: 99999999999\r\n\r\n" + ok + fr(ok), 0, []string{ok}, 1, false},
		{"garbage line", "hello\r\n" + fr(ok), 0, []string{ok}, 1, false},
		{"garbage then header on the same line", `xx"}}Content-Length: 7` + "\r\n\r\n" + ok, 0, []string{ok}, 1, false},
		{"oversized skipped", fr(strings.Repeat("x", 100)) + fr(ok), 50, []string{ok}, 1, false},
		{"header line too long", strings.Repeat("a", maxHeaderLine+10) + "\r\n" + fr(ok), 0, []string{ok}, 1, false},
		{"truncated header", "Content-Length: 7\r\n", 0, nil, 0, true},
		{"truncated body", "Content-Length: 70\r\n\r\n" + ok, 0, nil, 0, true},
		{"truncated oversized body", "Content-Length: 70\r\n\r\n" + ok, 10, nil, 0, true},
		{"garbage to the end", "hello\r\nworld", 0, nil, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bodies, errs, final := readAll(t, tc.in, tc.max)
			if strings.Join(bodies, "|") != strings.Join(tc.bodies, "|") {
				t.Errorf("bodies %q, want %q", bodies, tc.bodies)
			}
			if len(errs) != tc.errs {
				t.Errorf("frame errors %v, want %d", errs, tc.errs)
			}
			if tc.lost != errors.Is(final, ErrStreamLost) || !tc.lost && final != io.EOF {
				t.Errorf("final error %v, want lost=%t", final, tc.lost)
			}
		})
	}
}

func TestReadFrameGarbageLimit(t *testing.T) {
	in := strings.Repeat("no header here ", maxGarbage/10) + fr(`{}`)
	_, _, final := readAll(t, "x\r\n"+in, 0)
	if !errors.Is(final, ErrStreamLost) || !strings.Contains(final.Error(), "without a Content-Length header") {
		t.Errorf("final %v, want the stream lost after %d bytes of garbage", final, maxGarbage)
	}
}

func TestOversizedFrameKeepsID(t *testing.T) {
	for _, tc := range []struct{ body, id string }{
		{`{"jsonrpc":"2.0","id":17,"method":"m","params":{"command":"` + strings.Repeat("a", 200) + `"}}`, "17"},
		{`{"method":"m","params":{"id":3,"x":"` + strings.Repeat("a", 200) + `"},"id":"s\"q"}`, `"s\"q"`},
		{`{"params":{"command":"` + strings.Repeat("a", 200) + `"}}`, ""},
		{`{"id":{"x":1},"params":"` + strings.Repeat("a", 200) + `"}`, ""},
	} {
		r := NewFrameReader(strings.NewReader(fr(tc.body)), 100)
		_, err := r.ReadFrame()
		var fe *FrameError
		if !errors.As(err, &fe) || fe.Code != codeInvalidRequest {
			t.Fatalf("err %v, want an oversized FrameError", err)
		}
		if string(fe.ID) != tc.id {
			t.Errorf("id %q, want %q", fe.ID, tc.id)
		}
	}
}

func TestScanID(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"id":1}`, "1"},
		{`{"jsonrpc":"2.0","id": -2.5e3 ,"method":"x"}`, "-2.5e3"},
		{`{"method":"x","id":"abc"}`, `"abc"`},
		{`{"params":{"id":9},"id":4}`, "4"},
		{`{"id":null}`, ""},
		{`{"id":true}`, ""},
		{`{"id":000}`, ""},
		{`{"id":"a\qb"}`, ""},
		{`{"id":[1]}`, ""},
		{`{"idx":1}`, ""},
		{`{"jsonrpc":"2.0","id":41,"method":"x",`, "41"},
		{`{"jsonrpc":"2.0","id":4`, ""},
		{`{"jsonrpc":"2.0","id":"ab`, ""},
		{`[{"id":1}]`, ""},
		{`"id"`, ""},
		{``, ""},
	} {
		if got := string(scanID([]byte(tc.in))); got != tc.want {
			t.Errorf("scanID(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzReadFrame: on any input ReadFrame terminates, never returns a body over
// the cap, returns only the documented errors, and frames any body it is
// given back unchanged.
func FuzzReadFrame(f *testing.F) {
	ok := `{"jsonrpc":"2.0","id":1,"method":"commandSafety/classify","params":{"command":"ls","cwd":"/"}}`
	for _, seed := range []string{
		fr(ok),
		fr(ok) + fr(ok),
		"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}",
		"Content-Length: 20\r\n\r\n" + ok + fr(ok),
		fmt.Sprintf("Content-Length: %d\r\n\r\n", len(ok)+9) + ok + fr(ok),
		"Content-Length: -1\r\n\r\n{}" + fr(ok),
		"Content-Length: 99999999999\r\n\r\n",
		"garbage\r\n" + fr(ok),
		"\r\n\r\n\n" + fr(ok),
		"Content-Length: 300\r\n\r\n" + ok,
		`x"Content-Length: 2` + "\r\n\r\n{}",
		"Content-Length: 64\r\n\r\n" + `{"id":"x","params":"` + strings.Repeat("y", 100) + `"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const max = 64
		r := NewFrameReader(bytes.NewReader(data), max)
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatalf("no progress")
			}
			b, err := r.ReadFrame()
			if err == nil {
				if len(b) == 0 || len(b) > max {
					t.Fatalf("body of %d bytes (cap %d)", len(b), max)
				}
				continue
			}
			var fe *FrameError
			if errors.As(err, &fe) {
				if fe.Code != codeParseError && fe.Code != codeInvalidRequest {
					t.Fatalf("frame error code %d", fe.Code)
				}
				continue
			}
			if err != io.EOF && !errors.Is(err, ErrStreamLost) {
				t.Fatalf("unexpected error %v", err)
			}
			break
		}
		if len(data) == 0 || len(data) > max {
			return
		}
		r = NewFrameReader(strings.NewReader(fr(string(data))+fr("{}")), max)
		b, err := r.ReadFrame()
		if err != nil || !bytes.Equal(b, data) {
			t.Fatalf("round trip: %q, %v; want %q", b, err, data)
		}
		if b, err := r.ReadFrame(); err != nil || string(b) != "{}" {
			t.Fatalf("second frame: %q, %v", b, err)
		}
	})
}

// FuzzDecode: any frame body either becomes a message or is answered with
// exactly one well-formed error response (-32700 or -32600); nothing panics.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"commandSafety/classify","params":{"command":"ls","cwd":"/"}}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
		`{"jsonrpc":"2.0","id":"a","result":[{"commandSafety":true}]}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}`,
		`{"jsonrpc":"1.0","id":3,"method":"x"}`,
		`{"id":99999999999,"method":"x"}`,
		`{"id":{"a":1},"method":"x"}`,
		`{"id":1,"method":5}`,
		`[{"id":1,"method":"x"}]`,
		`{"jsonrpc":"2.0","id":4,"method":"x"}Content-Len`,
		`{"jsonrpc":"2.0","id":5,"meth`,
		`"just a string"`,
		``,
		`   `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var out bytes.Buffer
		s := newStream(strings.NewReader(""), &out, nil, slog.New(slog.DiscardHandler))
		msg, ok := s.decode(body)
		if ok != (msg != nil) {
			t.Fatalf("ok %t with message %v", ok, msg)
		}
		if ok {
			if out.Len() != 0 {
				t.Fatalf("decoded, yet wrote %q", out.Bytes())
			}
			return
		}
		r := NewFrameReader(&out, 0)
		reply, err := r.ReadFrame()
		if err != nil {
			t.Fatalf("no error frame for %q: %v", body, err)
		}
		var resp struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct{ Code int }
		}
		if err := json.Unmarshal(reply, &resp); err != nil || resp.JSONRPC != "2.0" || len(resp.ID) == 0 {
			t.Fatalf("bad error response %q: %v", reply, err)
		}
		if resp.Error.Code != codeParseError && resp.Error.Code != codeInvalidRequest {
			t.Fatalf("error code %d", resp.Error.Code)
		}
		if _, err := r.ReadFrame(); err != io.EOF {
			t.Fatalf("more than one reply: %v", err)
		}
	})
}
