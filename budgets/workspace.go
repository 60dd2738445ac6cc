package budgets

import (
	"fmt"
	"sort"

	"github.com/ml-ai/command-safety/effects"
)

// WithWorkspace returns s tightened by a workspace's `ml-ai.agentBudgets`
// (SPEC §6: a workspace can only tighten). Each entry applies only where its
// decision is stricter than the agent's budget in s (the agent's own budget,
// else [Default]); an entry that is as strict is a no-op, and an entry that is
// looser, or names an unknown effect or decision, is ignored with a warning.
// Warnings are sorted by agent, then effect. An agent not in s appears in the
// result only when at least one of its entries tightened [Default]. s itself
// is not modified.
func (s Set) WithWorkspace(ws map[string]map[string]string) (Set, []string) {
	out := make(Set, len(s)+len(ws))
	for k, v := range s {
		out[k] = v
	}
	var warnings []string
	for _, agent := range sortedKeys(ws) {
		base, ok := s[agent]
		if !ok {
			base = s[Default]
		}
		b := base.Clone()
		changed := false
		entries := ws[agent]
		for _, effect := range sortedKeys(entries) {
			value := entries[effect]
			c, err := effects.ParseClass(effect)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("workspace ml-ai.agentBudgets[%q][%q] ignored: %v", agent, effect, err))
				continue
			}
			d, err := effects.ParseDecision(value)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("workspace ml-ai.agentBudgets[%q][%q] ignored: %v", agent, effect, err))
				continue
			}
			cur := b.Decide(c)
			switch {
			case d < cur: // stricter: Refuse < Prompt < Allow
				b[c] = d
				changed = true
			case d > cur:
				warnings = append(warnings, fmt.Sprintf("workspace ml-ai.agentBudgets[%q][%q] = %q ignored: looser than the user's %q (a workspace can only tighten)", agent, effect, value, cur))
			}
		}
		if changed {
			out[agent] = b
		}
	}
	return out, warnings
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
