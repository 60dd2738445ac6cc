package hooks

import (
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// vscode is the adapter for VS Code's agent hooks (Preview): how Copilot's
// own terminal tool goes through the gate. copilotCLI is the one for GitHub
// Copilot CLI's preToolUse hook. Both hosts read the same hook files
// (.github/hooks/*.json, ~/.copilot/hooks/*.json), so one entry runs in
// either; the two adapters are one parser ([parseHost]) and one answer, and
// the payload says which host asked (the verdict's agent).
//
// VS Code, sources followed (microsoft/vscode-copilot-chat, 2026):
//   - stdin: src/extension/chat/vscode-node/chatHookService.ts, executeHook
//     and executePreToolUseHook: {timestamp (ISO), hookEventName:
//     "PreToolUse", sessionId, transcript_path, cwd (the entry's cwd, else
//     the workspace folder), tool_name (the model's tool call name), tool_input,
//     tool_use_id}. The terminal tools and their inputs: see [hostTools].
//   - stdout: hookSpecificOutput.permissionDecision "allow" | "ask" | "deny"
//     with permissionDecisionReason; several hooks: deny > ask > allow. An
//     unknown decision is ignored; an empty stdout decides nothing.
//   - exit 2 denies with stderr; any other non-zero exit, a spawn failure
//     and a timeout (the entry's timeout, seconds, default 30) are only a
//     warning: the tool runs (src/platform/chat/node/hookExecutor.ts). So
//     the entry's limit must outlast every run, holds included.
//   - The hook's environment has every VSCODE_*, GITHUB_* and COPILOT_*
//     variable removed; it runs with shell: true in the entry's cwd.
//   - VS Code also runs .claude/settings.json hooks for every tool, matchers
//     ignored: the claude-code adapter reads these payloads too.
//
// Copilot CLI (@github/copilot 1.0.102, run offline against a scripted
// model server; docs.github.com/en/copilot/reference/hooks-reference):
//   - stdin for preToolUse: {sessionId, timestamp, cwd, toolName: "bash",
//     toolArgs: {command, description, ...}}; for a PascalCase PreToolUse
//     entry Claude Code's snake_case layout with tool_name "Bash". Env:
//     COPILOT_CLI=1, COPILOT_PROJECT_DIR and CLAUDE_PROJECT_DIR (the project).
//   - stdout: top-level {"permissionDecision", "permissionDecisionReason"}
//     for preToolUse (a hookSpecificOutput alone is ignored there). deny
//     blocks ("Denied by preToolUse hook: <reason>" to the model); allow
//     runs without Copilot's own prompt; ask prompts, and in -p or autopilot
//     is denied ("unable to ask user for confirmation"). Non-JSON stdout
//     decides nothing.
//   - exit 2 and any other non-zero exit deny; a timeout (timeoutSec,
//     seconds) lets the tool run.
//
// The answer carries the decision in both places, top level and
// hookSpecificOutput, so it reads the same in either host.
type vscode struct{}

// copilotCLI is the GitHub Copilot CLI adapter; see [vscode].
type copilotCLI struct{}

func (vscode) parse(payload []byte, getenv func(string) string, event string) (call, error) {
	c, _, err := parseHost(payload, getenv, event)
	return c, err
}

func (copilotCLI) parse(payload []byte, getenv func(string) string, event string) (call, error) {
	c, _, err := parseHost(payload, getenv, event)
	return c, err
}

type copilotOutput struct {
	PermissionDecision       string         `json:"permissionDecision"`
	PermissionDecisionReason string         `json:"permissionDecisionReason"`
	HookSpecificOutput       claudeDecision `json:"hookSpecificOutput"`
}

func copilotAnswer(d effects.Decision, reason string) Output {
	return jsonOutput(copilotOutput{
		PermissionDecision:       agentDecision(d),
		PermissionDecisionReason: reason,
		HookSpecificOutput: claudeDecision{
			HookEventName:            "PreToolUse",
			PermissionDecision:       agentDecision(d),
			PermissionDecisionReason: reason,
		},
	})
}

func (vscode) answer(d effects.Decision, reason string) Output     { return copilotAnswer(d, reason) }
func (copilotCLI) answer(d effects.Decision, reason string) Output { return copilotAnswer(d, reason) }

// noOpinion is an empty stdout: both hosts read it as no decision.
func (vscode) noOpinion() Output     { return Output{} }
func (copilotCLI) noOpinion() Output { return Output{} }

// shell: VS Code's agent terminal and the Copilot CLI run commands in the
// user's shell, $SHELL unless a terminal profile (which the hook cannot
// see) names another: $SHELL, or unknown. (The language-model tool of the
// extension runs `bash -c` and says bash itself.)
func (vscode) shell(getenv func(string) string, _ string) gate.Shell     { return loginShell(getenv) }
func (copilotCLI) shell(getenv func(string) string, _ string) gate.Shell { return loginShell(getenv) }

// asks: VS Code shows its own confirmation for an ask.
func (vscode) asks(func(string) string) bool { return true }

// asks: Copilot CLI asks its user interactively (in -p it denies an ask
// itself; nothing in its hook environment tells the two apart).
func (copilotCLI) asks(func(string) string) bool { return true }
