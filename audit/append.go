package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/journal"
)

// Status is where a logged verdict stands with its human reviewer.
type Status string

// The statuses of a row (SPEC §7). A prompt starts in one of the waiting
// statuses, which say who is waiting on it, and moves once to
// [StatusApproved] or [StatusRejected]; allow and refuse rows stay auto.
const (
	StatusAuto     Status = "auto"     // allow and refuse: nobody needs to review
	StatusHeld     Status = "held"     // a hook in hold mode waits for a release
	StatusAsked    Status = "asked"    // the agent asks its own user
	StatusAdvisory Status = "advisory" // nobody will answer (check in a terminal)
	StatusApproved Status = "approved" // a prompt a human approved (or that ran)
	StatusRejected Status = "rejected" // a prompt a human rejected (or that did not run)
)

// StatusPending is not stored: as a [Filter] status it selects every
// waiting row (held, asked or advisory), the prompts nobody has resolved.
const StatusPending Status = "pending"

// Statuses lists every stored status.
var Statuses = []Status{StatusAuto, StatusHeld, StatusAsked, StatusAdvisory, StatusApproved, StatusRejected}

// Waiting reports whether s is a prompt nobody has resolved yet.
func (s Status) Waiting() bool {
	return s == StatusHeld || s == StatusAsked || s == StatusAdvisory || s == StatusPending
}

// ParseStatus returns the status spelled s; "pending" is [StatusPending].
func ParseStatus(s string) (Status, error) {
	for _, st := range append(Statuses, StatusPending) {
		if string(st) == s {
			return st, nil
		}
	}
	return "", fmt.Errorf("unknown status %q (want auto, held, asked, advisory, pending, approved or rejected)", s)
}

// timeFormat is how times are stored: fixed width, so text order is time
// order, and readable by SQLite's date functions.
const timeFormat = journal.TimeFormat

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

// Append writes v as a new row and returns its id. session names the writer
// (a serve process, a hook invocation); it may be empty. A prompt's row gets
// the status waiting ([StatusHeld], [StatusAsked] or [StatusAdvisory]: who
// waits on it); other rows are [StatusAuto] whatever waiting says. v.LogID
// is ignored.
//
// When Append returns nil the row is on disk: the connection runs with
// `synchronous=FULL`, so the WAL is fsynced at every commit. With NORMAL a
// commit survives the process being killed (SIGKILL) but not a power cut or
// OS crash, and the log must not lose a verdict it reported as logged: an
// allowed command has run by then, and its files survive the crash.
//
// Group commit: appends of one [Log] that are ready together share one
// transaction and its one fsync (issue 17 point 3). An Append that finds no
// commit under way commits at once, in its own goroutine (a lone append
// waits for nothing but its own commit); rows that arrive meanwhile queue,
// and when that commit is done the first of them commits them all. Under
// load each fsync so carries every row that is ready: eight writers at once
// append several times faster than one, where each used to take the write
// lock in turn (and, at eight, some waited past [LockWait]). A row that
// fails (a constraint) fails alone: the batch is then committed row by row.
// A commit that fails fails the rows of its batch, none of which is then on
// disk.
//
// Several processes may append at once: each waits for the write lock, at
// most about [LockWait] per verdict, then fails. Once its row is queued,
// Append waits for the commit whatever ctx does (the row may already be on
// disk); a ctx that ends before the row's transaction starts keeps it out.
func (l *Log) Append(ctx context.Context, v gate.Verdict, session string, waiting Status) (int64, error) {
	row, err := newRow(v, session, waiting)
	if err != nil {
		return 0, fmt.Errorf("append to decision log: %w", err)
	}
	req := &appendReq{ctx: ctx, row: row, queued: time.Now(), done: make(chan appendResult, 1)}
	var id int64
	lead, err := l.enqueue(req)
	if err == nil {
		res := appendResult{lead: lead}
		if !lead {
			res = <-req.done
		}
		for res.lead {
			l.lead()
			res = <-req.done
		}
		id, err = res.id, res.err
	}
	if err != nil {
		return 0, fmt.Errorf("append to decision log: %w", err)
	}
	return id, nil
}

// appendReq is one row waiting to be committed.
type appendReq struct {
	ctx    context.Context
	row    row
	queued time.Time
	done   chan appendResult // buffered: whoever answers never blocks on it
}

// appendResult answers an [appendReq]: its row's id or why it failed, or
// (lead) that its goroutine is to commit the queue now.
type appendResult struct {
	id   int64
	err  error
	lead bool
}

// maxBatch bounds the rows of one transaction.
const maxBatch = 256

