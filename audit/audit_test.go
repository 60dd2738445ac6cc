package audit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// part builds one effect of a test verdict.
func part(c effects.Class, text, program string, out effects.Decision) gate.Effect {
	return gate.Effect{Effect: c, Text: text, Span: [2]int{0, len(text)}, Program: program, Outcome: out}
}

// verdict builds a verdict decided by its strictest part, like gate.Decide.
func verdict(cmd, agent string, parts ...gate.Effect) gate.Verdict {
	v := gate.Verdict{
		Time: time.Date(2026, 11, 30, 8, 0, 0, 123456000, time.UTC), Command: cmd, Cwd: "/ws",
		Workspaces: []string{"/ws"}, Agent: agent, ClassificationEnabled: true, Micros: 17,
		Decision: effects.Allow, Effects: parts,
	}
	for i, p := range parts {
		if v.DecidedBy == nil || p.Outcome < v.Decision {
			d := parts[i]
			v.DecidedBy = &d
			v.Decision = p.Outcome
		}
	}
	if v.DecidedBy != nil {
		v.Rule = v.DecidedBy.Effect.String()
		if v.DecidedBy.Rule != "" {
			v.Rule = string(v.DecidedBy.Rule)
		}
		v.Reason = "`" + v.DecidedBy.Text + "` is " + v.DecidedBy.Effect.String()
	}
	return v
}

func openTemp(t testing.TB) *Log {
	t.Helper()
	l, err := Open(filepath.Join(t.TempDir(), "state", "ml-ai", "decisions.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func mustAppend(t testing.TB, l *Log, v gate.Verdict) int64 {
	t.Helper()
	id, err := l.Append(context.Background(), v, "test", StatusAsked)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// rawConn opens the file as another tool would: no pragmas of ours.
func rawConn(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name string
		env  Env
		want string
	}{
		{"linux", Env{GOOS: "linux", Home: "/home/u"}, "/home/u/.local/state/ml-ai/decisions.db"},
		{"linux xdg", Env{GOOS: "linux", Home: "/home/u", XDGStateHome: "/xdg/state/"}, "/xdg/state/ml-ai/decisions.db"},
		{"linux relative xdg ignored", Env{GOOS: "linux", Home: "/home/u", XDGStateHome: "state"}, "/home/u/.local/state/ml-ai/decisions.db"},
		{"freebsd", Env{GOOS: "freebsd", Home: "/usr/home/u"}, "/usr/home/u/.local/state/ml-ai/decisions.db"},
		{"darwin", Env{GOOS: "darwin", Home: "/Users/u", XDGStateHome: "/ignored"}, "/Users/u/Library/Application Support/ml-ai/decisions.db"},
		{"windows", Env{GOOS: "windows", Home: `C:\Users\u`, LocalAppData: `C:\Users\u\AppData\Local`}, `C:\Users\u\AppData\Local\ml-ai\decisions.db`},
		{"windows no localappdata", Env{GOOS: "windows", Home: `C:\Users\u`}, `C:\Users\u\AppData\Local\ml-ai\decisions.db`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DefaultPath(tt.env)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("DefaultPath = %q, want %q", got, tt.want)
			}
		})
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if p, err := DefaultPath(Env{GOOS: goos}); err == nil {
			t.Errorf("%s without home: got %q, want an error", goos, p)
		}
	}
}

func TestOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "decisions.db")
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("log directory: %v, mode %v; want 0700", err, fi.Mode().Perm())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	db := rawConn(t, path)
	var mode string
	var version int
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != SchemaVersion {
		t.Errorf("user_version = %d, %v; want %d", version, err, SchemaVersion)
	}
	var sync int
	if err := l.db.QueryRow("PRAGMA synchronous").Scan(&sync); err != nil || sync != 2 {
		t.Errorf("synchronous = %d, %v; want 2 (FULL)", sync, err)
	}
	id := mustAppend(t, l, verdict("ls", "copilot", part(effects.Read, "ls", "ls", effects.Allow)))

	// Reopening keeps the rows and migrates nothing.
	l2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l2.Get(context.Background(), id); err != nil {
		t.Errorf("after reopen: %v", err)
	}
	l2.Close()

	// A newer schema is refused, not rewritten.
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	if l3, err := Open(path); err == nil {
		l3.Close()
		t.Error("Open of a newer schema succeeded")
	} else if !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open of a newer schema: %v, want it to say newer", err)
	}
}

func TestOpenMigratesConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.db")
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			l, err := Open(path)
			if err == nil {
				_, err = l.Append(context.Background(), verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)), "", StatusAsked)
				l.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestAppendRoundTrip(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	tests := []struct {
		name    string
		v       gate.Verdict
		session string
		status  Status
	}{
		{"allow", verdict("ls -la", "copilot", part(effects.Read, "ls -la", "ls", effects.Allow)), "s1", StatusAuto},
		{"prompt", verdict("git push && ls", "claude-code",
			part(effects.Network, "git push", "git", effects.Prompt),
			part(effects.Read, "ls", "ls", effects.Allow)), "", StatusAsked},
		{"refuse", func() gate.Verdict {
			p := part(effects.Deletion, "rm -rf ~", "rm", effects.Refuse)
			p.Rule, p.Reason = effects.DeleteOutsideWorkspace, "`rm -rf ~` deletes the home directory"
			v := verdict("rm -rf ~", "cursor", p)
			v.ID, v.Mode = "req-7", "autopilot"
			return v
		}(), "s2", StatusAuto},
		{"empty", gate.Verdict{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Command: " ",
			Decision: effects.Prompt, Rule: "empty", Reason: "the command is empty", Agent: "default"}, "", StatusAsked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := l.Append(ctx, tt.v, tt.session, StatusAsked)
			if err != nil {
				t.Fatal(err)
			}
			got, err := l.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			want := Entry{Verdict: tt.v, Session: tt.session, ClassifierVersion: gate.ClassifierVersion, Status: tt.status}
			want.LogID = id
			if want.ID == "" {
				want.ID = got.ID
				if got.ID == "" || got.ID != strings.TrimSpace(got.ID) {
					t.Errorf("ID = %q, want the log id", got.ID)
				}
			}
			if want.Workspaces == nil {
				want.Workspaces = []string{}
			}
			if want.Effects == nil {
				want.Effects = []gate.Effect{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAppendRejectsBadDecision(t *testing.T) {
	l := openTemp(t)
	v := verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow))
	v.Decision = 7
	if _, err := l.Append(context.Background(), v, "", StatusAsked); err == nil {
		t.Error("Append of an invalid decision succeeded")
	}
}

// TestTriggers checks that every forbidden change is rejected by the database
// itself, from a second connection that has none of our settings.
func TestTriggers(t *testing.T) {
	l := openTemp(t)
	auto := mustAppend(t, l, verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)))
	pending := mustAppend(t, l, verdict("git push", "a", part(effects.Network, "git push", "git", effects.Prompt)))
	approved := mustAppend(t, l, verdict("curl x", "a", part(effects.Network, "curl x", "curl", effects.Prompt)))
	if err := l.Resolve(context.Background(), approved, StatusApproved, "alice"); err != nil {
		t.Fatal(err)
	}
	db := rawConn(t, l.Path())
	snapshot := func() string {
		var b strings.Builder
		rows, err := db.Query(`SELECT * FROM verdicts ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for _, v := range vals {
				b.WriteString(strings.TrimSpace(strings.ReplaceAll(string(asBytes(v)), "\n", " ")) + "|")
			}
			b.WriteString("\n")
		}
		var n int
		db.QueryRow(`SELECT count(*) FROM verdict_effects`).Scan(&n)
		b.WriteString(strings.Repeat("e", n))
		return b.String()
	}
	before := snapshot()

	forbidden := map[string]string{
		"delete":                  `DELETE FROM verdicts WHERE id = ` + itoa(auto),
		"delete all":              `DELETE FROM verdicts`,
		"insert or replace":       `INSERT OR REPLACE INTO verdicts SELECT * FROM verdicts WHERE id = ` + itoa(auto),
		"replace into":            `REPLACE INTO verdicts (id, time, command, cwd, workspaces, agent, mode, decision, effects, decided_by, rule, reason, classification_enabled, micros, classifier_version, status) VALUES (` + itoa(auto) + `, 't', 'x', '', '[]', 'a', '', 'allow', '[]', '', 'read', 'r', 1, 0, '1', 'auto')`,
		"insert or ignore dup":    `INSERT OR IGNORE INTO verdicts SELECT * FROM verdicts WHERE id = ` + itoa(auto),
		"update id":               `UPDATE verdicts SET id = 1000 WHERE id = ` + itoa(auto),
		"update or replace id":    `UPDATE OR REPLACE verdicts SET id = ` + itoa(auto) + ` WHERE id = ` + itoa(pending),
		"approve auto":            `UPDATE verdicts SET status = 'approved', reviewer = 'x', reviewed_at = 'now' WHERE id = ` + itoa(auto),
		"approve without who":     `UPDATE verdicts SET status = 'approved' WHERE id = ` + itoa(pending),
		"pending to auto":         `UPDATE verdicts SET status = 'auto' WHERE id = ` + itoa(pending),
		"re-resolve":              `UPDATE verdicts SET status = 'rejected', reviewer = 'mallory', reviewed_at = 'now' WHERE id = ` + itoa(approved),
		"change reviewer":         `UPDATE verdicts SET reviewer = 'mallory' WHERE id = ` + itoa(approved),
		"back to pending":         `UPDATE verdicts SET status = 'pending', reviewer = NULL, reviewed_at = NULL WHERE id = ` + itoa(approved),
		"new row already decided": `INSERT INTO verdicts (time, command, cwd, workspaces, agent, mode, decision, effects, decided_by, rule, reason, classification_enabled, micros, classifier_version, status, reviewer, reviewed_at) VALUES ('t', 'x', '', '[]', 'a', '', 'prompt', '[]', '', 'network', 'r', 1, 0, '1', 'approved', 'x', 'now')`,
		"allow as pending":        `INSERT INTO verdicts (time, command, cwd, workspaces, agent, mode, decision, effects, decided_by, rule, reason, classification_enabled, micros, classifier_version, status) VALUES ('t', 'x', '', '[]', 'a', '', 'allow', '[]', '', 'read', 'r', 1, 0, '1', 'pending')`,
		"effects delete":          `DELETE FROM verdict_effects`,
		"effects update":          `UPDATE verdict_effects SET effect = 'read'`,
		"effects for old verdict": `INSERT INTO verdict_effects (effect, verdict_id) VALUES ('network', ` + itoa(auto) + `)`,
		"effects replace":         `INSERT OR REPLACE INTO verdict_effects (effect, verdict_id) VALUES ('network', ` + itoa(approved) + `)`,
	}
	for _, col := range []string{"time", "request_id", "command", "cwd", "workspaces", "agent", "mode", "session",
		"decision", "effects", "decided_by", "rule", "reason", "classification_enabled", "micros", "classifier_version"} {
		val := "'changed'"
		switch col {
		case "classification_enabled":
			val = "0"
		case "micros":
			val = "999"
		case "decision":
			val = "'refuse'"
		}
		forbidden["update "+col] = "UPDATE verdicts SET " + col + " = " + val
	}
	for name, stmt := range forbidden {
		t.Run(name, func(t *testing.T) {
			if _, err := db.Exec(stmt); err == nil {
				t.Errorf("%s: succeeded, want it rejected", stmt)
			}
			if after := snapshot(); after != before {
				t.Errorf("%s changed the log:\nbefore %s\nafter  %s", stmt, before, after)
			}
		})
	}

	// What is allowed: notes on any row, and resolving a pending row once.
	if _, err := db.Exec(`UPDATE verdicts SET note = 'checked' WHERE id = ` + itoa(auto)); err != nil {
		t.Errorf("setting a note: %v", err)
	}
	if _, err := db.Exec(`UPDATE verdicts SET status = 'rejected', reviewer = 'bob', reviewed_at = '2026-11-30T09:00:00.000000Z' WHERE id = ` + itoa(pending)); err != nil {
		t.Errorf("resolving a pending row: %v", err)
	}
}

func asBytes(v any) []byte {
	switch x := v.(type) {
	case nil:
		return []byte("NULL")
	case []byte:
		return x
	case string:
		return []byte(x)
	default:
		return []byte(strings.TrimSpace(strings.ReplaceAll(fmtAny(x), "\n", " ")))
	}
}

func TestResolve(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	auto := mustAppend(t, l, verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)))
	refused := mustAppend(t, l, verdict("sudo ls", "a", part(effects.Privilege, "sudo ls", "sudo", effects.Refuse)))
	p1 := mustAppend(t, l, verdict("git push", "a", part(effects.Network, "git push", "git", effects.Prompt)))
	p2 := mustAppend(t, l, verdict("curl x", "a", part(effects.Network, "curl x", "curl", effects.Prompt)))

	if err := l.Resolve(ctx, p1, StatusApproved, "alice"); err != nil {
		t.Fatalf("approve pending: %v", err)
	}
	e, err := l.Get(ctx, p1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Status != StatusApproved || e.Reviewer != "alice" || time.Since(e.ReviewedAt) > time.Minute {
		t.Errorf("after approve: status %s reviewer %q at %v", e.Status, e.Reviewer, e.ReviewedAt)
	}
	if err := l.Resolve(ctx, p2, StatusRejected, "bob"); err != nil {
		t.Fatalf("reject pending: %v", err)
	}

	tests := []struct {
		name     string
		id       int64
		outcome  Status
		reviewer string
		is       error
		says     string
	}{
		{"approved twice", p1, StatusApproved, "carol", ErrNotPending, "already approved by alice"},
		{"reject approved", p1, StatusRejected, "carol", ErrNotPending, "already approved by alice"},
		{"approve rejected", p2, StatusApproved, "carol", ErrNotPending, "already rejected by bob"},
		{"approve allow", auto, StatusApproved, "carol", ErrNotPending, "decided without a prompt"},
		{"approve refuse", refused, StatusApproved, "carol", ErrNotPending, "status auto"},
		{"unknown id", 9999, StatusApproved, "carol", ErrNotFound, "no such"},
		{"bad outcome", p2, StatusPending, "carol", nil, "approved or rejected"},
		{"auto outcome", p2, StatusAuto, "carol", nil, "approved or rejected"},
		{"no reviewer", p2, StatusRejected, " ", nil, "reviewer is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := l.Resolve(ctx, tt.id, tt.outcome, tt.reviewer)
			if err == nil {
				t.Fatal("succeeded, want an error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q does not say %q", err, tt.says)
			}
		})
	}
	// Nothing above changed the first resolution.
	if e2, _ := l.Get(ctx, p1); e2.Status != StatusApproved || e2.Reviewer != "alice" || !e2.ReviewedAt.Equal(e.ReviewedAt) {
		t.Errorf("resolution changed: %+v", e2)
	}
}

func TestAnnotate(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	id := mustAppend(t, l, verdict("rm x", "a", part(effects.Deletion, "rm x", "rm", effects.Prompt)))
	for _, note := range []string{"first", "second thought"} {
		if err := l.Annotate(ctx, id, note); err != nil {
			t.Fatal(err)
		}
		if e, _ := l.Get(ctx, id); e.Note != note || e.Status != StatusAsked {
			t.Errorf("note %q status %s, want %q pending", e.Note, e.Status, note)
		}
	}
	if err := l.Annotate(ctx, 999, "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("annotate unknown id: %v, want ErrNotFound", err)
	}
}

func TestEnvFrom(t *testing.T) {
	vars := map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s", "LOCALAPPDATA": `C:\L`, "USERPROFILE": `C:\U`}
	if got, want := EnvFrom("linux", func(k string) string { return vars[k] }), (Env{GOOS: "linux", Home: "/h", XDGStateHome: "/s", LocalAppData: `C:\L`}); got != want {
		t.Errorf("EnvFrom(linux) = %+v, want %+v", got, want)
	}
	delete(vars, "HOME")
	if got := EnvFrom("windows", func(k string) string { return vars[k] }); got.Home != `C:\U` {
		t.Errorf("EnvFrom(windows).Home = %q, want %%USERPROFILE%%", got.Home)
	}
}

// TestMigrateForward opens a file written at schema version 1 (as a released
// binary would have left it) and checks that Open brings it to the current
// version, keeping its rows and its triggers. Pending prompts become held
// (a hold note), advisory (check wrote them: no session) or asked.
func TestMigrateForward(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.db")
	db := rawConn(t, path)
	ctx := context.Background()
	if _, err := db.Exec("PRAGMA journal_mode=WAL"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(migrations[0] + "; PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	old := func(cmd, session string, d effects.Decision, note string) int64 {
		t.Helper()
		r, err := newRow(verdict(cmd, "a", part(effects.Network, cmd, "git", d)), session, StatusAsked)
		if err != nil {
			t.Fatal(err)
		}
		if d == effects.Prompt {
			r.Status = "pending" // as version 1 wrote it
		}
		id, err := insertOld(ctx, db, r)
		if err != nil {
			t.Fatal(err)
		}
		if note != "" {
			if _, err := db.Exec(`UPDATE verdicts SET note = ? WHERE id = ?`, note, id); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}
	id := old("git push", "old", effects.Prompt, "")
	held := old("git push held", "hook-1", effects.Prompt, holdPrefix+"2026-11-30T09:10:00Z")
	advisory := old("git push check", "", effects.Prompt, "")
	auto := old("git status", "x", effects.Allow, "")
	db.Close()

	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var v int
	if err := l.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("user_version = %d, %v; want %d", v, err, SchemaVersion)
	}
	var idx int
	if err := l.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN
		('verdicts_id_command', 'verdicts_rule', 'verdicts_prompts')`).Scan(&idx); err != nil || idx != 3 {
		t.Errorf("indexes of versions 2, 3 and 5: %d of 3, %v", idx, err)
	}
	if s, err := l.Stats(ctx, Filter{}); err != nil || s.Total != 4 || s.ByEffect["network"] != 4 {
		t.Errorf("stats after migration: %+v, %v", s, err)
	}
	es, err := l.Query(ctx, Filter{Grep: "push", Status: StatusAsked})
	if err != nil || len(es) != 1 || es[0].LogID != id || es[0].Session != "old" {
		t.Errorf("old row after migration: %+v, %v", es, err)
	}
	// The hold whose note is long past is released as gone by this Open.
	for row, want := range map[int64]Status{id: StatusAsked, held: StatusRejected, advisory: StatusAdvisory, auto: StatusAuto} {
		if e, err := l.Get(ctx, row); err != nil || e.Status != want {
			t.Errorf("row %d after migration: %s (%v), want %s", row, e.Status, err, want)
		}
	}
	if e, _ := l.Get(ctx, held); e.Reviewer != ReviewerGone {
		t.Errorf("the old held row: reviewer %q, want %s", e.Reviewer, ReviewerGone)
	}
	if err := l.Resolve(ctx, id, StatusApproved, "alice"); err != nil {
		t.Errorf("resolve old row: %v", err)
	}
	if err := l.Resolve(ctx, advisory, StatusRejected, "bob"); err != nil {
		t.Errorf("resolve advisory row: %v", err)
	}
	if err := l.Resolve(ctx, id, StatusRejected, "eve"); !errors.Is(err, ErrNotPending) {
		t.Errorf("second resolve: %v, want ErrNotPending", err)
	}
	// The triggers hold after the rebuild, for every connection.
	for _, stmt := range []string{
		`DELETE FROM verdicts`,
		`UPDATE verdicts SET command = 'x' WHERE id = 1`,
		`UPDATE verdicts SET status = 'held' WHERE id = 1`,
		`UPDATE verdicts SET status = 'approved', reviewer = 'x', reviewed_at = 'y' WHERE id = ` + fmt.Sprint(auto),
		`INSERT OR REPLACE INTO verdicts SELECT * FROM verdicts WHERE id = 1`,
		`INSERT INTO verdict_effects (effect, verdict_id) VALUES ('read', 1)`,
	} {
		if _, err := l.db.Exec(stmt); err == nil {
			t.Errorf("%s succeeded after migration", stmt)
		}
	}
	// Ids go on from the highest; none is reused.
	next := mustAppend(t, l, verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)))
	if next != auto+1 {
		t.Errorf("next id %d, want %d", next, auto+1)
	}
}

