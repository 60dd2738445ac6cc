package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/effects"
)

// countOpens counts ReadFile's opens per path for the rest of the test.
func countOpens(t *testing.T) func(path string) int {
	var mu sync.Mutex
	counts := map[string]int{}
	old := openFile
	openFile = func(path string) (*os.File, error) {
		mu.Lock()
		counts[path]++
		mu.Unlock()
		return old(path)
	}
	t.Cleanup(func() { openFile = old })
	return func(path string) int {
		mu.Lock()
		defer mu.Unlock()
		return counts[path]
	}
}

// TestLoaderRereadsOnlyChangedFiles: a Loader's Load reads a file again only
// when a stat shows it changed (or its last read was racy); in-place writes
// of the same size are seen.
func TestLoaderRereadsOnlyChangedFiles(t *testing.T) {
	old := racyWindow
	racyWindow = 20 * time.Millisecond
	t.Cleanup(func() { racyWindow = old })
	opens := countOpens(t)
	sb := newSandbox(t, 1)
	user, ws := sb.user[0], WorkspaceFile(sb.env, sb.ws[0])
	write(t, user, `{"ml-ai.commandSafety": true }`)
	write(t, ws, `{}`)
	var l Loader
	if s := l.Load(sb.env, sb.ws); !s.Enabled {
		t.Fatal("not enabled")
	}
	// Within the racy window the files are read every time.
	l.Load(sb.env, sb.ws)
	if n := opens(user); n != 2 {
		t.Errorf("%d reads of a file changed just before its read, want 2", n)
	}
	time.Sleep(3 * racyWindow)
	l.Load(sb.env, sb.ws) // a read after the window: trusted from now on
	for range 5 {
		l.Load(sb.env, sb.ws)
	}
	if n := opens(user); n != 3 {
		t.Errorf("%d reads of an unchanged file, want 3", n)
	}
	if n := opens(sb.user[1]); n != 1 {
		t.Errorf("a missing file was opened %d times, want once (then a stat says it is still missing)", n)
	}
	// Same size, in place, right away: the times and ctime differ.
	if err := os.WriteFile(user, []byte(`{"ml-ai.commandSafety": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := l.Load(sb.env, sb.ws); s.Enabled {
		t.Error("an in-place write of the same size was not seen")
	}
	// A file that appears is read; one that goes is dropped.
	write(t, sb.user[1], `{"ml-ai.holdTimeout": "1m"}`)
	if s := l.Load(sb.env, sb.ws); s.HoldTimeout != time.Minute {
		t.Errorf("a new file was not read: %v", s.HoldTimeout)
	}
	if err := os.Remove(ws); err != nil {
		t.Fatal(err)
	}
	write(t, ws+".x", "{}") // the directory changes too
	if s := l.Load(sb.env, sb.ws); len(s.Problems) != 0 {
		t.Errorf("problems after removing a file: %v", s.Problems)
	}
}

// TestWatcherCurrent: Current sees a change no event reported yet, calls
// OnChange once for it, and not again while nothing changes.
func TestWatcherCurrent(t *testing.T) {
	sb := newSandbox(t, 1)
	user := sb.user[0]
	write(t, user, `{"ml-ai.commandSafety": true }`)
	src := newFakeSource() // sends no events: only Current can notice
	got := make(snapshots, 100)
	w, err := NewWatcher(sb.env, sb.ws, WatchOptions{Source: src, OnChange: got.onChange})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i, want := range []bool{false, true, false, true} {
		text := map[bool]string{true: `{"ml-ai.commandSafety": true }`, false: `{"ml-ai.commandSafety": false}`}[want]
		if i%2 == 0 {
			atomicWrite(t, user, text)
		} else if err := os.WriteFile(user, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if s := w.Current(); s.Enabled != want {
			t.Errorf("save %d: Current().Enabled = %t, want %t", i, s.Enabled, want)
		}
		select {
		case s := <-got:
			if s.Enabled != want {
				t.Errorf("save %d: OnChange with Enabled %t, want %t", i, s.Enabled, want)
			}
		default:
			t.Errorf("save %d: no OnChange", i)
		}
		if w.Snapshot().Enabled != want {
			t.Errorf("save %d: Snapshot() not updated", i)
		}
	}
	w.Current()
	w.Current()
	if len(got) != 0 {
		t.Errorf("%d OnChange calls without a change, want none", len(got))
	}
	// A new problem reaches OnChange, once.
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.bogus": 1}`)
	if s := w.Current(); len(s.Problems) != 1 || len(s.New) != 0 {
		t.Errorf("Current: Problems %v New %v, want one problem, New left to OnChange", s.Problems, s.New)
	}
	if s := <-got; len(s.New) != 1 {
		t.Errorf("OnChange New %v, want the problem", s.New)
	}
}

// TestWatcherCurrentExtraRoots: roots a request names add their settings
// for that call only; their problems are new once.
func TestWatcherCurrentExtraRoots(t *testing.T) {
	sb := newSandbox(t, 2)
	write(t, WorkspaceFile(sb.env, sb.ws[1]), `{"ml-ai.agentBudgets": {"default": {"read": "refuse", "network": "allow"}}, "ml-ai.bogus": 1}`)
	got := make(snapshots, 100)
	w, err := NewWatcher(sb.env, sb.ws[:1], WatchOptions{Source: newFakeSource(), OnChange: got.onChange})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s := w.Current(sb.ws[1])
	if decides(s, "default", effects.Read) != effects.Refuse {
		t.Error("the extra root's tightening does not apply")
	}
	if decides(s, "default", effects.Network) != effects.Prompt {
		t.Error("the extra root loosened network")
	}
	var news []string
	for _, p := range s.New {
		news = append(news, sb.tag(p.String()))
	}
	if len(news) != 2 || !strings.Contains(news[0], "ws1") || !strings.Contains(strings.Join(news, "\n"), "ml-ai.bogus") {
		t.Errorf("New = %v, want the extra root's two problems", news)
	}
	if s := w.Current(sb.ws[1]); len(s.New) != 0 {
		t.Errorf("New again: %v", s.New)
	}
	if s := w.Current(); decides(s, "default", effects.Read) != effects.Allow || len(s.Problems) != 0 {
		t.Errorf("the extra root leaked into the watcher's settings: %v", s.Problems)
	}
	if s := w.Current(sb.ws[0], sb.ws[1]); len(s.New) != 0 {
		t.Errorf("New after a snapshot without the extra root: %v", s.New)
	}
	if len(got) != 0 {
		t.Errorf("OnChange called %d times for extra roots", len(got))
	}
}

// TestFromSectionsWithFiles: files of folders the client was not asked
// about tighten the client's sections.
func TestFromSectionsWithFiles(t *testing.T) {
	sb := newSandbox(t, 1)
	write(t, WorkspaceFile(sb.env, sb.ws[0]), `{"ml-ai.commandSafety": false, "ml-ai.agentBudgets": {"default": {"network": "allow"}}}`)
	var l Loader
	user := map[string]any{"agentBudgets": map[string]any{"default": map[string]any{"network": "prompt"}}}
	s := l.FromSectionsWithFiles(sb.env, user, nil, sb.ws)
	if s.Enabled || decides(s, "default", effects.Network) != effects.Prompt {
		t.Errorf("Enabled %t network %s, want false and prompt", s.Enabled, decides(s, "default", effects.Network))
	}
	if len(s.New) != 1 || !strings.Contains(s.New[0].String(), "looser than the user's") {
		t.Errorf("New = %v, want the looser entry's warning", s.New)
	}
	if s := l.FromSections(user, nil); !s.Enabled {
		t.Error("FromSections kept the file's settings")
	}
	if s := l.FromSectionsWithFiles(sb.env, user, nil, sb.ws); len(s.New) != 0 {
		t.Errorf("the warning is new again: %v", s.New)
	}
}

// TestWatcherCurrentConcurrent: Current from several goroutines while the
// watcher's own loop re-loads on events; OnChange calls never overlap and
// never go back to an older snapshot (run with -race).
func TestWatcherCurrentConcurrent(t *testing.T) {
	sb := newSandbox(t, 1)
	user := sb.user[0]
	write(t, user, `{"ml-ai.holdTimeout": 1}`)
	src := newFakeSource()
	var inCall atomic.Bool
	var mu sync.Mutex
	last := time.Duration(0)
	w, err := NewWatcher(sb.env, sb.ws, WatchOptions{Source: src, Debounce: time.Millisecond, OnChange: func(s Snapshot) {
		if !inCall.CompareAndSwap(false, true) {
			t.Error("OnChange calls overlap")
		}
		mu.Lock()
		if s.HoldTimeout < last {
			t.Errorf("OnChange went back from %v to %v", last, s.HoldTimeout)
		}
		last = s.HoldTimeout
		mu.Unlock()
		inCall.Store(false)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					w.Current(sb.ws[0])
				}
			}
		})
	}
	for i := 2; i <= 40; i++ {
		atomicWrite(t, user, fmt.Sprintf(`{"ml-ai.holdTimeout": %d}`, i))
		src.send(t, user)
	}
	close(stop)
	wg.Wait()
	if s := w.Current(); s.HoldTimeout != 40*time.Second {
		t.Errorf("HoldTimeout %v after the last save, want 40s", s.HoldTimeout)
	}
}

// BenchmarkWatcherCurrent is the check before each serve decision when no
// file changed: one stat per settings file (five user files, one workspace).
func BenchmarkWatcherCurrent(b *testing.B) {
	old := racyWindow
	racyWindow = 0 // the files were just written; trust them as a long-lived server would
	b.Cleanup(func() { racyWindow = old })
	dir := b.TempDir()
	env := Env{GOOS: "linux", Home: dir}
	ws := filepath.Join(dir, "ws")
	for _, f := range append(UserFiles(env)[:1], WorkspaceFile(env, ws)) {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(`{"ml-ai.agentBudgets": {"x": {"read": "allow"}}}`), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	w, err := NewWatcher(env, []string{ws}, WatchOptions{Source: NewPollSource()})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			w.Current()
		}
	})
	b.Run("request folder", func(b *testing.B) {
		other := filepath.Join(dir, "other")
		for b.Loop() {
			w.Current(other)
		}
	})
}
