package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/hooks"
	_ "modernc.org/sqlite"
)

// hookPayloads are one shell-command payload per adapter, for a workspace w.
func hookPayloads(w, command string) map[string]string {
	return map[string]string{
		"claude-code": `{"session_id":"s","cwd":"` + w + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"}}`,
		"codex":       `{"session_id":"s","cwd":"` + w + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"}}`,
		"cursor":      `{"hook_event_name":"beforeShellExecution","conversation_id":"s","workspace_roots":["` + w + `"],"cwd":"` + w + `","command":"` + command + `"}`,
		"gemini-cli":  `{"session_id":"s","cwd":"` + w + `","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"` + command + `"}}`,
		"vscode":      `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"` + w + `","tool_name":"run_in_terminal","tool_input":{"command":"` + command + `","explanation":"x","isBackground":false},"tool_use_id":"t"}`,
		"copilot-cli": `{"sessionId":"s","timestamp":1,"cwd":"` + w + `","toolName":"bash","toolArgs":{"command":"` + command + `"}}`,
	}
}

// TestHookDeadlineProcess runs every adapter as a process against each slow
// input found (stdin the agent never closes, a workspace settings file that
// is a FIFO, a decision log another process holds locked, a payload over
// the size limit) with the agent's limit at 4 s, and requires an answer
// that does not allow the command before the agent's limit, by the hook's
// deadline.
func TestHookDeadlineProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes for several seconds")
	}
	const limit = 4 * time.Second
	for _, slow := range []string{"stdin", "settings-fifo", "locked-log", "huge-payload"} {
		t.Run(slow, func(t *testing.T) {
			s := newHookSandbox(t)
			switch slow {
			case "settings-fifo":
				dir := filepath.Join(s.work, ".vscode")
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(filepath.Join(dir, "settings.json"), 0o644); err != nil {
					t.Fatal(err)
				}
			case "locked-log":
				unlock := lockLog(t, s.logPath())
				defer unlock()
			}
			for agent, payload := range hookPayloads(s.work, "ls") {
				if slow == "huge-payload" {
					payload = strings.Replace(payload, `"ls"`, `"ls `+strings.Repeat("a", hooks.MaxInput)+`"`, 1)
				}
				cmd := exec.Command(hookBinary(t), "hook", agent, "--limit="+limit.String())
				cmd.Dir = s.work
				cmd.Env = append(append([]string{}, s.env...), "CLAUDE_PROJECT_DIR="+s.work, "GEMINI_PROJECT_DIR="+s.work)
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				var pw *os.File
				if slow == "stdin" {
					pr, w, err := os.Pipe()
					if err != nil {
						t.Fatal(err)
					}
					cmd.Stdin, pw = pr, w
					if _, err := pw.WriteString(payload); err != nil {
						t.Fatal(err)
					}
					defer pr.Close()
				} else {
					cmd.Stdin = strings.NewReader(payload)
				}
				start := time.Now()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(limit):
					_ = cmd.Process.Kill()
					<-done
					t.Errorf("%s: no answer within the agent's limit of %s (stderr %s)", agent, limit, errb.String())
					continue
				}
				took := time.Since(start)
				if pw != nil {
					pw.Close()
				}
				d := hookDecision(t, agent, out.String())
				if d == "allow" || d == "" { // codex: no output is an allow
					t.Errorf("%s: decision %q after %s, want no allow\nstdout %s\nstderr %s", agent, d, took, out.String(), errb.String())
				}
				if want := hooks.Deadline(limit) + 1500*time.Millisecond; took > want {
					t.Errorf("%s: answered after %s, later than the deadline %s allows", agent, took, want)
				}
				t.Logf("%s: %s after %s", agent, d, took.Round(time.Millisecond))
			}
		})
	}
}

// lockLog creates the decision log at path and holds its write lock from
// another connection, as another process would, until the returned func.
func lockLog(t *testing.T, path string) func() {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	return func() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	}
}
