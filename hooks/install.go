package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/strictjson"
)

// Scope says which of an agent's settings files a hook goes into.
type Scope int

const (
	// Project is the settings file inside a project directory.
	Project Scope = iota
	// User is the settings file in the user's home directory.
	User
)

// String returns "project" or "user".
func (s Scope) String() string {
	if s == User {
		return "user"
	}
	return "project"
}

// SettingsPath is the file that holds agent's hooks for scope: under
// projectDir for [Project], under home for [User] (Codex: $CODEX_HOME when
// getenv gives it, else ~/.codex).
//
//	claude-code  .claude/settings.json   ~/.claude/settings.json   (https://code.claude.com/docs/en/hooks)
//	codex        .codex/hooks.json       $CODEX_HOME/hooks.json    (https://developers.openai.com/codex/hooks)
//	cursor       .cursor/hooks.json      ~/.cursor/hooks.json      (https://cursor.com/docs/agent/hooks)
//	gemini-cli   .gemini/settings.json   ~/.gemini/settings.json   (https://geminicli.com/docs/hooks)
//	vscode       .github/hooks/command-safety.json   ~/.copilot/hooks/command-safety.json
//	copilot-cli  .github/hooks/command-safety.json   $COPILOT_HOME/hooks/command-safety.json (~/.copilot)
//
// VS Code's agent hooks and Copilot CLI read the same directories
// (code.visualstudio.com/docs/copilot/customization/hooks;
// docs.github.com/en/copilot/reference/hooks-reference), so vscode and
// copilot-cli share one file and one entry (see [layout] family).
func SettingsPath(agent string, scope Scope, projectDir, home string, getenv func(string) string) (string, error) {
	rel, ok := map[string]string{
		"claude-code": filepath.Join(".claude", "settings.json"),
		"codex":       filepath.Join(".codex", "hooks.json"),
		"cursor":      filepath.Join(".cursor", "hooks.json"),
		"gemini-cli":  filepath.Join(".gemini", "settings.json"),
		"vscode":      filepath.Join(".github", "hooks", "command-safety.json"),
		"copilot-cli": filepath.Join(".github", "hooks", "command-safety.json"),
	}[agent]
	if !ok {
		return "", fmt.Errorf("no hook adapter for agent %q (known: %s)", printable(agent, 64), strings.Join(Agents(), ", "))
	}
	base := projectDir
	if scope == User && (agent == "vscode" || agent == "copilot-cli") {
		if agent == "copilot-cli" && getenv != nil {
			if ch := getenv("COPILOT_HOME"); ch != "" {
				if !filepath.IsAbs(ch) {
					return "", fmt.Errorf("COPILOT_HOME %q is not an absolute path", ch)
				}
				return filepath.Join(filepath.Clean(ch), "hooks", "command-safety.json"), nil
			}
		}
		if home == "" || !filepath.IsAbs(home) {
			return "", fmt.Errorf("the user directory %q is not an absolute path", home)
		}
		return filepath.Join(filepath.Clean(home), ".copilot", "hooks", "command-safety.json"), nil
	}
	if scope == User {
		base = home
		if agent == "codex" && getenv != nil {
			if ch := getenv("CODEX_HOME"); ch != "" {
				if !filepath.IsAbs(ch) {
					return "", fmt.Errorf("CODEX_HOME %q is not an absolute path", ch)
				}
				return filepath.Join(filepath.Clean(ch), "hooks.json"), nil
			}
		}
	}
	if base == "" || !filepath.IsAbs(base) {
		return "", fmt.Errorf("the %s directory %q is not an absolute path", scope, base)
	}
	return filepath.Join(filepath.Clean(base), rel), nil
}

