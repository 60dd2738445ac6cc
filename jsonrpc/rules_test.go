package jsonrpc

import (
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/settings"
)

// Rules from client sections: the user's teach, a workspace's only add
// effects, and a rejected rule is a problem while the others apply.
func TestPolicyOfClientRules(t *testing.T) {
	user := map[string]any{"rules": []any{
		map[string]any{"program": "kx", "effects": []any{"read"}, "examples": []any{"kx a"}},
		map[string]any{"program": "sudo", "effects": []any{"read"}},
	}}
	ws := map[string]any{"rules": []any{
		map[string]any{"program": "kx", "effects": []any{"system-change"}},
		map[string]any{"program": "zork", "effects": []any{"read"}, "flags": []any{map[string]any{"names": []any{"-q"}}}},
	}}
	snap := settings.FromSections(user, []map[string]any{ws})
	policy, probs := PolicyOf(snap)
	if len(probs) != 2 || !strings.Contains(probs[0].Message, "user:sudo") || !strings.Contains(probs[1].Message, "only add effects") {
		t.Fatalf("problems %v", probs)
	}
	decide := func(cmd string, p gate.Policy) gate.Verdict {
		return gate.Decide(gate.Request{Command: cmd, Cwd: "/ws", Workspaces: []string{"/ws"}, Home: "/home/u"}, p, nil)
	}
	if v := decide("kx a", policy); v.Decision != effects.Prompt || v.Rule != "user:kx+workspace:kx" {
		t.Errorf("kx with the workspace's system-change: %s %s", v.Decision, v.Rule)
	}
	userOnly, _ := PolicyOf(settings.FromSections(user, nil))
	if v := decide("kx a", userOnly); v.Decision != effects.Allow || v.Rule != "user:kx" {
		t.Errorf("kx with the user rule: %s %s", v.Decision, v.Rule)
	}
}
