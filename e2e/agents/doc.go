// Package agents holds the end-to-end tests that drive the real agent CLIs
// (Claude Code, Gemini CLI, Codex, GitHub Copilot CLI; pinned in
// package.json and package-lock.json here) through one turn each, with
// command-safety's hook installed by `command-safety hook install AGENT
// --project`, against a scripted model server on 127.0.0.1 inside the test
// (SPEC §8, §10; issue 11, "Tests: the real clients, in CI").
//
// The model server answers the CLI's first model call with one tool call
// running the shell command the test chose, and every later call with plain
// text that ends the turn. It logs every request, so a test reads the tool
// result the CLI sent back: whether the command ran, was denied, and with
// which reason. Each test runs in a temporary directory that is HOME, every
// XDG_* directory, TMPDIR and each agent's own home; the CLIs' proxy
// variables point at a loopback trap, and when strace is there every
// connect(2) of the CLI's process tree is checked: a connection anywhere but
// loopback fails the test.
//
// TestInteractive runs one interactive session each of Claude Code and
// Gemini CLI in a tmux pane of the test's own tmux server: the model asks
// for two workspace writes the gate prompts for, the test answers the
// agent's permission dialog Yes and then No by keystrokes and ends the
// session (/exit, /quit), and the decision log must show the first approved
// and the second rejected by the agent's user (issue 16).
//
// Safety: the tests only ever ask for harmless commands (echo, touch of a
// file in the temporary project) and one refusal, `rm -rf ~/dummy`, against
// a dummy directory in the temporary HOME, which must still exist after the
// turn. Before that turn, the hook's answer to that exact payload is checked
// to be a deny.
//
// The tests skip unless E2E_AGENTS=1, so `go test ./...` stays fast and
// hermetic; with E2E_AGENTS=1 a missing CLI is a failure, never a skip.
// run.sh installs the CLIs (npm ci, cached by the lockfile's hash), builds
// the binary and runs them:
//
//	e2e/agents/run.sh                    # every agent
//	e2e/agents/run.sh -run 'Test/codex'  # go test flags pass through
//
// The package has no non-test code and imports nothing of the module: it
// runs the built binary, as an agent does.
package agents
