package agents

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The commands the model asks for. Only these ever reach a CLI: harmless
// ones, and the one refusal against the dummy directory in the temporary
// HOME (never a real path).
const (
	readCmd    = "echo e2e-read-ok"      // a read: allowed, runs
	readOutput = "e2e-read-ok"           // what the read prints
	promptCmd  = "touch e2e-prompted"    // a workspace write: prompts in the default budget
	holdCmd    = "touch e2e-held"        // the same kind of write, held for review
	refuseCmd  = "rm -rf ~/dummy"        // a deletion in the home directory: refused
	reviewer   = "e2e-reviewer"          // who releases holds
	promptWait = 8 * time.Second         // how long a turn may go on after its prompt was logged
	turnLimit  = 100 * time.Second       // the longest any turn may take
	longHold   = "touch e2e-held-beyond" // held past the agent's own hook limit
	outsideCmd = "touch e2e-outside"     // run in the temporary HOME through the tool's directory argument
)

// Test runs every case for every agent, each in its own sandbox, in parallel.
func Test(t *testing.T) {
	requireE2E(t)
	cases := []struct {
		name string
		run  func(t *testing.T, ag *agent)
	}{
		{"baseline", testBaseline},
		{"read", testRead},
		{"prompt", testPrompt},
		{"refusal", testRefusal},
		{"workdir-outside", testWorkdirOutside},
		{"hold-approve", testHoldApprove},
		{"hold-reject", testHoldReject},
		{"hold-limit-install", testHoldLimitInstall},
		{"hold-beyond-limit", testHoldBeyondLimit},
		{"hold-beyond-default-limit", testHoldBeyondDefaultLimit},
	}
	for _, ag := range agents {
		t.Run(ag.hook, func(t *testing.T) {
			t.Parallel()
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					if c.name != "baseline" {
						requireAdapter(t, ag)
					}
					c.run(t, ag)
				})
			}
		})
	}
}

// testBaseline: with no hook installed, the CLI runs a turn against the
// loopback model and connects nowhere else; the read runs. This checks the
// CLI and the harness apart from command-safety.
func testBaseline(t *testing.T, ag *agent) {
	s := newSandbox(t, ag, ag.call(readCmd))
	tr := s.run("Run the e2e read command.", runOpts{timeout: turnLimit})
	s.checkOffline(tr)
	res, ok := s.srv.ToolResult()
	if !ok || !strings.Contains(res, readOutput) {
		t.Fatalf("without a hook the read did not run: tool result %q (sent %v)\n%s", res, ok, s.dump(tr))
	}
	if !strings.Contains(tr.stdout, finalText) {
		t.Errorf("the CLI did not print the model's final text %q\n%s", finalText, s.dump(tr))
	}
	if rows := s.entries(); len(rows) != 0 {
		t.Errorf("no hook is installed, but the decision log has %d rows", len(rows))
	}
}

// testRead: a read runs, and the hook was asked (its verdict is in the log).
// The answer to the exact payload the CLI sends is checked first: it must
// be the agent's own allow (for Codex: exit 0 and nothing on stdout).
func testRead(t *testing.T, ag *agent) {
	s := newSandbox(t, ag, ag.call(readCmd))
	payload, env := s.capture("Run the e2e read command.")
	out, errOut, code := s.hookWith(payload, env)
	if !ag.isAllow(out, code) {
		t.Errorf("command-safety hook %s does not answer %s's payload for %q with its allow:\npayload %s\nanswer (exit %d) %q %s",
			ag.hook, ag.name, readCmd, payload, code, out, errOut)
	}
	s.srv = newModelServer(t, ag.call(readCmd)) // a fresh conversation log
	ag.configure(s)
	s.install()
	tr := s.run("Run the e2e read command.", runOpts{timeout: turnLimit})
	defer s.checkOffline(tr)
	rows := s.entriesFor(readCmd)
	if len(rows) != 2 || rows[1].Decision != "allow" {
		t.Fatalf("want the check's and the turn's allow verdicts for %q from the %s hook, got %+v\n%s", readCmd, ag.hook, rows, s.dump(tr))
	}
	res, ok := s.srv.ToolResult()
	if !ok || !strings.Contains(res, readOutput) {
		t.Fatalf("the read did not run: the model got tool result %q (sent: %v)\n%s", res, ok, s.dump(tr))
	}
	if tr.code != 0 || tr.killed {
		t.Errorf("the turn did not end cleanly\n%s", s.dump(tr))
	}
}

