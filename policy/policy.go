// Package policy turns loaded settings into the gate's policy: the toggle,
// the budgets and the compiled user rules. serve, check and both hook
// binaries take their policy from [Of], so they agree on it. It must not
// import SQLite (package audit), jsonrpc or telemetry: cmd/command-safety-hook
// links it.
package policy

import (
	"fmt"
	"sync"

	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/settings"
)

// Of returns the policy snap gives. Rules that do not compile (a rule names an
// effect class nobody knows, an example that does not classify as the rule
// says) are [settings.Error] problems in the result; the other rules still
// apply. Compiled rules are cached while the rules stay the same.
func Of(snap settings.Snapshot) (gate.Policy, []settings.Problem) {
	p := gate.Policy{Enabled: snap.Enabled, Budgets: snap.Budgets}
	if len(snap.Rules) == 0 {
		return p, nil
	}
	key := fmt.Sprintf("%#v", snap.Rules)
	rulesCache.Lock()
	defer rulesCache.Unlock()
	if rulesCache.key != key {
		rs := make([]gate.Rule, len(snap.Rules))
		for i, r := range snap.Rules {
			rs[i] = gate.Rule{ID: r.ID(), Workspace: r.Workspace, Entry: r.Entry}
		}
		compiled, errs := gate.CompileRules(rs)
		var probs []settings.Problem
		for _, e := range errs {
			r := snap.Rules[e.Index]
			probs = append(probs, settings.Problem{Severity: settings.Error, File: r.File, Line: r.Line, Col: r.Col,
				Message: fmt.Sprintf("%s.%s: %v; rule ignored", settings.Section, settings.KeyRules, e)})
		}
		rulesCache.key, rulesCache.policy, rulesCache.probs = key, compiled, probs
	}
	p.Rules = rulesCache.policy
	return p, rulesCache.probs
}

var rulesCache struct {
	sync.Mutex
	key    string
	policy *gate.Rules
	probs  []settings.Problem
}
