package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/effects"
)

// fixture returns the content of testdata/name.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// write writes content to path, creating directories.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sandbox is a temporary home with Linux paths and n workspace roots.
type sandbox struct {
	env  Env
	user []string // UserFiles(env)
	ws   []string // workspace roots
}

func newSandbox(t *testing.T, nws int) sandbox {
	dir := t.TempDir()
	sb := sandbox{env: Env{GOOS: "linux", Home: dir}}
	sb.user = UserFiles(sb.env)
	for i := range nws {
		root := filepath.Join(dir, "ws", string(rune('a'+i)))
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		sb.ws = append(sb.ws, root)
	}
	return sb
}

// tag replaces file paths in s by user0..user4 and ws0.. .
func (sb sandbox) tag(s string) string {
	for i, f := range sb.user {
		s = strings.ReplaceAll(s, f, "user"+string(rune('0'+i)))
	}
	for i, root := range sb.ws {
		s = strings.ReplaceAll(s, WorkspaceFile(sb.env, root), "ws"+string(rune('0'+i)))
	}
	return s
}

// entry is one expected budget entry.
type entry struct {
	agent  string
	effect effects.Class
	want   effects.Decision
}

type loadCase struct {
	name string
	user map[int]string // UserFiles index -> content
	ws   map[int]string // workspace index -> content
	// want
	disabled    bool
	budgets     []entry
	decisionLog string
	serverPath  string
	hold        time.Duration // 0: DefaultHoldTimeout
	// problems: each is a prefix of the tagged Problem.String, in order
	problems []string
}

