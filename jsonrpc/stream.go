package jsonrpc

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// stream is a [jsonrpc2.Stream] over LSP framing that never hands the
// connection a read error it could recover from: bad frames, bad JSON and
// invalid requests are answered (or logged) here and reading goes on. Only an
// error wrapping io.EOF or [ErrStreamLost] reaches the connection, which then
// stops.
type stream struct {
	in  *FrameReader
	out io.Writer
	c   io.Closer // closes the input, may be nil
	log *slog.Logger

	mu   sync.Mutex // serialises writes to out
	buf  bytes.Buffer
	held []byte // frames written with the next one (see hold)
}

func newStream(in io.Reader, out io.Writer, closer io.Closer, log *slog.Logger) *stream {
	return &stream{in: NewFrameReader(in, MaxFrame), out: out, c: closer, log: log}
}

// Read implements [jsonrpc2.Stream].
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, err := s.in.ReadFrame()
		if n := s.in.Skipped(); n > 0 {
			s.log.Warn("skipped bytes to resynchronise", "bytes", n)
		}
		if err != nil {
			var fe *FrameError
			if errors.As(err, &fe) {
				s.log.Warn("bad frame", "err", fe.Err)
				if fe.Code == codeInvalidRequest {
					// An oversized request: answer it (by id when it was found).
					s.writeError(fe.ID, fe.Code, fe.Err.Error())
				}
				continue
			}
			return nil, 0, err
		}
		msg, ok := s.decode(body)
		if ok {
			return msg, int64(len(body)), nil
		}
	}
}

// wireRequest is a message as read; requests are built from it directly
// (cheaper than jsonrpc2.DecodeMessage, which allocates a large decoder per
// message).
type wireRequest struct {
	JSONRPC *string            `json:"jsonrpc"`
	ID      stdjson.RawMessage `json:"id"`
	Method  *string            `json:"method"`
	Params  stdjson.RawMessage `json:"params"`
}

// decode turns a body into a message, or answers it with an error and
// returns false.
func (s *stream) decode(body []byte) (jsonrpc2.Message, bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		s.log.Warn("batch request rejected")
		s.writeError(nil, codeInvalidRequest, "invalid request: batches are not supported")
		return nil, false
	}
	var w wireRequest
	err := stdjson.Unmarshal(trimmed, &w)
	var syntax *stdjson.SyntaxError
	if errors.As(err, &syntax) || (err != nil && len(trimmed) == 0) {
		// A Content-Length longer than the message swallows the start of
		// the next frame: keep the first JSON value and read the rest again.
		dec := stdjson.NewDecoder(bytes.NewReader(body))
		var first stdjson.RawMessage
		if derr := dec.Decode(&first); derr == nil && len(first) > 0 && first[0] == '{' {
			off := dec.InputOffset()
			s.log.Warn("frame body longer than its JSON message; resynchronising", "extra", len(body)-int(off))
			s.in.Unread(body[off:])
			trimmed = first
			w = wireRequest{}
			err = stdjson.Unmarshal(trimmed, &w)
		} else {
			id := scanID(body)
			s.log.Warn("invalid JSON in frame body", "id", string(id), "body", clip(body, 80))
			s.writeError(id, codeParseError, "parse error: invalid JSON")
			// A Content-Length shorter than the message leaves the rest of
			// it in front of the next frame.
			s.in.Resync()
			return nil, false
		}
	}
	invalid := func(format string, args ...any) (jsonrpc2.Message, bool) {
		id := scanID(trimmed)
		msg := fmt.Sprintf(format, args...)
		s.log.Warn("invalid JSON-RPC message", "id", string(id), "err", msg)
		s.writeError(id, codeInvalidRequest, "invalid request: "+msg)
		return nil, false
	}
	if err != nil {
		return invalid("%v", err)
	}
	if w.JSONRPC != nil && *w.JSONRPC != jsonrpc2.Version {
		return invalid("jsonrpc must be %q, not %q", jsonrpc2.Version, *w.JSONRPC)
	}
	if w.Method == nil || *w.Method == "" {
		// A response (to workspace/configuration) or nonsense.
		msg, err := jsonrpc2.DecodeMessage(trimmed)
		if err != nil {
			return invalid("%v", err)
		}
		return msg, true
	}
	if len(w.ID) == 0 || string(w.ID) == "null" {
		n, err := jsonrpc2.NewNotification(*w.Method, w.Params)
		if err != nil {
			return invalid("%v", err)
		}
		return n, true
	}
	var id jsonrpc2.ID
	var num int32
	var str string
	switch {
	case stdjson.Unmarshal(w.ID, &num) == nil:
		id = jsonrpc2.NewNumberID(num)
	case stdjson.Unmarshal(w.ID, &str) == nil:
		id = jsonrpc2.NewStringID(str)
	default:
		return invalid("id must be a string or a 32-bit integer, not %s", clip(w.ID, 40))
	}
	call, err := jsonrpc2.NewCall(id, *w.Method, w.Params)
	if err != nil {
		return invalid("%v", err)
	}
	return call, true
}

// Write implements [jsonrpc2.Stream].
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	m, ok := msg.(stdjson.Marshaler)
	if !ok {
		return 0, fmt.Errorf("message %T cannot be marshaled", msg)
	}
	data, err := m.MarshalJSON()
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeFrame(data)
}

// hold queues msg to be written with the next frame, in the same write:
// a verdict's logMessage goes out with its reply, so the client reads both
// at once (one write and one wake-up instead of two) and still has the line
// when it has the reply.
func (s *stream) hold(msg jsonrpc2.Message) error {
	m, ok := msg.(stdjson.Marshaler)
	if !ok {
		return fmt.Errorf("message %T cannot be marshaled", msg)
	}
	data, err := m.MarshalJSON()
	if err != nil {
		return fmt.Errorf("marshaling message: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held = appendFrame(s.held, data)
	return nil
}

// appendFrame appends data with its LSP header to b.
func appendFrame(b, data []byte) []byte {
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(data)), 10)
	b = append(b, "\r\n\r\n"...)
	return append(b, data...)
}

func (s *stream) writeFrame(data []byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Reset()
	s.buf.Write(s.held)
	s.held = s.held[:0]
	s.buf.WriteString("Content-Length: ")
	s.buf.WriteString(strconv.Itoa(len(data)))
	s.buf.WriteString("\r\n\r\n")
	s.buf.Write(data)
	n, err := s.out.Write(s.buf.Bytes())
	if err != nil {
		return int64(n), fmt.Errorf("writing frame: %w", err)
	}
	return int64(n), nil
}

// writeError writes an error response with a raw JSON id (null when nil).
func (s *stream) writeError(id []byte, code int, message string) {
	if id == nil {
		id = []byte("null")
	}
	msg, _ := stdjson.Marshal(message)
	data := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, msg)
	if _, err := s.writeFrame(data); err != nil {
		s.log.Error("writing error response", "err", err)
	}
}

// Close implements [jsonrpc2.Stream].
func (s *stream) Close() error {
	if s.c != nil {
		return s.c.Close()
	}
	return nil
}
