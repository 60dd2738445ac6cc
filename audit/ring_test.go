package audit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/journal"
)

// openAt opens the log at path for the test.
func openAt(t *testing.T, path string) *Log {
	t.Helper()
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// rings lists the ring files beside l.
func rings(t *testing.T, l *Log) []journal.RingFile {
	t.Helper()
	rs, err := journal.ListRings(journal.RingDir(l.Path()))
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestRingRecord: with a ring, allow and refuse verdicts are answered
// without a log id, under a key of their own that the row keeps as its
// request id; every reader sees them at once (it takes the ring in first);
// a prompt still gets its row at once, after the verdicts answered before
// it; closing the log takes the ring in and removes its file.
func TestRingRecord(t *testing.T) {
	l := openTemp(t)
	if err := l.UseRing(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	allow := verdict("ls", "copilot", part(effects.Read, "ls", "ls", effects.Allow))
	refuse := verdict("rm -rf ~", "copilot", part(effects.Deletion, "rm -rf ~", "rm", effects.Refuse))
	prompt := verdict("npm install x", "copilot", part(effects.Network, "npm install x", "npm", effects.Prompt))
	var keys []string
	for _, v := range []gate.Verdict{allow, refuse} {
		rv, err := Record(ctx, l, v, "s1", StatusAsked)
		if err != nil || rv.LogID != 0 || rv.ID == "" {
			t.Fatalf("Record(%s) = logId %d id %q, %v; want no log id, a key", v.Command, rv.LogID, rv.ID, err)
		}
		if rv.Decision != v.Decision {
			t.Errorf("Record(%s) decision %s, want %s", v.Command, rv.Decision, v.Decision)
		}
		keys = append(keys, rv.ID)
	}
	if keys[0] == keys[1] {
		t.Errorf("two verdicts share the key %q", keys[0])
	}
	// The caller's id is kept.
	withID := allow
	withID.ID = "caller-7"
	if rv, err := Record(ctx, l, withID, "s1", StatusAsked); err != nil || rv.ID != "caller-7" {
		t.Errorf("Record with the caller's id = %q, %v", rv.ID, err)
	}
	if n := countRows(t, l, ""); n != 0 {
		t.Errorf("%d rows in the log before any ingest, want 0 (the ring holds them)", n)
	}
	// Another process's reader sees them at once.
	other, err := Open(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	es, err := other.Query(ctx, Filter{Limit: 10})
	if err != nil || len(es) != 3 {
		t.Fatalf("other reader: %d rows, %v; want 3", len(es), err)
	}
	for i, key := range keys {
		if n := countRows(t, l, "WHERE request_id = ?", key); n != 1 {
			t.Errorf("verdict %d (%s): %d rows, want 1", i, key, n)
		}
	}
	// A prompt goes to the log at once, with an id above theirs.
	more, err := Record(ctx, l, allow, "s1", StatusAsked)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := Record(ctx, l, prompt, "s1", StatusAsked)
	if err != nil || pv.LogID == 0 {
		t.Fatalf("prompt: logId %d, %v; want a row", pv.LogID, err)
	}
	var maxOther int64
	if err := l.db.QueryRow(`SELECT max(id) FROM verdicts WHERE id != ?`, pv.LogID).Scan(&maxOther); err != nil {
		t.Fatal(err)
	}
	if maxOther >= pv.LogID || countRows(t, l, "WHERE request_id = ?", more.ID) != 1 {
		t.Errorf("prompt id %d, other rows up to %d (the allow before it: %d rows); want the prompt last",
			pv.LogID, maxOther, countRows(t, l, "WHERE request_id = ?", more.ID))
	}
	if err := l.Resolve(ctx, pv.LogID, StatusApproved, "ada"); err != nil {
		t.Errorf("resolve the prompt: %v", err)
	}
	if _, err := Record(ctx, l, refuse, "s1", StatusAsked); err != nil {
		t.Fatal(err)
	}
	if got := len(rings(t, l)); got != 1 {
		t.Fatalf("%d rings, want 1", got)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if rs := rings(t, l); len(rs) != 0 {
		t.Errorf("rings left after Close: %v", rs)
	}
	if n := countRows(t, other, ""); n != 6 {
		t.Errorf("%d rows after Close, want 6", n)
	}
	if n := countRows(t, other, "WHERE decision != 'prompt' AND status != 'auto'"); n != 0 {
		t.Errorf("%d allow or refuse rows not auto", n)
	}
}

// TestRingManyBatches: more verdicts than the ring holds, from goroutines at
// once, each answered and in the log exactly once: the ring starts again at
// offset 0 once the log holds it, and is taken in when full.
func TestRingManyBatches(t *testing.T) {
	l := openTemp(t)
	if err := l.UseRing(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	const writers, each = 8, 400 // about 3 MiB of frames: the ring is 1 MiB
	pad := strings.Repeat("x", 800)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
	direct := 0
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				cmd := fmt.Sprintf("echo %d %d %s", w, i, pad)
				rv, err := Record(ctx, l, verdict(cmd, "a", part(effects.Read, "echo", "echo", effects.Allow)), "s", StatusAsked)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if rv.LogID != 0 {
					direct++
				}
				seen[rv.ID] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// Verdicts ready together share an fdatasync.
	syncs := l.ring.syncs.Load()
	if syncs >= int64(writers*each-direct) {
		t.Errorf("%d fdatasyncs for %d verdicts in the ring from %d goroutines: none shared", syncs, writers*each-direct, writers)
	}
	t.Logf("%.1f verdicts per fdatasync", float64(writers*each-direct)/float64(syncs))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	r := openAt(t, l.Path())
	if n := countRows(t, r, ""); n != writers*each {
		t.Errorf("%d rows, want %d", n, writers*each)
	}
	if n := countRows(t, r, "WHERE request_id != ''"); n != writers*each-direct || len(seen) != writers*each {
		t.Errorf("%d rows with a key (%d answered directly), %d distinct keys; want %d", n, direct, len(seen), writers*each)
	}
	var dups int
	if err := r.db.QueryRow(`SELECT count(*) FROM (SELECT command FROM verdicts GROUP BY command HAVING count(*) > 1)`).Scan(&dups); err != nil || dups != 0 {
		t.Errorf("%d commands logged twice, %v", dups, err)
	}
	t.Logf("%d of %d verdicts went to the log directly (ring full and the log busy)", direct, writers*each)
}

// TestRingAbandoned: a ring whose process ended without taking it in (it
// crashed) is taken in by the next process that opens the log, once, and
// removed; a ring still held by its process is read but kept.
func TestRingAbandoned(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.db")
	l := openAt(t, path)
	r, err := journal.CreateRing(journal.RingDir(path))
	if err != nil {
		t.Fatal(err)
	}
	var payloads [][]byte
	for i := range 5 {
		row, err := newRow(verdict(fmt.Sprintf("ls %d", i), "a", part(effects.Read, "ls", "ls", effects.Allow)), "dead", StatusAuto)
		if err != nil {
			t.Fatal(err)
		}
		row.RequestID = fmt.Sprintf("k%d", i)
		payloads = append(payloads, journal.EncodeRecord(journal.Record{Row: row}))
	}
	if err := r.Write(payloads[:3]); err != nil {
		t.Fatal(err)
	}
	// Held: readers take its frames and leave the file.
	if n, err := l.Ingest(context.Background()); err != nil || n != 3 {
		t.Fatalf("ingest of a live ring: %d, %v; want 3", n, err)
	}
	if n, err := l.Ingest(context.Background()); err != nil || n != 0 {
		t.Errorf("second ingest: %d, %v; want nothing twice", n, err)
	}
	if err := r.Write(payloads[3:]); err != nil {
		t.Fatal(err)
	}
	if len(rings(t, l)) != 1 {
		t.Fatal("the live ring is gone")
	}
	r.Close() // its process dies
	l2 := openAt(t, path)
	if n := countRows(t, l2, ""); n != 5 {
		t.Errorf("%d rows after the abandoned ring was taken in, want 5", n)
	}
	for i := range 5 {
		if n := countRows(t, l2, "WHERE request_id = ?", fmt.Sprintf("k%d", i)); n != 1 {
			t.Errorf("k%d: %d rows, want 1", i, n)
		}
	}
	if rs := rings(t, l2); len(rs) != 0 {
		t.Errorf("abandoned ring not removed: %v", rs)
	}
	var left int
	if err := l2.db.QueryRow(`SELECT count(*) FROM ring_ingest`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d ring_ingest rows left for removed rings, %v", left, err)
	}
}

// TestSIGKILLDurabilityRing: serve killed mid-burst loses no verdict it
// answered through its ring; the next reader takes the ring in, once.
func TestSIGKILLDurabilityRing(t *testing.T) {
	l := openTemp(t)
	for round := range 3 {
		cmd, r := startWriter(t, l.Path(), "ring"+strconv.Itoa(round), 1_000_000,
			"AUDIT_TEST_RING=1", "AUDIT_TEST_GOROUTINES="+strconv.Itoa(1+7*(round%2)))
		killAt := 50 + 300*round // the last round wraps the ring
		keys := readKeys(t, r, killAfter(t, cmd, killAt))
		waitKilled(t, cmd, round)
		if len(keys) < killAt {
			t.Fatalf("round %d: %d keys reported, want at least %d", round, len(keys), killAt)
		}
		l.catchUp(context.Background())
		for _, k := range keys {
			if n := countRows(t, l, "WHERE request_id = ?", k); n != 1 {
				t.Errorf("round %d: answered verdict %s has %d rows, want 1", round, k, n)
			}
		}
		if rs := rings(t, l); len(rs) != 0 {
			t.Errorf("round %d: the dead writer's ring was not removed: %v", round, rs)
		}
		t.Logf("round %d: killed after %d answered; %d rows", round, len(keys), countRows(t, l, ""))
	}
}

// TestRingNameRemoved: should the ring's file be removed under serve (by
// hand), the verdicts it answered still reach the log: serve takes its ring
// from the rows it keeps.
func TestRingNameRemoved(t *testing.T) {
	l := openTemp(t)
	if err := l.UseRing(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rv, err := Record(ctx, l, verdict("ls removed", "a", part(effects.Read, "ls", "ls", effects.Allow)), "s", StatusAsked)
	if err != nil || rv.LogID != 0 {
		t.Fatalf("Record: %+v, %v", rv, err)
	}
	for _, rf := range rings(t, l) {
		if err := os.Remove(rf.Path); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Query(ctx, Filter{}); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, l, "WHERE request_id = ?", rv.ID); n != 1 {
		t.Errorf("%d rows for the verdict whose ring was removed, want 1", n)
	}
	if err := l.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}
