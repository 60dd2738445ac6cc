package gate

import (
	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/effects"
)

// Rule is one program rule of `ml-ai.rules`: see [classifier.Rule].
type Rule = classifier.Rule

// Rules are compiled rules: see [classifier.Rules].
type Rules = classifier.Rules

// RuleError is a rejected rule: see [classifier.RuleError].
type RuleError = classifier.RuleError

// CompileRules checks rules (their names, shapes and examples) and returns
// the accepted ones for [Policy.Rules]; each rejected rule has an error and
// the rest still apply. See [classifier.NewRules] for what a rule may do.
func CompileRules(rules []Rule) (*Rules, []RuleError) {
	if len(rules) == 0 {
		return nil, nil
	}
	return classifier.NewRules(rules)
}

// RuleProgram is a convenience for tests and tools: a user rule teaching
// name with effects cs, operands read.
func RuleProgram(id, name string, cs ...effects.Class) Rule {
	return Rule{ID: id, Entry: effects.Program{Name: name, Effects: cs, Operands: effects.ReadPaths}}
}
