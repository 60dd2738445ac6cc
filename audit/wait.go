package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultWaitEvery is how often [Log.WaitResolved] reads a row's status when
// the caller gives no interval. A status read is one indexed lookup (≈ 20 µs),
// so five a second cost nothing and release a held command well within the
// second that SPEC §10 promises.
const DefaultWaitEvery = 200 * time.Millisecond

// WaitResolved waits until row id is no longer waiting ([Status.Waiting]) and returns it
// as it then stands: approved or rejected with its reviewer, or auto (a row
// that never was a prompt returns at once). It reads the row's status every
// every (≤ 0: [DefaultWaitEvery]); whoever resolves it — another process, the
// review page, VS Code — is seen at the next read. Polling is the whole
// mechanism: it needs no notification from the writer, survives WAL
// checkpoints and works on every filesystem SQLite does.
//
// When ctx ends first it returns the row as last read (still pending) and an
// error wrapping ctx.Err(). An unknown id fails with [ErrNotFound].
func (l *Log) WaitResolved(ctx context.Context, id int64, every time.Duration) (Entry, error) {
	if every <= 0 {
		every = DefaultWaitEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		st, err := l.status(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return l.lastRead(id, ctx.Err())
			}
			return Entry{}, fmt.Errorf("wait for entry %d: %w", id, err)
		}
		if !st.Waiting() {
			e, err := l.Get(ctx, id)
			if err != nil {
				return Entry{}, fmt.Errorf("wait for entry %d: %w", id, err)
			}
			return e, nil
		}
		select {
		case <-ctx.Done():
			return l.lastRead(id, ctx.Err())
		case <-t.C:
		}
	}
}

// lastRead returns row id for a wait that ended with cause.
func (l *Log) lastRead(id int64, cause error) (Entry, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opWait)
	defer cancel()
	e, _ := l.Get(ctx, id)
	return e, fmt.Errorf("wait for entry %d: %w", id, cause)
}

// status reads the status of row id.
func (l *Log) status(ctx context.Context, id int64) (Status, error) {
	var s string
	err := retry(ctx, func() error {
		return l.db.QueryRowContext(ctx, `SELECT status FROM verdicts WHERE id = ?`, id).Scan(&s)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return Status(s), err
}

// holdPrefix starts the note of a row that a process is holding for.
const holdPrefix = "held: a process waits for a reviewer until "

// HoldNote is the note [Log.Hold] sets on a row while a process waits for it
// (until is when the wait times out; pid and host name the waiting process,
// so that a later process can tell a hold whose holder was killed). Readers
// (the review page, VS Code) tell held rows from prompts nobody waits for
// with [HeldUntil].
func HoldNote(until time.Time, pid int, host string) string {
	return fmt.Sprintf("%s%s (pid %d on %s)", holdPrefix, until.UTC().Format(time.RFC3339), pid, host)
}

// HeldUntil reports whether note is a [HoldNote] and until when the process
// waits. A pending row with such a note in the future has somebody waiting
// on its answer; other pending rows were prompts answered at the agent.
func HeldUntil(note string) (time.Time, bool) {
	until, _, _, ok := parseHoldNote(note)
	return until, ok
}

// parseHoldNote reads a [HoldNote]; pid is 0 for a note without a holder
// (written before holders were recorded).
func parseHoldNote(note string) (until time.Time, pid int, host string, ok bool) {
	rest, ok := strings.CutPrefix(note, holdPrefix)
	if !ok {
		return time.Time{}, 0, "", false
	}
	stamp, holder, _ := strings.Cut(rest, " ")
	t, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return time.Time{}, 0, "", false
	}
	if p, h, found := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(holder, "(pid "), ")"), " on "); found {
		pid, _ = strconv.Atoi(p)
		host = h
	}
	return t, pid, host, true
}

// orphanGrace is how long past its timeout a hold may stay pending before
// any process resolves it: its holder resolves it itself at the timeout.
const orphanGrace = time.Minute

