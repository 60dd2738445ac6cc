package jsonrpc

// In-process tests of the server over pipes, so that -race sees the
// server's goroutines. The end-to-end tests of the real binary are in
// cmd/command-safety/serve_test.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

type pipeClient struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *FrameReader
	done chan int

	mu   sync.Mutex
	msgs []map[string]json.RawMessage
	cond *sync.Cond
}

func startInProcess(t *testing.T, opts Options) *pipeClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &pipeClient{t: t, in: inW, out: NewFrameReader(outR, 0), done: make(chan int, 1)}
	c.cond = sync.NewCond(&c.mu)
	go func() {
		code, _ := Serve(context.Background(), inR, outW, inR, opts)
		c.done <- code
	}()
	go func() {
		for {
			b, err := c.out.ReadFrame()
			if err != nil {
				c.mu.Lock()
				c.msgs = append(c.msgs, nil)
				c.cond.Broadcast()
				c.mu.Unlock()
				return
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Errorf("server sent %q: %v", b, err)
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.cond.Broadcast()
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			t.Errorf("server did not stop after its input closed")
		}
	})
	return c
}

func (c *pipeClient) send(v string) {
	if _, err := io.WriteString(c.in, fr(v)); err != nil {
		c.t.Fatal(err)
	}
}

// response waits for the response with raw id.
func (c *pipeClient) response(id string) map[string]json.RawMessage {
	c.t.Helper()
	deadline := time.AfterFunc(10*time.Second, func() {
		c.mu.Lock()
		c.msgs = append(c.msgs, map[string]json.RawMessage{"timeout": nil})
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer deadline.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for _, m := range c.msgs {
			if m == nil {
				c.t.Fatalf("stream ended waiting for %s", id)
			}
			if _, ok := m["timeout"]; ok {
				c.t.Fatalf("timed out waiting for %s", id)
			}
			if _, isReq := m["method"]; !isReq && string(m["id"]) == id {
				return m
			}
		}
		c.cond.Wait()
	}
}

// order returns the ids of responses in arrival order.
func (c *pipeClient) order() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ids []string
	for _, m := range c.msgs {
		if _, isReq := m["method"]; m != nil && !isReq {
			ids = append(ids, string(m["id"]))
		}
	}
	return ids
}

func (c *pipeClient) logLines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var lines []string
	for _, m := range c.msgs {
		if string(m["method"]) == `"window/logMessage"` {
			var p struct{ Message string }
			_ = json.Unmarshal(m["params"], &p)
			lines = append(lines, p.Message)
		}
	}
	return lines
}

func errorCode(t *testing.T, m map[string]json.RawMessage) int {
	t.Helper()
	var e struct{ Code int }
	if m["error"] == nil {
		t.Fatalf("no error in %v", m)
	}
	_ = json.Unmarshal(m["error"], &e)
	return e.Code
}

func classifyReq(id, command string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"commandSafety/classify","params":{"command":%q,"cwd":"/"}}`, id, command)
}

const initReq = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`

func TestInProcessConcurrencyCancelPanic(t *testing.T) {
	release := make(chan struct{})
	testHook = func(command string) {
		switch command {
		case "slow":
			<-release
		case "boom":
			panic("boom")
		}
	}
	t.Cleanup(func() { testHook = func(string) {} })
	c := startInProcess(t, Options{NoLog: true, Home: t.TempDir()})
	c.send(initReq)
	c.response("0")

	c.send(classifyReq("1", "slow"))
	c.send(classifyReq("2", "slow"))
	c.send(classifyReq("3", "ls"))
	c.response("3") // not held back by the slow ones
	c.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}`)
	if code := errorCode(t, c.response("1")); code != codeRequestCancelled {
		t.Errorf("cancelled: code %d", code)
	}
	c.send(classifyReq("4", "boom"))
	if code := errorCode(t, c.response("4")); code != codeInternalError {
		t.Errorf("panic: code %d", code)
	}
	close(release)
	c.response("2")
	got := strings.Join(c.order(), ",")
	if got != "0,3,1,4,2" {
		t.Errorf("response order %s, want 0,3,1,4,2", got)
	}
	// Verdicts logged: 3 and 2 (1 was cancelled, 4 panicked).
	time.Sleep(50 * time.Millisecond)
	if n := len(c.logLines()); n != 2 {
		t.Errorf("%d log lines, want 2: %q", n, c.logLines())
	}
	c.send(`{"jsonrpc":"2.0","id":5,"method":"shutdown"}`)
	c.response("5")
	c.send(`{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case code := <-c.done:
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
		c.done <- code
	case <-time.After(5 * time.Second):
		t.Fatal("no exit")
	}
}

