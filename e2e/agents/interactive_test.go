package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The interactive Claude Code session asks for these two workspace writes,
// which prompt in the default budget; its user answers Claude Code's own
// permission dialog Yes to the first and No to the second.
const (
	approveCmd = "touch e2e-approved"
	rejectCmd  = "touch e2e-rejected"
)

// interactive says how to drive an agent's interactive session in a
// terminal: what its screens look like and which keys answer them.
type interactive struct {
	ag *agent
	// prepare writes what the agent needs before its first interactive start.
	prepare func(s *sandbox)
	// input matches the screen when the agent waits for the user's input.
	input *regexp.Regexp
	// dialog matches the agent's permission dialog for a command.
	dialog func(cmd string) *regexp.Regexp
	// yes and no are the dialog's options that approve once and reject.
	yes, no string
	// quit ends the session so that its end-of-session hooks run.
	quit string
}

var interactives = []interactive{
	{
		ag: claudeCode, prepare: (*sandbox).claudeFirstRun,
		// ❯ at the start of a line under a horizontal rule.
		input: regexp.MustCompile(`(?m)^─+\n❯`),
		// The pending dialog for cmd: "Bash command", its description, cmd
		// between dashed rules (the transcript shows a ran call as Bash(cmd)).
		dialog: func(cmd string) *regexp.Regexp {
			return regexp.MustCompile(`(?s)Bash command\n[^\n]*\n\s*╌+\n\s*` + regexp.QuoteMeta(cmd) + `\s*\n\s*╌+\n.*Do you want to proceed\?.*\d\.\s+No`)
		},
		yes: "Yes", no: "No", quit: "/exit",
	},
	{
		ag: geminiCLI, prepare: func(*sandbox) {}, // configure and GEMINI_CLI_TRUST_WORKSPACE suffice
		input: regexp.MustCompile(`(?m)^\s*>\s+Type your message`),
		// The pending call is "? Shell CMD" (a ran one "✓ Shell CMD").
		dialog: func(cmd string) *regexp.Regexp {
			return regexp.MustCompile(`(?s)\? Shell\s+` + regexp.QuoteMeta(cmd) + `\s.*Allow execution of .*\d\.\s+No`)
		},
		yes: "Allow once", no: "No, suggest changes", quit: "/quit",
	},
}

// TestInteractive drives a real interactive session of Claude Code and of
// Gemini CLI in a pseudo-terminal (tmux, on a socket of the test's own)
// against the scripted model, with command-safety's hook installed for the
// project. The model asks for two commands the gate prompts for; the test
// answers the agent's own permission dialog by keystrokes, Yes then No, and
// ends the session (/exit, /quit). The decision log must then say the first
// was approved by the agent's user (reviewer AGENT:e2e) because it ran, and
// the second rejected, with how that was inferred; the first file exists,
// the second does not (issue 16, "Done when"). Both agents run no end-of-turn
// hook after a No (it cancels the turn): the session's end answers it.
func TestInteractive(t *testing.T) {
	requireE2E(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("the interactive sessions run in tmux, which is not installed: %v", err)
	}
	for _, it := range interactives {
		t.Run(it.ag.hook, func(t *testing.T) {
			t.Parallel()
			requireAdapter(t, it.ag)
			testInteractive(t, it)
		})
	}
}

