package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hookrun"
	"github.com/ml-ai/command-safety/journal"
	"github.com/ml-ai/command-safety/settings"
	"github.com/ml-ai/command-safety/telemetry"
)

// exportColumns are the CSV columns of `log export`, the decision log's
// own (audit's package doc), in its order.
var exportColumns = []string{"id", "time", "request_id", "command", "cwd", "workspaces", "agent", "mode", "session",
	"decision", "effects", "decided_by", "rule", "reason", "classification_enabled", "micros", "classifier_version",
	"status", "reviewer", "reviewed_at", "note"}

// exportPage is how many rows `log export` reads at a time.
const exportPage = 1000

// exportSkew is how far, in rows, the first row of a time range may sit
// before the first row a search by time finds: writers take their time
// before they commit, so ids and times can disagree by a little.
const exportSkew = 256

// logExport is `log export [--since T] [--until T] [--format jsonl|csv]`:
// every row of a time range, oldest first, as JSON lines (the same objects
// as `log --json`) or CSV with a header (the table's columns), for teams
// that ingest files. It reads in pages, so a large range streams.
func logExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log export", flag.ContinueOnError)
	path := fs.String("log", "", "decision log path")
	since := fs.String("since", "", "from this time (a duration back from now, a date or an RFC 3339 time; default: the first row)")
	until := fs.String("until", "", "up to this time, same forms (default: now)")
	format := fs.String("format", "jsonl", "jsonl or csv")
	pos, code, ok := logFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return logUsageError(stderr, "unexpected argument %q", pos[0])
	}
	now := time.Now()
	from, to := time.Time{}, now
	var err error
	if *since != "" {
		if from, err = parseSince(*since, now); err != nil {
			return logUsageError(stderr, "--since: %v", err)
		}
	}
	if *until != "" {
		if to, err = parseSince(*until, now); err != nil {
			return logUsageError(stderr, "--until: %v", err)
		}
	}
	if to.Before(from) {
		return logUsageError(stderr, "--until is before --since")
	}
	var write func(audit.Entry) error
	out := bufio.NewWriter(stdout)
	switch *format {
	case "jsonl":
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		write = func(e audit.Entry) error { return enc.Encode(e) }
	case "csv":
		w := csv.NewWriter(out)
		if err := w.Write(exportColumns); err != nil {
			return logFail(stderr, err)
		}
		write = func(e audit.Entry) error {
			w.Write(csvRow(e))
			w.Flush()
			return w.Error()
		}
	default:
		return logUsageError(stderr, "--format %q: want jsonl or csv", *format)
	}
	l, p, err := openLogFor(*path, true)
	if err != nil {
		return logFail(stderr, err)
	}
	if l == nil {
		fmt.Fprintf(stderr, "command-safety log: no decision log at %s yet\n", p)
		return 0
	}
	defer l.Close()
	ctx := context.Background()
	cursor, err := firstAtOrAfter(ctx, l, from)
	if err != nil {
		return logFail(stderr, err)
	}
	for cursor = max(cursor-exportSkew, 0); ; {
		es, err := l.After(ctx, cursor, exportPage)
		if err != nil {
			return logFail(stderr, err)
		}
		if len(es) == 0 {
			break
		}
		done := false
		for _, e := range es {
			cursor = e.LogID
			if e.Time.After(to.Add(time.Minute)) { // well past the range: skew cannot bring more
				done = true
				break
			}
			if e.Time.Before(from) || e.Time.After(to) {
				continue
			}
			if err := write(e); err != nil {
				return logFail(stderr, err)
			}
		}
		if done {
			break
		}
	}
	if err := out.Flush(); err != nil {
		return logFail(stderr, err)
	}
	return 0
}

