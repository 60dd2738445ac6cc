package audit

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// Entry is one row of the decision log: the verdict as logged, and where its
// review stands. Its JSON is the verdict's (SPEC §7) plus the fields below.
type Entry struct {
	gate.Verdict
	Session           string    `json:"session,omitempty"`
	ClassifierVersion string    `json:"classifierVersion"`
	Status            Status    `json:"status"`
	Reviewer          string    `json:"reviewer,omitempty"`
	ReviewedAt        time.Time `json:"reviewedAt,omitzero"`
	Note              string    `json:"note,omitempty"`
}

// Filter selects rows of the log. Zero fields select everything; set fields
// must all match.
type Filter struct {
	Since    time.Time         // time >= Since
	Decision *effects.Decision // nil: any
	Agent    string            // exact agent name
	Status   Status            // exact status; StatusPending: any waiting one
	Effect   *effects.Class    // some part of the command has this effect
	Grep     string            // the command contains this text (case-insensitive for ASCII)
	Limit    int               // at most this many rows; 0 is no limit
}

// ErrNotFound is returned for an id that is not in the log.
var ErrNotFound = errors.New("no such decision log entry")

const columns = `v.id, v.time, v.request_id, v.command, v.cwd, v.workspaces, v.agent, v.mode,
	v.session, v.decision, v.effects, v.decided_by, v.rule, v.reason, v.classification_enabled,
	v.micros, v.classifier_version, v.status, v.reviewer, v.reviewed_at, v.note, v.shell`

