package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
)

// TestServeCancelLeavesNoRow: a classify cancelled with $/cancelRequest
// (answered -32800) has no decision log row, and every verdict sent has one,
// however the cancel races the decision (PROTOCOL.md; issue 12).
func TestServeCancelLeavesNoRow(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)
	const n = 200
	ids := make([]string, n)
	for i := range n {
		reqID := fmt.Sprintf("race-%d", i)
		ids[i] = c.send("commandSafety/classify", map[string]any{"command": "ls", "cwd": c.ws, "id": reqID})
		num, _ := strconv.Atoi(ids[i])
		// Spread the cancels over the decision: before it, during the
		// decision log write, after the reply.
		time.Sleep(time.Duration(i%20) * 100 * time.Microsecond)
		c.notify("$/cancelRequest", map[string]any{"id": num})
	}
	answered := map[string]bool{}
	cancelled := 0
	for i, id := range ids {
		m := c.wait(id)
		switch {
		case m.Error != nil && m.Error.Code == errorCodeCancelled:
			cancelled++
		case m.Error == nil:
			answered[fmt.Sprintf("race-%d", i)] = true
		default:
			t.Errorf("request %s: %s", id, m.raw)
		}
	}
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	c.exitCodeWithin(serveTimeout)

	l, err := audit.Open(filepath.Join(c.home, ".local", "state", "ml-ai", "decisions.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{Grep: "ls"})
	if err != nil {
		t.Fatal(err)
	}
	logged := map[string]bool{}
	for _, r := range rows {
		logged[r.ID] = true
	}
	stray := 0
	for id := range logged {
		if !answered[id] {
			stray++
		}
	}
	for id := range answered {
		if !logged[id] {
			t.Errorf("verdict %s was sent but has no row", id)
		}
	}
	t.Logf("%d cancelled, %d answered, %d rows", cancelled, len(answered), len(rows))
	if stray > 0 {
		t.Errorf("%d of %d cancelled requests have a decision log row", stray, cancelled)
	}
}

// TestServeConfigurationUnanswered: a client that never answers
// workspace/configuration delays only the first classify (at most 5 s), not
// every one, and the server says it decides without the client's settings.
func TestServeConfigurationUnanswered(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.ignoreConfig = true
	c.initialize(map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}})
	for i := range 3 {
		start := time.Now()
		c.classify(map[string]any{"command": "ls"})
		took := time.Since(start)
		t.Logf("classify %d: %v", i, took)
		if i == 0 && took > 7*time.Second {
			t.Errorf("the first classify waited %v, want at most about 5 s", took)
		}
		if i > 0 && took > time.Second {
			t.Errorf("classify %d waited %v for settings already given up on", i, took)
		}
	}
	if l := c.waitLog("workspace/configuration"); l.Type != messageTypeWarning {
		t.Errorf("the unanswered configuration: %+v, want a warning", l)
	}
}
