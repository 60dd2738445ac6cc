package audit

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

func TestRecord(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	allow := verdict("ls", "copilot", part(effects.Read, "ls", "ls", effects.Allow))
	got, err := Record(ctx, l, allow, "s", StatusAsked)
	if err != nil {
		t.Fatal(err)
	}
	if got.LogID == 0 || got.ID != itoa(got.LogID) || got.Decision != effects.Allow || got.Reason != allow.Reason {
		t.Errorf("Record = id %q logId %d %s %q; want the log id and the verdict unchanged", got.ID, got.LogID, got.Decision, got.Reason)
	}
	withID := allow
	withID.ID = "req-1"
	if got, err := Record(ctx, l, withID, "s", StatusAsked); err != nil || got.ID != "req-1" || got.LogID == 0 {
		t.Errorf("Record with a caller id = %q %d, %v", got.ID, got.LogID, err)
	}
}

// unwritable returns logs that cannot be written, each with a name.
func unwritable(t *testing.T) map[string]func() (*Log, error) {
	m := map[string]func() (*Log, error){
		"not open": func() (*Log, error) { return nil, nil },
		"open fails: parent is a file": func() (*Log, error) {
			f := filepath.Join(t.TempDir(), "file")
			if err := os.WriteFile(f, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			l, err := Open(filepath.Join(f, "ml-ai", "decisions.db"))
			if err == nil {
				t.Fatal("Open under a file succeeded")
			}
			return l, err
		},
		"open fails: /proc, not writable even by root": func() (*Log, error) {
			l, err := Open("/proc/ml-ai-test/decisions.db")
			if err == nil {
				t.Fatal("Open under /proc succeeded")
			}
			return l, err
		},
		"closed": func() (*Log, error) {
			l := openTemp(t)
			l.Close()
			return l, nil
		},
		"locked by another writer": func() (*Log, error) {
			l := openTemp(t)
			db := rawConn(t, l.Path())
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.ExecContext(context.Background(), "ROLLBACK"); conn.Close() })
			return l, nil
		},
	}
	if os.Geteuid() != 0 { // root writes into read-only directories
		m["open fails: read-only directory"] = func() (*Log, error) {
			d := filepath.Join(t.TempDir(), "ro")
			if err := os.Mkdir(d, 0o500); err != nil {
				t.Fatal(err)
			}
			l, err := Open(filepath.Join(d, "ml-ai", "decisions.db"))
			if err == nil {
				t.Fatal("Open in a read-only directory succeeded")
			}
			return l, err
		}
	}
	return m
}

func TestRecordUnavailable(t *testing.T) {
	base := []gate.Verdict{
		verdict("ls", "copilot", part(effects.Read, "ls", "ls", effects.Allow)),
		verdict("git push", "copilot", part(effects.Network, "git push", "git", effects.Prompt)),
		verdict("sudo ls", "copilot", part(effects.Privilege, "sudo ls", "sudo", effects.Refuse)),
	}
	for name, mk := range unwritable(t) {
		t.Run(name, func(t *testing.T) {
			l, openErr := mk()
			for _, v := range base {
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				got, err := Record(ctx, l, v, "s", StatusAsked)
				cancel()
				if !errors.Is(err, ErrUnavailable) {
					t.Fatalf("%s: Record error %v, want ErrUnavailable", v.Command, err)
				}
				if got.LogID != 0 {
					t.Errorf("%s: LogID %d, want 0", v.Command, got.LogID)
				}
				want := v.Decision
				if want == effects.Allow {
					want = effects.Prompt
				}
				if got.Decision != want {
					t.Errorf("%s: decision %s, want %s", v.Command, got.Decision, want)
				}
				if v.Decision == effects.Allow {
					if !strings.HasPrefix(got.Reason, v.Reason+"; the decision log is unavailable") {
						t.Errorf("%s: reason %q does not say the log is unavailable", v.Command, got.Reason)
					}
				} else if got.Reason != v.Reason {
					t.Errorf("%s: reason changed to %q", v.Command, got.Reason)
				}
			}
			if openErr != nil {
				d := Downgrade(base[0], openErr)
				if d.Decision != effects.Prompt || !strings.Contains(d.Reason, "the decision log is unavailable: open decision log") {
					t.Errorf("Downgrade(open error) = %s %q", d.Decision, d.Reason)
				}
			}
		})
	}
}

// TestHugeCommandStoredBounded: a command over the size limit (refused as
// too-large) is kept as a bounded prefix with its length and SHA-256, so 100
// refused 1 MiB commands add kilobytes each, not two copies of a megabyte.
func TestHugeCommandStoredBounded(t *testing.T) {
	l := openTemp(t)
	huge := "echo " + strings.Repeat("é", (1<<20)/2) // 1 MiB, multi-byte runes
	sum := fmt.Sprintf("%x", sha256.Sum256([]byte(huge)))
	var id int64
	for range 100 {
		v := gate.Decide(gate.Request{Command: huge, Cwd: "/w", Workspaces: []string{"/w"}, Home: "/h"}, gate.DefaultPolicy(), nil)
		if v.Decision != effects.Refuse || v.Rule != "too-large" {
			t.Fatalf("a 1 MiB command: %s %s, want refuse too-large", v.Decision, v.Rule)
		}
		id = mustAppend(t, l, v)
	}
	e, err := l.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Command) > 4<<10+200 || !strings.HasPrefix(e.Command, "echo éé") ||
		!strings.Contains(e.Command, sum) || !strings.Contains(e.Command, fmt.Sprint(len(huge), " bytes")) || !utf8.ValidString(e.Command) {
		t.Errorf("stored command (%d bytes) %q…", len(e.Command), e.Command[:min(len(e.Command), 100)])
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	size := int64(0)
	for _, suffix := range []string{"", "-wal"} {
		if st, err := os.Stat(l.Path() + suffix); err == nil {
			size += st.Size()
		}
	}
	if size > 8<<20 {
		t.Errorf("the log is %d bytes after 100 refused 1 MiB commands, want a few MB at most", size)
	}
	// A command at the limit is kept in full.
	if c := strings.Repeat("a", gate.MaxCommandBytes); storedCommand(c) != c {
		t.Error("a command at the limit was shortened")
	}
}

