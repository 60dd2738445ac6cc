package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// lockedBuffer is a bytes.Buffer safe for the server goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func reviewSandbox(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	return filepath.Join(home, "decisions.db")
}

// startReview runs serveReview in the background and returns the first line
// of its stdout, its stderr, and a stop function returning the exit code.
func startReview(t *testing.T, args ...string) (string, *lockedBuffer, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr := &lockedBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- serveReview(ctx, args, pw, stderr)
		pw.Close()
	}()
	lines := make(chan string, 1)
	rest := make(chan string, 1)
	go func() {
		r := bufio.NewReader(pr)
		line, _ := r.ReadString('\n')
		lines <- line
		b, _ := io.ReadAll(r)
		rest <- string(b)
	}()
	var line string
	select {
	case line = <-lines:
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatalf("no URL printed; stderr: %s", stderr.String())
	}
	stopped := false
	stop := func() int {
		if stopped {
			return -1
		}
		stopped = true
		cancel()
		c := <-code
		if more := <-rest; more != "" {
			t.Errorf("stdout has more than the URL: %q", more)
		}
		return c
	}
	t.Cleanup(func() { stop() })
	return strings.TrimSuffix(line, "\n"), stderr, stop
}

func TestReviewRefusesRemoteWithoutFlag(t *testing.T) {
	reviewSandbox(t)
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		var stdout, stderr bytes.Buffer
		code := serveReview(context.Background(), []string{"--listen", addr}, &stdout, &stderr)
		if code != exitUsage || stdout.Len() != 0 || !strings.Contains(stderr.String(), "--allow-remote") {
			t.Errorf("--listen %s: exit %d, stdout %q, stderr %q; want exit %d, no URL, a hint at --allow-remote",
				addr, code, stdout.String(), stderr.String(), exitUsage)
		}
	}
}

func TestReviewAllowRemoteIsLogged(t *testing.T) {
	db := reviewSandbox(t)
	url, stderr, stop := startReview(t, "--listen", "0.0.0.0:0", "--allow-remote", "--log", db)
	if !strings.HasPrefix(url, "http://") || strings.Contains(url, "0.0.0.0") {
		t.Errorf("URL %q", url)
	}
	if !strings.Contains(stderr.String(), "not loopback") {
		t.Errorf("stderr does not log the remote binding: %q", stderr.String())
	}
	if c := stop(); c != 0 {
		t.Errorf("exit %d", c)
	}
}

func TestReviewServesAndReleases(t *testing.T) {
	db := reviewSandbox(t)
	l, err := audit.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	p := gate.Effect{Effect: effects.Network, Text: "curl https://example.com", Span: [2]int{0, 24}, Outcome: effects.Prompt}
	id, err := l.Append(context.Background(), gate.Verdict{Time: time.Now(), Command: p.Text, Agent: "claude-code",
		Decision: effects.Prompt, Effects: []gate.Effect{p}, DecidedBy: &p, Rule: "network", Reason: "network"}, "t", audit.StatusAsked)
	if err != nil {
		t.Fatal(err)
	}

	url, _, stop := startReview(t, "--log", db, "--reviewer", "rita")
	m := regexp.MustCompile(`^(http://127\.0\.0\.1:\d+)/login\?token=[A-Za-z0-9_-]{43}$`).FindStringSubmatch(url)
	if m == nil {
		t.Fatalf("printed %q, want one loopback URL with a 32-byte base64url token", url)
	}
	origin := m[1]
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookie := strings.SplitN(res.Header.Get("Set-Cookie"), ";", 2)[0]
	if res.StatusCode != http.StatusSeeOther || cookie == "" {
		t.Fatalf("login: %d, cookie %q", res.StatusCode, cookie)
	}
	if res, err := client.Get(url); err != nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("second use of the URL: %v %v", res.StatusCode, err)
	}

	req, _ := http.NewRequest("GET", origin+"/api/session", nil)
	req.Header.Set("Cookie", cookie)
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	csrf := regexp.MustCompile(`"csrf":"([^"]+)"`).FindSubmatch(body)
	if csrf == nil || !strings.Contains(string(body), `"reviewer":"rita"`) {
		t.Fatalf("session: %s", body)
	}
	req, _ = http.NewRequest("POST", origin+"/api/resolve", strings.NewReader(`{"id":`+strconv.FormatInt(id, 10)+`,"outcome":"approve"}`))
	req.Header.Set("Cookie", cookie)
	req.Header.Set("Origin", origin)
	req.Header.Set("X-CSRF-Token", string(csrf[1]))
	req.Header.Set("Content-Type", "application/json")
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("resolve: %d", res.StatusCode)
	}
	e, err := l.Get(context.Background(), id)
	if err != nil || e.Status != audit.StatusApproved || e.Reviewer != "rita" {
		t.Errorf("row: %s by %q (%v), want approved by rita", e.Status, e.Reviewer, err)
	}
	if c := stop(); c != 0 {
		t.Errorf("exit %d after the context ended", c)
	}
}

