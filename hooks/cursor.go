package hooks

import (
	"errors"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// cursor is the Cursor beforeShellExecution adapter.
//
// Format followed: https://cursor.com/docs/agent/hooks (beforeShellExecution).
//   - stdin: {hook_event_name: "beforeShellExecution", conversation_id,
//     generation_id, workspace_roots: [...], command, cwd, ...}.
//   - stdout at exit 0: {"permission": "allow"|"deny"|"ask",
//     "user_message": "...", "agent_message": "..."}. The page first spelled
//     the messages userMessage/agentMessage (Cursor 1.7); current versions
//     read user_message/agent_message. Both spellings are written so either
//     build shows the reason.
//   - exit 2 blocks the action (used here only for an unknown agent name).
//   - $CURSOR_PROJECT_DIR, when the agent sets it, is a workspace root too.
type cursor struct{}

func (cursor) parse(payload []byte, getenv func(string) string, _ string) (call, error) {
	f, err := readPayload(payload)
	if err != nil {
		return call{}, err
	}
	c := call{session: f.str("conversation_id"), cwd: cleanAbs(f.str("cwd"))}
	c.event = f.str("hook_event_name")
	roots := f.strs("workspace_roots")
	cmd := f.str("command")
	if err := f.error(); err != nil {
		return c, err
	}
	switch c.event {
	case "", "beforeShellExecution":
	case "afterShellExecution": // the command ran: a report for the log
		c.phase = ran
	case "stop": // the agent loop ended
		c.phase = ended
		return c, nil
	default:
		c.phase, c.session = ended, "" // another event: nothing to report
		return c, nil
	}
	if cmd == "" {
		return c, errors.New("command is missing")
	}
	c.shell, c.command = true, cmd
	c.workspaces = cleanRoots(append(roots, getenv("CURSOR_PROJECT_DIR"))...)
	return c, nil
}

type cursorOutput struct {
	Permission      string `json:"permission"`
	UserMessage     string `json:"user_message,omitempty"`
	AgentMessage    string `json:"agent_message,omitempty"`
	UserMessageOld  string `json:"userMessage,omitempty"`
	AgentMessageOld string `json:"agentMessage,omitempty"`
}

func (cursor) answer(d effects.Decision, reason string) Output {
	out := cursorOutput{Permission: agentDecision(d)}
	if d != effects.Allow {
		out.UserMessage, out.AgentMessage = reason, reason
		out.UserMessageOld, out.AgentMessageOld = reason, reason
	}
	return jsonOutput(out)
}

// noOpinion answers an event other than beforeShellExecution: an empty
// object sets no permission.
func (cursor) noOpinion() Output { return Output{Stdout: []byte("{}\n")} }

// shell: Cursor runs commands in the terminal's shell, the user's login
// shell ($SHELL) unless a terminal profile says otherwise, which the hook
// cannot see: $SHELL, or unknown.
func (cursor) shell(getenv func(string) string, _ string) gate.Shell { return loginShell(getenv) }

func (cursor) asks(func(string) string) bool { return true }
