package settings

import (
	"os"

	"strings"
	"testing"

	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/effects"
)

func TestPolicyFile(t *testing.T) {
	tests := []struct {
		env  Env
		want string
	}{
		{Env{GOOS: "linux", Home: "/home/u"}, "/etc/ml-ai/policy.json"},
		{Env{GOOS: "freebsd"}, "/etc/ml-ai/policy.json"},
		{Env{GOOS: "darwin", Home: "/Users/u"}, "/Library/Application Support/ml-ai/policy.json"},
		{Env{GOOS: "linux", PolicyFile: "/tmp/p.json"}, "/tmp/p.json"},
	}
	for _, tt := range tests {
		if got := PolicyFile(tt.env); got != tt.want {
			t.Errorf("PolicyFile(%+v) = %q, want %q", tt.env, got, tt.want)
		}
	}
	if got := PolicyFile(Env{GOOS: "windows"}); !strings.HasSuffix(got, `\ml-ai\policy.json`) || !strings.Contains(got, `:\`) {
		t.Errorf("PolicyFile(windows) = %q, want ...:\\...\\ml-ai\\policy.json", got)
	}
	// No environment variable moves the policy: EnvFrom never sets it,
	// whatever the environment holds.
	for _, goos := range []string{"linux", "darwin", "windows"} {
		env := EnvFrom(goos, func(string) string { return "/attacker" })
		if env.PolicyFile != "" {
			t.Errorf("EnvFrom(%s) set PolicyFile = %q", goos, env.PolicyFile)
		}
		if got := PolicyFile(env); strings.Contains(got, "attacker") {
			t.Errorf("PolicyFile(EnvFrom(%s)) = %q follows the environment", goos, got)
		}
	}
}

// policySandbox is a sandbox with the policy's content written (when not "").
func policySandbox(t *testing.T, policy string) sandbox {
	sb := newSandbox(t, 1)
	if policy != "" {
		write(t, sb.env.PolicyFile, policy)
	}
	return sb
}

func decide(t *testing.T, s Snapshot, agent, mode string, c effects.Class) effects.Decision {
	t.Helper()
	b, err := s.Budgets.Effective(agent, mode)
	if err != nil {
		t.Fatalf("Effective(%q, %q): %v", agent, mode, err)
	}
	return b.Decide(c)
}

func problemText(s Snapshot) string {
	var b strings.Builder
	for _, p := range s.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

func wantProblem(t *testing.T, s Snapshot, sev Severity, substr string) {
	t.Helper()
	for _, p := range s.Problems {
		if p.Severity == sev && strings.Contains(p.String(), substr) {
			return
		}
	}
	t.Errorf("no %s problem containing %q in:\n%s", sev, substr, problemText(s))
}

func TestPolicyLocksToggleOn(t *testing.T) {
	sb := policySandbox(t, `{
  // the administrator's policy: JSONC
  "ml-ai.commandSafety": true,
}`)
	write(t, sb.user[0], `{"ml-ai.commandSafety": false}`)
	s := Load(sb.env, sb.ws)
	if !s.Enabled || !s.LockedOn() {
		t.Fatalf("Enabled = %v, LockedOn = %v; want the policy's lock to win over the user's false", s.Enabled, s.LockedOn())
	}
	wantProblem(t, s, Warning, "ml-ai.commandSafety false ignored: the managed policy ("+sb.env.PolicyFile+") locks it on")
	if note := s.PolicyNote("default", "", "read", effects.Allow); !strings.Contains(note, "locked on by the managed policy") {
		t.Errorf("PolicyNote for an allow the lock made = %q", note)
	}

	// A workspace cannot turn it off either.
	write(t, sb.user[0], `{}`)
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.commandSafety": false}`)
	s = Load(sb.env, sb.ws)
	if !s.Enabled {
		t.Error("a workspace's false turned a locked toggle off")
	}
	wantProblem(t, s, Warning, "locks it on")

	// Without the policy the same files turn it off.
	if err := os.Remove(sb.env.PolicyFile); err != nil {
		t.Fatal(err)
	}
	if s = Load(sb.env, sb.ws); s.Enabled || s.Managed != nil {
		t.Errorf("without a policy: Enabled = %v, Managed = %v", s.Enabled, s.Managed)
	}
}

