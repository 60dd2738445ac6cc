package main

// Tests of `command-safety serve` against the real binary, built once with
// `go build -o`, spoken to over pipes with Content-Length frames by a small
// client written here (independent of package jsonrpc's reader).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
)

// serveBinaries are built once per test process: the plain binary, and one
// with the cstesthooks tag (slow and panicking classify requests). The
// package's TestMain belongs to the testscript tests, so the build is lazy;
// the directory is fixed per user and overwritten each run.
var (
	buildOnce                sync.Once
	plainBin, hookBin        string
	buildErr                 error
	serveTimeout             = 20 * time.Second
	logLineRE                = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (ALLOW|PROMPT|REFUSE) agent=\S+( mode=\S+)? rule=\S+( log=\d+| id=\S+)? ".*" — .+$`)
	errorCodeCancelled       = -32800
	errorCodeNotInitialized  = -32002
	errorCodeInvalidRequest  = -32600
	errorCodeParse           = -32700
	errorCodeMethodNotFound  = -32601
	errorCodeInvalidParams   = -32602
	errorCodeInternal        = -32603
	errorCodeRequestFailed   = -32803
	messageTypeError         = 1
	messageTypeWarning       = 2
	messageTypeInfo          = 3
	defaultInitializeOptions = map[string]any{"agent": "copilot"}
)

func buildServe(t testing.TB, hooks bool) string {
	t.Helper()
	buildOnce.Do(func() {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("command-safety-serve-test-%d-%s", os.Getuid(), checkoutKey()))
		if buildErr = os.MkdirAll(dir, 0o755); buildErr != nil {
			return
		}
		build := func(name string, args ...string) (string, error) {
			out := filepath.Join(dir, name)
			tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
			cmd := exec.Command("go", append(append([]string{"build", "-o", tmp}, args...), ".")...)
			if b, err := cmd.CombinedOutput(); err != nil {
				return "", fmt.Errorf("go build %v: %v\n%s", args, err, b)
			}
			return out, os.Rename(tmp, out)
		}
		if plainBin, buildErr = build("command-safety"); buildErr != nil {
			return
		}
		hookBin, buildErr = build("command-safety-hooks", "-tags", "cstesthooks")
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	if hooks {
		return hookBin
	}
	return plainBin
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// message is any incoming JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
	raw    []byte
}

type logMessage struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// client is one spawned server and its pipes.
type client struct {
	t      testing.TB
	cmd    *exec.Cmd
	in     io.WriteCloser
	stderr *syncBuffer
	dir    string // temp root: home, workspace
	home   string
	ws     string
	nextID int

	mu        sync.Mutex
	cond      *sync.Cond
	responses map[string]message // by raw id
	order     []string           // raw ids in arrival order
	logs      []logMessage
	configReq []json.RawMessage // params of workspace/configuration requests
	held      []json.RawMessage // params of commandSafety/held notifications
	readErr   error
	exited    bool
	exitCode  int
	exitCh    chan struct{} // closed when the process has ended
	// config answers workspace/configuration (nil: answer null for each item).
	config func(items []configItem) []any
	// ignoreConfig leaves workspace/configuration unanswered.
	ignoreConfig bool
	// logPath is the decision log the server writes ("": the default one
	// under home).
	logPath string
}

// loggedRows counts the rows of the decision log that record v (see
// rowsOf).
func (c *client) loggedRows(v verdict) int { return len(c.rowsOf(v)) }

// logIDOf is the log id of v's row.
func (c *client) logIDOf(v verdict) int64 {
	c.t.Helper()
	rows := c.rowsOf(v)
	if len(rows) != 1 {
		c.t.Fatalf("%d rows for verdict %s (%q), want 1", len(rows), v.ID, v.Command)
	}
	return rows[0].LogID
}

// rowsOf returns the rows of the decision log that record v: by its log id,
// or for a verdict answered through serve's ring (no log id yet) by its
// key, which the row keeps as its request id. Opening the log takes in what
// serve's ring holds, as every reader does.
func (c *client) rowsOf(v verdict) []audit.Entry {
	c.t.Helper()
	path := c.logPath
	if path == "" {
		path = filepath.Join(c.home, ".local", "state", "ml-ai", "decisions.db")
	}
	l, err := audit.Open(path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer l.Close()
	es, err := l.Query(context.Background(), audit.Filter{Grep: v.Command})
	if err != nil {
		c.t.Fatal(err)
	}
	var out []audit.Entry
	for _, e := range es {
		if e.Command == v.Command && ((v.LogID != 0 && e.LogID == v.LogID) || (v.LogID == 0 && e.ID == v.ID)) {
			out = append(out, e)
		}
	}
	return out
}

// logRef is how a verdict's logMessage line names its row: log=ID, or
// id=KEY for a verdict answered through serve's ring.
func logRef(v verdict) string {
	if v.LogID != 0 {
		return fmt.Sprintf("log=%d", v.LogID)
	}
	return "id=" + v.ID
}

type configItem struct {
	ScopeURI string `json:"scopeUri"`
	Section  string `json:"section"`
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type serveOpts struct {
	hooks bool
	args  []string
	// files are written (relative to the temp dir) before the server starts.
	files map[string]string
}

// startServe spawns the server with HOME and XDG_* inside a temp dir that
// also holds a workspace root "ws".
func startServe(t testing.TB, o serveOpts) *client {
	t.Helper()
	bin := buildServe(t, o.hooks)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	ws := filepath.Join(dir, "ws")
	for _, d := range []string{home, ws} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range o.files {
		writeFile(t, filepath.Join(dir, name), content)
	}
	cmd := exec.Command(bin, append([]string{"serve"}, o.args...)...)
	cmd.Dir = ws
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
	}
	c := &client{t: t, cmd: cmd, dir: dir, home: home, ws: ws, stderr: &syncBuffer{}, responses: map[string]message{}, exitCh: make(chan struct{})}
	c.cond = sync.NewCond(&c.mu)
	cmd.Stderr = c.stderr
	// Our own pipes: exec's would be closed by Wait before the last frames
	// are read.
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	c.in = inW
	go c.readLoop(outR)
	go func() {
		_ = cmd.Wait()
		c.mu.Lock()
		c.exited, c.exitCode = true, cmd.ProcessState.ExitCode()
		c.mu.Unlock()
		close(c.exitCh)
	}()
	t.Cleanup(func() {
		c.in.Close()
		select {
		case <-c.exitCh:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-c.exitCh
		}
		outR.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", c.stderr.String())
		}
		if s := c.stderr.String(); strings.Contains(s, "panic:") || strings.Contains(s, "DATA RACE") {
			t.Errorf("server crashed:\n%s", s)
		}
	})
	return c
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeAtomic saves like an editor: a temp file renamed over the target.
func writeAtomic(t testing.TB, path, content string) {
	t.Helper()
	tmp := path + ".tmp~"
	writeFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// readLoop reads frames from the server's stdout. It is deliberately strict:
// any framing error from the server is a test failure.
func (c *client) readLoop(out io.Reader) {
	r := bufio.NewReader(out)
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				c.finish(err)
				return
			}
			if !strings.HasSuffix(line, "\r\n") {
				c.finish(fmt.Errorf("header line without CRLF: %q", line))
				return
			}
			line = strings.TrimSuffix(line, "\r\n")
			if line == "" {
				break
			}
			v, ok := strings.CutPrefix(line, "Content-Length: ")
			if !ok {
				c.finish(fmt.Errorf("unexpected header %q", line))
				return
			}
			if length, err = strconv.Atoi(v); err != nil {
				c.finish(fmt.Errorf("bad length %q", v))
				return
			}
		}
		if length < 0 {
			c.finish(fmt.Errorf("frame without Content-Length"))
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			c.finish(err)
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.finish(fmt.Errorf("server sent invalid JSON %q: %v", body, err))
			return
		}
		m.raw = body
		c.dispatch(m)
	}
}

func (c *client) finish(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != io.EOF {
		c.readErr = err
	}
	if c.readErr == nil {
		c.readErr = io.EOF
	}
	c.cond.Broadcast()
}

func (c *client) dispatch(m message) {
	switch {
	case m.Method == "window/logMessage":
		var lm logMessage
		if err := json.Unmarshal(m.Params, &lm); err != nil {
			c.finish(fmt.Errorf("bad logMessage %s", m.raw))
			return
		}
		c.mu.Lock()
		c.logs = append(c.logs, lm)
		c.cond.Broadcast()
		c.mu.Unlock()
	case m.Method == "commandSafety/held":
		c.mu.Lock()
		c.held = append(c.held, m.Params)
		c.cond.Broadcast()
		c.mu.Unlock()
	case m.Method == "workspace/configuration":
		var p struct {
			Items []configItem `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		c.mu.Lock()
		c.configReq = append(c.configReq, m.Params)
		answer, ignore := c.config, c.ignoreConfig
		c.cond.Broadcast()
		c.mu.Unlock()
		if ignore {
			return
		}
		result := make([]any, len(p.Items))
		if answer != nil {
			result = answer(p.Items)
		}
		c.sendRaw(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	case m.Method != "":
		c.finish(fmt.Errorf("unexpected message from server: %s", m.raw))
	default:
		c.mu.Lock()
		key := string(m.ID)
		c.responses[key] = m
		c.order = append(c.order, key)
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// waitFor waits until cond (called with c.mu held) holds, failing after timeout.
func (c *client) waitFor(what string, timeout time.Duration, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		if c.readErr != nil && c.readErr != io.EOF {
			c.t.Fatalf("waiting for %s: %v", what, c.readErr)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out after %v waiting for %s (read: %v)", timeout, what, c.readErr)
		}
		c.cond.Wait()
	}
}

func (c *client) sendRaw(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	c.writeBytes(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(b), b))
}

