// Package hooks owns the agent adapters: it turns the pre-command hook payload
// of an agent (Claude Code, Codex, Cursor, Gemini CLI, VS Code's agent,
// Copilot CLI) into a [gate.Request], decides it with [gate.Decide], records
// the verdict and answers in that agent's own hook format (SPEC §8). It also edits each agent's settings file
// to install or remove the hook ([Install], [Uninstall]).
//
// Every path fails closed: empty, oversized or malformed input, a missing
// command or an unknown agent is denied with a reason and recorded; nothing
// here panics, prints or exits.
//
// It imports gate and effects only: the caller (cmd/command-safety) loads the
// settings and opens the decision log, and hands them in through [Config].
package hooks
