package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/hooks"
	"github.com/ml-ai/command-safety/journal"
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
// before the agent's limit, by the hook's deadline: a deny, or for the FIFO
// (which the settings reader ignores) the decision without it, or for the
// locked log (which a hook does not open: it writes the journal) the
// decision, recorded in the journal.
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
				if err := mkfifo(filepath.Join(dir, "settings.json")); err != nil {
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
				switch {
				case slow == "settings-fifo":
					// Not a regular file: reported and ignored like a file
					// that does not parse, so `ls` is decided without it.
					if !strings.Contains(errb.String(), "not a regular file") {
						t.Errorf("%s: the FIFO is not reported: %s", agent, errb.String())
					}
				case slow == "locked-log":
					// A hook does not wait on the log: its verdict is in the
					// hooks' journal (fsynced), which the next reader once
					// the lock is gone ingests. So it is decided as usual.
					if want := "allow"; d != want && !(agent == "codex" && d == "") {
						t.Errorf("%s: decision %q after %s with the log locked, want %s from the journal\nstdout %s\nstderr %s", agent, d, took, want, out.String(), errb.String())
					}
					if !journal.Pending(journal.Path(s.logPath())) {
						t.Errorf("%s: the journal holds nothing after an allow", agent)
					}
				case d == "allow" || d == "": // codex: no output is an allow
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

// TestPromptStatuses: every writer records who waits on its prompts: check
// in a terminal (nobody: advisory), an agent that asks its user (asked), a
// hook in hold mode (held, here resolved by its timeout), and Codex, whose
// hooks cannot ask (denied at once: rejected, saying why).
func TestPromptStatuses(t *testing.T) {
	s := newHookSandbox(t)
	const cmd = "npm install left-pad"
	if _, _, code := s.run(t, "", nil, "check", "--cwd", s.work, "--", cmd); code != 1 {
		t.Fatalf("check: exit %d, want 1 (prompt)", code)
	}
	p := hookPayloads(s.work, cmd)
	for _, run := range [][]string{{"claude-code"}, {"codex"}, {"gemini-cli", "--hold=1s"}} {
		if _, stderr, code := s.run(t, p[run[0]], nil, append([]string{"hook"}, run...)...); code != 0 {
			t.Fatalf("hook %v: exit %d\n%s", run, code, stderr)
		}
	}
	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{})
	if err != nil || len(rows) != 4 {
		t.Fatalf("%d rows (%v), want 4", len(rows), err)
	}
	want := []struct {
		agent    string
		status   audit.Status
		reviewer string
	}{ // newest first
		{"gemini-cli", audit.StatusRejected, audit.ReviewerTimeout},
		{"codex", audit.StatusRejected, "codex (nobody to ask: the prompt was denied)"},
		{"claude-code", audit.StatusAsked, ""},
		{"default", audit.StatusAdvisory, ""},
	}
	for i, w := range want {
		r := rows[i]
		if r.Agent != w.agent || r.Status != w.status || r.Reviewer != w.reviewer {
			t.Errorf("row %d: %s %s by %q, want %s %s by %q", r.LogID, r.Agent, r.Status, r.Reviewer, w.agent, w.status, w.reviewer)
		}
	}
}

// TestAgentAnswersReachTheLog: the agents' own post-execution hooks tell the
// log what their user answered to a prompt: a command that ran was approved
// by the agent's user; one still asked when the turn ends was not. Rows
// match by the agent's call id where it has one, else by session, command
// text and time, and never a row of another command.
//
// Both binaries: command-safety-hook journals the prompts and hands the
// reports to command-safety, which ingests the journal before it matches.
func TestAgentAnswersReachTheLog(t *testing.T) {
	for _, bin := range []string{hookBinary(t), hookOnlyBinary(t)} {
		t.Run(filepath.Base(bin), func(t *testing.T) { testAgentAnswersReachTheLog(t, bin) })
	}
}

func testAgentAnswersReachTheLog(t *testing.T, bin string) {
	s := newHookSandbox(t)
	w := s.work
	env := []string{"USER=ada", "CLAUDE_PROJECT_DIR=" + w, "GEMINI_PROJECT_DIR=" + w}
	hook := func(agent, payload string) {
		t.Helper()
		if out, stderr, code := s.runBin(t, bin, payload, env, "hook", agent); code != 0 || strings.Contains(stderr, "decision log") {
			t.Fatalf("hook %s: exit %d, stdout %q, stderr %q", agent, code, out, stderr)
		}
	}
	claude := func(event, id, command string) string {
		return `{"session_id":"cc","cwd":"` + w + `","hook_event_name":"` + event + `","tool_name":"Bash","tool_input":{"command":"` + command + `"},"tool_use_id":"` + id + `"}`
	}
	hook("claude-code", claude("PreToolUse", "toolu_1", "npm install a"))
	hook("claude-code", claude("PreToolUse", "toolu_2", "npm install b"))
	hook("claude-code", claude("PreToolUse", "toolu_3", "npm install c"))
	hook("claude-code", claude("PostToolUse", "toolu_1", "npm install a"))
	hook("claude-code", claude("PostToolUse", "toolu_3", "npm install EVIL")) // never matches toolu_3's row
	hook("claude-code", `{"session_id":"cc","cwd":"`+w+`","hook_event_name":"Stop","stop_hook_active":false}`)
	// The user answered No in Claude Code's dialog: that interrupts the
	// turn and no Stop runs; /exit then runs SessionEnd (payload as
	// Claude Code 2.1.332 sends it, captured in e2e/agents).
	claude2 := strings.ReplaceAll(claude("PreToolUse", "toolu_4", "npm install g"), `"cc"`, `"cc2"`)
	hook("claude-code", claude2)
	hook("claude-code", `{"session_id":"cc2","transcript_path":"/tmp/t.jsonl","cwd":"`+w+`","prompt_id":"p1","hook_event_name":"SessionEnd","reason":"prompt_input_exit"}`)

	gemini := func(event, command string) string {
		return `{"session_id":"ge","cwd":"` + w + `","hook_event_name":"` + event + `","tool_name":"run_shell_command","tool_input":{"command":"` + command + `"}}`
	}
	hook("gemini-cli", gemini("BeforeTool", "npm install d"))
	hook("gemini-cli", gemini("AfterTool", "npm install d"))
	// A No in Gemini CLI's confirmation cancels the turn without AfterAgent;
	// /quit runs SessionEnd.
	hook("gemini-cli", strings.ReplaceAll(gemini("BeforeTool", "npm install h"), `"ge"`, `"ge2"`))
	hook("gemini-cli", `{"session_id":"ge2","transcript_path":"/tmp/t.json","cwd":"`+w+`","hook_event_name":"SessionEnd","timestamp":"2026-12-01T17:50:34.000Z","reason":"exit"}`)
	cursor := func(event, command string) string {
		return `{"hook_event_name":"` + event + `","conversation_id":"cu","workspace_roots":["` + w + `"],"cwd":"` + w + `","command":"` + command + `"}`
	}
	hook("cursor", cursor("beforeShellExecution", "npm install e"))
	hook("cursor", cursor("beforeShellExecution", "npm install f"))
	hook("cursor", cursor("afterShellExecution", "npm install e"))
	hook("cursor", `{"hook_event_name":"stop","conversation_id":"cu","status":"completed"}`)

	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		status   audit.Status
		reviewer string
	}{
		"npm install a": {audit.StatusApproved, "claude-code:ada"},
		"npm install b": {audit.StatusRejected, "claude-code:ada"},
		"npm install c": {audit.StatusRejected, "claude-code:ada"}, // EVIL ran, not c
		"npm install d": {audit.StatusApproved, "gemini-cli:ada"},
		"npm install e": {audit.StatusApproved, "cursor:ada"},
		"npm install f": {audit.StatusRejected, "cursor:ada"},
		"npm install g": {audit.StatusRejected, "claude-code:ada"},
		"npm install h": {audit.StatusRejected, "gemini-cli:ada"},
	}
	if len(rows) != len(want) {
		t.Errorf("%d rows, want %d (reports add none)", len(rows), len(want))
	}
	for _, r := range rows {
		w, ok := want[r.Command]
		if !ok || r.Status != w.status || r.Reviewer != w.reviewer || r.Note == "" {
			t.Errorf("row %d %q: %s by %q, note %q; want %s by %q", r.LogID, r.Command, r.Status, r.Reviewer, r.Note, w.status, w.reviewer)
		}
		if (r.Command == "npm install g" || r.Command == "npm install h") && !strings.Contains(r.Note, "session ended (its SessionEnd hook ran)") {
			t.Errorf("row %d: note %q does not say the session ended", r.LogID, r.Note)
		}
	}
	// `log` shows who answered each prompt.
	out, stderr, code := s.run(t, "", nil, "log", "--log", s.logPath(), "--limit", "0")
	if code != 0 {
		t.Fatalf("log: exit %d: %s", code, stderr)
	}
	for _, line := range strings.Split(out, "\n") {
		for cmd, w := range want {
			if strings.HasSuffix(line, cmd) && (!strings.Contains(line, " "+string(w.status)+" ") || !strings.Contains(line, " "+w.reviewer+" ")) {
				t.Errorf("log shows %q without %s by %s:\n%s", cmd, w.status, w.reviewer, out)
			}
		}
	}
	if !strings.Contains(out, "REVIEWER") {
		t.Errorf("log has no REVIEWER column:\n%s", out)
	}
}
