package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/journal"
)

// A long-lived writer (serve) records the verdicts nobody resolves, allow
// and refuse, in a ring of its own ([journal.Ring], [Log.UseRing]) and
// answers once the ring's fdatasync returns: one overwrite in place of a
// preallocated file, where an append to SQLite writes and fsyncs seven WAL
// pages and costs about 100 µs of CPU (issue 17 point 2). The log takes the
// ring's verdicts in batches a few milliseconds later, in one transaction
// ([Log.Ingest]), and so does every reader before it reads (catchUp), so
// the log shows them at once to anyone who looks. Prompts still go to the
// log directly: their human's answer needs the row's id.

// Ring batching: the log takes a ring's verdicts once no new one came for
// ringIdle, at the latest ringMaxDelay after the first waiting one, or as
// soon as ringBatch wait.
const (
	ringIdle     = 20 * time.Millisecond
	ringMaxDelay = 500 * time.Millisecond
	ringBatch    = 256
)

// ringWriter is serve's ring and its group commit: each verdict's frame is
// written (pwrite) as soon as it is ready, and an fdatasync makes durable
// every frame written before it started, so verdicts that arrive while one
// runs share the next. A frame never waits for an fdatasync to be written.
type ringWriter struct {
	ring *journal.Ring

	mu       sync.Mutex // the ring's appends
	broken   error      // set once a write failed or the log closed: the ring takes no more
	inflight sync.WaitGroup

	smu     sync.Mutex // the fdatasyncs
	synced  *sync.Cond // a sync ended
	syncing bool
	durable uint64 // frames through here are on disk
	syncErr error

	// pending are the rows of the frames written that the log may lack,
	// in sequence order: serve takes its own ring in from here, with no
	// file to read and no record to decode (other processes read the file).
	pmu     sync.Mutex
	pending []ringRow

	written  atomic.Uint64 // the last sequence number written (durable or not)
	ingested atomic.Uint64 // the log holds this ring's frames through here
	keys     atomic.Uint64 // verdict keys handed out
	syncs    atomic.Int64  // fdatasyncs: tests, benchmarks

	kick chan struct{} // a frame was written (buffered 1)
	stop chan struct{}
	done chan struct{} // the ingest loop ended
}

// ringRow is a frame's row, kept until the log holds it.
type ringRow struct {
	seq uint64
	row row
}

