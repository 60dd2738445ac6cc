package main

// A decision log locked by another process (issue 12 point 3): each verdict
// waits a bounded time for the write lock, then falls back (an allow becomes
// a prompt that says why). Normal concurrent writers still all succeed.

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/journal"
)

// lockLogProcess opens the SQLite file at path, takes its write lock (BEGIN
// IMMEDIATE, as the sqlite3 shell or another tool would), prints "locked"
// and holds it until stdin closes.
func lockLogProcess(path string) int {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("locked")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until stdin closes
	_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
	return 0
}

// holdLogLock starts a process that holds the write lock of the log at path
// until release is called or the test ends.
func holdLogLock(t *testing.T, path string) (release func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CS_TEST_LOCK_LOG="+path)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			in.Close()
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
		})
	}
	t.Cleanup(release)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("lock holder: %q, %v", line, err)
	}
	return release
}

// lockedBound is how long one front door may take to answer with the log
// locked: the wait is bounded at about a second (audit.LockWait), the rest
// is margin for a loaded machine.
const lockedBound = 3 * time.Second

// TestDecisionLogLocked: with another process holding the log's write lock,
// check and serve each answer within lockedBound, with the allow
// downgraded to a prompt whose reason names the log (a hook, which writes
// the journal, allows); the lock holder's
// release makes the next verdict an allow again.
func TestDecisionLogLocked(t *testing.T) {
	s := newHookSandbox(t)
	// Create the log (and its schema) first.
	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	holdLogLock(t, s.logPath())

	out, stderr, code, took := boundedRun(t, s.work, s.env, "", "check", "--cwd", s.work, "--", "ls")
	t.Logf("check with the log locked: %v", took)
	if code != 1 || !strings.HasPrefix(out, "prompt ") || !strings.Contains(out, "decision log is unavailable") || !strings.Contains(out, "locked") {
		t.Errorf("check: exit %d, stdout %q, want a prompt saying the log is locked\nstderr: %s", code, out, stderr)
	}
	if took > lockedBound {
		t.Errorf("check took %v with the log locked, want under %v", took, lockedBound)
	}

	payload := `{"session_id":"lock-1","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	out, stderr, _, took = boundedRun(t, s.work, s.env, payload, "hook", "claude-code")
	t.Logf("hook with the log locked: %v", took)
	// A hook does not wait on the log: it records in the hooks' journal
	// (fsynced), which the next reader after the lock ingests.
	if hookDecision(t, "claude-code", out) != "allow" || !journal.Pending(journal.Path(s.logPath())) {
		t.Errorf("hook: stdout %q, want allow recorded in the journal\nstderr: %s", out, stderr)
	}
	if took > lockedBound {
		t.Errorf("hook took %v with the log locked, want under %v", took, lockedBound)
	}
	// A refusal stays a refusal, just as fast.
	out, _, _, took = boundedRun(t, s.work, s.env, strings.Replace(payload, `"ls"`, `"rm -rf ~"`, 1), "hook", "claude-code")
	if hookDecision(t, "claude-code", out) != "deny" || took > lockedBound {
		t.Errorf("hook rm -rf ~: %q after %v, want deny within %v", out, took, lockedBound)
	}
}

// TestServeDecisionLogLocked: the same for serve. An allow is on record
// once serve's ring is, so it is still answered allow, at once, and reaches
// the log once the lock goes; a prompt needs its row (its human's answer
// names it), so with the log locked it is answered within lockedBound with
// the reason.
func TestServeDecisionLogLocked(t *testing.T) {
	c := startServe(t, serveOpts{})
	c.initialize(nil)
	if v := c.classify(map[string]any{"command": "ls"}); v.Decision != "allow" || c.loggedRows(v) != 1 {
		t.Fatalf("before the lock: %s, not logged", v.Decision)
	}
	release := holdLogLock(t, filepath.Join(c.home, ".local", "state", "ml-ai", "decisions.db"))
	classify := func(command string) (verdict, message) {
		start := time.Now()
		id := c.send("commandSafety/classify", map[string]any{"command": command, "cwd": c.ws})
		var m message
		for deadline := time.Now().Add(promptly); ; time.Sleep(10 * time.Millisecond) {
			c.mu.Lock()
			r, ok := c.responses[id]
			c.mu.Unlock()
			if ok {
				m = r
				break
			}
			if time.Now().After(deadline) {
				// Where is it stuck? The goroutine dump lands in the server's
				// stderr, which the cleanup prints for a failed test.
				dumpGoroutines(c.cmd.Process)
				time.Sleep(time.Second)
				t.Fatalf("no classify reply within %v with the log locked", promptly)
			}
		}
		took := time.Since(start)
		t.Logf("serve classify %q with the log locked: %v", command, took)
		if took > lockedBound {
			t.Errorf("%q took %v, want under %v", command, took, lockedBound)
		}
		var v verdict
		if err := json.Unmarshal(m.Result, &v); err != nil {
			t.Fatalf("%q: %s", command, m.raw)
		}
		return v, m
	}
	allowed, m := classify("ls while-locked")
	if allowed.Decision != "allow" || allowed.LogID != 0 || allowed.ID == "" {
		t.Errorf("classify ls with the log locked: %s, want allow on record in the ring", m.raw)
	}
	prompted, m := classify("frobnicate --all")
	if prompted.Decision != "prompt" || prompted.LogID != 0 {
		t.Errorf("classify a prompt with the log locked: %s, want prompt without a row", m.raw)
	}
	if e := c.waitLog("decision log is unavailable"); e.Type != messageTypeError {
		t.Errorf("the failure is reported as %+v, want an Error logMessage", e)
	}
	release()
	if n := c.loggedRows(allowed); n != 1 {
		t.Errorf("the allow answered while the log was locked: %d rows once it is free, want 1", n)
	}
}

// TestDecisionLogContention: several hooks and a serve writing at once (a
// busy agent session) all get their verdict logged: the bounded lock wait
// does not turn normal contention into prompts.
func TestDecisionLogContention(t *testing.T) {
	s := newHookSandbox(t)
	const writers, each = 4, 8
	payload := `{"session_id":"busy","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	var wg sync.WaitGroup
	var mu sync.Mutex
	var slowest time.Duration
	bin := hookBinary(t) // built before any clock starts
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				ctx, cancel := context.WithTimeout(context.Background(), promptly)
				cmd := exec.CommandContext(ctx, bin, "hook", "claude-code")
				cmd.Dir, cmd.Env, cmd.Stdin = s.work, s.env, strings.NewReader(payload)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				start := time.Now()
				out, err := cmd.Output()
				took := time.Since(start)
				cancel()
				if err != nil || !strings.Contains(string(out), `"permissionDecision":"allow"`) {
					t.Errorf("writer %d run %d: %v %q, want allow\nstderr: %s", w, i, err, out, stderr.String())
				}
				mu.Lock()
				slowest = max(slowest, took)
				mu.Unlock()
			}
		})
	}
	// check --jsonl is one more process appending many verdicts in a row.
	wg.Go(func() {
		var in strings.Builder
		for i := range 3 * each {
			fmt.Fprintf(&in, `{"id": "%d", "command": "ls", "cwd": %q}`+"\n", i, s.work)
		}
		cmd := exec.Command(hookBinary(t), "check", "--jsonl")
		cmd.Dir, cmd.Env, cmd.Stdin = s.work, s.env, strings.NewReader(in.String())
		out, err := cmd.Output()
		allowed := 0
		for line := range strings.Lines(string(out)) {
			var v struct{ Decision string }
			if json.Unmarshal([]byte(line), &v) == nil && v.Decision == "allow" {
				allowed++
			}
		}
		if err != nil || allowed != 3*each {
			t.Errorf("check --jsonl under contention: %v, %d allowed, want %d\n%s", err, allowed, 3*each, out)
		}
	})
	wg.Wait()
	t.Logf("slowest hook under contention: %v", slowest)
	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{Limit: 1000})
	if err != nil || len(rows) != writers*each+3*each {
		t.Errorf("%d rows (%v), want %d", len(rows), err, writers*each+3*each)
	}
}
