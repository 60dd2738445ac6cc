package hooks

import (
	"path/filepath"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// codex is the Codex CLI PreToolUse adapter.
//
// Format followed: https://developers.openai.com/codex/hooks and what Codex
// CLI 0.171.0 does when driven offline (../shared/notes/agents.md).
//   - stdin: Claude Code's PreToolUse layout: {session_id, turn_id,
//     transcript_path, cwd, hook_event_name: "PreToolUse", model,
//     permission_mode, tool_name: "Bash", tool_input: {command}, tool_use_id}.
//     Codex runs the command with `/bin/bash -lc` in cwd (or tool_input.workdir
//     when the model names one). There is no project-dir variable.
//   - stdout: hookSpecificOutput.permissionDecision "deny" with
//     permissionDecisionReason blocks the tool and shows the reason to the
//     model ("Command blocked by PreToolUse hook: <reason>").
//   - **"ask" and "allow" are unsupported**: Codex marks the hook failed and
//     runs the tool. So an allow answers nothing (exit 0, empty stdout: no
//     opinion, Codex's own approval policy applies), and a prompt is a deny
//     with the reason (Codex cannot ask through a hook) unless the hook runs
//     in hold mode, where a human releases it first (SPEC §8, §10).
type codex struct{}

func (codex) parse(payload []byte, _ func(string) string, _ string) (call, error) {
	c, _, in, err := parsePreToolUse(payload, "PreToolUse", []string{"PostToolUse"}, []string{"Stop"}, "Bash", "command")
	if err != nil || !c.shell {
		return c, err
	}
	wd, hasWorkdir := in.strOK("workdir")
	if err := in.error(); err != nil {
		return c, err
	}
	switch {
	case !hasWorkdir || wd == "":
	case filepath.IsAbs(wd):
		c.cwd = filepath.Clean(wd)
	case c.cwd != "":
		c.cwd = filepath.Join(c.cwd, wd)
	default:
		c.cwd = "" // relative to an unknown directory: unknown
	}
	return c, nil
}

func (codex) answer(d effects.Decision, reason string) Output {
	switch d {
	case effects.Allow:
		return Output{}
	case effects.Prompt:
		reason = "command-safety asks a human to approve this command, and Codex hooks cannot ask, so it is denied (install the hook with --hold to wait for a release instead): " + reason
	}
	return claudeCode{}.answer(effects.Refuse, reason)
}

func (codex) noOpinion() Output { return Output{} }

// shell: Codex wraps every command in `/bin/zsh -lc` on macOS and in
// `/bin/bash -lc` on Linux.
func (codex) shell(_ func(string) string, goos string) gate.Shell {
	if goos == "darwin" {
		return gate.ShellZsh
	}
	return gate.ShellBash
}

func (codex) asks(func(string) string) bool { return false }