func (c *client) writeBytes(b []byte) {
	if _, err := c.in.Write(b); err != nil {
		c.t.Errorf("writing to server: %v", err)
	}
}

// send sends a request with a fresh numeric id and returns the raw id.
func (c *client) send(method string, params any) string {
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.sendRaw(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	return id
}

func (c *client) notify(method string, params any) {
	c.sendRaw(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// wait returns the response with raw id.
func (c *client) wait(id string) message {
	c.t.Helper()
	var m message
	c.waitFor("response "+id, serveTimeout, func() bool {
		var ok bool
		m, ok = c.responses[id]
		return ok
	})
	return m
}

// call sends a request and waits for its result, failing on an error reply.
func (c *client) call(method string, params any, result any) {
	c.t.Helper()
	m := c.wait(c.send(method, params))
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
		}
	}
}

// callErr sends a request and returns its error, failing on a result.
func (c *client) callErr(method string, params any) *rpcError {
	c.t.Helper()
	m := c.wait(c.send(method, params))
	if m.Error == nil {
		c.t.Fatalf("%s: want an error, got result %s", method, m.Result)
	}
	return m.Error
}

func (c *client) initialize(extra map[string]any) {
	c.t.Helper()
	params := map[string]any{
		"processId":             nil,
		"rootUri":               "file://" + c.ws,
		"capabilities":          map[string]any{},
		"initializationOptions": defaultInitializeOptions,
	}
	for k, v := range extra {
		params[k] = v
	}
	var res struct {
		ServerInfo struct{ Name string } `json:"serverInfo"`
	}
	c.call("initialize", params, &res)
	if res.ServerInfo.Name != "command-safety" {
		c.t.Errorf("serverInfo.name = %q", res.ServerInfo.Name)
	}
	c.notify("initialized", map[string]any{})
}

// verdict is the part of a verdict the tests read.
type verdict struct {
	ID                    string   `json:"id"`
	LogID                 int64    `json:"logId"`
	Time                  string   `json:"time"`
	Command               string   `json:"command"`
	Cwd                   string   `json:"cwd"`
	Workspaces            []string `json:"workspaces"`
	Agent                 string   `json:"agent"`
	Mode                  string   `json:"mode"`
	Decision              string   `json:"decision"`
	Rule                  string   `json:"rule"`
	Reason                string   `json:"reason"`
	ClassificationEnabled bool     `json:"classificationEnabled"`
	Effects               []struct {
		Effect string `json:"effect"`
		Text   string `json:"text"`
		Span   [2]int `json:"span"`
	} `json:"effects"`
	DecidedBy *struct {
		Effect string `json:"effect"`
		Text   string `json:"text"`
	} `json:"decidedBy"`
	Micros *int64 `json:"micros"`
	Line   string `json:"line"`
}

func (c *client) classify(params map[string]any) verdict {
	c.t.Helper()
	if _, ok := params["cwd"]; !ok {
		params["cwd"] = c.ws
	}
	var v verdict
	c.call("commandSafety/classify", params, &v)
	return v
}

func (c *client) logCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.logs)
}

