package telemetry

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
)

// ErrLocked is returned by [OpenShipper] when another process ships the
// log (it holds [LockFile]): it will ship the new rows too.
var ErrLocked = errors.New("another process is shipping this decision log")

// ShipOptions configure [OpenShipper].
type ShipOptions struct {
	// StartAfter is where the export of a log without a [State] starts: with
	// the rows after this id. Negative: after the newest row now (no
	// history is replayed).
	StartAfter int64
	// Exporter options; OnExport is the shipper's own.
	Exporter Options
	// Warn receives what the user should know (records dropped, the state
	// file unreadable), at most one message per WarnEvery.
	Warn func(string)
	// WarnEvery bounds how often Warn is called (default 30 s).
	WarnEvery time.Duration
	// ResolveEvery is how often pending prompts are looked up (default 2 s).
	ResolveEvery time.Duration
}

// Bounds of the pending prompts a [State] follows.
const (
	maxPending    = 4096
	maxPendingAge = 8 * 24 * time.Hour // a hold lasts at most 7 days
	pageSize      = 256
)

// Shipper ships the rows of one decision log after its mark ([State]) to
// an [Exporter]: every verdict, then each prompt's resolution once it has
// one. One process ships a log at a time (it holds [LockFile]). It emits no
// more records than the exporter's queue has room for, so its queue never
// drops; the mark moves on as exports finish, exported or failed (failed
// records are dropped and counted: the local log stays the record).
type Shipper struct {
	db        *audit.Log
	exp       *Exporter
	cfg       Config
	statePath string
	lock      *fileLock
	opts      ShipOptions

	mu         sync.Mutex
	st         State
	cursor     int64         // the newest row emitted
	inflight   []inflightRow // verdicts emitted and not acknowledged, in id order
	resolving  map[int64]bool
	dirty      bool
	lastLookup time.Time
	warnedAt   time.Time
	warnedLost int64
}

type inflightRow struct {
	id      int64
	time    time.Time
	waiting bool // a prompt waiting for its answer: follow it once shipped
}

// OpenShipper locks db's export and reads its state. It fails with
// [ErrLocked] when another process ships db.
func OpenShipper(ctx context.Context, db *audit.Log, cfg Config, opts ShipOptions) (*Shipper, error) {
	if opts.Warn == nil {
		opts.Warn = func(string) {}
	}
	if opts.WarnEvery <= 0 {
		opts.WarnEvery = 30 * time.Second
	}
	if opts.ResolveEvery <= 0 {
		opts.ResolveEvery = 2 * time.Second
	}
	lock, err := tryLock(LockFile(db.Path()))
	if err != nil {
		return nil, err
	}
	s := &Shipper{db: db, cfg: cfg, statePath: StateFile(db.Path()), lock: lock, opts: opts, resolving: map[int64]bool{}}
	st, ok, err := ReadState(s.statePath)
	if err != nil {
		opts.Warn(fmt.Sprintf("telemetry: %v; starting the export anew", err))
	}
	newest, err := newestID(ctx, db)
	if err != nil {
		lock.unlock()
		return nil, err
	}
	switch {
	case !ok:
		st = State{LastID: opts.StartAfter}
		if st.LastID < 0 || st.LastID > newest {
			st.LastID = newest
		}
		s.dirty = true
	case st.LastID > newest:
		st.LastID, st.Pending, s.dirty = 0, nil, true // a new log at this path: ids start again
	}
	s.st, s.cursor = st, st.LastID
	eo := opts.Exporter
	eo.OnExport = s.ack
	if s.exp, err = NewExporter(ctx, cfg, eo); err != nil {
		lock.unlock()
		return nil, err
	}
	return s, nil
}

func newestID(ctx context.Context, db *audit.Log) (int64, error) {
	es, err := db.Query(ctx, audit.Filter{Limit: 1})
	if err != nil || len(es) == 0 {
		return 0, err
	}
	return es[0].LogID, nil
}

