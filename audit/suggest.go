package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// Suggestion proposes one `ml-ai.agentBudgets` change: humans approved every
// prompt of Effect for Agent (in Mode) that the log holds and rejected none,
// so allowing it would have let Approved prompts run unattended.
type Suggestion struct {
	Agent    string         `json:"agent"`
	Mode     string         `json:"mode,omitempty"`
	Effect   effects.Class  `json:"effect"`
	Approved int            `json:"approved"` // approved prompts the change would have let run
	Programs []ProgramCount `json:"programs"` // what those prompts ran, most frequent first
	// Setting is the user settings.json entry to paste (budgets are user
	// settings only; a workspace cannot loosen).
	Setting string `json:"setting"`
	// Caveat says what else the change lets run.
	Caveat string `json:"caveat"`
}

// ProgramCount is one program (and subcommand) among the approved prompts of
// a [Suggestion].
type ProgramCount struct {
	Program    string `json:"program"`              // "" for a redirection
	Subcommand string `json:"subcommand,omitempty"` // "push" of `git push`, when the table knows it
	Count      int    `json:"count"`
	Example    string `json:"example"` // one approved command
}

// neverSuggested are the effects no suggestion ever allows: opaque execution
// (nothing inspected it) and privilege escalation (an absolute refusal).
var neverSuggested = map[effects.Class]bool{
	effects.Unknown: true, effects.OpaqueLow: true, effects.OpaqueMedium: true,
	effects.OpaqueHigh: true, effects.Privilege: true,
}

// Suggest groups the prompts humans approved by agent, mode and effect (and,
// inside a group, by program and subcommand) and proposes the budget entry
// that would have let each group run, for groups of at least minApproved
// prompts, largest first. It never proposes:
//   - opaque effects, privilege escalation or unknown effects;
//   - a prompt whose command had a part under an absolute refusal, or whose
//     prompting part runs an interpreter or a wrapper (a shell, python, env,
//     xargs, ssh, timeout, ...) or a program named by path;
//   - a prompt held by more than one effect (no single entry would free it),
//     or by the `ml-ai.commandSafety: false` toggle;
//   - an agent's (or mode's) effect that a human ever rejected.
func (l *Log) Suggest(ctx context.Context, minApproved int) ([]Suggestion, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	type key struct {
		agent, mode string
		effect      effects.Class
	}
	type group struct {
		n        int
		programs map[[2]string]*ProgramCount
	}
	type reject struct {
		who    string
		effect effects.Class
	}
	groups := map[key]*group{}
	rejectedAgent := map[reject]bool{}
	rejectedMode := map[reject]bool{}

	err := retry(ctx, func() error {
		clear(groups)
		clear(rejectedAgent)
		clear(rejectedMode)
		rows, err := l.db.QueryContext(ctx, `SELECT agent, mode, status, command, effects, classification_enabled
			FROM verdicts AS v WHERE v.status IN ('approved', 'rejected') AND `+promptRows)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var agent, mode, status, command, effsJSON string
			var enabled int
			if err := rows.Scan(&agent, &mode, &status, &command, &effsJSON, &enabled); err != nil {
				return err
			}
			var effs []gate.Effect
			if err := json.Unmarshal([]byte(effsJSON), &effs); err != nil {
				return fmt.Errorf("bad effects JSON: %w", err)
			}
			var prompting []gate.Effect
			classes := map[effects.Class]bool{}
			refused := false
			for _, e := range effs {
				if e.Rule != "" || e.Outcome == effects.Refuse {
					refused = true
				}
				if e.Outcome == effects.Prompt {
					prompting = append(prompting, e)
					classes[e.Effect] = true
				}
			}
			if Status(status) == StatusRejected {
				for c := range classes {
					rejectedAgent[reject{agent, c}] = true
					if mode != "" {
						rejectedMode[reject{mode, c}] = true
					}
				}
				continue
			}
			if enabled == 0 || refused || len(classes) != 1 {
				continue
			}
			c := prompting[0].Effect
			if neverSuggested[c] {
				continue
			}
			trusted := true
			for _, e := range prompting {
				if !suggestible(e.Program) {
					trusted = false
				}
			}
			if !trusted {
				continue
			}
			k := key{agent, mode, c}
			g := groups[k]
			if g == nil {
				g = &group{programs: map[[2]string]*ProgramCount{}}
				groups[k] = g
			}
			g.n++
			seen := map[[2]string]bool{}
			for _, e := range prompting {
				pk := [2]string{e.Program, subcommand(e.Program, e.Text)}
				if seen[pk] {
					continue
				}
				seen[pk] = true
				pc := g.programs[pk]
				if pc == nil {
					pc = &ProgramCount{Program: pk[0], Subcommand: pk[1], Example: command}
					g.programs[pk] = pc
				}
				pc.Count++
			}
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("decision log suggestions: %w", err)
	}

	var out []Suggestion
	for k, g := range groups {
		if g.n < minApproved || rejectedAgent[reject{k.agent, k.effect}] ||
			(k.mode != "" && rejectedMode[reject{k.mode, k.effect}]) {
			continue
		}
		s := Suggestion{Agent: k.agent, Mode: k.mode, Effect: k.effect, Approved: g.n}
		for _, pc := range g.programs {
			s.Programs = append(s.Programs, *pc)
		}
		sort.Slice(s.Programs, func(i, j int) bool {
			a, b := s.Programs[i], s.Programs[j]
			if a.Count != b.Count {
				return a.Count > b.Count
			}
			return a.Program+" "+a.Subcommand < b.Program+" "+b.Subcommand
		})
		s.Setting, s.Caveat = setting(k.agent, k.mode, k.effect)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Approved != b.Approved {
			return a.Approved > b.Approved
		}
		if a.Agent != b.Agent {
			return a.Agent < b.Agent
		}
		if a.Mode != b.Mode {
			return a.Mode < b.Mode
		}
		return a.Effect < b.Effect
	})
	return out, nil
}