func TestPolicyTurnsToggleOff(t *testing.T) {
	sb := policySandbox(t, `{"ml-ai": {"commandSafety": false}}`)
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.commandSafety": true}`)
	s := Load(sb.env, sb.ws)
	if s.Enabled || s.LockedOn() {
		t.Fatalf("Enabled = %v, LockedOn = %v, want off", s.Enabled, s.LockedOn())
	}
	wantProblem(t, s, Warning, "true ignored: the managed policy")
	if note := s.PolicyNote("default", "", "commandSafety-off", effects.Prompt); !strings.Contains(note, "sets ml-ai.commandSafety to false") {
		t.Errorf("PolicyNote = %q", note)
	}
}

func TestPolicyBudgetsAreTheLoosest(t *testing.T) {
	sb := policySandbox(t, `{"ml-ai.agentBudgets": {"claude-code": {"network": "prompt", "write-inside-workspace": "allow"}}}`)
	write(t, sb.user[0], `{"ml-ai.agentBudgets": {
  "claude-code": {"network": "allow", "irreversible-deletion": "refuse"},
  "cursor": {"network": "allow"}
}}`)
	s := Load(sb.env, sb.ws)
	for _, c := range []struct {
		agent  string
		effect effects.Class
		want   effects.Decision
	}{
		{"claude-code", effects.Network, effects.Prompt},      // the user's allow is looser: ignored
		{"claude-code", effects.Deletion, effects.Refuse},     // stricter: applies
		{"claude-code", effects.WriteInside, effects.Allow},   // the policy's base
		{"claude-code", effects.Read, effects.Allow},          // built-in under the policy's entries
		{"cursor", effects.Network, effects.Allow},            // not named by the policy: the user's
		{"default", effects.WriteInside, effects.Prompt},      // untouched
		{"claude-code", effects.SystemChange, effects.Prompt}, // default's, under the policy
	} {
		if got := decide(t, s, c.agent, "", c.effect); got != c.want {
			t.Errorf("%s %s = %s, want %s", c.agent, c.effect, got, c.want)
		}
	}
	wantProblem(t, s, Warning, `ml-ai.agentBudgets["claude-code"]["network"] = "allow" ignored: looser than the managed policy's "prompt"`)
	if n := strings.Count(problemText(s), "looser than the managed policy"); n != 1 {
		t.Errorf("%d looser warnings, want 1:\n%s", n, problemText(s))
	}
	// The verdict says so when the policy decided: the user alone would allow.
	if note := s.PolicyNote("claude-code", "", "network", effects.Prompt); !strings.Contains(note, "the managed policy ("+sb.env.PolicyFile+") limits network to prompt") {
		t.Errorf("PolicyNote = %q", note)
	}
	if note := s.PolicyNote("claude-code", "", "irreversible-deletion", effects.Refuse); note != "" {
		t.Errorf("PolicyNote for the user's own refusal = %q, want none", note)
	}

	// A workspace only tightens further.
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.agentBudgets": {"claude-code": {"write-inside-workspace": "prompt", "network": "allow"}}}`)
	s = Load(sb.env, sb.ws)
	if got := decide(t, s, "claude-code", "", effects.WriteInside); got != effects.Prompt {
		t.Errorf("workspace tightening: %s", got)
	}
	if got := decide(t, s, "claude-code", "", effects.Network); got != effects.Prompt {
		t.Errorf("workspace loosening: %s", got)
	}

	// Naming default caps every agent and mode.
	write(t, sb.env.PolicyFile, `{"ml-ai.agentBudgets": {"default": {"network": "refuse"}}}`)
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{}`)
	s = Load(sb.env, sb.ws)
	if got := decide(t, s, "cursor", "", effects.Network); got != effects.Refuse {
		t.Errorf("cursor network under a default cap = %s, want refuse", got)
	}
	if got := decide(t, s, "claude-code", "", effects.Deletion); got != effects.Refuse {
		t.Errorf("claude-code deletion = %s, want the user's refuse", got)
	}
	wantProblem(t, s, Warning, `["cursor"]["network"] = "allow" ignored`)
}

func TestPolicyRefuse(t *testing.T) {
	sb := policySandbox(t, `{"ml-ai.refuse": ["network", "privilege-escalation"]}`)
	write(t, sb.user[0], `{"ml-ai.agentBudgets": {"mine": {"network": "allow"}}}`)
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.agentBudgets": {"ws-agent": {"read": "prompt"}}}`)
	s := Load(sb.env, sb.ws)
	for _, agent := range []string{"default", "mine", "ws-agent", "unnamed", "autopilot"} {
		for _, mode := range []string{"", "autopilot"} {
			if got := decide(t, s, agent, mode, effects.Network); got != effects.Refuse {
				t.Errorf("%s/%s network = %s, want refuse", agent, mode, got)
			}
		}
	}
	if got := decide(t, s, "mine", "", effects.Read); got != effects.Allow {
		t.Errorf("read = %s", got)
	}
	if note := s.PolicyNote("mine", "", "network", effects.Refuse); !strings.Contains(note, "refuses network for every agent") {
		t.Errorf("PolicyNote = %q", note)
	}
	// A settings file cannot set it.
	write(t, sb.user[0], `{"ml-ai.refuse": ["read"]}`)
	s = Load(sb.env, sb.ws)
	wantProblem(t, s, Error, "ml-ai.refuse is a managed policy key")
}

