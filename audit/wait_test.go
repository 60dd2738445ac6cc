package audit

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/effects"
)

// pendingRow appends a prompt and returns its id.
func pendingRow(t *testing.T, l *Log, cmd string) int64 {
	t.Helper()
	return mustAppend(t, l, verdict(cmd, "claude-code", part(effects.Network, cmd, "curl", effects.Prompt)))
}

// heldRow appends a prompt held by a hook in hold mode.
func heldRow(t *testing.T, l *Log, cmd string) int64 {
	t.Helper()
	id, err := l.Append(context.Background(), verdict(cmd, "claude-code", part(effects.Network, cmd, "curl", effects.Prompt)), "hook", StatusHeld)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// second opens the same file again: its own connection pool, as another
// process would have.
func second(t *testing.T, l *Log) *Log {
	t.Helper()
	o, err := Open(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

func TestWaitResolvedReleasedElsewhere(t *testing.T) {
	for _, outcome := range []Status{StatusApproved, StatusRejected} {
		t.Run(string(outcome), func(t *testing.T) {
			l := openTemp(t)
			id := pendingRow(t, l, "curl https://example.com")
			other := second(t, l)
			var resolving atomic.Bool // set just before the other connection resolves
			resolved := make(chan time.Time, 1)
			go func() {
				time.Sleep(300 * time.Millisecond)
				resolving.Store(true)
				if err := other.Resolve(context.Background(), id, outcome, "alice"); err != nil {
					t.Error(err)
				}
				resolved <- time.Now()
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			e, err := l.WaitResolved(ctx, id, 50*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			// Ordered, not timed: the wait ends only once the resolve began.
			if !resolving.Load() {
				t.Error("WaitResolved returned before the row was resolved")
			}
			done := time.Now()
			at := <-resolved
			if e.Status != outcome || e.Reviewer != "alice" || e.LogID != id {
				t.Errorf("got status %s reviewer %q id %d, want %s alice %d", e.Status, e.Reviewer, e.LogID, outcome, id)
			}
			// The release reaches the waiter at its next read; the bound is
			// loose so a loaded machine does not fail it (a broken wait
			// runs into the 30 s context instead).
			if lag := done.Sub(at); lag > 5*time.Second {
				t.Errorf("released %v after the resolve, want within a few polls", lag)
			}
		})
	}
}

func TestWaitResolvedAtOnce(t *testing.T) {
	l := openTemp(t)
	auto := mustAppend(t, l, verdict("ls", "copilot", part(effects.Read, "ls", "ls", effects.Allow)))
	done := pendingRow(t, l, "curl x")
	if err := l.Resolve(context.Background(), done, StatusRejected, "bob"); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]Status{auto: StatusAuto, done: StatusRejected} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		start := time.Now()
		e, err := l.WaitResolved(ctx, id, time.Hour) // an interval it must not wait for
		cancel()
		if err != nil || e.Status != want {
			t.Errorf("id %d: status %s, err %v; want %s", id, e.Status, err, want)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("id %d: took %v", id, d)
		}
	}
	if _, err := l.WaitResolved(context.Background(), 9999, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: err %v, want ErrNotFound", err)
	}
}

func TestWaitResolvedContextEnds(t *testing.T) {
	l := openTemp(t)
	id := pendingRow(t, l, "curl x")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	e, err := l.WaitResolved(ctx, id, 20*time.Millisecond)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want DeadlineExceeded", err)
	}
	if !e.Status.Waiting() || e.LogID != id {
		t.Errorf("entry status %s id %d, want the pending row %d", e.Status, e.LogID, id)
	}
	got, _ := l.Get(context.Background(), id)
	if !got.Status.Waiting() {
		t.Errorf("WaitResolved changed the row: %s", got.Status)
	}
}

func TestHoldNote(t *testing.T) {
	until := time.Date(2026, 11, 30, 9, 10, 0, 0, time.UTC)
	note := HoldNote(until, 4321, "box.local")
	got, ok := HeldUntil(note)
	if !ok || !got.Equal(until) {
		t.Errorf("HeldUntil(%q) = %v, %v", note, got, ok)
	}
	if _, pid, host, ok := parseHoldNote(note); !ok || pid != 4321 || host != "box.local" {
		t.Errorf("parseHoldNote(%q) = %d %q %v", note, pid, host, ok)
	}
	// A note written before holders were recorded still reads.
	if got, ok := HeldUntil(holdPrefix + until.Format(time.RFC3339)); !ok || !got.Equal(until) {
		t.Errorf("old note: %v %v", got, ok)
	}
	for _, note := range []string{"", "held", "a note", holdPrefix + "tomorrow"} {
		if _, ok := HeldUntil(note); ok {
			t.Errorf("HeldUntil(%q) is true", note)
		}
	}
}

// TestReleaseOrphanedHolds: a held row whose holder no longer runs, or that
// is still pending a minute after its timeout, is rejected as hold-gone;
// a row whose holder runs, and other pending rows, stay pending.
func TestReleaseOrphanedHolds(t *testing.T) {
	l := openTemp(t)
	host, _ := os.Hostname()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rows := map[string]int64{}
	for name, note := range map[string]string{
		"holder gone":      HoldNote(time.Now().Add(time.Hour), dead.Process.Pid, host),
		"long past":        HoldNote(time.Now().Add(-2*orphanGrace), os.Getpid(), host),
		"old note, past":   holdPrefix + time.Now().Add(-2*orphanGrace).UTC().Format(time.RFC3339),
		"holder runs":      HoldNote(time.Now().Add(time.Hour), os.Getpid(), host),
		"other host":       HoldNote(time.Now().Add(time.Hour), dead.Process.Pid, host+".elsewhere"),
		"prompt, not held": "",
		"held, no note":    "-", // its hook was killed before the hold note: not known to be gone
	} {
		var id int64
		switch note {
		case "":
			id = pendingRow(t, l, "curl "+name)
		case "-":
			id = heldRow(t, l, "curl "+name)
		default:
			id = heldRow(t, l, "curl "+name)
			if err := l.Annotate(ctx, id, note); err != nil {
				t.Fatal(err)
			}
		}
		rows[name] = id
	}
	n, err := l.ReleaseOrphanedHolds(ctx)
	if err != nil || n != 3 {
		t.Errorf("released %d (%v), want 3", n, err)
	}
	for name, id := range rows {
		e, err := l.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		gone := name == "holder gone" || name == "long past" || name == "old note, past"
		if gone && (e.Status != StatusRejected || e.Reviewer != ReviewerGone || !strings.Contains(e.Note, "may have run")) {
			t.Errorf("%s: %s by %q, note %q; want rejected by %s", name, e.Status, e.Reviewer, e.Note, ReviewerGone)
		}
		if !gone && !e.Status.Waiting() {
			t.Errorf("%s: %s, want pending", name, e.Status)
		}
	}
}

func TestHold(t *testing.T) {
	t.Run("approved", func(t *testing.T) {
		l := openTemp(t)
		id := pendingRow(t, l, "curl x")
		go func() {
			time.Sleep(100 * time.Millisecond)
			if err := second(t, l).Resolve(context.Background(), id, StatusApproved, "carol"); err != nil {
				t.Error(err)
			}
		}()
		res, err := l.Hold(context.Background(), id, 10*time.Second, 20*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Approved() || res.TimedOut || res.Cancelled || res.Entry.Reviewer != "carol" {
			t.Errorf("got %+v", res)
		}
		if until, ok := HeldUntil(res.Entry.Note); !ok || time.Until(until) < 8*time.Second {
			t.Errorf("note %q: want a hold note until about 10s from now", res.Entry.Note)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		l := openTemp(t)
		id := pendingRow(t, l, "curl x")
		start := time.Now()
		res, err := l.Hold(context.Background(), id, 300*time.Millisecond, 20*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < 300*time.Millisecond || d > 3*time.Second {
			t.Errorf("hold took %v, want about 300ms", d)
		}
		if res.Approved() || !res.TimedOut || res.Cancelled || res.Timeout != 300*time.Millisecond {
			t.Errorf("got %+v", res)
		}
		if res.Entry.Status != StatusRejected || res.Entry.Reviewer != ReviewerTimeout || res.Entry.Note == "" {
			t.Errorf("row: status %s reviewer %q note %q", res.Entry.Status, res.Entry.Reviewer, res.Entry.Note)
		}
		// A late approval cannot flip a command that was already denied.
		err = l.Resolve(context.Background(), id, StatusApproved, "late")
		var se *StateError
		if !errors.As(err, &se) || se.Status != StatusRejected || se.Reviewer != ReviewerTimeout {
			t.Errorf("late approval: %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		l := openTemp(t)
		id := pendingRow(t, l, "curl x")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		res, err := l.Hold(ctx, id, time.Minute, 20*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if res.Approved() || res.TimedOut || !res.Cancelled || res.Entry.Reviewer != ReviewerCancelled {
			t.Errorf("got %+v", res)
		}
	})
	t.Run("answered in the last instant", func(t *testing.T) {
		// The human's answer lands after the wait ended but before the
		// hold's own rejection: theirs stands and is what the hold reports.
		l := openTemp(t)
		id := pendingRow(t, l, "curl x")
		if err := l.Resolve(context.Background(), id, StatusApproved, "dave"); err != nil {
			t.Fatal(err)
		}
		res, err := l.Hold(context.Background(), id, time.Nanosecond, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Approved() || res.TimedOut || res.Entry.Reviewer != "dave" {
			t.Errorf("got %+v", res)
		}
	})
}
