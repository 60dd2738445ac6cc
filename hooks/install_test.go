package hooks

import (
	"encoding/json"
	"github.com/ml-ai/command-safety/strictjson"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
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
				command := HookCommand(testBinary, agent)
				first, err := Install(agent, []byte(s.data), command)
				if err != nil {
					t.Fatal(err)
				}
				if !first.Changed() || !strings.HasPrefix(first.Changes[len(first.Changes)-1], "+ hooks.") {
					t.Errorf("first install changes %q", first.Changes)
				}
				if n := countOurs(t, agent, first.Data); n != 1 {
					t.Errorf("%d entries of ours after install, want 1:\n%s", n, first.Data)
				}
				checkHookShape(t, agent, first.Data, command)
				checkPreserved(t, s.data, first.Data)

				again, err := Install(agent, first.Data, command)
				if err != nil {
					t.Fatal(err)
				}
				if again.Changed() || string(again.Data) != string(first.Data) {
					t.Errorf("second install changed %q:\n%s", again.Changes, again.Data)
				}

				moved, err := Install(agent, first.Data, HookCommand("/new place/command-safety", agent))
				if err != nil {
					t.Fatal(err)
				}
				if len(moved.Changes) != 1 || !strings.HasPrefix(moved.Changes[0], "~ ") || countOurs(t, agent, moved.Data) != 1 {
					t.Errorf("reinstall from a moved binary: %q\n%s", moved.Changes, moved.Data)
				}
				if !strings.Contains(string(moved.Data), `"'/new place/command-safety' hook `+agent+`"`) {
					t.Errorf("moved command not quoted:\n%s", moved.Data)
				}

				un, err := Uninstall(agent, moved.Data)
				if err != nil {
					t.Fatal(err)
				}
				if len(un.Changes) != 1 || !strings.HasPrefix(un.Changes[0], "- ") {
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
				if agent == "cursor" && !strings.Contains(s.data, `"version"`) {
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
		{"codex", `{}`, "no hook adapter"},
	} {
		if _, err := Install(tt.agent, []byte(tt.data), "x"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Install(%s, %q): %v, want an error with %q", tt.agent, tt.data, err, tt.want)
		}
		if tt.want != "not an array" {
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
	} {
		got, err := SettingsPath(tt.agent, tt.scope, "/p/", "/h")
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("SettingsPath(%s, %s) = %q, %v; want %q", tt.agent, tt.scope, got, err, tt.want)
		}
	}
	if _, err := SettingsPath("codex", User, "/p", "/h"); err == nil {
		t.Error("unknown agent: no error")
	}
	if _, err := SettingsPath("cursor", User, "/p", ""); err == nil {
		t.Error("unknown home: no error")
	}
	if _, err := SettingsPath("cursor", Project, "rel", "/h"); err == nil {
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

// TestInstallHold: hold mode raises Claude Code's per-hook time limit a
// minute above the hold, on a new entry and on an existing one; agents
// without such a key get the command only.
func TestInstallHold(t *testing.T) {
	cmd := HookCommand("/opt/command-safety", "claude-code") + " --hold=10m0s"
	e, err := InstallHold("claude-code", nil, cmd, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(e.Data), `"timeout": 660`) || !strings.Contains(string(e.Data), "--hold=10m0s") {
		t.Errorf("new entry:\n%s", e.Data)
	}
	plain, err := Install("claude-code", nil, HookCommand("/opt/command-safety", "claude-code"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := InstallHold("claude-code", plain.Data, cmd, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(again.Data), `"timeout": 180`) || len(again.Changes) != 2 {
		t.Errorf("existing entry: changes %q\n%s", again.Changes, again.Data)
	}
	c, err := InstallHold("cursor", nil, HookCommand("/opt/command-safety", "cursor")+" --hold", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(c.Data), "timeout") {
		t.Errorf("cursor got a timeout key:\n%s", c.Data)
	}
}
