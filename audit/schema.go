package audit

// schemaV1 creates the decision log. Column meanings are in README.md; the
// short version is beside each column.
//
// Immutability holds for every connection, the sqlite3 shell included:
//   - verdicts_no_replace is a BEFORE INSERT trigger that aborts when the id
//     exists. It fires before conflict resolution, so `INSERT OR REPLACE`
//     cannot delete and re-insert a row (a DELETE trigger would not fire for
//     the implicit delete, and `PRAGMA recursive_triggers` is per connection).
//   - verdicts_no_delete aborts every DELETE.
//   - verdicts_immutable aborts an UPDATE that changes a verdict column.
//   - verdicts_status lets status, reviewer and reviewed_at change only
//     together, once, from pending to approved or rejected.
//
// verdict_effects indexes each verdict's effect classes for the `--effect`
// filter. Its rows can only be added with their verdict (the newest row) and
// never changed or deleted.
const schemaV1 = `
CREATE TABLE verdicts (
	id                     INTEGER PRIMARY KEY AUTOINCREMENT, -- the log id (ids are never reused)
	time                   TEXT    NOT NULL,  -- UTC, 2026-11-30T08:03:14.123456Z (sorts as text)
	request_id             TEXT    NOT NULL DEFAULT '', -- the caller's id, when it gave one
	command                TEXT    NOT NULL,  -- the exact command text
	cwd                    TEXT    NOT NULL,  -- "" when unknown
	workspaces             TEXT    NOT NULL,  -- JSON array of workspace roots
	agent                  TEXT    NOT NULL,  -- copilot, claude-code, default, ...
	mode                   TEXT    NOT NULL,  -- "", plan, autopilot, ...
	session                TEXT    NOT NULL DEFAULT '', -- which process or conversation wrote it
	decision               TEXT    NOT NULL CHECK (decision IN ('allow', 'prompt', 'refuse')),
	effects                TEXT    NOT NULL,  -- JSON: [{effect,text,span,program,reason,rule,decision}]
	decided_by             TEXT    NOT NULL,  -- text of the part that decided; "" when none
	rule                   TEXT    NOT NULL,  -- budget effect or SPEC §5 rule id
	reason                 TEXT    NOT NULL,  -- one human sentence
	classification_enabled INTEGER NOT NULL CHECK (classification_enabled IN (0, 1)),
	micros                 INTEGER NOT NULL,  -- time spent classifying
	classifier_version     TEXT    NOT NULL,
	status                 TEXT    NOT NULL CHECK (status IN ('auto', 'pending', 'approved', 'rejected')),
	reviewer               TEXT,              -- who resolved a prompt
	reviewed_at            TEXT,              -- when, same format as time
	note                   TEXT,              -- free text, may be set later
	CHECK ((decision = 'prompt') = (status <> 'auto'))
);

CREATE INDEX verdicts_time     ON verdicts (time);
CREATE INDEX verdicts_decision ON verdicts (decision);
CREATE INDEX verdicts_agent    ON verdicts (agent);
CREATE INDEX verdicts_status   ON verdicts (status);

CREATE TABLE verdict_effects (
	effect     TEXT    NOT NULL, -- wire spelling: read, network, ...
	verdict_id INTEGER NOT NULL REFERENCES verdicts (id),
	PRIMARY KEY (effect, verdict_id)
) WITHOUT ROWID;

CREATE TRIGGER verdicts_no_replace BEFORE INSERT ON verdicts
WHEN EXISTS (SELECT 1 FROM verdicts WHERE id = NEW.id)
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: cannot replace an existing row');
END;

CREATE TRIGGER verdicts_new_state BEFORE INSERT ON verdicts
WHEN NEW.status NOT IN ('auto', 'pending') OR NEW.reviewer IS NOT NULL OR NEW.reviewed_at IS NOT NULL
BEGIN
	SELECT RAISE(ABORT, 'a new decision log row is auto or pending, without reviewer');
END;

CREATE TRIGGER verdicts_no_delete BEFORE DELETE ON verdicts
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: cannot delete');
END;

CREATE TRIGGER verdicts_immutable BEFORE UPDATE ON verdicts
WHEN NEW.id IS NOT OLD.id OR NEW.time IS NOT OLD.time OR NEW.request_id IS NOT OLD.request_id
	OR NEW.command IS NOT OLD.command OR NEW.cwd IS NOT OLD.cwd
	OR NEW.workspaces IS NOT OLD.workspaces OR NEW.agent IS NOT OLD.agent
	OR NEW.mode IS NOT OLD.mode OR NEW.session IS NOT OLD.session
	OR NEW.decision IS NOT OLD.decision OR NEW.effects IS NOT OLD.effects
	OR NEW.decided_by IS NOT OLD.decided_by OR NEW.rule IS NOT OLD.rule
	OR NEW.reason IS NOT OLD.reason
	OR NEW.classification_enabled IS NOT OLD.classification_enabled
	OR NEW.micros IS NOT OLD.micros OR NEW.classifier_version IS NOT OLD.classifier_version
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: only status, reviewer, reviewed_at and note may change');
END;

CREATE TRIGGER verdicts_status BEFORE UPDATE ON verdicts
WHEN (NEW.status IS NOT OLD.status OR NEW.reviewer IS NOT OLD.reviewer OR NEW.reviewed_at IS NOT OLD.reviewed_at)
	AND NOT (OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
		AND coalesce(NEW.reviewer, '') <> '' AND coalesce(NEW.reviewed_at, '') <> '')
BEGIN
	SELECT RAISE(ABORT, 'status moves once from pending to approved or rejected, with reviewer and reviewed_at');
END;

CREATE TRIGGER verdict_effects_append BEFORE INSERT ON verdict_effects
WHEN NEW.verdict_id IS NOT (SELECT max(id) FROM verdicts)
	OR EXISTS (SELECT 1 FROM verdict_effects WHERE effect = NEW.effect AND verdict_id = NEW.verdict_id)
BEGIN
	SELECT RAISE(ABORT, 'verdict effects are immutable: they are written with their verdict');
END;

CREATE TRIGGER verdict_effects_no_update BEFORE UPDATE ON verdict_effects
BEGIN
	SELECT RAISE(ABORT, 'verdict effects are immutable');
END;

CREATE TRIGGER verdict_effects_no_delete BEFORE DELETE ON verdict_effects
BEGIN
	SELECT RAISE(ABORT, 'verdict effects are immutable');
END;
`

