package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrNotPending is wrapped by the [*StateError] of [Log.Resolve] for a row
// that is not pending.
var ErrNotPending = errors.New("not pending")

// StateError says why a row cannot be resolved: it is not pending.
type StateError struct {
	ID         int64
	Status     Status
	Reviewer   string
	ReviewedAt time.Time
}

func (e *StateError) Error() string {
	switch e.Status {
	case StatusAuto:
		return fmt.Sprintf("entry %d is not pending: it was decided without a prompt (status auto)", e.ID)
	case StatusApproved, StatusRejected:
		return fmt.Sprintf("entry %d is not pending: it was already %s by %s at %s", e.ID, e.Status,
			e.Reviewer, e.ReviewedAt.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("entry %d is not pending: its status is %s", e.ID, e.Status)
}

// Unwrap makes errors.Is(err, [ErrNotPending]) hold.
func (e *StateError) Unwrap() error { return ErrNotPending }

// Resolve records a human's answer to the pending prompt id: outcome is
// [StatusApproved] or [StatusRejected], reviewer names who answered (not
// empty). The status moves once: resolving a row that is not pending fails
// with a [*StateError] that says what state it is in, and an unknown id with
// [ErrNotFound].
func (l *Log) Resolve(ctx context.Context, id int64, outcome Status, reviewer string) error {
	if outcome != StatusApproved && outcome != StatusRejected {
		return fmt.Errorf("resolve entry %d: outcome must be approved or rejected, not %q", id, outcome)
	}
	if strings.TrimSpace(reviewer) == "" {
		return fmt.Errorf("resolve entry %d: the reviewer is empty", id)
	}
	now := formatTime(time.Now())
	var n int64
	err := retry(ctx, func() error {
		res, err := l.db.ExecContext(ctx, `UPDATE verdicts SET status = ?, reviewer = ?, reviewed_at = ?
			WHERE id = ? AND status IN ('held', 'asked', 'advisory')`, string(outcome), reviewer, now, id)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("resolve entry %d: %w", id, err)
	}
	if n == 1 {
		return nil
	}
	return l.stateError(ctx, id)
}

// stateError reports why id could not be resolved.
func (l *Log) stateError(ctx context.Context, id int64) error {
	var status string
	var reviewer, reviewedAt sql.NullString
	err := retry(ctx, func() error {
		return l.db.QueryRowContext(ctx, `SELECT status, reviewer, reviewed_at FROM verdicts WHERE id = ?`, id).
			Scan(&status, &reviewer, &reviewedAt)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("resolve entry %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("resolve entry %d: %w", id, err)
	}
	se := &StateError{ID: id, Status: Status(status), Reviewer: reviewer.String}
	se.ReviewedAt, _ = time.Parse(timeFormat, reviewedAt.String)
	return se
}

// Annotate sets the note of row id (replacing an earlier note). Notes are the
// one thing anyone may change on any row.
func (l *Log) Annotate(ctx context.Context, id int64, note string) error {
	var n int64
	err := retry(ctx, func() error {
		res, err := l.db.ExecContext(ctx, `UPDATE verdicts SET note = ? WHERE id = ?`, note, id)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("annotate entry %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("annotate entry %d: %w", id, ErrNotFound)
	}
	return nil
}
