// Package gate is the one place where a classification, a budget and the
// `ml-ai.commandSafety` toggle become a [Verdict] (SPEC §2, §4, §6, §7).
// serve, check and the hook adapters all call [Decide]; none re-implements it.
//
// It imports classifier, budgets and effects only.
package gate

import (
	"fmt"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/effects"
)

// ClassifierVersion names the classifier and table revision that produced a
// verdict; the decision log stores it beside every row.
const ClassifierVersion = "1"

// MaxCommandBytes is the longest command classified; a longer one is
// refused as too-large (SPEC §3 rule 10).
const MaxCommandBytes = classifier.MaxBytes

// Request is one command to decide.
type Request struct {
	ID         string   // caller's id, echoed in the verdict
	Command    string   // the exact command text
	Cwd        string   // absolute directory; "" is unknown
	Workspaces []string // absolute workspace roots
	Home       string   // the user's home directory
	Agent      string   // "copilot", "claude-code", ...; "" is "default"
	Mode       string   // "", "plan", "autopilot" or a budget name
	// Platform is the GOOS of the machine the command runs on (runtime.GOOS
	// for check, serve and the hooks): "windows" spells and matches paths as
	// Git Bash does, "darwin" matches them case-insensitively; "" and any
	// other value are Linux (classifier.PlatformOf).
	Platform string
	// RuleStore is the installation's permission-rule store: the binaries,
	// settings and hook files and the decision log (SPEC §5.6).
	RuleStore Installation
	// FS is passed to the classifier; nil is the real filesystem.
	FS classifier.FS
}

// Policy is what the user configured: the toggle and the budgets.
type Policy struct {
	// Enabled is `ml-ai.commandSafety`. false: every command prompts at best.
	Enabled bool
	Budgets budgets.Set
}

// DefaultPolicy is the gate on with the built-in budgets.
func DefaultPolicy() Policy { return Policy{Enabled: true, Budgets: budgets.Builtin()} }

// Effect is one classified part of the command, as it goes on the wire.
type Effect struct {
	Effect  effects.Class    `json:"effect"`
	Text    string           `json:"text"`
	Span    [2]int           `json:"span"`
	Program string           `json:"program,omitempty"`
	Reason  string           `json:"reason,omitempty"`
	Rule    effects.Rule     `json:"rule,omitempty"`
	Outcome effects.Decision `json:"decision"`
}

// Verdict is the result of [Decide] (SPEC §7).
type Verdict struct {
	// ID is the caller's id when it gave one, else the decision log's id.
	ID string `json:"id,omitempty"`
	// LogID is the row id in the decision log (0 when not logged); resolving a
	// prompt names it.
	LogID                 int64            `json:"logId,omitempty"`
	Time                  time.Time        `json:"time"`
	Command               string           `json:"command"`
	Cwd                   string           `json:"cwd"`
	Workspaces            []string         `json:"workspaces"`
	Agent                 string           `json:"agent"`
	Mode                  string           `json:"mode"`
	Decision              effects.Decision `json:"decision"`
	Effects               []Effect         `json:"effects"`
	DecidedBy             *Effect          `json:"decidedBy"`
	Rule                  string           `json:"rule"`
	Reason                string           `json:"reason"`
	ClassificationEnabled bool             `json:"classificationEnabled"`
	Micros                int64            `json:"micros"`
}

