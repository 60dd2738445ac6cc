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
	// Shell is the shell that will run the command (SPEC §1); the zero
	// value, unknown, classifies it as bash and as zsh, the worse winning.
	Shell Shell
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

// Shell is the shell dialect a command is classified in (SPEC §1):
// [classifier.Dialect], named here so that the callers of the gate (serve,
// check, the hooks) need not import the classifier. Its JSON is the wire
// spelling: "bash", "zsh", "sh" or "unknown".
type Shell = classifier.Dialect

// The shells.
const (
	ShellUnknown = classifier.UnknownDialect
	ShellBash    = classifier.Bash
	ShellZsh     = classifier.Zsh
	ShellSh      = classifier.Sh
)

// ParseShell returns the shell named s: "bash", "zsh", "sh" (also "dash"),
// or "unknown"; "" is unknown.
func ParseShell(s string) (Shell, error) { return classifier.ParseDialect(s) }

// ShellOf returns the dialect of the shell at path (`/bin/zsh`,
// `/usr/local/bin/bash`), or unknown for one that is none of them (fish, a
// path that says nothing).
func ShellOf(path string) Shell {
	name := path[strings.LastIndexByte(path, '/')+1:]
	if name == "" || name == "unknown" {
		return ShellUnknown
	}
	d, err := classifier.ParseDialect(strings.TrimPrefix(name, "-")) // "-zsh" is a login zsh
	if err != nil {
		return ShellUnknown
	}
	return d
}

// RuleUnknownShell is the rule of a verdict that prompts because one of the
// shells that may run the command cannot read it (SPEC §1): the command is
// classified as the others read it, and never allowed.
const RuleUnknownShell = "unknown-shell"

// Policy is what the user configured: the toggle and the budgets.
type Policy struct {
	// Enabled is `ml-ai.commandSafety`. false: every command prompts at best.
	Enabled bool
	Budgets budgets.Set
	// Rules are the user's program rules (`ml-ai.rules`), checked by
	// [CompileRules]; nil has none.
	Rules *classifier.Rules
}

// DefaultPolicy is the gate on with the built-in budgets.
func DefaultPolicy() Policy { return Policy{Enabled: true, Budgets: budgets.Builtin()} }

// Effect is one classified part of the command, as it goes on the wire.
type Effect struct {
	Effect  effects.Class `json:"effect"`
	Text    string        `json:"text"`
	Span    [2]int        `json:"span"`
	Program string        `json:"program,omitempty"`
	Reason  string        `json:"reason,omitempty"`
	Rule    effects.Rule  `json:"rule,omitempty"`
	// UserRule is the user rule that taught the part's program
	// ("user:acme-lint"), or "" for the effects table's own entries.
	UserRule string           `json:"userRule,omitempty"`
	Outcome  effects.Decision `json:"decision"`
}

// Verdict is the result of [Decide] (SPEC §7).
type Verdict struct {
	// ID is the caller's id when it gave one, else the decision log's id.
	ID string `json:"id,omitempty"`
	// LogID is the row id in the decision log (0 when not logged); resolving a
	// prompt names it.
	LogID      int64     `json:"logId,omitempty"`
	Time       time.Time `json:"time"`
	Command    string    `json:"command"`
	Cwd        string    `json:"cwd"`
	Workspaces []string  `json:"workspaces"`
	Agent      string    `json:"agent"`
	Mode       string    `json:"mode"`
	// Shell is the dialect the command was classified in: bash, zsh, sh,
	// or unknown (as bash and as zsh, the worse winning).
	Shell                 Shell            `json:"shell"`
	Decision              effects.Decision `json:"decision"`
	Effects               []Effect         `json:"effects"`
	DecidedBy             *Effect          `json:"decidedBy"`
	Rule                  string           `json:"rule"`
	Reason                string           `json:"reason"`
	ClassificationEnabled bool             `json:"classificationEnabled"`
	Micros                int64            `json:"micros"`
	// Teach is what an "Allow from now on" offer would teach as a user
	// rule ([Teach]), for a prompt only; nil otherwise.
	Teach *Teachable `json:"teach,omitempty"`
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
		Agent: agent, Mode: req.Mode, Shell: req.Shell, ClassificationEnabled: policy.Enabled,
	}
	if v.Workspaces == nil {
		v.Workspaces = []string{}
	}
	opts := classifier.Options{
		Cwd: req.Cwd, Workspaces: req.Workspaces, Home: req.Home, FS: req.FS, Platform: classifier.PlatformOf(req.Platform),
		RuleStore: req.RuleStore.RuleStore(), Binaries: req.RuleStore.Binaries,
		Rules: policy.Rules, Shell: req.Shell,
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
		e := Effect{Effect: p.Class, Text: p.Text, Span: [2]int{p.Start, p.End}, Program: p.Program, Reason: p.Reason, Rule: p.Refusal, UserRule: p.Rule}
		switch {
		case p.Refusal != "":
			e.Outcome = effects.Refuse
		case p.Prompt:
			e.Outcome = effects.Prompt // a shell that may run it cannot read it
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
	case res.Parts[decider].Prompt:
		v.Rule = RuleUnknownShell
		v.Reason = d.Reason
	case !policy.Enabled && v.Decision == effects.Prompt && budget.Decide(d.Effect) == effects.Allow:
		v.Rule = "commandSafety-off"
		v.Reason = fmt.Sprintf("command safety is off (ml-ai.commandSafety: false), so every command prompts; `%s` is %s", d.Text, d.Effect)
	case d.UserRule != "" && policy.Enabled:
		// A user rule taught the program that decided: the verdict names
		// the rule; the budget of its effect decided.
		v.Rule = d.UserRule
		v.Reason = budgetReason(d, agent, req.Mode, v.Decision) + " (program taught by rule " + d.UserRule + ")"
	default:
		v.Rule = d.Effect.String()
		v.Reason = budgetReason(d, agent, req.Mode, v.Decision)
	}
	if modeErr != nil && v.Decision != effects.Refuse {
		v.Decision = effects.Strictest(v.Decision, effects.Prompt)
		v.Reason = modeErr.Error() + "; " + v.Reason
	} else {
		v.Teach = Teach(v)
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