// schemaV2 indexes the command text in id order. `--grep` is a substring
// match that no B-tree can seek, but walking this index newest first reads
// only ids and commands (about a tenth of the table's bytes, whose rows carry
// the effects JSON), which keeps a grep over a million rows well under a
// second (see Filter.from).
const schemaV2 = `
CREATE INDEX verdicts_id_command ON verdicts (id, command);
`

// schemaV3 serves Log.Stats: verdict_effects_by_verdict lets counting the
// effects of the rows a filter selects look each row's effects up instead of
// scanning the whole table, and verdicts_rule lets the unfiltered counts read
// one narrow index per column (decision, agent, status and rule) instead of
// the whole table.
const schemaV3 = `
CREATE INDEX verdict_effects_by_verdict ON verdict_effects (verdict_id, effect);
CREATE INDEX verdicts_rule ON verdicts (rule);
`

// schemaV4 says who waits on a prompt (SPEC §7): `held` (a hook in hold mode
// waits for a release: the only rows the review page offers to approve),
// `asked` (the agent asks its own user) or `advisory` (nobody will answer:
// `check` in a terminal). They replace `pending`. SQLite cannot change a
// CHECK constraint in place, so the table is rebuilt: every row is copied
// with its id (AUTOINCREMENT's sequence stays at the highest id), a pending
// row becoming held when a hold note says a process waited on it, advisory
// when `check` wrote it (no session), else asked; the indexes and triggers
// are made again, the status trigger allowing exactly the new transitions
// (each waiting status moves once to approved or rejected). DROP TABLE's
// implicit delete fires no trigger; the immutability triggers are dropped
// first all the same and exist again when the transaction commits, so no
// other connection ever sees the table without them.
const schemaV4 = `
DROP TRIGGER verdicts_no_replace;
DROP TRIGGER verdicts_new_state;
DROP TRIGGER verdicts_no_delete;
DROP TRIGGER verdicts_immutable;
DROP TRIGGER verdicts_status;
DROP TRIGGER verdict_effects_append;

CREATE TABLE verdicts_v4 (
	id                     INTEGER PRIMARY KEY AUTOINCREMENT, -- the log id (ids are never reused)
	time                   TEXT    NOT NULL,  -- UTC, 2026-11-30T08:03:14.123456Z (sorts as text)
	request_id             TEXT    NOT NULL DEFAULT '', -- the caller's id, when it gave one
	command                TEXT    NOT NULL,  -- the exact command text (a prefix, past the size limit)
	cwd                    TEXT    NOT NULL,  -- "" when unknown
	workspaces             TEXT    NOT NULL,  -- JSON array of workspace roots
	agent                  TEXT    NOT NULL,  -- copilot, claude-code, default, ...
	mode                   TEXT    NOT NULL,  -- "", plan, autopilot, ...
	session                TEXT    NOT NULL DEFAULT '', -- which process or conversation wrote it
	decision               TEXT    NOT NULL CHECK (decision IN ('allow', 'prompt', 'refuse')),
	effects                TEXT    NOT NULL,  -- JSON: [{effect,text,span,program,reason,rule,decision}]
	decided_by             TEXT    NOT NULL,  -- text of the part that decided; "" when none
	rule                   TEXT    NOT NULL,  -- budget effect or SPEC §5 rule id
	reason                 TEXT    NOT NULL,  -- one human sentence
	classification_enabled INTEGER NOT NULL CHECK (classification_enabled IN (0, 1)),
	micros                 INTEGER NOT NULL,  -- time spent classifying
	classifier_version     TEXT    NOT NULL,
	status                 TEXT    NOT NULL CHECK (status IN ('auto', 'held', 'asked', 'advisory', 'approved', 'rejected')),
	reviewer               TEXT,              -- who resolved a prompt
	reviewed_at            TEXT,              -- when, same format as time
	note                   TEXT,              -- free text, may be set later
	CHECK ((decision = 'prompt') = (status <> 'auto'))
);

INSERT INTO verdicts_v4 SELECT id, time, request_id, command, cwd, workspaces, agent, mode, session,
	decision, effects, decided_by, rule, reason, classification_enabled, micros, classifier_version,
	CASE WHEN status <> 'pending' THEN status
	     WHEN note LIKE 'held: %' THEN 'held'
	     WHEN session = '' THEN 'advisory'
	     ELSE 'asked' END,
	reviewer, reviewed_at, note
FROM verdicts ORDER BY id;

DROP TABLE verdicts;
ALTER TABLE verdicts_v4 RENAME TO verdicts;

CREATE INDEX verdicts_time        ON verdicts (time);
CREATE INDEX verdicts_decision    ON verdicts (decision);
CREATE INDEX verdicts_agent       ON verdicts (agent);
CREATE INDEX verdicts_status      ON verdicts (status);
CREATE INDEX verdicts_id_command  ON verdicts (id, command);
CREATE INDEX verdicts_rule        ON verdicts (rule);

CREATE TRIGGER verdicts_no_replace BEFORE INSERT ON verdicts
WHEN EXISTS (SELECT 1 FROM verdicts WHERE id = NEW.id)
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: cannot replace an existing row');
END;

CREATE TRIGGER verdicts_new_state BEFORE INSERT ON verdicts
WHEN NEW.status NOT IN ('auto', 'held', 'asked', 'advisory') OR NEW.reviewer IS NOT NULL OR NEW.reviewed_at IS NOT NULL
BEGIN
	SELECT RAISE(ABORT, 'a new decision log row is auto, held, asked or advisory, without reviewer');
END;

CREATE TRIGGER verdicts_no_delete BEFORE DELETE ON verdicts
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: cannot delete');
END;

CREATE TRIGGER verdicts_immutable BEFORE UPDATE ON verdicts
WHEN NEW.id IS NOT OLD.id OR NEW.time IS NOT OLD.time OR NEW.request_id IS NOT OLD.request_id
	OR NEW.command IS NOT OLD.command OR NEW.cwd IS NOT OLD.cwd
	OR NEW.workspaces IS NOT OLD.workspaces OR NEW.agent IS NOT OLD.agent
	OR NEW.mode IS NOT OLD.mode OR NEW.session IS NOT OLD.session
	OR NEW.decision IS NOT OLD.decision OR NEW.effects IS NOT OLD.effects
	OR NEW.decided_by IS NOT OLD.decided_by OR NEW.rule IS NOT OLD.rule
	OR NEW.reason IS NOT OLD.reason
	OR NEW.classification_enabled IS NOT OLD.classification_enabled
	OR NEW.micros IS NOT OLD.micros OR NEW.classifier_version IS NOT OLD.classifier_version
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: only status, reviewer, reviewed_at and note may change');
END;

CREATE TRIGGER verdicts_status BEFORE UPDATE ON verdicts
WHEN (NEW.status IS NOT OLD.status OR NEW.reviewer IS NOT OLD.reviewer OR NEW.reviewed_at IS NOT OLD.reviewed_at)
	AND NOT (OLD.status IN ('held', 'asked', 'advisory') AND NEW.status IN ('approved', 'rejected')
		AND coalesce(NEW.reviewer, '') <> '' AND coalesce(NEW.reviewed_at, '') <> '')
BEGIN
	SELECT RAISE(ABORT, 'status moves once from held, asked or advisory to approved or rejected, with reviewer and reviewed_at');
END;

CREATE TRIGGER verdict_effects_append BEFORE INSERT ON verdict_effects
WHEN NEW.verdict_id IS NOT (SELECT max(id) FROM verdicts)
	OR EXISTS (SELECT 1 FROM verdict_effects WHERE effect = NEW.effect AND verdict_id = NEW.verdict_id)
BEGIN
	SELECT RAISE(ABORT, 'verdict effects are immutable: they are written with their verdict');
END;
`