// Ship emits the rows after the last one emitted, as many as the queue has
// room for, and the resolutions of prompts shipped before; it saves the
// state. It returns how many rows it emitted.
func (s *Shipper) Ship(ctx context.Context) (int, error) {
	n := 0
	var err error
	for ctx.Err() == nil {
		room := s.exp.Room()
		if room < 2 { // a resolved prompt is two records
			break
		}
		s.mu.Lock()
		after := s.cursor
		s.mu.Unlock()
		var es []audit.Entry
		if es, err = s.db.After(ctx, after, min(room/2, pageSize)); err != nil || len(es) == 0 {
			break
		}
		for _, e := range es {
			resolved := e.Decision == effects.Prompt && (e.Status == audit.StatusApproved || e.Status == audit.StatusRejected)
			s.mu.Lock()
			prev := s.cursor
			s.cursor = e.LogID
			s.inflight = append(s.inflight, inflightRow{id: e.LogID, time: e.Time, waiting: e.Status.Waiting()})
			s.mu.Unlock()
			if !s.exp.EmitVerdict(e) { // cannot happen within the room counted above; defensive
				s.mu.Lock()
				s.cursor, s.inflight = prev, s.inflight[:len(s.inflight)-1]
				s.mu.Unlock()
				return n, s.save()
			}
			if resolved {
				s.mu.Lock()
				s.resolving[e.LogID] = true
				s.mu.Unlock()
				if !s.exp.EmitResolution(e) {
					s.mu.Lock()
					delete(s.resolving, e.LogID)
					s.mu.Unlock()
				}
			}
			n++
		}
	}
	if err == nil {
		err = s.lookUpResolutions(ctx)
	}
	s.report()
	if serr := s.save(); err == nil {
		err = serr
	}
	return n, err
}

// lookUpResolutions emits the resolution of each pending prompt that has
// one now (one query for those still waiting, then one read per answered
// prompt), at most every ResolveEvery, and forgets prompts past
// maxPendingAge or beyond maxPending.
func (s *Shipper) lookUpResolutions(ctx context.Context) error {
	s.mu.Lock()
	now := time.Now()
	if len(s.st.Pending) == 0 || now.Sub(s.lastLookup) < s.opts.ResolveEvery {
		s.mu.Unlock()
		return nil
	}
	s.lastLookup = now
	keep := s.st.Pending[:0]
	for _, p := range s.st.Pending {
		if now.Sub(p.Time) < maxPendingAge {
			keep = append(keep, p)
		}
	}
	if over := len(keep) - maxPending; over > 0 {
		keep = keep[over:]
	}
	s.dirty = s.dirty || len(keep) != len(s.st.Pending)
	s.st.Pending = keep
	pending := slices.Clone(keep)
	s.mu.Unlock()
	if len(pending) == 0 {
		return nil
	}
	oldest := pending[0].Time
	for _, p := range pending {
		if p.Time.Before(oldest) {
			oldest = p.Time
		}
	}
	es, err := s.db.Query(ctx, audit.Filter{Status: audit.StatusPending, Since: oldest})
	if err != nil {
		return err
	}
	waiting := map[int64]bool{}
	for _, e := range es {
		waiting[e.LogID] = true
	}
	for _, p := range pending {
		s.mu.Lock()
		busy := s.resolving[p.ID]
		s.mu.Unlock()
		if waiting[p.ID] || busy {
			continue
		}
		if s.exp.Room() < 1 {
			break
		}
		e, err := s.db.Get(ctx, p.ID)
		if err != nil && !errors.Is(err, audit.ErrNotFound) {
			return err
		}
		if err == nil && (e.Status == audit.StatusApproved || e.Status == audit.StatusRejected) {
			s.mu.Lock()
			s.resolving[p.ID] = true
			s.mu.Unlock()
			if !s.exp.EmitResolution(e) {
				s.mu.Lock()
				delete(s.resolving, p.ID)
				s.mu.Unlock()
			}
			continue
		}
		s.forget(p.ID) // gone, or no longer a prompt to follow
	}
	return nil
}

func (s *Shipper) forget(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Pending = slices.DeleteFunc(s.st.Pending, func(p PendingRow) bool { return p.ID == id })
	s.dirty = true
}