// UseRing gives l a ring of its own for the verdicts nobody resolves (see
// above): call it once, right after [Open], in a process that keeps the log
// open (serve). Where it fails (no flock on this platform, a read-only
// directory), the log works as before.
func (l *Log) UseRing() error {
	if !journal.Supported {
		return errors.New("serve's ring needs flock, which this platform lacks")
	}
	if l.ring != nil {
		return nil
	}
	r, err := journal.CreateRing(journal.RingDir(l.path))
	if err != nil {
		return err
	}
	w := &ringWriter{ring: r, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	w.synced = sync.NewCond(&w.smu)
	l.ring = w
	go l.ringIngestLoop(w)
	return nil
}

// recordRing writes v to l's ring and returns it with its key as ID (when
// the caller gave none) once the ring is on disk.
func (l *Log) recordRing(v gate.Verdict, session string) (gate.Verdict, error) {
	w := l.ring
	if v.ID == "" {
		v.ID = w.ring.Name() + "." + strconv.FormatUint(w.keys.Add(1), 10)
	}
	row, err := newRow(v, session, StatusAuto)
	if err != nil {
		return v, err
	}
	payload := journal.EncodeRecord(journal.Record{Row: row})
	w.mu.Lock()
	if w.broken != nil {
		err := w.broken
		w.mu.Unlock()
		return v, err
	}
	w.inflight.Add(1)
	defer w.inflight.Done()
	seq, err := l.ringAppend(w, payload)
	if err == nil {
		w.pmu.Lock()
		w.pending = append(w.pending, ringRow{seq: seq, row: row})
		w.pmu.Unlock()
	}
	w.mu.Unlock()
	if err != nil {
		return v, err
	}
	if err := w.syncThrough(seq); err != nil {
		// Whether the frame reached the disk is unknown: the verdict is
		// not on record, and this process does not log it either.
		w.forget(seq)
		return v, fmt.Errorf("%w: %w", errRingUncertain, err)
	}
	select {
	case w.kick <- struct{}{}:
	default:
	}
	return v, nil
}

// ringAppend writes payload's frame (w.mu held). The ring starts again at
// offset 0 whenever the log holds all it wrote; when it is full the log
// takes its frames now, and a ring still full then (the log locked by
// another process) fails the verdict, which then goes to the log directly
// or, when the log is what is locked, is not logged at all.
func (l *Log) ringAppend(w *ringWriter, payload []byte) (uint64, error) {
	r := w.ring
	if r.Head() > 0 && w.ingested.Load() >= r.Last() {
		r.Rewind()
	}
	seq, err := r.Append([][]byte{payload})
	if errors.Is(err, journal.ErrRingFull) {
		if _, ierr := l.Ingest(context.Background()); ierr != nil {
			// Locked past LockWait: the log would keep the verdict out
			// as long again.
			return 0, fmt.Errorf("%w: %w", errRingBlocked, ierr)
		}
		if w.ingested.Load() >= r.Last() {
			r.Rewind()
			seq, err = r.Append([][]byte{payload})
		}
	}
	switch {
	case err == nil:
		w.written.Store(seq)
	case errors.Is(err, journal.ErrRingFull) || errors.Is(err, errRingBlocked):
		// Nothing written.
	default:
		w.broken = err
		err = fmt.Errorf("%w: %w", errRingUncertain, err)
	}
	return seq, err
}

// syncThrough returns once frame seq is on disk: a sync under way that
// started after it was written covers it, else the next one, which the
// first to find none under way starts.
func (w *ringWriter) syncThrough(seq uint64) error {
	w.smu.Lock()
	defer w.smu.Unlock()
	for w.durable < seq && w.syncErr == nil {
		if w.syncing {
			w.synced.Wait()
			continue
		}
		w.syncing = true
		target := w.written.Load() // every frame written by now, seq among them
		w.smu.Unlock()
		err := w.ring.Sync()
		w.smu.Lock()
		w.syncing = false
		if err != nil {
			w.syncErr = err // what reached the disk is unknown: no more writes
		} else {
			w.durable = max(w.durable, target)
			w.syncs.Add(1)
		}
		w.synced.Broadcast()
	}
	if w.durable >= seq {
		return nil
	}
	err := w.syncErr
	w.smu.Unlock()
	w.mu.Lock()
	if w.broken == nil {
		w.broken = err
	}
	w.mu.Unlock()
	w.smu.Lock()
	return err
}

// errRingUncertain fails a verdict whose frame may or may not be on disk
// (a write or fdatasync failed): it must not be logged again elsewhere, and
// is not on record.
var errRingUncertain = errors.New("serve's ring failed to write")

// errRingBlocked fails a verdict whose ring is full while the log cannot
// take it in (locked by another process past [LockWait]).
var errRingBlocked = errors.New("serve's ring is full and the log cannot take it in")

// ringIngestLoop has the log take the ring's frames in batches (see
// ringIdle) until the log closes.
func (l *Log) ringIngestLoop(w *ringWriter) {
	defer close(w.done)
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-w.kick:
		}
		first := time.Now()
		idle.Reset(ringIdle)
	wait:
		for w.waiting() < ringBatch {
			select {
			case <-w.stop:
				idle.Stop()
				return // Close takes the rest
			case <-w.kick:
				if time.Since(first) >= ringMaxDelay {
					break wait
				}
				idle.Reset(ringIdle)
			case <-idle.C:
				break wait
			}
		}
		idle.Stop()
		// A failure (the log locked past LockWait) leaves the frames to the
		// next batch, a reader, or the next process to open the log.
		_, _ = l.Ingest(context.Background())
	}
}

// waiting is how many frames written the log may lack (the log may hold a
// frame before its writer has counted it written: none then).
func (w *ringWriter) waiting() uint64 {
	written, ingested := w.written.Load(), w.ingested.Load()
	if ingested >= written {
		return 0
	}
	return written - ingested
}

// closeRing stops the ring: later verdicts go to the log directly, the log
// takes what the ring holds, and the ring's file goes once it has. A ring
// the log could not take is left for the next process that opens the log.
func (l *Log) closeRing() error {
	w := l.ring
	if w == nil {
		return nil
	}
	w.mu.Lock()
	if w.broken == nil {
		w.broken = errClosed
	}
	w.mu.Unlock()
	w.inflight.Wait()
	select {
	case <-w.done:
	default:
		close(w.stop)
		<-w.done
	}
	_, err := l.Ingest(context.Background())
	if err == nil && w.ingested.Load() >= w.written.Load() {
		return w.ring.Remove()
	}
	return errors.Join(err, w.ring.Close())
}

// querier reads the log: the database, or a transaction already open (a
// second connection may not be available while it is).
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ringsPending reports whether a ring beside the log may hold frames the
// log lacks: l's own when it wrote past what the log holds, any other ring
// that has frames past its recorded sequence number, or was abandoned.
func (l *Log) ringsPending(ctx context.Context, q querier) bool {
	if l.journal == "" {
		return false
	}
	if w := l.ring; w != nil && w.written.Load() > w.ingested.Load() {
		return true
	}
	rings, err := journal.ListRings(journal.RingDir(l.path))
	if err != nil || len(rings) == 0 {
		return false
	}
	for _, rf := range rings {
		if w := l.ring; w != nil && rf.Name == w.ring.Name() {
			continue
		}
		var after uint64
		if err := q.QueryRowContext(ctx, `SELECT seq FROM ring_ingest WHERE ring = ?`, rf.Name).Scan(&after); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return true // let the transaction find out
		}
		rr, err := journal.OpenRing(rf.Path)
		if err != nil {
			continue // gone meanwhile: another process took it
		}
		entries, _, err := rr.Read(after)
		abandoned := rr.Abandoned
		rr.Close()
		if err != nil || len(entries) > 0 || abandoned {
			return true
		}
	}
	return false
}

