package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Event is one change in a watched directory: Path is the path of the entry
// that was created, written, removed or renamed (or of the directory itself).
type Event struct {
	Path string
}

// EventSource reports changes in directories. [NewFSNotifySource] is the
// real one; tests inject events through their own.
type EventSource interface {
	// Add starts watching the entries of directory dir.
	Add(dir string) error
	// Remove stops watching dir.
	Remove(dir string) error
	// Events delivers changes; it is closed after Close.
	Events() <-chan Event
	// Errors delivers errors of the source (such as a queue overflow); a
	// source without errors may return nil.
	Errors() <-chan error
	// Close stops the source.
	Close() error
}

// NewFSNotifySource returns an [EventSource] backed by fsnotify. Pure chmod
// events are dropped.
func NewFSNotifySource() (EventSource, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	s := &fsnotifySource{w: w, events: make(chan Event, 64), done: make(chan struct{})}
	go s.run()
	return s, nil
}

type fsnotifySource struct {
	w         *fsnotify.Watcher
	events    chan Event
	done      chan struct{}
	closeOnce sync.Once
}

func (s *fsnotifySource) run() {
	defer close(s.events)
	for ev := range s.w.Events {
		if ev.Op == fsnotify.Chmod {
			continue
		}
		select {
		case s.events <- Event{Path: ev.Name}:
		case <-s.done:
			return
		}
	}
}

func (s *fsnotifySource) Add(dir string) error    { return s.w.Add(dir) }
func (s *fsnotifySource) Remove(dir string) error { return s.w.Remove(dir) }
func (s *fsnotifySource) Events() <-chan Event    { return s.events }
func (s *fsnotifySource) Errors() <-chan error    { return s.w.Errors }
func (s *fsnotifySource) Close() error {
	s.closeOnce.Do(func() { close(s.done) })
	return s.w.Close()
}

// NewPollSource returns an [EventSource] that reports nothing: a [Watcher]
// over it sees changes only when [Watcher.Current] finds a file changed (one
// stat per file), and on [Watcher.SetWorkspaces]. It is the fallback when the
// system cannot watch (the inotify limit).
func NewPollSource() EventSource { return pollSource{} }

type pollSource struct{}

func (pollSource) Add(string) error     { return nil }
func (pollSource) Remove(string) error  { return nil }
func (pollSource) Events() <-chan Event { return nil }
func (pollSource) Errors() <-chan error { return nil }
func (pollSource) Close() error         { return nil }

// DefaultDebounce is how long a [Watcher] waits after the last event of a
// burst before it re-loads.
const DefaultDebounce = 75 * time.Millisecond

// WatchOptions configures [NewWatcher].
type WatchOptions struct {
	// Source reports directory changes; nil uses [NewFSNotifySource].
	Source EventSource
	// Debounce is the quiet period before a re-load; 0 is [DefaultDebounce].
	// A continuous stream of events re-loads at least every 10 Debounce.
	Debounce time.Duration
	// OnChange receives each new [Snapshot] (its New problems are those not
	// reported before). It is called from the watcher's goroutine after an
	// event, or from [Watcher.Current] when that finds a file changed; one
	// call at a time, in the order the snapshots were loaded. It may call
	// [Watcher.Snapshot] but not [Watcher.Current] or [Watcher.Close].
	OnChange func(Snapshot)
}

