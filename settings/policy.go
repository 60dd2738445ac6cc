package settings

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/effects"
)

// PolicyFile returns the managed policy's path (SPEC §6, issue 18): the file
// an administrator installs, readable by all and writable only by them, at
// the platform's system location:
//
//	linux etc.: /etc/ml-ai/policy.json
//	darwin:     /Library/Application Support/ml-ai/policy.json
//	windows:    %ProgramData%\ml-ai\policy.json (the known folder, not the variable)
//
// [Env.PolicyFile], which only tests set, replaces it. No environment
// variable moves it: a user who could point it elsewhere could drop it.
func PolicyFile(env Env) string {
	if env.PolicyFile != "" {
		return env.PolicyFile
	}
	goos := env.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	switch goos {
	case "windows":
		return programData() + `\ml-ai\policy.json`
	case "darwin":
		return "/Library/Application Support/ml-ai/policy.json"
	}
	return "/etc/ml-ai/policy.json"
}

// Managed is the managed policy in force, when one is installed.
//
// The policy uses the settings.json keys `ml-ai.commandSafety`,
// `ml-ai.agentBudgets` and `ml-ai.telemetry`, plus `ml-ai.refuse`, which
// only a policy can set ([PolicyKeys]). User and workspace settings can
// only tighten it:
//   - `ml-ai.commandSafety: true` locks the toggle on: a user's or a
//     workspace's false is ignored with a warning (false there turns it off
//     for everyone);
//   - its `ml-ai.agentBudgets` are the budgets the agents it names start
//     from, and the loosest they may have: a user's entry for such an agent
//     applies only where stricter, a looser one is ignored with a warning.
//     When it names `default`, that holds for every agent and mode;
//   - `ml-ai.refuse` lists effects refused for every agent and mode;
//   - its `ml-ai.telemetry`, when set, is the only export configuration.
//
// The policy fails closed. Any error in it (syntax, an unknown key, a bad
// value, a file that cannot be read or is not a regular file) invalidates
// the whole file, since dropping one bad line would drop a restriction the
// administrator meant: a process that read a good version before keeps
// that one (a running `serve`); one that did not ([Managed.Invalid] set)
// decides as if `ml-ai.commandSafety` were false, so every command prompts,
// and says why in every verdict ([Snapshot.PolicyNote]).
type Managed struct {
	// File is the policy's path.
	File string
	// Invalid says why the policy is not in force, when it has errors and no
	// good version was read before; every command then prompts.
	Invalid string
	// Enabled is the policy's `ml-ai.commandSafety`, nil when unset.
	Enabled *bool
	// Refuse is the policy's `ml-ai.refuse`.
	Refuse []effects.Class

	// unmanaged is what the settings would be without the policy, to tell
	// when the policy decided.
	unmanagedBudgets budgets.Set
	unmanagedEnabled bool
}

// PolicyNote returns what a verdict's reason gains when the managed policy
// decided it, or "": a verdict for agent in mode that rule (a budget effect,
// or "commandSafety-off") decided as decision. It starts with "; ".
func (s Snapshot) PolicyNote(agent, mode, rule string, decision effects.Decision) string {
	m := s.Managed
	if m == nil {
		return ""
	}
	c, classErr := effects.ParseClass(rule)
	budgetRule := classErr == nil && c != effects.Unknown
	if m.Invalid != "" {
		if budgetRule || rule == "commandSafety-off" {
			return "; " + m.Invalid
		}
		return ""
	}
	switch {
	case budgetRule && decision == effects.Refuse && containsClass(m.Refuse, c):
		return fmt.Sprintf("; the managed policy (%s) refuses %s for every agent", m.File, c)
	case budgetRule:
		if m.unmanagedBudgets != nil {
			if u, err := m.unmanagedBudgets.Effective(agent, mode); err == nil && u.Decide(c) > decision {
				return fmt.Sprintf("; the managed policy (%s) limits %s to %s for this agent", m.File, c, decision)
			}
		}
		if decision == effects.Allow && m.Enabled != nil && *m.Enabled && !m.unmanagedEnabled {
			return fmt.Sprintf("; %s.%s is locked on by the managed policy (%s)", Section, KeyCommandSafety, m.File)
		}
	case rule == "commandSafety-off" && m.Enabled != nil && !*m.Enabled && m.unmanagedEnabled:
		return fmt.Sprintf("; the managed policy (%s) sets %s.%s to false", m.File, Section, KeyCommandSafety)
	}
	return ""
}

// LockedOn reports whether the managed policy locks `ml-ai.commandSafety`
// on, so that nothing may turn it off (not even `check --safety=false`).
func (s Snapshot) LockedOn() bool {
	return s.Managed != nil && s.Managed.Invalid == "" && s.Managed.Enabled != nil && *s.Managed.Enabled
}

func containsClass(list []effects.Class, c effects.Class) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// invalidPolicy is the reason every command prompts under a policy that
// has errors and no earlier good version.
func invalidPolicy(file, why string) string {
	return fmt.Sprintf("the managed policy %s is invalid (%s) and no earlier version of it was read, so every command prompts until an administrator fixes it", file, why)
}

// applyPolicyBudgets starts the budgets from the policy's: the agents it
// names begin from its entries (over the built-ins). It returns the set and
// whether an agent's budget is capped by the policy (it names the agent, or
// it names default).
func applyPolicyBudgets(set budgets.Set, pol map[string]map[string]string) (budgets.Set, func(agent string) bool) {
	if len(pol) == 0 {
		return set, func(string) bool { return false }
	}
	set, _ = set.WithUser(pol) // entries validated when read
	all := pol[budgets.Default] != nil
	return set, func(agent string) bool { return all || pol[agent] != nil }
}

// looserThan lists the entries of agent's budget in src that are looser than
// set's budget for agent: "effect" = "decision" (looser than "limit").
func looserThan(set budgets.Set, agent string, entries map[string]string) []string {
	b, ok := set[agent]
	if !ok {
		b = set[budgets.Default]
	}
	var out []string
	for _, effect := range sortedKeys(entries) {
		c, err1 := effects.ParseClass(effect)
		d, err2 := effects.ParseDecision(entries[effect])
		if err1 != nil || err2 != nil {
			continue // validated when read
		}
		if d > b.Decide(c) {
			out = append(out, fmt.Sprintf("[%q][%q] = %q ignored: looser than the managed policy's %q", agent, effect, entries[effect], b.Decide(c)))
		}
	}
	return out
}

// refuseEverywhere returns set with every class of refuse refused in every
// budget.
func refuseEverywhere(set budgets.Set, refuse []effects.Class) budgets.Set {
	if len(refuse) == 0 {
		return set
	}
	out := make(budgets.Set, len(set))
	for name, b := range set {
		b = b.Clone()
		for _, c := range refuse {
			b[c] = effects.Refuse
		}
		out[name] = b
	}
	return out
}

// policyErrors joins a policy's problems into one reason.
func policyErrors(problems []Problem) string {
	var msgs []string
	for _, p := range problems {
		if p.Severity != Error {
			continue
		}
		m := p.Message
		if p.Line > 0 {
			m = fmt.Sprintf("%d:%d: %s", p.Line, p.Col, m)
		}
		msgs = append(msgs, m)
	}
	return strings.Join(msgs, "; ")
}
