// Package budgets maps effect classes to decisions per agent and mode (SPEC §4).
//
// It imports effects only. Budgets are values: [Builtin] gives the built-in
// set, [Set.WithUser] merges the user's `ml-ai.agentBudgets` over it, and
// [Set.Effective] combines an agent's budget with a mode's, effect by effect,
// taking the strictest.
package budgets

import (
	"errors"
	"fmt"
	"sort"

	"github.com/ml-ai/command-safety/effects"
)

// The built-in budget names. Agents not named in a [Set] use [Default].
const (
	Default   = "default"
	Plan      = "plan"
	Autopilot = "autopilot"
)

// Budget maps each effect class to a decision. A class it does not name is
// refused: the zero [effects.Decision] is the strictest.
type Budget map[effects.Class]effects.Decision

// Decide returns the decision for class c. [effects.Unknown] is always refused.
func (b Budget) Decide(c effects.Class) effects.Decision {
	if c == effects.Unknown {
		return effects.Refuse
	}
	return b[c] // missing: zero value, Refuse
}

// Clone returns a copy of b.
func (b Budget) Clone() Budget {
	c := make(Budget, len(b))
	for k, v := range b {
		c[k] = v
	}
	return c
}

// Stricter returns, effect by effect, the strictest of b and o.
func (b Budget) Stricter(o Budget) Budget {
	c := make(Budget, len(effects.Classes))
	for _, k := range effects.Classes {
		c[k] = effects.Strictest(b.Decide(k), o.Decide(k))
	}
	return c
}

// Set is a collection of named budgets: the built-ins and the user's.
type Set map[string]Budget

func uniform(low, rest effects.Decision) Budget {
	b := Budget{}
	for _, c := range effects.Classes {
		b[c] = rest
	}
	b[effects.Read] = effects.Allow
	b[effects.Verify] = effects.Allow
	b[effects.WriteInside] = low
	b[effects.OpaqueLow] = low
	return b
}

// Builtin returns the built-in budgets of SPEC §4.
func Builtin() Set {
	return Set{
		Default:   uniform(effects.Prompt, effects.Prompt),
		Plan:      uniform(effects.Refuse, effects.Refuse),
		Autopilot: uniform(effects.Allow, effects.Prompt),
	}
}

// UserError is one bad entry of a user budget object.
type UserError struct {
	Agent, Effect, Value string
	Err                  error
}

func (e *UserError) Error() string {
	if e.Effect == "" {
		return fmt.Sprintf("ml-ai.agentBudgets[%q]: %v", e.Agent, e.Err)
	}
	return fmt.Sprintf("ml-ai.agentBudgets[%q][%q]: %v", e.Agent, e.Effect, e.Err)
}

func (e *UserError) Unwrap() error { return e.Err }

// WithUser returns s with the user's budgets merged in: each agent's entries
// override the agent's existing budget (a built-in of that name, else
// [Default]). An agent whose entry names an unknown effect or decision keeps
// its previous budget whole, and the error says which entry was bad; the
// other agents still apply.
func (s Set) WithUser(user map[string]map[string]string) (Set, error) {
	out := make(Set, len(s)+len(user))
	for k, v := range s {
		out[k] = v
	}
	var errs []error
	agents := make([]string, 0, len(user))
	for a := range user {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, agent := range agents {
		base, ok := s[agent]
		if !ok {
			base = s[Default]
		}
		b := base.Clone()
		bad := false
		for effect, value := range user[agent] {
			c, err := effects.ParseClass(effect)
			if err != nil {
				errs = append(errs, &UserError{agent, effect, value, err})
				bad = true
				continue
			}
			d, err := effects.ParseDecision(value)
			if err != nil {
				errs = append(errs, &UserError{agent, effect, value, err})
				bad = true
				continue
			}
			b[c] = d
		}
		if !bad {
			out[agent] = b
		}
	}
	return out, errors.Join(errs...)
}

// Effective returns the budget for agent under mode: the agent's budget (or
// [Default]) made stricter, effect by effect, by the mode's budget. An empty
// mode adds nothing. A mode that names no budget is an error, and the
// returned budget then prompts at best for everything (fail closed).
func (s Set) Effective(agent, mode string) (Budget, error) {
	b, ok := s[agent]
	if !ok {
		b = s[Default]
	}
	if mode == "" {
		return b, nil
	}
	m, ok := s[mode]
	if !ok {
		return b.Stricter(uniform(effects.Prompt, effects.Prompt)), fmt.Errorf("unknown mode %q (want plan, autopilot or a budget name from ml-ai.agentBudgets)", mode)
	}
	return b.Stricter(m), nil
}
