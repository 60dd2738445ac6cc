package hooks

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/strictjson"
)

const testBinary = "/opt/ml-ai/bin/command-safety"

// Sample settings files, as users have them: other keys, other hooks.
var installSamples = map[string][]struct {
	name string
	data string
}{
	"claude-code": {
		{"missing file", ""},
		{"empty object", "{}"},
		{"other keys and hooks", `{
  "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]},
  "env": {"FOO": "1"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "prettier --check", "timeout": 30}]},
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit-bash.sh"}]}
    ],
    "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo done"}]}]
  },
  "model": "opus",
  "cleanupPeriodDays": 30,
  "html": "<a & b>",
  "big": 12345678901234567890
}`},
		{"hooks is null", `{"hooks": null, "x": true}`},
	},
	"cursor": {
		{"missing file", ""},
		{"other hooks", `{"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/format.sh"}], "beforeShellExecution": [{"command": "./hooks/audit.sh"}]}}`},
		{"no version", `{"hooks": {}}`},
	},
	"vscode": {
		{"missing file", ""},
		{"other hooks, VS Code layout", `{"hooks": {"PostToolUse": [{"type": "command", "command": "npx prettier --write .", "timeout": 15}]}}`},
	},
	"copilot-cli": {
		{"missing file", ""},
		{"other hooks, Copilot CLI layout", `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./scripts/audit.sh", "powershell": "./scripts/audit.ps1", "timeoutSec": 10}], "sessionStart": [{"type": "command", "bash": "echo start"}]}}`},
	},
	"gemini-cli": {
		{"missing file", ""},
		{"other settings", `{
  "theme": "GitHub",
  "hooksConfig": {"enabled": true},
  "hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [{"name": "secret-scanner", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/block-secrets.sh"}]}]},
  "mcpServers": {"x": {"command": "npx", "args": ["-y", "x"]}}
}`},
	},
}

func TestInstallUninstall(t *testing.T) {
	for _, agent := range Agents() {
		for _, s := range installSamples[agent] {
			t.Run(agent+"/"+s.name, func(t *testing.T) {
				spec := Spec{Binary: testBinary}
				command := spec.command(agent, gateFlag(agent))
				first, err := Install(agent, []byte(s.data), spec)
				if err != nil {
					t.Fatal(err)
				}
				if !first.Changed() || !strings.HasPrefix(first.Changes[len(first.Changes)-1], "+ hooks.") {
					t.Errorf("first install changes %q", first.Changes)
				}
				events := len(layouts[agent].events)
				events -= len(first.Notes) // a report event the user's file spells otherwise
				if n := countOurs(t, agent, first.Data); n != events {
					t.Errorf("%d entries of ours after install, want %d (one per event):\n%s", n, events, first.Data)
				}
				checkHookShape(t, agent, first.Data, command)
				checkPreserved(t, s.data, first.Data)

				checkLimit(t, agent, first.Data, RunLimit)
				again, err := Install(agent, first.Data, spec)
				if err != nil {
					t.Fatal(err)
				}
				if again.Changed() || string(again.Data) != string(first.Data) {
					t.Errorf("second install changed %q:\n%s", again.Changes, again.Data)
				}

				moved, err := Install(agent, first.Data, Spec{Binary: "/new place/command-safety"})
				if err != nil {
					t.Fatal(err)
				}
				if len(moved.Changes) != events*len(layouts[agent].keys()) || !strings.HasPrefix(moved.Changes[0], "~ ") || countOurs(t, agent, moved.Data) != events {
					t.Errorf("reinstall from a moved binary: %q\n%s", moved.Changes, moved.Data)
				}
				if !strings.Contains(string(moved.Data), strconv.Quote(Spec{Binary: "/new place/command-safety"}.command(agent, gateFlag(agent)))) {
					t.Errorf("moved command not quoted:\n%s", moved.Data)
				}

				un, err := Uninstall(agent, moved.Data)
				if err != nil {
					t.Fatal(err)
				}
				if len(un.Changes) != events || !strings.HasPrefix(un.Changes[0], "- ") {
					t.Errorf("uninstall changes %q", un.Changes)
				}
				if n := countOurs(t, agent, un.Data); n != 0 {
					t.Errorf("%d entries left after uninstall:\n%s", n, un.Data)
				}
				// Uninstall leaves the file as it was, but for formatting,
				// Cursor's "version" that install added, and a "hooks" that
				// was null or empty before (emptied containers are removed).
				want := canonical(t, s.data)
				if h, ok := want.(map[string]any)["hooks"]; ok && (h == nil || reflect.DeepEqual(h, map[string]any{})) {
					delete(want.(map[string]any), "hooks")
				}
				got := canonical(t, string(un.Data))
				if layouts[agent].version && !strings.Contains(s.data, `"version"`) {
					delete(got.(map[string]any), "version")
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("after uninstall\n got %v\nwant %v", got, want)
				}
				un2, err := Uninstall(agent, un.Data)
				if err != nil || un2.Changed() {
					t.Errorf("second uninstall: %v %q", err, un2.Changes)
				}
			})
		}
	}
}

