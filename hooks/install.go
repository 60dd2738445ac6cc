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
// projectDir for [Project], under home for [User].
//
//	claude-code  .claude/settings.json   ~/.claude/settings.json   (https://code.claude.com/docs/en/hooks)
//	cursor       .cursor/hooks.json      ~/.cursor/hooks.json      (https://cursor.com/docs/agent/hooks)
//	gemini-cli   .gemini/settings.json   ~/.gemini/settings.json   (https://geminicli.com/docs/hooks)
func SettingsPath(agent string, scope Scope, projectDir, home string) (string, error) {
	rel, ok := map[string]string{
		"claude-code": filepath.Join(".claude", "settings.json"),
		"cursor":      filepath.Join(".cursor", "hooks.json"),
		"gemini-cli":  filepath.Join(".gemini", "settings.json"),
	}[agent]
	if !ok {
		return "", fmt.Errorf("no hook adapter for agent %q (known: %s)", printable(agent, 64), strings.Join(Agents(), ", "))
	}
	base := projectDir
	if scope == User {
		base = home
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
// Claude Code also reads hooks from settings.local.json.
func HookFiles(home string) []string {
	home = cleanAbs(home)
	if home == "" {
		return nil
	}
	var out []string
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

// HookCommand is the command line an agent runs for the hook: binary (quoted
// for a POSIX shell when it needs it) followed by "hook <agent>".
func HookCommand(binary, agent string) string {
	if !plainWord.MatchString(binary) {
		binary = "'" + strings.ReplaceAll(binary, "'", `'\''`) + "'"
	}
	return binary + " hook " + agent
}

// IsOurs reports whether a hook command was written by [Install] for agent:
// it mentions command-safety and ends in, or contains, the word sequence
// "hook <agent>".
func IsOurs(agent, command string) bool {
	if !strings.Contains(command, "command-safety") {
		return false
	}
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
}

// Changed reports whether the edit changes anything.
func (e Edit) Changed() bool { return len(e.Changes) > 0 }

// layout says where an agent keeps its command hooks.
type layout struct {
	event   string // key under "hooks"
	matcher string // "" when entries sit directly in the event's array
	entry   func(command string) *strictjson.Object
	// timeoutKey is the entry's key for the hook's time limit and unit
	// seconds, when the agent has one: hold mode needs it raised.
	timeoutKey string
}

var layouts = map[string]layout{
	// {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": ...}]}]}}
	// "timeout" is in seconds (https://code.claude.com/docs/en/hooks).
	"claude-code": {event: "PreToolUse", matcher: "Bash", timeoutKey: "timeout", entry: func(cmd string) *strictjson.Object {
		return strictjson.Obj("type", "command", "command", cmd)
	}},
	// {"version": 1, "hooks": {"beforeShellExecution": [{"command": ...}]}}
	"cursor": {event: "beforeShellExecution", entry: func(cmd string) *strictjson.Object {
		return strictjson.Obj("command", cmd)
	}},
	// {"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"name", "type", "command", "description"}]}]}}
	"gemini-cli": {event: "BeforeTool", matcher: "run_shell_command", entry: func(cmd string) *strictjson.Object {
		return strictjson.Obj("name", "command-safety", "type", "command", "command", cmd,
			"description", "ML.ai Command Safety: decides every shell command by its effect")
	}},
}

// Install adds the hook running command for agent to the settings file
// content data (empty data is a new file). It is idempotent: an entry that
// [IsOurs] already is kept, or its command updated when the binary moved.
// Everything else in the file is preserved. A file that is not plain JSON
// (for example JSONC with comments) is an error, never overwritten.
func Install(agent string, data []byte, command string) (Edit, error) {
	return InstallHold(agent, data, command, 0)
}

// InstallHold is [Install] for a hook in hold mode that may wait up to hold
// for a human: where the agent has a per-hook time limit, the entry's limit
// is set a minute above hold so the agent does not kill the waiting hook.
func InstallHold(agent string, data []byte, command string, hold time.Duration) (Edit, error) {
	lay, root, hooksObj, err := open(agent, data)
	if err != nil {
		return Edit{}, err
	}
	var changes []string
	if agent == "cursor" {
		if _, ok := root.Get("version"); !ok {
			root.Members = append([]strictjson.Member{{Key: "version", Val: json.Number("1")}}, root.Members...)
			changes = append(changes, "+ version: 1")
		}
	}
	if hooksObj == nil {
		hooksObj = &strictjson.Object{}
		root.Set("hooks", hooksObj)
	}
	evVal, _ := hooksObj.Get(lay.event)
	if evVal == nil {
		evVal = []any{}
	}
	groups, ok := evVal.([]any)
	if !ok {
		return Edit{}, fmt.Errorf("hooks.%s is not an array; fix it by hand", lay.event)
	}

	found := false
	visit(agent, lay, groups, func(path string, entry *strictjson.Object) {
		if found {
			return // a duplicate of ours is left alone; uninstall removes all
		}
		found = true
		if old := entry.Str("command"); old != command {
			entry.Set("command", command)
			changes = append(changes, fmt.Sprintf("~ hooks.%s%s.command: %q -> %q", lay.event, path, old, command))
		}
		if hold > 0 && lay.timeoutKey != "" {
			want := json.Number(strconv.Itoa(int((hold + time.Minute).Seconds())))
			if old, _ := entry.Get(lay.timeoutKey); old != want {
				entry.Set(lay.timeoutKey, want)
				changes = append(changes, fmt.Sprintf("~ hooks.%s%s.%s: %v", lay.event, path, lay.timeoutKey, want))
			}
		}
	})
	if !found {
		e := lay.entry(command)
		if hold > 0 && lay.timeoutKey != "" {
			e.Set(lay.timeoutKey, json.Number(strconv.Itoa(int((hold + time.Minute).Seconds()))))
		}
		var add any = e
		if lay.matcher != "" {
			add = strictjson.Obj("matcher", lay.matcher, "hooks", []any{add})
		}
		groups = append(groups, add)
		what := fmt.Sprintf("command %q", command)
		if lay.matcher != "" {
			what = fmt.Sprintf("matcher %q, %s", lay.matcher, what)
		}
		changes = append(changes, fmt.Sprintf("+ hooks.%s[%d]: %s", lay.event, len(groups)-1, what))
	}
	hooksObj.Set(lay.event, groups)
	return Edit{Data: strictjson.Encode(root), Changes: changes}, nil
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
	evVal, _ := hooksObj.Get(lay.event)
	groups, ok := evVal.([]any)
	if !ok {
		return Edit{Data: strictjson.Encode(root)}, nil
	}
	var changes []string
	var keptGroups []any
	for gi, g := range groups {
		if lay.matcher == "" {
			if e, ok := g.(*strictjson.Object); ok && IsOurs(agent, e.Str("command")) {
				changes = append(changes, fmt.Sprintf("- hooks.%s[%d]: command %q", lay.event, gi, e.Str("command")))
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
			if eo, ok := e.(*strictjson.Object); ok && IsOurs(agent, eo.Str("command")) {
				changes = append(changes, fmt.Sprintf("- hooks.%s[%d].hooks[%d]: command %q", lay.event, gi, ei, eo.Str("command")))
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
	if len(changes) == 0 {
		return Edit{Data: strictjson.Encode(root)}, nil
	}
	switch {
	case len(keptGroups) > 0:
		hooksObj.Set(lay.event, keptGroups)
	default:
		hooksObj.Del(lay.event)
		if len(hooksObj.Members) == 0 {
			root.Del("hooks")
		}
	}
	return Edit{Data: strictjson.Encode(root), Changes: changes}, nil
}

// visit calls f on every hook entry of groups that [IsOurs], with its path.
func visit(agent string, lay layout, groups []any, f func(path string, entry *strictjson.Object)) {
	for gi, g := range groups {
		gobj, ok := g.(*strictjson.Object)
		if !ok {
			continue
		}
		if lay.matcher == "" {
			if IsOurs(agent, gobj.Str("command")) {
				f(fmt.Sprintf("[%d]", gi), gobj)
			}
			continue
		}
		list, _ := gobj.Get("hooks")
		entries, _ := list.([]any)
		for ei, e := range entries {
			if eo, ok := e.(*strictjson.Object); ok && IsOurs(agent, eo.Str("command")) {
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