// HookFiles lists the agents' user-level files that can hold or disable
// this gate's hooks, under home. They belong to the permission-rule store
// (SPEC §5.6): an agent that rewrites them could switch the gate off, so the
// gate refuses shell commands that write them even when the agent runs with
// the home directory as its workspace. (Project-level files are left out: a
// command that changes the whole workspace, like `npm install`, would then
// touch the rule store; writing them is a workspace write and prompts.)
// Claude Code also reads hooks from settings.local.json. VS Code and Copilot
// CLI read every file in ~/.copilot/hooks (any of them may set
// disableAllHooks), and Copilot CLI also ~/.copilot/settings.json and
// config.json (inline "hooks", "disableAllHooks"). Codex reads hooks.json
// and the [hooks] of config.toml in its home. getenv (nil: none) gives
// CODEX_HOME and COPILOT_HOME, which move those homes.
func HookFiles(home string, getenv func(string) string) []string {
	home = cleanAbs(home)
	if home == "" {
		return nil
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	codexHome := filepath.Join(home, ".codex")
	if d := cleanAbs(getenv("CODEX_HOME")); d != "" {
		codexHome = d
	}
	copilotHome := filepath.Join(home, ".copilot")
	if d := cleanAbs(getenv("COPILOT_HOME")); d != "" {
		copilotHome = d
	}
	out := []string{
		filepath.Join(codexHome, "hooks.json"),
		filepath.Join(codexHome, "config.toml"),
		filepath.Join(copilotHome, "hooks"),
		filepath.Join(copilotHome, "settings.json"),
		filepath.Join(copilotHome, "config.json"),
	}
	for _, r := range []string{
		filepath.Join(".claude", "settings.json"),
		filepath.Join(".claude", "settings.local.json"),
		filepath.Join(".cursor", "hooks.json"),
		filepath.Join(".gemini", "settings.json"),
	} {
		out = append(out, filepath.Join(home, r))
	}
	return out
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./+:@%=,-]+$`)

// IsOurs reports whether a hook command was written by [Install] for agent:
// it mentions command-safety and ends in, or contains, the word sequence
// "hook <agent>". For the agents that share one file (vscode and
// copilot-cli) an entry of either is ours: the one entry serves both.
func IsOurs(agent, command string) bool {
	if !strings.Contains(command, "command-safety") {
		return false
	}
	names := layouts[agent].family
	if len(names) == 0 {
		names = []string{agent}
	}
	for _, n := range names {
		if hasHookWords(command, n) {
			return true
		}
	}
	return false
}

// hasHookWords reports whether command contains the words "hook <agent>".
func hasHookWords(command, agent string) bool {
	needle := " hook " + agent
	for i := 0; ; {
		j := strings.Index(command[i:], needle)
		if j < 0 {
			return false
		}
		end := i + j + len(needle)
		if end == len(command) || command[end] == ' ' || command[end] == '\t' {
			return true
		}
		i = end
	}
}

// Edit is the result of [Install] or [Uninstall] on a settings file.
type Edit struct {
	// Data is the new file content: the input re-encoded as JSON with
	// two-space indentation, keys in their original order.
	Data []byte
	// Changes describes each change, one a line, prefixed "+" (added),
	// "-" (removed) or "~" (changed). Empty when nothing changed.
	Changes []string
	// Notes says what was left out and why (not changes).
	Notes []string
}

// Changed reports whether the edit changes anything.
func (e Edit) Changed() bool { return len(e.Changes) > 0 }

// The time limits of a hook run (SPEC §8: a hook answers within a deadline
// shorter than the agent's own time limit for hooks, and a hold never
// outlives it). An agent that stops a hook at its limit may run the tool as
// if no hook had answered (Gemini CLI does), so the limit the agent applies
// must always be longer than the longest the hook can take.
const (
	// RunLimit is the time limit [Install] gives an agent for a hook that
	// does not hold. A run takes tens of milliseconds; settings files, a
	// locked decision log or a slow disk are bounded well inside this.
	RunLimit = 30 * time.Second
	// HoldMargin is what [Install] adds to the longest hold for the rest of
	// the run (reading settings, classifying, the log, answering).
	HoldMargin = time.Minute
	// MaxHold is the longest a hold may wait.
	MaxHold = 7 * 24 * time.Hour
)

// Deadline is how long a hook run may take when the agent stops it after
// limit: the run answers (deny, when nothing was decided) this long after it
// started. It leaves a tenth of the limit, between 2 and 10 seconds, for the
// answer to reach the agent; limits of 2 s or less leave nothing to spend.
func Deadline(limit time.Duration) time.Duration {
	margin := min(max(limit/10, 2*time.Second), 10*time.Second)
	if limit <= margin {
		return 0
	}
	return limit - margin
}

// layout says where an agent keeps its command hooks and how it limits them.
type layout struct {
	// events are the hook events an entry of ours goes under: the first is
	// the gate (the pre-command event); the others report what happened
	// after a prompt (SPEC §7): the command ran, or the turn ended.
	events []hookEvent
	// grouped: entries sit in groups {"matcher"?, "hooks": [...]}; else
	// directly in the event's array.
	grouped bool
	entry   func(command string) *strictjson.Object
	// timeoutKey is the entry's key for the agent's time limit on the hook,
	// in units of timeoutUnit.
	timeoutKey  string
	timeoutUnit time.Duration
	// defaultLimit is the agent's limit when the entry sets none (the
	// shortest any version documents), for hooks installed without --limit.
	defaultLimit time.Duration
	// maxLimit is the longest limit the agent keeps; 0 when it has no bound.
	// Node's setTimeout fires at once for a delay above 2^31-1 ms, so a
	// longer limit in a Node agent would stop the hook immediately.
	maxLimit time.Duration
	// failClosedKey, when not "", is the entry's switch that makes the
	// agent block the tool when the hook fails or times out.
	failClosedKey string
	// version: the file starts with "version": 1.
	version bool
	// commandKeys are the entry's keys that hold the command; nil is
	// {"command"}. All of them get the same command line.
	commandKeys []string
	// family lists the agents whose hooks share this file and entry.
	family []string
	// eventFlag: the command line names its event (`--event=NAME`), for
	// agents whose payloads do not (Copilot CLI's camelCase events).
	eventFlag bool
}

// keys returns the entry keys that hold the command.
func (l layout) keys() []string {
	if len(l.commandKeys) == 0 {
		return []string{"command"}
	}
	return l.commandKeys
}

// ours reports whether entry is a hook of agent written by [Install].
func (l layout) ours(agent string, entry *strictjson.Object) bool {
	for _, k := range l.keys() {
		if IsOurs(agent, entry.Str(k)) {
			return true
		}
	}
	return false
}

// ourCommand is the first command of entry that [IsOurs], for messages.
func (l layout) ourCommand(agent string, entry *strictjson.Object) string {
	for _, k := range l.keys() {
		if c := entry.Str(k); IsOurs(agent, c) {
			return c
		}
	}
	return ""
}

// copilotFamily shares .github/hooks/command-safety.json and
// ~/.copilot/hooks/command-safety.json.
var copilotFamily = []string{"copilot-cli", "vscode"}

// copilotLayout is the hook file both VS Code and Copilot CLI read, in
// Copilot CLI's format, which VS Code also reads (it maps preToolUse to
// PreToolUse, bash to its linux and osx commands, timeoutSec to timeout:
// microsoft/vscode src/vs/workbench/contrib/chat/common/promptSyntax/
// hookSchema.ts). "command" is the cross-platform alias both read where
// "bash" does not apply (Windows).
//
//	{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": ..., "command": ..., "timeoutSec": s}]}}
//
// Limits are in seconds. VS Code's default is 30 s, Copilot CLI's 10 s
// (VS Code's schema for timeoutSec); both let the tool run when a hook
// times out (VS Code: hookExecutor.ts; Copilot CLI 1.0.67 changelog, seen
// in 1.0.102). VS Code's limit is a Node timer.
//
// postToolUse says a command ran and sessionEnd ends the session (reports
// for the log; docs.github.com/en/copilot/reference/hooks-reference).
var copilotLayout = layout{events: []hookEvent{{"preToolUse", ""}, {"postToolUse", ""}, {"sessionEnd", ""}},
	version: true, eventFlag: true, commandKeys: []string{"bash", "command"},
	family: copilotFamily, timeoutKey: "timeoutSec", timeoutUnit: time.Second,
	defaultLimit: 10 * time.Second, maxLimit: nodeTimerMax, entry: func(cmd string) *strictjson.Object {
		return strictjson.Obj("type", "command", "bash", cmd, "command", cmd)
	}}

// hookEvent is one event an entry of ours goes under, and its matcher ("" for
// none: events that are not about a tool, or agents without matchers).
type hookEvent struct{ name, matcher string }

// nodeTimerMax is the longest delay Node's setTimeout keeps (2^31-1 ms).
const nodeTimerMax = (1<<31 - 1) * time.Millisecond

var layouts = map[string]layout{
	// {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ..., "timeout": s}]}]}}
	// "timeout" is in seconds; the default was 60 s and is 600 s since 2.x
	// (https://code.claude.com/docs/en/hooks). PostToolUse (and
	// PostToolUseFailure: it ran, and failed) says a command ran; Stop ends
	// the turn, SessionEnd the session. Stop does not run when the user
	// answers No in the permission dialog (that interrupts the turn; seen
	// in e2e/agents TestInteractive with 2.1.332), so without
	// SessionEnd that prompt stays asked after /exit.
	"claude-code": {events: []hookEvent{{"PreToolUse", "Bash"}, {"PostToolUse", "Bash"}, {"PostToolUseFailure", "Bash"}, {"Stop", ""}, {"SessionEnd", ""}},
		grouped: true, timeoutKey: "timeout", timeoutUnit: time.Second,
		defaultLimit: time.Minute, maxLimit: nodeTimerMax, entry: func(cmd string) *strictjson.Object {
			return strictjson.Obj("type", "command", "command", cmd)
		}},
	// Claude Code's layout; "timeout" in seconds, default 600
	// (https://developers.openai.com/codex/hooks; codex-rs hook_config.rs).
	"codex": {events: []hookEvent{{"PreToolUse", "Bash"}, {"PostToolUse", "Bash"}, {"Stop", ""}},
		grouped: true, timeoutKey: "timeout", timeoutUnit: time.Second,
		defaultLimit: 10 * time.Minute, entry: func(cmd string) *strictjson.Object {
			return strictjson.Obj("type", "command", "command", cmd)
		}},
	// {"version": 1, "hooks": {"beforeShellExecution": [{"command": ..., "timeout": s, "failClosed": true}]}}
	// Without failClosed, Cursor runs the command when the hook fails or
	// times out (https://cursor.com/docs/agent/hooks); its default is 30 s.
	"cursor": {events: []hookEvent{{"beforeShellExecution", ""}, {"afterShellExecution", ""}, {"stop", ""}},
		version: true, timeoutKey: "timeout", timeoutUnit: time.Second,
		defaultLimit: 30 * time.Second, maxLimit: nodeTimerMax, failClosedKey: "failClosed",
		entry: func(cmd string) *strictjson.Object {
			return strictjson.Obj("command", cmd)
		}},
	// {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"name", "type", "command", "description", "timeout": ms}]}]}}
	// "timeout" is in milliseconds, default 60000; a hook that outlives it is
	// killed and the tool runs (https://geminicli.com/docs/hooks/reference).
	// AfterTool says the command ran; AfterAgent ends the turn, SessionEnd
	// the session. A No in the interactive confirmation (0.61.0) cancels the
	// turn without AfterAgent (e2e/agents TestInteractive), so without
	// SessionEnd that prompt stays asked after /quit.
	"gemini-cli": {events: []hookEvent{{"BeforeTool", "run_shell_command"}, {"AfterTool", "run_shell_command"}, {"AfterAgent", ""}, {"SessionEnd", ""}},
		grouped: true, timeoutKey: "timeout", timeoutUnit: time.Millisecond,
		defaultLimit: time.Minute, maxLimit: nodeTimerMax, entry: func(cmd string) *strictjson.Object {
			return strictjson.Obj("name", "command-safety", "type", "command", "command", cmd,
				"description", "ML.ai Command Safety: decides every shell command by its effect")
		}},
	"copilot-cli": copilotLayout,
	"vscode":      copilotLayout,
}

// DefaultLimit is agent's time limit for a hook whose entry sets none; 0 for
// an agent without an adapter.
func DefaultLimit(agent string) time.Duration { return layouts[agent].defaultLimit }

// Spec says which hook [Install] writes.
type Spec struct {
	// Binary is the command-safety binary the agent runs.
	Binary string
	// HookBinary, when not "", is the binary the agent runs for the
	// pre-command event when it does not hold: command-safety-hook, which
	// answers as Binary's `hook` does without linking the decision log's
	// SQLite (issue 17). Hold mode and the reports run Binary: they use the
	// log itself.
	HookBinary string
	// Hold installs the hook in hold mode (SPEC §10).
	Hold bool
	// HoldFor is the hold's timeout given on the command line (--hold=D);
	// 0 with Hold leaves it to the ml-ai.holdTimeout setting.
	HoldFor time.Duration
	// HoldLongest is the longest the hold may wait: HoldFor, or the
	// setting's value at install time. The agent's limit is set above it,
	// and the hook never waits past the limit even if the setting grows.
	HoldLongest time.Duration
}

// Limit is the agent's time limit that [Install] sets for s.
func (s Spec) Limit() time.Duration {
	if !s.Hold {
		return RunLimit
	}
	return max(s.HoldLongest, s.HoldFor) + HoldMargin
}

// Command is the command line the agent runs for s: the binary (quoted for
// a POSIX shell when it needs it), "hook <agent>", the hold flag and
// --limit with the limit [Install] gives the agent, so the hook knows when
// it must have answered.
func (s Spec) Command(agent string) string { return s.command(agent, "") }

// command is [Spec.Command] with `--event=EVENT` when event is not "".
func (s Spec) command(agent, event string) string {
	c := HookCommand(s.Binary, agent)
	if s.Hold {
		c += " --hold"
		if s.HoldFor > 0 {
			c += "=" + s.HoldFor.String()
		}
	}
	if event != "" {
		c += " --event=" + event
	}
	return c + " --limit=" + s.Limit().String()
}

// check refuses a spec the agent cannot honour.
func (s Spec) check(agent string, lay layout) error {
	if s.Hold && max(s.HoldLongest, s.HoldFor) > MaxHold {
		return fmt.Errorf("a hold of %s is longer than the longest hold, %s", max(s.HoldLongest, s.HoldFor), MaxHold)
	}
	if lay.maxLimit > 0 && s.Limit() > lay.maxLimit {
		return fmt.Errorf("%s stops a hook after at most %s, and a hold of %s needs %s; choose a shorter --hold",
			agent, lay.maxLimit.Truncate(time.Second), max(s.HoldLongest, s.HoldFor), s.Limit())
	}
	return nil
}

// HookCommand is the command line an agent runs for the hook: binary (quoted
// for a POSIX shell when it needs it) followed by "hook <agent>".
func HookCommand(binary, agent string) string {
	if !plainWord.MatchString(binary) {
		binary = "'" + strings.ReplaceAll(binary, "'", `'\''`) + "'"
	}
	return binary + " hook " + agent
}

// Install adds the hook of spec for agent to the settings file content data
// (empty data is a new file), with the agent's time limit for it set to
// [Spec.Limit] in the agent's unit and, where the agent has one, its
// fail-closed switch on. It is idempotent: an entry that [IsOurs] already
// is kept, its command, limit and switch updated when they differ.
// Everything else in the file is preserved. A file that is not plain JSON
// (for example JSONC with comments) is an error, never overwritten; so is a
// hold longer than the agent allows a hook to run.
func Install(agent string, data []byte, spec Spec) (Edit, error) {
	lay, root, hooksObj, err := open(agent, data)
	if err != nil {
		return Edit{}, err
	}
	if err := spec.check(agent, lay); err != nil {
		return Edit{}, err
	}
	var changes, notes []string
	if lay.version {
		if _, ok := root.Get("version"); !ok {
			root.Members = append([]strictjson.Member{{Key: "version", Val: json.Number("1")}}, root.Members...)
			changes = append(changes, "+ version: 1")
		}
	}
	if hooksObj == nil {
		hooksObj = &strictjson.Object{}
		root.Set("hooks", hooksObj)
	}
	for i, ev := range lay.events {
		named := ""
		if lay.eventFlag {
			named = ev.name
		}
		command, limit := spec.command(agent, named), spec.Limit()
		if i == 0 && !spec.Hold && spec.HookBinary != "" {
			command = Spec{Binary: spec.HookBinary}.command(agent, named)
		}
		if i > 0 {
			// A report never holds: it records what the agent did.
			command, limit = Spec{Binary: spec.Binary}.command(agent, named), RunLimit
		}
		ch, err := lay.ensure(agent, hooksObj, ev, command, limit)
		var cv caseVariant
		if i > 0 && errors.As(err, &cv) {
			// A report is worth less than the user's file: leave their
			// event alone and say so.
			notes = append(notes, fmt.Sprintf("hooks.%s not added (the prompts it would answer in the log stay asked): %v", ev.name, err))
			continue
		}
		if err != nil {
			return Edit{}, err
		}
		changes = append(changes, ch...)
	}
	return Edit{Data: strictjson.Encode(root), Changes: changes, Notes: notes}, nil
}

// ensure makes hooks hold one entry of ours under ev, running command with
// the agent's time limit limit (and its fail-closed switch), and returns the
// changes.
func (lay layout) ensure(agent string, hooksObj *strictjson.Object, ev hookEvent, command string, limit time.Duration) ([]string, error) {
	for _, m := range hooksObj.Members {
		if m.Key != ev.name && strings.EqualFold(m.Key, ev.name) {
			// Keys that differ only in case make a file no strict reader
			// accepts; which of the two a host obeys is not known.
			return nil, caseVariant{m.Key, ev.name}
		}
	}
	evVal, _ := hooksObj.Get(ev.name)
	if evVal == nil {
		evVal = []any{}
	}
	groups, ok := evVal.([]any)
	if !ok {
		return nil, fmt.Errorf("hooks.%s is not an array; fix it by hand", ev.name)
	}
	n := json.Number(strconv.FormatInt(int64(limit/lay.timeoutUnit), 10))
	var changes []string
	// settle sets key to want on entry and says so when it changed.
	settle := func(path string, entry *strictjson.Object, key string, want any) {
		if old, present := entry.Get(key); !present || jsonText(old) != jsonText(want) {
			entry.Set(key, want)
			if present {
				changes = append(changes, fmt.Sprintf("~ hooks.%s%s.%s: %v -> %v", ev.name, path, key, jsonText(old), jsonText(want)))
			} else {
				changes = append(changes, fmt.Sprintf("+ hooks.%s%s.%s: %v", ev.name, path, key, jsonText(want)))
			}
		}
	}
	found := false
	lay.visit(agent, groups, func(path string, entry *strictjson.Object) {
		if found {
			return // a duplicate of ours is left alone; uninstall removes all
		}
		found = true
		for _, k := range lay.keys() {
			settle(path, entry, k, command)
		}
		settle(path, entry, lay.timeoutKey, n)
		if lay.failClosedKey != "" {
			settle(path, entry, lay.failClosedKey, true)
		}
	})
	if !found {
		e := lay.entry(command)
		e.Set(lay.timeoutKey, n)
		if lay.failClosedKey != "" {
			e.Set(lay.failClosedKey, true)
		}
		var add any = e
		what := fmt.Sprintf("command %q, %s %s", command, lay.timeoutKey, n)
		if lay.failClosedKey != "" {
			what += ", " + lay.failClosedKey + " true"
		}
		switch {
		case lay.grouped && ev.matcher != "":
			add = strictjson.Obj("matcher", ev.matcher, "hooks", []any{add})
			what = fmt.Sprintf("matcher %q, %s", ev.matcher, what)
		case lay.grouped:
			add = strictjson.Obj("hooks", []any{add})
		}
		groups = append(groups, add)
		changes = append(changes, fmt.Sprintf("+ hooks.%s[%d]: %s", ev.name, len(groups)-1, what))
	}
	hooksObj.Set(ev.name, groups)
	return changes, nil
}

// caseVariant is an event key of the user's file that differs from ours only
// in case.
type caseVariant struct{ theirs, ours string }

func (e caseVariant) Error() string {
	return fmt.Sprintf("hooks.%s differs from %s only in case; merge them by hand", e.theirs, e.ours)
}

// jsonText renders a tree value for a change line.
func jsonText(v any) string {
	return strings.TrimSuffix(string(strictjson.Encode(v)), "\n")
}

// Uninstall removes from data every hook entry of agent that [IsOurs], and
// the groups, arrays and objects that became empty because of it; nothing
// else. Data without such an entry comes back unchanged.
func Uninstall(agent string, data []byte) (Edit, error) {
	lay, root, hooksObj, err := open(agent, data)
	if err != nil {
		return Edit{}, err
	}
	if hooksObj == nil {
		return Edit{Data: strictjson.Encode(root)}, nil
	}
	var changes []string
	for _, ev := range lay.events {
		changes = append(changes, lay.remove(agent, hooksObj, ev.name)...)
	}
	if len(changes) == 0 {
		return Edit{Data: strictjson.Encode(root)}, nil
	}
	if len(hooksObj.Members) == 0 {
		root.Del("hooks")
	}
	return Edit{Data: strictjson.Encode(root), Changes: changes}, nil
}

// remove takes our entries out of event and returns the changes; an event
// left empty by it is removed.
func (lay layout) remove(agent string, hooksObj *strictjson.Object, event string) []string {
	evVal, _ := hooksObj.Get(event)
	groups, ok := evVal.([]any)
	if !ok {
		return nil
	}
	var changes []string
	var keptGroups []any
	for gi, g := range groups {
		if !lay.grouped {
			if e, ok := g.(*strictjson.Object); ok && lay.ours(agent, e) {
				changes = append(changes, fmt.Sprintf("- hooks.%s[%d]: command %q", event, gi, lay.ourCommand(agent, e)))
				continue
			}
			keptGroups = append(keptGroups, g)
			continue
		}
		gobj, ok := g.(*strictjson.Object)
		inner, _ := gobj.Get("hooks")
		list, isList := inner.([]any)
		if !ok || !isList {
			keptGroups = append(keptGroups, g)
			continue
		}
		var kept []any
		for ei, e := range list {
			if eo, ok := e.(*strictjson.Object); ok && lay.ours(agent, eo) {
				changes = append(changes, fmt.Sprintf("- hooks.%s[%d].hooks[%d]: command %q", event, gi, ei, lay.ourCommand(agent, eo)))
				continue
			}
			kept = append(kept, e)
		}
		if len(kept) == 0 && len(list) > 0 {
			continue // the group held only our entries
		}
		if len(kept) != len(list) {
			gobj.Set("hooks", kept)
		}
		keptGroups = append(keptGroups, g)
	}
	switch {
	case len(changes) == 0:
	case len(keptGroups) > 0:
		hooksObj.Set(event, keptGroups)
	default:
		hooksObj.Del(event)
	}
	return changes
}

// visit calls f on every hook entry of groups that [IsOurs], with its path.
func (lay layout) visit(agent string, groups []any, f func(path string, entry *strictjson.Object)) {
	for gi, g := range groups {
		gobj, ok := g.(*strictjson.Object)
		if !ok {
			continue
		}
		if !lay.grouped {
			if lay.ours(agent, gobj) {
				f(fmt.Sprintf("[%d]", gi), gobj)
			}
			continue
		}
		list, _ := gobj.Get("hooks")
		entries, _ := list.([]any)
		for ei, e := range entries {
			if eo, ok := e.(*strictjson.Object); ok && lay.ours(agent, eo) {
				f(fmt.Sprintf("[%d].hooks[%d]", gi, ei), eo)
			}
		}
	}
}

// open parses data and finds its "hooks" object (nil when absent).
func open(agent string, data []byte) (layout, *strictjson.Object, *strictjson.Object, error) {
	lay, ok := layouts[agent]
	if !ok {
		return layout{}, nil, nil, fmt.Errorf("no hook adapter for agent %q (known: %s)", printable(agent, 64), strings.Join(Agents(), ", "))
	}
	var v any = &strictjson.Object{}
	var err error
	if len(bytes.TrimSpace(data)) > 0 { // an empty file is an empty object
		v, err = strictjson.Parse(data)
	}
	if err != nil {
		return layout{}, nil, nil, fmt.Errorf("the settings file is not plain JSON (comments or trailing commas are not rewritten; add the hook by hand): %w", err)
	}
	root, ok := v.(*strictjson.Object)
	if !ok {
		return layout{}, nil, nil, errors.New("the settings file does not hold a JSON object")
	}
	hv, present := root.Get("hooks")
	if !present || hv == nil {
		return lay, root, nil, nil
	}
	h, ok := hv.(*strictjson.Object)
	if !ok {
		return layout{}, nil, nil, errors.New(`"hooks" in the settings file is not an object; fix it by hand`)
	}
	return lay, root, h, nil
}