// schemaV5 makes an append cheaper (issue 17): a verdict wrote eleven pages
// (the row, six indexes, AUTOINCREMENT's sequence and two effect B-trees); it
// now writes six or seven. The table is rebuilt as in [schemaV4], every row
// copied with its id, the triggers dropped first and made again:
//   - id is a plain INTEGER PRIMARY KEY. SQLite gives a new row the highest
//     id plus one; rows are never deleted (verdicts_no_delete), so no id is
//     reused, and verdicts_ids_grow aborts any insert (an explicit id, or
//     the random id SQLite picks once the highest is 2^63-1) whose id is
//     not above every earlier row's, for every connection. So the newest
//     row is the one with max(id), which verdict_effects_append relies on.
//   - classes holds the row's effect classes (read,network: each once, in
//     the order of its parts), so that Log.Stats counts the effects of the
//     rows a filter selects from the rows themselves:
//     verdict_effects_by_verdict is dropped. verdict_effects keeps its
//     (effect, verdict_id) key for the `--effect` filter.
//   - verdicts_status is replaced by verdicts_prompts, a partial index of
//     the prompts' status: allow and refuse rows (auto) write no page to it.
//     Queries on a waiting or resolved status say decision = 'prompt' so
//     that SQLite may use it (the CHECK makes that condition equivalent).
//   - verdicts_time, verdicts_decision, verdicts_agent, verdicts_rule and
//     verdicts_id_command stay: the `log` filters, `log stats` and `--grep`
//     read them.
//   - Lists of allowed values are written as ORs of equalities, not IN
//     (...): SQLite builds a temporary B-tree for an IN list of more than
//     two constants each time a CHECK or trigger evaluates it, once per
//     insert: in verdicts_new_state and the two CHECKs that was a quarter
//     of an append's instructions (callgrind).
const schemaV5 = `
DROP TRIGGER verdicts_no_replace;
DROP TRIGGER verdicts_new_state;
DROP TRIGGER verdicts_no_delete;
DROP TRIGGER verdicts_immutable;
DROP TRIGGER verdicts_status;
DROP TRIGGER verdict_effects_append;

CREATE TABLE verdicts_v5 (
	id                     INTEGER PRIMARY KEY, -- the log id (each above every earlier one; never reused)
	time                   TEXT    NOT NULL,  -- UTC, 2026-11-30T08:03:14.123456Z (sorts as text)
	request_id             TEXT    NOT NULL DEFAULT '', -- the caller's id, when it gave one
	command                TEXT    NOT NULL,  -- the exact command text (a prefix, past the size limit)
	cwd                    TEXT    NOT NULL,  -- "" when unknown
	workspaces             TEXT    NOT NULL,  -- JSON array of workspace roots
	agent                  TEXT    NOT NULL,  -- copilot, claude-code, default, ...
	mode                   TEXT    NOT NULL,  -- "", plan, autopilot, ...
	session                TEXT    NOT NULL DEFAULT '', -- which process or conversation wrote it
	decision               TEXT    NOT NULL CHECK (decision = 'allow' OR decision = 'prompt' OR decision = 'refuse'),
	effects                TEXT    NOT NULL,  -- JSON: [{effect,text,span,program,reason,rule,decision}]
	classes                TEXT    NOT NULL DEFAULT '', -- the parts' effect classes, each once: read,network
	decided_by             TEXT    NOT NULL,  -- text of the part that decided; "" when none
	rule                   TEXT    NOT NULL,  -- budget effect or SPEC §5 rule id
	reason                 TEXT    NOT NULL,  -- one human sentence
	classification_enabled INTEGER NOT NULL CHECK (classification_enabled IN (0, 1)),
	micros                 INTEGER NOT NULL,  -- time spent classifying
	classifier_version     TEXT    NOT NULL,
	status                 TEXT    NOT NULL CHECK (status = 'auto' OR status = 'held' OR status = 'asked' OR status = 'advisory'
	                                            OR status = 'approved' OR status = 'rejected'),
	reviewer               TEXT,              -- who resolved a prompt
	reviewed_at            TEXT,              -- when, same format as time
	note                   TEXT,              -- free text, may be set later
	CHECK ((decision = 'prompt') = (status <> 'auto'))
);

INSERT INTO verdicts_v5 (id, time, request_id, command, cwd, workspaces, agent, mode, session,
	decision, effects, classes, decided_by, rule, reason, classification_enabled, micros,
	classifier_version, status, reviewer, reviewed_at, note)
SELECT id, time, request_id, command, cwd, workspaces, agent, mode, session, decision, effects,
	coalesce((SELECT group_concat(effect, ',') FROM verdict_effects INDEXED BY verdict_effects_by_verdict
		WHERE verdict_id = verdicts.id), ''),
	decided_by, rule, reason, classification_enabled, micros, classifier_version, status, reviewer,
	reviewed_at, note
FROM verdicts ORDER BY id;

DROP TABLE verdicts;
ALTER TABLE verdicts_v5 RENAME TO verdicts;
DROP INDEX verdict_effects_by_verdict;

CREATE INDEX verdicts_time        ON verdicts (time);
CREATE INDEX verdicts_decision    ON verdicts (decision);
CREATE INDEX verdicts_agent       ON verdicts (agent);
CREATE INDEX verdicts_rule        ON verdicts (rule);
CREATE INDEX verdicts_id_command  ON verdicts (id, command);
CREATE INDEX verdicts_prompts     ON verdicts (status) WHERE decision = 'prompt';

CREATE TRIGGER verdicts_no_replace BEFORE INSERT ON verdicts
WHEN EXISTS (SELECT 1 FROM verdicts WHERE id = NEW.id)
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: cannot replace an existing row');
END;

CREATE TRIGGER verdicts_new_state BEFORE INSERT ON verdicts
WHEN NOT (NEW.status = 'auto' OR NEW.status = 'held' OR NEW.status = 'asked' OR NEW.status = 'advisory')
	OR NEW.reviewer IS NOT NULL OR NEW.reviewed_at IS NOT NULL
BEGIN
	SELECT RAISE(ABORT, 'a new decision log row is auto, held, asked or advisory, without reviewer');
END;

CREATE TRIGGER verdicts_ids_grow AFTER INSERT ON verdicts
WHEN EXISTS (SELECT 1 FROM verdicts WHERE id > NEW.id)
BEGIN
	SELECT RAISE(ABORT, 'decision log ids only grow: a new row''s id is above every earlier row''s');
END;

CREATE TRIGGER verdicts_no_delete BEFORE DELETE ON verdicts
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: cannot delete');
END;

CREATE TRIGGER verdicts_immutable BEFORE UPDATE ON verdicts
WHEN NEW.id IS NOT OLD.id OR NEW.time IS NOT OLD.time OR NEW.request_id IS NOT OLD.request_id
	OR NEW.command IS NOT OLD.command OR NEW.cwd IS NOT OLD.cwd
	OR NEW.workspaces IS NOT OLD.workspaces OR NEW.agent IS NOT OLD.agent
	OR NEW.mode IS NOT OLD.mode OR NEW.session IS NOT OLD.session
	OR NEW.decision IS NOT OLD.decision OR NEW.effects IS NOT OLD.effects
	OR NEW.classes IS NOT OLD.classes
	OR NEW.decided_by IS NOT OLD.decided_by OR NEW.rule IS NOT OLD.rule
	OR NEW.reason IS NOT OLD.reason
	OR NEW.classification_enabled IS NOT OLD.classification_enabled
	OR NEW.micros IS NOT OLD.micros OR NEW.classifier_version IS NOT OLD.classifier_version
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: only status, reviewer, reviewed_at and note may change');
END;

CREATE TRIGGER verdicts_status BEFORE UPDATE ON verdicts
WHEN (NEW.status IS NOT OLD.status OR NEW.reviewer IS NOT OLD.reviewer OR NEW.reviewed_at IS NOT OLD.reviewed_at)
	AND NOT ((OLD.status = 'held' OR OLD.status = 'asked' OR OLD.status = 'advisory')
		AND (NEW.status = 'approved' OR NEW.status = 'rejected')
		AND coalesce(NEW.reviewer, '') <> '' AND coalesce(NEW.reviewed_at, '') <> '')
BEGIN
	SELECT RAISE(ABORT, 'status moves once from held, asked or advisory to approved or rejected, with reviewer and reviewed_at');
END;

CREATE TRIGGER verdict_effects_append BEFORE INSERT ON verdict_effects
WHEN NEW.verdict_id IS NOT (SELECT max(id) FROM verdicts)
	OR EXISTS (SELECT 1 FROM verdict_effects WHERE effect = NEW.effect AND verdict_id = NEW.verdict_id)
BEGIN
	SELECT RAISE(ABORT, 'verdict effects are immutable: they are written with their verdict');
END;
`