// errClosed is the error of an append after [Log.Close] or [Log.Leave].
var errClosed = errors.New("the decision log is closed")

// enqueue queues req and reports whether its caller leads: no commit was
// under way, so the caller commits the queue now ([Log.lead]); otherwise it
// waits on req.done for its result, or for the lead.
func (l *Log) enqueue(req *appendReq) (lead bool, err error) {
	l.qmu.Lock()
	defer l.qmu.Unlock()
	if l.qclosed || l.qidle == nil {
		return false, errClosed
	}
	l.queue = append(l.queue, req)
	if l.committing {
		return false, nil
	}
	l.committing = true
	return true, nil
}

// lead commits the queue, up to maxBatch rows at a time in one transaction,
// then hands the lead to the first row queued meanwhile (or, with none,
// ends the commit under way).
//
// Should the commit panic (a bug: serve recovers from panics and goes on),
// the rows of the batch not yet answered fail and the lead still passes on,
// so that no later append waits for ever on a leader that is gone.
func (l *Log) lead() {
	l.qmu.Lock()
	n := min(len(l.queue), maxBatch)
	batch := l.queue[:n:n]
	l.queue = l.queue[n:]
	l.qmu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			for _, r := range batch {
				select {
				case r.done <- appendResult{err: fmt.Errorf("append panicked: %v", p)}:
				default: // answered already
				}
			}
			l.passLead()
			panic(p)
		}
		l.passLead()
	}()
	l.commit(batch)
}

// passLead hands the lead to the first row queued, or ends the commit under
// way when none is.
func (l *Log) passLead() {
	l.qmu.Lock()
	defer l.qmu.Unlock()
	if len(l.queue) == 0 {
		l.queue = nil
		l.committing = false
		l.qidle.Broadcast()
		return
	}
	l.queue[0].done <- appendResult{lead: true}
}

// stopCommitter makes further appends fail and waits for the rows queued
// so far to be committed.
func (l *Log) stopCommitter() {
	l.qmu.Lock()
	defer l.qmu.Unlock()
	l.qclosed = true
	for l.committing && l.qidle != nil {
		l.qidle.Wait()
	}
}