// ingestRingsTx inserts in tx the frames of every ring beside the log that
// the log lacks, with each ring's new sequence number, and returns how many
// rows it inserted. Call done with whether tx committed: it then removes the
// abandoned rings taken whole and updates what l's own ring knows. l takes
// its own ring from the rows it keeps until the log holds them, so a ring
// file removed under it loses nothing.
func (l *Log) ingestRingsTx(ctx context.Context, tx *sql.Tx) (n int, done func(committed bool), err error) {
	var abandoned []*journal.RingReader
	var own uint64
	ownTaken := false
	done = func(committed bool) {
		for _, rr := range abandoned {
			if committed && rr.Remove() == nil {
				// Its row goes too; a crash before this leaves one small row.
				_, _ = l.db.ExecContext(context.Background(), `DELETE FROM ring_ingest WHERE ring = ?`, rr.Name())
			}
			rr.Close()
		}
		if committed && ownTaken {
			storeMax(&l.ring.ingested, own)
			l.ring.prune(own)
		}
	}
	// take inserts what rr holds past the log's sequence number for it.
	take := func(rr *journal.RingReader) (uint64, error) {
		var after uint64
		if err := tx.QueryRowContext(ctx, `SELECT seq FROM ring_ingest WHERE ring = ?`, rr.Name()).Scan(&after); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
		entries, last, err := rr.Read(after)
		if err != nil {
			return 0, err
		}
		for _, e := range entries {
			if _, err := l.insert(ctx, tx, e.Record.Row); err != nil {
				if isBusy(err) {
					return 0, err
				}
				continue // as ingestTx: a record no row can be made of is skipped
			}
			n++
		}
		if last <= after {
			return after, nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO ring_ingest (ring, seq) VALUES (?, ?)
			ON CONFLICT (ring) DO UPDATE SET seq = excluded.seq`, rr.Name(), last)
		return last, err
	}
	var ownName string
	if w := l.ring; w != nil {
		ownName = w.ring.Name()
		if w.written.Load() > w.ingested.Load() {
			if own, err = l.takeOwn(ctx, tx, &n); err != nil {
				return n, done, err
			}
			ownTaken = true
		}
	}
	rings, err := journal.ListRings(journal.RingDir(l.path))
	if err != nil {
		return n, done, err
	}
	for _, rf := range rings {
		if rf.Name == ownName {
			continue
		}
		rr, err := journal.OpenRing(rf.Path)
		if err != nil {
			continue // gone meanwhile: another process took it
		}
		if rr.Abandoned {
			abandoned = append(abandoned, rr)
		} else {
			defer rr.Close()
		}
		if _, err := take(rr); err != nil {
			return n, done, err
		}
	}
	return n, done, nil
}

// takeOwn inserts in tx the rows of l's own ring that the log lacks (from
// memory: they are the frames l wrote), with the ring's new sequence
// number, counting them in n; it returns the sequence number the log then
// holds through.
func (l *Log) takeOwn(ctx context.Context, tx *sql.Tx, n *int) (uint64, error) {
	w := l.ring
	var after uint64
	if err := tx.QueryRowContext(ctx, `SELECT seq FROM ring_ingest WHERE ring = ?`, w.ring.Name()).Scan(&after); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	w.pmu.Lock()
	rows := slices.Clone(w.pending)
	w.pmu.Unlock()
	last := after
	for _, p := range rows {
		if p.seq <= after {
			continue // another process took it from the file
		}
		if p.seq != last+1 {
			break // not written in order: cannot be (one writer), but never skip one
		}
		if _, err := l.insert(ctx, tx, p.row); err != nil {
			if isBusy(err) {
				return 0, err
			}
			// As ingestTx: a row that cannot be inserted is skipped.
		} else {
			*n++
		}
		last = p.seq
	}
	if last == after {
		return after, nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO ring_ingest (ring, seq) VALUES (?, ?)
		ON CONFLICT (ring) DO UPDATE SET seq = excluded.seq`, w.ring.Name(), last)
	return last, err
}

// forget drops the pending row of frame seq.
func (w *ringWriter) forget(seq uint64) {
	w.pmu.Lock()
	defer w.pmu.Unlock()
	w.pending = slices.DeleteFunc(w.pending, func(r ringRow) bool { return r.seq == seq })
}

// prune forgets the pending rows the log holds (through seq).
func (w *ringWriter) prune(seq uint64) {
	w.pmu.Lock()
	defer w.pmu.Unlock()
	i := 0
	for i < len(w.pending) && w.pending[i].seq <= seq {
		i++
	}
	w.pending = slices.Delete(w.pending, 0, i)
}

// storeMax raises a to v unless it is higher already.
func storeMax(a *atomic.Uint64, v uint64) {
	for {
		cur := a.Load()
		if v <= cur || a.CompareAndSwap(cur, v) {
			return
		}
	}
}

// ringWorthy reports whether a verdict goes to the ring: nobody resolves
// allow and refuse.
func ringWorthy(v gate.Verdict) bool { return v.Decision != effects.Prompt }
