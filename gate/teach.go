package gate

import (
	"regexp"
	"strings"

	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/effects"
)

// Teachable is what an "Allow `PROGRAM SUBCOMMAND` from now on" offer would
// teach as a user rule (`command-safety rules add`): the one program a
// prompted verdict did not know.
type Teachable struct {
	Program    string `json:"program"`
	Subcommand string `json:"subcommand,omitempty"`
	// Example is the deciding part's text, the rule's example.
	Example string `json:"example"`
}

var teachWord = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// Teach returns what a rule could teach so that v's command would not
// prompt again, or nil. It is offered only when v prompted and
// classification was on, no part is under an absolute refusal, and the one
// prompting part runs a program the effects table does not know (a bare
// name a rule may teach: never an interpreter, shell or wrapper, never a
// path), in a part whose text starts with the program, and the rule it
// describes (effects read, the part as its example) passes the rule check.
func Teach(v Verdict) *Teachable {
	if v.Decision != effects.Prompt || !v.ClassificationEnabled || v.DecidedBy == nil {
		return nil
	}
	var prompting []Effect
	for _, e := range v.Effects {
		if e.Rule != "" || e.Outcome == effects.Refuse {
			return nil
		}
		if e.Outcome == effects.Prompt {
			prompting = append(prompting, e)
		}
	}
	if len(prompting) != 1 {
		return nil
	}
	d := prompting[0]
	if d.Effect != effects.OpaqueMedium || d.UserRule != "" || d.Program == "" || effects.Lookup(d.Program) != nil ||
		classifier.CheckRuleName(d.Program) != nil {
		return nil
	}
	words := strings.Fields(d.Text)
	if len(words) == 0 || words[0] != d.Program {
		return nil
	}
	t := &Teachable{Program: d.Program, Example: d.Text}
	if len(words) > 1 && teachWord.MatchString(words[1]) {
		t.Subcommand = words[1]
	}
	// The rule must pass its own check: the example classifies as read.
	sub := t.Subcommand
	e := effects.Program{Name: t.Program, Operands: effects.ReadPaths}
	if sub == "" {
		e.Effects, e.Examples = []effects.Class{effects.Read}, []string{t.Example}
	} else {
		e.Subcommands = []effects.Program{{Name: sub, Effects: []effects.Class{effects.Read}, Operands: effects.ReadPaths, Examples: []string{t.Example}}}
	}
	if _, errs := CompileRules([]Rule{{ID: "user:" + t.Program, Entry: e}}); len(errs) > 0 {
		return nil
	}
	return t
}
