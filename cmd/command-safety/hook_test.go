package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/hookrun"
	"github.com/ml-ai/command-safety/journal"
)

var (
	hookBuildOnce sync.Once
	hookBuiltBin  string
	hookBuildErr  error
	hookBuildOut  []byte
)

// hookBinary builds command-safety once per test run into a directory that
// is fixed per user and overwritten each run (the package's TestMain belongs
// to other tests, so nothing would remove a fresh temporary directory).
func hookBinary(t *testing.T) string {
	t.Helper()
	hookBuildOnce.Do(func() {
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("command-safety-hook-test-%d-%s", os.Getuid(), checkoutKey()))
		if hookBuildErr = os.MkdirAll(dir, 0o755); hookBuildErr != nil {
			return
		}
		hookBuiltBin = filepath.Join(dir, "command-safety")
		if runtime.GOOS == "windows" {
			hookBuiltBin += ".exe"
		}
		tmp := fmt.Sprintf("%s.%d.tmp", hookBuiltBin, os.Getpid())
		hookBuildOut, hookBuildErr = exec.Command("go", "build", "-o", tmp, ".").CombinedOutput()
		if hookBuildErr == nil {
			hookBuildErr = os.Rename(tmp, hookBuiltBin)
		}
	})
	if hookBuildErr != nil {
		t.Fatalf("go build: %v\n%s", hookBuildErr, hookBuildOut)
	}
	return hookBuiltBin
}

// checkoutKey names this checkout in the paths of the binaries the tests
// build, so that tests of two checkouts (git worktrees) running at once do
// not overwrite each other's binary.
func checkoutKey() string {
	wd, _ := os.Getwd()
	return fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(wd)))
}

// hookSandbox is a temporary HOME with XDG directories inside it and a
// workspace (a git work tree) to run the hook in.
type hookSandbox struct {
	home, work string
	env        []string
}

