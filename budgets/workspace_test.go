package budgets

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ml-ai/command-safety/effects"
)

func TestWithWorkspace(t *testing.T) {
	user, err := Builtin().WithUser(map[string]map[string]string{
		"claude-code": {"network": "allow", "irreversible-deletion": "refuse"},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		ws       map[string]map[string]string
		check    []check
		warnings []string // prefixes, in order
		agents   []string // agents expected in the result beyond the user's
	}{
		{name: "nil changes nothing", check: []check{{"claude-code", "", effects.Network, effects.Allow}}},
		{name: "stricter applies",
			ws: map[string]map[string]string{"claude-code": {"network": "prompt"}, "default": {"read": "prompt", "network": "refuse"}},
			check: []check{
				{"claude-code", "", effects.Network, effects.Prompt},
				{"claude-code", "", effects.Deletion, effects.Refuse}, // user's other entries kept
				{"default", "", effects.Read, effects.Prompt},
				{"default", "", effects.Network, effects.Refuse},
				{"default", "", effects.Verify, effects.Allow},
				{"other", "", effects.Network, effects.Refuse}, // unnamed agents use default
			}},
		{name: "looser ignored with a warning",
			ws: map[string]map[string]string{"claude-code": {"irreversible-deletion": "allow"}, "plan": {"write-inside-workspace": "allow", "network": "prompt"}, "default": {"network": "allow"}},
			check: []check{
				{"claude-code", "", effects.Deletion, effects.Refuse},
				{"plan", "", effects.WriteInside, effects.Refuse},
				{"plan", "", effects.Network, effects.Refuse},
				{"default", "", effects.Network, effects.Prompt},
			},
			warnings: []string{
				`workspace ml-ai.agentBudgets["claude-code"]["irreversible-deletion"] = "allow" ignored: looser than the user's "refuse"`,
				`workspace ml-ai.agentBudgets["default"]["network"] = "allow" ignored: looser than the user's "prompt"`,
				`workspace ml-ai.agentBudgets["plan"]["network"] = "prompt" ignored: looser than the user's "refuse"`,
				`workspace ml-ai.agentBudgets["plan"]["write-inside-workspace"] = "allow" ignored: looser than the user's "refuse"`,
			}},
		{name: "equal is silent", ws: map[string]map[string]string{"claude-code": {"network": "allow"}, "default": {"read": "allow"}, "new": {"read": "allow"}}},
		{name: "new agent tightens default",
			ws:     map[string]map[string]string{"new": {"network": "refuse", "read": "allow"}},
			check:  []check{{"new", "", effects.Network, effects.Refuse}, {"new", "", effects.Deletion, effects.Prompt}, {"default", "", effects.Network, effects.Prompt}},
			agents: []string{"new"}},
		{name: "new agent cannot loosen default",
			ws:       map[string]map[string]string{"new": {"network": "allow"}},
			check:    []check{{"new", "", effects.Network, effects.Prompt}},
			warnings: []string{`workspace ml-ai.agentBudgets["new"]["network"] = "allow" ignored: looser than the user's "prompt"`}},
		{name: "bad entries warn, good ones apply",
			ws:    map[string]map[string]string{"default": {"network": "refuse", "networ": "refuse", "read": "deny"}},
			check: []check{{"default", "", effects.Network, effects.Refuse}, {"default", "", effects.Read, effects.Allow}},
			warnings: []string{
				`workspace ml-ai.agentBudgets["default"]["networ"] ignored: unknown effect "networ"`,
				`workspace ml-ai.agentBudgets["default"]["read"] ignored: unknown decision "deny"`,
			}},
		{name: "a workspace cannot create an allowing mode",
			ws: map[string]map[string]string{"yolo": {"network": "allow", "irreversible-deletion": "allow"}},
			warnings: []string{
				`workspace ml-ai.agentBudgets["yolo"]["irreversible-deletion"] = "allow" ignored`,
				`workspace ml-ai.agentBudgets["yolo"]["network"] = "allow" ignored`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := user["claude-code"].Clone()
			got, warnings := user.WithWorkspace(tt.ws)
			for _, c := range tt.check {
				c.run(t, got)
			}
			ok := len(warnings) == len(tt.warnings)
			for i := 0; ok && i < len(warnings); i++ {
				ok = strings.HasPrefix(warnings[i], tt.warnings[i])
			}
			if !ok {
				t.Errorf("warnings:\n got %q\nwant prefixes %q", warnings, tt.warnings)
			}
			var extra []string
			for a := range got {
				if _, ok := user[a]; !ok {
					extra = append(extra, a)
				}
			}
			if diff := cmp.Diff(tt.agents, extra); diff != "" {
				t.Errorf("agents added (-want +got):\n%s", diff)
			}
			// Never looser than the user's, anywhere.
			for a := range got {
				for _, c := range effects.Classes {
					ub, _ := user.Effective(a, "")
					gb, _ := got.Effective(a, "")
					if gb.Decide(c) > ub.Decide(c) {
						t.Errorf("%s %s: %s looser than user's %s", a, c, gb.Decide(c), ub.Decide(c))
					}
				}
			}
			if diff := cmp.Diff(before, user["claude-code"]); diff != "" {
				t.Errorf("WithWorkspace modified its receiver:\n%s", diff)
			}
		})
	}
}
