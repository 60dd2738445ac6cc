package jsonrpc

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/gate"
)

// tailInterval is how often the tail looks at the decision log even without
// a filesystem event (fsnotify can miss writes on some filesystems).
const tailInterval = 2 * time.Second

// tailDebounce coalesces the burst of events one commit makes.
const tailDebounce = 50 * time.Millisecond

// tail shows verdicts that other processes (hooks of terminal agents,
// `check`, another serve) write to the decision log as logMessage lines, so
// the editor's output channel shows every agent (issue 6). It watches the
// log's directory with fsnotify and polls as a fallback; it stops with ctx.
func (s *Server) tail(ctx context.Context) {
	snap := s.snapshot()
	db, err := s.openLog(snap.DecisionLog)
	if err != nil || db == nil {
		return
	}
	last := int64(0)
	if es, err := db.Query(ctx, audit.Filter{Limit: 1}); err == nil && len(es) > 0 {
		last = es[0].LogID // start after what is there: no replay of history
	}
	base := filepath.Base(db.Path())
	events := make(chan struct{}, 1)
	if w, err := fsnotify.NewWatcher(); err == nil {
		defer w.Close()
		if err := w.Add(filepath.Dir(db.Path())); err == nil {
			go func() {
				for {
					select {
					case ev, ok := <-w.Events:
						if !ok {
							return
						}
						if strings.HasPrefix(filepath.Base(ev.Name), base) {
							select {
							case events <- struct{}{}:
							default:
							}
						}
					case _, ok := <-w.Errors:
						if !ok {
							return
						}
					case <-ctx.Done():
						return
					}
				}
			}()
		}
	}
	held := "-" // nothing sent yet: the first sync always notifies
	tick := time.NewTicker(tailInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-events:
			time.Sleep(tailDebounce)
		case <-tick.C:
		}
		last = s.showNewRows(ctx, db, last)
		held = s.syncHeld(ctx, db, held)
	}
}

// HeldParams are the params of [MethodHeld]: every command a hook in hold
// mode is waiting on now, newest first (empty when none is).
type HeldParams struct {
	Held []HeldCommand `json:"held"`
}

// HeldCommand is one held command; resolve it with commandSafety/resolve.
type HeldCommand struct {
	LogID     int64     `json:"logId"`
	Command   string    `json:"command"`
	Cwd       string    `json:"cwd"`
	Agent     string    `json:"agent"`
	Reason    string    `json:"reason"`
	Time      time.Time `json:"time"`
	HeldUntil time.Time `json:"heldUntil"`
	// Teach is what "Allow from now on" would teach ([gate.Teach]), or nil.
	Teach *gate.Teachable `json:"teach,omitempty"`
}

// syncHeld sends MethodHeld when the set of held rows changed since prev
// (a key of their ids), and returns the new key.
func (s *Server) syncHeld(ctx context.Context, db *audit.Log, prev string) string {
	s.mu.Lock()
	want := s.wantHeld
	s.mu.Unlock()
	if !want {
		return prev
	}
	es, err := db.Query(ctx, audit.Filter{Status: audit.StatusHeld, Limit: 200})
	if err != nil {
		return prev
	}
	now := s.opts.Now()
	params := HeldParams{Held: []HeldCommand{}}
	key := ""
	for _, e := range es {
		until, held := audit.HeldUntil(e.Note)
		if !held || until.Before(now) {
			continue
		}
		params.Held = append(params.Held, HeldCommand{LogID: e.LogID, Command: e.Command, Cwd: e.Cwd,
			Agent: e.Agent, Reason: e.Reason, Time: e.Time, HeldUntil: until, Teach: gate.Teach(e.Verdict)})
		key += fmt.Sprintf("%d,", e.LogID)
	}
	if key != prev {
		s.notify(MethodHeld, params)
	}
	return key
}

// showNewRows sends a log line for each row after id last that another
// process wrote, and returns the newest id seen.
func (s *Server) showNewRows(ctx context.Context, db *audit.Log, last int64) int64 {
	for {
		es, err := db.After(ctx, last, 200)
		if err != nil || len(es) == 0 {
			return last
		}
		for _, e := range es {
			last = max(last, e.LogID)
			if e.Session == s.opts.Session && s.opts.Session != "" {
				continue // this server's own verdicts were shown already
			}
			line := FormatLine(e.Verdict)
			if e.Session != "" {
				line += " [" + e.Session + "]"
			}
			s.logMessage(messageType(e.Decision), line)
		}
	}
}