// from builds the FROM clause (over `verdicts AS v`) and the WHERE clause
// (empty or starting with " WHERE") of f, their arguments, and the column
// that orders rows by id (g.id when walking the grep index).
//
// Since also bounds the id: no row with time >= Since has an id below the
// smallest id of such rows, so the bound is exact, and it lets every other
// index start at that id instead of the beginning of the log.
//
// Grep is a substring match that no B-tree can seek. With Grep, the rows are
// walked newest first through the narrow verdicts_id_command index (see
// schemaV2), each match joined to its row for the other conditions, so a
// common text stops after Limit matches and an absent one reads only the
// commands, not the table's fat rows.
func (f Filter) from() (from, where string, args []any, order string) {
	var conds []string
	from, order = " FROM verdicts AS v", "v.id"
	if f.Grep != "" {
		order = "g.id"
		from = " FROM verdicts AS g INDEXED BY verdicts_id_command CROSS JOIN verdicts AS v ON v.id = g.id"
		conds = append(conds, `g.command LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscape(f.Grep)+"%")
	}
	if !f.Since.IsZero() {
		since := formatTime(f.Since)
		conds = append(conds, "v.time >= ?", "v.id >= (SELECT min(id) FROM verdicts INDEXED BY verdicts_time WHERE time >= ?)")
		args = append(args, since, since)
		if f.Grep != "" {
			conds = append(conds, "g.id >= (SELECT min(id) FROM verdicts INDEXED BY verdicts_time WHERE time >= ?)")
			args = append(args, since)
		}
	}
	if f.Decision != nil {
		conds = append(conds, "v.decision = ?")
		args = append(args, f.Decision.String())
	}
	if f.Agent != "" {
		conds = append(conds, "v.agent = ?")
		args = append(args, f.Agent)
	}
	// A prompt's status is in the partial index verdicts_prompts, which
	// SQLite uses only when the query names its condition (schemaV5).
	switch f.Status {
	case "":
	case StatusPending:
		conds = append(conds, "v.status IN ('held', 'asked', 'advisory')", promptRows)
	case StatusAuto:
		conds = append(conds, "v.status = 'auto'")
	default:
		conds = append(conds, "v.status = ?", promptRows)
		args = append(args, string(f.Status))
	}
	if f.Effect != nil {
		conds = append(conds, "EXISTS (SELECT 1 FROM verdict_effects e WHERE e.effect = ? AND e.verdict_id = v.id)")
		args = append(args, f.Effect.String())
	}
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	return from, where, args, order
}

// promptRows is the condition of the partial index verdicts_prompts: a
// query on a status other than auto adds it (the rows it selects are
// prompts anyway) so that SQLite may read that index.
const promptRows = "v.decision = 'prompt'"

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Query returns the rows that match f, newest first.
func (l *Log) Query(ctx context.Context, f Filter) ([]Entry, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	from, where, args, order := f.from()
	q := "SELECT " + columns + from + where + " ORDER BY " + order + " DESC"
	if f.Limit > 0 {
		q += " LIMIT " + strconv.Itoa(f.Limit)
	}
	es, err := l.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("query decision log: %w", err)
	}
	return es, nil
}

// After returns up to limit rows (0: no limit) whose id is greater than id,
// oldest first: a watcher tails the log, whoever wrote it, by passing the last
// id it has seen.
func (l *Log) After(ctx context.Context, id int64, limit int) ([]Entry, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	q := "SELECT " + columns + " FROM verdicts AS v WHERE v.id > ? ORDER BY v.id"
	if limit > 0 {
		q += " LIMIT " + strconv.Itoa(limit)
	}
	es, err := l.query(ctx, q, id)
	if err != nil {
		return nil, fmt.Errorf("read decision log after %d: %w", id, err)
	}
	return es, nil
}

// Get returns the row with id, or an error wrapping [ErrNotFound].
func (l *Log) Get(ctx context.Context, id int64) (Entry, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	es, err := l.query(ctx, "SELECT "+columns+" FROM verdicts AS v WHERE v.id = ?", id)
	if err != nil {
		return Entry{}, fmt.Errorf("read decision log entry %d: %w", id, err)
	}
	if len(es) == 0 {
		return Entry{}, fmt.Errorf("entry %d: %w", id, ErrNotFound)
	}
	return es[0], nil
}

func (l *Log) query(ctx context.Context, q string, args ...any) ([]Entry, error) {
	var out []Entry
	err := retry(ctx, func() error {
		out = nil
		rows, err := l.db.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			e, err := scanEntry(rows)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	return out, err
}

func scanEntry(rows *sql.Rows) (Entry, error) {
	var (
		e                                                Entry
		tm, ws, decision, effs, decidedBy, status, shell string
		enabled                                          int
		reviewer, reviewedAt, note                       sql.NullString
	)
	v := &e.Verdict
	if err := rows.Scan(&v.LogID, &tm, &v.ID, &v.Command, &v.Cwd, &ws, &v.Agent, &v.Mode, &e.Session,
		&decision, &effs, &decidedBy, &v.Rule, &v.Reason, &enabled, &v.Micros, &e.ClassifierVersion,
		&status, &reviewer, &reviewedAt, &note, &shell); err != nil {
		return Entry{}, err
	}
	var err error
	if v.Time, err = time.Parse(timeFormat, tm); err != nil {
		return Entry{}, fmt.Errorf("entry %d: bad time %q", v.LogID, tm)
	}
	if v.ID == "" {
		v.ID = strconv.FormatInt(v.LogID, 10)
	}
	if err := json.Unmarshal([]byte(ws), &v.Workspaces); err != nil {
		return Entry{}, fmt.Errorf("entry %d: bad workspaces: %w", v.LogID, err)
	}
	if err := json.Unmarshal([]byte(effs), &v.Effects); err != nil {
		return Entry{}, fmt.Errorf("entry %d: bad effects: %w", v.LogID, err)
	}
	if v.Decision, err = effects.ParseDecision(decision); err != nil {
		return Entry{}, fmt.Errorf("entry %d: %w", v.LogID, err)
	}
	v.ClassificationEnabled = enabled != 0
	if v.Shell, err = gate.ParseShell(shell); err != nil { // '' (before schema v6) reads as unknown
		return Entry{}, fmt.Errorf("entry %d: %w", v.LogID, err)
	}
	v.DecidedBy = decider(v.Effects, decidedBy, v.Decision)
	e.Status = Status(status)
	e.Reviewer = reviewer.String
	e.Note = note.String
	if reviewedAt.Valid && reviewedAt.String != "" {
		if e.ReviewedAt, err = time.Parse(timeFormat, reviewedAt.String); err != nil {
			return Entry{}, fmt.Errorf("entry %d: bad reviewed_at %q", v.LogID, reviewedAt.String)
		}
	}
	return e, nil
}

// decider finds the part that decided among effs: the first with the logged
// text and the verdict's decision, else the first with the text.
func decider(effs []gate.Effect, text string, d effects.Decision) *gate.Effect {
	if text == "" {
		return nil
	}
	var found *gate.Effect
	for i := range effs {
		if effs[i].Text != text {
			continue
		}
		if effs[i].Outcome == d {
			e := effs[i]
			return &e
		}
		if found == nil {
			e := effs[i]
			found = &e
		}
	}
	return found
}
