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
// once; each connection waits for a busy lock ([busyTimeout]) and [Log.Append]
// retries on SQLITE_BUSY besides. The schema version is `PRAGMA user_version`;
// [Open] migrates an older file forward and refuses a newer one.
//
// Table `verdicts` holds one row per verdict. Its verdict columns are
// immutable for every connection, the `sqlite3` shell included: triggers
// abort an UPDATE of them, any DELETE, and an INSERT (OR REPLACE) over an
// existing id. `status` is `auto` for allow and refuse, `pending` for prompt,
// and moves once from `pending` to `approved` or `rejected`, together with
// `reviewer` and `reviewed_at` ([Log.Resolve]); `note` may be set at any time
// ([Log.Annotate]). Table `verdict_effects` indexes the effect classes of each
// verdict for the `--effect` filter and is append-only the same way.
//
// Whoever can write the file can drop the triggers; the triggers guard against
// mistakes and careless tools, and the file itself is a rule-store path that
// the gate refuses to let agents touch (SPEC §5.6).
//
// # Callers
//
// Writers call [Record], never [Log.Append] directly: when the log cannot be
// written it turns an allow into a prompt (SPEC §7, issue 4), so nothing runs
// unattended without a record.
package audit