func TestReviewUsage(t *testing.T) {
	reviewSandbox(t)
	for _, args := range [][]string{{"--bogus"}, {"extra"}} {
		var stdout, stderr bytes.Buffer
		if code := serveReview(context.Background(), args, &stdout, &stderr); code != exitUsage || stdout.Len() != 0 {
			t.Errorf("%q: exit %d stdout %q", args, code, stdout.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := serveReview(context.Background(), []string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "usage: command-safety review") {
		t.Errorf("-h: exit %d stdout %q", code, stdout.String())
	}
}

// TestHookHoldStopped: a hook in hold mode that gets SIGTERM (its agent gave
// up) denies, and its row does not stay pending on the review page: the hold
// rejects it as hold-cancelled, so a late Approve gets 409.
func TestHookHoldStopped(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) { testHookHoldStopped(t, sig) })
	}
}

// testHookHoldStopped is TestHookHoldStopped for one signal. After SIGKILL the
// hook cannot resolve its row; the next process that opens the log does
// (here `command-safety log`), as hold-gone.
func testHookHoldStopped(t *testing.T, sig syscall.Signal) {
	s := newHookSandbox(t)
	if _, _, code := s.run(t, "", nil, "check", "--cwd", s.work, "--", "ls"); code != 0 {
		t.Fatalf("check ls: exit %d", code) // creates the log for this process to watch
	}
	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cmd := exec.Command(hookBinary(t), "hook", "claude-code", "--hold=30s")
	cmd.Dir = s.work
	cmd.Env = append(append([]string{}, s.env...), "CLAUDE_PROJECT_DIR="+s.work)
	cmd.Stdin = strings.NewReader(`{"session_id":"held","cwd":"` + s.work +
		`","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl https://example.com/stopped"}}`)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })

	var row audit.Entry
	for deadline := time.Now().Add(10 * time.Second); row.LogID == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no held row; stderr: %s", stderr.String())
		}
		es, err := l.Query(context.Background(), audit.Filter{Grep: "example.com/stopped", Limit: 1})
		if err == nil && len(es) == 1 {
			if _, ok := audit.HeldUntil(es[0].Note); ok {
				row = es[0]
			}
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("the hook still waits after %s", sig)
	}
	if sig == syscall.SIGKILL {
		if _, _, code := s.run(t, "", nil, "log", "--limit", "1"); code != 0 {
			t.Fatalf("log: exit %d", code)
		}
		e, err := l.Get(context.Background(), row.LogID)
		if err != nil || e.Status != audit.StatusRejected || e.Reviewer != audit.ReviewerGone || !strings.Contains(e.Note, "may have run") {
			t.Errorf("row after SIGKILL and a later open: %s by %q, note %q (%v); want rejected by %s", e.Status, e.Reviewer, e.Note, err, audit.ReviewerGone)
		}
		return
	}
	var out struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.HookSpecificOutput.PermissionDecision != "deny" {
		t.Errorf("answer %q (%v), want deny", stdout.String(), err)
	}
	e, err := l.Get(context.Background(), row.LogID)
	if err != nil || e.Status != audit.StatusRejected || e.Reviewer != audit.ReviewerCancelled {
		t.Errorf("row after SIGTERM: %s by %q (%v), want rejected by %s", e.Status, e.Reviewer, err, audit.ReviewerCancelled)
	}
	// What is known is that the agent stopped the hook; an agent may run the
	// tool then, so the log never says the command was denied.
	if !strings.Contains(e.Note, "the command may have run") || strings.Contains(e.Note, "denied") {
		t.Errorf("row note %q, want what is known: the command may have run", e.Note)
	}
}
