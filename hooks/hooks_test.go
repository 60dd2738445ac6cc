package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"golang.org/x/tools/txtar"
)

// logRow is one verdict a fake decision log received.
type logRow struct {
	v       gate.Verdict
	session string
	waiting Waiting
}

// fakeLog records verdicts in memory; fail makes every append fail.
type fakeLog struct {
	rows []logRow
	fail error
}

func (l *fakeLog) record(_ context.Context, v gate.Verdict, session string, w Waiting) (gate.Verdict, error) {
	if l.fail != nil {
		return v, l.fail
	}
	l.rows = append(l.rows, logRow{v, session, w})
	v.LogID = int64(len(l.rows))
	return v, nil
}

var fixedNow = func() time.Time { return time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC) }

// goldenCase is one NAME.json / NAME.env / NAME.want group of a txtar file.
type goldenCase struct {
	name        string
	stdin, want string
	env         map[string]string
}

func readGolden(t *testing.T, file string) []goldenCase {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*goldenCase{}
	var order []string
	for _, f := range ar.Files {
		ext := filepath.Ext(f.Name)
		name := strings.TrimSuffix(f.Name, ext)
		c := byName[name]
		if c == nil {
			c = &goldenCase{name: name, env: map[string]string{}}
			byName[name] = c
			order = append(order, name)
		}
		switch ext {
		case ".json":
			c.stdin = string(f.Data)
		case ".want":
			c.want = string(f.Data)
		case ".env":
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				k, v, ok := strings.Cut(line, "=")
				if !ok {
					t.Fatalf("%s: bad env line %q", f.Name, line)
				}
				c.env[k] = v
			}
		default:
			t.Fatalf("%s: unknown file kind %q", file, f.Name)
		}
	}
	var cases []goldenCase
	for _, n := range order {
		if byName[n].want == "" {
			t.Fatalf("%s: case %s has no .want", file, n)
		}
		cases = append(cases, *byName[n])
	}
	return cases
}

// TestGolden runs every agent's golden cases through Run with the real gate.
func TestGolden(t *testing.T) {
	for _, agent := range Agents() {
		t.Run(agent, func(t *testing.T) {
			for _, c := range readGolden(t, filepath.Join("testdata", agent+".txtar")) {
				t.Run(c.name, func(t *testing.T) {
					work := t.TempDir()
					home := t.TempDir()
					if err := os.Mkdir(filepath.Join(work, ".git"), 0o755); err != nil {
						t.Fatal(err)
					}
					subst := strings.NewReplacer("$WORK", work, "$HOME", home)
					env := map[string]string{}
					for k, v := range c.env {
						env[k] = subst.Replace(v)
					}
					log := &fakeLog{}
					out := Run(context.Background(), agent, strings.NewReader(subst.Replace(c.stdin)), Config{
						Record: log.record,
						Getenv: func(k string) string { return env[k] },
						Home:   home,
						Now:    fixedNow,
					})
					checkWant(t, agent, out, log, subst.Replace(c.want))
				})
			}
		})
	}
}

func checkWant(t *testing.T, agent string, out Output, log *fakeLog, want string) {
	t.Helper()
	lines := strings.SplitN(want, "\n", 3)
	if len(lines) < 2 {
		t.Fatalf("bad .want %q", want)
	}
	wantCode, err := strconv.Atoi(strings.TrimPrefix(lines[0], "exit "))
	if err != nil {
		t.Fatalf("bad exit line %q", lines[0])
	}
	if out.Code != wantCode {
		t.Errorf("exit code %d, want %d (stderr %q)", out.Code, wantCode, out.Stderr)
	}
	switch logLine := lines[1]; {
	case logLine == "not logged":
		if len(log.rows) != 0 {
			t.Errorf("logged %d rows, want none: %+v", len(log.rows), log.rows)
		}
	case strings.HasPrefix(logLine, "logged "):
		f := strings.Fields(logLine)
		if len(f) != 3 && len(f) != 4 {
			t.Fatalf("bad log line %q", logLine)
		}
		wantAgent := agent
		if len(f) == 4 {
			wantAgent = f[3] // the agent the payload shows
		}
		if len(log.rows) != 1 {
			t.Fatalf("logged %d rows, want 1", len(log.rows))
		}
		r := log.rows[0]
		session := r.session
		if session == "" {
			session = "-"
		}
		if got := r.v.Decision.String(); got != f[1] || session != f[2] || r.v.Agent != wantAgent {
			t.Errorf("logged %s session %s agent %s, want %s session %s agent %s (reason %q)",
				got, session, r.v.Agent, f[1], f[2], wantAgent, r.v.Reason)
		}
		if r.v.Reason == "" {
			t.Errorf("logged verdict has no reason")
		}
	default:
		t.Fatalf("bad log line %q", logLine)
	}
	wantOut := ""
	if len(lines) == 3 {
		wantOut = strings.TrimSpace(lines[2])
	}
	gotOut := strings.TrimSpace(string(out.Stdout))
	if wantOut == "" {
		if gotOut != "" {
			t.Errorf("stdout %q, want nothing", gotOut)
		}
		return
	}
	if !strings.HasSuffix(string(out.Stdout), "\n") || strings.Count(string(out.Stdout), "\n") != 1 {
		t.Errorf("stdout %q is not one JSON line", out.Stdout)
	}
	var got, exp any
	if err := json.Unmarshal([]byte(gotOut), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, gotOut)
	}
	if err := json.Unmarshal([]byte(wantOut), &exp); err != nil {
		t.Fatalf("want is not JSON: %v\n%s", err, wantOut)
	}
	if msg := match(exp, got, "$"); msg != "" {
		t.Errorf("stdout %s\n%s", gotOut, msg)
	}
}

