package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ml-ai/command-safety/journal"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SchemaVersion is the schema version this package writes (`PRAGMA
// user_version`). [Open] migrates older files forward and refuses newer ones.
const SchemaVersion = 8

// LockWait bounds how long [Open] and [Log.Append] each wait for another
// process's lock on the log before they fail (and [Record] turns an allow
// into a prompt). Appends take about a millisecond, so normal contention
// (hooks, check and serve writing at once) waits far less; a lock held for
// longer is a stuck or foreign process (a `sqlite3` shell left in BEGIN),
// and the verdict must not wait for it: before this bound, each verdict
// stalled 30 to 40 s (issue 12 point 3). Opening a log in WAL mode does not
// wait for a writer, so a locked log costs a verdict about LockWait. Two
// seconds, not one: SQLite hands a contended lock to whichever waiter
// retries first, and with six writers appending as fast as they can on a
// loaded machine (under -race) a one-second bound let some give up.
const LockWait = 2 * time.Second

// busyTimeout is how long one statement waits inside SQLite for a lock
// before it reports SQLITE_BUSY; [retry] tries again until its bound.
// Short, so that no single statement overshoots the bound by much.
const busyTimeout = 100 * time.Millisecond

// opWait bounds the lock wait of the log's other writes and reads
// (resolving, annotating, queries): a human or a hold is waiting on them,
// not an agent's command.
const opWait = 5 * time.Second

// Log is an open decision log. It is safe for concurrent use; several
// processes may have the same file open at once.
type Log struct {
	db   *sql.DB
	path string
	// journal is the hooks' journal beside the log ([Log.Ingest]); "" where
	// the platform has none.
	journal string
	// Statements of every append, prepared once: preparing them on each
	// call took most of an append's CPU.
	insertVerdict, insertEffect *sql.Stmt

	// Group commit (see [Log.Append]): the rows waiting, and whether an
	// append is committing (leads); qidle is signalled when none is.
	qmu        sync.Mutex
	qidle      *sync.Cond
	qclosed    bool
	committing bool
	queue      []*appendReq
	commits    atomic.Int64 // transactions committed (tests)

	// ring is serve's own journal ([Log.UseRing]); nil for other writers.
	ring *ringWriter
}

// Open opens the decision log at path, creating it and its directory (0700;
// the file 0600: commands can carry secrets) when missing, switching it to WAL
// mode and migrating its schema forward.
func Open(path string) (*Log, error) {
	if path == "" {
		return nil, errors.New("open decision log: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open decision log: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("open decision log: %w", err)
	}
	// Create the file ourselves so that it gets 0600; SQLite gives the -wal
	// and -shm files the same mode.
	if f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		return nil, fmt.Errorf("open decision log: %w", err)
	} else {
		f.Close()
	}
	db, err := sql.Open("sqlite", dsn(abs))
	if err != nil {
		return nil, fmt.Errorf("open decision log %s: %w", abs, err)
	}
	l := &Log{db: db, path: abs}
	if journal.Supported {
		l.journal = journal.Path(abs)
	}
	l.qidle = sync.NewCond(&l.qmu)
	ctx := context.Background()
	if err := l.setup(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open decision log %s: %w", abs, err)
	}
	for _, p := range []struct {
		s **sql.Stmt
		q string
	}{{&l.insertVerdict, insertVerdictSQL}, {&l.insertEffect, insertEffectSQL}} {
		if *p.s, err = db.PrepareContext(ctx, p.q); err != nil {
			break
		}
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open decision log %s: %w", abs, err)
	}
	// Every reader and writer sees the hooks' verdicts: a journal that cannot
	// be ingested fails the open (a log that is only locked is ingested by
	// the next writer).
	if _, err := l.Ingest(ctx); err != nil && !isBusy(err) {
		l.Close()
		return nil, fmt.Errorf("open decision log %s: %w", abs, err)
	}
	// Best effort: a failure leaves those rows for the next opener.
	_, _ = l.ReleaseOrphanedHolds(ctx)
	return l, nil
}

// dsn returns the connection string: every pooled connection waits for busy
// locks, writes durably (see [Log.Append] for why FULL), keeps temporary
// files in memory (the statement journals that the triggers' possible ABORT
// requires took half an insert's time as temp-file writes) and starts its
// transactions IMMEDIATE, so that a writer takes the write lock up front
// instead of failing to upgrade a read lock (which no busy timeout can fix).
func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "temp_store(MEMORY)")
	q.Add("_txlock", "immediate")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Path returns the absolute path of the database file.
func (l *Log) Path() string { return l.path }

// Close closes the log once the appends queued so far are committed.
// Appending afterwards fails. A long-lived process (serve) closes it before
// it ends: the last connection to close checkpoints the WAL into the
// database and removes it. A process that is about to exit anyway (a hook,
// check) calls [Log.Leave] instead.
func (l *Log) Close() error {
	var errs []error
	if l.ring != nil {
		errs = append(errs, l.closeRing())
	}
	l.stopCommitter()
	for _, s := range []*sql.Stmt{l.insertVerdict, l.insertEffect} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	return errors.Join(append(errs, l.db.Close())...)
}