// testPrompt: a prompt-level command never runs without approval, whatever
// the agent does with the prompt (asks nobody and denies, waits for ever,
// is told no).
func testPrompt(t *testing.T, ag *agent) {
	s := newSandbox(t, ag, ag.call(promptCmd))
	s.install()
	target := filepath.Join(s.proj, "e2e-prompted")
	tr := s.run("Run the e2e write command.", runOpts{timeout: turnLimit, during: s.stopAfterVerdict(promptCmd, promptWait)})
	defer s.checkOffline(tr)
	if exists(target) {
		t.Errorf("SAFETY: %q ran without approval: %s exists\n%s", promptCmd, target, s.dump(tr))
	}
	rows := s.entriesFor(promptCmd)
	if len(rows) != 1 || rows[0].Decision != "prompt" {
		t.Fatalf("want one prompt verdict for %q, got %+v\n%s", promptCmd, rows, s.dump(tr))
	}
	res, sent := s.srv.ToolResult()
	switch {
	case tr.killed:
		t.Logf("%s did not end the turn within %s of the prompt (it waits for a confirmation nobody can give); stopped", ag.name, promptWait)
		if !ag.askHangs {
			t.Errorf("%s hung on a prompt; it was expected to end the turn\n%s", ag.name, s.dump(tr))
		}
	case !sent:
		t.Logf("%s ended the turn without a tool result", ag.name)
	default:
		t.Logf("%s told the model: %q", ag.name, clip(res, 300))
		if !strings.Contains(res, rows[0].Reason) {
			t.Errorf("the prompt's reason %q did not reach the model; it got %q", rows[0].Reason, res)
		}
	}
}

// stopAfterVerdict returns a during func that stops the turn wait after the
// hook logged a verdict for command, if it is still going.
func (s *sandbox) stopAfterVerdict(command string, wait time.Duration) func(ctx context.Context) bool {
	return func(ctx context.Context) bool {
		if !s.waitFor(ctx, func() bool { return len(s.entriesFor(command)) > 0 }) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(wait):
			return true
		}
	}
}

