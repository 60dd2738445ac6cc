package agents

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// agent is one CLI under test: how to configure it for the loopback model,
// run one turn, and read its hook settings. The facts are in
// ../shared/notes/agents.md and were checked against the pinned versions.
type agent struct {
	name string // for messages
	hook string // command-safety's adapter: `hook install <hook>`, `hook <hook>`
	bin  string // in node_modules/.bin
	// call is the model's tool call that runs cmd in the CLI's shell tool.
	call func(cmd string) toolCall
	// dirArg, when the shell tool takes one, is its argument for the
	// directory the command runs in (Codex: workdir).
	dirArg string
	// configure writes the CLI's own settings into the sandbox.
	configure func(s *sandbox)
	// env is the CLI's extra environment (the model server's URL, keys,
	// switches that keep it offline).
	env func(s *sandbox) []string
	// args is the command line of one non-interactive turn.
	args func(s *sandbox, prompt string) []string
	// settings is the project file `hook install <hook> --project` writes.
	settings func(s *sandbox) string
	// gate is the hook event our gating entry goes under (install also
	// adds report entries under the agent's post-tool and end events).
	gate string
	// limit describes the agent's own time limit for a hook entry.
	limit hookLimit
	// pendingAdapter, when set, says where the agent's hook adapter is
	// being written: until the binary has it, the cases that need it skip.
	pendingAdapter string
	// askHangs: in a headless turn the agent turns ask into a
	// confirmation nobody can give, and waits for ever (Gemini CLI -p).
	askHangs bool
	// captureDeny is what the capture hook prints to block a tool call in
	// this agent's own format (exit 0).
	captureDeny string
	// isDeny reads the hook's answer: is it a block?
	isDeny func(stdout string, code int) bool
	// isAllow reads the hook's answer: does it let the tool run without asking?
	isAllow func(stdout string, code int) bool
}

// hookLimit is an agent's per-hook time limit: the entry's key, its unit
// and the agent's default when the key is missing.
type hookLimit struct {
	key  string
	unit time.Duration
	def  time.Duration
}

var agents = []*agent{claudeCode, geminiCLI, codex, copilotCLI}

// --- Claude Code (@anthropic-ai/claude-code 2.1.332)

var claudeCode = &agent{
	name: "Claude Code", hook: "claude-code", bin: "claude",
	gate: "PreToolUse",
	call: func(cmd string) toolCall {
		return toolCall{Name: "Bash", Args: map[string]any{"command": cmd, "description": "e2e test command"}}
	},
	configure: func(s *sandbox) {},
	env: func(s *sandbox) []string {
		return []string{
			"ANTHROPIC_BASE_URL=" + s.srv.URL(),
			"ANTHROPIC_API_KEY=e2e-not-a-key",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
			"CLAUDE_CODE_TMPDIR=" + s.tmp,
			// Interactive sessions also fetch the official plugin marketplace
			// (github.com, downloads.claude.ai) unless this is set.
			"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
		}
	},
	args: func(s *sandbox, prompt string) []string {
		return []string{"-p", prompt, "--output-format", "json", "--max-turns", "4"}
	},
	settings: func(s *sandbox) string { return filepath.Join(s.proj, ".claude", "settings.json") },
	// https://code.claude.com/docs/en/hooks: "timeout" in seconds, default 600.
	limit:       hookLimit{key: "timeout", unit: time.Second, def: 600 * time.Second},
	captureDeny: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"e2e capture hook: blocked"}}`,
	isDeny:      func(out string, code int) bool { return claudeDecision(out) == "deny" || code == 2 },
	isAllow:     func(out string, code int) bool { return code == 0 && claudeDecision(out) == "allow" },
}

// claudeDecision reads hookSpecificOutput.permissionDecision.
func claudeDecision(out string) string {
	var v struct {
		HookSpecificOutput struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(out), &v) != nil {
		return ""
	}
	return v.HookSpecificOutput.PermissionDecision
}

// --- Gemini CLI (@google/gemini-cli 0.61.0)

var geminiCLI = &agent{
	name: "Gemini CLI", hook: "gemini-cli", bin: "gemini",
	gate: "BeforeTool",
	call: func(cmd string) toolCall {
		return toolCall{Name: "run_shell_command", Args: map[string]any{"command": cmd, "description": "e2e test command"}}
	},
	configure: func(s *sandbox) {
		writeFile(s.t, filepath.Join(s.home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
  "telemetry": {"enabled": false}
}
`)
	},
	env: func(s *sandbox) []string {
		return []string{
			"GOOGLE_GEMINI_BASE_URL=" + s.srv.URL(),
			"GEMINI_API_KEY=e2e-not-a-key",
			"GEMINI_CLI_TRUST_WORKSPACE=true",
		}
	},
	args: func(s *sandbox, prompt string) []string {
		// In -p the shell tool is offered only with yolo or --allowed-tools;
		// yolo is the worst case: nothing but the hook stands in the way.
		return []string{"-p", prompt, "--approval-mode", "yolo"}
	},
	settings: func(s *sandbox) string { return filepath.Join(s.proj, ".gemini", "settings.json") },
	// https://geminicli.com/docs/hooks/reference: "timeout" in milliseconds, default 60000.
	limit:       hookLimit{key: "timeout", unit: time.Millisecond, def: 60 * time.Second},
	askHangs:    true,
	captureDeny: `{"decision":"deny","reason":"e2e capture hook: blocked"}`,
	isDeny:      func(out string, code int) bool { return geminiDecision(out) == "deny" || code == 2 },
	isAllow: func(out string, code int) bool {
		d := geminiDecision(out)
		return code == 0 && (d == "allow" || d == "approve")
	},
}