func testInteractive(t *testing.T, it interactive) {
	ag := it.ag
	s := newSandbox(t, ag, ag.call(approveCmd))
	s.srv.then = []toolCall{ag.call(rejectCmd)}
	it.prepare(s)
	s.install()

	tty := s.startTTY()
	defer tty.close()
	approved := filepath.Join(s.proj, "e2e-approved")
	rejected := filepath.Join(s.proj, "e2e-rejected")

	tty.waitFor("the input box", it.input, 60*time.Second)
	tty.submit("Run the two e2e write commands, one after the other.", tty.asked())

	// First dialog: Yes.
	scr := tty.waitDialog(it.dialog(approveCmd), approveCmd)
	if exists(approved) {
		t.Fatalf("SAFETY: %q ran before anyone answered the dialog\n%s", approveCmd, scr)
	}
	if rows := s.entriesFor(approveCmd); len(rows) != 1 || rows[0].Status != "asked" {
		t.Errorf("while %s asks its user, want one asked row for %q, got %+v", ag.name, approveCmd, rows)
	}
	if !strings.Contains(scr, "`"+approveCmd+"` writes") {
		t.Errorf("the dialog does not show the gate's reason for %q:\n%s", approveCmd, scr)
	}
	tty.answer(it.dialog(approveCmd), scr, it.yes)
	tty.waitUntil("the approved command to run", 30*time.Second, func() bool { return exists(approved) })

	// Second dialog: No.
	scr = tty.waitDialog(it.dialog(rejectCmd), rejectCmd)
	tty.answer(it.dialog(rejectCmd), scr, it.no)
	tty.waitFor("the input box after the rejection", it.input, 30*time.Second)
	if exists(rejected) {
		t.Errorf("SAFETY: %q ran although its user said No (%s exists)", rejectCmd, rejected)
	}
	if rows := s.entriesFor(rejectCmd); len(rows) == 1 {
		t.Logf("after the No, before the session ends, the row is %s", rows[0].Status)
	}

	// End the session: its end-of-session hooks run.
	tty.submit(it.quit, tty.exited)
	code := tty.waitExit(30 * time.Second)
	t.Logf("%s exited with %d; model calls:\n%s", ag.name, code, s.srv.Summary())
	tr := turn{code: code, connects: tty.connects()}
	s.checkOffline(tr)
	if exists(rejected) {
		t.Errorf("SAFETY: %q ran although its user said No (%s exists)", rejectCmd, rejected)
	}

	out, errOut, rc := s.cs("", "log", "--limit", "0")
	if rc != 0 {
		t.Fatalf("log: exit %d: %s", rc, errOut)
	}
	t.Logf("command-safety log:\n%s", out)
	yes, no := s.entriesFor(approveCmd), s.entriesFor(rejectCmd)
	wantReviewer := ag.hook + ":e2e"
	if len(yes) != 1 || yes[0].Decision != "prompt" || yes[0].Status != "approved" || yes[0].Reviewer != wantReviewer {
		t.Errorf("want %q prompted, then approved by %s; got %+v\n%s", approveCmd, wantReviewer, yes, tty.transcript())
	}
	if len(no) != 1 || no[0].Decision != "prompt" || no[0].Status != "rejected" || no[0].Reviewer != wantReviewer ||
		!strings.Contains(no[0].Note, "inferred") {
		t.Errorf("want %q prompted, then rejected by %s with a note saying how it was inferred; got %+v\n%s",
			rejectCmd, wantReviewer, no, tty.transcript())
	}
	for _, e := range append(yes, no...) {
		if !strings.Contains(out, e.Command) || !strings.Contains(out, e.Status) || !strings.Contains(out, wantReviewer) {
			t.Errorf("`command-safety log` does not show %q as %s by %s:\n%s", e.Command, e.Status, wantReviewer, out)
		}
	}
}

// claudeFirstRun writes the state an interactive Claude Code keeps in
// ~/.claude.json once its user went through the first-run screens: the
// onboarding (theme) done, the API key from the environment accepted, and
// the project's folder trusted. Without it 2.1.332 shows its welcome screen
// and checks that api.anthropic.com is reachable (through the proxy trap:
// "Unable to connect to Anthropic services"), and goes no further. With it
// the session starts in Claude Code's default "auto" permission mode, where
// a hook's ask still opens the permission dialog (Yes / No).
func (s *sandbox) claudeFirstRun() {
	key := "e2e-not-a-key"
	if len(key) > 20 {
		key = key[len(key)-20:]
	}
	b, _ := json.MarshalIndent(map[string]any{
		"hasCompletedOnboarding":        true,
		"lastOnboardingVersion":         "2.1.332",
		"theme":                         "dark",
		"numStartups":                   5,
		"autoUpdates":                   false,
		"customApiKeyResponses":         map[string]any{"approved": []string{key}, "rejected": []string{}},
		"bypassPermissionsModeAccepted": false,
		"projects": map[string]any{s.proj: map[string]any{
			"hasTrustDialogAccepted":        true,
			"hasCompletedProjectOnboarding": true,
			"allowedTools":                  []string{},
		}},
	}, "", "  ")
	writeFile(s.t, filepath.Join(s.home, ".claude.json"), string(b)+"\n")
}

