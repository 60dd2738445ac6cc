package gate

import (
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// TestAfterNeverLoosens: of the changes after Decide, none turns a refusal
// into anything else, none turns a prompt into an allow except an approved
// release, and each says why.
func TestAfterNeverLoosens(t *testing.T) {
	for _, d := range []effects.Decision{effects.Allow, effects.Prompt, effects.Refuse} {
		v := Verdict{Decision: d, Rule: "network", Reason: "`curl x` reaches the network"}
		for name, got := range map[string]Verdict{
			"unrecorded":     Unrecorded(v, "the decision log is unavailable"),
			"at most prompt": AtMostPrompt(v, "host-tool", "VS Code's terminal keeps its directory"),
			"released":       Released(v, true, "approved by ada"),
			"not released":   Released(v, false, "rejected by bob"),
		} {
			switch {
			case d == effects.Refuse && got.Decision != effects.Refuse:
				t.Errorf("%s of a refusal: %s", name, got.Decision)
			case d == effects.Prompt && got.Decision == effects.Allow && name != "released":
				t.Errorf("%s of a prompt: allow", name)
			case d == effects.Allow && got.Decision == effects.Allow && (name == "unrecorded" || name == "at most prompt"):
				t.Errorf("%s of an allow: still allow", name)
			case d == effects.Allow && strings.HasSuffix(name, "released") && got.Decision != effects.Allow:
				t.Errorf("%s of an allow changed it: a release only answers prompts", name)
			}
			if got.Decision != d && !strings.Contains(got.Reason, v.Reason) {
				t.Errorf("%s: reason %q lost the original %q", name, got.Reason, v.Reason)
			}
		}
	}
	if got := Released(Verdict{Decision: effects.Prompt, Reason: "r"}, true, "approved by ada"); got.Decision != effects.Allow || got.Reason != "approved by ada: r" {
		t.Errorf("an approved release: %+v", got)
	}
	if got := Rejected(Verdict{Command: "x"}, RuleBadRequest, "line 3: not JSON"); got.Decision != effects.Refuse || got.Rule != RuleBadRequest || got.Effects == nil || got.Workspaces == nil {
		t.Errorf("Rejected: %+v", got)
	}
}
