package hooks

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ml-ai/command-safety/strictjson"
)

// The pre-tool payloads of the hosts that share Claude Code's hook protocol,
// told apart by their keys (a payload that mixes them is malformed):
//
//   - VS Code's agent (GitHub Copilot Chat): {timestamp, hookEventName:
//     "PreToolUse", sessionId, transcript_path, cwd, tool_name, tool_input,
//     tool_use_id}, tool names and inputs VS Code's own (run_in_terminal
//     with {command, explanation, isBackground}). microsoft/vscode-copilot-chat
//     src/extension/chat/vscode-node/chatHookService.ts (executeHook: the
//     common input; executePreToolUseHook: tool_name, tool_input,
//     tool_use_id, called with the model's tool call name).
//   - Copilot CLI, camelCase event preToolUse: {sessionId, timestamp (ms),
//     cwd, toolName, toolArgs}; toolArgs an object (1.0.102, seen), or a
//     JSON string of one (docs.github.com/en/copilot/reference/hooks-reference
//     examples); shell tool "bash" {command, description, shellId, mode, ...}.
//   - Claude Code, and Copilot CLI for a PascalCase event PreToolUse:
//     {session_id, hook_event_name, cwd, tool_name, tool_input, ...};
//     Copilot CLI then names its shell tool "Bash" like Claude Code.
type flavor int

const (
	flavorClaude  flavor = iota // hook_event_name, session_id, tool_name, tool_input
	flavorVSCode                // hookEventName, sessionId, tool_name, tool_input
	flavorCopilot               // sessionId, toolName, toolArgs
)

// hostTool says how the gate judges one tool of these hosts.
type hostTool struct {
	// property holds the command line in the tool's input; "" when the tool
	// runs something that has no command line here (unjudged).
	property string
	// terminal: the command runs in a persistent terminal that starts in
	// the workspace and whose directory a previous command may have changed
	// (VS Code's terminal tools): it is judged in the workspace root, and
	// only reads and verification run unattended.
	terminal bool
	// limit, when not "", says why the gate allows at most a prompt: the
	// text is classified, but the classification cannot be the whole story.
	limit string
	// unjudged describes a call without a command line: it always prompts.
	unjudged func(in fields) (command, reason string)
}

const (
	whyPowerShell = "command-safety does not classify PowerShell (it reads the command as bash, SPEC §1), so a human must approve it"
	whyInput      = "the text goes to a program already running in a terminal, which command-safety cannot see, so a human must approve it"
	whyTaskArgs   = "VS Code quotes a task's arguments and runs a process task without a shell itself, so a human must approve it"
	whyTerminal   = "VS Code's terminal keeps its working directory from one command to the next, so this was judged as if it ran in the workspace root, and anything beyond reading and verifying needs a human"
)

// hostTools lists every tool of VS Code's agent and of Copilot CLI that runs
// a command; any other tool gets no opinion. A terminal tool must never be
// mistaken for another, so both hosts' names are judged in every flavor.
//
// VS Code: microsoft/vscode src/vs/workbench/contrib/terminalContrib/
// chatAgentTools/browser/tools/ (toolIds.ts, runInTerminalTool.ts,
// sendToTerminalTool.ts, task/createAndRunTaskTool.ts, task/runTaskTool.ts);
// microsoft/vscode-copilot-chat src/extension/tools/common/toolNames.ts
// (run_notebook_cell, the copilot_* names). Copilot CLI 1.0.102: its tool
// list sent to the model (bash, read_bash, stop_bash, list_bash, ...).
var hostTools = map[string]hostTool{
	// VS Code's terminal tools.
	"run_in_terminal":          {property: "command", terminal: true},
	"send_to_terminal":         {property: "command", terminal: true, limit: whyInput},
	"create_and_run_task":      {property: "task", terminal: true},
	"copilot_createAndRunTask": {property: "task", terminal: true},
	"run_task": {unjudged: func(in fields) (string, string) {
		id := in.str("id")
		return "run_task " + id, fmt.Sprintf("VS Code runs the task %q from tasks.json, which command-safety does not read, so a human must approve it", printable(id, 200))
	}},
	"run_notebook_cell":       {unjudged: notebookCell},
	"copilot_runNotebookCell": {unjudged: notebookCell},
	// Copilot CLI's shell tools, and the Claude Code names its PascalCase
	// events use.
	"bash":             {property: "command"},
	"Bash":             {property: "command"},
	"powershell":       {property: "command", limit: whyPowerShell},
	"PowerShell":       {property: "command", limit: whyPowerShell},
	"write_bash":       {property: "input", limit: whyInput},
	"write_powershell": {property: "input", limit: whyInput},
}

func notebookCell(in fields) (string, string) {
	cell := in.str("cellId")
	return "run_notebook_cell " + in.str("filePath") + " " + cell,
		"the agent runs a notebook cell's code in its kernel, which command-safety does not classify, so a human must approve it"
}

