package hooks

import (
	"errors"
	"path/filepath"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
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

func (geminiCLI) parse(payload []byte, getenv func(string) string, _ string) (call, error) {
	f, err := readPayload(payload)
	if err != nil {
		return call{}, err
	}
	session := f.str("session_id")
	if session == "" {
		session = getenv("GEMINI_SESSION_ID")
	}
	cwd := cleanAbs(f.str("cwd"))
	if cwd == "" {
		cwd = cleanAbs(getenv("GEMINI_CWD"))
	}
	c := call{session: session, cwd: cwd}
	c.event = f.str("hook_event_name")
	tool := f.str("tool_name")
	if err := f.error(); err != nil {
		return c, err
	}
	switch c.event {
	case "", "BeforeTool":
	case "AfterTool": // the tool ran: a report for the log
		c.phase = ran
	case "AfterAgent", "SessionEnd": // the turn or session ended
		c.phase = ended
		return c, nil
	default:
		c.phase, c.session = ended, "" // another event: nothing to report
		return c, nil
	}
	if tool == "" {
		return c, errors.New("tool_name is missing")
	}
	if tool != "run_shell_command" {
		return c, nil
	}
	cmd, in, err := f.shellCommand("tool_input", "command")
	if err != nil {
		return c, err
	}
	dirPath, hasDirPath := in.strOK("dir_path")
	directory, hasDirectory := in.strOK("directory")
	if err := in.error(); err != nil {
		return c, err
	}
	project := cleanAbs(getenv("GEMINI_PROJECT_DIR"))
	switch d := dirPath + directory; {
	case hasDirPath && hasDirectory:
		c.cwd = "" // both spellings given: ambiguous, so unknown
	case d == "":
		// The project root, or the payload's cwd.
	case filepath.IsAbs(d):
		c.cwd = filepath.Clean(d)
	case project != "":
		c.cwd = filepath.Join(project, d)
	case cwd != "":
		c.cwd = filepath.Join(cwd, d)
	default:
		c.cwd = "" // relative to an unknown root: unknown
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

// shell: Gemini CLI's run_shell_command runs `bash -c` on Linux and macOS.
func (geminiCLI) shell(func(string) string, string) gate.Shell { return gate.ShellBash }

func (geminiCLI) asks(func(string) string) bool { return true }