func newHookSandbox(t *testing.T) *hookSandbox {
	t.Helper()
	root := t.TempDir()
	s := &hookSandbox{home: filepath.Join(root, "home"), work: filepath.Join(root, "work")}
	for _, d := range []string{s.home, filepath.Join(s.work, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.env = []string{
		"HOME=" + s.home,
		"XDG_CONFIG_HOME=" + filepath.Join(s.home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(s.home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(s.home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(s.home, ".cache"),
		"PATH=" + os.Getenv("PATH"),
	}
	return s
}

func (s *hookSandbox) logPath() string {
	return filepath.Join(s.home, ".local", "state", "ml-ai", "decisions.db")
}

// run runs the binary with args and stdin in the sandbox.
func (s *hookSandbox) run(t *testing.T, stdin string, extraEnv []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(hookBinary(t), args...)
	cmd.Dir = s.work
	cmd.Env = append(append([]string{}, s.env...), extraEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestHookProcess runs `command-safety hook <agent>` as a process and checks
// the answer and the decision log rows it wrote.
func TestHookProcess(t *testing.T) {
	s := newHookSandbox(t)
	type hookCase struct {
		agent, stdin string
		env          []string
		decision     string // in the agent's spelling; "" for no output
		logged       effects.Decision
		session      string
		code         int
	}
	w := s.work
	cases := []hookCase{
		{"claude-code", `{"session_id":"cc-1","cwd":"` + w + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			[]string{"CLAUDE_PROJECT_DIR=" + w}, "allow", effects.Allow, "cc-1", 0},
		{"claude-code", `{"session_id":"cc-2","cwd":"` + w + `","permission_mode":"bypassPermissions","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`,
			nil, "deny", effects.Refuse, "cc-2", 0},
		{"claude-code", `{"session_id":"cc-3","cwd":"` + w + `","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"x"}}`,
			nil, "", 0, "", 0},
		{"claude-code", `not json`, nil, "deny", effects.Refuse, "", 0},
		{"cursor", `{"hook_event_name":"beforeShellExecution","conversation_id":"cu-1","workspace_roots":["` + w + `"],"command":"npm install x","cwd":"` + w + `"}`,
			nil, "ask", effects.Prompt, "cu-1", 0},
		{"gemini-cli", `{"session_id":"ge-1","cwd":"` + w + `","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~"}}`,
			[]string{"GEMINI_PROJECT_DIR=" + w}, "deny", effects.Refuse, "ge-1", 0},
		{"gemini-cli", ``, nil, "deny", effects.Refuse, "", 0},
		// Codex: an allow is no output (it runs the tool on "allow" and
		// "ask" alike), a prompt is a deny.
		{"codex", `{"session_id":"cx-1","cwd":"` + w + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			nil, "", effects.Allow, "cx-1", 0},
		{"codex", `{"session_id":"cx-2","cwd":"` + w + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm install x"}}`,
			nil, "deny", effects.Prompt, "cx-2", 0},
		// VS Code's agent: its terminal tool is judged, other tools get no
		// opinion; through the claude-code entry VS Code also runs.
		{"vscode", `{"timestamp":"2026-12-01T14:00:50.851Z","hookEventName":"PreToolUse","sessionId":"vs-1","cwd":"` + w + `","tool_name":"run_in_terminal","tool_input":{"command":"git status","explanation":"x","isBackground":false},"tool_use_id":"c1"}`,
			nil, "allow", effects.Allow, "vs-1", 0},
		{"vscode", `{"hookEventName":"PreToolUse","sessionId":"vs-2","cwd":"` + w + `","tool_name":"run_in_terminal","tool_input":{"command":"rm -rf ~","explanation":"x","isBackground":false},"tool_use_id":"c2"}`,
			nil, "deny", effects.Refuse, "vs-2", 0},
		{"vscode", `{"hookEventName":"PreToolUse","sessionId":"vs-3","cwd":"` + w + `","tool_name":"read_file","tool_input":{"filePath":"x"},"tool_use_id":"c3"}`,
			nil, "", 0, "", 0},
		{"claude-code", `{"hookEventName":"PreToolUse","sessionId":"vs-4","cwd":"` + w + `","tool_name":"run_in_terminal","tool_input":{"command":"npm install x","explanation":"x","isBackground":false},"tool_use_id":"c4"}`,
			nil, "ask", effects.Prompt, "vs-4", 0},
		// Copilot CLI: bash judged, powershell at most asks.
		{"copilot-cli", `{"sessionId":"cp-1","timestamp":1796133650851,"cwd":"` + w + `","toolName":"bash","toolArgs":{"command":"ls","description":"x"}}`,
			[]string{"COPILOT_CLI=1", "COPILOT_PROJECT_DIR=" + w}, "allow", effects.Allow, "cp-1", 0},
		{"copilot-cli", `{"sessionId":"cp-2","timestamp":1796133650851,"cwd":"` + w + `","toolName":"powershell","toolArgs":{"command":"ls"}}`,
			nil, "ask", effects.Prompt, "cp-2", 0},
		{"copilot-cli", `{"sessionId":"cp-3","toolName":"bash","toolArgs":"not json"}`, nil, "deny", effects.Refuse, "cp-3", 0},
		{"copilot", `{"command":"ls"}`, nil, "deny", effects.Refuse, "", 2},
	}
	want := 0
	for _, c := range cases {
		stdout, stderr, code := s.run(t, c.stdin, c.env, "hook", c.agent)
		if code != c.code {
			t.Errorf("%s %q: exit %d, want %d\nstderr: %s", c.agent, c.stdin, code, c.code, stderr)
		}
		if got := hookDecision(t, c.agent, stdout); got != c.decision {
			t.Errorf("%s %q: decision %q, want %q\nstdout: %s\nstderr: %s", c.agent, c.stdin, got, c.decision, stdout, stderr)
		}
		if strings.Contains(stderr, "decision log") {
			t.Errorf("%s: the decision log failed: %s", c.agent, stderr)
		}
		if c.decision != "" || c.session != "" {
			want++
		}
	}

	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != want {
		t.Fatalf("%d rows in the decision log, want %d", len(rows), want)
	}
	// Rows come newest first; match them to the cases that answered.
	i := len(rows) - 1
	for _, c := range cases {
		if c.decision == "" && c.session == "" {
			continue
		}
		r := rows[i]
		i--
		wantAgent := c.agent
		if strings.Contains(c.stdin, `"hookEventName"`) {
			wantAgent = "vscode" // the payload names its host
		}
		if r.Agent != wantAgent || r.Decision != c.logged || r.Session != c.session || r.Reason == "" {
			t.Errorf("row %d: agent %q decision %s session %q reason %q; want %q %s %q",
				r.LogID, r.Agent, r.Decision, r.Session, r.Reason, wantAgent, c.logged, c.session)
		}
	}
}

// hookOnlyBinary builds cmd/command-safety-hook beside [hookBinary], where
// `hook install` and the hook binary itself look for each other.
func hookOnlyBinary(t *testing.T) string {
	t.Helper()
	full := hookBinary(t)
	hookOnlyOnce.Do(func() {
		hookOnlyBin = filepath.Join(filepath.Dir(full), "command-safety-hook")
		if runtime.GOOS == "windows" {
			hookOnlyBin += ".exe"
		}
		tmp := fmt.Sprintf("%s.%d.tmp", hookOnlyBin, os.Getpid())
		hookOnlyOut, hookOnlyErr = exec.Command("go", "build", "-o", tmp, "../command-safety-hook").CombinedOutput()
		if hookOnlyErr == nil {
			hookOnlyErr = os.Rename(tmp, hookOnlyBin)
		}
	})
	if hookOnlyErr != nil {
		t.Fatalf("go build: %v\n%s", hookOnlyErr, hookOnlyOut)
	}
	return hookOnlyBin
}

var (
	hookOnlyOnce sync.Once
	hookOnlyBin  string
	hookOnlyOut  []byte
	hookOnlyErr  error
)

// runBin is [hookSandbox.run] with another binary.
func (s *hookSandbox) runBin(t *testing.T, bin, stdin string, extraEnv []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.work
	cmd.Env = append(append([]string{}, s.env...), extraEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return out.String(), errb.String(), code
}

// TestHookJournal (issue 17): hooks, from either binary, record their
// verdicts in the hooks' journal and never open the SQLite log (so no WAL
// or database appears); `log` ingests them, every one once, and empties the
// journal; hooks appending while readers ingest (4 processes at once,
// readers in between) lose and duplicate nothing.
func TestHookJournal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no journal without flock: hooks write the log")
	}
	s := newHookSandbox(t)
	small, full := hookOnlyBinary(t), hookBinary(t)
	in := func(cmd string) string {
		return `{"session_id":"j","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`
	}
	const runs = 20
	for i := range runs {
		bin := small
		if i%2 == 1 {
			bin = full
		}
		if out, stderr, code := s.runBin(t, bin, in(fmt.Sprintf("ls %d", i)), nil, "hook", "claude-code"); code != 0 || hookDecision(t, "claude-code", out) != "allow" {
			t.Fatalf("run %d (%s): exit %d %s %s", i, filepath.Base(bin), code, out, stderr)
		}
	}
	for _, f := range []string{s.logPath(), s.logPath() + "-wal"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s exists after hooks alone: a hook opened SQLite", f)
		}
	}
	j := journal.Path(s.logPath())
	st, err := os.Stat(j)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("journal: %v, mode %v; want 0600", err, st.Mode())
	}
	out, stderr, code := s.run(t, "", nil, "log", "--json", "--limit", "1000")
	if code != 0 {
		t.Fatalf("log: exit %d %s", code, stderr)
	}
	if n := strings.Count(out, `"command": "ls `); n != runs {
		t.Errorf("log shows %d hook verdicts, want %d:\n%s", n, runs, out)
	}
	if st, err := os.Stat(j); err != nil || st.Size() != 0 {
		t.Errorf("journal after log: %v, %v; want emptied", st.Size(), err)
	}
	// Hooks at once, with readers ingesting between them.
	const procs, each = 4, 10
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			for i := range each {
				if out, stderr, code := s.runBin(t, small, in(fmt.Sprintf("ls p%d-%d", p, i)), nil, "hook", "claude-code"); code != 0 || !strings.Contains(out, `"allow"`) {
					t.Errorf("concurrent run: exit %d %s %s", code, out, stderr)
				}
			}
		})
	}
	wg.Go(func() {
		for range 5 {
			if _, stderr, code := s.run(t, "", nil, "log", "--limit", "1"); code != 0 {
				t.Errorf("log while hooks append: exit %d %s", code, stderr)
			}
		}
	})
	wg.Wait()
	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range rows {
		seen[r.Command]++
	}
	for p := range procs {
		for i := range each {
			if c := fmt.Sprintf("ls p%d-%d", p, i); seen[c] != 1 {
				t.Errorf("%q is in the log %d times, want once", c, seen[c])
			}
		}
	}
	if len(rows) != runs+procs*each {
		t.Errorf("%d rows, want %d", len(rows), runs+procs*each)
	}
}

// TestHookProcessSettings: the hook reads the same settings files as check:
// the user's decisionLog (which joins the rule store, WAL included) and a
// workspace's commandSafety: false.
func TestHookProcessSettings(t *testing.T) {
	s := newHookSandbox(t)
	logPath := filepath.Join(s.work, "logs", "decisions.db")
	user := filepath.Join(s.home, ".config", "Code", "User", "settings.json")
	ws := filepath.Join(s.work, ".vscode", "settings.json")
	for path, text := range map[string]string{
		user: `{"ml-ai.decisionLog": "` + logPath + `"}`,
		ws:   "{\n  // this repository wants every command asked\n  \"ml-ai.commandSafety\": false,\n}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(id, cmd string) string {
		return `{"session_id":"` + id + `","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`
	}
	env := []string{"CLAUDE_PROJECT_DIR=" + s.work}
	if out, stderr, _ := s.run(t, in("a", "ls"), env, "hook", "claude-code"); hookDecision(t, "claude-code", out) != "ask" {
		t.Errorf("ls with the workspace's commandSafety false: %s %s, want ask", out, stderr)
	}
	for _, target := range []string{logPath, logPath + "-wal"} {
		out, stderr, _ := s.run(t, in("b", "cp /dev/null "+target), env, "hook", "claude-code")
		if hookDecision(t, "claude-code", out) != "deny" || !strings.Contains(out, "rule store") {
			t.Errorf("overwriting %s: %s %s, want a rule-store refusal", target, out, stderr)
		}
	}
	l, err := audit.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{})
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows in the log the settings name (%v), want 3", len(rows), err)
	}
	if _, err := os.Stat(s.logPath()); err == nil {
		t.Errorf("the default log was written too")
	}
}