// commit writes batch in one transaction and answers each request. Should
// a row fail for any reason but a lock (a constraint: rows built by newRow
// do not), the transaction is rolled back and each row is committed on its
// own, so that it fails alone.
func (l *Log) commit(batch []*appendReq) {
	live := batch[:0:0]
	for _, r := range batch {
		if err := r.ctx.Err(); err != nil {
			r.done <- appendResult{err: err} // not written
			continue
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return
	}
	res := make([]appendResult, len(live))
	var rowErr error
	// The hooks' journal goes in first, in the same transaction: ids keep
	// following the order verdicts were answered in.
	// So do serve's rings ([Log.UseRing]).
	var jb *journal.Batch
	ringsDone := func(bool) {}
	err := l.transaction(live[0].queued, func(tx *sql.Tx) error {
		_ = jb.Done(false) // an earlier try's
		jb = nil
		ringsDone(false)
		ringsDone = func(bool) {}
		if l.journal != "" && journal.Pending(l.journal) {
			var err error
			if jb, _, err = l.ingestTx(context.Background(), tx); err != nil {
				return err
			}
		}
		if l.ringsPending(context.Background(), tx) {
			var err error
			if _, ringsDone, err = l.ingestRingsTx(context.Background(), tx); err != nil {
				return err
			}
		}
		for i, r := range live {
			id, err := l.insert(context.Background(), tx, r.row)
			if err != nil {
				if !isBusy(err) && len(live) > 1 {
					rowErr = err
				}
				return err
			}
			res[i].id = id
		}
		return nil
	})
	_ = jb.Done(err == nil && rowErr == nil)
	ringsDone(err == nil && rowErr == nil)
	if rowErr != nil {
		for _, r := range live {
			l.commit([]*appendReq{r})
		}
		return
	}
	for i, r := range live {
		if err != nil {
			res[i] = appendResult{err: err}
		}
		r.done <- res[i]
	}
}

// transaction runs f in a write transaction and commits it, trying again
// while the log is locked, until about LockWait after since (when the
// oldest row of the batch was queued: each verdict waits for the lock at
// most about that long in all).
func (l *Log) transaction(since time.Time, f func(tx *sql.Tx) error) error {
	ctx := context.Background()
	err := retryFor(ctx, max(LockWait-time.Since(since), busyTimeout), func() error {
		tx, err := l.db.BeginTx(ctx, nil) // IMMEDIATE (see dsn)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := f(tx); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err == nil {
		l.commits.Add(1)
	}
	return err
}

// row is a verdict encoded for the table ([journal.NewRow]: hooks write
// the same rows to the journal, which [Log.Ingest] inserts).
type row = journal.Row

func newRow(v gate.Verdict, session string, waiting Status) (row, error) {
	return journal.NewRow(v, session, string(waiting))
}

// storedCommand is [journal.StoredCommand].
func storedCommand(c string) string { return journal.StoredCommand(c) }

const (
	insertVerdictSQL = `INSERT INTO verdicts (time, request_id, command, cwd, workspaces,
		agent, mode, session, decision, effects, classes, decided_by, rule, reason, classification_enabled,
		micros, classifier_version, status, shell) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	insertEffectSQL = `INSERT INTO verdict_effects (effect, verdict_id) VALUES (?, ?)`
)

// execer runs one statement: a transaction, a database, or a prepared
// statement's text bound to one of them (see [Log.insert]).
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func rowArgs(r row) []any {
	return []any{r.Time, r.RequestID, r.Command, r.Cwd, r.Workspaces, r.Agent, r.Mode, r.Session, r.Decision,
		r.Effects, strings.Join(r.Classes, ","), r.DecidedBy, r.Rule, r.Reason, r.Enabled, r.Micros,
		r.ClassifierVersion, r.Status, r.Shell}
}

// insertRow writes r with ex (tests and bulk loads use it directly).
func insertRow(ctx context.Context, ex execer, r row) (int64, error) {
	return insertWith(r,
		func(args ...any) (sql.Result, error) { return ex.ExecContext(ctx, insertVerdictSQL, args...) },
		func(args ...any) (sql.Result, error) { return ex.ExecContext(ctx, insertEffectSQL, args...) })
}

func insertWith(r row, verdict, effect func(args ...any) (sql.Result, error)) (int64, error) {
	res, err := verdict(rowArgs(r)...)
	if err != nil {
		return 0, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	for _, c := range r.Classes {
		if _, err := effect(c, id); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// insert writes the row in tx with the log's prepared statements.
func (l *Log) insert(ctx context.Context, tx *sql.Tx, r row) (int64, error) {
	v, e := tx.StmtContext(ctx, l.insertVerdict), tx.StmtContext(ctx, l.insertEffect)
	return insertWith(r,
		func(args ...any) (sql.Result, error) { return v.ExecContext(ctx, args...) },
		func(args ...any) (sql.Result, error) { return e.ExecContext(ctx, args...) })
}

// ErrUnavailable is wrapped by the errors of [Record] when the decision log
// cannot be written.
var ErrUnavailable = errors.New("the decision log is unavailable")

// Record appends v to l and returns v with its LogID (and ID, when the caller
// gave none) set. Every writer (serve, check, hooks) records through it so
// that all apply the same rule (SPEC §7, issue 4): when the log cannot be
// written — l is nil because it could not be opened, or Append fails — the
// verdict is still returned, with the error (wrapping [ErrUnavailable]) for the
// caller to report, and an allow becomes a prompt ([Downgrade]): nothing runs
// unattended without a record.
func Record(ctx context.Context, l *Log, v gate.Verdict, session string, waiting Status) (gate.Verdict, error) {
	if l == nil {
		err := fmt.Errorf("%w: it is not open", ErrUnavailable)
		return Downgrade(v, err), err
	}
	if l.ring != nil && ringWorthy(v) {
		// On record once the ring is; a full or failed ring leaves the
		// verdict to the log itself, below, unless the log is what kept the
		// ring full.
		rv, err := l.recordRing(v, session)
		if err == nil {
			return rv, nil
		}
		if errors.Is(err, errRingBlocked) || errors.Is(err, errRingUncertain) {
			err = fmt.Errorf("%w: %w", ErrUnavailable, err)
			return Downgrade(v, err), err
		}
	}
	id, err := l.Append(ctx, v, session, waiting)
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrUnavailable, err)
		return Downgrade(v, err), err
	}
	v.LogID = id
	if v.ID == "" {
		v.ID = strconv.FormatInt(id, 10)
	}
	return v, nil
}

// Downgrade returns v as it stands when the decision log could not be
// written, err saying why ([gate.Unrecorded]: an allow becomes a prompt and
// its reason says so; prompt and refuse are unchanged).
func Downgrade(v gate.Verdict, err error) gate.Verdict {
	msg := ErrUnavailable.Error()
	if err != nil {
		msg = err.Error()
		if !errors.Is(err, ErrUnavailable) {
			msg = ErrUnavailable.Error() + ": " + msg
		}
	}
	return gate.Unrecorded(v, msg)
}