// WALLimit bounds the WAL that [Log.Leave] leaves behind: past it, Leave
// checkpoints the WAL into the database and truncates it. The next process
// to open the log reads the WAL it finds to rebuild its index (a few µs a
// 4 KiB frame); an append adds six or seven frames, so a hook finds about
// twenty on average and checkpoints once in about ten runs.
const WALLimit = 256 << 10

// Leave ends a short-lived process's use of the log (a hook, check): call
// it last, just before the process exits, and do not use l afterwards.
//
// Every append is durable when it returns (the WAL is fsynced at commit),
// so nothing is left to write. What Leave decides is the WAL's fate. [Close]
// has the last connection checkpoint the WAL into the database, fsync both
// and delete the WAL and its index, and the next opener creates them again:
// five fsyncs and two files made and removed per process, for a hook a
// large part of its cost past starting. Leave instead leaves the WAL in
// place while it is under [WALLimit] (the process's exit releases its
// locks, as SQLite expects of any process that ends), and past the limit
// checkpoints and truncates it (`wal_checkpoint(TRUNCATE)`, without
// waiting: a busy log is left for a later process), so the WAL stays
// bounded whoever writes.
func (l *Log) Leave() error {
	l.stopCommitter()
	var err error
	// Another process that has the log open keeps its WAL index alive, and
	// with it SQLite's own bound (a writer restarts a WAL it finds copied
	// into the database): only the last process out need checkpoint.
	if st, serr := os.Stat(l.path + "-wal"); serr == nil && st.Size() > WALLimit && !sharedWithOthers(l.path) {
		err = l.checkpoint()
	}
	for _, s := range []*sql.Stmt{l.insertVerdict, l.insertEffect} {
		if s != nil {
			_ = s.Close()
		}
	}
	// The connections stay open: closing the last one would checkpoint.
	return err
}

// checkpoint copies the WAL into the database and truncates it, unless
// another connection's read or write is in the way (then it copies what it
// can, or nothing).
func (l *Log) checkpoint() error {
	ctx := context.Background()
	c, err := l.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("checkpoint decision log: %w", err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return fmt.Errorf("checkpoint decision log: %w", err)
	}
	defer c.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyTimeout.Milliseconds()))
	// PASSIVE first: it copies the WAL into the database and fsyncs it
	// without the write lock, alongside other processes' appends. Only when
	// it copied everything does TRUNCATE follow, which then holds the write
	// lock just to truncate (and gives up at once when another connection
	// reads): a checkpoint never makes a writer wait for a copy and an fsync.
	for _, mode := range []string{"PASSIVE", "TRUNCATE"} {
		var busy, frames, done int
		err := c.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &frames, &done)
		if err != nil && !isBusy(err) {
			return fmt.Errorf("checkpoint decision log: %w", err)
		}
		if err != nil || busy != 0 || done < frames {
			return nil // another connection is in the way: a later process checkpoints
		}
	}
	return nil
}

func (l *Log) setup(ctx context.Context) error {
	var mode string
	start := time.Now()
	if err := retryFor(ctx, LockWait, func() error {
		return l.db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
	}); err != nil {
		return fmt.Errorf("set WAL mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("set WAL mode: journal mode is %q", mode)
	}
	return retryFor(ctx, max(LockWait-time.Since(start), busyTimeout), func() error { return l.migrate(ctx) })
}

// migrations[i] takes the schema from version i to i+1. Released entries
// never change; a new schema is a new entry.
var migrations = []string{schemaV1, schemaV2, schemaV3, schemaV4, schemaV5, schemaV6, schemaV7, schemaV8}

func (l *Log) migrate(ctx context.Context) error {
	var v int
	if err := l.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v == len(migrations) {
		return nil
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this binary knows (%d): use a newer command-safety", v, len(migrations))
	}
	tx, err := l.db.BeginTx(ctx, nil) // IMMEDIATE: one process migrates at a time
	if err != nil {
		return fmt.Errorf("migrate schema: %w", err)
	}
	defer tx.Rollback()
	// Another process may have migrated while this one waited for the lock.
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this binary knows (%d): use a newer command-safety", v, len(migrations))
	}
	for ; v < len(migrations); v++ {
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migrate schema to version %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			return fmt.Errorf("migrate schema to version %d: %w", v+1, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate schema: %w", err)
	}
	return nil
}

// isBusy reports whether err is SQLite's "try again later" (SQLITE_BUSY or
// SQLITE_LOCKED, extended codes included).
func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}

// retry is [retryFor] with [opWait].
func retry(ctx context.Context, f func() error) error { return retryFor(ctx, opWait, f) }

// retryFor runs f until it succeeds, fails with something other than a busy
// lock, or wait has passed (or ctx ends) since the first try; f's own lock
// wait is [busyTimeout], so the whole call waits at most about
// wait + busyTimeout for locks. The error of a lock that outlasted wait
// says so.
func retryFor(ctx context.Context, wait time.Duration, f func() error) error {
	deadline := time.Now().Add(wait)
	backoff := 2 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := f()
		if err == nil || !isBusy(err) {
			return err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return fmt.Errorf("still locked by another process after %v (%d attempts): %w", wait, attempt, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (after %d attempts: %w)", ctx.Err(), attempt, err)
		case <-time.After(min(backoff, left)):
		}
		backoff = min(2*backoff, 50*time.Millisecond)
	}
}