// schemaV6 records the shell dialect each verdict was classified in (SPEC §7,
// issue 15): bash, zsh, sh or unknown; ” for rows written before it. The
// column is a verdict column, immutable like the others: the immutability
// trigger is made again with it.
const schemaV6 = `
ALTER TABLE verdicts ADD COLUMN shell TEXT NOT NULL DEFAULT '';

DROP TRIGGER verdicts_immutable;
CREATE TRIGGER verdicts_immutable BEFORE UPDATE ON verdicts
WHEN NEW.id IS NOT OLD.id OR NEW.time IS NOT OLD.time OR NEW.request_id IS NOT OLD.request_id
	OR NEW.command IS NOT OLD.command OR NEW.cwd IS NOT OLD.cwd
	OR NEW.workspaces IS NOT OLD.workspaces OR NEW.agent IS NOT OLD.agent
	OR NEW.mode IS NOT OLD.mode OR NEW.session IS NOT OLD.session
	OR NEW.decision IS NOT OLD.decision OR NEW.effects IS NOT OLD.effects
	OR NEW.classes IS NOT OLD.classes
	OR NEW.decided_by IS NOT OLD.decided_by OR NEW.rule IS NOT OLD.rule
	OR NEW.reason IS NOT OLD.reason
	OR NEW.classification_enabled IS NOT OLD.classification_enabled
	OR NEW.micros IS NOT OLD.micros OR NEW.classifier_version IS NOT OLD.classifier_version
	OR NEW.shell IS NOT OLD.shell
BEGIN
	SELECT RAISE(ABORT, 'decision log rows are immutable: only status, reviewer, reviewed_at and note may change');
END;
`

// schemaV7 keeps where the last ingest of the hooks' journal ended (package
// journal): the journal's generation and the offset it was read to, in the
// transaction that inserts its rows, so a crash before the journal is
// emptied ingests nothing twice. One row at most.
const schemaV7 = `
CREATE TABLE journal_ingest (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	gen TEXT NOT NULL,
	end_offset INTEGER NOT NULL
);
`

// schemaV8 keeps, for each of serve's rings (package journal: [journal.Ring]),
// the sequence number of the last frame the log holds, in the transaction
// that inserts its rows, so no frame is taken twice whoever ingests it
// (serve itself, or any reader catching up). A ring's row goes once the
// ring's file is gone.
const schemaV8 = `
CREATE TABLE ring_ingest (
	ring TEXT PRIMARY KEY,
	seq  INTEGER NOT NULL
) WITHOUT ROWID;
`