func geminiDecision(out string) string {
	var v struct {
		Decision string `json:"decision"`
	}
	if json.Unmarshal([]byte(out), &v) != nil {
		return ""
	}
	return v.Decision
}

// --- Codex CLI (@openai/codex 0.171.0)
//
// Seen with hand-written hooks: payload permission_mode is
// "bypassPermissions" in `exec -s workspace-write`, and cwd is the tool
// call's workdir when the model gives one; deny blocks ("Command blocked by
// PreToolUse hook: <reason>. Command: <cmd>"); exit 0 with nothing printed
// runs; a hook that exits 1 or outlives its "timeout" (seconds) is ignored
// and the tool RUNS. The default limit without a "timeout" was not measured;
// 600 s is assumed, as for Claude Code.

var codex = &agent{
	name: "Codex", hook: "codex", bin: "codex",
	gate: "PreToolUse",
	call: func(cmd string) toolCall {
		return toolCall{Name: "exec_command", Args: map[string]any{"cmd": cmd}}
	},
	dirArg: "workdir",
	configure: func(s *sandbox) {
		writeFile(s.t, filepath.Join(s.codexHome(), "config.toml"), fmt.Sprintf(`# e2e: the scripted model on loopback, nothing else
model = "gpt-5.1-codex"
model_provider = "e2e"
check_for_update_on_startup = false

[model_providers.e2e]
name = "e2e"
base_url = "%s/v1"
wire_api = "responses"
env_key = "E2E_OPENAI_KEY"

[analytics]
enabled = false

[features]
plugins = false
remote_plugin = false
plugin_sharing = false
apps = false

[projects.%q]
trust_level = "trusted"
`, s.srv.URL(), s.proj))
	},
	env: func(s *sandbox) []string {
		return []string{"CODEX_HOME=" + s.codexHome(), "E2E_OPENAI_KEY=e2e-not-a-key"}
	},
	args: func(s *sandbox, prompt string) []string {
		return []string{"exec", "--skip-git-repo-check", "--json", "-s", "workspace-write",
			"--dangerously-bypass-hook-trust", prompt}
	},
	settings: func(s *sandbox) string { return filepath.Join(s.proj, ".codex", "hooks.json") },
	// Codex hook entries: "timeout" in seconds, default 600 (codex-rs hooks).
	limit:       hookLimit{key: "timeout", unit: time.Second, def: 600 * time.Second},
	captureDeny: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"e2e capture hook: blocked"}}`,
	isDeny:      func(out string, code int) bool { return claudeDecision(out) == "deny" || code == 2 },
	// Codex runs the tool on allow only when the hook prints nothing.
	isAllow: func(out string, code int) bool { return code == 0 && strings.TrimSpace(out) == "" },
}

func (s *sandbox) codexHome() string { return filepath.Join(s.root, "codex-home") }

// --- GitHub Copilot CLI (@github/copilot 1.0.102)
//
// Runs offline with BYOK: COPILOT_OFFLINE=true and COPILOT_PROVIDER_BASE_URL
// (`copilot help environment`); no GitHub sign-in. Seen with hand-written
// hooks in .github/hooks/*.json (-p, --allow-all-tools, --trust-folder):
// payload {sessionId, timestamp (ms), cwd, toolName: "bash", toolArgs:
// {command, description}} (toolArgs an object, not a JSON string), env
// COPILOT_PROJECT_DIR, COPILOT_HOOK_DIR and CLAUDE_PROJECT_DIR; deny blocks
// ("Denied by preToolUse hook: <reason>"); ask is denied ("unable to ask user
// for confirmation"); allow runs; exit 1 or 2 denies; a hook that outlives
// timeoutSec (default 30) is dropped and the tool RUNS.

var copilotCLI = &agent{
	name: "Copilot CLI", hook: "copilot-cli", bin: "copilot",
	gate: "preToolUse",
	call: func(cmd string) toolCall {
		return toolCall{Name: "bash", Args: map[string]any{"command": cmd, "description": "e2e test command"}}
	},
	configure: func(s *sandbox) {},
	env: func(s *sandbox) []string {
		// `copilot help environment`: COPILOT_OFFLINE skips all network
		// access (GitHub sign-in, telemetry, MCP, updates) and needs a
		// local provider (BYOK).
		return []string{
			"COPILOT_HOME=" + filepath.Join(s.root, "copilot-home"),
			"COPILOT_OFFLINE=true",
			"COPILOT_AUTO_UPDATE=false",
			"COPILOT_PROVIDER_BASE_URL=" + s.srv.URL() + "/v1",
			"COPILOT_PROVIDER_TYPE=openai",
			"COPILOT_PROVIDER_API_KEY=e2e-not-a-key",
			"COPILOT_MODEL=gpt-4.1",
			"COPILOT_PROVIDER_MAX_PROMPT_TOKENS=100000",
			"COPILOT_PROVIDER_MAX_OUTPUT_TOKENS=4096",
		}
	},
	args: func(s *sandbox, prompt string) []string {
		return []string{"-p", prompt, "--allow-all-tools", "--trust-folder", "--no-auto-update",
			"--disable-builtin-mcps", "--no-ask-user", "--log-dir", filepath.Join(s.root, "copilot-logs")}
	},
	settings: func(s *sandbox) string { return filepath.Join(s.proj, ".github", "hooks", "command-safety.json") },
	// GitHub's hooks reference: "timeoutSec", default 30.
	limit:       hookLimit{key: "timeoutSec", unit: time.Second, def: 30 * time.Second},
	captureDeny: `{"permissionDecision":"deny","permissionDecisionReason":"e2e capture hook: blocked"}`,
	isDeny:      func(out string, code int) bool { return copilotDecision(out) == "deny" || code == 2 },
	// An explicit allow, or no opinion (exit 0, nothing printed), which with
	// --allow-all-tools also runs the tool.
	isAllow: func(out string, code int) bool {
		return code == 0 && (copilotDecision(out) == "allow" || strings.TrimSpace(out) == "")
	},
}

func copilotDecision(out string) string {
	var v struct {
		PermissionDecision string `json:"permissionDecision"`
	}
	if json.Unmarshal([]byte(out), &v) != nil {
		return ""
	}
	return v.PermissionDecision
}