func loadCases(t *testing.T) []loadCase {
	f := func(name string) string { return fixture(t, name) }
	return []loadCase{
		{name: "no files: defaults",
			budgets: []entry{{"default", effects.Network, effects.Prompt}, {"plan", effects.WriteInside, effects.Refuse}}},
		{name: "empty file is {}", user: map[int]string{0: f("empty.jsonc")}},
		{name: "comments only is {}", user: map[int]string{0: "// nothing yet\n/* still nothing */"}},
		{name: "line comment at EOF without newline", user: map[int]string{0: `{"ml-ai.commandSafety": false} // off`}, disabled: true},
		{name: "BOM and comments", user: map[int]string{0: "\ufeff// c\n{ /* x */ \"ml-ai.commandSafety\": false, }"}, disabled: true},
		{name: "flat form, comments, trailing commas", user: map[int]string{0: f("user_flat.jsonc")},
			budgets: []entry{
				{"claude-code", effects.Network, effects.Refuse},
				{"claude-code", effects.WriteInside, effects.Allow},
				{"claude-code", effects.Deletion, effects.Prompt}, // merged over default
				{"copilot", effects.Deletion, effects.Refuse},
				{"default", effects.Network, effects.Prompt},
			},
			decisionLog: "/var/tmp/decisions.db", serverPath: "/opt/cs/command-safety", hold: 5 * time.Minute},
		{name: "nested form in Cursor's file", user: map[int]string{3: f("user_nested.jsonc")},
			disabled: true, hold: 90 * time.Second,
			budgets: []entry{{"cursor", effects.Network, effects.Prompt}, {"cursor", effects.Read, effects.Allow}}},
		{name: "invalid UTF-8 in comments: read as U+FFFD, the values apply",
			ws:       map[int]string{0: "{\n  // caf\xe9\n  \"ml-ai.commandSafety\": false, /* \xff\xfe */\n  \"ml-ai.agentBudgets\": {\"default\": {\"read\": \"refuse\"}}\n}"},
			disabled: true, budgets: []entry{{"default", effects.Read, effects.Refuse}},
			problems: []string{"ws0:2:9: warning: not valid UTF-8; invalid bytes read as U+FFFD, as VS Code reads them"}},
		{name: "invalid UTF-8 in a string: read as U+FFFD",
			user:        map[int]string{0: "{\"ml-ai.decisionLog\": \"/l/caf\xe9.db\"}"},
			decisionLog: "/l/caf\uFFFD.db",
			problems:    []string{"user0:1:30: warning: not valid UTF-8"}},
		{name: "invalid UTF-8 in a comments-only file", user: map[int]string{0: "// caf\xe9"},
			problems: []string{"user0:1:7: warning: not valid UTF-8"}},
		{name: "code-server file is read", user: map[int]string{4: `{"ml-ai.commandSafety": false}`}, disabled: true},
		{name: "Insiders and VSCodium files are read",
			user: map[int]string{1: `{"ml-ai.holdTimeout": "2m"}`, 2: `{"ml-ai.serverPath": "/x"}`},
			hold: 2 * time.Minute, serverPath: "/x"},
		{name: "two user files: false wins, shortest hold, first path",
			user:     map[int]string{0: f("user_flat.jsonc"), 3: f("user_nested.jsonc")},
			disabled: true, hold: 90 * time.Second, decisionLog: "/var/tmp/decisions.db", serverPath: "/opt/cs/command-safety",
			budgets: []entry{{"claude-code", effects.Network, effects.Refuse}, {"cursor", effects.Network, effects.Prompt}}},
		{name: "later user file cannot loosen an earlier one",
			user: map[int]string{
				0: `{"ml-ai.commandSafety": false, "ml-ai.agentBudgets": {"a": {"network": "allow", "read": "refuse"}}, "ml-ai.decisionLog": "/first"}`,
				1: `{"ml-ai.commandSafety": true, "ml-ai.agentBudgets": {"a": {"network": "prompt", "read": "allow"}}, "ml-ai.decisionLog": "/second"}`,
			},
			disabled: true, decisionLog: "/first",
			budgets:  []entry{{"a", effects.Network, effects.Prompt}, {"a", effects.Read, effects.Refuse}},
			problems: []string{`user1:1:100: warning: ml-ai.decisionLog "/second" ignored: already set to "/first" by `}},
		{name: "syntax error: file ignored, defaults kept",
			user:     map[int]string{0: f("bad_syntax.jsonc")},
			problems: []string{"user0:4:3: error: invalid character '\"' after object value (expecting ',' or '}'); ignoring this file"}},
		{name: "syntax error in one file, the other applies",
			user:     map[int]string{0: f("bad_syntax.jsonc"), 3: f("user_nested.jsonc")},
			disabled: true, hold: 90 * time.Second,
			problems: []string{"user0:4:3: error: invalid character"}},
		{name: "top level not an object", user: map[int]string{0: f("not_object.jsonc")},
			problems: []string{"user0:1:1: error: top-level value is not an object; ignoring this file"}},
		{name: "section not an object", user: map[int]string{0: `{"ml-ai": true, "ml-ai.commandSafety": false}`},
			disabled: true, problems: []string{"user0:1:2: error: ml-ai: want an object, got a boolean"}},
		{name: "wrong types: each reported, good parts apply",
			user: map[int]string{0: f("wrong_types.jsonc")},
			budgets: []entry{
				{"ok-agent", effects.Network, effects.Refuse},
				{"claude-code", effects.Network, effects.Prompt}, // not applied: default
				{"copilot", effects.Network, effects.Prompt},
			},
			problems: []string{
				"user0:2:3: error: ml-ai.commandSafety: want a boolean, got a string",
				`user0:3:3: error: ml-ai.agentBudgets["claude-code"]: want an object`,
				`user0:3:3: error: ml-ai.agentBudgets["copilot"]["network"]: unknown decision "maybe"`,
				`user0:3:3: error: ml-ai.agentBudgets["cursor"]: unknown effect "networking"`,
				`user0:3:3: error: ml-ai.agentBudgets["gemini"]["read"]: want "allow", "prompt" or "refuse", got a number`,
				"user0:10:3: error: ml-ai.decisionLog: want a path string, got a number",
				"user0:11:3: error: ml-ai.serverPath: want a path string, got an array",
				`user0:12:3: error: ml-ai.holdTimeout: want a duration such as "10m" or a number of seconds`,
			}},
		{name: "bad hold timeouts", user: map[int]string{0: `{"ml-ai.holdTimeout": -1, "ml-ai": {"holdTimeout": "0s"}}`},
			problems: []string{"user0:1:2: error: ml-ai.holdTimeout: duration -1s is not positive", "user0:1:37: error: ml-ai.holdTimeout: duration 0s is not positive"}},
		{name: "hold timeout as a string of seconds", user: map[int]string{0: `{"ml-ai.holdTimeout": " 600 "}`}, hold: 10 * time.Minute},
		{name: "hold timeout in fractional seconds", user: map[int]string{0: `{"ml-ai.holdTimeout": 1.5}`}, hold: 1500 * time.Millisecond},
		{name: "huge hold timeout", user: map[int]string{0: `{"ml-ai.holdTimeout": 1e300}`},
			problems: []string{"user0:1:2: error: ml-ai.holdTimeout: 1e+300 seconds is more than 168h0m0s"}},
		{name: "null is unset", user: map[int]string{0: `{"ml-ai.commandSafety": null, "ml-ai.agentBudgets": null}`}},
		{name: "unknown keys are errors, the rest applies",
			user: map[int]string{0: f("unknown_keys.jsonc")}, disabled: true,
			problems: []string{
				"user0:2:3: error: unknown setting ml-ai.commandSafty (want one of ml-ai.agentBudgets, ml-ai.commandSafety, ml-ai.decisionLog, ml-ai.holdTimeout, ml-ai.rules, ml-ai.serverPath)",
				"user0:3:14: error: unknown setting ml-ai.agentBudget",
			}},
		{name: "workspace cannot loosen",
			user: map[int]string{0: f("user_flat.jsonc")}, ws: map[int]string{0: f("ws_loosen.jsonc")},
			decisionLog: "/var/tmp/decisions.db", serverPath: "/opt/cs/command-safety", hold: 5 * time.Minute,
			budgets: []entry{
				{"default", effects.Network, effects.Prompt},  // allow ignored
				{"default", effects.Deletion, effects.Refuse}, // tightened
				{"plan", effects.WriteInside, effects.Refuse},
				{"claude-code", effects.Network, effects.Refuse},
				{"claude-code", effects.WriteInside, effects.Allow}, // user's, untouched
				{"newagent", effects.SystemChange, effects.Refuse},
				{"newagent", effects.Network, effects.Prompt},
			},
			problems: []string{
				`ws0:4:3: warning: workspace ml-ai.agentBudgets["claude-code"]["network"] = "allow" ignored: looser than the user's "refuse"`,
				`ws0:4:3: warning: workspace ml-ai.agentBudgets["default"]["network"] = "allow" ignored: looser than the user's "prompt"`,
				`ws0:4:3: warning: workspace ml-ai.agentBudgets["plan"]["write-inside-workspace"] = "allow" ignored: looser than the user's "refuse"`,
				"ws0:10:3: warning: ml-ai.decisionLog ignored: user settings only",
				"ws0:11:3: warning: ml-ai.serverPath ignored: user settings only",
				"ws0:12:3: warning: ml-ai.holdTimeout ignored: user settings only",
			}},
		{name: "workspace can tighten", ws: map[int]string{0: f("ws_tighten.jsonc")}, disabled: true,
			budgets: []entry{{"autopilot", effects.WriteInside, effects.Prompt}, {"autopilot", effects.OpaqueLow, effects.Allow}}},
		{name: "workspace cannot turn the gate back on",
			user: map[int]string{0: `{"ml-ai.commandSafety": false}`}, ws: map[int]string{0: `{"ml-ai.commandSafety": true}`},
			disabled: true,
			problems: []string{"ws0:1:2: warning: ml-ai.commandSafety true ignored: the user turned it off"}},
		{name: "workspace true with user true: nothing to say", ws: map[int]string{0: `{"ml-ai.commandSafety": true}`}},
		{name: "workspace user-only keys equal to the user's: no warning",
			user:        map[int]string{0: `{"ml-ai.decisionLog": "/l", "ml-ai.holdTimeout": 60}`},
			ws:          map[int]string{0: `{"ml-ai.decisionLog": "/l", "ml-ai.holdTimeout": "1m", "ml-ai.serverPath": ""}`},
			decisionLog: "/l", hold: time.Minute},
		{name: "two workspaces: strictest applies, equal is silent",
			ws:      map[int]string{0: `{"ml-ai.agentBudgets": {"default": {"network": "refuse"}}}`, 1: `{"ml-ai.agentBudgets": {"default": {"network": "prompt", "verify": "prompt"}}}`},
			budgets: []entry{{"default", effects.Network, effects.Refuse}, {"default", effects.Verify, effects.Prompt}, {"default", effects.Read, effects.Allow}}},
		{name: "workspace bad entries are reported, good ones apply",
			ws:      map[int]string{0: `{"ml-ai.agentBudgets": {"default": {"network": "refuse", "nope": "refuse"}, "x": {"read": "never"}}}`},
			budgets: []entry{{"default", effects.Network, effects.Prompt}}, // the agent with a bad entry is dropped whole
			problems: []string{
				`ws0:1:2: error: ml-ai.agentBudgets["default"]: unknown effect "nope"`,
				`ws0:1:2: error: ml-ai.agentBudgets["x"]["read"]: unknown decision "never"`,
			}},
		{name: "workspace syntax error: user settings unaffected",
			user: map[int]string{0: `{"ml-ai.agentBudgets": {"default": {"network": "allow"}}}`}, ws: map[int]string{0: f("bad_syntax.jsonc")},
			budgets:  []entry{{"default", effects.Network, effects.Allow}},
			problems: []string{"ws0:4:3: error: invalid character"}},
	}
}

