package jsonrpc

import (
	"bytes"
	"io"
	"log/slog"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// writes records each Write call separately.
type writes struct{ calls [][]byte }

func (w *writes) Write(p []byte) (int, error) {
	w.calls = append(w.calls, bytes.Clone(p))
	return len(p), nil
}

// TestHeldFrameGoesWithTheNext checks that a held message (a verdict's
// logMessage) is written in the same write as the frame after it and
// before it, and only once.
func TestHeldFrameGoesWithTheNext(t *testing.T) {
	w := &writes{}
	st := newStream(bytes.NewReader(nil), w, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	n, err := jsonrpc2.NewNotification(MethodLogMessage, map[string]any{"type": 3, "message": "ALLOW x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.hold(n); err != nil {
		t.Fatal(err)
	}
	if len(w.calls) != 0 {
		t.Fatalf("hold wrote at once: %q", w.calls)
	}
	if _, err := st.writeFrame([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.writeFrame([]byte(`{"jsonrpc":"2.0","id":2,"result":{}}`)); err != nil {
		t.Fatal(err)
	}
	if len(w.calls) != 2 {
		t.Fatalf("got %d writes, want 2: %q", len(w.calls), w.calls)
	}
	r := NewFrameReader(bytes.NewReader(w.calls[0]), 0)
	var bodies []string
	for {
		b, err := r.ReadFrame()
		if err != nil {
			break
		}
		bodies = append(bodies, string(b))
	}
	if len(bodies) != 2 || !bytes.Contains([]byte(bodies[0]), []byte(`"method":"window/logMessage"`)) || !bytes.Contains([]byte(bodies[1]), []byte(`"id":1`)) {
		t.Fatalf("first write holds %q, want the logMessage then reply 1", bodies)
	}
	if bytes.Contains(w.calls[1], []byte("logMessage")) {
		t.Fatalf("the held message was written twice: %q", w.calls[1])
	}
}
