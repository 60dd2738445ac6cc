package main

// Settings files that are not regular files (issue 12 point 1): a cloned
// repository can commit `.vscode/settings.json` as a FIFO or as a symlink to
// a device. Each front door (check, every hook adapter, serve) must answer
// promptly, report the file and ignore it. Every run is a real process with
// a deadline, so a regression fails instead of hanging the test.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// promptly bounds one front-door run on a bad settings file. A run takes
// tens of milliseconds; the bound is generous for a loaded 2-core machine.
const promptly = 5 * time.Second

// badSettings is one kind of settings file that is not a regular file.
type badSettings struct {
	name string
	make func(t *testing.T, path string)
	// want is in the problem reported on stderr; "" accepts any report.
	want string
}

func symlinkTo(target string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
	}
}

func badSettingsKinds(t *testing.T) []badSettings {
	if runtime.GOOS == "windows" {
		t.Skip("FIFOs and /dev links are Unix")
	}
	kinds := []badSettings{
		{"fifo", func(t *testing.T, path string) {
			t.Helper()
			if err := mkfifo(path); err != nil {
				t.Fatal(err)
			}
		}, "is not a regular file (a FIFO)"},
		{"link to /dev/stdin", symlinkTo("/dev/stdin"), "is not a regular file"},
		{"link to /dev/stdout", symlinkTo("/dev/stdout"), "is not a regular file"},
		{"link to /dev/zero", symlinkTo("/dev/zero"), "is not a regular file (a character device)"},
		{"link to /dev/tty", symlinkTo("/dev/tty"), ""}, // without a controlling terminal it does not open
		{"directory", func(t *testing.T, path string) {
			t.Helper()
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "is not a regular file (a directory)"},
		{"link to a FIFO", func(t *testing.T, path string) {
			t.Helper()
			fifo := path + ".fifo"
			if err := mkfifo(fifo); err != nil {
				t.Fatal(err)
			}
			symlinkTo(fifo)(t, path)
		}, "is not a regular file (a FIFO)"},
	}
	return kinds
}

// boundedRun runs the binary with a deadline. stdin, when not nil, is a
// pipe the test keeps open (so a read of /dev/stdin would block for ever);
// the payload is written to it first.
func boundedRun(t *testing.T, dir string, env []string, payload string, args ...string) (stdout, stderr string, code int, took time.Duration) {
	t.Helper()
	bin := hookBinary(t) // built before the clock starts: a build under load took seconds
	ctx, cancel := context.WithTimeout(context.Background(), promptly)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.WaitDelay = time.Second
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inW.Close()
	cmd.Stdin = inR
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	if payload != "" {
		go func() {
			_, _ = io.WriteString(inW, payload)
			// The hook reads its payload to the end: close after it. A read
			// of /dev/stdin after that sees EOF, not the payload.
			inW.Close()
		}()
	}
	err = cmd.Wait()
	took = time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("%v: still running after %v (killed)\nstderr: %s", args, promptly, errb.String())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, took
}

// TestSettingsNotRegularFileCheckAndHooks: check and each hook adapter answer
// promptly when the workspace's settings.json is a FIFO, a device, a
// directory or a link to one, report it and otherwise decide as without it.
func TestSettingsNotRegularFileCheckAndHooks(t *testing.T) {
	for _, k := range badSettingsKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			s := newHookSandbox(t)
			settingsFile := filepath.Join(s.work, ".vscode", "settings.json")
			if err := os.MkdirAll(filepath.Dir(settingsFile), 0o755); err != nil {
				t.Fatal(err)
			}
			k.make(t, settingsFile)
			checkProblem := func(front, stderr string) {
				t.Helper()
				if !strings.Contains(stderr, settingsFile) {
					t.Errorf("%s: stderr does not name the settings file:\n%s", front, stderr)
				}
				if k.want != "" && !strings.Contains(stderr, k.want) {
					t.Errorf("%s: stderr lacks %q:\n%s", front, k.want, stderr)
				}
			}

			out, stderr, code, took := boundedRun(t, s.work, s.env, "", "check", "--cwd", s.work, "--", "ls")
			if code != 0 || !strings.HasPrefix(out, "allow ") {
				t.Errorf("check: exit %d, stdout %q, want allow\nstderr: %s", code, out, stderr)
			}
			checkProblem("check", stderr)
			t.Logf("check: %v", took)

			w := s.work
			for _, h := range []struct{ agent, payload string }{
				{"claude-code", `{"session_id":"bad-1","cwd":"` + w + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
				{"cursor", `{"hook_event_name":"beforeShellExecution","conversation_id":"bad-2","workspace_roots":["` + w + `"],"command":"ls","cwd":"` + w + `"}`},
				{"gemini-cli", `{"session_id":"bad-3","cwd":"` + w + `","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`},
			} {
				out, stderr, code, took := boundedRun(t, s.work, s.env, h.payload, "hook", h.agent)
				if code != 0 || hookDecision(t, h.agent, out) != "allow" {
					t.Errorf("hook %s: exit %d, stdout %q, want allow\nstderr: %s", h.agent, code, out, stderr)
				}
				checkProblem("hook "+h.agent, stderr)
				t.Logf("hook %s: %v", h.agent, took)
			}
		})
	}
}