// setting returns the settings.json entry allowing effect for agent (and for
// mode, whose budget also applies) and what else it lets run.
func setting(agent, mode string, effect effects.Class) (string, string) {
	entry := map[string]map[string]string{agent: {effect.String(): effects.Allow.String()}}
	caveat := fmt.Sprintf("this allows every %s command for %s without a prompt, not only the programs listed", effect, agent)
	if mode != "" && mode != agent {
		entry[mode] = map[string]string{effect.String(): effects.Allow.String()}
		caveat += fmt.Sprintf("; the %s entry applies to every agent in %s mode", mode, mode)
	}
	b, err := json.MarshalIndent(map[string]any{"ml-ai.agentBudgets": entry}, "", "  ")
	if err != nil { // maps of strings always marshal
		return "", caveat
	}
	return string(b), caveat
}

// suggestible reports whether a prompt for program may be proposed for
// trust: not a program named by path, not an interpreter, not a wrapper that
// runs another command. "" (a redirection) is suggestible.
func suggestible(program string) bool {
	if program == "" {
		return true
	}
	if strings.ContainsAny(program, `/\`) {
		return false
	}
	if runsOtherCode[program] {
		return false
	}
	p := effects.Lookup(program)
	if p == nil {
		// The classifier gives a program it does not know an opaque effect,
		// which is never suggested; a part with another effect was known.
		return true
	}
	switch p.Operands {
	case effects.Command, effects.Script:
		return false
	}
	switch p.Special {
	case effects.SpecialShell, effects.SpecialInterpreter, effects.SpecialEnv, effects.SpecialXargs,
		effects.SpecialEval, effects.SpecialWatch, effects.SpecialFlock,
		effects.SpecialScript, effects.SpecialSubmodule, effects.SpecialSSH, effects.SpecialKubectlExec:
		return false
	}
	return true
}

// runsOtherCode backs up the table: programs that run code or commands they
// are given, never suggested whatever the table says about them.
var runsOtherCode = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "csh": true, "tcsh": true,
	"python": true, "python3": true, "python2": true, "node": true, "deno": true, "bun": true, "perl": true,
	"ruby": true, "php": true, "lua": true, "osascript": true, "pwsh": true, "powershell": true,
	"awk": true, "gawk": true, "mawk": true, "eval": true, "source": true, ".": true, "exec": true,
	"env": true, "xargs": true, "parallel": true, "timeout": true, "nice": true, "nohup": true,
	"sudo": true, "doas": true, "su": true, "ssh": true, "watch": true, "flock": true, "script": true,
	"npx": true, "command": true, "builtin": true, "time": true, "stdbuf": true, "setsid": true,
}

// subcommand returns the subcommand of program that the part text runs, when
// the table knows it: "push" for `git -C x push origin`.
func subcommand(program, text string) string {
	p := effects.Lookup(program)
	if p == nil || len(p.Subcommands) == 0 {
		return ""
	}
	words := strings.Fields(text)
	i := 0
	for ; i < len(words); i++ {
		if path.Base(strings.Trim(words[i], `"'\`)) == program {
			break
		}
	}
	operands := 0
	for _, w := range words[min(i+1, len(words)):] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		if s := p.Sub(strings.Trim(w, `"'`)); s != nil {
			return s.Name
		}
		if operands++; operands == 3 {
			break
		}
	}
	return ""
}