// TestUninstallOnlyOurs: entries of other tools, and ours for other agents,
// stay, even when they look alike.
func TestUninstallOnlyOurs(t *testing.T) {
	data := `{"hooks": {"PreToolUse": [
  {"matcher": "Bash", "hooks": [
    {"type": "command", "command": "/usr/bin/command-safety hook claude-code"},
    {"type": "command", "command": "/usr/bin/command-safety hook claude-codex"},
    {"type": "command", "command": "/usr/bin/command-safety hook cursor"},
    {"type": "command", "command": "/usr/bin/other-gate hook claude-code"},
    {"type": "command", "command": "command-safety-log.sh"}
  ]},
  {"matcher": "Bash", "hooks": [{"type": "command", "command": "'/x y/command-safety' hook claude-code --hold"}]},
  {"matcher": "Bash", "hooks": []}
]}}`
	un, err := Uninstall("claude-code", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(un.Changes) != 2 {
		t.Errorf("changes %q, want 2 removals", un.Changes)
	}
	for _, keep := range []string{"hook claude-codex", "command-safety hook cursor", "other-gate hook claude-code", "command-safety-log.sh", `"hooks": []`} {
		if !strings.Contains(string(un.Data), keep) {
			t.Errorf("uninstall removed %q:\n%s", keep, un.Data)
		}
	}
	if strings.Contains(string(un.Data), "--hold") {
		t.Errorf("our --hold entry stayed:\n%s", un.Data)
	}
}

func TestInstallRefusesWhatItCannotRewrite(t *testing.T) {
	for _, tt := range []struct{ agent, data, want string }{
		{"claude-code", "{\n  // a comment\n  \"model\": \"opus\"\n}", "not plain JSON"},
		{"claude-code", `{"a": 1,}`, "not plain JSON"},
		{"claude-code", `{"a": 1, "a": 2}`, "duplicate key"},
		{"claude-code", `[1]`, "does not hold a JSON object"},
		{"claude-code", `{"hooks": []}`, `"hooks"`},
		{"claude-code", `{"hooks": {"PreToolUse": {}}}`, "not an array"},
		{"claude-code", `{} {}`, "data after the JSON value"},
		{"copilot", `{}`, "no hook adapter"},
		{"vscode", `{"hooks": {"PreToolUse": [{"type": "command", "command": "x"}]}}`, "differs from preToolUse only in case"},
	} {
		if _, err := Install(tt.agent, []byte(tt.data), Spec{Binary: "x"}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Install(%s, %q): %v, want an error with %q", tt.agent, tt.data, err, tt.want)
		}
		if tt.want != "not an array" && !strings.Contains(tt.want, "only in case") {
			if _, err := Uninstall(tt.agent, []byte(tt.data)); err == nil {
				t.Errorf("Uninstall(%s, %q) did not fail", tt.agent, tt.data)
			}
		}
	}
}

func TestIsOurs(t *testing.T) {
	for cmd, want := range map[string]bool{
		"/usr/local/bin/command-safety hook claude-code":                    true,
		"'/Users/a b/command-safety' hook claude-code":                      true,
		"/usr/local/bin/command-safety hook claude-code --hold":             true,
		"/usr/local/bin/command-safety hook claude-code\t--hold":            true,
		"/usr/local/bin/command-safety hook claude-codex":                   false,
		"/usr/local/bin/command-safety hook cursor":                         false,
		"/usr/local/bin/gate hook claude-code":                              false,
		"/usr/local/bin/command-safety check":                               false,
		"command-safety hook claude-code":                                   true,
		"/usr/local/bin/command-safety hook claude-code-x hook claude-code": true,
	} {
		if got := IsOurs("claude-code", cmd); got != want {
			t.Errorf("IsOurs(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestHookCommand(t *testing.T) {
	for bin, want := range map[string]string{
		"/usr/local/bin/command-safety": "/usr/local/bin/command-safety hook cursor",
		"/a b/command-safety":           "'/a b/command-safety' hook cursor",
		"/it's/command-safety":          `'/it'\''s/command-safety' hook cursor`,
		"/x/$(rm -rf ~)/command-safety": "'/x/$(rm -rf ~)/command-safety' hook cursor",
	} {
		if got := HookCommand(bin, "cursor"); got != want {
			t.Errorf("HookCommand(%q) = %q, want %q", bin, got, want)
		}
	}
}

func TestSettingsPath(t *testing.T) {
	for _, tt := range []struct {
		agent string
		scope Scope
		want  string
	}{
		{"claude-code", Project, "/p/.claude/settings.json"},
		{"claude-code", User, "/h/.claude/settings.json"},
		{"cursor", Project, "/p/.cursor/hooks.json"},
		{"cursor", User, "/h/.cursor/hooks.json"},
		{"gemini-cli", Project, "/p/.gemini/settings.json"},
		{"gemini-cli", User, "/h/.gemini/settings.json"},
		{"codex", Project, "/p/.codex/hooks.json"},
		{"codex", User, "/h/.codex/hooks.json"},
		{"vscode", Project, "/p/.github/hooks/command-safety.json"},
		{"vscode", User, "/h/.copilot/hooks/command-safety.json"},
		{"copilot-cli", Project, "/p/.github/hooks/command-safety.json"},
		{"copilot-cli", User, "/h/.copilot/hooks/command-safety.json"},
	} {
		got, err := SettingsPath(tt.agent, tt.scope, "/p/", "/h", func(string) string { return "" })
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("SettingsPath(%s, %s) = %q, %v; want %q", tt.agent, tt.scope, got, err, tt.want)
		}
	}
	codexHome := func(k string) string {
		if k == "CODEX_HOME" {
			return "/ch/"
		}
		return ""
	}
	if got, err := SettingsPath("codex", User, "/p", "/h", codexHome); err != nil || got != filepath.FromSlash("/ch/hooks.json") {
		t.Errorf("codex with CODEX_HOME: %q, %v", got, err)
	}
	if got, _ := SettingsPath("codex", Project, "/p", "/h", codexHome); got != filepath.FromSlash("/p/.codex/hooks.json") {
		t.Errorf("codex project with CODEX_HOME: %q", got)
	}
	copilotHome := func(k string) string {
		if k == "COPILOT_HOME" {
			return "/cp"
		}
		return ""
	}
	if got, err := SettingsPath("copilot-cli", User, "/p", "/h", copilotHome); err != nil || got != filepath.FromSlash("/cp/hooks/command-safety.json") {
		t.Errorf("copilot-cli with COPILOT_HOME: %q, %v", got, err)
	}
	// VS Code reads ~/.copilot/hooks whatever COPILOT_HOME says.
	if got, _ := SettingsPath("vscode", User, "/p", "/h", copilotHome); got != filepath.FromSlash("/h/.copilot/hooks/command-safety.json") {
		t.Errorf("vscode with COPILOT_HOME: %q", got)
	}
	if _, err := SettingsPath("copilot-cli", User, "/p", "/h", func(string) string { return "rel" }); err == nil {
		t.Error("relative COPILOT_HOME: no error")
	}
	if _, err := SettingsPath("vscode", User, "/p", "", nil); err == nil {
		t.Error("vscode, unknown home: no error")
	}
	if _, err := SettingsPath("codex", User, "/p", "/h", func(string) string { return "rel" }); err == nil {
		t.Error("relative CODEX_HOME: no error")
	}
	if _, err := SettingsPath("copilot", User, "/p", "/h", nil); err == nil {
		t.Error("unknown agent: no error")
	}
	if _, err := SettingsPath("cursor", User, "/p", "", nil); err == nil {
		t.Error("unknown home: no error")
	}
	if _, err := SettingsPath("cursor", Project, "rel", "/h", nil); err == nil {
		t.Error("relative project: no error")
	}
}

// countOurs counts hook entries of agent in data, wherever they are.
func countOurs(t *testing.T, agent string, data []byte) int {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	n := 0
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if c, ok := x["command"].(string); ok && IsOurs(agent, c) {
				n++
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return n
}

// checkHookShape checks that our entry sits where the agent's docs put it.
func checkHookShape(t *testing.T, agent string, data []byte, command string) {
	t.Helper()
	var v struct {
		Version *int `json:"version"`
		Hooks   map[string][]struct {
			Matcher string `json:"matcher"`
			Command string `json:"command"`
			Hooks   []struct {
				Type, Command, Name string
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	found := false
	switch agent {
	case "cursor":
		if v.Version == nil || *v.Version != 1 {
			t.Errorf("cursor hooks.json without version 1:\n%s", data)
		}
		for _, e := range v.Hooks["beforeShellExecution"] {
			found = found || e.Command == command
		}
	case "vscode", "copilot-cli":
		// Copilot CLI's layout, which VS Code reads too: version 1,
		// preToolUse, bash (and command for Windows), type command.
		var c struct {
			Version *int `json:"version"`
			Hooks   map[string][]struct{ Type, Bash, Command string }
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		if c.Version == nil || *c.Version != 1 {
			t.Errorf("%s: no version 1:\n%s", agent, data)
		}
		for _, e := range c.Hooks["preToolUse"] {
			found = found || (e.Type == "command" && e.Bash == command && e.Command == command)
		}
	default:
		event, matcher := "PreToolUse", "Bash"
		if agent == "gemini-cli" {
			event, matcher = "BeforeTool", "run_shell_command"
		}
		for _, g := range v.Hooks[event] {
			for _, h := range g.Hooks {
				if h.Command == command && g.Matcher == matcher && h.Type == "command" {
					found = true
				}
			}
		}
	}
	if !found {
		t.Errorf("%s: hook %q not where the docs put it:\n%s", agent, command, data)
	}
}

// checkPreserved: every top-level key of before is still there, in order,
// and every value other than "hooks"/"version" is unchanged.
func checkPreserved(t *testing.T, before string, after []byte) {
	t.Helper()
	if strings.TrimSpace(before) == "" {
		return
	}
	b := canonical(t, before).(map[string]any)
	a := canonical(t, string(after)).(map[string]any)
	for k, v := range b {
		if k == "hooks" {
			continue
		}
		if !reflect.DeepEqual(a[k], v) {
			t.Errorf("key %q changed: %v -> %v", k, v, a[k])
		}
	}
	last := -1
	keys := topKeys(t, before)
	for _, k := range keys {
		i := strings.Index(string(after), "\n  \""+k+"\":")
		if i < last {
			t.Errorf("key %q moved before an earlier key:\n%s", k, after)
		}
		last = i
	}
	if strings.Contains(before, "<a & b>") && !strings.Contains(string(after), "<a & b>") {
		t.Errorf("HTML characters were escaped:\n%s", after)
	}
	if strings.Contains(before, "12345678901234567890") && !strings.Contains(string(after), "12345678901234567890") {
		t.Errorf("a big number lost precision:\n%s", after)
	}
}

func topKeys(t *testing.T, data string) []string {
	t.Helper()
	v, err := strictjson.Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range v.(*strictjson.Object).Members {
		keys = append(keys, m.Key)
	}
	return keys
}

// canonical decodes data for comparison; empty data is an empty object.
func canonical(t *testing.T, data string) any {
	t.Helper()
	if strings.TrimSpace(data) == "" {
		return map[string]any{}
	}
	var v any
	d := json.NewDecoder(strings.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return v
}

// TestInstallHold: every agent's time limit for the hook is set above the
// longest hold, in the agent's unit, on a new entry and on an existing one,
// and the hook's command line carries the limit; a hold longer than the
// agent can keep is refused.
func TestInstallHold(t *testing.T) {
	for _, tt := range []struct {
		agent, key, want string // the limit as the agent's entry spells it
	}{
		{"claude-code", "timeout", "660"},
		{"codex", "timeout", "660"},
		{"cursor", "timeout", "660"},
		{"gemini-cli", "timeout", "660000"},
		{"vscode", "timeoutSec", "660"},
		{"copilot-cli", "timeoutSec", "660"},
	} {
		t.Run(tt.agent, func(t *testing.T) {
			spec := Spec{Binary: "/opt/command-safety", Hold: true, HoldFor: 10 * time.Minute, HoldLongest: 10 * time.Minute}
			e, err := Install(tt.agent, nil, spec)
			if err != nil {
				t.Fatal(err)
			}
			checkLimit(t, tt.agent, e.Data, 11*time.Minute)
			if !strings.Contains(string(e.Data), `"`+tt.key+`": `+tt.want) || !strings.Contains(string(e.Data), spec.command(tt.agent, gateFlag(tt.agent))) {
				t.Errorf("new entry:\n%s", e.Data)
			}
			plain, err := Install(tt.agent, nil, Spec{Binary: "/opt/command-safety"})
			if err != nil {
				t.Fatal(err)
			}
			// --hold without a duration: the setting's value at install time.
			again, err := Install(tt.agent, plain.Data, Spec{Binary: "/opt/command-safety", Hold: true, HoldLongest: 2 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			checkLimit(t, tt.agent, again.Data, 3*time.Minute)
			held := Spec{Binary: "/opt/command-safety", Hold: true, HoldLongest: 2 * time.Minute}.command(tt.agent, gateFlag(tt.agent))
			if len(again.Changes) != len(layouts[tt.agent].keys())+1 || !strings.Contains(string(again.Data), strconv.Quote(held)) || !strings.Contains(held, " --hold --") { // the gate's command keys and limit
				t.Errorf("existing entry: changes %q\n%s", again.Changes, again.Data)
			}
		})
	}
	for _, agent := range []string{"claude-code", "cursor", "gemini-cli", "vscode", "copilot-cli"} {
		_, err := Install(agent, nil, Spec{Binary: "/b", Hold: true, HoldFor: 30 * 24 * time.Hour, HoldLongest: 30 * 24 * time.Hour})
		if err == nil || !strings.Contains(err.Error(), "longest hold") {
			t.Errorf("%s: a 30-day hold: %v", agent, err)
		}
	}
	if _, err := Install("codex", nil, Spec{Binary: "/b", Hold: true, HoldFor: MaxHold, HoldLongest: MaxHold}); err != nil {
		t.Errorf("codex: a hold of MaxHold: %v", err)
	}
}

// TestLimitsAboveDeadline: for every hold the limit an agent gets leaves the
// hook its whole hold plus time to answer, and the hook's deadline is
// inside the agent's limit for every limit, installed or default.
func TestLimitsAboveDeadline(t *testing.T) {
	for _, hold := range []time.Duration{0, time.Second, time.Minute, 10 * time.Minute, MaxHold} {
		spec := Spec{Hold: hold > 0, HoldFor: hold, HoldLongest: hold}
		d := Deadline(spec.Limit())
		if d <= hold || d >= spec.Limit() {
			t.Errorf("hold %s: limit %s, deadline %s", hold, spec.Limit(), d)
		}
	}
	for _, agent := range Agents() {
		if l := DefaultLimit(agent); l == 0 || Deadline(l) <= 0 || Deadline(l) >= l {
			t.Errorf("%s: default limit %s, deadline %s", agent, l, Deadline(l))
		}
	}
	if Deadline(2*time.Second) != 0 || Deadline(0) != 0 {
		t.Errorf("a limit of 2 s or less leaves no deadline: %s, %s", Deadline(2*time.Second), Deadline(0))
	}
}

// checkLimit checks that the agent's gate entry of ours (under its first
// event) has the time limit limit in the agent's unit and its command carries
// --limit, that every report entry (the other events) has RunLimit and never
// holds, and that Cursor's entries are fail-closed.
func checkLimit(t *testing.T, agent string, data []byte, limit time.Duration) {
	t.Helper()
	v, err := strictjson.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	lay := layouts[agent]
	hooksObj, _, _ := v.(*strictjson.Object).Object("hooks")
	for i, ev := range lay.events {
		want := limit
		if i > 0 {
			want = RunLimit
		}
		groups, present := hooksObj.Get(ev.name)
		if !present && i > 0 && hasCaseVariant(hooksObj, ev.name) {
			continue // the user's own spelling of a report event: left alone
		}
		list, _ := groups.([]any)
		found := 0
		lay.visit(agent, list, func(_ string, x *strictjson.Object) {
			found++
			got, _ := x.Get(lay.timeoutKey)
			if w := strconv.FormatInt(int64(want/lay.timeoutUnit), 10); fmt.Sprint(got) != w {
				t.Errorf("%s %s: %s %v, want %s", agent, ev.name, lay.timeoutKey, got, w)
			}
			if !strings.HasSuffix(x.Str("command"), " --limit="+want.String()) {
				t.Errorf("%s %s: command %q does not end in --limit=%s", agent, ev.name, x.Str("command"), want)
			}
			if i > 0 && strings.Contains(x.Str("command"), "--hold") {
				t.Errorf("%s %s: a report holds: %q", agent, ev.name, x.Str("command"))
			}
			if fc, _ := x.Get("failClosed"); (agent == "cursor") != (fc == true) {
				t.Errorf("%s %s: failClosed %v", agent, ev.name, fc)
			}
		})
		if found != 1 {
			t.Errorf("%s %s: %d entries of ours", agent, ev.name, found)
		}
	}
}

// TestSharedCopilotFile: VS Code and Copilot CLI read the same hook files,
// so installing both keeps one entry (each host runs every entry it finds,
// and two would judge and log every command twice), and either uninstall
// removes it; a user's own entries stay.
func TestSharedCopilotFile(t *testing.T) {
	user := `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./audit.sh"}]}}`
	first, err := Install("vscode", []byte(user), Spec{Binary: testBinary})
	if err != nil {
		t.Fatal(err)
	}
	both, err := Install("copilot-cli", first.Data, Spec{Binary: testBinary})
	if err != nil {
		t.Fatal(err)
	}
	events := len(layouts["vscode"].events)
	if n := countOurs(t, "vscode", both.Data); n != events {
		t.Fatalf("%d entries after installing both, want %d (one per event):\n%s", n, events, both.Data)
	}
	if !strings.Contains(string(both.Data), "hook copilot-cli --event=preToolUse --limit=30s") || strings.Contains(string(both.Data), "hook vscode") {
		t.Errorf("the shared entry was not updated:\n%s", both.Data)
	}
	un, err := Uninstall("vscode", both.Data)
	if err != nil || len(un.Changes) != events {
		t.Fatalf("uninstall: %v %q", err, un.Changes)
	}
	if countOurs(t, "copilot-cli", un.Data) != 0 || !strings.Contains(string(un.Data), "./audit.sh") {
		t.Errorf("after uninstall:\n%s", un.Data)
	}
	// An entry with our command only under "bash" is still ours.
	hand := `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "/opt/command-safety hook vscode"}]}}`
	if un, err := Uninstall("copilot-cli", []byte(hand)); err != nil || len(un.Changes) != 1 {
		t.Errorf("a bash-only entry of ours: %v %q", err, un.Changes)
	}
}

// TestHookFiles: every agent's user-level hook files are in the rule store,
// in the homes CODEX_HOME and COPILOT_HOME move them to.
func TestHookFiles(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want []string
	}{
		{nil, []string{"/h/.copilot/hooks", "/h/.copilot/settings.json", "/h/.copilot/config.json", "/h/.claude/settings.json",
			"/h/.claude/settings.local.json", "/h/.cursor/hooks.json", "/h/.gemini/settings.json", "/h/.codex/hooks.json", "/h/.codex/config.toml"}},
		{map[string]string{"CODEX_HOME": "/ch", "COPILOT_HOME": "/cp"}, []string{"/ch/hooks.json", "/ch/config.toml", "/cp/hooks", "/cp/settings.json"}},
	} {
		files := HookFiles("/h", func(k string) string { return tt.env[k] })
		for _, want := range tt.want {
			if !slices.Contains(files, filepath.FromSlash(want)) {
				t.Errorf("HookFiles(%v) lacks %s: %q", tt.env, want, files)
			}
		}
	}
}

// hasCaseVariant reports whether o has a key that differs from key only in case.
func hasCaseVariant(o *strictjson.Object, key string) bool {
	for _, m := range o.Members {
		if m.Key != key && strings.EqualFold(m.Key, key) {
			return true
		}
	}
	return false
}

// gateFlag is the --event of agent's gate entry, for layouts that name it.
func gateFlag(agent string) string {
	if lay := layouts[agent]; lay.eventFlag {
		return lay.events[0].name
	}
	return ""
}

// TestEndOfSessionEvents: the agents whose end-of-turn event does not run
// after a No in their interactive permission dialog (Claude Code 2.1.332,
// Gemini CLI 0.61.0: the No cancels the turn; e2e/agents TestInteractive)
// also get our entry under SessionEnd, so that prompt is answered when the
// session ends.
func TestEndOfSessionEvents(t *testing.T) {
	for agent, want := range map[string][]string{
		"claude-code": {"PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"},
		"gemini-cli":  {"BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"},
	} {
		ed, err := Install(agent, []byte("{}"), Spec{Binary: testBinary})
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Hooks map[string][]any }
		if err := json.Unmarshal(ed.Data, &v); err != nil {
			t.Fatal(err)
		}
		for _, ev := range want {
			if len(v.Hooks[ev]) != 1 {
				t.Errorf("%s: want one entry under %s:\n%s", agent, ev, ed.Data)
			}
		}
	}
}

// TestInstallHookBinary: with a hook binary, the pre-command event runs it
// and the reports run the main binary (they match rows in the log); in hold
// mode the gate runs the main binary too (it waits on the log). Both are
// ours for a second install and for uninstall.
func TestInstallHookBinary(t *testing.T) {
	for _, agent := range Agents() {
		t.Run(agent, func(t *testing.T) {
			spec := Spec{Binary: "/opt/command-safety", HookBinary: "/opt/command-safety-hook"}
			e, err := Install(agent, nil, spec)
			if err != nil {
				t.Fatal(err)
			}
			lay := layouts[agent]
			gate := `"/opt/command-safety-hook hook ` + agent
			if strings.Count(string(e.Data), gate) != len(lay.keys()) {
				t.Errorf("the gate does not run the hook binary:\n%s", e.Data)
			}
			if strings.Count(string(e.Data), `"/opt/command-safety hook `+agent) != len(lay.keys())*(len(lay.events)-1) {
				t.Errorf("the reports do not run the main binary:\n%s", e.Data)
			}
			if again, err := Install(agent, e.Data, spec); err != nil || again.Changed() {
				t.Errorf("second install: %v %v", again.Changes, err)
			}
			held, err := Install(agent, e.Data, Spec{Binary: spec.Binary, HookBinary: spec.HookBinary, Hold: true, HoldLongest: time.Minute})
			if err != nil || strings.Contains(string(held.Data), "command-safety-hook") {
				t.Errorf("hold mode runs the hook binary (%v):\n%s", err, held.Data)
			}
			un, err := Uninstall(agent, e.Data)
			if err != nil || strings.Contains(string(un.Data), "command-safety") {
				t.Errorf("uninstall left an entry (%v):\n%s", err, un.Data)
			}
		})
	}
}