// Decide classifies req and decides it under policy. It never fails: every
// problem becomes a stricter decision with a reason.
func Decide(req Request, policy Policy, now func() time.Time) Verdict {
	if now == nil {
		now = time.Now
	}
	agent := req.Agent
	if agent == "" {
		agent = budgets.Default
	}
	v := Verdict{
		ID: req.ID, Command: req.Command, Cwd: req.Cwd, Workspaces: req.Workspaces,
		Agent: agent, Mode: req.Mode, ClassificationEnabled: policy.Enabled,
	}
	if v.Workspaces == nil {
		v.Workspaces = []string{}
	}
	opts := classifier.Options{
		Cwd: req.Cwd, Workspaces: req.Workspaces, Home: req.Home, FS: req.FS, Platform: classifier.PlatformOf(req.Platform),
		RuleStore: req.RuleStore.RuleStore(), Binaries: req.RuleStore.Binaries,
	}
	start := time.Now()
	res := classifier.Classify(req.Command, opts)
	v.Micros = time.Since(start).Microseconds()
	v.Time = now().UTC()

	budgetSet := policy.Budgets
	if budgetSet == nil {
		budgetSet = budgets.Builtin()
	}
	budget, modeErr := budgetSet.Effective(agent, req.Mode)

	v.Decision = effects.Allow
	decider := -1
	for i, p := range res.Parts {
		e := Effect{Effect: p.Class, Text: p.Text, Span: [2]int{p.Start, p.End}, Program: p.Program, Reason: p.Reason, Rule: p.Refusal}
		switch {
		case p.Refusal != "":
			e.Outcome = effects.Refuse
		case !policy.Enabled:
			e.Outcome = effects.Strictest(effects.Prompt, budget.Decide(p.Class))
		default:
			e.Outcome = budget.Decide(p.Class)
		}
		v.Effects = append(v.Effects, e)
		if decider < 0 || e.Outcome < v.Effects[decider].Outcome ||
			(e.Outcome == v.Effects[decider].Outcome && worse(e, v.Effects[decider])) {
			decider = i
		}
		v.Decision = effects.Strictest(v.Decision, e.Outcome)
	}
	if v.Effects == nil {
		v.Effects = []Effect{}
	}
	if decider < 0 {
		// Nothing to run: an empty or whitespace-only command is never allow.
		v.Decision = effects.Prompt
		v.Rule = "empty"
		v.Reason = "the command is empty"
		return v
	}
	d := v.Effects[decider]
	v.DecidedBy = &d
	switch {
	case d.Rule != "":
		v.Rule = string(d.Rule)
		v.Reason = d.Reason
	case !policy.Enabled && v.Decision == effects.Prompt && budget.Decide(d.Effect) == effects.Allow:
		v.Rule = "commandSafety-off"
		v.Reason = fmt.Sprintf("command safety is off (ml-ai.commandSafety: false), so every command prompts; `%s` is %s", d.Text, d.Effect)
	default:
		v.Rule = d.Effect.String()
		v.Reason = budgetReason(d, agent, req.Mode, v.Decision)
	}
	if modeErr != nil && v.Decision != effects.Refuse {
		v.Decision = effects.Strictest(v.Decision, effects.Prompt)
		v.Reason = modeErr.Error() + "; " + v.Reason
	}
	return v
}

// worse reports whether a should name the verdict over b when both have the
// same outcome: an absolute refusal beats a budget decision, then the more
// severe effect class wins; the earlier part wins ties.
func worse(a, b Effect) bool {
	if (a.Rule != "") != (b.Rule != "") {
		return a.Rule != ""
	}
	if a.Rule != "" && a.Rule != b.Rule {
		return rulePriority(a.Rule) < rulePriority(b.Rule)
	}
	return a.Effect > b.Effect
}

// rulePriority orders absolute refusals by how much the reason tells the
// human: [effects.Rules] lists them most telling first.
func rulePriority(r effects.Rule) int {
	for i, x := range effects.Rules {
		if x == r {
			return i
		}
	}
	return len(effects.Rules)
}

func budgetReason(d Effect, agent, mode string, dec effects.Decision) string {
	who := "the " + agent + " budget"
	if mode != "" {
		who += " in " + mode + " mode"
	}
	var b strings.Builder
	if d.Reason != "" {
		b.WriteString(d.Reason)
	} else {
		fmt.Fprintf(&b, "`%s` is %s", d.Text, d.Effect)
	}
	switch dec {
	case effects.Allow:
		fmt.Fprintf(&b, "; %s allows %s", who, d.Effect)
	case effects.Prompt:
		fmt.Fprintf(&b, "; %s asks a human for %s", who, d.Effect)
	case effects.Refuse:
		fmt.Fprintf(&b, "; %s refuses %s", who, d.Effect)
	}
	return b.String()
}
