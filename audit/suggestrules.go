package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// RuleSuggestion proposes one program rule (`ml-ai.rules`): humans approved
// every prompt the log holds for Program (and Subcommand), a program the
// effects table does not know, and rejected none.
type RuleSuggestion struct {
	Program    string   `json:"program"`
	Subcommand string   `json:"subcommand,omitempty"`
	Agents     []string `json:"agents"`   // who ran them, sorted
	Approved   int      `json:"approved"` // approved prompts the rule would have let run
	// Effects are the effects the rule proposes: read. The log knows that
	// humans approved these commands, not what the program does: check.
	Effects []effects.Class `json:"effects"`
	// Examples are approved commands that classify as the rule says.
	Examples []string `json:"examples"`
	// Setting is the `ml-ai.rules` entry to paste into user settings.
	Setting string `json:"setting"`
	// Add is the `command-safety rules add` command that adds it.
	Add string `json:"add"`
}

var subcommandWord = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// maxRuleExamples bounds the examples a suggested rule carries.
const maxRuleExamples = 3

// SuggestRules groups the approved prompts whose only prompting part runs
// a program the effects table does not know (opaque-medium, a bare name
// that is not an interpreter, shell or wrapper), by program and first
// operand when it looks like a subcommand, and proposes a rule teaching it
// for groups of at least minApproved prompts that no human ever rejected
// (for any agent). The proposed effects are read; each example is checked
// the way the gate checks a rule's examples, and a group with no example
// that passes is not proposed.
func (l *Log) SuggestRules(ctx context.Context, minApproved int) ([]RuleSuggestion, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	type group struct {
		n        int
		agents   map[string]bool
		commands []string
	}
	groups := map[[2]string]*group{}
	rejected := map[string]bool{}
	err := retry(ctx, func() error {
		clear(groups)
		clear(rejected)
		rows, err := l.db.QueryContext(ctx, `SELECT agent, status, command, effects, classification_enabled
			FROM verdicts WHERE status IN ('approved', 'rejected') ORDER BY id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var agent, status, command, effsJSON string
			var enabled int
			if err := rows.Scan(&agent, &status, &command, &effsJSON, &enabled); err != nil {
				return err
			}
			var effs []gate.Effect
			if err := json.Unmarshal([]byte(effsJSON), &effs); err != nil {
				return fmt.Errorf("bad effects JSON: %w", err)
			}
			var prompting []gate.Effect
			refused := false
			for _, e := range effs {
				if e.Rule != "" || e.Outcome == effects.Refuse {
					refused = true
				}
				if e.Outcome == effects.Prompt {
					prompting = append(prompting, e)
				}
			}
			if Status(status) == StatusRejected {
				for _, e := range prompting {
					rejected[e.Program] = true
				}
				continue
			}
			if enabled == 0 || refused || len(prompting) != 1 {
				continue
			}
			e := prompting[0]
			if e.Effect != effects.OpaqueMedium || e.Program == "" || effects.Lookup(e.Program) != nil ||
				!suggestible(e.Program) || !strings.Contains(e.Reason, "is not a known program") {
				continue
			}
			k := [2]string{e.Program, firstOperand(e.Program, e.Text)}
			g := groups[k]
			if g == nil {
				g = &group{agents: map[string]bool{}}
				groups[k] = g
			}
			g.n++
			g.agents[agent] = true
			if !containsString(g.commands, command) {
				g.commands = append(g.commands, command)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("decision log rule suggestions: %w", err)
	}
	var out []RuleSuggestion
	for k, g := range groups {
		if g.n < minApproved || rejected[k[0]] {
			continue
		}
		s := RuleSuggestion{Program: k[0], Subcommand: k[1], Approved: g.n, Effects: []effects.Class{effects.Read}}
		for a := range g.agents {
			s.Agents = append(s.Agents, a)
		}
		sort.Strings(s.Agents)
		for _, c := range g.commands {
			if len(s.Examples) == maxRuleExamples {
				break
			}
			if _, errs := gate.CompileRules([]gate.Rule{SuggestedRule(s.Program, s.Subcommand, s.Effects, []string{c})}); len(errs) == 0 {
				s.Examples = append(s.Examples, c)
			}
		}
		if len(s.Examples) == 0 {
			continue
		}
		s.Setting, s.Add = ruleSetting(s)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Approved != b.Approved {
			return a.Approved > b.Approved
		}
		return a.Program+" "+a.Subcommand < b.Program+" "+b.Subcommand
	})
	return out, nil
}

// SuggestedRule is the rule a suggestion (or `rules add`) describes:
// program (with subcommand when not "") has effects cs, operands read.
func SuggestedRule(program, subcommand string, cs []effects.Class, examples []string) gate.Rule {
	e := effects.Program{Name: program, Operands: effects.ReadPaths}
	if subcommand == "" {
		e.Effects, e.Examples = cs, examples
	} else {
		e.Subcommands = []effects.Program{{Name: subcommand, Effects: cs, Operands: effects.ReadPaths, Examples: examples}}
	}
	return gate.Rule{ID: "user:" + program, Entry: e}
}

// RuleJSON renders a rule for `ml-ai.rules` as settings.json holds it.
func RuleJSON(name, program, subcommand string, cs []effects.Class, examples []string) map[string]any {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.String()
	}
	if examples == nil {
		examples = []string{}
	}
	r := map[string]any{"name": name, "program": program}
	if subcommand == "" {
		r["effects"], r["examples"] = names, examples
	} else {
		r["subcommands"] = []any{map[string]any{"name": subcommand, "effects": names, "examples": examples}}
	}
	return r
}

func ruleSetting(s RuleSuggestion) (string, string) {
	b, err := json.MarshalIndent(map[string]any{"ml-ai.rules": []any{RuleJSON(s.Program, s.Program, s.Subcommand, s.Effects, s.Examples)}}, "", "  ")
	if err != nil {
		return "", ""
	}
	add := "command-safety rules add --program " + shellQuote(s.Program)
	if s.Subcommand != "" {
		add += " --subcommand " + shellQuote(s.Subcommand)
	}
	for _, c := range s.Effects {
		add += " --effect " + c.String()
	}
	for _, ex := range s.Examples {
		add += " --example " + shellQuote(ex)
	}
	return string(b), add
}

// firstOperand returns the first word after program in the part text when
// it looks like a subcommand (`get` of `kx get pods`), else "".
func firstOperand(program, text string) string {
	words := strings.Fields(text)
	for i, w := range words {
		if strings.Trim(w, `"'\`) != program {
			continue
		}
		if i+1 < len(words) && subcommandWord.MatchString(words[i+1]) {
			// Options first (`kx -n x get`): no subcommand position we trust.
			return words[i+1]
		}
		return ""
	}
	return ""
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
