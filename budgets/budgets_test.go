package budgets

import (
	"errors"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// spec is SPEC §4's table: per budget, the decision for each effect.
func spec(low, rest effects.Decision) map[effects.Class]effects.Decision {
	m := map[effects.Class]effects.Decision{}
	for _, c := range effects.Classes {
		m[c] = rest
	}
	m[effects.Read], m[effects.Verify] = effects.Allow, effects.Allow
	m[effects.WriteInside], m[effects.OpaqueLow] = low, low
	return m
}

func TestBuiltinMatchesSpec(t *testing.T) {
	// SPEC §4: read, verify allow everywhere; write-inside-workspace and
	// opaque-low prompt/refuse/allow; everything else prompt/refuse/prompt.
	want := map[string]map[effects.Class]effects.Decision{
		Default:   spec(effects.Prompt, effects.Prompt),
		Plan:      spec(effects.Refuse, effects.Refuse),
		Autopilot: spec(effects.Allow, effects.Prompt),
	}
	// Spelled out for the "everything else" row, so a wrong helper cannot hide it.
	rest := []effects.Class{effects.WriteOutside, effects.Network, effects.Deletion, effects.HistoryRewrite,
		effects.SystemChange, effects.Privilege, effects.OpaqueMedium, effects.OpaqueHigh}
	if len(rest)+4 != len(effects.Classes) {
		t.Fatalf("effects.Classes has %d classes; update this test", len(effects.Classes))
	}
	got := Builtin()
	if len(got) != len(want) {
		t.Errorf("Builtin has %d budgets, want %d", len(got), len(want))
	}
	for name, w := range want {
		b, ok := got[name]
		if !ok {
			t.Errorf("Builtin lacks %q", name)
			continue
		}
		for _, c := range effects.Classes {
			t.Run(name+"/"+c.String(), func(t *testing.T) {
				if b.Decide(c) != w[c] {
					t.Errorf("Builtin()[%q].Decide(%s) = %s, want %s", name, c, b.Decide(c), w[c])
				}
			})
		}
		wantRest := map[string]effects.Decision{Default: effects.Prompt, Plan: effects.Refuse, Autopilot: effects.Prompt}[name]
		for _, c := range rest {
			if b.Decide(c) != wantRest {
				t.Errorf("Builtin()[%q].Decide(%s) = %s, want %s (SPEC §4 \"everything else\")", name, c, b.Decide(c), wantRest)
			}
		}
		if d := b.Decide(effects.Unknown); d != effects.Refuse {
			t.Errorf("%s Unknown = %s, want refuse", name, d)
		}
	}
	// Builtin returns fresh values.
	got[Default][effects.Network] = effects.Allow
	if Builtin()[Default][effects.Network] != effects.Prompt {
		t.Error("Builtin shares its maps between calls")
	}
}

func TestWithUser(t *testing.T) {
	tests := []struct {
		name  string
		user  map[string]map[string]string
		check []check
		errs  []string // substrings, one per wrapped error
	}{
		{name: "empty", check: []check{{"default", "", effects.Network, effects.Prompt}}},
		{name: "new agent merges over default",
			user: map[string]map[string]string{"claude-code": {"network": "refuse", "write-inside-workspace": "allow"}},
			check: []check{
				{"claude-code", "", effects.Network, effects.Refuse},
				{"claude-code", "", effects.WriteInside, effects.Allow},
				{"claude-code", "", effects.Deletion, effects.Prompt}, // from default
				{"claude-code", "", effects.Read, effects.Allow},
				{"default", "", effects.Network, effects.Prompt}, // default untouched
			}},
		{name: "built-in name merges over that built-in",
			user:  map[string]map[string]string{"plan": {"write-inside-workspace": "prompt"}},
			check: []check{{"plan", "", effects.WriteInside, effects.Prompt}, {"plan", "", effects.Network, effects.Refuse}}},
		{name: "override default changes unnamed agents",
			user:  map[string]map[string]string{"default": {"read": "prompt"}},
			check: []check{{"nobody", "", effects.Read, effects.Prompt}}},
		{name: "unknown effect keeps the previous budget whole",
			user: map[string]map[string]string{"autopilot": {"network": "allow", "netwrk": "allow"}, "x": {"read": "refuse"}},
			check: []check{
				{"autopilot", "", effects.Network, effects.Prompt}, // good entry not applied either
				{"x", "", effects.Read, effects.Refuse},            // other agents still apply
			},
			errs: []string{`ml-ai.agentBudgets["autopilot"]["netwrk"]: unknown effect "netwrk"`}},
		{name: "unknown decision keeps the previous budget",
			user:  map[string]map[string]string{"cursor": {"network": "yes"}},
			check: []check{{"cursor", "", effects.Network, effects.Prompt}},
			errs:  []string{`ml-ai.agentBudgets["cursor"]["network"]: unknown decision "yes"`}},
		{name: "several bad agents all reported",
			user: map[string]map[string]string{"a": {"x": "allow"}, "b": {"read": "Allow"}},
			errs: []string{`["a"]["x"]`, `["b"]["read"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := Builtin()
			got, err := base.WithUser(tt.user)
			for _, c := range tt.check {
				c.run(t, got)
			}
			if len(tt.errs) == 0 && err != nil {
				t.Errorf("WithUser error = %v, want nil", err)
			}
			for _, want := range tt.errs {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("WithUser error = %v, want it to contain %q", err, want)
				}
			}
			if len(tt.errs) > 0 {
				var ue *UserError
				if !errors.As(err, &ue) || ue.Err == nil {
					t.Errorf("WithUser error %v is not a *UserError with a cause", err)
				}
			}
			if diff := base[Default][effects.Network]; diff != effects.Prompt || base[Plan][effects.WriteInside] != effects.Refuse {
				t.Error("WithUser modified its receiver")
			}
		})
	}
}

// check is one expected decision of Set.Effective(agent, mode).Decide(class).
type check struct {
	agent, mode string
	class       effects.Class
	want        effects.Decision
}

func (c check) run(t *testing.T, s Set) {
	t.Helper()
	b, err := s.Effective(c.agent, c.mode)
	if err != nil {
		t.Errorf("Effective(%q, %q): %v", c.agent, c.mode, err)
		return
	}
	if got := b.Decide(c.class); got != c.want {
		t.Errorf("Effective(%q, %q).Decide(%s) = %s, want %s", c.agent, c.mode, c.class, got, c.want)
	}
}

func TestEffective(t *testing.T) {
	s, err := Builtin().WithUser(map[string]map[string]string{
		"loose":  {"network": "allow", "irreversible-deletion": "allow"},
		"strict": {"read": "prompt", "network": "refuse"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []check{
		{"", "", effects.Read, effects.Allow},
		{"unknown-agent", "", effects.Network, effects.Prompt},
		{"default", "plan", effects.WriteInside, effects.Refuse},
		{"default", "plan", effects.Verify, effects.Allow},
		{"default", "autopilot", effects.WriteInside, effects.Prompt}, // agent stricter than mode
		{"autopilot", "", effects.WriteInside, effects.Allow},
		{"loose", "", effects.Network, effects.Allow},
		{"loose", "plan", effects.Network, effects.Refuse},      // mode tightens
		{"loose", "autopilot", effects.Network, effects.Prompt}, // mode tightens
		{"loose", "strict", effects.Network, effects.Refuse},    // a user budget as mode
		{"loose", "strict", effects.Read, effects.Prompt},
		{"strict", "autopilot", effects.Read, effects.Prompt}, // mode never loosens
		{"plan", "autopilot", effects.WriteInside, effects.Refuse},
	}
	for _, c := range tests {
		t.Run(c.agent+"/"+c.mode+"/"+c.class.String(), func(t *testing.T) { c.run(t, s) })
	}
}

func TestEffectiveUnknownModeFailsClosed(t *testing.T) {
	s, _ := Builtin().WithUser(map[string]map[string]string{"loose": {"network": "allow", "read": "allow"}})
	for _, agent := range []string{"", "autopilot", "loose"} {
		b, err := s.Effective(agent, "yolo")
		if err == nil || !strings.Contains(err.Error(), `unknown mode "yolo"`) {
			t.Errorf("Effective(%q, yolo) error = %v, want unknown mode", agent, err)
		}
		for _, c := range effects.Classes {
			got := b.Decide(c)
			if c == effects.Read || c == effects.Verify {
				if got == effects.Allow && agent != "" && s[agent].Decide(c) != effects.Allow {
					t.Errorf("Effective(%q, yolo).Decide(%s) = allow, looser than the agent", agent, c)
				}
				continue
			}
			if got == effects.Allow {
				t.Errorf("Effective(%q, yolo).Decide(%s) = allow, want prompt at best", agent, c)
			}
		}
	}
}