func TestLoad(t *testing.T) {
	seen := map[string]bool{}
	for _, tt := range loadCases(t) {
		if seen[tt.name] {
			t.Fatalf("duplicate case %q", tt.name)
		}
		seen[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			sb := newSandbox(t, 2)
			for i, c := range tt.user {
				write(t, sb.user[i], c)
			}
			for i, c := range tt.ws {
				write(t, WorkspaceFile(sb.env, sb.ws[i]), c)
			}
			s := Load(sb.env, sb.ws)
			checkSnapshot(t, sb, s, tt)
			if diff := cmp.Diff(s.Problems, s.New); diff != "" {
				t.Errorf("Load: New != Problems (-Problems +New):\n%s", diff)
			}
			wantFiles := append(append([]string(nil), sb.user...), WorkspaceFile(sb.env, sb.ws[0]), WorkspaceFile(sb.env, sb.ws[1]))
			if diff := cmp.Diff(wantFiles, s.Files); diff != "" {
				t.Errorf("Files (-want +got):\n%s", diff)
			}
		})
	}
}

func checkSnapshot(t *testing.T, sb sandbox, s Snapshot, tt loadCase) {
	t.Helper()
	if s.Enabled != !tt.disabled {
		t.Errorf("Enabled = %v, want %v", s.Enabled, !tt.disabled)
	}
	for _, e := range tt.budgets {
		b, err := s.Budgets.Effective(e.agent, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Decide(e.effect); got != e.want {
			t.Errorf("budget %s %s = %s, want %s", e.agent, e.effect, got, e.want)
		}
	}
	if s.DecisionLog != tt.decisionLog {
		t.Errorf("DecisionLog = %q, want %q", s.DecisionLog, tt.decisionLog)
	}
	if s.ServerPath != tt.serverPath {
		t.Errorf("ServerPath = %q, want %q", s.ServerPath, tt.serverPath)
	}
	hold := tt.hold
	if hold == 0 {
		hold = DefaultHoldTimeout
	}
	if s.HoldTimeout != hold {
		t.Errorf("HoldTimeout = %v, want %v", s.HoldTimeout, hold)
	}
	var got []string
	for _, p := range s.Problems {
		got = append(got, sb.tag(p.String()))
	}
	ok := len(got) == len(tt.problems)
	for i := 0; ok && i < len(got); i++ {
		ok = strings.HasPrefix(got[i], tt.problems[i])
	}
	if !ok {
		t.Errorf("problems:\n got %s\nwant prefixes %s", strings.Join(got, "\n     "), strings.Join(tt.problems, "\n     "))
	}
	for _, p := range s.Problems {
		if p.Message == "" || strings.HasSuffix(p.Message, ".") {
			t.Errorf("problem message %q: want non-empty, no final period", p.Message)
		}
	}
}

// TestBuiltinUntouched checks that a snapshot's budgets are budgets.Builtin
// when nothing is set (every agent, every effect).
func TestBuiltinUntouched(t *testing.T) {
	sb := newSandbox(t, 1)
	s := Load(sb.env, sb.ws)
	if diff := cmp.Diff(budgets.Builtin(), s.Budgets); diff != "" {
		t.Errorf("Budgets with no settings (-builtin +got):\n%s", diff)
	}
	if diff := cmp.Diff(Defaults().Budgets, s.Budgets); diff != "" {
		t.Errorf("Defaults().Budgets differs:\n%s", diff)
	}
}

func TestLoaderKeepsLastGood(t *testing.T) {
	sb := newSandbox(t, 1)
	user := sb.user[0]
	var l Loader
	type step struct {
		name     string
		content  string // "-" removes the file
		disabled bool
		hold     time.Duration
		problems []string // prefixes of tagged Problems
		fresh    int      // len(New)
	}
	steps := []step{
		{name: "good", content: `{"ml-ai.commandSafety": false, "ml-ai.holdTimeout": "1m"}`, disabled: true, hold: time.Minute},
		{name: "broken keeps last good", content: `{"ml-ai.commandSafety": true,,}`, disabled: true, hold: time.Minute,
			problems: []string{"user0:1:30: error: invalid character ',' at start of value; keeping this file's last good settings"}, fresh: 1},
		{name: "unchanged: reported once", content: `{"ml-ai.commandSafety": true,,}`, disabled: true, hold: time.Minute,
			problems: []string{"user0:1:30: error: invalid character"}, fresh: 0},
		{name: "changed, still broken: reported again", content: `{"ml-ai.commandSafety": true,,} `, disabled: true, hold: time.Minute,
			problems: []string{"user0:1:30: error: invalid character"}, fresh: 1},
		{name: "good again", content: `{"ml-ai.holdTimeout": "2m", "ml-ai.nope": 1}`, hold: 2 * time.Minute,
			problems: []string{"user0:1:29: error: unknown setting ml-ai.nope"}, fresh: 1},
		{name: "same bad key, unchanged file", content: `{"ml-ai.holdTimeout": "2m", "ml-ai.nope": 1}`, hold: 2 * time.Minute,
			problems: []string{"user0:1:29: error: unknown setting ml-ai.nope"}, fresh: 0},
		{name: "removed: defaults", content: "-"},
		{name: "broken after removal: defaults", content: `{`,
			problems: []string{"user0:1:2: error: parsing value: unexpected EOF; ignoring this file"}, fresh: 1},
	}
	for _, st := range steps {
		if st.content == "-" {
			if err := os.Remove(user); err != nil {
				t.Fatal(err)
			}
		} else {
			write(t, user, st.content)
		}
		s := l.Load(sb.env, sb.ws)
		checkSnapshot(t, sb, s, loadCase{name: st.name, disabled: st.disabled, hold: st.hold, problems: st.problems})
		if len(s.New) != st.fresh {
			t.Errorf("step %q: len(New) = %d, want %d: %v", st.name, len(s.New), st.fresh, s.New)
		}
		if t.Failed() {
			t.Fatalf("step %q failed", st.name)
		}
	}
}

func TestLoaderWorkspaceWarningOncePerChange(t *testing.T) {
	sb := newSandbox(t, 1)
	ws := WorkspaceFile(sb.env, sb.ws[0])
	write(t, ws, `{"ml-ai.agentBudgets": {"default": {"network": "allow"}}}`)
	var l Loader
	if s := l.Load(sb.env, sb.ws); len(s.Problems) != 1 || len(s.New) != 1 || s.Problems[0].Severity != Warning {
		t.Fatalf("first load: Problems %v New %v, want one new warning", s.Problems, s.New)
	}
	if s := l.Load(sb.env, sb.ws); len(s.Problems) != 1 || len(s.New) != 0 {
		t.Fatalf("second load: Problems %v New %v, want the warning, not new", s.Problems, s.New)
	}
	write(t, ws, `{"ml-ai.agentBudgets": {"default": {"network": "allow"}}} // edited`)
	if s := l.Load(sb.env, sb.ws); len(s.New) != 1 {
		t.Fatalf("after an edit: New %v, want the warning again", s.New)
	}
}

func TestFromSections(t *testing.T) {
	decode := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name     string
		user     map[string]any
		ws       []map[string]any
		disabled bool
		budgets  []entry
		hold     time.Duration
		log      string
		problems []string
	}{
		{name: "nil: defaults"},
		{name: "all defaults as VS Code sends them",
			user: decode(`{"commandSafety": true, "agentBudgets": {}, "decisionLog": "", "serverPath": "", "holdTimeout": "10m"}`),
			ws:   []map[string]any{decode(`{"commandSafety": true, "agentBudgets": {}, "decisionLog": "", "serverPath": "", "holdTimeout": "10m"}`)}},
		{name: "user section",
			user:     decode(`{"commandSafety": false, "agentBudgets": {"copilot": {"network": "refuse"}}, "holdTimeout": 30, "decisionLog": "/l"}`),
			disabled: true, hold: 30 * time.Second, log: "/l",
			budgets: []entry{{"copilot", effects.Network, effects.Refuse}, {"copilot", effects.Read, effects.Allow}}},
		{name: "Go-typed section", user: map[string]any{"holdTimeout": json.Number("45"), "agentBudgets": map[string]any{"a": map[string]any{"read": "refuse"}}},
			hold: 45 * time.Second, budgets: []entry{{"a", effects.Read, effects.Refuse}}},
		{name: "int seconds", user: map[string]any{"holdTimeout": 20}, hold: 20 * time.Second},
		{name: "unknown key and wrong type",
			user:     decode(`{"commandSafty": false, "commandSafety": "no"}`),
			problems: []string{"client settings: error: ml-ai.commandSafety: want a boolean, got a string", "client settings: error: unknown setting ml-ai.commandSafty"}},
		{name: "workspace folder section only tightens",
			user:     decode(`{"agentBudgets": {"copilot": {"network": "prompt"}}}`),
			ws:       []map[string]any{nil, decode(`{"commandSafety": false, "agentBudgets": {"copilot": {"network": "allow", "read": "prompt"}}, "serverPath": "/evil"}`)},
			disabled: true,
			budgets:  []entry{{"copilot", effects.Network, effects.Prompt}, {"copilot", effects.Read, effects.Prompt}},
			problems: []string{
				`client workspace folder settings/1: warning: workspace ml-ai.agentBudgets["copilot"]["network"] = "allow" ignored`,
				"client workspace folder settings/1: warning: ml-ai.serverPath ignored: user settings only",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := FromSections(tt.user, tt.ws)
			checkSnapshot(t, sandbox{}, s, loadCase{name: tt.name, disabled: tt.disabled, budgets: tt.budgets, hold: tt.hold, decisionLog: tt.log, problems: tt.problems})
			if s.Files != nil {
				t.Errorf("Files = %v, want nil", s.Files)
			}
		})
	}
}