// firstAtOrAfter returns the id before the first row whose time is at or
// after t (a binary search over ids, whose times rise with them).
func firstAtOrAfter(ctx context.Context, l *audit.Log, t time.Time) (int64, error) {
	if t.IsZero() {
		return 0, nil
	}
	es, err := l.Query(ctx, audit.Filter{Limit: 1})
	if err != nil || len(es) == 0 {
		return 0, err
	}
	lo, hi := int64(1), es[0].LogID+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		es, err := l.After(ctx, mid-1, 1)
		if err != nil {
			return 0, err
		}
		if len(es) == 0 || !es[0].Time.Before(t) {
			hi = mid
		} else {
			lo = es[0].LogID + 1
		}
	}
	return lo - 1, nil
}

// csvRow renders e in [exportColumns]' order. A cell that a spreadsheet
// would run as a formula (it starts with = + - @, a tab or a carriage
// return: command text comes from agents) is prefixed with a single quote,
// as OWASP advises for CSV files.
func csvRow(e audit.Entry) []string {
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	decided := ""
	if e.DecidedBy != nil {
		decided = e.DecidedBy.Text
	}
	reviewed := ""
	if !e.ReviewedAt.IsZero() {
		reviewed = e.ReviewedAt.UTC().Format(time.RFC3339Nano)
	}
	req := e.ID
	if req == strconv.FormatInt(e.LogID, 10) {
		req = "" // the log's own id stands in for a caller's that was not given
	}
	effs := e.Effects
	if effs == nil {
		effs = []gate.Effect{}
	}
	row := []string{strconv.FormatInt(e.LogID, 10), e.Time.UTC().Format(time.RFC3339Nano), req, e.Command, e.Cwd,
		js(e.Workspaces), e.Agent, e.Mode, e.Session, e.Decision.String(), js(effs), decided, e.Rule, e.Reason,
		strconv.FormatBool(e.ClassificationEnabled), strconv.FormatInt(e.Micros, 10), e.ClassifierVersion,
		string(e.Status), e.Reviewer, reviewed, e.Note}
	for i, c := range row {
		if c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			row[i] = "'" + c
		}
	}
	return row
}

// shipRun bounds one `log ship`: how long it ships before it leaves the
// rest to the next process, and how long its flush at the end may take.
// shipPoll is how often it looks for new rows while it lingers.
const (
	shipRun   = 30 * time.Second
	shipFlush = 5 * time.Second
	shipPoll  = 100 * time.Millisecond
)

// kickLinger is how long a `log ship` started by a hook or check stays
// after the last new row: the hooks of an agent's turn then find it running
// (they only probe its lock), instead of each starting one (4–6 ms on this
// project's machine, where starting a process is slow).
const kickLinger = 5 * time.Second