// TestSettingsNotRegularFileUser: the same for a user settings file (a
// dotfiles repository can make it a link too); check answers promptly.
func TestSettingsNotRegularFileUser(t *testing.T) {
	for _, k := range badSettingsKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			s := newHookSandbox(t)
			user := filepath.Join(s.home, ".config", "Code", "User", "settings.json")
			if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
				t.Fatal(err)
			}
			k.make(t, user)
			out, stderr, code, _ := boundedRun(t, s.work, s.env, "", "check", "--cwd", s.work, "--", "ls")
			if code != 0 || !strings.HasPrefix(out, "allow ") {
				t.Errorf("check: exit %d, stdout %q, want allow\nstderr: %s", code, out, stderr)
			}
			if !strings.Contains(stderr, user) || (k.want != "" && !strings.Contains(stderr, k.want)) {
				t.Errorf("stderr lacks the problem %q for %s:\n%s", k.want, user, stderr)
			}
		})
	}
}

// TestSettingsNotRegularFileServe: serve (settings files mode) keeps reading
// its real stdin: a classify after initialize, with the workspace's
// settings.json not a regular file, gets its reply promptly, and the
// problem is reported as a settings logMessage.
func TestSettingsNotRegularFileServe(t *testing.T) {
	for _, k := range badSettingsKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			c := startServe(t, serveOpts{})
			settingsFile := filepath.Join(c.ws, ".vscode", "settings.json")
			if err := os.MkdirAll(filepath.Dir(settingsFile), 0o755); err != nil {
				t.Fatal(err)
			}
			k.make(t, settingsFile)
			start := time.Now()
			id := c.send("initialize", map[string]any{
				"processId": nil, "rootUri": "file://" + c.ws, "capabilities": map[string]any{},
				"initializationOptions": defaultInitializeOptions,
			})
			c.waitFor("the initialize reply", promptly, func() bool { _, ok := c.responses[id]; return ok })
			c.notify("initialized", map[string]any{})
			id = c.send("commandSafety/classify", map[string]any{"command": "ls", "cwd": c.ws})
			var m message
			c.waitFor("the classify reply", promptly, func() bool {
				var ok bool
				m, ok = c.responses[id]
				return ok
			})
			if m.Error != nil || !strings.Contains(string(m.Result), `"decision":"allow"`) {
				t.Errorf("classify ls: %s", m.raw)
			}
			t.Logf("initialize and classify: %v", time.Since(start))
			if k.want != "" {
				l := c.waitLog(k.want)
				if l.Type != messageTypeError || !strings.Contains(l.Message, settingsFile) {
					t.Errorf("problem logMessage %+v, want an error naming %s", l, settingsFile)
				}
			}
		})
	}
}

