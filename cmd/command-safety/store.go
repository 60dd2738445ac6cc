package main

import (
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hookrun"
)

// installation is [hookrun.Installation]: this installation's
// permission-rule store with the decision logs in use. check, serve and
// both hooks take the store from there, so that they agree on it (issue 12
// point 8).
func installation(logs ...string) gate.Installation { return hookrun.Installation(logs...) }