// TestHookProcessLogUnavailable: when the log cannot be written, nothing is
// allowed and stderr says why.
func TestHookProcessLogUnavailable(t *testing.T) {
	s := newHookSandbox(t)
	// A file where the log's directory should be.
	if err := os.MkdirAll(filepath.Join(s.home, ".local", "state"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.home, ".local", "state", "ml-ai"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := `{"session_id":"s","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	stdout, stderr, code := s.run(t, in, nil, "hook", "claude-code")
	if code != 0 || hookDecision(t, "claude-code", stdout) != "ask" || !strings.Contains(stderr, "decision log") {
		t.Errorf("exit %d, stdout %s, stderr %s; want ask and a note", code, stdout, stderr)
	}
}

// TestHookInstallProcess installs into a sandboxed home and project,
// repeats, and uninstalls, checking the files and the summary.
func TestHookInstallProcess(t *testing.T) {
	s := newHookSandbox(t)
	bin := hookBinary(t)
	small, err := filepath.EvalSymlinks(hookOnlyBinary(t)) // beside bin: install writes it for the gate
	if err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}
	claudeUser := filepath.Join(s.home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(claudeUser), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := `{"model": "opus", "permissions": {"allow": ["Bash(go test:*)"]}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`
	if err := os.WriteFile(claudeUser, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}

	out, stderr, code := s.run(t, "", nil, "hook", "install", "claude-code", "--user")
	if code != 0 || !strings.Contains(out, "+++ "+claudeUser) || !strings.Contains(out, `+ hooks.PreToolUse[0]`) {
		t.Fatalf("install: exit %d\n%s%s", code, out, stderr)
	}
	data, err := os.ReadFile(claudeUser)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Model string
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	wantCmd := small + " hook claude-code --limit=30s"
	// The gate on PreToolUse, through command-safety-hook (no SQLite);
	// reports on PostToolUse(Failure), Stop (after the user's own Stop
	// hook) and SessionEnd (a No in Claude Code's dialog runs no Stop),
	// through command-safety (they match rows in the log).
	if got.Model != "opus" || len(got.Hooks["Stop"]) != 2 || got.Hooks["Stop"][0].Hooks[0].Command != "say done" ||
		len(got.Hooks["PreToolUse"]) != 1 || len(got.Hooks["PostToolUse"]) != 1 || len(got.Hooks["SessionEnd"]) != 1 ||
		got.Hooks["PreToolUse"][0].Matcher != "Bash" || got.Hooks["PreToolUse"][0].Hooks[0].Command != wantCmd ||
		got.Hooks["PostToolUse"][0].Hooks[0].Command != resolved+" hook claude-code --limit=30s" ||
		got.Hooks["SessionEnd"][0].Hooks[0].Command != resolved+" hook claude-code --limit=30s" {
		t.Errorf("settings after install:\n%s", data)
	}
	if st, err := os.Stat(claudeUser); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode after install: %v %v", st.Mode(), err)
	}

	out, _, code = s.run(t, "", nil, "hook", "install", "claude-code", "--user")
	if code != 0 || !strings.Contains(out, "already installed") {
		t.Errorf("second install: exit %d\n%s", code, out)
	}
	if again, _ := os.ReadFile(claudeUser); string(again) != string(data) {
		t.Errorf("second install changed the file")
	}

	// Project scope for the other agents, into the sandbox's work tree.
	for agent, rel := range map[string]string{"cursor": ".cursor/hooks.json", "gemini-cli": ".gemini/settings.json", "codex": ".codex/hooks.json",
		"vscode": ".github/hooks/command-safety.json", "copilot-cli": ".github/hooks/command-safety.json"} {
		out, stderr, code := s.run(t, "", nil, "hook", "install", agent, "--project", "--dir", s.work)
		path := filepath.Join(s.work, filepath.FromSlash(rel))
		// vscode and copilot-cli share a file, which the other's uninstall
		// may have left holding only "version".
		if code != 0 || !strings.Contains(out, "\n+++ "+path) {
			t.Errorf("install %s: exit %d\n%s%s", agent, code, out, stderr)
		}
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), resolved+" hook "+agent) {
			t.Errorf("%s: %v\n%s", path, err, b)
		}
		out, _, code = s.run(t, "", nil, "hook", "uninstall", agent, "--dir", s.work)
		if code != 0 || !strings.Contains(out, "- hooks.") {
			t.Errorf("uninstall %s: exit %d\n%s", agent, code, out)
		}
	}

	out, _, code = s.run(t, "", nil, "hook", "uninstall", "claude-code", "--user")
	if code != 0 || !strings.Contains(out, "- hooks.PreToolUse[0].hooks[0]") {
		t.Errorf("uninstall: exit %d\n%s", code, out)
	}
	var after, before any
	b, _ := os.ReadFile(claudeUser)
	if err := json.Unmarshal(b, &after); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(orig), &before)
	if !jsonEqual(after, before) {
		t.Errorf("after uninstall:\n%s\nwant the original\n%s", b, orig)
	}
	out, _, code = s.run(t, "", nil, "hook", "uninstall", "claude-code", "--user")
	if code != 0 || !strings.Contains(out, "nothing changed") {
		t.Errorf("second uninstall: exit %d\n%s", code, out)
	}

	for _, args := range [][]string{
		{"hook", "install"},
		{"hook", "install", "copilot"},
		{"hook", "install", "cursor", "--user", "--project"},
		{"hook", "install", "cursor", "extra"},
	} {
		if _, _, code := s.run(t, "", nil, args...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
	if out, stderr, code := s.run(t, `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, nil, "hook", "--help"); code != 2 || out != "" || !strings.Contains(stderr, "usage:") {
		t.Errorf("hook --help: exit %d, stdout %q, stderr %q; want 2, nothing, usage", code, out, stderr)
	}
	// A settings file with comments is left alone.
	jsonc := "{\n  // mine\n  \"model\": \"opus\"\n}\n"
	if err := os.WriteFile(claudeUser, []byte(jsonc), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := s.run(t, "", nil, "hook", "install", "claude-code", "--user"); code != 1 || !strings.Contains(stderr, "not plain JSON") {
		t.Errorf("install into JSONC: exit %d, %s", code, stderr)
	}
	if b, _ := os.ReadFile(claudeUser); string(b) != jsonc {
		t.Errorf("JSONC file was changed:\n%s", b)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// hookDecision reads the decision from an agent's stdout ("" for none).
func hookDecision(t *testing.T, agent, stdout string) string {
	t.Helper()
	if strings.TrimSpace(stdout) == "" {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	switch agent {
	case "claude-code", "codex":
		h, _ := m["hookSpecificOutput"].(map[string]any)
		s, _ := h["permissionDecision"].(string)
		return s
	case "vscode", "copilot-cli":
		h, _ := m["hookSpecificOutput"].(map[string]any)
		inner, _ := h["permissionDecision"].(string)
		if top, _ := m["permissionDecision"].(string); top != inner {
			t.Fatalf("the top level says %q, hookSpecificOutput %q: %s", top, inner, stdout)
		}
		return inner
	case "cursor":
		s, _ := m["permission"].(string)
		return s
	}
	s, _ := m["decision"].(string)
	return s
}

// TestHookHold runs hooks in hold mode as processes: a prompt waits pending
// in the decision log until another process (here `command-safety log
// resolve`, as a reviewer would) approves or rejects it; a timeout denies;
// allows and refusals never wait.
func TestHookHold(t *testing.T) {
	s := newHookSandbox(t)
	payload := func(session, command string) string {
		return `{"session_id":"` + session + `","cwd":"` + s.work + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"}}`
	}
	type result struct {
		stdout, stderr string
		code           int
		took           time.Duration
	}
	start := func(session, command string, flags ...string) chan result {
		ch := make(chan result, 1)
		go func() {
			t0 := time.Now()
			out, errOut, code := s.run(t, payload(session, command), nil, append([]string{"hook", "claude-code"}, flags...)...)
			ch <- result{out, errOut, code, time.Since(t0)}
		}()
		return ch
	}
	// pending waits for the held row of session and returns its id.
	pending := func(session string) int64 {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if l, err := audit.Open(s.logPath()); err == nil {
				rows, _ := l.Query(context.Background(), audit.Filter{Status: audit.StatusHeld})
				l.Close()
				for _, r := range rows {
					if _, held := audit.HeldUntil(r.Note); r.Session == session && held {
						return r.LogID
					}
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no held row for session %s", session)
		return 0
	}
	resolve := func(id int64, verb, reviewer string) {
		t.Helper()
		if out, errOut, code := s.run(t, "", nil, "log", "resolve", fmt.Sprint(id), verb, "--reviewer", reviewer); code != 0 {
			t.Fatalf("log resolve: exit %d\n%s%s", code, out, errOut)
		}
	}
	wait := func(ch chan result) result {
		t.Helper()
		select {
		case r := <-ch:
			return r
		case <-time.After(30 * time.Second):
			t.Fatal("the held hook did not answer")
		}
		return result{}
	}

	t.Run("through command-safety-hook", func(t *testing.T) {
		// It hands hold mode to command-safety beside it (exec: same pid,
		// stdin unread).
		small := hookOnlyBinary(t)
		ch := make(chan result, 1)
		go func() {
			t0 := time.Now()
			out, errOut, code := s.runBin(t, small, payload("hold-small", "npm install left-pad"), nil, "hook", "claude-code", "--hold=30s")
			ch <- result{out, errOut, code, time.Since(t0)}
		}()
		resolve(pending("hold-small"), "approve", "ada")
		r := wait(ch)
		if got := hookDecision(t, "claude-code", r.stdout); got != "allow" || !strings.Contains(r.stdout, "approved by ada") {
			t.Errorf("decision %q, want allow approved by ada\nstdout: %s\nstderr: %s", got, r.stdout, r.stderr)
		}
	})

	t.Run("approved", func(t *testing.T) {
		ch := start("hold-a", "npm install left-pad", "--hold=30s")
		id := pending("hold-a")
		resolve(id, "approve", "ada")
		r := wait(ch)
		if got := hookDecision(t, "claude-code", r.stdout); got != "allow" || !strings.Contains(r.stdout, "approved by ada") {
			t.Errorf("decision %q, want allow approved by ada\nstdout: %s\nstderr: %s", got, r.stdout, r.stderr)
		}
	})
	t.Run("rejected", func(t *testing.T) {
		ch := start("hold-r", "npm install left-pad", "--hold=30s")
		id := pending("hold-r")
		resolve(id, "reject", "bob")
		r := wait(ch)
		if got := hookDecision(t, "claude-code", r.stdout); got != "deny" || !strings.Contains(r.stdout, "rejected by bob") {
			t.Errorf("decision %q, want deny rejected by bob\nstdout: %s", got, r.stdout)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		r := wait(start("hold-t", "npm install left-pad", "--hold=1s"))
		if got := hookDecision(t, "claude-code", r.stdout); got != "deny" || !strings.Contains(r.stdout, "timed out") {
			t.Errorf("decision %q, want deny timed out\nstdout: %s", got, r.stdout)
		}
		if r.took < time.Second {
			t.Errorf("answered after %v, before the 1s hold ran out", r.took)
		}
	})
	// A hold longer than the agent's time limit for the hook (an entry
	// installed before the hold grew, or edited by hand) is cut to end
	// before the limit: the agent never stops a waiting hook, so it never
	// gets the chance to run the command unapproved (Gemini CLI would).
	t.Run("hold longer than the agent's limit", func(t *testing.T) {
		const limit = 8 * time.Second
		r := wait(start("hold-l", "npm install left-pad", "--hold=10m", "--limit="+limit.String()))
		if got := hookDecision(t, "claude-code", r.stdout); got != "deny" || !strings.Contains(r.stdout, "cut to fit the agent's time limit") {
			t.Errorf("decision %q, want deny, cut to the limit\nstdout: %s\nstderr: %s", got, r.stdout, r.stderr)
		}
		if r.took >= limit {
			t.Errorf("answered after %v, not before the agent's limit %v", r.took, limit)
		}
		l, err := audit.Open(s.logPath())
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		rows, _ := l.Query(context.Background(), audit.Filter{})
		for _, row := range rows {
			if row.Session == "hold-l" && (row.Status != audit.StatusRejected || row.Reviewer != audit.ReviewerTimeout) {
				t.Errorf("row %d: status %s reviewer %q, want rejected by %s", row.LogID, row.Status, row.Reviewer, audit.ReviewerTimeout)
			}
		}
		// A limit that leaves no time to wait denies at once.
		r = wait(start("hold-0", "npm install left-pad", "--hold=10m", "--limit=3s"))
		if got := hookDecision(t, "claude-code", r.stdout); got != "deny" || r.took > 3*time.Second {
			t.Errorf("--limit=3s: %q after %v, want deny at once", got, r.took)
		}
	})
	t.Run("allow and refuse never wait", func(t *testing.T) {
		for cmd, want := range map[string]string{"ls": "allow", "rm -rf ~": "deny"} {
			r := wait(start("hold-n", cmd, "--hold=30s"))
			if got := hookDecision(t, "claude-code", r.stdout); got != want || r.took > 10*time.Second {
				t.Errorf("%s: %q after %v, want %s at once", cmd, got, r.took, want)
			}
		}
	})
	t.Run("bad duration", func(t *testing.T) {
		r := wait(start("hold-b", "ls", "--hold=soon"))
		if got := hookDecision(t, "claude-code", r.stdout); got != "deny" {
			t.Errorf("--hold=soon: %q, want deny", got)
		}
	})
}

// TestHookBinariesInRuleStore: each binary's hook counts both binaries of
// the installation as the rule store (SPEC §5.6): writing over
// command-safety from command-safety-hook's hook is refused, and over
// command-safety-hook from command-safety's.
func TestHookBinariesInRuleStore(t *testing.T) {
	s := newHookSandbox(t)
	small, full := hookOnlyBinary(t), hookBinary(t)
	for _, c := range []struct{ runs, target string }{{small, full}, {full, small}} {
		target, err := filepath.EvalSymlinks(c.target)
		if err != nil {
			t.Fatal(err)
		}
		payload := `{"session_id":"rs","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo x > ` + target + `"}}`
		out, stderr, _ := s.runBin(t, c.runs, payload, nil, "hook", "claude-code")
		if hookDecision(t, "claude-code", out) != "deny" || !strings.Contains(out, "permission-rule store") {
			t.Errorf("%s judging a write to %s: %s\n%s", filepath.Base(c.runs), target, out, stderr)
		}
	}
}

// TestHookIngestsLargeJournal: where nothing reads the log, a hook that
// finds the journal past hookrun.IngestAbove starts a detached
// `command-safety log` once it has answered, which ingests it: the journal
// stays bounded.
func TestHookIngestsLargeJournal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no journal without flock")
	}
	s := newHookSandbox(t)
	j := journal.Path(s.logPath())
	big := strings.Repeat("x", 2000)
	for i := 0; i < hookrun.IngestAbove/2000+10; i++ {
		if err := journal.Append(j, journal.Record{Row: journal.Row{Time: "2026-12-01T00:00:00.000000Z", Command: fmt.Sprintf("echo %d %s", i, big),
			Decision: "allow", Status: "auto", Workspaces: "[]", Effects: "[]", ClassifierVersion: "1"}}); err != nil {
			t.Fatal(err)
		}
	}
	in := `{"session_id":"big","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	if out, stderr, code := s.runBin(t, hookOnlyBinary(t), in, nil, "hook", "claude-code"); code != 0 || hookDecision(t, "claude-code", out) != "allow" {
		t.Fatalf("hook: exit %d %s %s", code, out, stderr)
	}
	for deadline := time.Now().Add(20 * time.Second); journal.Pending(j); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the journal was not ingested")
		}
	}
	// The journal is emptied only after the commit of its rows.
	l, err := audit.Open(s.logPath())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rows, err := l.Query(context.Background(), audit.Filter{Limit: 10000})
	if err != nil || len(rows) != hookrun.IngestAbove/2000+11 || rows[0].Command != "ls" {
		t.Fatalf("%d rows (%v), want every journalled verdict", len(rows), err)
	}
}

// TestHookHomeNeverAWorkspace: Codex names no workspace, so the hook derives
// one from the command's directory. With a budget that allows workspace
// writes, a write in the home directory must still not be allowed when a git
// repository holds the home directory (a repository at /tmp, at /, or
// dotfiles kept in git), nor when the agent starts the hook without HOME
// (the account's home directory is then used); a write in an ordinary work
// tree is allowed. Nothing runs: the hook only judges. Both binaries.
func TestHookHomeNeverAWorkspace(t *testing.T) {
	s := newHookSandbox(t)
	outer := filepath.Dir(s.home) // holds home and work: a git repository around HOME
	if err := os.Mkdir(filepath.Join(outer, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	settingsFile := filepath.Join(s.home, ".config", "Code", "User", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settingsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settingsFile, []byte(`{"ml-ai.agentBudgets": {"codex": {"write-inside-workspace": "allow"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	payload := func(cwd, workdir string) string {
		in := map[string]any{"command": "touch cs-test-x"}
		if workdir != "" {
			in["workdir"] = workdir
		}
		b, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": in, "tool_use_id": "t"})
		return string(b)
	}
	var noHome []string // the sandbox's environment without HOME
	for _, kv := range s.env {
		if !strings.HasPrefix(kv, "HOME=") {
			noHome = append(noHome, kv)
		}
	}
	accountHome := ""
	if u, err := user.Current(); err == nil {
		accountHome = u.HomeDir
	}
	for _, bin := range []string{hookBinary(t), hookOnlyBinary(t)} {
		for _, tt := range []struct {
			name, payload string
			env           []string
			want          string
		}{
			{"a work tree", payload(s.work, ""), s.env, ""},
			{"home, inside a repository that holds it", payload(s.home, ""), s.env, "deny"},
			{"home named by workdir", payload(s.work, s.home), s.env, "deny"},
			{"below home, inside a repository that holds it", payload(filepath.Join(s.home, "sub"), ""), s.env, "deny"},
			{"the account's home, HOME unset", payload(accountHome, ""), noHome, "deny"},
		} {
			cmd := exec.Command(bin, "hook", "codex")
			cmd.Dir, cmd.Env, cmd.Stdin = s.work, tt.env, strings.NewReader(tt.payload)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s %s: %v", filepath.Base(bin), tt.name, err)
			}
			got := ""
			if len(bytes.TrimSpace(out)) > 0 {
				got = hookDecision(t, "codex", string(out))
			}
			if got != tt.want {
				t.Errorf("%s, %s: answer %q (%s), want %q", filepath.Base(bin), tt.name, got, out, tt.want)
			}
		}
	}
}
