package settings

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ml-ai/command-safety/effects"
)

// fakeSource is an EventSource whose events the test sends. Events is
// unbuffered: a send returns once the watcher's loop has taken the event.
type fakeSource struct {
	mu      sync.Mutex
	dirs    map[string]bool
	failAdd error // returned by Add when set
	events  chan Event
	errs    chan error
	closed  bool
}

func newFakeSource() *fakeSource {
	return &fakeSource{dirs: map[string]bool{}, events: make(chan Event), errs: make(chan error)}
}

func (f *fakeSource) Add(dir string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failAdd != nil {
		return f.failAdd
	}
	f.dirs[dir] = true
	return nil
}

func (f *fakeSource) Remove(dir string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.dirs, dir)
	return nil
}

func (f *fakeSource) Events() <-chan Event { return f.events }
func (f *fakeSource) Errors() <-chan error { return f.errs }

func (f *fakeSource) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

func (f *fakeSource) watched() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var d []string
	for k := range f.dirs {
		d = append(d, k)
	}
	sort.Strings(d)
	return d
}

// send delivers an event, failing the test if the watcher does not take it.
func (f *fakeSource) send(t *testing.T, path string) {
	t.Helper()
	select {
	case f.events <- Event{Path: path}:
	case <-time.After(10 * time.Second):
		t.Fatalf("watcher did not take event %s", path)
	}
}

// barrier returns once the watcher has finished handling the events sent
// before: its loop takes one event at a time, and this one is irrelevant.
func (f *fakeSource) barrier(t *testing.T) {
	t.Helper()
	f.send(t, "/barrier/not/a/settings/file")
}

// snapshots collects OnChange calls.
type snapshots chan Snapshot

func (c snapshots) onChange(s Snapshot) {
	select {
	case c <- s:
	default:
		panic("test snapshot buffer full")
	}
}

// waitFor reads snapshots until one satisfies ok, within a bounded time, and
// returns it with the number of snapshots read (including it).
func (c snapshots) waitFor(t *testing.T, what string, ok func(Snapshot) bool) (Snapshot, int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	n := 0
	for {
		select {
		case s := <-c:
			n++
			if ok(s) {
				return s, n
			}
		case <-deadline:
			t.Fatalf("no snapshot with %s within 10s (%d others seen)", what, n)
		}
	}
}

func decides(s Snapshot, agent string, c effects.Class) effects.Decision {
	b, _ := s.Budgets.Effective(agent, "")
	return b.Decide(c)
}

