//go:build unix

package audit

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/journal"
)

// journalRow is what a hook writes for v.
func journalRecord(t *testing.T, v gate.Verdict, session string, waiting Status) journal.Record {
	t.Helper()
	r, err := newRow(v, session, waiting)
	if err != nil {
		t.Fatal(err)
	}
	return journal.Record{Row: r}
}

func commandsIn(t *testing.T, l *Log) []string {
	t.Helper()
	es, err := l.Query(context.Background(), Filter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(es) - 1; i >= 0; i-- {
		out = append(out, es[i].Command)
	}
	return out
}

// TestIngest: a hook's journal records become rows exactly as a direct
// append writes them (every column), Open and reads ingest, an append
// commits what the journal holds before its own row, and a prompt nobody
// can answer is rejected in the same transaction.
func TestIngest(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "decisions.db")
	j := journal.Path(path)
	allow := verdict("ls", "claude-code", part(effects.Read, "ls", "ls", effects.Allow))
	if err := journal.Append(j, journalRecord(t, allow, "s1", StatusAsked)); err != nil {
		t.Fatal(err)
	}
	l, err := Open(path) // ingests
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if journal.Pending(j) {
		t.Error("the journal is not empty after Open")
	}
	direct := mustAppend(t, l, allow)
	es, err := l.Query(ctx, Filter{Limit: 2})
	if err != nil || len(es) != 2 {
		t.Fatalf("query: %v %v", es, err)
	}
	a, b := es[1], es[0] // ingested, then direct
	if b.LogID != direct || a.LogID >= b.LogID {
		t.Fatalf("ids %d %d, direct %d", a.LogID, b.LogID, direct)
	}
	a.LogID, b.LogID, a.ID, b.ID, a.Session, b.Session = 0, 0, "", "", "", "" // an empty request id reads as the row id
	if !reflect.DeepEqual(a, b) {
		t.Errorf("an ingested row differs from a direct append:\n%+v\n%+v", a, b)
	}
	// A read ingests; an append commits the journal's rows before its own.
	prompt := verdict("npm install x", "codex", part(effects.Network, "npm install x", "npm", effects.Prompt))
	rec := journalRecord(t, prompt, "s2", StatusAdvisory)
	rec.RejectedBy = "codex (nobody to ask: the prompt was denied)"
	if err := journal.Append(j, rec); err != nil {
		t.Fatal(err)
	}
	if got := commandsIn(t, l); len(got) != 3 || got[2] != "npm install x" {
		t.Fatalf("after a read: %q", got)
	}
	es, _ = l.Query(ctx, Filter{Limit: 1})
	if es[0].Status != StatusRejected || es[0].Reviewer != rec.RejectedBy {
		t.Errorf("nobody to ask: status %s reviewer %q", es[0].Status, es[0].Reviewer)
	}
	if err := journal.Append(j, journalRecord(t, allow, "s3", StatusAsked)); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, l, verdict("pwd", "x", part(effects.Read, "pwd", "pwd", effects.Allow)))
	got := commandsIn(t, l)
	if len(got) != 5 || got[3] != "ls" || got[4] != "pwd" {
		t.Errorf("after an append: %q, want the journal's ls before pwd", got)
	}
}

// TestIngestIdempotent: a crash between an ingest's commit and the
// journal's emptying (Done without truncating) ingests nothing twice, and
// records appended after it are still taken; an ingest rolled back takes
// everything the next time.
func TestIngestIdempotent(t *testing.T) {
	ctx := context.Background()
	l := openTemp(t)
	j := journal.Path(l.Path())
	add := func(cmd string) {
		t.Helper()
		if err := journal.Append(j, journalRecord(t, verdict(cmd, "a", part(effects.Read, cmd, "ls", effects.Allow)), "", StatusAsked)); err != nil {
			t.Fatal(err)
		}
	}
	add("ls 1")
	add("ls 2")
	// Commit, then "crash" before the truncation.
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, ids, err := l.ingestTx(ctx, tx)
	if err != nil || len(ids) != 2 {
		t.Fatalf("ingest: %v %v", ids, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	_ = b.Done(false)
	add("ls 3")
	// Roll one back: it took nothing.
	tx, err = l.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, ids, err = l.ingestTx(ctx, tx)
	if err != nil || len(ids) != 1 {
		t.Fatalf("second ingest: %v %v", ids, err)
	}
	_ = tx.Rollback()
	_ = b.Done(false)
	for range 2 {
		if _, err := l.Ingest(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got := commandsIn(t, l); !reflect.DeepEqual(got, []string{"ls 1", "ls 2", "ls 3"}) {
		t.Errorf("rows %q, want each once", got)
	}
	if st, err := os.Stat(j); err != nil || st.Size() != 0 {
		t.Errorf("journal %v %v, want emptied", st.Size(), err)
	}
	// A new generation after the emptying starts from its beginning.
	add("ls 4")
	if got := commandsIn(t, l); len(got) != 4 || got[3] != "ls 4" {
		t.Errorf("after a new generation: %q", got)
	}
}
