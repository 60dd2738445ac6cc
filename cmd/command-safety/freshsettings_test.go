package main

// Settings apply to the next command (issue 12 point 7): a save followed at
// once by a classify uses the saved values, and the settings of folders a
// request names apply to it.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeSettingsApplyToNextCommand: each save of the user or workspace
// settings file, atomic or in place (same size included), is in force for the
// classify sent right after it, without waiting for the watcher.
func TestServeSettingsApplyToNextCommand(t *testing.T) {
	c := startServe(t, serveOpts{files: map[string]string{
		"home/.config/Code/User/settings.json": `{"ml-ai.commandSafety": true }`,
	}})
	c.initialize(nil)
	user := userSettingsPath(c)
	// "true " and "false" have the same length: an in-place save changes
	// neither the size nor (within the clock's tick) the mtime.
	text := map[bool]string{true: `{"ml-ai.commandSafety": true }`, false: `{"ml-ai.commandSafety": false}`}
	stale := 0
	const saves = 30
	for i := range saves {
		want := i%2 == 1 // false first
		if i%4 < 2 {
			writeAtomic(t, user, text[want])
		} else if err := os.WriteFile(user, []byte(text[want]), 0o644); err != nil {
			t.Fatal(err)
		}
		if v := c.classify(map[string]any{"command": "ls"}); v.ClassificationEnabled != want {
			stale++
			t.Logf("save %d (commandSafety %t, %s): the next classify had %t", i, want, map[bool]string{true: "atomic", false: "in place"}[i%4 < 2], v.ClassificationEnabled)
		}
	}
	if stale > 0 {
		t.Errorf("%d of %d classifies right after a save used the old settings", stale, saves)
	}
	// A workspace file that appears tightens the very next command.
	writeFile(t, filepath.Join(c.ws, ".vscode", "settings.json"), `{"ml-ai.agentBudgets": {"copilot": {"read": "refuse"}}}`)
	if v := c.classify(map[string]any{"command": "ls"}); v.Decision != "refuse" {
		t.Errorf("ls right after the workspace refused read: %s %s", v.Decision, v.Reason)
	}
	// And its removal loosens the next one back to the user's settings.
	if err := os.Remove(filepath.Join(c.ws, ".vscode", "settings.json")); err != nil {
		t.Fatal(err)
	}
	if v := c.classify(map[string]any{"command": "ls"}); v.Decision == "refuse" {
		t.Errorf("ls right after the workspace file was removed: still %s", v.Decision)
	}
}

// TestServeRequestFoldersSettings: the `.vscode/settings.json` of folders a
// classify names in workspaceFolders applies to it (tightening only), in
// files mode and in client mode; the session's own roots still apply.
func TestServeRequestFoldersSettings(t *testing.T) {
	for _, mode := range []string{"files", "client"} {
		t.Run(mode, func(t *testing.T) {
			c := startServe(t, serveOpts{files: map[string]string{
				"off/.vscode/settings.json":    "{\n  // this repository wants every command asked\n  \"ml-ai.commandSafety\": false,\n}\n",
				"strict/.vscode/settings.json": `{"ml-ai.agentBudgets": {"copilot": {"read": "refuse"}}, "ml-ai.bogus": 1}`,
				"loose/.vscode/settings.json":  `{"ml-ai.agentBudgets": {"copilot": {"opaque-medium": "allow"}}}`,
			}})
			if mode == "client" {
				c.config = func(items []configItem) []any {
					out := make([]any, len(items))
					out[0] = map[string]any{"commandSafety": true}
					return out
				}
				c.initialize(map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}})
			} else {
				c.initialize(nil)
			}
			off, strict, loose := filepath.Join(c.dir, "off"), filepath.Join(c.dir, "strict"), filepath.Join(c.dir, "loose")
			if v := c.classify(map[string]any{"command": "ls"}); v.Decision != "allow" {
				t.Fatalf("ls in the session's root: %s", v.Decision)
			}
			if v := c.classify(map[string]any{"command": "ls", "workspaceFolders": []any{off}, "cwd": off}); v.ClassificationEnabled || v.Decision != "prompt" {
				t.Errorf("ls in a folder whose settings turn the gate off: enabled %t %s", v.ClassificationEnabled, v.Decision)
			}
			if v := c.classify(map[string]any{"command": "ls", "workspaceFolders": []any{"file://" + strict}, "cwd": strict}); v.Decision != "refuse" || v.Rule != "read" {
				t.Errorf("ls in a folder that refuses read: %s %s", v.Decision, v.Rule)
			}
			if l := c.waitLog("ml-ai.bogus"); l.Type != messageTypeError || !strings.Contains(l.Message, filepath.Join(strict, ".vscode", "settings.json")) {
				t.Errorf("problem in the request folder's file: %+v", l)
			}
			// A request folder can only tighten.
			if v := c.classify(map[string]any{"command": "frobnicate --all", "workspaceFolders": []any{loose}, "cwd": loose}); v.Decision != "prompt" {
				t.Errorf("a request folder loosened opaque-medium: %s", v.Decision)
			}
			// The folders' settings did not leak into the session.
			if v := c.classify(map[string]any{"command": "ls"}); v.Decision != "allow" || !v.ClassificationEnabled {
				t.Errorf("ls in the session's root afterwards: %s enabled %t", v.Decision, v.ClassificationEnabled)
			}
			n := 0
			for _, l := range c.logsSnapshot() {
				if strings.Contains(l.Message, "ml-ai.bogus") {
					n++
				}
			}
			c.classify(map[string]any{"command": "ls", "workspaceFolders": []any{strict}, "cwd": strict})
			m := 0
			for _, l := range c.logsSnapshot() {
				if strings.Contains(l.Message, "ml-ai.bogus") {
					m++
				}
			}
			if n != 1 || m != 1 {
				t.Errorf("the request folder's problem was reported %d times, then %d, want once", n, m)
			}
		})
	}
}

// TestCheckJSONLRequestWorkspacesSettings: check --jsonl applies the
// settings of each line's workspaces to that line.
func TestCheckJSONLRequestWorkspacesSettings(t *testing.T) {
	s := newHookSandbox(t)
	off := filepath.Join(filepath.Dir(s.work), "off")
	writeFile(t, filepath.Join(off, ".vscode", "settings.json"), `{"ml-ai.commandSafety": false}`)
	in := `{"id": "a", "command": "ls", "cwd": "` + s.work + `"}` + "\n" +
		`{"id": "b", "command": "ls", "workspaces": ["` + off + `"]}` + "\n" +
		`{"id": "c", "command": "ls", "cwd": "` + s.work + `"}` + "\n"
	out, stderr, _, _ := boundedRun(t, s.work, s.env, in, "check", "--no-log", "--jsonl")
	want := map[string]bool{"a": true, "b": false, "c": true}
	n := 0
	for line := range strings.Lines(out) {
		var v struct {
			ID                    string
			Decision              string
			ClassificationEnabled bool
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		n++
		if v.ClassificationEnabled != want[v.ID] {
			t.Errorf("line %s: classificationEnabled %t (%s), want %t", v.ID, v.ClassificationEnabled, v.Decision, want[v.ID])
		}
	}
	if n != 3 {
		t.Errorf("%d verdicts, want 3\nstderr: %s", n, stderr)
	}
}
