//go:build tablesrc

package effects

// gateLogFlags are the options of `command-safety log` and its subcommands
// (cmd/command-safety/log.go). Go's flag package takes `-name` and `--name`
// alike, so both are declared, on a SingleDashLong entry. `--log PATH` opens
// (and may create or migrate) a decision log: it is a file written, so
// naming the rule store's own log with it is refused like any other write.
var gateLogFlags = fl(
	arg("-since", "--since", "-decision", "--decision", "-agent", "--agent", "-status", "--status",
		"-effect", "--effect", "-grep", "--grep", "-limit", "--limit", "-min", "--min", "-reviewer", "--reviewer"),
	wpath("-log", "--log"))

// gatePrograms is the gate itself (SPEC §5.6, issue 12 point 5). Its own
// commands that change the permission-rule store are refused when an agent
// runs them, whatever the budget: installing or removing the agents' hooks,
// releasing held prompts (`log resolve`, `review`, `serve`, whose
// commandSafety/resolve does the same over JSON-RPC), annotating the log, and
// the rules. Queries are reads. An unknown subcommand is treated as a
// rule-store change: it may be a verb added after this table was written.
//
// The classifier uses this entry for the bare name and also for any program
// path that resolves to one of the gate's binaries (classifier.Options.Binaries):
// `~/bin/command-safety hook uninstall` is this entry, not an opaque file.
// Subcommands and flags from cmd/command-safety (main.go, check.go, hook.go,
// log.go, review.go, serve.go).
var gatePrograms = []Program{
	{Name: "command-safety", Effects: fx(Read), SingleDashLong: true, Other: fx(SystemChange), OtherRuleStore: true,
		Subcommands: []Program{
			{Name: "check", Effects: fx(Read), SingleDashLong: true,
				Flags: fl(arg("-cwd", "--cwd", "-workspace", "--workspace", "-agent", "--agent", "-mode", "--mode"),
					wpath("-log", "--log")),
				Examples:    ex("command-safety check -- 'git status && rm -rf ~'", "command-safety check --json --cwd src -- rm -rf build", "command-safety check --no-log --jsonl"),
				NotExamples: ex("command-safety check --log /tmp/x.db -- ls")},
			{Name: "help", Effects: fx(Read), Examples: ex("command-safety help")},
			{Name: "hook", Effects: fx(Read), SingleDashLong: true, Other: fx(SystemChange), OtherRuleStore: true,
				Subcommands: []Program{
					rsub("claude-code", "command-safety hook claude-code"),
					rsub("codex", "command-safety hook codex"),
					rsub("copilot-cli", "command-safety hook copilot-cli"),
					rsub("cursor", "command-safety hook cursor --hold"),
					rsub("gemini-cli", "command-safety hook gemini-cli"),
					{Name: "install", Effects: fx(SystemChange), RuleStore: true, SingleDashLong: true,
						Flags: fl(arg("-dir", "--dir", "-binary", "--binary")),
						Why:   "command-safety hook install rewrites an agent's hook settings, which decide whether the gate runs at all",
						Examples: ex("command-safety hook install claude-code --user",
							"command-safety hook install cursor --project --dir ."), NotExamples: ex("command-safety hook cursor --user")},
					{Name: "uninstall", Effects: fx(SystemChange), RuleStore: true, SingleDashLong: true,
						Flags: fl(arg("-dir", "--dir", "-binary", "--binary")),
						Why:   "command-safety hook uninstall removes the gate's hook from an agent's settings, which switches the gate off for that agent",
						Examples: ex("command-safety hook uninstall claude-code --user",
							"command-safety hook uninstall gemini-cli")},
					rsub("vscode", "command-safety hook vscode"),
				},
				Examples: ex("command-safety hook")},
			{Name: "log", Effects: fx(Read), SingleDashLong: true, Flags: gateLogFlags, Other: fx(SystemChange), OtherRuleStore: true,
				Subcommands: []Program{
					// export prints rows (stdout is the caller's to redirect);
					// ship sends them to the team's collector and moves the
					// export mark beside the log: both read the log.
					{Name: "export", Effects: fx(Read), SingleDashLong: true,
						Flags:    append(fl(arg("-until", "--until", "-format", "--format")), gateLogFlags...),
						Examples: ex("command-safety log export --since 24h", "command-safety log export --since 2026-11-01 --until 2026-12-01 --format csv")},
					{Name: "help", Effects: fx(Read), Examples: ex("command-safety log help")},
					{Name: "note", Effects: fx(SystemChange), RuleStore: true, SingleDashLong: true, Flags: gateLogFlags,
						Why:      "command-safety log note writes into the decision log",
						Examples: ex("command-safety log note 42 'looks fine'")},
					{Name: "resolve", Effects: fx(SystemChange), RuleStore: true, SingleDashLong: true, Flags: gateLogFlags,
						Why:      "command-safety log resolve approves or rejects a held prompt in the decision log, which is a human's decision",
						Examples: ex("command-safety log resolve 42 approve --reviewer ada", "command-safety log --json resolve 7 reject")},
					{Name: "ship", Effects: fx(Network), SingleDashLong: true, Flags: gateLogFlags,
						Why:      "command-safety log ship sends the decision log's rows to the OpenTelemetry collector",
						Examples: ex("command-safety log ship")},
					{Name: "stats", Effects: fx(Read), SingleDashLong: true, Flags: gateLogFlags, Examples: ex("command-safety log stats --since 24h")},

					{Name: "suggest", Effects: fx(Read), SingleDashLong: true, Flags: gateLogFlags, Examples: ex("command-safety log suggest --min 5")},
				},
				Examples:    ex("command-safety log --since 12h --decision allow", "command-safety log --status pending --json"),
				NotExamples: ex("command-safety log purge")},
			{Name: "review", Effects: fx(SystemChange), RuleStore: true, SingleDashLong: true,
				Flags:    fl(arg("-listen", "--listen", "-reviewer", "--reviewer"), wpath("-log", "--log")),
				Why:      "command-safety review serves the page that approves or rejects held prompts",
				Examples: ex("command-safety review", "command-safety review --listen 127.0.0.1:0")},
			{Name: "rules", Effects: fx(SystemChange), RuleStore: true, SingleDashLong: true,
				Why:      "command-safety rules changes the rules the gate decides by",
				Examples: ex("command-safety rules add mytool read")},
			{Name: "serve", Effects: fx(SystemChange), RuleStore: true, SingleDashLong: true,
				Flags:    fl(wpath("-log", "--log")),
				Why:      "command-safety serve answers commandSafety/resolve, which releases held prompts",
				Examples: ex("command-safety serve --stdio")},
		},
		Examples:    ex("command-safety", "command-safety -h", "command-safety --help"),
		NotExamples: ex("command-safety uninstall", "command-safety hook uninstall cursor --user")},
}