func (c *client) logsSnapshot() []logMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]logMessage(nil), c.logs...)
}

// waitLog waits for a logMessage whose text contains substr.
func (c *client) waitLog(substr string) logMessage {
	c.t.Helper()
	var found logMessage
	c.waitFor("logMessage containing "+substr, serveTimeout, func() bool {
		for _, l := range c.logs {
			if strings.Contains(l.Message, substr) {
				found = l
				return true
			}
		}
		return false
	})
	return found
}

// exitCodeWithin waits for the process to end and returns its exit code,
// failing if it does not end within d.
func (c *client) exitCodeWithin(d time.Duration) int {
	c.t.Helper()
	select {
	case <-c.exitCh:
	case <-time.After(d):
		c.t.Fatalf("server still running %v later", d)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.exitCode
}

func TestServeLifecycle(t *testing.T) {
	c := startServe(t, serveOpts{})
	if e := c.callErr("commandSafety/classify", map[string]any{"command": "ls", "cwd": c.ws}); e.Code != errorCodeNotInitialized {
		t.Errorf("classify before initialize: code %d, want %d", e.Code, errorCodeNotInitialized)
	}
	if e := c.callErr("shutdown", nil); e.Code != errorCodeNotInitialized {
		t.Errorf("shutdown before initialize: code %d, want %d", e.Code, errorCodeNotInitialized)
	}
	c.initialize(nil)
	if e := c.callErr("initialize", map[string]any{"capabilities": map[string]any{}}); e.Code != errorCodeInvalidRequest {
		t.Errorf("second initialize: code %d, want %d", e.Code, errorCodeInvalidRequest)
	}
	v := c.classify(map[string]any{"command": "ls"})
	if v.Command != "ls" || v.Agent != "copilot" || v.Cwd != c.ws {
		t.Errorf("verdict %+v: want command ls, agent copilot (initializationOptions), cwd %s", v, c.ws)
	}
	if len(v.Workspaces) != 1 || v.Workspaces[0] != c.ws {
		t.Errorf("workspaces %v, want [%s] from rootUri", v.Workspaces, c.ws)
	}
	c.call("shutdown", nil, nil)
	if e := c.callErr("commandSafety/classify", map[string]any{"command": "ls", "cwd": c.ws}); e.Code != errorCodeInvalidRequest {
		t.Errorf("classify after shutdown: code %d, want %d", e.Code, errorCodeInvalidRequest)
	}
	start := time.Now()
	c.notify("exit", nil)
	if code := c.exitCodeWithin(5 * time.Second); code != 0 {
		t.Errorf("exit after shutdown: code %d, want 0", code)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("exit took %v", d)
	}
}

func TestServeExitCodes(t *testing.T) {
	t.Run("exit without shutdown", func(t *testing.T) {
		c := startServe(t, serveOpts{})
		c.initialize(nil)
		c.notify("exit", nil)
		if code := c.exitCodeWithin(5 * time.Second); code != 1 {
			t.Errorf("code %d, want 1", code)
		}
	})
	t.Run("exit before initialize", func(t *testing.T) {
		c := startServe(t, serveOpts{})
		c.notify("exit", nil)
		if code := c.exitCodeWithin(5 * time.Second); code != 1 {
			t.Errorf("code %d, want 1", code)
		}
	})
	t.Run("stdin closed", func(t *testing.T) {
		c := startServe(t, serveOpts{})
		c.initialize(nil)
		c.in.Close()
		if code := c.exitCodeWithin(5 * time.Second); code == 0 {
			t.Errorf("code 0, want non-zero")
		}
		if s := c.stderr.String(); !strings.Contains(s, "input closed before the exit notification") {
			t.Errorf("stderr does not say why:\n%s", s)
		}
	})
	t.Run("stdin closed after shutdown", func(t *testing.T) {
		c := startServe(t, serveOpts{})
		c.initialize(nil)
		c.call("shutdown", nil, nil)
		c.in.Close()
		if code := c.exitCodeWithin(5 * time.Second); code != 0 {
			t.Errorf("code %d, want 0", code)
		}
	})
	t.Run("bad flag", func(t *testing.T) {
		out, err := exec.Command(buildServe(t, false), "serve", "--nope").CombinedOutput()
		if code := procExitCode(err); code != exitUsage {
			t.Errorf("code %d, want %d; output:\n%s", code, exitUsage, out)
		}
	})
}

func procExitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

func TestServeClassify(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)

	v := c.classify(map[string]any{"command": "ls -la", "id": "req-1"})
	if v.Decision != "allow" || v.Rule != "read" || !v.ClassificationEnabled {
		t.Errorf("ls -la: %s rule %s enabled %t, want allow read true (%s)", v.Decision, v.Rule, v.ClassificationEnabled, v.Reason)
	}
	// An allow is on record in serve's ring when it is answered: no log id
	// yet, the caller's id kept as the row's request id.
	if v.ID != "req-1" || v.LogID != 0 || v.Micros == nil || v.Time == "" || v.DecidedBy == nil {
		t.Errorf("verdict fields missing: %+v", v)
	}
	if n := c.loggedRows(v); n != 1 {
		t.Errorf("ls -la: %d rows in the log, want 1", n)
	}

	v = c.classify(map[string]any{"command": "rm -rf ~"})
	if v.Decision != "refuse" || v.DecidedBy == nil || v.DecidedBy.Text != "rm -rf ~" {
		t.Errorf("rm -rf ~: %s %s, want refuse decided by the rm (%s)", v.Decision, v.Rule, v.Reason)
	}
	// An unknown program is opaque-medium: the default budget prompts.
	v = c.classify(map[string]any{"command": "frobnicate --all"})
	if v.Decision != "prompt" || v.Rule != "opaque-medium" {
		t.Errorf("frobnicate: %s %s, want prompt opaque-medium (%s)", v.Decision, v.Rule, v.Reason)
	}
	// Agent and mode from params; the mode only tightens.
	v = c.classify(map[string]any{"command": "touch a", "agent": "claude-code", "mode": "plan"})
	if v.Agent != "claude-code" || v.Mode != "plan" || v.Decision != "refuse" {
		t.Errorf("touch a in plan mode: %+v, want claude-code plan refuse", v)
	}
	// workspaceFolders in params replace the roots: the same file outside.
	other := filepath.Join(c.dir, "other")
	v = c.classify(map[string]any{"command": "touch a", "workspaceFolders": []any{other}, "cwd": c.ws})
	if len(v.Workspaces) != 1 || v.Workspaces[0] != other {
		t.Errorf("workspaces %v, want [%s]", v.Workspaces, other)
	}
	v = c.classify(map[string]any{"command": "", "cwd": "file://" + c.ws})
	if v.Decision == "allow" || v.Cwd != c.ws {
		t.Errorf("empty command: %s cwd %s, want not allow, cwd %s", v.Decision, v.Cwd, c.ws)
	}

	// The log file is where XDG_STATE_HOME says.
	if _, err := os.Stat(filepath.Join(c.home, ".local", "state", "ml-ai", "decisions.db")); err != nil {
		t.Errorf("decision log not at the default path: %v", err)
	}
}

