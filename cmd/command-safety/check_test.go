package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sandbox points HOME and the XDG directories into a temp directory.
func sandbox(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	return home
}

func TestCheckExitCodes(t *testing.T) {
	home := sandbox(t)
	ws := filepath.Join(home, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  int
		out   string
	}{
		{"allow", []string{"--no-log", "--cwd", ws, "--", "ls -la && git log -5 && go test ./..."}, "", 0, "allow "},
		{"prompt", []string{"--no-log", "--cwd", ws, "--", "npm install left-pad"}, "", 1, "prompt "},
		{"refuse", []string{"--no-log", "--cwd", ws, "--", "git status && rm -rf ~"}, "", 2, "`rm -rf ~`"},
		{"words joined", []string{"--no-log", "--cwd", ws, "--", "rm", "-rf", "/"}, "", 2, "refuse"},
		{"unknown mode", []string{"--no-log", "--mode", "sloppy", "--", "ls"}, "", 3, ""},
		{"bad flag", []string{"--no-such-flag"}, "", 3, ""},
		{"no command", []string{"--no-log"}, "", 3, ""},
		{"safety off prompts reads", []string{"--no-log", "--cwd", ws, "--safety=false", "--", "git status"}, "", 1, "command safety is off"},
		{"safety off still refuses", []string{"--no-log", "--cwd", ws, "--safety=false", "--", "sudo ls"}, "", 2, "privilege-escalation"},
		{"plan mode refuses writes", []string{"--no-log", "--cwd", ws, "--mode", "plan", "--", "touch a"}, "", 2, "plan mode"},
		{"stdin lines: strictest", []string{"--no-log", "--cwd", ws}, "ls\n\nnpm install x\n", 1, "prompt "},
		{"empty command", []string{"--no-log", "--cwd", ws, "--", "   "}, "", 1, "empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			got := run(append([]string{"check"}, tc.args...), strings.NewReader(tc.stdin), &out, &errb)
			if got != tc.want {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", got, tc.want, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tc.out) {
				t.Errorf("stdout lacks %q:\n%s", tc.out, out.String())
			}
		})
	}
}

func TestCheckJSONL(t *testing.T) {
	home := sandbox(t)
	// A directory beside HOME: /tmp holds the sandbox's HOME, so it is no
	// workspace here (a root that holds the home directory is not taken).
	ws, _ := json.Marshal(t.TempDir())
	in := strings.Join([]string{
		`{"id": "a", "command": "git status", "cwd": ` + string(ws) + `}`,
		`{"id": 7, "command": "rm -rf ~", "workspaces": ["/tmp/ws"]}`,
		`{"id": "c", "command": `,
		`{"id": "d", "command": "touch x", "workspace": "/tmp/ws"}`,
		`{"id": "e", "cwd": "/tmp"}`,
		`{"id": "f", "command": "ls", "cwd": "relative/dir"}`,
		`{"id": "g", "command": "ls", "surprise": 1}`,
		`["not", "an", "object"]`,
		`{"id": "h", "command": "ls", "mode": "nosuch"}`,
		strings.Repeat("x", 2<<20),
		`{"id": "i", "command": "ls", "workspace": "/tmp"}`,
	}, "\n") + "\n"
	var out, errb bytes.Buffer
	code := run([]string{"check", "--jsonl", "--log", filepath.Join(home, "log.db")}, strings.NewReader(in), &out, &errb)
	if code != 2 {
		t.Errorf("exit %d, want 2 (the strictest)", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []struct{ id, decision, rule string }{
		{"a", "allow", "read"}, {"7", "refuse", "delete-outside-workspace"}, {"", "refuse", "bad-request"},
		{"d", "prompt", "write-inside-workspace"}, {"e", "refuse", "bad-request"}, {"f", "refuse", "bad-request"},
		{"g", "refuse", "bad-request"}, {"", "refuse", "bad-request"}, {"h", "refuse", "bad-request"},
		{"", "refuse", "bad-request"}, {"i", "allow", "read"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d verdict lines, want %d:\n%s\nstderr: %s", len(lines), len(want), out.String(), errb.String())
	}
	for i, line := range lines {
		var v struct {
			ID, Decision, Rule, Reason string
			LogID                      int64
			Micros                     *int64
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		if v.ID != want[i].id || v.Decision != want[i].decision || v.Rule != want[i].rule {
			t.Errorf("line %d: id %q decision %s rule %s, want %+v (reason: %s)", i+1, v.ID, v.Decision, v.Rule, want[i], v.Reason)
		}
		if v.Micros == nil {
			t.Errorf("line %d has no micros", i+1)
		}
		if v.Decision != "refuse" && v.LogID == 0 {
			t.Errorf("line %d was not logged", i+1)
		}
	}
}