// logShip is `log ship [--log PATH] [--after ID] [--linger D] [--quiet]`:
// ship the log's rows after the export's mark to the configured collector,
// then exit. Hooks and check start it detached (telemetry.Kick) so that they
// never wait on the network; it is also a command for cron. --after is
// where a log that was never exported starts.
func logShip(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log ship", flag.ContinueOnError)
	path := fs.String("log", "", "decision log path")
	after := fs.Int64("after", -1, "for a log never exported: ship the rows after this id (default: only rows from now on)")
	fromTime := fs.String("from-time", "", "for a log never exported: ship the rows from this time on (RFC 3339; a hook's kick: its verdict is in the journal, without an id yet)")
	quiet := fs.Bool("quiet", false, "print nothing unless records were lost")
	linger := fs.Duration("linger", 0, "once caught up, keep shipping new rows for this long after the last one (at most 30s in all)")
	pos, code, ok := logFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return logUsageError(stderr, "unexpected argument %q", pos[0])
	}
	snap := settings.Load(settingsEnv(), nil)
	cfg, on, warnings := telemetry.Resolve(snap.Telemetry, os.Getenv)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "command-safety log ship: %s\n", w)
	}
	if !on {
		if !*quiet {
			fmt.Fprintln(stderr, "command-safety log ship: export is off (no ml-ai.telemetry endpoint, no OTEL_EXPORTER_OTLP_ENDPOINT)")
		}
		return 0
	}
	p, err := logPathFor(*path, snap.DecisionLog)
	if err != nil {
		return logFail(stderr, err)
	}
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) && !journal.Pending(journal.Path(p)) {
		return 0 // nothing to ship, and reading must not create the log
	}
	l, err := audit.Open(p)
	if err != nil {
		return logFail(stderr, err)
	}
	defer l.Close()
	if *fromTime != "" && *after < 0 {
		// A hook's kick: its verdict went to the journal, and some process
		// has ingested it by now (this one, if nobody else).
		t, err := time.Parse(time.RFC3339Nano, *fromTime)
		if err != nil {
			return logUsageError(stderr, "--from-time: %v", err)
		}
		if *after, err = firstAtOrAfter(context.Background(), l, t); err != nil {
			return logFail(stderr, err)
		}
	}
	warn := func(msg string) { fmt.Fprintf(stderr, "command-safety log ship: %s\n", msg) }
	ctx := context.Background()
	deadline := time.Now().Add(shipRun)
	var total telemetry.Stats
	// A second round when rows came in while the first closed: a process
	// that found the lock held left them to this one.
	for round := 0; round < 3 && time.Now().Before(deadline); round++ {
		s, err := telemetry.OpenShipper(ctx, l, cfg, telemetry.ShipOptions{StartAfter: *after, Warn: warn,
			Exporter: telemetry.Options{Version: gate.ClassifierVersion}})
		if errors.Is(err, telemetry.ErrLocked) {
			break // another process ships this log
		}
		if err != nil {
			return logFail(stderr, err)
		}
		lastNew := time.Now()
		for time.Now().Before(deadline) {
			n, err := s.Ship(ctx)
			if err != nil {
				warn(err.Error())
				break
			}
			if n > 0 {
				lastNew = time.Now()
			}
			if s.CaughtUp(ctx) && time.Since(lastNew) >= *linger {
				break
			}
			time.Sleep(shipPoll)
		}
		fctx, cancel := context.WithTimeout(ctx, shipFlush)
		if err := s.Close(fctx); err != nil {
			warn(err.Error())
		}
		cancel()
		st := s.Stats()
		total.Exported += st.Exported
		total.Failed += st.Failed + st.Dropped
		if caughtUp(ctx, l) {
			break
		}
	}
	if !*quiet {
		fmt.Fprintf(stdout, "exported %d records to %s (%d lost)\n", total.Exported, cfg.Source, total.Failed)
	}
	return 0
}

// caughtUp reports whether the export's mark is at the log's newest row.
func caughtUp(ctx context.Context, l *audit.Log) bool {
	st, ok, err := telemetry.ReadState(telemetry.StateFile(l.Path()))
	if !ok || err != nil {
		return false
	}
	es, err := l.Query(ctx, audit.Filter{Limit: 1})
	return err == nil && (len(es) == 0 || st.LastID >= es[0].LogID)
}

// kickExport starts a detached `log ship` for the log at logPath when
// export is configured (telemetry.Kick): a hook or check has answered and
// must not wait on the network itself. after is where a log that was
// never exported starts (the row before this process's first). Failures
// cost only the export, and are not worth the agent's attention.
func kickExport(snap *settings.Snapshot, logPath string, after int64) {
	kickExportArgs(snap, logPath, "--after", strconv.FormatInt(after, 10))
}

// kickExportFrom is [kickExport] for a run that wrote the journal: the log
// never exported starts with the rows from t on (hookrun.KickArgs).
func kickExportFrom(snap *settings.Snapshot, logPath string, t time.Time) {
	kickExportArgs(snap, logPath, hookrun.KickFrom(t)...)
}

func kickExportArgs(snap *settings.Snapshot, logPath string, from ...string) {
	if snap == nil || logPath == "" {
		return
	}
	if _, on, _ := telemetry.Resolve(snap.Telemetry, os.Getenv); !on {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	_ = telemetry.Kick(logPath, exe, append(append([]string{os.Args[0], "log", "ship", "--quiet", "--log", logPath}, from...),
		"--linger", kickLinger.String()))
}
