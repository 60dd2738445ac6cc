package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// claudeCode is the Claude Code PreToolUse adapter.
//
// Format followed: https://code.claude.com/docs/en/hooks (PreToolUse input and
// "decision control"; formerly docs.anthropic.com/en/docs/claude-code/hooks).
//   - stdin: {session_id, transcript_path, cwd, permission_mode,
//     hook_event_name: "PreToolUse", tool_name, tool_input, tool_use_id};
//     the shell tool is "Bash" with tool_input {command, description, timeout,
//     run_in_background}.
//   - stdout at exit 0: {"hookSpecificOutput": {"hookEventName": "PreToolUse",
//     "permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason": "..."}}.
//     For "deny" the reason is shown to Claude, for "ask" to the user.
//   - exit 0 with no output: no decision, Claude Code's normal permission flow.
//   - exit 2: blocking error, stderr fed to Claude (stdout ignored); used here
//     only for an unknown agent name.
//   - The hook also gets $CLAUDE_PROJECT_DIR, the project root.
//
// VS Code's agent also runs the hooks of .claude/settings.json and
// ~/.claude/settings.json, for every tool and with matchers ignored, and
// sends its own payload (see [vscode]): a terminal tool of VS Code there is
// judged like Bash, never let through as "not Bash", and recorded as agent
// "vscode". The answer stays Claude Code's, which VS Code reads.
type claudeCode struct{}

func (claudeCode) parse(payload []byte, getenv func(string) string, event string) (call, error) {
	c, _, err := parseHost(payload, getenv, event)
	return c, err
}

// parsePreToolUse reads the payload of the agents that copy Claude Code's
// hooks exactly (Codex): session_id, cwd, permission_mode,
// hook_event_name, tool_name, tool_use_id and the shell tool's tool_input.
// event is the gate's event; posts are the events after a tool ran and ends
// those that end a turn or session (reports for the log). For another tool
// the call is not a shell command (c.shell false).
func parsePreToolUse(payload []byte, event string, posts, ends []string, shellTool, property string) (c call, tool string, in fields, err error) {
	f, err := readPayload(payload)
	if err != nil {
		return call{}, "", fields{}, err
	}
	c = call{session: f.str("session_id"), cwd: cleanAbs(f.str("cwd")), mode: modeFromPermission(f.str("permission_mode"))}
	c.event = f.str("hook_event_name")
	c.callID = f.str("tool_use_id")
	switch {
	case c.event == "" || c.event == event:
	case slices.Contains(posts, c.event):
		c.phase = ran
	case slices.Contains(ends, c.event):
		c.phase = ended
		return c, "", in, f.error()
	default:
		// Installed on another event: nothing to decide or report.
		c.phase = ended
		c.session = ""
		return c, "", in, f.error()
	}
	tool, _ = f.strOK("tool_name")
	if err := f.error(); err != nil {
		return c, tool, in, err
	}
	if tool == "" {
		return c, tool, in, errors.New("tool_name is missing")
	}
	if tool != shellTool {
		return c, tool, in, nil
	}
	cmd, in, err := f.shellCommand("tool_input", property)
	if err != nil {
		return c, tool, in, err
	}
	c.shell, c.command = true, cmd
	return c, tool, in, nil
}

type claudeOutput struct {
	HookSpecificOutput claudeDecision `json:"hookSpecificOutput"`
}

type claudeDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

func (claudeCode) answer(d effects.Decision, reason string) Output {
	return jsonOutput(claudeOutput{claudeDecision{
		HookEventName:            "PreToolUse",
		PermissionDecision:       agentDecision(d),
		PermissionDecisionReason: reason,
	}})
}

func (claudeCode) noOpinion() Output { return Output{} }

// shell: Claude Code runs its Bash tool in CLAUDE_CODE_SHELL when set, else
// in the user's login shell ($SHELL: zsh on macOS), anthropics/claude-code#24573.
func (claudeCode) shell(getenv func(string) string, _ string) gate.Shell {
	if s := getenv("CLAUDE_CODE_SHELL"); s != "" {
		return gate.ShellOf(s)
	}
	return loginShell(getenv)
}

// agentDecision spells a decision the way Claude Code and Cursor do.
func agentDecision(d effects.Decision) string {
	switch d {
	case effects.Allow:
		return "allow"
	case effects.Prompt:
		return "ask"
	}
	return "deny"
}

// jsonOutput encodes v as one line; <, > and & stay as they are, so the
// reason reads like the command.
func jsonOutput(v any) Output {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Unreachable with the plain structs used here; still never allow.
		return unknownAgent("command-safety could not encode its answer")
	}
	return Output{Stdout: b.Bytes()}
}

// asks is false when nobody attends the session: `claude -p` sets
// CLAUDE_CODE_SESSION_ATTENDED=0 in its hooks' environment (2.1.332, seen in
// e2e/agents), and then denies an ask itself; the log records it rejected
// rather than waiting on an answer that never comes.
func (claudeCode) asks(getenv func(string) string) bool {
	return getenv("CLAUDE_CODE_SESSION_ATTENDED") != "0"
}