func TestServeBadParams(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)
	for _, tc := range []struct {
		name, method string
		params       any
		code         int
		want         string
	}{
		{"unknown method", "commandSafety/nope", map[string]any{}, errorCodeMethodNotFound, "commandSafety/nope"},
		{"no params", "commandSafety/classify", nil, errorCodeInvalidParams, "needs params"},
		{"params not an object", "commandSafety/classify", []any{1, 2}, errorCodeInvalidParams, "invalid params"},
		{"command missing", "commandSafety/classify", map[string]any{"cwd": "/"}, errorCodeInvalidParams, "command is required"},
		{"command not a string", "commandSafety/classify", map[string]any{"command": 5, "cwd": "/"}, errorCodeInvalidParams, "invalid params"},
		{"cwd missing", "commandSafety/classify", map[string]any{"command": "ls"}, errorCodeInvalidParams, "cwd is required"},
		{"cwd relative", "commandSafety/classify", map[string]any{"command": "ls", "cwd": "src"}, errorCodeInvalidParams, "must be absolute"},
		{"unknown mode", "commandSafety/classify", map[string]any{"command": "ls", "cwd": "/", "mode": "yolo"}, errorCodeInvalidParams, `unknown mode "yolo"`},
		{"bad folder", "commandSafety/classify", map[string]any{"command": "ls", "cwd": "/", "workspaceFolders": []any{"http://x/y"}}, errorCodeInvalidParams, "workspace folder"},
		{"resolve bad outcome", "commandSafety/resolve", map[string]any{"id": 1, "outcome": "maybe", "reviewer": "me"}, errorCodeInvalidParams, "outcome"},
		{"resolve no reviewer", "commandSafety/resolve", map[string]any{"id": 1, "outcome": "approved"}, errorCodeInvalidParams, "reviewer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := c.callErr(tc.method, tc.params)
			if e.Code != tc.code || !strings.Contains(e.Message, tc.want) {
				t.Errorf("error %d %q, want %d containing %q", e.Code, e.Message, tc.code, tc.want)
			}
		})
	}
	// Still serving.
	c.classify(map[string]any{"command": "ls"})
}

func TestServeUnknownModeFromInitializationOptions(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(map[string]any{"initializationOptions": map[string]any{"mode": "turbo"}})
	e := c.callErr("commandSafety/classify", map[string]any{"command": "ls", "cwd": c.ws})
	if e.Code != errorCodeInvalidParams || !strings.Contains(e.Message, `"turbo" (from initializationOptions)`) {
		t.Errorf("error %d %q", e.Code, e.Message)
	}
	// A mode in params overrides it.
	v := c.classify(map[string]any{"command": "ls", "mode": "autopilot"})
	if v.Mode != "autopilot" {
		t.Errorf("mode %q", v.Mode)
	}
}

// TestServeLogMessagePerVerdict: one window/logMessage per verdict, of the
// decision's type; a client that asks for verdictLine gets the same line
// in the reply's `line` instead, and no logMessage.
func TestServeLogMessagePerVerdict(t *testing.T) {
	for _, inReply := range []bool{false, true} {
		t.Run(fmt.Sprintf("verdictLine=%v", inReply), func(t *testing.T) { testVerdictLines(t, inReply) })
	}
}

func testVerdictLines(t *testing.T, inReply bool) {
	c := startServe(t, serveOpts{})
	c.initialize(map[string]any{"initializationOptions": map[string]any{"agent": "copilot", "verdictLine": inReply}})
	// Settings may log at start; count from here.
	before := c.logCount()
	commands := []string{"ls", "frobnicate --all", "rm -rf ~", "git status", "echo one\necho two"}
	var verdicts []verdict
	for _, cmd := range commands {
		verdicts = append(verdicts, c.classify(map[string]any{"command": cmd}))
	}
	logs := c.logsSnapshot()[before:]
	wantType := map[string]int{"allow": messageTypeInfo, "prompt": messageTypeWarning, "refuse": messageTypeError}
	if inReply {
		if len(logs) != 0 {
			t.Fatalf("%d logMessages with verdictLine, want none: %+v", len(logs), logs)
		}
		for _, v := range verdicts {
			logs = append(logs, logMessage{Type: wantType[v.Decision], Message: v.Line})
		}
	} else {
		for _, v := range verdicts {
			if v.Line != "" {
				t.Errorf("%q: a line in the reply the client did not ask for", v.Command)
			}
		}
	}
	if len(logs) != len(commands) {
		t.Fatalf("%d logMessages for %d verdicts: %+v", len(logs), len(commands), logs)
	}
	for i, l := range logs {
		v := verdicts[i]
		if l.Type != wantType[v.Decision] {
			t.Errorf("%q: type %d, want %d for %s", v.Command, l.Type, wantType[v.Decision], v.Decision)
		}
		if strings.Contains(l.Message, "\n") || !logLineRE.MatchString(l.Message) {
			t.Errorf("line %q does not match %s", l.Message, logLineRE)
		}
		quoted, _ := json.Marshal(v.Command)
		for _, want := range []string{strings.ToUpper(v.Decision), "agent=" + v.Agent, "rule=" + v.Rule, string(quoted), logRef(v)} {
			if !strings.Contains(l.Message, want) {
				t.Errorf("line %q lacks %q", l.Message, want)
			}
		}
	}
}