func TestPolicyInvalidFailsClosed(t *testing.T) {
	for _, tt := range []struct {
		name, policy, why string
	}{
		{"syntax", `{"ml-ai.commandSafety": true,,}`, "invalid character"},
		{"unknown key", `{"ml-ai.comandSafety": true}`, "ml-ai.comandSafety cannot be set by the managed policy"},
		{"settings-only key", `{"ml-ai.decisionLog": "/tmp/x.db"}`, "ml-ai.decisionLog cannot be set by the managed policy"},
		{"rules are user settings", `{"ml-ai.rules": []}`, "ml-ai.rules cannot be set by the managed policy"},
		{"bad budget", `{"ml-ai.agentBudgets": {"claude-code": {"network": "maybe"}}, "ml-ai.commandSafety": true}`, `unknown decision "maybe"`},
		{"bad refuse", `{"ml-ai.refuse": ["netwrk"]}`, `unknown effect "netwrk"`},
		{"bad telemetry", `{"ml-ai.telemetry": {"endpoint": "collector:4318"}}`, "want an http:// or https:// URL"},
		{"not an object", `[]`, "top-level value is not an object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sb := policySandbox(t, tt.policy)
			write(t, sb.user[0], `{"ml-ai.agentBudgets": {"default": {"network": "allow"}}}`)
			s := Load(sb.env, sb.ws)
			if s.Enabled {
				t.Error("an invalid policy without a last good version left the gate on: every command must prompt")
			}
			if s.Managed == nil || !strings.Contains(s.Managed.Invalid, tt.why) || !strings.Contains(s.Managed.Invalid, "every command prompts") {
				t.Fatalf("Managed = %+v, want Invalid naming %q", s.Managed, tt.why)
			}
			wantProblem(t, s, Error, tt.why)
			if note := s.PolicyNote("default", "", "commandSafety-off", effects.Prompt); !strings.Contains(note, tt.why) {
				t.Errorf("PolicyNote = %q, want the reason", note)
			}
		})
	}
}

func TestPolicyKeepsLastGood(t *testing.T) {
	sb := policySandbox(t, `{"ml-ai.agentBudgets": {"default": {"network": "refuse"}}}`)
	var l Loader
	if s := l.Load(sb.env, sb.ws); decide(t, s, "default", "", effects.Network) != effects.Refuse {
		t.Fatal("the good policy did not apply")
	}
	// The administrator saves a typo: the running process keeps the good one.
	write(t, sb.env.PolicyFile, `{"ml-ai.agentBudgets": {"default": {"network": "refuse"}}, "ml-ai.refuse": "network"}`)
	s := l.Load(sb.env, sb.ws)
	if s.Managed == nil || s.Managed.Invalid != "" || !s.Enabled {
		t.Fatalf("Managed = %+v, Enabled = %v; want the last good policy in force", s.Managed, s.Enabled)
	}
	if decide(t, s, "default", "", effects.Network) != effects.Refuse {
		t.Error("the last good policy's budget was dropped")
	}
	wantProblem(t, s, Error, "keeping this file's last good settings")
	// A process that never read a good version is strict.
	if s := Load(sb.env, sb.ws); s.Enabled || s.Managed.Invalid == "" {
		t.Errorf("fresh Load of a bad policy: Enabled = %v, Invalid = %q", s.Enabled, s.Managed.Invalid)
	}
}

func TestPolicyNotRegular(t *testing.T) {
	sb := newSandbox(t, 0)
	if err := os.MkdirAll(sb.env.PolicyFile, 0o755); err != nil { // a directory where the file should be
		t.Fatal(err)
	}
	s := Load(sb.env, nil)
	if s.Enabled || s.Managed == nil || !strings.Contains(s.Managed.Invalid, "not a regular file") {
		t.Fatalf("Enabled = %v, Managed = %+v", s.Enabled, s.Managed)
	}
}