func TestWatcherWatchesNearestExistingDirs(t *testing.T) {
	sb := newSandbox(t, 1)
	home := sb.env.Home
	write(t, sb.user[0], `{}`) // creates ~/.config/Code/User
	src := newFakeSource()
	w, err := NewWatcher(sb.env, sb.ws, WatchOptions{Source: src, OnChange: func(Snapshot) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	want := []string{
		home,              // ~/.local/share/code-server/User: nearest is ~
		sb.ws[0],          // .vscode does not exist yet
		home + "/.config", // the other editors' User dirs
		home + "/.config/Code/User",
	}
	sort.Strings(want)
	if diff := cmp.Diff(want, src.watched()); diff != "" {
		t.Fatalf("watched dirs (-want +got):\n%s", diff)
	}

	// .vscode appears: watch it instead of the root.
	vscode := filepath.Join(sb.ws[0], ".vscode")
	if err := os.Mkdir(vscode, 0o755); err != nil {
		t.Fatal(err)
	}
	src.send(t, vscode)
	src.barrier(t)
	want = []string{home, home + "/.config", home + "/.config/Code/User", vscode}
	sort.Strings(want)
	if diff := cmp.Diff(want, src.watched()); diff != "" {
		t.Fatalf("watched dirs after mkdir .vscode (-want +got):\n%s", diff)
	}

	// And back when it goes.
	if err := os.Remove(vscode); err != nil {
		t.Fatal(err)
	}
	src.send(t, vscode)
	src.barrier(t)
	want = []string{home, home + "/.config", home + "/.config/Code/User", sb.ws[0]}
	sort.Strings(want)
	if diff := cmp.Diff(want, src.watched()); diff != "" {
		t.Fatalf("watched dirs after rmdir .vscode (-want +got):\n%s", diff)
	}

	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if !src.closed {
		t.Error("Close did not close the source")
	}
}

func TestWatcherClassify(t *testing.T) {
	sb := newSandbox(t, 1)
	w, err := NewWatcher(sb.env, sb.ws, WatchOptions{Source: newFakeSource()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	home := sb.env.Home
	tests := []struct {
		path                string
		relevant, dirChange bool
	}{
		{sb.user[0], true, false},
		{sb.user[0] + "/", true, false},
		{sb.user[4], true, false},
		{WorkspaceFile(sb.env, sb.ws[0]), true, false},
		{filepath.Join(sb.ws[0], ".vscode"), true, true},
		{home + "/.config/Code", true, true},
		{home + "/.config", true, true},
		{home + "/.config/Code/User/settings.json.tmp", false, false},
		{home + "/.config/Code/User/keybindings.json", false, false},
		{home + "/.config/Codex", false, false},
		{filepath.Join(sb.ws[0], "main.go"), false, false},
		{filepath.Join(sb.ws[0], ".vscode", "launch.json"), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			w.mu.Lock()
			r, d := w.classify(tt.path)
			w.mu.Unlock()
			if r != tt.relevant || d != tt.dirChange {
				t.Errorf("classify(%s) = %v, %v; want %v, %v", sb.tag(tt.path), r, d, tt.relevant, tt.dirChange)
			}
		})
	}
}

func TestWatcherInjectedEvents(t *testing.T) {
	sb := newSandbox(t, 2)
	user := sb.user[0]
	write(t, user, `{"ml-ai.holdTimeout": "1m"}`)
	src := newFakeSource()
	got := make(snapshots, 100)
	w, err := NewWatcher(sb.env, sb.ws[:1], WatchOptions{Source: src, Debounce: 200 * time.Millisecond, OnChange: got.onChange})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if s := w.Snapshot(); s.HoldTimeout != time.Minute || !s.Enabled {
		t.Fatalf("initial snapshot: %+v", s)
	}

	// A burst of events makes one re-load.
	write(t, user, `{"ml-ai.holdTimeout": "2m"}`)
	for range 50 {
		src.send(t, user)
	}
	s, n := got.waitFor(t, "holdTimeout 2m", func(s Snapshot) bool { return s.HoldTimeout == 2*time.Minute })
	if n != 1 {
		t.Errorf("burst: %d snapshots before the new one, want it first", n-1)
	}
	if s.HoldTimeout != w.Snapshot().HoldTimeout {
		t.Errorf("Snapshot() = %v after OnChange(%v)", w.Snapshot().HoldTimeout, s.HoldTimeout)
	}
	write(t, user, `{"ml-ai.holdTimeout": "3m"}`)
	src.send(t, user)
	if _, n := got.waitFor(t, "holdTimeout 3m", func(s Snapshot) bool { return s.HoldTimeout == 3*time.Minute }); n != 1 {
		t.Errorf("the burst made %d extra snapshots, want none", n-1)
	}

	// A file that stops parsing keeps its last good values; its problem is
	// new once per change.
	write(t, user, `{"ml-ai.holdTimeout": "4m",,}`)
	src.send(t, user)
	s, _ = got.waitFor(t, "a parse error", func(s Snapshot) bool { return len(s.Problems) == 1 })
	if s.HoldTimeout != 3*time.Minute || len(s.New) != 1 {
		t.Errorf("broken file: HoldTimeout %v New %v, want 3m kept and one new problem", s.HoldTimeout, s.New)
	}
	src.send(t, user) // same content again
	s, _ = got.waitFor(t, "a snapshot", func(Snapshot) bool { return true })
	if len(s.Problems) != 1 || len(s.New) != 0 {
		t.Errorf("unchanged broken file: Problems %v New %v, want the problem, not new", s.Problems, s.New)
	}

	// A source error (overflow) re-loads.
	write(t, user, `{"ml-ai.holdTimeout": "5m"}`)
	select {
	case src.errs <- fmt.Errorf("overflow"):
	case <-time.After(10 * time.Second):
		t.Fatal("watcher did not take the error")
	}
	got.waitFor(t, "holdTimeout 5m after an error", func(s Snapshot) bool { return s.HoldTimeout == 5*time.Minute })

	// New workspaces are loaded and watched.
	write(t, WorkspaceFile(sb.env, sb.ws[1]), `{"ml-ai.commandSafety": false}`)
	w.SetWorkspaces(sb.ws)
	got.waitFor(t, "the second workspace's commandSafety false", func(s Snapshot) bool { return !s.Enabled })
	if !contains(src.watched(), filepath.Join(sb.ws[1], ".vscode")) {
		t.Errorf("second workspace's .vscode not watched: %v", src.watched())
	}

	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		t.Errorf("OnChange after Close: %+v", s)
	default:
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// atomicWrite saves like an editor: write a temporary file, rename it over path.
func atomicWrite(t *testing.T, path, content string) {
	t.Helper()
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tmp.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := tmp.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		t.Fatal(err)
	}
}

func TestWatcherFSNotify(t *testing.T) {
	sb := newSandbox(t, 1)
	user := sb.user[0]
	write(t, user, `{}`)
	got := make(snapshots, 1000)
	const debounce = 200 * time.Millisecond
	w, err := NewWatcher(sb.env, sb.ws, WatchOptions{Debounce: debounce, OnChange: got.onChange})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	start := time.Now()
	atomicWrite(t, user, `{"ml-ai.commandSafety": false} // saved`)
	got.waitFor(t, "commandSafety false", func(s Snapshot) bool { return !s.Enabled })
	t.Logf("atomic save to snapshot: %v (debounce %v)", time.Since(start), debounce)

	// A burst of 20 saves is coalesced.
	const burst = 20
	for i := 1; i <= burst; i++ {
		atomicWrite(t, user, fmt.Sprintf(`{"ml-ai.commandSafety": false, "ml-ai.holdTimeout": %d}`, i))
	}
	_, n := got.waitFor(t, "the last save of the burst", func(s Snapshot) bool { return s.HoldTimeout == burst*time.Second })
	atomicWrite(t, user, `{"ml-ai.commandSafety": false, "ml-ai.holdTimeout": 99}`)
	_, late := got.waitFor(t, "the save after the burst", func(s Snapshot) bool { return s.HoldTimeout == 99*time.Second })
	n += late - 1
	t.Logf("%d saves made %d snapshots", burst, n)
	if n > 2 {
		t.Errorf("%d saves made %d snapshots, want 1 (2 at most on a stalled machine)", burst, n)
	}

	// A .vscode created after start is picked up, then watched itself.
	wsFile := WorkspaceFile(sb.env, sb.ws[0])
	if err := os.Mkdir(filepath.Dir(wsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	atomicWrite(t, wsFile, `{"ml-ai.agentBudgets": {"default": {"network": "refuse"}}}`)
	got.waitFor(t, "the new workspace file", func(s Snapshot) bool { return decides(s, "default", effects.Network) == effects.Refuse })
	atomicWrite(t, wsFile, `{"ml-ai.agentBudgets": {"default": {"network": "refuse", "read": "prompt"}}}`)
	got.waitFor(t, "the edited workspace file", func(s Snapshot) bool { return decides(s, "default", effects.Read) == effects.Prompt })

	// A save that does not parse keeps the last good values.
	atomicWrite(t, wsFile, `{"ml-ai.agentBudgets": {`)
	s, _ := got.waitFor(t, "a parse error", func(s Snapshot) bool { return len(s.Problems) > 0 })
	if decides(s, "default", effects.Read) != effects.Prompt || len(s.New) != 1 {
		t.Errorf("after a bad save: read = %s, New = %v; want prompt kept and one new problem", decides(s, "default", effects.Read), s.New)
	}
}

// TestWatcherMaxWait checks that a never-ending stream of events still
// re-loads (at most every 10 debounce periods).
func TestWatcherMaxWait(t *testing.T) {
	sb := newSandbox(t, 0)
	write(t, sb.user[0], `{"ml-ai.holdTimeout": "1m"}`)
	src := newFakeSource()
	got := make(snapshots, 100)
	const debounce = 100 * time.Millisecond
	w, err := NewWatcher(sb.env, nil, WatchOptions{Source: src, Debounce: debounce, OnChange: got.onChange})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	write(t, sb.user[0], `{"ml-ai.holdTimeout": "2m"}`)
	stop := make(chan struct{})
	sent := make(chan int)
	go func() {
		n := 0
		tick := time.NewTicker(debounce / 10) // always inside the quiet period
		defer tick.Stop()
		for {
			select {
			case <-stop:
				sent <- n
				return
			case <-tick.C:
				select {
				case src.events <- Event{Path: sb.user[0]}:
					n++
				case <-stop:
					sent <- n
					return
				}
			}
		}
	}()
	// The stream is still running: only the max wait can produce this.
	got.waitFor(t, "holdTimeout 2m during the stream", func(s Snapshot) bool { return s.HoldTimeout == 2*time.Minute })
	close(stop)
	t.Logf("re-loaded after %d events", <-sent)
}

func TestNewWatcherFailsWhenItCannotWatch(t *testing.T) {
	sb := newSandbox(t, 0)
	src := newFakeSource()
	src.failAdd = errors.New("no space left on device")
	w, err := NewWatcher(sb.env, nil, WatchOptions{Source: src})
	if err == nil || !errors.Is(err, src.failAdd) {
		t.Fatalf("NewWatcher error = %v, want it to wrap %v", err, src.failAdd)
	}
	if w != nil {
		t.Error("NewWatcher returned a watcher with an error")
	}
	if !src.closed {
		t.Error("NewWatcher did not close the source after failing")
	}
}
