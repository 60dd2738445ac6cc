package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
)

// TestLogExport: a time range, oldest first, as JSON lines and CSV.
func TestLogExport(t *testing.T) {
	logHome(t)
	path, ids := logFixture(t) // 2026-11-29 12:00, 13:00 ×3, 2026-12-01 12:00, 13:00 (UTC)
	code, out, errs := runLogCmd(t, "export", "--log", path, "--since", "2026-11-29T12:30:00Z", "--until", "2026-12-01T12:00:00Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got []audit.Entry
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e audit.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		got = append(got, e)
	}
	if len(got) != 4 || got[0].Command != "git push origin b0" || got[3].Command != "rm -rf build\nrm -rf dist" {
		t.Fatalf("export = %d rows %v", len(got), got)
	}
	if got[0].Status != audit.StatusApproved || got[0].Reviewer != "alice" || got[0].LogID != ids["git push origin b0"] {
		t.Errorf("row = %+v", got[0])
	}

	// Everything, as CSV; a command a spreadsheet would run is quoted.
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	formula := `=HYPERLINK("http://x","click")`
	if _, err := l.Append(context.Background(), logVerdict(formula, "copilot", effects.OpaqueMedium, effects.Prompt, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)), "", audit.StatusAsked); err != nil {
		t.Fatal(err)
	}
	l.Close()
	code, out, errs = runLogCmd(t, "export", "--log", path, "--format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 || strings.Join(rows[0], ",") != strings.Join(exportColumns, ",") {
		t.Fatalf("csv = %d rows, header %q\n%s", len(rows), rows[0], out)
	}
	if last := rows[7]; last[3] != "'"+formula || last[9] != "prompt" || last[5] != "[]" {
		t.Errorf("last row = %q", last)
	}
	if rows[2][18] != "alice" || rows[2][19] == "" {
		t.Errorf("resolved row = %q", rows[2])
	}

	// Empty ranges, bad flags, and a log that does not exist.
	if code, out, _ := runLogCmd(t, "export", "--log", path, "--since", "2030-01-01", "--until", "2030-01-02"); code != 0 || out != "" {
		t.Errorf("future range: %d %q", code, out)
	}
	if code, _, _ := runLogCmd(t, "export", "--log", path, "--format", "xml"); code != exitUsage {
		t.Errorf("--format xml: exit %d", code)
	}
	if code, _, _ := runLogCmd(t, "export", "--log", path, "--since", "1h", "--until", "2h"); code != exitUsage {
		t.Errorf("--until before --since: exit %d", code)
	}
	if code, out, _ := runLogCmd(t, "export", "--log", filepath.Join(t.TempDir(), "none.db")); code != 0 || out != "" {
		t.Errorf("missing log: %d %q", code, out)
	}
}

// TestLogExportFirstRow: the binary search finds the first row of a range
// in a log whose times are not quite in id order (writers commit a little
// after they decide).
func TestLogExportFirstRow(t *testing.T) {
	logHome(t)
	path := filepath.Join(t.TempDir(), "d.db")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 600 {
		at := base.Add(time.Duration(i) * time.Second)
		if i%7 == 3 {
			at = at.Add(-3 * time.Second) // decided a little before the row above it
		}
		if _, err := l.Append(context.Background(), logVerdict("ls", "a", effects.Read, effects.Allow, at), "", audit.StatusAsked); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	code, out, _ := runLogCmd(t, "export", "--log", path, "--since", base.Add(300*time.Second).Format(time.RFC3339), "--until", base.Add(400*time.Second).Format(time.RFC3339))
	n := strings.Count(out, "\n")
	// The rows whose time is in seconds 300..400, wherever their id is.
	want := 0
	for i := range 600 {
		at := i
		if i%7 == 3 {
			at -= 3
		}
		if at >= 300 && at <= 400 {
			want++
		}
	}
	if code != 0 || n != want {
		t.Errorf("exported %d rows, want %d", n, want)
	}
}