func TestLoaderFromSectionsOncePerChange(t *testing.T) {
	var l Loader
	bad := map[string]any{"commandSafety": "off"}
	if s := l.FromSections(bad, nil); len(s.New) != 1 {
		t.Fatalf("first: New = %v, want 1", s.New)
	}
	if s := l.FromSections(map[string]any{"commandSafety": "off"}, nil); len(s.New) != 0 || len(s.Problems) != 1 {
		t.Fatalf("same section again: New = %v Problems = %v, want 0 new of 1", s.New, s.Problems)
	}
	if s := l.FromSections(map[string]any{"commandSafety": "off", "decisionLog": "/x"}, nil); len(s.New) != 1 {
		t.Fatalf("changed section: New = %v, want 1", s.New)
	}
}

func TestKeys(t *testing.T) {
	want := []string{"ml-ai.agentBudgets", "ml-ai.commandSafety", "ml-ai.decisionLog", "ml-ai.holdTimeout", "ml-ai.rules", "ml-ai.serverPath"}
	if diff := cmp.Diff(want, Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
}

func TestParseErrorString(t *testing.T) {
	sb := newSandbox(t, 0)
	write(t, sb.user[0], "{\n  \"a\": 1\n  \"b\": 2\n}")
	s := Load(sb.env, nil)
	if len(s.Problems) != 1 {
		t.Fatalf("Problems = %v, want 1", s.Problems)
	}
	p := s.Problems[0]
	if p.File != sb.user[0] || p.Line != 3 || p.Col != 3 || p.Severity != Error {
		t.Errorf("problem = %+v, want %s:3:3 error", p, sb.user[0])
	}
	_, _, err := parseFile("f.json", []byte("{\n  \"a\": 1\n  \"b\": 2\n}"))
	if got := err.Error(); !strings.HasPrefix(got, "f.json:3:3: invalid character") {
		t.Errorf("parseError = %q, want f.json:3:3: ...", got)
	}
}

func TestLoadSameRootTwice(t *testing.T) {
	sb := newSandbox(t, 1)
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.nope": 1}`)
	s := Load(sb.env, []string{sb.ws[0], sb.ws[0]})
	if len(s.Problems) != 1 {
		t.Errorf("Problems = %v, want the file's one problem once", s.Problems)
	}
	if n := len(s.Files); n != len(sb.user)+1 {
		t.Errorf("Files has %d entries, want %d", n, len(sb.user)+1)
	}
}

func TestLoadUnreadable(t *testing.T) {
	sb := newSandbox(t, 0)
	// A directory where the file should be: present but unreadable.
	if err := os.MkdirAll(sb.user[0], 0o755); err != nil {
		t.Fatal(err)
	}
	// A file over the size limit.
	write(t, sb.user[1], `{"ml-ai.commandSafety": false, "x": "`+strings.Repeat("x", MaxFileSize)+`"}`)
	s := Load(sb.env, nil)
	checkSnapshot(t, sb, s, loadCase{problems: []string{
		"user0: error: is not a regular file (a directory); ignoring this file",
		"user1: error: cannot read: larger than 8388608 bytes; ignoring this file",
	}})
}
