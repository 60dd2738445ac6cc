package audit

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// BenchmarkAppend measures one durable append (a transaction with its fsync),
// as the writers do it, and the same with synchronous=NORMAL for comparison.
func BenchmarkAppend(b *testing.B) {
	v := verdict("git push origin main", "claude-code", part(effects.Network, "git push origin main", "git", effects.Prompt),
		part(effects.Read, "ls", "ls", effects.Allow))
	for _, sync := range []string{"FULL", "NORMAL"} {
		b.Run("synchronous="+sync, func(b *testing.B) {
			l := openTemp(b)
			l.db.SetMaxOpenConns(1)
			if _, err := l.db.Exec("PRAGMA synchronous = " + sync); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				if _, err := l.Append(ctx, v, "bench", StatusAsked); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendWriters measures durable appends from several goroutines
// of one process at once (serve's classify requests, issue 17 point 3):
// appends/s with 1 and 8 writers, each appending b.N/writers rows in a loop.
// Verdicts ready together share a transaction and its fsync, so 8 writers
// should far outrun 1.
func BenchmarkAppendWriters(b *testing.B) {
	v := verdict("git status", "claude-code", part(effects.Read, "git status", "git", effects.Allow))
	for _, writers := range []int{1, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			l := openTemp(b)
			ctx := context.Background()
			n := max(b.N/writers, 1)
			b.ResetTimer()
			var wg sync.WaitGroup
			for range writers {
				wg.Go(func() {
					for range n {
						if _, err := l.Append(ctx, v, "bench", StatusAsked); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(n*writers)/b.Elapsed().Seconds(), "appends/s")
		})
	}
}

// BenchmarkInsertCPU measures the CPU of appending rows, 1 or 8 to a
// transaction, without the fsync (synchronous=OFF): the part of an append
// that the schema and the statements decide. Wall time is noisy on a shared
// machine; bench/audit/instructions.sh runs this under callgrind and prints
// instructions per row, which are not.
func BenchmarkInsertCPU(b *testing.B) {
	v := verdict("git status", "claude-code", part(effects.Read, "git status", "git", effects.Allow))
	for _, per := range []int{1, 8} {
		b.Run(fmt.Sprintf("rows=%d", per), func(b *testing.B) {
			l := openTemp(b)
			l.db.SetMaxOpenConns(1)
			if _, err := l.db.Exec("PRAGMA synchronous = OFF"); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			r, err := newRow(v, "bench", StatusAsked)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := l.transaction(time.Now(), func(tx *sql.Tx) error {
					for range per {
						if _, err := l.insert(ctx, tx, r); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkQuery1M measures filtered queries (limit 50, as the CLI) and
// stats over a log of a million rows, built first in batches.
func BenchmarkQuery1M(b *testing.B) {
	rows := 1_000_000
	if n, err := strconv.Atoi(os.Getenv("AUDIT_BENCH_ROWS")); err == nil && n > 0 {
		rows = n // a smaller log for a quick look
	}
	l, err := Open(filepath.Join(b.TempDir(), "decisions.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	start := time.Now()
	base := fill(b, l, rows)
	b.Logf("built %d rows in %v", rows, time.Since(start).Round(time.Millisecond))

	ctx := context.Background()
	cases := []struct {
		name string
		f    Filter
	}{
		{"newest", Filter{}},
		{"decision=refuse", Filter{Decision: ptr(effects.Refuse)}},
		{"agent+status=pending", Filter{Agent: "cursor", Status: StatusPending}},
		{"effect=history-rewrite(rare)", Filter{Effect: ptr(effects.HistoryRewrite)}},
		{"effect=network+agent", Filter{Effect: ptr(effects.Network), Agent: "copilot"}},
		{"since=1h", Filter{Since: base.Add(time.Duration(rows-3600) * time.Second)}},
		{"since=1h+decision=prompt", Filter{Since: base.Add(time.Duration(rows-3600) * time.Second), Decision: ptr(effects.Prompt)}},
		{"since=1h+effect=history-rewrite", Filter{Since: base.Add(time.Duration(rows-3600) * time.Second), Effect: ptr(effects.HistoryRewrite)}},
		{"grep(common)", Filter{Grep: "git"}},
		{"grep(rare)", Filter{Grep: "terraform destroy"}},
		{"grep(absent, whole index)", Filter{Grep: "no such text"}},
		{"grep(absent)+agent", Filter{Grep: "no such text", Agent: "cursor"}},
		{"grep(common)+effect=history-rewrite", Filter{Grep: "git", Effect: ptr(effects.HistoryRewrite)}},
		{"grep+since=1h", Filter{Grep: "push", Since: base.Add(time.Duration(rows-3600) * time.Second)}},
		{"agent", Filter{Agent: "gemini-cli"}},
		{"decision=prompt+status=approved", Filter{Decision: ptr(effects.Prompt), Status: StatusApproved}},
	}
	for _, c := range cases {
		c.f.Limit = 50
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := l.Query(ctx, c.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// What else reads the log: the review page (held rows and their count,
	// one row), serve's tail (the rows after the newest it has seen), an
	// agent's post-execution hook (Ran), `log suggest`, and every Open
	// (ReleaseOrphanedHolds, and reading the schema).
	var newest int64
	if err := l.db.QueryRow("SELECT max(id) FROM verdicts").Scan(&newest); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"status=held", func() error { _, err := l.Query(ctx, Filter{Status: StatusHeld, Limit: 200}); return err }},
		{"stats(status=held)", func() error { _, err := l.Stats(ctx, Filter{Status: StatusHeld}); return err }},
		{"get", func() error { _, err := l.Get(ctx, newest/2); return err }},
		{"after(tail)", func() error { _, err := l.After(ctx, newest-20, 200); return err }},
		{"ran(call id)", func() error {
			_, err := l.Ran(ctx, Answer{Agent: "cursor", Session: "bench", CallID: "x", Command: "npm test", Reviewer: "r"})
			return err
		}},
		{"ran(by time)", func() error {
			_, err := l.Ran(ctx, Answer{Agent: "cursor", Session: "bench", Command: "npm test", Reviewer: "r",
				Since: base.Add(time.Duration(rows-86400) * time.Second)})
			return err
		}},
		{"suggest", func() error { _, err := l.Suggest(ctx, 3); return err }},
		{"releaseOrphanedHolds", func() error { _, err := l.ReleaseOrphanedHolds(ctx); return err }},
		{"open+close", func() error {
			o, err := Open(l.Path())
			if err != nil {
				return err
			}
			return o.Close()
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, c := range []struct {
		name string
		f    Filter
	}{
		{"stats(all)", Filter{}},
		{"stats(since=24h)", Filter{Since: base.Add(time.Duration(rows-86400) * time.Second)}},
		{"stats(since=24h+agent)", Filter{Since: base.Add(time.Duration(rows-86400) * time.Second), Agent: "cursor"}},
		{"stats(agent)", Filter{Agent: "cursor"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := l.Stats(ctx, c.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// fill appends n synthetic verdicts, one a second, in transactions of 10,000
// rows, and returns the time of the first.
func fill(b *testing.B, l *Log, n int) time.Time {
	b.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 2))
	agents := []string{"copilot", "claude-code", "cursor", "gemini-cli", "default"}
	type tmpl struct {
		cmd, program string
		class        effects.Class
	}
	tmpls := []tmpl{
		{"ls -la src", "ls", effects.Read}, {"git status", "git", effects.Read}, {"cat go.mod", "cat", effects.Read},
		{"go test ./...", "go", effects.Verify}, {"npm test", "npm", effects.Verify},
		{"touch a.txt", "touch", effects.WriteInside}, {"git commit -m wip", "git", effects.WriteInside},
		{"cp a /tmp/b", "cp", effects.WriteOutside}, {"git push origin main", "git", effects.Network},
		{"curl -s https://example.com", "curl", effects.Network}, {"rm -rf build", "rm", effects.Deletion},
		{"make build", "make", effects.OpaqueLow}, {"python -c 'print(1)'", "python", effects.OpaqueMedium},
	}
	ctx := context.Background()
	const batch = 10_000
	for done := 0; done < n; {
		tx, err := l.db.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		ins := &preparedInserts{tx: tx}
		for i := 0; i < batch && done < n; i, done = i+1, done+1 {
			var v gate.Verdict
			switch r := rng.IntN(1000); {
			case r < 5: // rare: history rewrite
				v = verdict("git reset --hard HEAD~1", agents[rng.IntN(len(agents))],
					part(effects.HistoryRewrite, "git reset --hard HEAD~1", "git", effects.Prompt))
			case r < 6: // rarer: the grep target
				v = verdict("terraform destroy -auto-approve", agents[rng.IntN(len(agents))],
					part(effects.Deletion, "terraform destroy -auto-approve", "terraform", effects.Refuse))
			default:
				t := tmpls[rng.IntN(len(tmpls))]
				out := effects.Allow
				switch t.class {
				case effects.Read, effects.Verify:
				case effects.Deletion:
					out = effects.Prompt
					if rng.IntN(3) == 0 {
						out = effects.Refuse
					}
				default:
					out = effects.Prompt
				}
				text := fmt.Sprintf("%s # %d", t.cmd, done)
				v = verdict(text, agents[rng.IntN(len(agents))], part(t.class, text, t.program, out),
					part(effects.Read, "ls", "ls", effects.Allow))
			}
			v.Time = base.Add(time.Duration(done) * time.Second)
			r, err := newRow(v, "bench", StatusAsked)
			if err != nil {
				b.Fatal(err)
			}
			if r.Decision == "prompt" && rng.IntN(500) == 0 {
				r.Status = "held" // a few holds; most prompts the agent asked (a quarter resolved below)
			}
			if _, err := insertRow(ctx, ins, r); err != nil {
				b.Fatal(err)
			}
		}
		ins.close()
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	// Resolve a quarter of the prompts, as reviewers would have.
	if _, err := l.db.Exec(`UPDATE verdicts SET status = CASE WHEN id % 7 = 0 THEN 'rejected' ELSE 'approved' END,
		reviewer = 'alice', reviewed_at = time WHERE status IN ('held', 'asked') AND id % 4 = 0`); err != nil {
		b.Fatal(err)
	}
	return base
}

// preparedInserts is an execer that prepares each statement once per
// transaction, so that building a million rows takes seconds, not minutes.
type preparedInserts struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (p *preparedInserts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, ok := p.stmts[query]
	if !ok {
		var err error
		if st, err = p.tx.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		if p.stmts == nil {
			p.stmts = map[string]*sql.Stmt{}
		}
		p.stmts[query] = st
	}
	return st.ExecContext(ctx, args...)
}

func (p *preparedInserts) close() {
	for _, st := range p.stmts {
		st.Close()
	}
}

// BenchmarkRecord measures Record as serve calls it for an allow, with
// serve's ring (UseRing: one overwrite and fdatasync, the log taking the
// rows a few milliseconds later) and without it (an append with its
// commit), from 1 and 8 goroutines at once: records/s and, alone, the
// median.
func BenchmarkRecord(b *testing.B) {
	v := verdict("git status", "claude-code", part(effects.Read, "git status", "git", effects.Allow))
	for _, ring := range []bool{false, true} {
		for _, writers := range []int{1, 8} {
			b.Run(fmt.Sprintf("ring=%v/writers=%d", ring, writers), func(b *testing.B) {
				l := openTemp(b)
				if ring {
					if err := l.UseRing(); err != nil {
						b.Fatal(err)
					}
				}
				ctx := context.Background()
				n := max(b.N/writers, 1)
				lat := make([][]time.Duration, writers)
				b.ResetTimer()
				var wg sync.WaitGroup
				for w := range writers {
					wg.Go(func() {
						for range n {
							start := time.Now()
							if _, err := Record(ctx, l, v, "bench", StatusAsked); err != nil {
								b.Error(err)
								return
							}
							lat[w] = append(lat[w], time.Since(start))
						}
					})
				}
				wg.Wait()
				b.StopTimer()
				b.ReportMetric(float64(n*writers)/b.Elapsed().Seconds(), "records/s")
				all := slices.Concat(lat...)
				slices.Sort(all)
				b.ReportMetric(float64(all[len(all)/2].Microseconds()), "median-µs")
				if ring {
					b.ReportMetric(float64(n*writers)/float64(l.ring.syncs.Load()), "records/fsync")
				} else {
					b.ReportMetric(float64(n*writers)/float64(l.commits.Load()), "records/fsync")
				}
				if err := l.Close(); err != nil {
					b.Fatal(err)
				}
			})
		}
	}
}