// Watcher keeps a [Snapshot] of the settings files up to date (SPEC §6).
// It watches the parent directory of every settings file, since editors
// save atomically (write a temporary file, rename it over settings.json) and
// a watch on the file itself is lost after the first save. A directory that
// does not exist yet (a `.vscode/` created later) is covered by watching its
// nearest existing ancestor until it appears. Events are filtered by name
// and debounced; each burst re-loads once through a [Loader], so a file that
// stops parsing keeps its last good values and each problem is reported once
// per change.
type Watcher struct {
	env      Env
	src      EventSource
	debounce time.Duration
	onChange func(Snapshot)
	loader   Loader

	// reloadMu serialises loads with storing their snapshot and calling
	// OnChange, so that OnChange never sees an older snapshot after a newer.
	reloadMu    sync.Mutex
	fingerprint string // of the stored snapshot's files and contents

	mu         sync.Mutex
	workspaces []string
	snap       Snapshot
	files      []string        // settings files, cleaned
	watched    map[string]bool // directories given to src.Add

	kick      chan struct{} // SetWorkspaces wakes the loop
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
	exited    chan struct{}
}

// NewWatcher loads the settings of env and workspaces (see [Load]) and
// watches their files until Close. The initial [Snapshot] is available from
// [Watcher.Snapshot]; OnChange is called for later changes only. It fails
// when the event source cannot be created or a directory cannot be watched
// (the inotify limit, say); callers then fall back to [Load].
func NewWatcher(env Env, workspaces []string, opts WatchOptions) (*Watcher, error) {
	src := opts.Source
	if src == nil {
		var err error
		if src, err = NewFSNotifySource(); err != nil {
			return nil, err
		}
	}
	w := &Watcher{
		env:        env,
		src:        src,
		debounce:   opts.Debounce,
		onChange:   opts.OnChange,
		workspaces: append([]string(nil), workspaces...),
		watched:    map[string]bool{},
		kick:       make(chan struct{}, 1),
		done:       make(chan struct{}),
		exited:     make(chan struct{}),
	}
	if w.debounce <= 0 {
		w.debounce = DefaultDebounce
	}
	w.mu.Lock()
	err := w.rewatch()
	w.mu.Unlock()
	if err != nil {
		_ = src.Close()
		return nil, fmt.Errorf("watching the settings directories: %w", err)
	}
	w.reloadMu.Lock()
	w.reload(true) // after the watches: a change from now on is seen
	w.reloadMu.Unlock()
	go w.loop()
	return w, nil
}

// Snapshot returns the settings as last loaded.
func (w *Watcher) Snapshot() Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.snap
}

// Current returns the settings in force now, for a decision about to be
// made: [Watcher.Snapshot] after a check, one stat per settings file, that no
// file changed since it was read. When one did (a save a moment ago, whose
// event the watcher has not handled yet), the files are read again first and
// OnChange is called with the new snapshot before Current returns. So a
// change applies to the next command, not a debounce later (issue 12 point
// 7). It must not be called from OnChange.
//
// extra roots, when some are not among the watched workspaces, add their
// `.vscode/settings.json` for this call only (a request that names its own
// folders): the snapshot returned is not stored, OnChange does not see it,
// and its New lists the problems of those files not reported before, for the
// caller to report. Otherwise New is empty (OnChange had the new problems).
func (w *Watcher) Current(extra ...string) Snapshot {
	w.reloadMu.Lock()
	defer w.reloadMu.Unlock()
	select {
	case <-w.done:
		return w.Snapshot()
	default:
	}
	s, changed := w.reload(false)
	if changed && w.onChange != nil {
		w.onChange(s)
	}
	w.mu.Lock()
	roots := slices.Clone(w.workspaces)
	w.mu.Unlock()
	more := false
	for _, r := range extra {
		if !slices.Contains(roots, r) {
			roots = append(roots, r)
			more = true
		}
	}
	if more {
		return w.loader.Load(w.env, roots)
	}
	s.New = nil
	return s
}

// SetWorkspaces replaces the workspace roots (for example after
// `workspace/didChangeWorkspaceFolders`); the watcher re-watches and
// re-loads, then calls OnChange.
func (w *Watcher) SetWorkspaces(roots []string) {
	w.mu.Lock()
	w.workspaces = append([]string(nil), roots...)
	_ = w.rewatch() // a failed Add is retried on the next event
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Close stops watching and waits for a running OnChange to return.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.done)
		w.closeErr = w.src.Close()
		<-w.exited
	})
	return w.closeErr
}