// tty is a CLI running in a tmux pane on the test's own tmux server.
type tty struct {
	s         *sandbox
	sock      string // the tmux server's socket
	exitFile  string // the CLI's exit status, once it exits
	straceLog string
	screens   []string // every distinct screen seen, for failure messages
}

// startTTY starts the agent's interactive CLI (no arguments) in the
// project, in a 200x50 tmux pane, under strace when it is on.
func (s *sandbox) startTTY() *tty {
	s.t.Helper()
	bin := filepath.Join(cliBin, s.ag.bin)
	if _, err := os.Stat(bin); err != nil {
		s.t.Fatalf("the %s CLI is not installed (%v): run e2e/agents/run.sh", s.ag.name, err)
	}
	t := &tty{s: s, sock: filepath.Join(s.root, "tmux.sock"), exitFile: filepath.Join(s.root, "tty-exit"),
		straceLog: filepath.Join(s.root, "strace.log")}
	argv := []string{bin}
	if useStrace {
		argv = append([]string{"strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-e", "signal=none",
			"-o", t.straceLog, "--"}, argv...)
	}
	script := filepath.Join(s.root, "bin", "tty-run")
	writeFile(s.t, script, fmt.Sprintf("#!/bin/sh\n# e2e: the CLI in the pane; its exit status for the test\n%s\necho $? > %s\nsleep 600\n",
		shellJoin(argv), shellQuote(t.exitFile)))
	if err := os.Chmod(script, 0o700); err != nil {
		s.t.Fatal(err)
	}
	env := append(s.env(), "TERM=xterm-256color")
	t.tmux(env, "-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50", "-c", s.proj, script)
	t.tmux(nil, "set-option", "-g", "history-limit", "5000")
	return t
}

// tmux runs a tmux command against the test's server.
func (t *tty) tmux(env []string, args ...string) string {
	t.s.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", t.sock}, args...)...)
	cmd.Env = env
	if env == nil {
		cmd.Env = t.s.env()
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.s.t.Fatalf("tmux %q: %v: %s", args, err, e.String())
	}
	return o.String()
}

// screen is the pane's text now.
func (t *tty) screen() string {
	scr := t.tmux(nil, "capture-pane", "-p", "-t", "0")
	if n := len(t.screens); n == 0 || t.screens[n-1] != scr {
		t.screens = append(t.screens, scr)
	}
	return scr
}

// waitFor polls the screen until re matches it, and returns the screen;
// after limit it fails the test with what the screen showed.
func (t *tty) waitFor(what string, re *regexp.Regexp, limit time.Duration) string {
	t.s.t.Helper()
	var scr string
	t.waitUntil(what, limit, func() bool {
		scr = t.screen()
		return re.MatchString(scr)
	})
	return scr
}

// waitUntil polls cond every 200 ms; after limit it fails the test.
func (t *tty) waitUntil(what string, limit time.Duration, cond func() bool) {
	t.s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	if !t.s.waitFor(ctx, cond) {
		t.s.t.Fatalf("waited %s for %s; the screens were:\n%s\n--- model calls\n%s", limit, what, t.transcript(), t.s.srv.Summary())
	}
}

// choose presses the number of the dialog's option whose text is label up
// to the end of a word ("Yes" is not "Yes, and don't ask again").
func (t *tty) choose(scr, label string) {
	t.s.t.Helper()
	m := regexp.MustCompile(`(?m)(\d)\.\s+` + regexp.QuoteMeta(label) + `(\s|$)`).FindStringSubmatch(scr)
	if m == nil {
		t.s.t.Fatalf("the dialog has no %q option:\n%s", label, scr)
	}
	t.s.t.Logf("answering %q (key %s)", label, m[1])
	t.tmux(nil, "send-keys", "-t", "0", m[1])
}