// TestRefusedBeforeClassificationReadsBack: parts refused before they could
// be classified (unparseable, too deep) carry the effect "unknown"; the log
// reads such rows back. One such row used to make every query of the log
// fail ("bad effects: unknown effect"), `command-safety log` included.
func TestRefusedBeforeClassificationReadsBack(t *testing.T) {
	l := openTemp(t)
	for _, c := range []string{"echo $((", "if then fi", strings.Repeat("(", 70) + "ls" + strings.Repeat(")", 70)} {
		// As bash: zsh reads `if then fi`, so under an unknown shell it prompts.
		v := gate.Decide(gate.Request{Command: c, Cwd: "/w", Workspaces: []string{"/w"}, Home: "/h", Shell: gate.ShellBash}, gate.DefaultPolicy(), nil)
		if v.Decision != effects.Refuse {
			t.Fatalf("%q: %s, want refuse", c, v.Decision)
		}
		mustAppend(t, l, v)
	}
	rows, err := l.Query(context.Background(), Filter{})
	if err != nil || len(rows) != 3 {
		t.Fatalf("query: %d rows, %v", len(rows), err)
	}
	if rows[0].Effects[0].Effect != effects.Unknown {
		t.Errorf("effect %s, want unknown", rows[0].Effects[0].Effect)
	}
}

// TestGroupCommit: appends from many goroutines at once all land, each id
// once, with fewer transactions than rows (issue 17 point 3), and none waits
// past LockWait for the others.
func TestGroupCommit(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	const writers, each = 8, 40
	var mu sync.Mutex
	ids := map[int64]string{}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				cmd := fmt.Sprintf("echo %d %d", w, i)
				id, err := l.Append(ctx, verdict(cmd, "a", part(effects.Read, cmd, "echo", effects.Allow)), "t", StatusAsked)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if prev, dup := ids[id]; dup {
					t.Errorf("id %d for %q and %q", id, prev, cmd)
				}
				ids[id] = cmd
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if n := countRows(t, l, ""); n != writers*each || len(ids) != writers*each {
		t.Fatalf("%d rows, %d ids; want %d", n, len(ids), writers*each)
	}
	if c := l.commits.Load(); c >= writers*each {
		t.Errorf("%d transactions for %d rows: none was shared", c, writers*each)
	} else {
		t.Logf("%d rows in %d transactions", writers*each, c)
	}
	for id, cmd := range ids {
		if e, err := l.Get(ctx, id); err != nil || e.Command != cmd {
			t.Errorf("row %d: %q (%v), want %q", id, e.Command, err, cmd)
		}
	}
}

// TestGroupCommitRowFailsAlone: in a batch, a row that violates a
// constraint fails alone; the others are written.
func TestGroupCommitRowFailsAlone(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	var batch []*appendReq
	for i, cmd := range []string{"ls a", "ls bad", "ls c"} {
		r, err := newRow(verdict(cmd, "a", part(effects.Read, cmd, "ls", effects.Allow)), "t", StatusAsked)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			r.Status = "approved" // verdicts_new_state aborts it
		}
		batch = append(batch, &appendReq{ctx: ctx, row: r, queued: time.Now(), done: make(chan appendResult, 1)})
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	batch = append(batch, &appendReq{ctx: done, row: batch[0].row, queued: time.Now(), done: make(chan appendResult, 1)})
	l.commit(batch)
	var got []appendResult
	for _, r := range batch {
		got = append(got, <-r.done)
	}
	if got[0].err != nil || got[2].err != nil || got[1].err == nil || got[3].err == nil {
		t.Fatalf("results %+v: want rows 0 and 2 written, 1 (constraint) and 3 (cancelled) failed", got)
	}
	if n := countRows(t, l, ""); n != 2 {
		t.Errorf("%d rows, want 2", n)
	}
	for _, i := range []int{0, 2} {
		if e, err := l.Get(ctx, got[i].id); err != nil || e.Command != batch[i].row.Command {
			t.Errorf("row %d: %+v, %v", got[i].id, e, err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, verdict("ls", "a"), "t", StatusAsked); err == nil {
		t.Error("append after Close succeeded")
	}
}

// TestGroupCommitPanicPassesLead: a commit that panics (a bug; serve
// recovers from panics and goes on) fails its rows and passes the lead on,
// so that the next append does not wait for ever.
func TestGroupCommitPanicPassesLead(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	stmt := l.insertVerdict
	l.insertVerdict = nil // the insert dereferences it
	func() {
		defer func() {
			if recover() == nil {
				t.Error("append with a broken statement did not panic")
			}
		}()
		l.Append(ctx, verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)), "t", StatusAsked)
	}()
	l.insertVerdict = stmt
	done := make(chan error, 1)
	go func() {
		_, err := l.Append(ctx, verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)), "t", StatusAsked)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("append after the panic: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("append after a panicked commit waits for ever")
	}
}