// TestMigrateV4 opens a log left at schema version 4 and checks that Open
// rebuilds it as version 5 (issue 17): every row as it was, its effect
// classes in the new column, the lighter indexes, and each trigger's
// guarantee for every connection, including ids that only grow now that
// AUTOINCREMENT is gone.
func TestMigrateV4(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.db")
	db := rawConn(t, path)
	ctx := context.Background()
	if _, err := db.Exec("PRAGMA journal_mode=WAL"); err != nil {
		t.Fatal(err)
	}
	for i, m := range migrations[:4] {
		if _, err := db.Exec(m + fmt.Sprintf("; PRAGMA user_version = %d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	old := func(v gate.Verdict, session string, waiting Status) int64 {
		t.Helper()
		r, err := newRow(v, session, waiting)
		if err != nil {
			t.Fatal(err)
		}
		id, err := insertOld(ctx, db, r)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	push := old(verdict("git push && ls", "claude-code", part(effects.Network, "git push", "git", effects.Prompt),
		part(effects.Read, "ls", "ls", effects.Allow), part(effects.Network, "git push", "git", effects.Prompt)), "s1", StatusAsked)
	ls := old(verdict("ls", "copilot", part(effects.Read, "ls", "ls", effects.Allow)), "serve:1", StatusAsked)
	rm := old(verdict("rm -rf ~", "cursor", part(effects.Deletion, "rm -rf ~", "rm", effects.Refuse)), "", StatusAdvisory)
	held := old(verdict("curl x", "gemini-cli", part(effects.Network, "curl x", "curl", effects.Prompt)), "h", StatusHeld)
	none := old(verdict("", "default"), "", StatusAdvisory)
	if _, err := db.Exec(`UPDATE verdicts SET status = 'approved', reviewer = 'ada', reviewed_at = time, note = 'ok' WHERE id = ?`, push); err != nil {
		t.Fatal(err)
	}
	// Read as the version-4 table has them (no shell column yet: they read
	// as unknown, as they do after the migrations).
	v4columns := strings.Replace(columns, ", v.shell", ", 'unknown'", 1)
	before, err := (&Log{db: db}).query(ctx, "SELECT "+v4columns+" FROM verdicts AS v ORDER BY v.id DESC")
	if err != nil || len(before) != 5 {
		t.Fatalf("v4 rows: %d, %v", len(before), err)
	}
	db.Close()

	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var v int
	if err := l.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("user_version = %d, %v; want %d", v, err, SchemaVersion)
	}
	after, err := l.Query(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("rows changed by the migration (-v4 +v5):\n%s", diff)
	}
	for id, want := range map[int64]string{push: "network,read", ls: "read", rm: "irreversible-deletion", held: "network", none: ""} {
		var got string
		if err := l.db.QueryRow(`SELECT classes FROM verdicts WHERE id = ?`, id).Scan(&got); err != nil {
			t.Fatal(err)
		}
		g := strings.Split(got, ",")
		slices.Sort(g)
		if strings.Join(g, ",") != want {
			t.Errorf("row %d: classes %q, want %q (in any order)", id, got, want)
		}
	}
	var names []string
	rows, err := l.db.Query(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	rows.Close()
	wantIdx := []string{"verdicts_agent", "verdicts_decision", "verdicts_id_command", "verdicts_prompts", "verdicts_rule", "verdicts_time"}
	if !slices.Equal(names, wantIdx) {
		t.Errorf("indexes %q, want %q", names, wantIdx)
	}
	var seq int
	if err := l.db.QueryRow(`SELECT count(*) FROM sqlite_sequence WHERE name = 'verdicts'`).Scan(&seq); err != nil || seq != 0 {
		t.Errorf("verdicts still has an AUTOINCREMENT sequence (%d, %v)", seq, err)
	}
	st, err := l.Stats(ctx, Filter{})
	wantStats := Stats{Total: 5, ByDecision: map[string]int{"allow": 2, "prompt": 2, "refuse": 1},
		ByEffect: map[string]int{"network": 2, "read": 2, "irreversible-deletion": 1},
		ByAgent:  map[string]int{"claude-code": 1, "copilot": 1, "cursor": 1, "gemini-cli": 1, "default": 1},
		ByRule:   map[string]int{"": 1, "irreversible-deletion": 1, "network": 2, "read": 1}, ByStatus: map[string]int{"auto": 3, "approved": 1, "held": 1}, ApprovalRate: 1}
	if err != nil || !cmp.Equal(st, wantStats) {
		t.Errorf("stats after migration: %v\n%s", err, cmp.Diff(wantStats, st))
	}
	if st, err := l.Stats(ctx, Filter{Agent: "claude-code"}); err != nil || st.ByEffect["network"] != 1 || st.ByEffect["read"] != 1 || st.ByStatus["approved"] != 1 {
		t.Errorf("filtered stats after migration: %+v, %v", st, err)
	}
	if es, err := l.Query(ctx, Filter{Status: StatusHeld}); err != nil || len(es) != 1 || es[0].LogID != held {
		t.Errorf("held rows after migration: %+v, %v", es, err)
	}
	// Every trigger's guarantee holds for another connection (the sqlite3
	// shell), and ids go on from the highest.
	raw := rawConn(t, path)
	for _, stmt := range []string{
		`DELETE FROM verdicts`,
		`UPDATE verdicts SET command = 'x' WHERE id = 1`,
		`UPDATE verdicts SET classes = 'read' WHERE id = 1`,
		`UPDATE verdicts SET status = 'held' WHERE id = 1`,
		`UPDATE verdicts SET status = 'approved', reviewer = 'x', reviewed_at = 'y' WHERE id = ` + fmt.Sprint(ls),
		`INSERT OR REPLACE INTO verdicts SELECT * FROM verdicts WHERE id = 1`,
		`REPLACE INTO verdicts SELECT * FROM verdicts WHERE id = ` + fmt.Sprint(none),
		`INSERT INTO verdict_effects (effect, verdict_id) VALUES ('write-outside', 1)`,
		`DELETE FROM verdict_effects`,
		`UPDATE verdict_effects SET effect = 'read'`,
		`INSERT INTO verdicts (id, time, command, cwd, workspaces, agent, mode, decision, effects, decided_by, rule, reason,
			classification_enabled, micros, classifier_version, status) SELECT 3, time, 'x', '', '[]', 'a', '', 'allow', '[]', '', '', '', 1, 0, '', 'auto' FROM verdicts WHERE id = 1`,
	} {
		if _, err := raw.Exec(stmt); err == nil {
			t.Errorf("%s succeeded after migration", stmt)
		}
	}
	next := mustAppend(t, l, verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)))
	if next != none+1 {
		t.Errorf("next id %d, want %d", next, none+1)
	}
	// Past the highest possible id SQLite would pick a random free one: the
	// log refuses instead, so ids never go down.
	if _, err := raw.Exec(`INSERT INTO verdicts (id, time, command, cwd, workspaces, agent, mode, decision, effects, decided_by, rule, reason,
		classification_enabled, micros, classifier_version, status) SELECT 9223372036854775807, time, 'x', '', '[]', 'a', '', 'allow', '[]', '', '', '', 1, 0, '', 'auto' FROM verdicts WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	if id, err := l.Append(ctx, verdict("ls", "a", part(effects.Read, "ls", "ls", effects.Allow)), "t", StatusAsked); err == nil {
		t.Errorf("append after the highest id: id %d, want an error", id)
	}
}

// TestShellRecorded: each row keeps the shell its verdict was classified in
// (schema v6), immutably; a row written before version 6 reads as unknown.
func TestShellRecorded(t *testing.T) {
	l := openTemp(t)
	ctx := context.Background()
	v := verdict("ls *(e:true:)", "codex", part(effects.OpaqueHigh, "ls", "ls", effects.Refuse))
	v.Shell = gate.ShellZsh
	id := mustAppend(t, l, v)
	e, err := l.Get(ctx, id)
	if err != nil || e.Shell != gate.ShellZsh {
		t.Errorf("shell %v (%v), want zsh", e.Shell, err)
	}
	if _, err := l.db.Exec(`UPDATE verdicts SET shell = 'bash' WHERE id = ?`, id); err == nil {
		t.Error("the shell of a row changed")
	}
}