func TestFormatLine(t *testing.T) {
	at := time.Date(2026, 11, 30, 8, 3, 14, 123456789, time.UTC)
	for _, tc := range []struct {
		v    gate.Verdict
		want string
	}{
		{gate.Verdict{Time: at, Decision: effects.Allow, Agent: "copilot", Rule: "read", LogID: 7, Command: "ls -la", Reason: "`ls -la` is read; the copilot budget allows read"},
			"2026-11-30T08:03:14.123Z ALLOW agent=copilot rule=read log=7 \"ls -la\" — `ls -la` is read; the copilot budget allows read"},
		{gate.Verdict{Time: at, Decision: effects.Refuse, Agent: "claude-code", Mode: "plan", Rule: "delete-outside-workspace", Command: "rm -rf ~\necho \"<ok>\"", Reason: "deletes\nhome"},
			"2026-11-30T08:03:14.123Z REFUSE agent=claude-code mode=plan rule=delete-outside-workspace \"rm -rf ~\\necho \\\"<ok>\\\"\" — deletes home"},
		{gate.Verdict{Time: at, Decision: effects.Prompt, Agent: "my agent", Rule: "empty", Command: ""},
			"2026-11-30T08:03:14.123Z PROMPT agent=\"my agent\" rule=empty \"\" — "},
	} {
		if got := FormatLine(tc.v); got != tc.want {
			t.Errorf("FormatLine:\n got %s\nwant %s", got, tc.want)
		}
	}
}

func TestParseID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"7", "7", true}, {"7.0", "7", true}, {`"a"`, "a", true},
		{"7.5", "", false}, {"99999999999", "", false}, {"null", "", false}, {"{}", "", false},
	} {
		id, ok := parseID(json.RawMessage(tc.in))
		if ok != tc.ok || ok && fmt.Sprint(id) != tc.want {
			t.Errorf("parseID(%s) = %v, %t; want %s, %t", tc.in, id, ok, tc.want, tc.ok)
		}
	}
}

func TestURIToPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"file:///home/a/ws", "/home/a/ws"},
		{"file:///home/a/my%20ws/", "/home/a/my ws"},
		{"/home/a/../b", "/home/b"},
		{"http://x/y", ""},
		{"relative", ""},
	} {
		got, err := uriToPath(tc.in)
		if (err == nil) != (tc.want != "") || got != tc.want {
			t.Errorf("uriToPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if err == nil && tc.in[0] != '/' {
			if back := pathToURI(got); back != strings.TrimSuffix(tc.in, "/") {
				t.Errorf("pathToURI(%q) = %q", got, back)
			}
		}
	}
}

// BenchmarkInProcessClassify measures sequential classify round trips over
// in-memory pipes, with and without the decision log, to split the server's
// own cost from the log's (the spawned-binary figures are in
// cmd/command-safety's BenchmarkServeClassify and bench/jsonrpc).
func BenchmarkInProcessClassify(b *testing.B) {
	for _, withLog := range []bool{false, true} {
		name := "nolog"
		if withLog {
			name = "log"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			opts := Options{NoLog: !withLog, Home: dir, LogPath: dir + "/d.db"}
			done := make(chan struct{})
			go func() {
				_, _ = Serve(context.Background(), inR, outW, inR, opts)
				close(done)
			}()
			out := NewFrameReader(outR, 0)
			roundTrip := func(req string, id string) string {
				if _, err := io.WriteString(inW, fr(req)); err != nil {
					b.Fatal(err)
				}
				for {
					body, err := out.ReadFrame()
					if err != nil {
						b.Fatal(err)
					}
					if strings.Contains(string(body), `"id":`+id+`}`) || strings.HasSuffix(string(body), `"id":`+id+`}`) {
						return string(body)
					}
				}
			}
			roundTrip(initReq, "0")
			// An allow: what agents mostly ask (with the log, recorded in
			// serve's ring).
			req := classifyReq("1", "ls")
			if reply := roundTrip(req, "1"); !strings.Contains(reply, `"decision":"allow"`) {
				b.Fatalf("ls: %s, want allow", reply)
			}
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				roundTrip(req, "1")
				lat = append(lat, time.Since(start))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "median-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			inW.Close()
			outR.Close()
			<-done
		})
	}
}

// TestClassifyShell checks the shell param of commandSafety/classify: it
// reaches the gate request, absent is unknown, and a name that is no shell
// is invalid params.
func TestClassifyShell(t *testing.T) {
	s := &Server{}
	cmd, cwd := "ls", "/"
	for shell, want := range map[string]gate.Shell{"": gate.ShellUnknown, "zsh": gate.ShellZsh, "bash": gate.ShellBash,
		"sh": gate.ShellSh, "dash": gate.ShellSh, "unknown": gate.ShellUnknown} {
		r, err := s.request(ClassifyParams{Command: &cmd, Cwd: &cwd, Shell: shell})
		if err != nil || r.Shell != want {
			t.Errorf("shell %q: request shell %s, %v; want %s", shell, r.Shell, err, want)
		}
	}
	if _, err := s.request(ClassifyParams{Command: &cmd, Cwd: &cwd, Shell: "fish"}); err == nil || !strings.Contains(err.Error(), "invalid params") {
		t.Errorf("shell fish: %v, want invalid params", err)
	}
}
