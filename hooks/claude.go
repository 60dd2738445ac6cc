package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ml-ai/command-safety/effects"
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
type claudeCode struct{}

type claudeInput struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	PermissionMode string          `json:"permission_mode"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       *string         `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
}

type shellToolInput struct {
	Command *string `json:"command"`
}

func (claudeCode) parse(payload []byte, getenv func(string) string) (call, error) {
	var in claudeInput
	if err := decodeObject(payload, &in); err != nil {
		return call{}, err
	}
	c := call{session: in.SessionID, cwd: cleanAbs(in.Cwd), mode: modeFromPermission(in.PermissionMode)}
	if in.HookEventName != "" && in.HookEventName != "PreToolUse" {
		// Installed on another event: this adapter only gates PreToolUse.
		return c, nil
	}
	if in.ToolName == nil || *in.ToolName == "" {
		return c, errors.New("tool_name is missing")
	}
	if *in.ToolName != "Bash" {
		return c, nil
	}
	cmd, err := shellCommand(in.ToolInput)
	if err != nil {
		return c, err
	}
	c.shell, c.command = true, cmd
	c.workspaces = cleanRoots(getenv("CLAUDE_PROJECT_DIR"))
	return c, nil
}

// shellCommand extracts tool_input.command, which must be a non-empty string.
func shellCommand(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", errors.New("tool_input is missing")
	}
	var ti shellToolInput
	if err := json.Unmarshal(raw, &ti); err != nil {
		return "", fmt.Errorf("tool_input is not an object with a string command: %w", err)
	}
	if ti.Command == nil || *ti.Command == "" {
		return "", errors.New("tool_input.command is missing")
	}
	return *ti.Command, nil
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