// match compares got against the pattern want: strings "*" and "~text" are
// wildcards (see testdata), everything else must be equal.
func match(want, got any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %T, want object", path, got)
		}
		var keys []string
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s: unexpected key %q", path, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s: missing key %q", path, k)
			}
			if m := match(w[k], gv, path+"."+k); m != "" {
				return m
			}
		}
		return ""
	case string:
		g, ok := got.(string)
		switch {
		case !ok:
			return fmt.Sprintf("%s: got %v, want a string", path, got)
		case w == "*":
			if g == "" {
				return fmt.Sprintf("%s: empty string", path)
			}
		case strings.HasPrefix(w, "~"):
			if !strings.Contains(g, w[1:]) {
				return fmt.Sprintf("%s: %q does not contain %q", path, g, w[1:])
			}
		case g != w:
			return fmt.Sprintf("%s: %q, want %q", path, g, w)
		}
		return ""
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Sprintf("%s: %v, want %v", path, got, want)
	}
	return ""
}

// TestAnswers checks every adapter's rendering of each decision, independent
// of the classifier.
func TestAnswers(t *testing.T) {
	const reason = "`rm -rf ~` deletes the home directory"
	tests := []struct {
		agent string
		d     effects.Decision
		want  string
	}{
		{"claude-code", effects.Allow, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"` + reason + `"}}`},
		{"claude-code", effects.Prompt, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + reason + `"}}`},
		{"claude-code", effects.Refuse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}`},
		{"cursor", effects.Allow, `{"permission":"allow"}`},
		{"cursor", effects.Prompt, `{"permission":"ask","user_message":"` + reason + `","agent_message":"` + reason + `","userMessage":"` + reason + `","agentMessage":"` + reason + `"}`},
		{"cursor", effects.Refuse, `{"permission":"deny","user_message":"` + reason + `","agent_message":"` + reason + `","userMessage":"` + reason + `","agentMessage":"` + reason + `"}`},
		{"gemini-cli", effects.Allow, `{"decision":"allow"}`},
		{"gemini-cli", effects.Prompt, `{"decision":"ask","reason":"` + reason + `","systemMessage":"command-safety: ` + reason + `"}`},
		{"gemini-cli", effects.Refuse, `{"decision":"deny","reason":"` + reason + `"}`},
		// Codex runs the tool on "allow" and "ask": nothing, or a deny.
		{"codex", effects.Allow, ``},
		{"codex", effects.Prompt, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"command-safety asks a human to approve this command, and Codex hooks cannot ask, so it is denied (install the hook with --hold to wait for a release instead): ` + reason + `"}}`},
		{"codex", effects.Refuse, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}`},
		// VS Code reads hookSpecificOutput, Copilot CLI's preToolUse the top level.
		{"vscode", effects.Allow, `{"permissionDecision":"allow","permissionDecisionReason":"` + reason + `","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"` + reason + `"}}`},
		{"vscode", effects.Prompt, `{"permissionDecision":"ask","permissionDecisionReason":"` + reason + `","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + reason + `"}}`},
		{"vscode", effects.Refuse, `{"permissionDecision":"deny","permissionDecisionReason":"` + reason + `","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}`},
		{"copilot-cli", effects.Allow, `{"permissionDecision":"allow","permissionDecisionReason":"` + reason + `","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"` + reason + `"}}`},
		{"copilot-cli", effects.Prompt, `{"permissionDecision":"ask","permissionDecisionReason":"` + reason + `","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"` + reason + `"}}`},
		{"copilot-cli", effects.Refuse, `{"permissionDecision":"deny","permissionDecisionReason":"` + reason + `","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + reason + `"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.d.String(), func(t *testing.T) {
			out := adapters[tt.agent].answer(tt.d, reason)
			if out.Code != 0 || out.Stderr != "" {
				t.Errorf("code %d stderr %q, want 0 and nothing", out.Code, out.Stderr)
			}
			if got := strings.TrimSuffix(string(out.Stdout), "\n"); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestAnswerKeepsCommandText: the reason is not HTML-escaped.
func TestAnswerKeepsCommandText(t *testing.T) {
	for _, agent := range Agents() {
		out := adapters[agent].answer(effects.Refuse, "`a > b && c < d` writes b")
		if !strings.Contains(string(out.Stdout), "`a > b && c < d` writes b") {
			t.Errorf("%s: %s", agent, out.Stdout)
		}
	}
}

func TestUnknownAgent(t *testing.T) {
	for _, agent := range []string{"", "copilot", "claude", "Claude-Code", "Codex", "cursor\x1b[2J"} {
		t.Run(strconv.Quote(agent), func(t *testing.T) {
			log := &fakeLog{}
			out := Run(context.Background(), agent, strings.NewReader(`{"command":"ls"}`), Config{Record: log.record, Now: fixedNow})
			if out.Code != 2 {
				t.Errorf("exit %d, want 2", out.Code)
			}
			var got map[string]string
			if err := json.Unmarshal(out.Stdout, &got); err != nil {
				t.Fatalf("stdout %q: %v", out.Stdout, err)
			}
			if got["decision"] != "deny" || got["permission"] != "deny" || !strings.Contains(got["reason"], "no hook adapter") {
				t.Errorf("stdout %v", got)
			}
			if !strings.Contains(out.Stderr, "no hook adapter") || strings.ContainsRune(out.Stderr, 0x1b) {
				t.Errorf("stderr %q", out.Stderr)
			}
			if len(log.rows) != 1 || log.rows[0].v.Decision != effects.Refuse || log.rows[0].v.Rule != RuleInvalidInput {
				t.Errorf("log rows %+v, want one refusal", log.rows)
			}
		})
	}
}

func TestOversizedInput(t *testing.T) {
	big := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("a", MaxInput) + `"}}`
	for _, agent := range Agents() {
		log := &fakeLog{}
		out := Run(context.Background(), agent, strings.NewReader(big), Config{Record: log.record, Now: fixedNow})
		if d := decisionOf(t, agent, out); d != "deny" {
			t.Errorf("%s: decision %q, want deny", agent, d)
		}
		if !strings.Contains(string(out.Stdout), "larger than") {
			t.Errorf("%s: stdout %q does not say why", agent, out.Stdout)
		}
		if len(log.rows) != 1 || log.rows[0].v.Decision != effects.Refuse {
			t.Errorf("%s: log rows %+v", agent, log.rows)
		}
	}
}

// errReader fails after its data.
type errReader struct{ data []byte }

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, errors.New("broken pipe")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadErrorAndBadArgs(t *testing.T) {
	good := `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	for _, tt := range []struct {
		name string
		in   io.Reader
		cfg  Config
		want string
	}{
		{"read error", &errReader{[]byte(good)}, Config{}, "broken pipe"},
		{"nil stdin", nil, Config{}, "stdin is empty"},
		{"bad args", strings.NewReader(good), Config{BadArgs: "unsupported argument \"--hold\""}, "--hold"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			log := &fakeLog{}
			tt.cfg.Record, tt.cfg.Now = log.record, fixedNow
			out := Run(context.Background(), "claude-code", tt.in, tt.cfg)
			if d := decisionOf(t, "claude-code", out); d != "deny" {
				t.Errorf("decision %q, want deny", d)
			}
			if !strings.Contains(string(out.Stdout), tt.want) {
				t.Errorf("stdout %q does not contain %q", out.Stdout, tt.want)
			}
			if len(log.rows) != 1 {
				t.Fatalf("log rows %d, want 1", len(log.rows))
			}
			if tt.name == "bad args" && log.rows[0].v.Command != "ls" {
				t.Errorf("logged command %q, want the payload's", log.rows[0].v.Command)
			}
		})
	}
}

// TestLogFailure: a verdict that cannot be logged never allows.
func TestLogFailure(t *testing.T) {
	in := `{"session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	allowAll := func(context.Context, gate.Verdict, string, Waiting) (gate.Verdict, error) {
		// A broken recorder that hands back an allow with its error.
		return gate.Verdict{Decision: effects.Allow, Reason: "r"}, errors.New("disk full")
	}
	for name, cfg := range map[string]Config{
		"nil recorder":     {},
		"failing recorder": {Record: (&fakeLog{fail: errors.New("disk full")}).record},
		"recorder allows":  {Record: allowAll},
	} {
		t.Run(name, func(t *testing.T) {
			cfg.Now = fixedNow
			out := Run(context.Background(), "claude-code", strings.NewReader(in), cfg)
			if d := decisionOf(t, "claude-code", out); d == "allow" {
				t.Errorf("decision allow without a log row")
			}
			if !strings.Contains(out.Stderr, "decision log") {
				t.Errorf("stderr %q does not mention the decision log", out.Stderr)
			}
		})
	}
}

// TestRequest checks what reaches the gate: cwd, workspaces, mode, session.
func TestParse(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name    string
		agent   string
		env     map[string]string
		payload string
		want    call
	}{
		{"claude plan", "claude-code", map[string]string{"CLAUDE_PROJECT_DIR": "/p/"},
			`{"session_id":"s","cwd":"/p/sub/../x","permission_mode":"plan","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			call{shell: true, command: "ls", cwd: "/p/x", workspaces: []string{"/p"}, session: "s", mode: "plan"}},
		{"claude bypass is no mode", "claude-code", nil,
			`{"cwd":"/p","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			call{shell: true, command: "ls", cwd: "/p"}},
		{"claude relative cwd is unknown", "claude-code", nil,
			`{"cwd":"p","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			call{shell: true, command: "ls"}},
		{"cursor roots", "cursor", map[string]string{"CURSOR_PROJECT_DIR": "/a"},
			`{"conversation_id":"c","workspace_roots":["/a","/b","rel",""],"command":"ls","cwd":"/b"}`,
			call{shell: true, command: "ls", cwd: "/b", workspaces: []string{"/a", "/b"}, session: "c"}},
		{"gemini dir_path", "gemini-cli", map[string]string{"GEMINI_PROJECT_DIR": "/g"},
			`{"session_id":"s","cwd":"/g","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"sub"}}`,
			call{shell: true, command: "ls", cwd: "/g/sub", workspaces: []string{"/g"}, session: "s"}},
		{"gemini directory absolute", "gemini-cli", nil,
			`{"cwd":"/g","tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"/g/x/"}}`,
			call{shell: true, command: "ls", cwd: "/g/x"}},
		{"gemini both dirs unknown", "gemini-cli", nil,
			`{"cwd":"/g","tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"a","dir_path":"b"}}`,
			call{shell: true, command: "ls"}},
		{"vscode terminal", "vscode", nil,
			`{"hookEventName":"PreToolUse","sessionId":"v","cwd":"/w/","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`,
			call{shell: true, command: "ls", cwd: "/w", session: "v", agent: "vscode", terminal: true}},
		{"claude-code hook given vscode", "claude-code", map[string]string{"CLAUDE_PROJECT_DIR": "/p"},
			`{"hookEventName":"PreToolUse","sessionId":"v","cwd":"/w","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`,
			call{shell: true, command: "ls", cwd: "/w", workspaces: []string{"/p"}, session: "v", agent: "vscode", terminal: true}},
		{"copilot camel", "copilot-cli", map[string]string{"COPILOT_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/q"},
			`{"sessionId":"c","timestamp":1,"cwd":"/p/sub","toolName":"bash","toolArgs":{"command":"ls"}}`,
			call{shell: true, command: "ls", cwd: "/p/sub", workspaces: []string{"/p"}, session: "c", agent: "copilot-cli"}},
		{"copilot pascal", "copilot-cli", map[string]string{"COPILOT_CLI": "1"},
			`{"hook_event_name":"PreToolUse","session_id":"c","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			call{shell: true, command: "ls", cwd: "/p", session: "c", agent: "copilot-cli"}},
		{"copilot powershell", "copilot-cli", nil,
			`{"sessionId":"c","cwd":"/p","toolName":"powershell","toolArgs":{"command":"dir"}}`,
			call{shell: true, command: "dir", cwd: "/p", session: "c", agent: "copilot-cli", limit: whyPowerShell}},
		{"vscode process task", "vscode", nil,
			`{"hookEventName":"PreToolUse","cwd":"/w","tool_name":"create_and_run_task","tool_input":{"task":{"type":"process","command":"/usr/bin/make it","args":["a'b"]}}}`,
			call{shell: true, command: `'/usr/bin/make it' 'a'\''b'`, cwd: "/w", agent: "vscode", terminal: true, limit: whyTaskArgs}},
		{"gemini cwd from env", "gemini-cli", map[string]string{"GEMINI_CWD": "/e"},
			`{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
			call{shell: true, command: "ls", cwd: "/e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env = tt.env
			got, err := adapters[tt.agent].parse([]byte(tt.payload), getenv, "")
			got.event = "" // the event's name only annotates reports
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestDerivedWorkspace(t *testing.T) {
	git := func(root string) func(string) string { return func(string) string { return root } }
	tests := []struct {
		name, cwd, home, gitRoot string
		want                     []string
	}{
		{"git root", "/r/a/b", "/h", "/r", []string{"/r"}},
		{"no git: cwd", "/r/a", "/h", "", []string{"/r/a"}},
		{"unknown cwd", "", "/h", "/r", nil},
		{"home is never derived", "/h", "/h", "", nil},
		{"home git repo is never derived", "/h/x", "/h", "/h", nil},
		{"root is never derived", "/", "/h", "", nil},
		{"a git root holding home is never derived", "/t/h", "/t/h", "/t", nil},
		{"a git root holding home, below home", "/t/h/x", "/t/h", "/t", nil},
		{"git at the filesystem root", "/h/x", "/h", "/", nil},
		{"a sibling of home is derived", "/hh/x", "/h", "", []string{"/hh/x"}},
		{"unknown home derives nothing", "/r/a", "", "/r", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := derivedWorkspace(tt.cwd, tt.home, git(tt.gitRoot)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := findGitRoot(sub); got != dir {
		t.Errorf("findGitRoot(%s) = %q, want %q", sub, got, dir)
	}
}

// TestPolicyGetsWorkspaces: settings are loaded for the resolved roots.
func TestPolicyGetsWorkspaces(t *testing.T) {
	var seen []string
	log := &fakeLog{}
	in := `{"workspace_roots":["/ws"],"command":"ls","cwd":"/ws"}`
	Run(context.Background(), "cursor", strings.NewReader(in), Config{
		Record: log.record, Now: fixedNow,
		Policy: func(ws []string) (gate.Policy, []string) { seen = ws; return gate.DefaultPolicy(), nil },
	})
	if !reflect.DeepEqual(seen, []string{"/ws"}) {
		t.Errorf("policy got workspaces %v", seen)
	}
	// The settings' policy and rule store reach the gate: the toggle off
	// makes `ls` prompt, and the log the settings name is protected.
	log = &fakeLog{}
	in = `{"workspace_roots":["/ws"],"command":"rm /ws/decisions.db","cwd":"/ws"}`
	out := Run(context.Background(), "cursor", strings.NewReader(in), Config{
		Record: log.record, Now: fixedNow,
		Policy: func([]string) (gate.Policy, []string) {
			p := gate.DefaultPolicy()
			p.Enabled = false
			return p, []string{"/ws/decisions.db"}
		},
	})
	if d := decisionOf(t, "cursor", out); d != "deny" || len(log.rows) != 1 || log.rows[0].v.Rule != string(effects.RuleStoreModification) {
		t.Errorf("deleting the decision log named by settings: %s, rows %+v", out.Stdout, log.rows)
	}
	log = &fakeLog{}
	out = Run(context.Background(), "cursor", strings.NewReader(`{"workspace_roots":["/ws"],"command":"ls","cwd":"/ws"}`), Config{
		Record: log.record, Now: fixedNow,
		Policy: func([]string) (gate.Policy, []string) { p := gate.DefaultPolicy(); p.Enabled = false; return p, nil },
	})
	if d := decisionOf(t, "cursor", out); d != "ask" {
		t.Errorf("ls with commandSafety off: %s, want ask", out.Stdout)
	}
	if len(log.rows) != 1 || !reflect.DeepEqual(log.rows[0].v.Workspaces, []string{"/ws"}) || log.rows[0].v.Cwd != "/ws" {
		t.Errorf("logged %+v", log.rows)
	}
}

// FuzzRun: whatever the input, the answer is well-formed and never allows
// input that is not a well-formed shell call.
func FuzzRun(f *testing.F) {
	for _, agent := range Agents() {
		ar, err := txtar.ParseFile(filepath.Join("testdata", agent+".txtar"))
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".json") {
				f.Add(agent, file.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, agent string, payload []byte) {
		log := &fakeLog{}
		out := Run(context.Background(), agent, bytes.NewReader(payload), Config{Record: log.record, Now: fixedNow})
		if _, ok := adapters[agent]; !ok {
			if out.Code != 2 {
				t.Fatalf("unknown agent %q: exit %d", agent, out.Code)
			}
			return
		}
		if out.Code != 0 {
			t.Fatalf("exit %d", out.Code)
		}
		if len(out.Stdout) > 0 && !json.Valid(out.Stdout) {
			t.Fatalf("stdout is not JSON: %q", out.Stdout)
		}
		if len(log.rows) > 1 {
			t.Fatalf("%d rows logged", len(log.rows))
		}
		if len(log.rows) == 0 && len(out.Stdout) > 0 && decisionOf(t, agent, out) != "" {
			t.Fatalf("a decision without a log row: %s", out.Stdout)
		}
	})
}

// decisionOf extracts the decision from an adapter's stdout ("" for none).
func decisionOf(t *testing.T, agent string, out Output) string {
	t.Helper()
	if len(out.Stdout) == 0 {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal(out.Stdout, &m); err != nil {
		t.Fatalf("stdout %q: %v", out.Stdout, err)
	}
	switch agent {
	case "claude-code", "codex":
		h, _ := m["hookSpecificOutput"].(map[string]any)
		s, _ := h["permissionDecision"].(string)
		return s
	case "vscode", "copilot-cli":
		// Both places must agree: each host reads one of them.
		h, _ := m["hookSpecificOutput"].(map[string]any)
		inner, _ := h["permissionDecision"].(string)
		top, _ := m["permissionDecision"].(string)
		if inner != top {
			t.Fatalf("hookSpecificOutput says %q, the top level %q: %s", inner, top, out.Stdout)
		}
		return top
	case "cursor":
		s, _ := m["permission"].(string)
		return s
	}
	s, _ := m["decision"].(string)
	return s
}

// TestDeadline: whatever blocks (stdin that never ends, settings that never
// load, a decision log that never answers), every adapter answers deny by
// its deadline, says why, and logs the denial when the log answers.
func TestDeadline(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	for _, agent := range Agents() {
		for _, what := range []string{"stdin", "settings", "log"} {
			t.Run(agent+"/"+what, func(t *testing.T) {
				var stdin io.Reader = strings.NewReader(hookPayload(agent, "/w", "ls"))
				log := &fakeLog{}
				cfg := Config{Now: fixedNow, GitRoot: func(string) string { return "" }}
				cfg.Record = log.record
				switch what {
				case "stdin":
					pr, pw := io.Pipe() // never closed: the agent never ends stdin
					defer pw.Close()
					go pw.Write([]byte(hookPayload(agent, "/w", "ls")))
					stdin = pr
				case "settings":
					cfg.Policy = func([]string) (gate.Policy, []string) { <-block; return gate.DefaultPolicy(), nil }
				case "log":
					cfg.Record = func(ctx context.Context, v gate.Verdict, s string, _ Waiting) (gate.Verdict, error) {
						<-block
						return v, nil
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				defer cancel()
				start := time.Now()
				out := Run(ctx, agent, stdin, cfg)
				took := time.Since(start)
				if d := decisionOf(t, agent, out); d != "deny" {
					t.Errorf("decision %q, want deny: %s", d, out.Stdout)
				}
				if !strings.Contains(string(out.Stdout), "did not decide within") {
					t.Errorf("the answer does not say why: %s", out.Stdout)
				}
				limit := 300*time.Millisecond + lateWait + 100*time.Millisecond
				if what == "log" {
					limit += recordWait // the denial's own record is tried for a second
				}
				if took > limit {
					t.Errorf("answered after %s, want within %s", took, limit)
				}
				if what != "log" {
					if len(log.rows) != 1 || log.rows[0].v.Rule != RuleDeadline || log.rows[0].v.Decision != effects.Refuse {
						t.Fatalf("log rows %+v, want one hook-deadline refusal", log.rows)
					}
					if what == "settings" && log.rows[0].v.Command != "ls" {
						t.Errorf("the deadline's row has command %q, want the payload's", log.rows[0].v.Command)
					}
				} else if !strings.Contains(out.Stderr, "not recorded") {
					t.Errorf("stderr %q does not say the denial is not recorded", out.Stderr)
				}
			})
		}
	}
}

// TestShells checks the shell each adapter classifies a command in, from
// what the agent documents: Claude Code's CLAUDE_CODE_SHELL, then $SHELL;
// Codex's `-lc` wrapper (zsh on macOS, bash on Linux); Gemini CLI's bash;
// Cursor's $SHELL; unknown when nothing says. A zsh glob qualifier that runs
// code is a read to bash and a refusal to zsh (and to unknown).
func TestShells(t *testing.T) {
	payloads := map[string]string{
		"claude-code": `{"session_id":"s","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls *(e:rm -rf ~:)"}}`,
		"codex":       `{"session_id":"s","cwd":"/ws","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls *(e:rm -rf ~:)"}}`,
		"gemini-cli":  `{"session_id":"s","cwd":"/ws","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls *(e:rm -rf ~:)"}}`,
		"cursor":      `{"workspace_roots":["/ws"],"command":"ls *(e:rm -rf ~:)","cwd":"/ws"}`,
	}
	for _, tc := range []struct {
		agent, goos string
		env         map[string]string
		want        gate.Shell
	}{
		{"claude-code", "linux", map[string]string{"CLAUDE_CODE_SHELL": "/bin/bash", "SHELL": "/bin/zsh"}, gate.ShellBash},
		{"claude-code", "darwin", map[string]string{"SHELL": "/bin/zsh"}, gate.ShellZsh},
		{"claude-code", "linux", map[string]string{"SHELL": "/usr/bin/fish"}, gate.ShellUnknown},
		{"claude-code", "linux", nil, gate.ShellUnknown},
		{"codex", "darwin", map[string]string{"SHELL": "/bin/bash"}, gate.ShellZsh},
		{"codex", "linux", map[string]string{"SHELL": "/bin/zsh"}, gate.ShellBash},
		{"gemini-cli", "darwin", map[string]string{"SHELL": "/bin/zsh"}, gate.ShellBash},
		{"cursor", "darwin", map[string]string{"SHELL": "/bin/zsh"}, gate.ShellZsh},
		{"cursor", "linux", map[string]string{"SHELL": "/bin/sh"}, gate.ShellSh},
		{"cursor", "linux", nil, gate.ShellUnknown},
	} {
		log := &fakeLog{}
		Run(context.Background(), tc.agent, strings.NewReader(payloads[tc.agent]), Config{
			Record: log.record, Now: fixedNow, GOOS: tc.goos,
			Getenv: func(k string) string { return tc.env[k] },
		})
		if len(log.rows) != 1 {
			t.Errorf("%s %v: %d rows logged", tc.agent, tc.env, len(log.rows))
			continue
		}
		v := log.rows[0].v
		if v.Shell != tc.want {
			t.Errorf("%s on %s with %v: shell %s, want %s", tc.agent, tc.goos, tc.env, v.Shell, tc.want)
		}
		want := effects.Refuse
		switch tc.want {
		case gate.ShellBash:
			want = effects.Allow
		case gate.ShellSh:
			want = effects.Prompt // dash cannot read it, bash (macOS's sh) reads a read
		}
		if v.Decision != want {
			t.Errorf("%s as %s: %s (%s), want %s", tc.agent, v.Shell, v.Decision, v.Reason, want)
		}
	}
}

// TestWaiting: the log learns who waits on a prompt: the agent's user for
// agents that ask, a human releasing it in hold mode, nobody for Codex
// (whose hooks cannot ask, so the prompt was denied).
func TestWaiting(t *testing.T) {
	for _, tt := range []struct {
		agent string
		hold  bool
		want  Waiting
		env   string
	}{
		{"claude-code", false, AgentAsks, ""},
		{"claude-code", false, NobodyAsked, "CLAUDE_CODE_SESSION_ATTENDED=0"}, // claude -p
		{"gemini-cli", false, AgentAsks, ""},
		{"cursor", false, AgentAsks, ""},
		{"codex", false, NobodyAsked, ""},
		{"claude-code", true, Held, "CLAUDE_CODE_SESSION_ATTENDED=0"},
		{"codex", true, Held, ""},
	} {
		work := t.TempDir()
		payload := hookPayload(tt.agent, work, "npm install x")
		log := &fakeLog{}
		cfg := Config{Record: log.record, Now: fixedNow, Home: t.TempDir(), Getenv: func(k string) string {
			if name, val, _ := strings.Cut(tt.env, "="); k == name {
				return val
			}
			return ""
		}}
		if tt.hold {
			cfg.Hold = func(_ context.Context, v gate.Verdict) gate.Verdict { v.Decision = effects.Refuse; return v }
		}
		Run(context.Background(), tt.agent, strings.NewReader(payload), cfg)
		if len(log.rows) != 1 || log.rows[0].v.Decision != effects.Prompt || log.rows[0].waiting != tt.want {
			t.Errorf("%s hold=%v: rows %+v, want one prompt waiting %d", tt.agent, tt.hold, log.rows, tt.want)
		}
	}
}

// hookPayload is a shell-command payload of agent for workspace w.
func hookPayload(agent, w, command string) string {
	switch agent {
	case "cursor":
		return `{"hook_event_name":"beforeShellExecution","conversation_id":"s","workspace_roots":["` + w + `"],"cwd":"` + w + `","command":"` + command + `"}`
	case "gemini-cli":
		return `{"session_id":"s","cwd":"` + w + `","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"` + command + `"}}`
	case "vscode":
		return `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"` + w + `","tool_name":"run_in_terminal","tool_input":{"command":"` + command + `"}}`
	case "copilot-cli":
		return `{"sessionId":"s","cwd":"` + w + `","toolName":"bash","toolArgs":{"command":"` + command + `"}}`
	}
	return `{"session_id":"s","cwd":"` + w + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + command + `"}}`
}

// TestTerminalWritesNeedAHuman: VS Code's terminal keeps its directory
// between commands, so even a budget that allows workspace writes does not
// let a terminal write run unattended; reads still do, and the same write
// from Copilot CLI's fresh shell follows the budget.
func TestTerminalWritesNeedAHuman(t *testing.T) {
	autopilot := func([]string) (gate.Policy, []string) {
		p := gate.DefaultPolicy()
		p.Budgets = budgets.Builtin()
		p.Budgets["vscode"] = p.Budgets["autopilot"]
		p.Budgets["copilot-cli"] = p.Budgets["autopilot"]
		return p, nil
	}
	for _, tt := range []struct{ agent, payload, want string }{
		{"vscode", `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/ws","tool_name":"run_in_terminal","tool_input":{"command":"touch a"}}`, "ask"},
		{"vscode", `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/ws","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`, "allow"},
		{"copilot-cli", `{"sessionId":"s","cwd":"/ws","toolName":"bash","toolArgs":{"command":"touch a"}}`, "allow"},
	} {
		log := &fakeLog{}
		out := Run(context.Background(), tt.agent, strings.NewReader(tt.payload), Config{
			Record: log.record, Now: fixedNow, Policy: autopilot, Home: "/home/u", GitRoot: func(string) string { return "" },
		})
		if d := decisionOf(t, tt.agent, out); d != tt.want {
			t.Errorf("%s %s: %s, want %s", tt.agent, tt.payload, out.Stdout, tt.want)
		}
		if tt.want == "ask" && (!strings.Contains(string(out.Stdout), "keeps its working directory") || log.rows[0].v.Rule != RuleHostTool) {
			t.Errorf("the reason or rule does not say why: %s %+v", out.Stdout, log.rows)
		}
	}
}

// TestEventFromCommandLine: Copilot CLI's camelCase events send no event
// name, so install names it on the hook's command line (--event): a
// sessionEnd payload is a report, not a tool call without a tool; a payload
// that names another event than the one installed is malformed.
func TestEventFromCommandLine(t *testing.T) {
	end := `{"sessionId":"c1","timestamp":1796135460027,"cwd":"/w","reason":"complete"}`
	var reports []Report
	log := &fakeLog{}
	cfg := Config{Record: log.record, Now: fixedNow, Event: "sessionEnd",
		Report: func(_ context.Context, agent string, r Report) error { reports = append(reports, r); return nil }}
	out := Run(context.Background(), "copilot-cli", strings.NewReader(end), cfg)
	if len(out.Stdout) != 0 || len(log.rows) != 0 || len(reports) != 1 || reports[0].Ran || reports[0].Session != "c1" {
		t.Errorf("sessionEnd: stdout %q, rows %+v, reports %+v; want one end-of-session report", out.Stdout, log.rows, reports)
	}
	ran := `{"sessionId":"c1","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"npm install x"},"toolResult":{"resultType":"success"}}`
	cfg.Event = "postToolUse"
	Run(context.Background(), "copilot-cli", strings.NewReader(ran), cfg)
	if len(reports) != 2 || !reports[1].Ran || reports[1].Command != "npm install x" {
		t.Errorf("postToolUse: reports %+v", reports)
	}
	cfg.Event = "preToolUse"
	out = Run(context.Background(), "vscode", strings.NewReader(`{"hookEventName":"PostToolUse","sessionId":"s","cwd":"/w","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`), cfg)
	if d := decisionOf(t, "vscode", out); d != "deny" || !strings.Contains(string(out.Stdout), "installed for") {
		t.Errorf("an event other than the installed one: %s", out.Stdout)
	}
	// VS Code spells the installed preToolUse as PreToolUse: the same event.
	out = Run(context.Background(), "vscode", strings.NewReader(`{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/w","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`), cfg)
	if d := decisionOf(t, "vscode", out); d == "deny" {
		t.Errorf("PreToolUse under --event=preToolUse: %s", out.Stdout)
	}
}