// parseHost reads the pre-tool payload of Claude Code, VS Code's agent or
// Copilot CLI (see [flavor]). It judges the tools in [hostTools]: c.agent
// names the host the payload comes from ("vscode", "copilot-cli"), or is ""
// for a Claude Code payload, which keeps the hook's own name.
//
// hint is the event the hook was installed for (`--event`, which install
// writes for Copilot CLI: its camelCase events send no event name). A
// payload that names another event is malformed.
func parseHost(payload []byte, getenv func(string) string, hint string) (c call, fl flavor, err error) {
	f, err := readPayload(payload)
	if err != nil {
		return call{}, 0, err
	}
	pick := func(a, b string) (string, string, error) {
		_, hasA := f.obj.Get(a)
		_, hasB := f.obj.Get(b)
		switch {
		case hasA && hasB:
			return "", "", fmt.Errorf("the payload has both %s and %s", a, b)
		case hasB:
			return b, f.str(b), nil
		}
		return a, f.str(a), nil
	}
	_, camelEvent := f.obj.Get("hookEventName")
	_, camelTool := f.obj.Get("toolName")
	_, camelArgs := f.obj.Get("toolArgs")
	switch {
	case camelTool || camelArgs:
		fl = flavorCopilot
	case camelEvent:
		fl = flavorVSCode
	}
	_, session, err1 := pick("session_id", "sessionId")
	_, event, err2 := pick("hook_event_name", "hookEventName")
	toolKey, tool, err3 := pick("tool_name", "toolName")
	inKey := "tool_input"
	if fl == flavorCopilot {
		inKey = "toolArgs"
		if _, both := f.obj.Get("tool_input"); both {
			err3 = errors.New("the payload has both tool_input and toolArgs")
		}
	}
	c = call{session: session, cwd: cleanAbs(f.str("cwd"))}
	if fl == flavorClaude {
		c.mode = modeFromPermission(f.str("permission_mode"))
	}
	switch fl {
	case flavorVSCode:
		c.agent = "vscode"
	case flavorCopilot:
		c.agent = "copilot-cli"
	default:
		if getenv("COPILOT_CLI") == "1" { // Copilot CLI for a PascalCase event
			c.agent = "copilot-cli"
		}
	}
	if err := errors.Join(err1, err2, err3); err != nil {
		return c, fl, err
	}
	if err := f.error(); err != nil {
		return c, fl, err
	}
	switch {
	case hint == "" || strings.EqualFold(event, hint):
	case event == "":
		event = hint
	default:
		return c, fl, fmt.Errorf("the payload is for event %q, but the hook was installed for %q", printable(event, 64), printable(hint, 64))
	}
	c.event = event
	c.callID = f.str("tool_use_id")
	switch event {
	case "", "PreToolUse", "preToolUse":
	case "PostToolUse", "PostToolUseFailure", "postToolUse":
		c.phase = ran // the tool ran: a report for the log
	case "Stop", "SessionEnd", "sessionEnd":
		c.phase = ended // the turn or session ended: a report for the log
		return c, fl, f.error()
	default:
		c.phase, c.session = ended, "" // another event: no opinion, nothing to report
		return c, fl, nil
	}
	if tool == "" {
		return c, fl, fmt.Errorf("%s is missing", toolKey)
	}
	ht, judged := hostTools[tool]
	if !judged {
		return c, fl, nil
	}
	in, err := toolInput(f, inKey)
	if err != nil {
		return c, fl, err
	}
	c.terminal = ht.terminal
	for _, env := range []string{"COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} {
		if r := cleanAbs(getenv(env)); r != "" {
			c.workspaces = []string{r}
			break
		}
	}
	c.shell = true
	switch {
	case ht.unjudged != nil:
		c.command, c.unjudged = ht.unjudged(in)
		return c, fl, in.error()
	case ht.property == "task":
		c.command, c.limit, err = taskCommand(in)
		return c, fl, err
	}
	text, ok := in.strOK(ht.property)
	if err := in.error(); err != nil {
		return c, fl, err
	}
	c.command, c.limit = text, ht.limit
	switch {
	case ht.limit != "" && ok && strings.TrimSpace(text) == "":
		// Input that is only Enter: nothing to classify.
		c.unjudged = ht.limit
	case text == "":
		return c, fl, fmt.Errorf("%s%s.%s is missing", f.prefix, inKey, ht.property)
	}
	return c, fl, nil
}

// toolInput returns the tool's input object at key. Copilot CLI's toolArgs
// may also be a JSON string of that object, read as strictly as the payload.
func toolInput(f fields, key string) (fields, error) {
	v, present := f.obj.Get(key)
	if s, isStr := v.(string); isStr && key == "toolArgs" {
		o, err := strictjson.ParseObject([]byte(s))
		if err != nil {
			return fields{}, fmt.Errorf("toolArgs is a string but not a JSON object: %w", err)
		}
		return fields{obj: o, prefix: key + ".", err: f.err}, nil
	}
	in, _ := f.object(key)
	if err := f.error(); err != nil {
		return in, err
	}
	if !present || v == nil {
		return in, fmt.Errorf("%s is missing", key)
	}
	return in, nil
}

// taskCommand is the command line of VS Code's create_and_run_task input
// {workspaceFolder, task: {label, type, command, args, ...}}: a shell task
// without args runs its command as a shell command line; anything else is
// classified with its arguments quoted, and at most prompts.
func taskCommand(in fields) (command, limit string, err error) {
	task, present := in.object("task")
	if err := in.error(); err != nil {
		return "", "", err
	}
	if !present {
		return "", "", fmt.Errorf("%stask is missing", in.prefix)
	}
	typ := task.str("type")
	cmd := task.str("command")
	args := task.strs("args")
	if err := task.error(); err != nil {
		return "", "", err
	}
	if cmd == "" {
		return "", "", fmt.Errorf("%scommand is missing", task.prefix)
	}
	if (typ == "" || typ == "shell") && len(args) == 0 {
		return cmd, "", nil
	}
	line := cmd
	if typ != "" && typ != "shell" {
		line = shellQuote(cmd)
	}
	for _, a := range args {
		line += " " + shellQuote(a)
	}
	return line, whyTaskArgs, nil
}

// shellQuote quotes s as one POSIX shell word.
func shellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
