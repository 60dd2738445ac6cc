package gate

// Installation is what the permission-rule store (SPEC §5.6) of one
// installation is made of, beyond what the classifier always includes (the
// settings files of each workspace root, `*.code-workspace`, the extension's
// install folders). check, serve and hook gather it in one place
// (cmd/command-safety) and pass it with every [Request], so that the three
// agree on what the store is; gate reads neither the environment nor the
// settings files.
type Installation struct {
	// Binaries are the gate's own executables: the running binary as started
	// and with symlinks resolved. A program that is one of them is the
	// `command-safety` entry of the table.
	Binaries []string
	// UserSettings are every editor's user settings.json (settings.UserFiles),
	// where the budgets and the toggle live.
	UserSettings []string
	// AgentFiles are the agents' user-level hook settings files
	// (hooks.HookFiles), which decide whether the gate runs at all.
	AgentFiles []string
	// Logs are the decision logs in use: the one the flag or the
	// ml-ai.decisionLog setting names, else the platform default.
	Logs []string
	// ManagedPolicy is the administrator's policy file
	// (settings.PolicyFile), which user settings can only tighten.
	ManagedPolicy []string
}

// ExportSuffix names, after a decision log's path, the file where the
// OpenTelemetry export keeps the id of the last row it shipped (package
// telemetry); the same name with ".lock" is its lock. Moving the mark on
// would keep rows from the collector, so both belong to the log.
const ExportSuffix = ".otlp"

// JournalSuffix names, after a decision log's path, the hooks' journal
// (package journal): verdicts a hook has answered that are not yet in the
// log. Changing it changes what the log will say.
const JournalSuffix = ".hooks"

// RingSuffix names, after a decision log's path, the directory of serve's
// rings (package journal): verdicts serve has answered that are not yet in
// the log. Changing them changes what the log will say.
const RingSuffix = ".serve"

// LogFiles are the files of the SQLite database at path: the database and
// the write-ahead log, shared-memory index and rollback journal SQLite keeps
// beside it, and the export's mark and lock ([ExportSuffix]). Writing any of
// them changes the log or what leaves it; so do the hooks' journal
// ([JournalSuffix]) and serve's rings ([RingSuffix], a directory).
func LogFiles(path string) []string {
	if path == "" {
		return nil
	}
	return []string{path, path + "-wal", path + "-shm", path + "-journal", path + JournalSuffix, path + RingSuffix, path + ExportSuffix, path + ExportSuffix + ".lock"}
}

// RuleStore returns every path of the store once, in a stable order:
// binaries, user settings, the managed policy, agent files, then each log
// with [LogFiles].
func (in Installation) RuleStore() []string {
	n := len(in.Binaries) + len(in.UserSettings) + len(in.ManagedPolicy) + len(in.AgentFiles) + 8*len(in.Logs)
	out := make([]string, 0, n)
	seen := make(map[string]bool, n)
	add := func(ps ...string) {
		for _, p := range ps {
			if p != "" && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	add(in.Binaries...)
	add(in.UserSettings...)
	add(in.ManagedPolicy...)
	add(in.AgentFiles...)
	for _, l := range in.Logs {
		add(LogFiles(l)...)
	}
	return out
}