// ReleaseOrphanedHolds resolves the held rows whose holder is gone: on this
// host a process that no longer runs, or any hold still pending a minute
// after its timeout. A hook killed with SIGKILL (or a machine that lost
// power) cannot resolve its own row, which would otherwise stay on the
// review page for ever, waiting for an approval nobody waits for. Such rows
// are rejected by [ReviewerGone] with a note that says what is known: the
// hook was stopped, and its agent may have run the command. [Open] calls it;
// it returns how many rows it resolved.
func (l *Log) ReleaseOrphanedHolds(ctx context.Context) (int, error) {
	var held []struct {
		id   int64
		note string
	}
	err := retry(ctx, func() error {
		held = held[:0]
		rows, err := l.db.QueryContext(ctx, `SELECT id, coalesce(note, '') FROM verdicts AS v WHERE v.status = 'held' AND `+promptRows)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var h struct {
				id   int64
				note string
			}
			if err := rows.Scan(&h.id, &h.note); err != nil {
				return err
			}
			held = append(held, h)
		}
		return rows.Err()
	})
	if err != nil {
		return 0, fmt.Errorf("release orphaned holds: %w", err)
	}
	host, _ := os.Hostname()
	n := 0
	for _, h := range held {
		until, pid, holderHost, ok := parseHoldNote(h.note)
		if !ok {
			continue
		}
		gone := time.Now().After(until.Add(orphanGrace)) ||
			(pid > 0 && pid != os.Getpid() && holderHost == host && !processAlive(pid))
		if !gone {
			continue
		}
		err := l.Resolve(ctx, h.id, StatusRejected, ReviewerGone)
		var se *StateError
		switch {
		case errors.As(err, &se):
			continue // resolved meanwhile: theirs stands
		case err != nil:
			return n, fmt.Errorf("release orphaned holds: %w", err)
		}
		if err := l.Annotate(ctx, h.id, "the process holding it ended before anybody answered (it was killed); its agent may have run the command"); err != nil {
			return n, fmt.Errorf("release orphaned holds: %w", err)
		}
		n++
	}
	return n, nil
}

// Reviewers recorded by [Log.Hold] when no human answered.
const (
	ReviewerTimeout   = "hold-timeout"   // the hold's time ran out
	ReviewerCancelled = "hold-cancelled" // the waiting process was stopped (its agent gave up); the command may have run
	ReviewerGone      = "hold-gone"      // the waiting process ended without resolving ([Log.ReleaseOrphanedHolds])
)

// HoldResult is how a hold ended.
type HoldResult struct {
	Entry   Entry         // the row as it stands at the end
	Timeout time.Duration // the hold's timeout, for messages
	// TimedOut is true when nobody answered within the timeout and the
	// hold rejected the row itself (reviewer [ReviewerTimeout]).
	TimedOut bool
	// Cancelled is true when ctx ended before the timeout and the hold
	// rejected the row itself (reviewer [ReviewerCancelled]).
	Cancelled bool
}

// Approved reports whether a human approved the row: the only outcome on
// which a held command may run.
func (r HoldResult) Approved() bool { return r.Entry.Status == StatusApproved }

// Hold waits up to timeout for a human to resolve the pending row id (a
// hook in hold mode, SPEC §10), reading its status every every (≤ 0:
// [DefaultWaitEvery]). While it waits the row's note is a [HoldNote].
//
// When nobody answers in time, or ctx ends first (the waiting process is
// being stopped), Hold resolves the row itself as rejected, reviewer
// [ReviewerTimeout] or [ReviewerCancelled], with a note saying why. The row
// therefore never stays pending after its command was denied: the review page
// stops listing it, and a late Approve fails with the row's state (HTTP 409)
// instead of approving a command that will never run. Should a human resolve
// the row in the instant between, the status moves only once and their answer
// is the one returned: the log and the hook's answer always agree.
//
// An error means the row could not be read or written; the caller denies.
func (l *Log) Hold(ctx context.Context, id int64, timeout, every time.Duration) (HoldResult, error) {
	host, _ := os.Hostname()
	if err := l.Annotate(ctx, id, HoldNote(time.Now().Add(timeout), os.Getpid(), host)); err != nil {
		return HoldResult{}, fmt.Errorf("hold entry %d: %w", id, err)
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	e, err := l.WaitResolved(wctx, id, every)
	if err == nil {
		return HoldResult{Entry: e, Timeout: timeout}, nil
	}
	if wctx.Err() == nil {
		return HoldResult{Entry: e, Timeout: timeout}, err
	}
	res := HoldResult{Timeout: timeout, TimedOut: ctx.Err() == nil}
	res.Cancelled = !res.TimedOut
	who, note := ReviewerTimeout, fmt.Sprintf("nobody answered within %s; the held command was denied", timeout)
	if res.Cancelled {
		// The hook was stopped, by its agent (at the agent's time limit for
		// hooks, or because the user interrupted it) or by a signal. What
		// the agent then did is not known here: some run the tool when a
		// hook is stopped, so this must never read as "denied".
		who, note = ReviewerCancelled, "the agent stopped the hook before anybody answered; the command may have run"
	}
	// Write the outcome even though ctx has ended: the process is still
	// running, and a bounded write keeps the log and the answer in step.
	octx, ocancel := context.WithTimeout(context.WithoutCancel(ctx), 2*opWait)
	defer ocancel()
	rerr := l.Resolve(octx, id, StatusRejected, who)
	var se *StateError
	switch {
	case rerr == nil:
		if aerr := l.Annotate(octx, id, note); aerr != nil {
			rerr = aerr
		}
	case errors.As(rerr, &se):
		// Somebody answered first: theirs stands.
		res.TimedOut, res.Cancelled, rerr = false, false, nil
	}
	got, gerr := l.Get(octx, id)
	if gerr != nil {
		return res, errors.Join(rerr, gerr)
	}
	res.Entry = got
	return res, rerr
}
