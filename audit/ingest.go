package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/ml-ai/command-safety/journal"
)

// Ingest moves the verdicts hooks wrote to the journal beside the log
// (package journal), and those serve wrote to its rings ([Log.UseRing]),
// into the log, and returns how many rows it inserted.
// [Open] ingests, every append commits what the journal holds with its own
// rows, and the reads that other processes' verdicts matter to
// ([Log.Query], [Log.After], [Log.Get], [Log.Ran], [Log.NotRun], stats,
// suggestions) ingest first, so the log shows every verdict a hook
// answered. Ingest is idempotent: the journal's generation and the offset
// read to are committed with the rows, and the journal is emptied only
// after that commit.
//
// A journal that is missing or empty costs one stat. Records that are torn
// (a crash of the machine mid-write: never answered) are skipped.
func (l *Log) Ingest(ctx context.Context) (int, error) {
	if l.journal == "" {
		return 0, nil
	}
	n := 0
	err := retryFor(ctx, LockWait, func() error {
		n = 0
		// A look first, without the log's lock.
		hooks, rings := journal.Pending(l.journal), l.ringsPending(ctx, l.db)
		if !hooks && !rings {
			return nil
		}
		tx, err := l.db.BeginTx(ctx, nil) // IMMEDIATE: the write lock before the journal's
		if err != nil {
			return err
		}
		defer tx.Rollback()
		var b *journal.Batch
		var ids []int64
		if hooks {
			if b, ids, err = l.ingestTx(ctx, tx); err != nil {
				_ = b.Done(false)
				return err
			}
		}
		rn, ringsDone := 0, func(bool) {}
		if rings {
			if rn, ringsDone, err = l.ingestRingsTx(ctx, tx); err != nil {
				_ = b.Done(false)
				ringsDone(false)
				return err
			}
		}
		err = tx.Commit()
		// Committed: if emptying the journal fails, the next ingest skips
		// what this one took.
		_ = b.Done(err == nil)
		ringsDone(err == nil)
		if err != nil {
			return err
		}
		n = len(ids) + rn
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("ingest the hooks' journal %s and serve's rings: %w", l.journal, err)
	}
	return n, nil
}

// ingestTx inserts in tx the journal's records that no committed ingest
// took, with the journal's new state. The journal stays locked (appends
// wait) until the caller calls Done on the batch, after its commit; a nil
// batch means there was nothing to ingest.
func (l *Log) ingestTx(ctx context.Context, tx *sql.Tx) (*journal.Batch, []int64, error) {
	var gen string
	var end int64
	err := tx.QueryRowContext(ctx, `SELECT gen, end_offset FROM journal_ingest WHERE id = 1`).Scan(&gen, &end)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, err
	}
	b, err := journal.Take(l.journal, gen, end)
	if b == nil || err != nil {
		return nil, nil, err
	}
	var ids []int64
	now := formatTime(time.Now())
	for _, e := range b.Entries {
		id, err := l.insert(ctx, tx, e.Record.Row)
		if err != nil {
			if isBusy(err) {
				return b, nil, err
			}
			// A record no row can be made of (it passed its checksum, so
			// it was written so): skipping it is all an ingest can do, and
			// failing would keep every later verdict out of the log.
			continue
		}
		ids = append(ids, id)
		if e.Record.RejectedBy != "" {
			if _, err := tx.ExecContext(ctx, `UPDATE verdicts SET status = 'rejected', reviewer = ?, reviewed_at = ?
				WHERE id = ? AND status IN ('held', 'asked', 'advisory')`, e.Record.RejectedBy, now, id); err != nil {
				return b, nil, err
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO journal_ingest (id, gen, end_offset) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET gen = excluded.gen, end_offset = excluded.end_offset`, b.Gen, b.Size); err != nil {
		return b, nil, err
	}
	return b, ids, nil
}

// catchUp ingests the journal before a read (see [Log.Ingest]). A failure
// leaves the read to what the log holds: the next writer ingests.
func (l *Log) catchUp(ctx context.Context) {
	_, _ = l.Ingest(ctx)
}