func userSettingsPath(c *client) string {
	return filepath.Join(c.home, ".config", "Code", "User", "settings.json")
}

func TestServeSettingsFilesWatched(t *testing.T) {
	c := startServe(t, serveOpts{files: map[string]string{
		"home/.config/Code/User/settings.json": "{\n  // JSONC\n  \"ml-ai.commandSafety\": true,\n}\n",
	}})
	c.initialize(nil)
	if v := c.classify(map[string]any{"command": "ls"}); !v.ClassificationEnabled || v.Decision != "allow" {
		t.Fatalf("before: enabled %t decision %s", v.ClassificationEnabled, v.Decision)
	}
	writeAtomic(t, userSettingsPath(c), `{"ml-ai.commandSafety": false}`)
	c.waitLog("commandSafety is now false")
	v := c.classify(map[string]any{"command": "ls"})
	if v.ClassificationEnabled || v.Decision != "prompt" {
		t.Errorf("after toggling off: enabled %t decision %s, want false prompt", v.ClassificationEnabled, v.Decision)
	}
	// A file that does not parse keeps the last good settings and says so once.
	writeAtomic(t, userSettingsPath(c), `{"ml-ai.commandSafety": true,,, oops`)
	l := c.waitLog("keeping this file's last good settings")
	if l.Type != messageTypeError {
		t.Errorf("parse problem type %d, want %d", l.Type, messageTypeError)
	}
	if v := c.classify(map[string]any{"command": "ls"}); v.ClassificationEnabled {
		t.Errorf("a broken file loosened the gate")
	}
	// User budgets apply.
	writeAtomic(t, userSettingsPath(c), `{"ml-ai.agentBudgets": {"copilot": {"opaque-medium": "allow"}}}`)
	c.waitLog("commandSafety is now true")
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := c.classify(map[string]any{"command": "frobnicate --all"})
		if v.Decision == "allow" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("user budget not applied: %s %s", v.Decision, v.Reason)
		}
		time.Sleep(50 * time.Millisecond)
	}
	n := 0
	for _, l := range c.logsSnapshot() {
		if strings.Contains(l.Message, "keeping this file's last good settings") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("parse problem reported %d times, want once", n)
	}
}

func TestServeWorkspaceOnlyTightens(t *testing.T) {
	c := startServe(t, serveOpts{files: map[string]string{
		"home/.config/Code/User/settings.json": `{"ml-ai.agentBudgets": {"copilot": {"opaque-medium": "prompt"}}}`,
		// A cloned repository tries to loosen opaque-medium and tightens read.
		"ws/.vscode/settings.json": `{"ml-ai.agentBudgets": {"copilot": {"opaque-medium": "allow", "read": "refuse"}}}`,
	}})
	c.initialize(nil)
	w := c.waitLog("opaque-medium")
	if w.Type != messageTypeWarning {
		t.Errorf("looser workspace entry: type %d, want warning: %s", w.Type, w.Message)
	}
	if v := c.classify(map[string]any{"command": "frobnicate --all"}); v.Decision != "prompt" {
		t.Errorf("workspace loosened opaque-medium: %s", v.Decision)
	}
	if v := c.classify(map[string]any{"command": "ls"}); v.Decision != "refuse" || v.Rule != "read" {
		t.Errorf("workspace tightening of read not applied: %s %s", v.Decision, v.Rule)
	}
	// Workspace commandSafety: false applies (stricter), saved atomically.
	writeAtomic(t, filepath.Join(c.ws, ".vscode", "settings.json"), `{"ml-ai.commandSafety": false}`)
	c.waitLog("commandSafety is now false")
	if v := c.classify(map[string]any{"command": "git status"}); v.ClassificationEnabled || v.Decision != "prompt" {
		t.Errorf("workspace toggle off: enabled %t %s", v.ClassificationEnabled, v.Decision)
	}
}

func TestServeClientConfiguration(t *testing.T) {
	c := startServe(t, serveOpts{})
	enabled := false
	c.config = func(items []configItem) []any {
		c.mu.Lock()
		defer c.mu.Unlock()
		out := make([]any, len(items))
		out[0] = map[string]any{"commandSafety": enabled, "agentBudgets": map[string]any{
			"careful": map[string]any{"read": "prompt"},
		}, "bogusKey": 1}
		return out
	}
	c.initialize(map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}})
	// The first classify waits for the answer to workspace/configuration:
	// its mode is a budget defined there.
	if v := c.classify(map[string]any{"command": "ls", "mode": "careful"}); v.ClassificationEnabled || v.Mode != "careful" {
		t.Errorf("client settings not applied to the first classify: %+v", v)
	}
	c.mu.Lock()
	req := c.configReq[0]
	c.mu.Unlock()
	var p struct {
		Items []configItem `json:"items"`
	}
	if err := json.Unmarshal(req, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 || p.Items[0].Section != "ml-ai" || p.Items[0].ScopeURI != "" ||
		p.Items[1].ScopeURI != "file://"+c.ws || p.Items[1].Section != "ml-ai" {
		t.Errorf("configuration items %+v, want user scope then the folder", p.Items)
	}
	c.mu.Lock()
	enabled = true
	c.mu.Unlock()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	c.waitLog("commandSafety is now true")
	if v := c.classify(map[string]any{"command": "ls"}); !v.ClassificationEnabled {
		t.Errorf("didChangeConfiguration not picked up")
	}
	// A bad key is reported once per change of the section, not at every
	// fetch of the same content.
	if l := c.waitLog("bogusKey"); l.Type != messageTypeError {
		t.Errorf("bad key: type %d: %s", l.Type, l.Message)
	}
	countLocked := func() int { // c.mu held
		n := 0
		for _, l := range c.logs {
			if strings.Contains(l.Message, "bogusKey") {
				n++
			}
		}
		return n
	}
	count := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return countLocked()
	}
	// Both answers so far changed the section (commandSafety false, then
	// true), so each reported the bad key; the second report may still be
	// on its way when the first is seen.
	c.waitFor("the bad key reported for each change of the section", serveTimeout, func() bool { return countLocked() >= 2 })
	before := count()
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	c.waitFor("a third workspace/configuration", serveTimeout, func() bool { return len(c.configReq) >= 3 })
	// Wait until the server has applied the third answer (it logs each).
	for deadline := time.Now().Add(serveTimeout); strings.Count(c.stderr.String(), "msg=settings commandSafety") < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("third answer not applied:\n%s", c.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.classify(map[string]any{"command": "ls"})
	if n := count(); n != before {
		t.Errorf("bad key reported again for an unchanged section (%d, then %d)", before, n)
	}
	// Files are not read in this mode.
	writeAtomic(t, userSettingsPath(c), `{"ml-ai.commandSafety": false}`)
	time.Sleep(300 * time.Millisecond)
	if v := c.classify(map[string]any{"command": "ls"}); !v.ClassificationEnabled {
		t.Errorf("settings file read although the client answers workspace/configuration")
	}
}