// ack is the exporter's report of one export: it moves the mark on.
func (s *Shipper) ack(a Ack) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range a.Verdicts {
		i := slices.IndexFunc(s.inflight, func(r inflightRow) bool { return r.id == id })
		if i < 0 {
			continue
		}
		r := s.inflight[i]
		s.inflight = slices.Delete(s.inflight, i, i+1)
		if a.Err == nil && r.waiting {
			s.st.Pending = append(s.st.Pending, PendingRow{ID: r.id, Time: r.time})
		}
	}
	for _, id := range a.Resolutions {
		delete(s.resolving, id)
		s.st.Pending = slices.DeleteFunc(s.st.Pending, func(p PendingRow) bool { return p.ID == id })
	}
	mark := s.cursor
	if len(s.inflight) > 0 {
		mark = s.inflight[0].id - 1
	}
	s.st.LastID = max(s.st.LastID, mark)
	n := int64(len(a.Verdicts) + len(a.Resolutions))
	if a.Err != nil {
		s.st.Failed += n
		s.st.LastErr, s.st.ErrAt = a.Err.Error(), time.Now().UTC()
	} else {
		s.st.Exported += n
	}
	s.dirty = true
}

// report warns, at most every WarnEvery, when records were lost since the
// last warning.
func (s *Shipper) report() {
	st := s.exp.Stats()
	lost := st.Failed + st.Dropped
	s.mu.Lock()
	if lost <= s.warnedLost || time.Since(s.warnedAt) < s.opts.WarnEvery {
		s.mu.Unlock()
		return
	}
	n := lost - s.warnedLost
	s.warnedLost, s.warnedAt = lost, time.Now()
	s.mu.Unlock()
	why := "the queue was full"
	if st.LastErr != nil {
		why = st.LastErr.Error()
	}
	s.opts.Warn(fmt.Sprintf("telemetry: %d records not exported to %s (%s); the decision log still has them (`command-safety log export`)", n, s.cfg.Source, why))
}

// save writes the state when it changed.
func (s *Shipper) save() error {
	s.mu.Lock()
	if !s.dirty {
		s.mu.Unlock()
		return nil
	}
	st := s.st
	st.Pending = slices.Clone(st.Pending)
	st.Updated = time.Now().UTC()
	s.dirty = false
	s.mu.Unlock()
	if err := writeState(s.statePath, st); err != nil {
		s.mu.Lock()
		s.dirty = true
		s.mu.Unlock()
		return fmt.Errorf("telemetry: saving the export's mark: %w", err)
	}
	return nil
}

// CaughtUp reports whether every row of the log up to the newest has been
// emitted and acknowledged.
func (s *Shipper) CaughtUp(ctx context.Context) bool {
	newest, err := newestID(ctx, s.db)
	s.mu.Lock()
	defer s.mu.Unlock()
	return err == nil && s.cursor >= newest && len(s.inflight) == 0 && len(s.resolving) == 0
}

// kickDelay gathers the kicks of a burst of verdicts into one pass, which
// also keeps the pass off the CPU while the verdict's reply is written.
const kickDelay = 50 * time.Millisecond

// Run ships until ctx ends: at once, shortly after each kick (a verdict
// just recorded) and every interval (rows other processes wrote).
func (s *Shipper) Run(ctx context.Context, kick <-chan struct{}, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.Ship(ctx); err != nil && ctx.Err() == nil {
			s.warnOnce(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-kick:
			select {
			case <-ctx.Done():
				return
			case <-time.After(kickDelay):
			}
		case <-t.C:
		}
	}
}

func (s *Shipper) warnOnce(err error) {
	s.mu.Lock()
	if time.Since(s.warnedAt) < s.opts.WarnEvery {
		s.mu.Unlock()
		return
	}
	s.warnedAt = time.Now()
	s.mu.Unlock()
	s.opts.Warn("telemetry: " + err.Error())
}

// Stats are the exporter's counts in this process.
func (s *Shipper) Stats() Stats { return s.exp.Stats() }

// Close flushes what is queued within ctx (records still queued when it
// ends are shipped again by the next process: the mark has not passed
// them), saves the state and unlocks the log's export.
func (s *Shipper) Close(ctx context.Context) error {
	err := s.exp.Shutdown(ctx)
	s.report()
	if serr := s.save(); err == nil {
		err = serr
	}
	s.lock.unlock()
	return err
}