// TestHookInstallSettingsNotRegularFile: `hook install` reads the agent's
// settings file the same way: a FIFO or a link to a device is refused
// promptly, named, and left as it is.
func TestHookInstallSettingsNotRegularFile(t *testing.T) {
	for _, k := range badSettingsKinds(t) {
		t.Run(k.name, func(t *testing.T) {
			s := newHookSandbox(t)
			path := filepath.Join(s.work, ".claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			k.make(t, path)
			before, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			out, stderr, code, _ := boundedRun(t, s.work, s.env, "", "hook", "install", "claude-code", "--project", "--dir", s.work)
			if code != 1 || !strings.Contains(stderr, path) || (k.want != "" && !strings.Contains(stderr, k.want)) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q naming %s", code, out, stderr, k.want, path)
			}
			after, err := os.Lstat(path)
			if err != nil || after.Mode() != before.Mode() {
				t.Errorf("the file was replaced: %v, %v", after, err)
			}
		})
	}
}

// TestDecisionLogNotRegularFile: a decision log path that is a FIFO or a
// link to a device does not hang check or a hook either (SQLite refuses it):
// the verdict comes promptly, downgraded to prompt with the reason.
func TestDecisionLogNotRegularFile(t *testing.T) {
	for _, k := range badSettingsKinds(t) {
		if k.name == "directory" {
			continue // a directory there is covered by TestHookProcessLogUnavailable's kind of failure
		}
		t.Run(k.name, func(t *testing.T) {
			s := newHookSandbox(t)
			if err := os.MkdirAll(filepath.Dir(s.logPath()), 0o700); err != nil {
				t.Fatal(err)
			}
			k.make(t, s.logPath())
			out, stderr, code, _ := boundedRun(t, s.work, s.env, "", "check", "--cwd", s.work, "--", "ls")
			if code != 1 || !strings.HasPrefix(out, "prompt ") || !strings.Contains(out, "decision log is unavailable") {
				t.Errorf("check: exit %d, stdout %q, want a prompt naming the log\nstderr: %s", code, out, stderr)
			}
			payload := `{"session_id":"log-1","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
			out, stderr, _, _ = boundedRun(t, s.work, s.env, payload, "hook", "claude-code")
			if hookDecision(t, "claude-code", out) != "ask" {
				t.Errorf("hook: stdout %q, want ask\nstderr: %s", out, stderr)
			}
		})
	}
}

// TestSettingsInvalidUTF8Comment (issue 12 point 7): a comment with bytes that are not UTF-8
// (a Latin-1 "café") does not drop the file's values: the workspace's
// commandSafety false still applies, for check, a hook and serve.
func TestSettingsInvalidUTF8Comment(t *testing.T) {
	const text = "{\n  // caf\xe9: ask before every command\n  \"ml-ai.commandSafety\": false /* \xff */\n}\n"
	s := newHookSandbox(t)
	writeFile(t, filepath.Join(s.work, ".vscode", "settings.json"), text)
	out, stderr, code, _ := boundedRun(t, s.work, s.env, "", "check", "--no-log", "--cwd", s.work, "--", "ls")
	if code != 1 || !strings.Contains(out, "command safety is off") {
		t.Errorf("check ls: exit %d %q, want the workspace's commandSafety false\nstderr: %s", code, out, stderr)
	}
	payload := `{"session_id":"u","cwd":"` + s.work + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	out, stderr, _, _ = boundedRun(t, s.work, s.env, payload, "hook", "claude-code")
	if hookDecision(t, "claude-code", out) != "ask" {
		t.Errorf("hook ls: %q, want ask\nstderr: %s", out, stderr)
	}
	c := startServe(t, serveOpts{files: map[string]string{"ws/.vscode/settings.json": text}})
	c.initialize(nil)
	if v := c.classify(map[string]any{"command": "ls"}); v.ClassificationEnabled {
		t.Errorf("serve ls: classification enabled, want the workspace's commandSafety false")
	}
}