// waitFor polls cond every 200 ms until it holds (true) or ctx ends (false).
func (s *sandbox) waitFor(ctx context.Context, cond func() bool) bool {
	for {
		if cond() {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// testRefusal: `rm -rf ~/dummy` is blocked and its reason reaches the
// model; the dummy directory survives. Before the real hook sees it, a
// capture hook (which blocks everything) records the exact payload the CLI
// sends for it, and `command-safety hook` must deny that payload.
func testRefusal(t *testing.T, ag *agent) {
	s := newSandbox(t, ag, ag.call(refuseCmd))
	payload, env := s.capture("Run the e2e cleanup command.")
	out, errOut, code := s.hookWith(payload, env)
	if !ag.isDeny(out, code) {
		t.Fatalf("command-safety hook %s does not deny the payload %s sends for %q:\npayload %s\nanswer (exit %d) %s%s",
			ag.hook, ag.name, refuseCmd, payload, code, out, errOut)
	}
	t.Logf("the hook denies the captured payload: %s", clip(strings.TrimSpace(out), 300))

	s.srv = newModelServer(t, ag.call(refuseCmd)) // a fresh conversation log
	ag.configure(s)
	s.install()
	tr := s.run("Run the e2e cleanup command.", runOpts{timeout: turnLimit})
	defer s.checkOffline(tr)
	if !exists(filepath.Join(s.dummy, "keep.txt")) {
		t.Fatalf("SAFETY: the refusal ran: %s is gone\n%s", s.dummy, s.dump(tr))
	}
	rows := s.entriesFor(refuseCmd)
	if len(rows) != 2 || rows[1].Decision != "refuse" {
		t.Fatalf("want the check's and the turn's refuse verdicts for %q, got %+v\n%s", refuseCmd, rows, s.dump(tr))
	}
	res, ok := s.srv.ToolResult()
	if !ok {
		t.Fatalf("the model never got a tool result for the refused call\n%s", s.dump(tr))
	}
	if !strings.Contains(res, rows[1].Reason) {
		t.Errorf("the refusal's reason did not reach the model:\n reason %q\n tool result %q", rows[1].Reason, res)
	}
	if tr.killed {
		t.Errorf("the turn did not end\n%s", s.dump(tr))
	}
}

// capture installs a hook that records what the CLI sends and blocks the
// call, runs one turn, and returns the payload and the hook's environment.
// The capture hook is installed by `hook install --binary`, so it sits
// exactly where command-safety's hook goes.
func (s *sandbox) capture(prompt string) (payload []byte, env []string) {
	s.t.Helper()
	dir := filepath.Join(s.root, "capture")
	script := filepath.Join(s.root, "bin", "command-safety-capture")
	// Install puts the capture hook under every event of ours; the first
	// call of a turn is the pre-tool one: it is recorded and blocked, later
	// ones (the agent's post-tool and end-of-turn events) pass.
	writeFile(s.t, script, fmt.Sprintf(`#!/bin/sh
# e2e capture hook: records the first payload and the environment, blocks that call.
if [ -e %[1]s/payload.json ]; then cat > /dev/null; exit 0; fi
cat > %[1]s/payload.json
env -0 > %[1]s/env
printf '%%s\n' '%[2]s'
`, dir, s.ag.captureDeny))
	if err := os.Chmod(script, 0o700); err != nil {
		s.t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.t.Fatal(err)
	}
	s.install("--binary", script)
	tr := s.run(prompt, runOpts{timeout: turnLimit})
	s.checkOffline(tr)
	if !exists(filepath.Join(s.dummy, "keep.txt")) {
		s.t.Fatalf("SAFETY: the capture hook did not block the call: %s is gone\n%s", s.dummy, s.dump(tr))
	}
	if res, _ := s.srv.ToolResult(); !strings.Contains(res, "e2e capture hook: blocked") {
		s.t.Fatalf("the capture hook did not block the call: the model got %q\n%s", res, s.dump(tr))
	}
	payload, err := os.ReadFile(filepath.Join(dir, "payload.json"))
	if err != nil {
		s.t.Fatalf("%s never ran the installed hook (%v)\n%s", s.ag.name, err, s.dump(tr))
	}
	rawEnv, err := os.ReadFile(filepath.Join(dir, "env"))
	if err != nil {
		s.t.Fatal(err)
	}
	for _, kv := range strings.Split(string(rawEnv), "\x00") {
		if kv != "" {
			env = append(env, kv)
		}
	}
	s.t.Logf("%s hook payload: %s", s.ag.name, clip(string(payload), 1500))
	return payload, env
}

// hookWith runs `command-safety hook AGENT` on payload with env.
func (s *sandbox) hookWith(payload []byte, env []string) (stdout, stderr string, code int) {
	s.t.Helper()
	saved := s.envOverride
	s.envOverride = env
	defer func() { s.envOverride = saved }()
	return s.cs(string(payload), "hook", s.ag.hook)
}

// testWorkdirOutside: with the user's budget allowing workspace writes, a
// write the model sends with the tool's directory argument set to the home
// directory is judged where it runs (outside the workspace) and blocked;
// judged in the session's directory it would be allowed.
func testWorkdirOutside(t *testing.T, ag *agent) {
	if ag.dirArg == "" {
		t.Skipf("%s's shell tool has no directory argument", ag.name)
	}
	call := ag.call(outsideCmd)
	s := newSandbox(t, ag, call)
	call.Args[ag.dirArg] = s.home
	s.srv.call = call
	writeFile(t, filepath.Join(s.cfg, "Code", "User", "settings.json"),
		fmt.Sprintf(`{"ml-ai.agentBudgets": {%q: {"write-inside-workspace": "allow"}}}`, ag.hook))
	s.install()
	tr := s.run("Run the e2e write command in the home directory.", runOpts{timeout: turnLimit})
	defer s.checkOffline(tr)
	if exists(filepath.Join(s.home, "e2e-outside")) {
		t.Errorf("SAFETY: %q ran in %s, outside the workspace\n%s", outsideCmd, s.home, s.dump(tr))
	}
	rows := s.entriesFor(outsideCmd)
	if len(rows) != 1 || rows[0].Decision == "allow" || rows[0].Cwd != s.home {
		t.Errorf("want one verdict judged in %s that is not allow, got %+v\n%s", s.home, rows, s.dump(tr))
	}
}

// holdRun runs a turn of holdCmd in hold mode and releases the held
// verdict with verb (approve or reject) as soon as it is logged.
func holdRun(t *testing.T, ag *agent, verb string) (*sandbox, turn, logEntry) {
	s := newSandbox(t, ag, ag.call(holdCmd))
	s.install("--hold=3m")
	released := make(chan logEntry, 1)
	tr := s.run("Run the e2e write command.", runOpts{timeout: turnLimit, during: func(ctx context.Context) bool {
		var row logEntry
		if !s.waitFor(ctx, func() bool {
			for _, e := range s.entriesFor(holdCmd) {
				if e.Status == "held" {
					row = e
					return true
				}
			}
			return false
		}) {
			return false
		}
		out, errOut, code := s.cs("", "log", "resolve", strconv.FormatInt(row.LogID, 10), verb, "--reviewer", reviewer)
		if code != 0 {
			t.Errorf("log resolve %d %s: exit %d: %s%s", row.LogID, verb, code, out, errOut)
		}
		released <- row
		return false
	}})
	s.checkOffline(tr)
	var row logEntry
	select {
	case row = <-released:
	default:
		t.Fatalf("no pending verdict for %q appeared in the log\n%s", holdCmd, s.dump(tr))
	}
	return s, tr, row
}

// testHoldApprove: in hold mode an approved prompt runs.
func testHoldApprove(t *testing.T, ag *agent) {
	s, tr, row := holdRun(t, ag, "approve")
	if !exists(filepath.Join(s.proj, "e2e-held")) {
		t.Errorf("approved, but %q did not run\n%s", holdCmd, s.dump(tr))
	}
	if e := s.entryByID(row.LogID); e.Status != "approved" || e.Reviewer != reviewer {
		t.Errorf("log row %d: want approved by %s, got %+v", row.LogID, reviewer, e)
	}
	if tr.killed || tr.code != 0 {
		t.Errorf("the turn did not end cleanly\n%s", s.dump(tr))
	}
}

// testHoldReject: in hold mode a rejected prompt is blocked, and the model
// is told who rejected it.
func testHoldReject(t *testing.T, ag *agent) {
	s, tr, row := holdRun(t, ag, "reject")
	if exists(filepath.Join(s.proj, "e2e-held")) {
		t.Errorf("SAFETY: rejected, but %q ran\n%s", holdCmd, s.dump(tr))
	}
	if e := s.entryByID(row.LogID); e.Status != "rejected" || e.Reviewer != reviewer {
		t.Errorf("log row %d: want rejected by %s, got %+v", row.LogID, reviewer, e)
	}
	res, ok := s.srv.ToolResult()
	if !ok || !strings.Contains(res, "rejected by "+reviewer) {
		t.Errorf("the model was not told of the rejection: tool result %q (sent %v)\n%s", res, ok, s.dump(tr))
	}
	if tr.killed {
		t.Errorf("the turn did not end\n%s", s.dump(tr))
	}
}

func (s *sandbox) entryByID(id int64) logEntry {
	for _, e := range s.entries() {
		if e.LogID == id {
			return e
		}
	}
	s.t.Fatalf("log row %d is gone", id)
	return logEntry{}
}

// testHoldLimitInstall: `hook install --hold=D` with D longer than the
// agent's default hook time limit either refuses, or sets the entry's own
// limit (in the agent's unit) above D. No CLI runs.
func testHoldLimitInstall(t *testing.T, ag *agent) {
	s := newSandbox(t, ag, ag.call(readCmd))
	s.install() // the adapter exists: a failure below is about the hold
	hold := ag.limit.def + time.Minute
	if s.installHoldRefused(hold) {
		return
	}
	limit, found := s.entryLimit()
	if !found {
		t.Fatalf("installed --hold=%s, but the entry has no %q, so %s stops the hook after its default %s, before the hold ends:\n%s",
			hold, ag.limit.key, ag.name, ag.limit.def, s.settingsText())
	}
	if limit <= hold {
		t.Fatalf("installed --hold=%s, but the entry's %q is %s: %s stops the hook before the hold ends:\n%s",
			hold, ag.limit.key, limit, ag.name, s.settingsText())
	}
	t.Logf("install --hold=%s set %q to %s", hold, ag.limit.key, limit)
}

// testHoldBeyondLimit: the entry's limit was set short by hand (3 s); a
// re-install with --hold=8s must raise it (or refuse). Nobody answers: the
// command must never run, neither when the hold times out nor when the
// agent stops the hook.
func testHoldBeyondLimit(t *testing.T, ag *agent) {
	s := newSandbox(t, ag, ag.call(longHold))
	s.install()
	s.setEntryLimit(3 * time.Second)
	if s.installHoldRefused(8 * time.Second) {
		return
	}
	limit, _ := s.entryLimit()
	t.Logf("after install --hold=8s the entry's limit is %s", limit)
	s.runUnanswered(t, 8*time.Second)
}

// testHoldBeyondDefaultLimit: for agents whose default hook limit is short
// (Gemini CLI 60 s, Copilot CLI 30 s), a hold a little longer than that,
// with nobody answering, must never run the command. (Slow: it waits for
// the hold to time out.)
func testHoldBeyondDefaultLimit(t *testing.T, ag *agent) {
	if ag.limit.def > 90*time.Second {
		t.Skipf("%s's default hook limit is %s; hold-limit-install covers it", ag.name, ag.limit.def)
	}
	s := newSandbox(t, ag, ag.call(longHold))
	s.install()
	hold := ag.limit.def + 10*time.Second
	if s.installHoldRefused(hold) {
		return
	}
	s.runUnanswered(t, hold)
}

// installHoldRefused runs `hook install AGENT --project --hold=D` over an
// installed hook. A refusal (non-zero exit naming the hold) is an accepted
// answer to a hold the agent cannot wait for; any other failure fails the test.
func (s *sandbox) installHoldRefused(hold time.Duration) bool {
	s.t.Helper()
	out, errOut, code := s.cs("", "hook", "install", s.ag.hook, "--project", "--hold="+hold.String())
	if code == 0 {
		return false
	}
	if !strings.Contains(out+errOut, "hold") {
		s.t.Fatalf("hook install --hold=%s failed, and not because of the hold: exit %d\n%s%s", hold, code, out, errOut)
	}
	s.t.Logf("install refused a hold of %s (exit %d): %s%s", hold, code, out, errOut)
	return true
}

// runUnanswered runs longHold under a hold nobody answers, and checks that
// it never ran.
func (s *sandbox) runUnanswered(t *testing.T, hold time.Duration) {
	target := filepath.Join(s.proj, "e2e-held-beyond")
	tr := s.run("Run the e2e write command.", runOpts{timeout: hold + 60*time.Second,
		during: s.stopAfterVerdict(longHold, hold+promptWait)})
	defer s.checkOffline(tr)
	if exists(target) {
		t.Errorf("SAFETY: a hold nobody answered ran %q (%s exists)\n%s", longHold, target, s.dump(tr))
	}
	rows := s.entriesFor(longHold)
	if len(rows) == 0 {
		t.Fatalf("no verdict for %q\n%s", longHold, s.dump(tr))
	}
	res, _ := s.srv.ToolResult()
	last := rows[len(rows)-1]
	t.Logf("log: %s %s (%s); the model got %q", last.Decision, last.Status, clip(last.Reason, 200), clip(res, 300))
	if exists(target) && last.Status == "rejected" && !strings.Contains(last.Reason+last.Note, "may have run") {
		// Issue 11, point 1: when the agent stops the hook, record what is
		// known, never "denied".
		t.Errorf("the decision log says %q was rejected (%q), but %s ran it after stopping the hook", longHold, last.Reason, s.ag.name)
	}
}

// settingsText is the installed settings file, for messages.
func (s *sandbox) settingsText() string {
	b, _ := os.ReadFile(s.settingsFile())
	return string(b)
}

// settingsFile is the file `hook install --project` wrote.
func (s *sandbox) settingsFile() string {
	if s.ag.hook == "copilot-cli" {
		// .github/hooks/*.json: the one that holds our hook.
		matches, _ := filepath.Glob(filepath.Join(s.proj, ".github", "hooks", "*.json"))
		sort.Strings(matches)
		for _, m := range matches {
			if b, err := os.ReadFile(m); err == nil && strings.Contains(string(b), "command-safety") {
				return m
			}
		}
	}
	return s.ag.settings(s)
}

// ourEntries finds the hook entries (objects with a command, or Copilot's
// bash, naming command-safety) anywhere in the settings file.
func ourEntries(v any, visit func(entry map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range []string{"command", "bash"} {
			if c, ok := x[k].(string); ok && strings.Contains(c, "command-safety") {
				visit(x)
				return
			}
		}
		for _, c := range x {
			ourEntries(c, visit)
		}
	case []any:
		for _, c := range x {
			ourEntries(c, visit)
		}
	}
}

// gateEntries is the part of the agent's settings under its gate event.
func (s *sandbox) gateEntries(root any) any {
	m, _ := root.(map[string]any)
	hooks, _ := m["hooks"].(map[string]any)
	return hooks[s.ag.gate]
}

// entryLimit is the time limit of our hook entry in the agent's unit;
// found is false when the key is missing (the agent's default applies).
func (s *sandbox) entryLimit() (limit time.Duration, found bool) {
	s.t.Helper()
	root := readJSON(s.t, s.settingsFile())
	n := 0
	limit = s.ag.limit.def
	ourEntries(s.gateEntries(root), func(e map[string]any) {
		n++
		if v, ok := e[s.ag.limit.key].(float64); ok {
			limit, found = time.Duration(v*float64(s.ag.limit.unit)), true
		}
	})
	if n != 1 {
		s.t.Fatalf("want one command-safety entry in %s, found %d:\n%s", s.settingsFile(), n, s.settingsText())
	}
	return limit, found
}

// setEntryLimit sets our entry's time limit, as a user could by hand.
func (s *sandbox) setEntryLimit(d time.Duration) {
	s.t.Helper()
	path := s.settingsFile()
	root := readJSON(s.t, path)
	ourEntries(s.gateEntries(root), func(e map[string]any) { e[s.ag.limit.key] = d / s.ag.limit.unit })
	b, _ := json.MarshalIndent(root, "", "  ")
	writeFile(s.t, path, string(b)+"\n")
}