func TestPolicyTelemetry(t *testing.T) {
	sb := policySandbox(t, "")
	write(t, sb.user[0], `{"ml-ai.telemetry": {"endpoint": "http://127.0.0.1:4318", "redactCommands": true}}`)
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.telemetry": {"endpoint": "http://evil.example:4318"}}`)
	s := Load(sb.env, sb.ws)
	if s.Telemetry == nil || s.Telemetry.Endpoint != "http://127.0.0.1:4318" || !s.Telemetry.RedactCommands || s.Telemetry.Managed {
		t.Fatalf("Telemetry = %+v, want the user's", s.Telemetry)
	}
	wantProblem(t, s, Warning, "ml-ai.telemetry ignored: user settings only")

	// A workspace alone cannot turn export on.
	write(t, sb.user[0], `{}`)
	if s = Load(sb.env, sb.ws); s.Telemetry != nil {
		t.Fatalf("a workspace turned export on: %+v", s.Telemetry)
	}

	// The policy's is the only one.
	write(t, sb.env.PolicyFile, `{"ml-ai.telemetry": {"endpoint": "https://otel.corp:4317", "protocol": "grpc", "headers": {"x-team": "a"}}}`)
	write(t, sb.user[0], `{"ml-ai.telemetry": {"endpoint": "http://127.0.0.1:4318"}}`)
	s = Load(sb.env, sb.ws)
	if s.Telemetry == nil || !s.Telemetry.Managed || s.Telemetry.Endpoint != "https://otel.corp:4317" || s.Telemetry.Protocol != ProtocolGRPC || s.Telemetry.Headers["x-team"] != "a" {
		t.Fatalf("Telemetry = %+v, want the policy's", s.Telemetry)
	}
	wantProblem(t, s, Warning, "ml-ai.telemetry ignored: the managed policy")
}

func TestTelemetryValues(t *testing.T) {
	for _, tt := range []struct{ value, err string }{
		{`{"endpoint": "https://c:4318/base", "protocol": "http/protobuf", "headers": {"a": "b"}, "redactCommands": false}`, ""},
		{`{"redactCommands": true}`, ""},
		{`{"enabled": false}`, ""},
		{`{"enabled": "no"}`, "enabled: want a boolean"},
		{`{"endpoint": "ftp://c"}`, "want an http:// or https:// URL"},
		{`{"endpoint": "http://"}`, "no host"},
		{`{"endpoint": "http://u:p@c"}`, "credentials"},
		{`{"protocol": "http/json"}`, `want "http/protobuf" or "grpc"`},
		{`{"headers": {"a": 1}}`, "headers"},
		{`{"headers": {"a": "b\nc"}}`, "one-line"},
		{`{"endpont": "http://c"}`, `unknown key "endpont"`},
		{`"http://c"`, "want an object"},
	} {
		sb := newSandbox(t, 0)
		write(t, sb.user[0], `{"ml-ai.telemetry": `+tt.value+`}`)
		s := Load(sb.env, nil)
		if tt.err == "" {
			if s.Telemetry == nil || len(s.Problems) > 0 {
				t.Errorf("%s: Telemetry = %+v, problems:\n%s", tt.value, s.Telemetry, problemText(s))
			}
			continue
		}
		if s.Telemetry != nil {
			t.Errorf("%s: a bad value applied: %+v", tt.value, s.Telemetry)
		}
		wantProblem(t, s, Error, tt.err)
	}
}

func TestPolicyFromSections(t *testing.T) {
	sb := policySandbox(t, `{"ml-ai.commandSafety": true, "ml-ai.agentBudgets": {"copilot": {"network": "refuse"}}}`)
	var l Loader
	s := l.FromSectionsWithFiles(sb.env, map[string]any{"commandSafety": false, "agentBudgets": map[string]any{"copilot": map[string]any{"network": "allow"}}}, nil, nil)
	if !s.Enabled || decide(t, s, "copilot", "", effects.Network) != effects.Refuse {
		t.Fatalf("client sections loosened the policy: Enabled = %v, network = %s", s.Enabled, decide(t, s, "copilot", "", effects.Network))
	}
	wantProblem(t, s, Warning, "locks it on")
}

