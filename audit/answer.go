package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Answer is what an agent's own post-execution hook tells the log about a
// prompt it asked its user (SPEC §7, issue 16): the command ran (the user
// approved it) or, at the end of a turn or session, that it did not.
type Answer struct {
	Agent   string // the agent whose hook reports
	Session string // the agent's session (conversation) id
	// CallID is the agent's id of the tool call (Claude Code's and Codex's
	// tool_use_id), recorded as the row's request id when it was decided;
	// "" when the agent has none.
	CallID  string
	Command string // the exact command text the agent ran
	// Reviewer names who answered: the agent and its user.
	Reviewer string
	// Since bounds matching without a call id: rows older are not
	// considered.
	Since time.Time
}

// Ran records that the command of an asked prompt ran: its row is approved
// by a.Reviewer with a note that says so. The row is found by a.CallID when
// the agent gives one, else as the newest asked row of the same agent,
// session and exact command since a.Since; a row whose command differs from
// a.Command is never matched. It returns the row's id, or 0 and no error
// when no asked row matches (the command was allowed, or already answered).
func (l *Log) Ran(ctx context.Context, a Answer) (int64, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	q := `SELECT id FROM verdicts AS v WHERE v.status = 'asked' AND ` + promptRows + ` AND agent = ? AND session = ? AND command = ?`
	args := []any{a.Agent, a.Session, a.Command}
	if a.CallID != "" {
		q += ` AND request_id = ?`
		args = append(args, a.CallID)
	} else {
		q += ` AND time >= ?`
		args = append(args, formatTime(a.Since))
	}
	q += ` ORDER BY id DESC LIMIT 1`
	var id int64
	err := retry(ctx, func() error { return l.db.QueryRowContext(ctx, q, args...).Scan(&id) })
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("match the agent's answer: %w", err)
	}
	how := "the agent's post-execution hook reported that the command ran (by its call id)"
	if a.CallID == "" {
		how = "the agent's post-execution hook reported that the command ran (matched by session, command text and time)"
	}
	return id, l.answer(ctx, id, StatusApproved, a.Reviewer, how)
}

// NotRun records that the asked prompts of a.Agent's session a.Session that
// are still waiting did not run: the agent's turn or session ended (its Stop
// or SessionEnd hook) without a post-execution report for them, so its user
// did not approve them. Each is rejected by a.Reviewer with a note that says
// how this was inferred (why, e.g. "its Stop hook ran"). It returns the ids.
func (l *Log) NotRun(ctx context.Context, a Answer, why string) ([]int64, error) {
	l.catchUp(ctx) // the hooks' verdicts first
	var ids []int64
	err := retry(ctx, func() error {
		ids = ids[:0]
		rows, err := l.db.QueryContext(ctx, `SELECT id FROM verdicts AS v WHERE v.status = 'asked' AND `+promptRows+` AND agent = ? AND session = ? ORDER BY id`,
			a.Agent, a.Session)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("match the agent's session end: %w", err)
	}
	var done []int64
	for _, id := range ids {
		if err := l.answer(ctx, id, StatusRejected, a.Reviewer, "inferred: the command did not run before "+why); err != nil {
			return done, err
		}
		done = append(done, id)
	}
	return done, nil
}

// answer resolves id and notes how the answer was learnt; a row someone
// else resolved meanwhile keeps their answer.
func (l *Log) answer(ctx context.Context, id int64, st Status, reviewer, note string) error {
	err := l.Resolve(ctx, id, st, reviewer)
	var se *StateError
	if errors.As(err, &se) {
		return nil
	}
	if err != nil {
		return err
	}
	return l.Annotate(ctx, id, note)
}