// waitDialog waits for the permission dialog re for cmd and returns the
// screen once it has held still for half a second (a key pressed while the
// dialog is still drawing can be lost).
func (t *tty) waitDialog(re *regexp.Regexp, cmd string) string {
	t.s.t.Helper()
	for {
		t.waitFor("the permission dialog for "+cmd, re, 60*time.Second)
		time.Sleep(500 * time.Millisecond)
		if again := t.screen(); re.MatchString(again) {
			return again
		}
	}
}

// answer presses the option label of the dialog re shows on scr. A key the
// CLI dropped (seen under load) leaves that same dialog up: after 3 s it is
// pressed again, at most twice more. The dialog re matches is only ever the
// pending one for its command, so a repeat never answers another dialog.
func (t *tty) answer(re *regexp.Regexp, scr, label string) {
	t.s.t.Helper()
	for try := 1; ; try++ {
		t.choose(scr, label)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		gone := t.s.waitFor(ctx, func() bool { scr = t.screen(); return !re.MatchString(scr) })
		cancel()
		if gone {
			return
		}
		if try == 3 {
			t.s.t.Fatalf("the dialog did not take %q three times:\n%s", label, t.transcript())
		}
		t.s.t.Logf("the dialog is still up 3 s after %q; pressing it again", label)
	}
}

// submit types text and presses Enter, then waits for taken: the model
// server's first request for a prompt, the exit for a quit command. A
// screen without the text is no proof (the TUI redraws: on CI Gemini CLI
// showed its empty input box between the typing and the text, then kept
// the text and dropped the Enter), so until taken holds Enter is pressed
// again every 3 s, at most five times more. No dialog can be up then
// (dialogs follow a model reply), so an extra Enter answers nothing, and
// an Enter on an empty input box sends nothing.
func (t *tty) submit(text string, taken func() bool) {
	t.s.t.Helper()
	t.typeLine(text)
	for try := 1; try <= 5; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		sent := t.s.waitFor(ctx, taken)
		cancel()
		if sent {
			return
		}
		t.s.t.Logf("%q not taken 3 s after Enter (model requests: %d); pressing Enter again", text, len(t.s.srv.Exchanges()))
		t.tmux(nil, "send-keys", "-t", "0", "Enter")
	}
}

// asked is submit's test for a prompt: the model server has had a request
// since now.
func (t *tty) asked() func() bool {
	n := len(t.s.srv.Exchanges())
	return func() bool { return len(t.s.srv.Exchanges()) > n || exists(t.exitFile) }
}

// exited is submit's test for a quit command.
func (t *tty) exited() bool { return exists(t.exitFile) }

// typeLine types text into the pane and presses Enter.
func (t *tty) typeLine(text string) {
	t.s.t.Helper()
	t.tmux(nil, "send-keys", "-t", "0", "-l", text)
	time.Sleep(300 * time.Millisecond)
	t.tmux(nil, "send-keys", "-t", "0", "Enter")
}

// waitExit waits for the CLI to exit and returns its exit status.
func (t *tty) waitExit(limit time.Duration) int {
	t.s.t.Helper()
	var b []byte
	t.waitUntil("the CLI to exit", limit, func() bool {
		t.screen()
		var err error
		b, err = os.ReadFile(t.exitFile)
		return err == nil && len(bytes.TrimSpace(b)) > 0
	})
	code, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.s.t.Fatalf("exit status %q: %v", b, err)
	}
	return code
}

// connects reads strace's log: the non-loopback connect(2) calls.
func (t *tty) connects() []string {
	if !useStrace {
		return nil
	}
	return foreignConnects(t.s.t, t.straceLog, t.s.srv.Port())
}

// transcript is the last distinct screens seen, for failure messages.
func (t *tty) transcript() string {
	var b strings.Builder
	for i, scr := range t.screens {
		if i < len(t.screens)-8 {
			continue
		}
		fmt.Fprintf(&b, "--- screen %d of %d\n%s\n", i+1, len(t.screens), strings.TrimRight(scr, "\n "))
	}
	return b.String()
}

// close stops the test's tmux server (and the CLI in its pane, if it still runs).
func (t *tty) close() {
	if t.s.t.Failed() {
		t.s.t.Logf("last screens:\n%s", t.transcript())
	}
	exec.Command("tmux", "-S", t.sock, "kill-server").Run()
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