func TestServeWorkspaceFoldersChange(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(map[string]any{"workspaceFolders": []any{map[string]any{"uri": "file://" + c.ws, "name": "ws"}}})
	other := filepath.Join(c.dir, "other")
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []any{map[string]any{"uri": "file://" + other, "name": "other"}},
		"removed": []any{map[string]any{"uri": "file://" + c.ws, "name": "ws"}},
	}})
	v := c.classify(map[string]any{"command": "ls"})
	if len(v.Workspaces) != 1 || v.Workspaces[0] != other {
		t.Errorf("workspaces %v, want [%s]", v.Workspaces, other)
	}
}

// frame wraps body in a Content-Length frame.
func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

func TestServeBadInput(t *testing.T) {
	classify := func(id string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"commandSafety/classify","params":{"command":"ls","cwd":"/"}}`, id)
	}
	big := `{"jsonrpc":"2.0","id":"big","method":"commandSafety/classify","params":{"command":"` + strings.Repeat("a", 1<<20) + `","cwd":"/"}}`
	for _, tc := range []struct {
		name string
		in   string
		// wantID/wantCode: the error reply expected (id as raw JSON); "" for none.
		wantID   string
		wantCode int
		// served: a request in the bad input that is still answered.
		served string
	}{
		{"invalid JSON", frame(`{"jsonrpc":"2.0","id":`), "null", errorCodeParse, ""},
		{"invalid JSON with id", frame(`{"jsonrpc":"2.0","id":41,"method":"x",`), "41", errorCodeParse, ""},
		{"not a request", frame(`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`), "null", errorCodeInvalidRequest, ""},
		{"wrong version", frame(`{"jsonrpc":"1.0","id":42,"method":"commandSafety/classify"}`), "42", errorCodeInvalidRequest, ""},
		{"id out of range", frame(`{"jsonrpc":"2.0","id":99999999999,"method":"x"}`), "99999999999", errorCodeInvalidRequest, ""},
		{"batch", frame(`[` + classify("43") + `]`), "null", errorCodeInvalidRequest, ""},
		{"oversized frame", frame(big), `"big"`, errorCodeInvalidRequest, ""},
		{"length too short", "Content-Length: 20\r\n\r\n" + classify("44"), "null", errorCodeParse, ""},
		{"length too long", fmt.Sprintf("Content-Length: %d\r\n\r\n", len(classify("45"))+12) + classify("45"), "", 0, "45"},
		{"missing length", "Content-Type: application/json\r\n\r\n" + classify("46"), "", 0, ""},
		{"bad length", "Content-Length: ten\r\n\r\n" + classify("47"), "", 0, ""},
		{"negative length", "Content-Length: -5\r\n\r\n" + classify("48"), "", 0, ""},
		{"garbage line", "hello there\r\n", "", 0, ""},
		{"unknown notification", frame(`{"jsonrpc":"2.0","method":"$/somethingElse","params":{}}`), "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := startServe(t, serveOpts{})
			c.initialize(nil)
			c.writeBytes([]byte(tc.in))
			// The server keeps serving: a well-formed request right after.
			c.writeBytes([]byte(frame(classify("1000"))))
			if m := c.wait("1000"); m.Error != nil {
				t.Fatalf("request after bad input failed: %+v", m.Error)
			}
			if tc.wantID != "" {
				m := c.wait(tc.wantID)
				if m.Error == nil || m.Error.Code != tc.wantCode {
					t.Errorf("reply %s, want error %d", m.raw, tc.wantCode)
				}
			}
			if tc.served != "" {
				if m := c.wait(tc.served); m.Error != nil {
					t.Errorf("request %s not served: %s", tc.served, m.raw)
				}
			}
			c.mu.Lock()
			order := append([]string(nil), c.order...)
			c.mu.Unlock()
			for _, id := range order {
				// Requests swallowed by a bad frame are never answered as
				// if they had succeeded, and nothing else is answered.
				if id != "1" && id != "1000" && id != tc.wantID && id != tc.served {
					t.Errorf("unexpected reply id %s", id)
				}
			}
			c.call("shutdown", nil, nil)
			c.notify("exit", nil)
			if code := c.exitCodeWithin(5 * time.Second); code != 0 {
				t.Errorf("exit code %d", code)
			}
		})
	}
}

func TestServeUnrecoverableInput(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)
	garbage := bytes.Repeat([]byte("garbage with no header at all\r\n"), (1<<20)/30+10)
	go c.in.Write(garbage)
	if code := c.exitCodeWithin(10 * time.Second); code == 0 {
		t.Errorf("exit code 0 after unrecoverable garbage")
	}
	if s := c.stderr.String(); !strings.Contains(s, "without a Content-Length header") {
		t.Errorf("stderr does not say why:\n%s", s)
	}
}

func TestServeConcurrentRequests(t *testing.T) {
	c := startServe(t, serveOpts{hooks: true})
	c.initialize(nil)
	slow := c.send("commandSafety/classify", map[string]any{"command": "#cstest-sleep=4000 ls", "cwd": c.ws})
	var fast []string
	for range 5 {
		fast = append(fast, c.send("commandSafety/classify", map[string]any{"command": "ls", "cwd": c.ws}))
	}
	for _, id := range fast {
		if m := c.wait(id); m.Error != nil {
			t.Fatal(m.Error)
		}
	}
	c.mu.Lock()
	_, slowDone := c.responses[slow]
	c.mu.Unlock()
	if slowDone {
		t.Errorf("the slow request finished before the fast ones: not concurrent?")
	}
	if m := c.wait(slow); m.Error != nil {
		t.Errorf("slow request: %+v", m.Error)
	}
	c.mu.Lock()
	last := c.order[len(c.order)-1]
	c.mu.Unlock()
	if last != slow {
		t.Errorf("reply order %v: the slow request %s should be last", c.order, slow)
	}
}

func TestServeCancel(t *testing.T) {
	c := startServe(t, serveOpts{hooks: true})
	c.initialize(nil)
	before := c.logCount()
	id := c.send("commandSafety/classify", map[string]any{"command": "#cstest-sleep=3000 ls", "cwd": c.ws})
	n, _ := strconv.Atoi(id)
	start := time.Now()
	c.notify("$/cancelRequest", map[string]any{"id": n})
	m := c.wait(id)
	if m.Error == nil || m.Error.Code != errorCodeCancelled {
		t.Fatalf("cancelled request: %s, want error %d", m.raw, errorCodeCancelled)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	// A string id works too.
	c.sendRaw(map[string]any{"jsonrpc": "2.0", "id": "s-1", "method": "commandSafety/classify",
		"params": map[string]any{"command": "#cstest-sleep=3000 ls", "cwd": c.ws}})
	c.notify("$/cancelRequest", map[string]any{"id": "s-1"})
	if m := c.wait(`"s-1"`); m.Error == nil || m.Error.Code != errorCodeCancelled {
		t.Errorf("string id: %s", m.raw)
	}
	// Cancelling something unknown or finished is harmless.
	c.notify("$/cancelRequest", map[string]any{"id": 12345})
	c.classify(map[string]any{"command": "ls"})
	time.Sleep(3500 * time.Millisecond) // let the cancelled work finish
	c.classify(map[string]any{"command": "ls"})
	if got := c.logCount() - before; got != 2 {
		t.Errorf("%d logMessages, want 2 (cancelled requests have no verdict)", got)
	}
}

func TestServePanicBecomesError(t *testing.T) {
	c := startServe(t, serveOpts{hooks: true})
	c.initialize(nil)
	e := c.callErr("commandSafety/classify", map[string]any{"command": "#cstest-panic", "cwd": c.ws})
	if e.Code != errorCodeInternal || !strings.Contains(e.Message, "test panic") {
		t.Errorf("error %d %q", e.Code, e.Message)
	}
	c.classify(map[string]any{"command": "ls"})
	if !strings.Contains(c.stderr.String(), "handler panic") {
		t.Errorf("panic not logged on stderr")
	}
}

func TestServeResolve(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)
	p := c.classify(map[string]any{"command": "frobnicate --all"})
	a := c.classify(map[string]any{"command": "ls"})
	if p.Decision != "prompt" || p.LogID == 0 || a.LogID != 0 || c.loggedRows(a) != 1 {
		t.Fatalf("setup: %+v %+v", p, a)
	}
	aID := c.logIDOf(a)
	var res struct {
		ID      int64  `json:"id"`
		Outcome string `json:"outcome"`
	}
	c.call("commandSafety/resolve", map[string]any{"id": p.LogID, "outcome": "approved", "reviewer": "ada"}, &res)
	if res.ID != p.LogID || res.Outcome != "approved" {
		t.Errorf("result %+v", res)
	}
	for _, tc := range []struct {
		name string
		id   int64
		want string
	}{
		{"twice", p.LogID, "approved by ada"},
		{"not a prompt", aID, "status auto"},
		{"unknown", 999999, "no such"},
	} {
		e := c.callErr("commandSafety/resolve", map[string]any{"id": tc.id, "outcome": "rejected", "reviewer": "bob"})
		if e.Code != errorCodeRequestFailed || !strings.Contains(e.Message, tc.want) {
			t.Errorf("%s: error %d %q, want %d containing %q", tc.name, e.Code, e.Message, errorCodeRequestFailed, tc.want)
		}
	}
}

func TestServeLogFlagAndFailure(t *testing.T) {
	t.Run("--log", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "sub", "my.db")
		c := startServe(t, serveOpts{args: []string{"--log", path}})
		c.logPath = path
		c.initialize(nil)
		if v := c.classify(map[string]any{"command": "ls"}); c.loggedRows(v) != 1 {
			t.Errorf("not logged")
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("--log ignored: %v", err)
		}
		// The log is part of the permission-rule store.
		if v := c.classify(map[string]any{"command": "rm -f " + path}); v.Decision != "refuse" || v.Rule != "rule-store-modification" {
			t.Errorf("rm of the decision log: %s %s, want refuse rule-store-modification", v.Decision, v.Rule)
		}
	})
	t.Run("setting", func(t *testing.T) {
		c := startServe(t, serveOpts{})
		// Settings files are read at initialize.
		path := filepath.Join(c.dir, "fromsetting.db")
		writeFile(t, userSettingsPath(c), `{"ml-ai.decisionLog": `+strconv.Quote(path)+`}`)
		c.logPath = path
		c.initialize(nil)
		if v := c.classify(map[string]any{"command": "ls"}); c.loggedRows(v) != 1 {
			t.Errorf("not logged")
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("ml-ai.decisionLog ignored: %v", err)
		}
	})
	t.Run("unwritable", func(t *testing.T) {
		dir := t.TempDir()
		blocker := filepath.Join(dir, "file")
		writeFile(t, blocker, "not a directory")
		c := startServe(t, serveOpts{args: []string{"--log", filepath.Join(blocker, "decisions.db")}})
		c.initialize(nil)
		v := c.classify(map[string]any{"command": "ls"})
		if v.Decision != "prompt" || v.LogID != 0 || !strings.Contains(v.Reason, "decision log is unavailable") {
			t.Errorf("allow not downgraded without a log: %s %q", v.Decision, v.Reason)
		}
		if l := c.waitLog("decision log:"); l.Type != messageTypeError {
			t.Errorf("log failure type %d", l.Type)
		}
	})
}

// BenchmarkServeClassify measures sequential classify round trips over
// pipes to the spawned binary. The decision log is written (and fsynced)
// before every reply, as in real use: "disk" puts it in the temp dir,
// "tmpfs" in /dev/shm (when present) to show the cost without the disk.
func BenchmarkServeClassify(b *testing.B) {
	for _, where := range []string{"disk", "tmpfs"} {
		b.Run(where, func(b *testing.B) {
			var args []string
			if where == "tmpfs" {
				if st, err := os.Stat("/dev/shm"); err != nil || !st.IsDir() {
					b.Skip("no /dev/shm")
				}
				dir, err := os.MkdirTemp("/dev/shm", "cs-bench-")
				if err != nil {
					b.Skip(err)
				}
				b.Cleanup(func() { os.RemoveAll(dir) })
				args = []string{"--log", filepath.Join(dir, "decisions.db")}
			}
			c := startServe(b, serveOpts{args: args})
			c.initialize(nil)
			c.classify(map[string]any{"command": "git status"}) // warm up: log open
			lat := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				c.classify(map[string]any{"command": "git status"})
				lat = append(lat, time.Since(start))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "median-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// TestServeShowsOtherWriters: verdicts that other processes (a hook, check)
// write to the same decision log appear as logMessage lines (issue 6).
func TestServeShowsOtherWriters(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)
	if v := c.classify(map[string]any{"command": "ls"}); c.loggedRows(v) != 1 {
		t.Fatal("setup: the server does not log")
	}
	logPath := filepath.Join(c.home, ".local", "state", "ml-ai", "decisions.db")
	check := exec.Command(buildServe(t, false), "check", "--log", logPath, "--agent", "claude-code", "--cwd", c.ws, "--", "rm -rf ~/from-a-terminal-agent")
	check.Env = []string{"HOME=" + c.home, "PATH=" + os.Getenv("PATH")}
	if out, err := check.CombinedOutput(); procExitCode(err) != 2 {
		t.Fatalf("check: %v\n%s", err, out)
	}
	m := c.waitLog("from-a-terminal-agent")
	if !strings.Contains(m.Message, "REFUSE") || !strings.Contains(m.Message, "agent=claude-code") {
		t.Errorf("line %q", m.Message)
	}
	// The server's own verdicts are not shown twice.
	n := 0
	for _, l := range c.logsSnapshot() {
		if strings.Contains(l.Message, `"ls"`) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the server's own verdict shown %d times", n)
	}
}

// TestServeReleasesHeldHooks: a client that asks for commandSafety/held
// learns of a hook waiting in hold mode, approves it with
// commandSafety/resolve, and the hook answers allow (SPEC §10, issue 7).
func TestServeReleasesHeldHooks(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(map[string]any{"initializationOptions": map[string]any{"held": true}})
	c.classify(map[string]any{"command": "ls"}) // opens the log the hook shares

	payload := `{"session_id":"held-1","cwd":"` + c.ws + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm install left-pad"}}`
	hook := exec.Command(buildServe(t, false), "hook", "claude-code", "--hold=30s")
	hook.Dir = c.ws
	hook.Env = []string{"HOME=" + c.home, "PATH=" + os.Getenv("PATH"),
		"XDG_STATE_HOME=" + filepath.Join(c.home, ".local", "state"), "XDG_CONFIG_HOME=" + filepath.Join(c.home, ".config")}
	hook.Stdin = strings.NewReader(payload)
	var out bytes.Buffer
	hook.Stdout = &out
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- hook.Wait() }()
	t.Cleanup(func() { _ = hook.Process.Kill() })

	type held struct {
		Held []struct {
			LogID   int64  `json:"logId"`
			Command string `json:"command"`
		} `json:"held"`
	}
	var id int64
	c.waitFor("a held command", serveTimeout, func() bool {
		for _, raw := range c.held {
			var h held
			if json.Unmarshal(raw, &h) == nil && len(h.Held) == 1 && h.Held[0].Command == "npm install left-pad" {
				id = h.Held[0].LogID
				return true
			}
		}
		return false
	})
	select {
	case err := <-done:
		t.Fatalf("the hook answered before anybody released it: %v\n%s", err, out.String())
	default:
	}
	released := time.Now()
	c.call("commandSafety/resolve", map[string]any{"id": id, "outcome": "approved", "reviewer": "vscode-user"}, nil)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the held hook was not released")
	}
	if d := time.Since(released); d > 2*time.Second {
		t.Errorf("released after %v, want within a second or so", d)
	}
	if !strings.Contains(out.String(), `"permissionDecision":"allow"`) || !strings.Contains(out.String(), "approved by vscode-user") {
		t.Errorf("hook answer: %s", out.String())
	}
	// The held list empties.
	c.waitFor("an empty held list", serveTimeout, func() bool {
		var h held
		return len(c.held) > 0 && json.Unmarshal(c.held[len(c.held)-1], &h) == nil && len(h.Held) == 0
	})
}

// TestServeKilledMidBurst: serve killed with SIGKILL while eight classify
// requests are in flight loses none of the verdicts it answered: rows that
// share a transaction (group commit) are answered only once it is durable.
func TestServeKilledMidBurst(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)
	const inFlight, answered = 8, 300
	type sent struct{ id, command string }
	var queue []sent
	next := 0
	send := func() {
		cmd := fmt.Sprintf("ls burst-%d", next)
		next++
		queue = append(queue, sent{c.send("commandSafety/classify", map[string]any{"command": cmd, "cwd": c.ws}), cmd})
	}
	for range inFlight {
		send()
	}
	got := map[string]string{} // the verdict's key (serve's ring) -> its command
	for len(got) < answered {
		s := queue[0]
		queue = queue[1:]
		m := c.wait(s.id)
		var v verdict
		if m.Error != nil || json.Unmarshal(m.Result, &v) != nil || v.ID == "" || v.Decision != "allow" {
			t.Fatalf("classify %q: %s", s.command, m.raw)
		}
		got[v.ID] = s.command
		send()
	}
	if err := c.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	<-c.exitCh
	l, err := audit.Open(filepath.Join(c.home, ".local", "state", "ml-ai", "decisions.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	// Opening the log took in the dead server's ring.
	es, err := l.Query(context.Background(), audit.Filter{Grep: "burst-"})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int{}
	for _, e := range es {
		if got[e.ID] == e.Command {
			rows[e.ID]++
		}
	}
	for id, cmd := range got {
		if rows[id] != 1 {
			t.Errorf("answered verdict %s (%q) after SIGKILL: %d rows, want 1", id, cmd, rows[id])
		}
	}
	if rs, _ := os.ReadDir(filepath.Join(c.home, ".local", "state", "ml-ai", "decisions.db.serve")); len(rs) != 0 {
		t.Errorf("the dead server's ring is still there after the log took it in: %v", rs)
	}
}
