// Package audit owns the decision log (SPEC §7): every verdict — allowed,
// prompted or refused — as one row of a SQLite database, prompts resolved by
// a human, queries over the log, and suggestions for what to trust next.
//
// It imports gate, effects and modernc.org/sqlite only (a pure-Go driver, so
// the binary cross-compiles without cgo). It never prints and never exits.
//
// # The database
//
// One file, by default [DefaultPath]: WAL mode, so readers never block the
// writer and several processes (serve, check, the hook adapters) append at
// once. A writer waits for another's lock at most [LockWait] to open the log
// and as much for each append, then fails ([Record] turns an allow into a
// prompt): a process that holds the lock for ever stalls no verdict for
// longer. Appends of one process that are ready together share one
// transaction and one fsync (group commit, [Log.Append]). Other operations
// (resolve, queries) wait up to 5 s. The schema version is `PRAGMA user_version`;
// [Open] migrates an older file forward and refuses a newer one.
//
// Table `verdicts` holds one row per verdict. Its verdict columns are
// immutable for every connection, the `sqlite3` shell included: triggers
// abort an UPDATE of them, any DELETE, an INSERT (OR REPLACE) over an
// existing id, and an insert whose id is not above every earlier row's (ids
// only grow, so the newest row is max(id)). `status` is `auto` for allow and refuse; a prompt's says who
// waits on it (`held`, `asked` or `advisory`) and moves once from there to
// `approved` or `rejected`, together with
// `reviewer` and `reviewed_at` ([Log.Resolve]); `note` may be set at any time
// ([Log.Annotate]). Table `verdict_effects` indexes the effect classes of each
// verdict for the `--effect` filter and is append-only the same way.
//
// Whoever can write the file can drop the triggers; the triggers guard against
// mistakes and careless tools, and the file itself is a rule-store path that
// the gate refuses to let agents touch (SPEC §5.6).
//
// # Opening the log in any SQLite tool
//
// The file is plain SQLite 3 (WAL mode: keep the -wal file beside it):
//
//	sqlite3 ~/.local/state/ml-ai/decisions.db \
//	  "SELECT id, time, decision, status, agent, rule, command FROM verdicts ORDER BY id DESC LIMIT 20"
//
// Columns of `verdicts` (times are UTC text, 2026-11-30T08:03:14.123456Z):
//
//	id                      the log id; `command-safety log resolve ID` names it
//	time                    when the verdict was decided
//	request_id              the caller's id for the request, "" when it gave none
//	command                 the exact command text
//	cwd                     the directory it was to run in ("" unknown)
//	workspaces              JSON array of the workspace roots
//	agent, mode             whose budget applied (agent "default" when unnamed), and the mode
//	session                 which writer logged it (a serve process, a hook run)
//	decision                allow, prompt or refuse
//	effects                 JSON array of the parts: {effect, text, span, program, reason, rule, decision}
//	classes                 the parts' effect classes, each once, comma-separated (read,network)
//	decided_by              the text of the part that decided
//	rule                    the budget effect or the SPEC §5 rule id that decided
//	reason                  one human sentence naming the offending part
//	classification_enabled  1, or 0 when ml-ai.commandSafety was false
//	micros                  time spent classifying, in microseconds
//	classifier_version      gate.ClassifierVersion of the classifier and table
//	status                  auto (allow, refuse); held, asked or advisory, then approved or rejected (prompts)
//	reviewer, reviewed_at   who resolved a prompt, and when
//	note                    free text added later (`command-safety log note`)
//
// Table `verdict_effects` (effect, verdict_id) lists each verdict's effect
// classes once.
//
// # Callers
//
// Writers call [Record], never [Log.Append] directly: when the log cannot be
// written it turns an allow into a prompt (SPEC §7, issue 4), so nothing runs
// unattended without a record.
package audit
