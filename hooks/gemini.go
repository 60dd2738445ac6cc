package hooks

import (
	"encoding/json"
	"errors"
	"path/filepath"

	"github.com/ml-ai/command-safety/effects"
)

// geminiCLI is the Gemini CLI BeforeTool adapter for its shell tool.
//
// Format followed: https://geminicli.com/docs/hooks/reference (BeforeTool,
// exit codes) and https://geminicli.com/docs/hooks (environment variables).
//   - stdin: {session_id, transcript_path, cwd, hook_event_name: "BeforeTool",
//     timestamp, tool_name, tool_input}; the shell tool is "run_shell_command"
//     with tool_input {command, description, dir_path (older: directory)},
//     the directory relative to the project root
//     (https://geminicli.com/docs/tools/shell).
//   - stdout at exit 0: {"decision": "allow"|"deny", "reason": "..."}; the
//     reason of a deny is sent to the agent as the tool error.
//   - "ask" is not in the reference's list of decisions, but Gemini CLI's
//     HookDecision type and its scheduler accept it and then ask the user;
//     a prompt is answered with it, plus a systemMessage for the user.
//   - exit 2 blocks with stderr as the reason (used here only for an unknown
//     agent name); stdout must hold nothing but the JSON.
//   - $GEMINI_PROJECT_DIR is the project root.
type geminiCLI struct{}

type geminiInput struct {
	SessionID     string          `json:"session_id"`
	Cwd           string          `json:"cwd"`
	HookEventName string          `json:"hook_event_name"`
	ToolName      *string         `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
}

type geminiShellInput struct {
	DirPath   string `json:"dir_path"`
	Directory string `json:"directory"`
}

func (geminiCLI) parse(payload []byte, getenv func(string) string) (call, error) {
	var in geminiInput
	if err := decodeObject(payload, &in); err != nil {
		return call{}, err
	}
	session := in.SessionID
	if session == "" {
		session = getenv("GEMINI_SESSION_ID")
	}
	cwd := cleanAbs(in.Cwd)
	if cwd == "" {
		cwd = cleanAbs(getenv("GEMINI_CWD"))
	}
	c := call{session: session, cwd: cwd}
	if in.HookEventName != "" && in.HookEventName != "BeforeTool" {
		return c, nil
	}
	if in.ToolName == nil || *in.ToolName == "" {
		return c, errors.New("tool_name is missing")
	}
	if *in.ToolName != "run_shell_command" {
		return c, nil
	}
	cmd, err := shellCommand(in.ToolInput)
	if err != nil {
		return c, err
	}
	project := cleanAbs(getenv("GEMINI_PROJECT_DIR"))
	var dir geminiShellInput
	_ = json.Unmarshal(in.ToolInput, &dir) // shellCommand proved it is an object
	if d := dir.DirPath + dir.Directory; d != "" && (dir.DirPath == "" || dir.Directory == "") {
		base := project
		if base == "" {
			base = cwd
		}
		switch {
		case filepath.IsAbs(d):
			c.cwd = filepath.Clean(d)
		case base != "":
			c.cwd = filepath.Join(base, d)
		default:
			c.cwd = "" // relative to an unknown root: unknown
		}
	} else if d != "" {
		c.cwd = "" // both spellings given: ambiguous, so unknown
	}
	c.shell, c.command = true, cmd
	c.workspaces = cleanRoots(project)
	return c, nil
}

type geminiOutput struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason,omitempty"`
	SystemMessage string `json:"systemMessage,omitempty"`
}

func (geminiCLI) answer(d effects.Decision, reason string) Output {
	switch d {
	case effects.Allow:
		return jsonOutput(geminiOutput{Decision: "allow"})
	case effects.Prompt:
		return jsonOutput(geminiOutput{Decision: "ask", Reason: reason, SystemMessage: "command-safety: " + reason})
	}
	return jsonOutput(geminiOutput{Decision: "deny", Reason: reason})
}

// noOpinion is an empty JSON object: stdout must be JSON, and it decides nothing.
func (geminiCLI) noOpinion() Output { return Output{Stdout: []byte("{}\n")} }