// FuzzPolicy feeds the policy parser any bytes (a new input path: an
// administrator's file). Properties: no panic; an invalid policy without a
// last good version prompts everything and says why; a valid one is never
// loosened by user settings that allow everything for every agent it caps.
func FuzzPolicy(f *testing.F) {
	for _, seed := range []string{
		`{"ml-ai.commandSafety": true}`,
		`{"ml-ai": {"agentBudgets": {"default": {"network": "refuse"}}, "refuse": ["history-rewrite"]}}`,
		`{"ml-ai.agentBudgets": {"claude-code": {"write-inside-workspace": "allow"}}, // comment
		  "ml-ai.telemetry": {"endpoint": "http://127.0.0.1:4318", "protocol": "grpc", "headers": {"k": "v"}},}`,
		`{"ml-ai.rules": []}`, `{"ml-ai.decisionLog": "x"}`, `[]`, ``, `/* only */`, "\xef\xbb\xbf{}", "{\"ml-ai.refuse\": [\"\xff\"]}",
	} {
		f.Add([]byte(seed))
	}
	loosest := map[string]map[string]string{}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		vals, keyErrs, err := parseFile("policy.json", data, true)
		src := source{name: "policy.json", vals: vals}
		for _, ke := range keyErrs {
			if !ke.warning {
				src.problems = append(src.problems, Problem{File: "policy.json", Message: ke.err.Error()})
			}
		}
		if err != nil || len(src.problems) > 0 {
			why := "does not parse"
			if err != nil {
				why = err.Error()
			}
			src.vals, src.invalid = values{policy: true}, invalidPolicy("policy.json", why)
			s := combine(&src, nil, nil)
			if s.Enabled || s.PolicyNote("default", "", "read", effects.Prompt) == "" {
				t.Fatalf("invalid policy %q: Enabled = %v, note = %q", data, s.Enabled, s.PolicyNote("default", "", "read", effects.Prompt))
			}
			return
		}
		alone := combine(&src, nil, nil)
		for _, a := range append(slicesOf(vals.budgets), "default", "claude-code", "plan", "autopilot") {
			loosest[a] = map[string]string{}
			for _, c := range effects.Classes {
				loosest[a][c.String()] = "allow"
			}
		}
		user := source{name: "user", vals: values{budgets: loosest, enabled: new(bool)}}
		withUser := combine(&src, []source{user}, nil)
		if alone.LockedOn() && !withUser.Enabled {
			t.Fatalf("policy %q locks the toggle on, a user's false turned it off", data)
		}
		capped := func(a string) bool { return vals.budgets[a] != nil || vals.budgets[budgets.Default] != nil }
		for a := range loosest {
			if !capped(a) {
				continue
			}
			pb, _ := alone.Budgets.Effective(a, "")
			ub, _ := withUser.Budgets.Effective(a, "")
			for _, c := range effects.Classes {
				if ub.Decide(c) > pb.Decide(c) {
					t.Fatalf("policy %q: user settings loosened %s %s from %s to %s", data, a, c, pb.Decide(c), ub.Decide(c))
				}
			}
		}
		for _, c := range vals.refuse {
			if d := decide(t, withUser, "anyone", "", c); d != effects.Refuse {
				t.Fatalf("policy %q refuses %s, got %s", data, c, d)
			}
		}
	})
}

func slicesOf(m map[string]map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestPolicyWatched: serve sees the policy change at the next command, in
// files mode (the watcher) and in client mode (Loader.PolicyChanged).
func TestPolicyWatched(t *testing.T) {
	sb := policySandbox(t, "")
	w, err := NewWatcher(sb.env, sb.ws, WatchOptions{Source: newFakeSource(), OnChange: func(Snapshot) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	write(t, sb.user[0], `{"ml-ai.commandSafety": false}`)
	if s := w.Current(); s.Enabled {
		t.Fatal("user false did not apply")
	}
	write(t, sb.env.PolicyFile, `{"ml-ai.commandSafety": true}`)
	if s := w.Current(); !s.Enabled || !s.LockedOn() {
		t.Errorf("the policy written a moment ago did not apply: Enabled = %v", s.Enabled)
	}

	var l Loader
	if !l.PolicyChanged(sb.env) {
		t.Error("PolicyChanged before any read = false")
	}
	l.FromSectionsWithFiles(sb.env, nil, nil, nil)
	if err := os.Remove(sb.env.PolicyFile); err != nil {
		t.Fatal(err)
	}
	if !l.PolicyChanged(sb.env) {
		t.Error("PolicyChanged after the policy was removed = false")
	}
	if s := l.FromSectionsWithFiles(sb.env, nil, nil, nil); s.Managed != nil {
		t.Errorf("Managed = %+v after removal", s.Managed)
	}
	if l.PolicyChanged(sb.env) {
		t.Error("PolicyChanged with nothing changed = true")
	}
}