// reload loads the settings (every file when force, else those a stat shows
// changed), stores the snapshot when force or when it changed, and returns
// the snapshot in force and whether it changed. Call with w.reloadMu held.
func (w *Watcher) reload(force bool) (Snapshot, bool) {
	w.mu.Lock()
	ws := w.workspaces
	w.mu.Unlock()
	unless := w.fingerprint
	if force {
		unless = ""
	}
	s, fp := w.loader.load(w.env, ws, force, unless)
	changed := fp != w.fingerprint
	w.mu.Lock()
	defer w.mu.Unlock()
	if !force && !changed {
		return w.snap, false
	}
	w.fingerprint = fp
	w.snap = s
	return s, changed
}

func (w *Watcher) loop() {
	defer close(w.exited)
	var (
		timer   *time.Timer
		timerC  <-chan time.Time
		started time.Time // first event of the pending burst
	)
	arm := func() {
		now := time.Now()
		if timerC == nil {
			started = now
		}
		wait := w.debounce
		if deadline := started.Add(10 * w.debounce); now.Add(wait).After(deadline) {
			wait = max(deadline.Sub(now), 0)
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		timerC = timer.C
	}
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	events, errs := w.src.Events(), w.src.Errors()
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			w.mu.Lock()
			relevant, dirChange := w.classify(ev.Path)
			if dirChange {
				_ = w.rewatch() // a failed Add is retried on the next event
			}
			w.mu.Unlock()
			if relevant {
				arm()
			}
		case _, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			// Events may have been lost (overflow): re-watch and re-load.
			w.mu.Lock()
			_ = w.rewatch()
			w.mu.Unlock()
			arm()
		case <-w.kick:
			arm()
		case <-timerC:
			timerC = nil
			w.reloadMu.Lock()
			s, _ := w.reload(true)
			if w.onChange != nil {
				select {
				case <-w.done:
					w.reloadMu.Unlock()
					return
				default:
				}
				w.onChange(s)
			}
			w.reloadMu.Unlock()
		}
	}
}

// classify says whether an event at path concerns a settings file (it is
// one, or a directory on the way to one) and whether it may change which
// directories exist on those ways. Call with w.mu held.
func (w *Watcher) classify(path string) (relevant, dirChange bool) {
	path = filepath.Clean(path)
	for _, f := range w.files {
		if path == f {
			relevant = true
		} else if strings.HasPrefix(f, path+string(filepath.Separator)) {
			relevant, dirChange = true, true
		}
	}
	return relevant, dirChange
}

// rewatch computes the settings files and watches, for each, its directory
// or the nearest existing ancestor. It returns the first error of the
// source's Add; a directory it could not add is tried again on the next
// rewatch. Call with w.mu held.
func (w *Watcher) rewatch() error {
	var firstErr error
	files := UserFiles(w.env)
	for _, root := range w.workspaces {
		files = append(files, WorkspaceFile(w.env, root))
	}
	w.files = w.files[:0]
	want := map[string]bool{}
	for _, f := range files {
		f = filepath.Clean(f)
		w.files = append(w.files, f)
		if d := nearestDir(filepath.Dir(f)); d != "" {
			want[d] = true
		}
	}
	for d := range want {
		if !w.watched[d] {
			if err := w.src.Add(d); err == nil {
				w.watched[d] = true
			} else if firstErr == nil {
				firstErr = err
			}
		}
	}
	for d := range w.watched {
		if !want[d] {
			_ = w.src.Remove(d) // fails when the directory is gone; fine
			delete(w.watched, d)
		}
	}
	return firstErr
}

// nearestDir returns dir if it is an existing directory, else its nearest
// existing ancestor directory, or "".
func nearestDir(dir string) string {
	for {
		fi, err := os.Stat(dir)
		if err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
