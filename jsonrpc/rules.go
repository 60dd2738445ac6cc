package jsonrpc

import (
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/policy"
	"github.com/ml-ai/command-safety/settings"
)

// PolicyOf returns the gate policy of snap: its toggle, budgets and
// compiled `ml-ai.rules` ([policy.Of], which the hook binary shares). Each
// rule the gate rejects (a name the table knows, an example that does not
// classify as the rule says) is an [settings.Error] problem in the result;
// the other rules still apply.
func PolicyOf(snap settings.Snapshot) (gate.Policy, []settings.Problem) { return policy.Of(snap) }
