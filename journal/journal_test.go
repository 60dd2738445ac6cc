//go:build unix

package journal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func rec(cmd string) Record {
	return Record{Row: Row{Time: "2026-12-01T00:00:00.000000Z", Command: cmd, Decision: "allow", Status: StatusAuto,
		Workspaces: "[]", Effects: "[]", ClassifierVersion: "1"}}
}

func read(t *testing.T, path, gen string, skip int64) Contents {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Parse(data, gen, skip)
}

func commands(c Contents) []string {
	var out []string
	for _, e := range c.Entries {
		out = append(out, e.Record.Row.Command)
	}
	return out
}

// TestAppendParse: records come back in order under one generation; the
// file is 0600 in a 0700 directory, like the log.
func TestAppendParse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "decisions.db"+".hooks")
	for _, c := range []string{"ls", "git status", strings.Repeat("x", 64<<10)} { // the last takes the exclusive lock
		if err := Append(path, rec(c)); err != nil {
			t.Fatal(err)
		}
	}
	c := read(t, path, "", 0)
	if got := commands(c); len(got) != 3 || got[0] != "ls" || got[1] != "git status" || c.Gen == "" || c.Torn != 0 {
		t.Fatalf("read back %d records %.20q, gen %q, torn %d", len(got), got, c.Gen, c.Torn)
	}
	st, _ := os.Stat(path)
	dst, _ := os.Stat(filepath.Dir(path))
	if st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Errorf("modes %v %v, want 0600 and 0700", st.Mode(), dst.Mode())
	}
	// What an ingest of this generation took up to an offset is skipped.
	if got := commands(read(t, path, c.Gen, c.Entries[1].End)); len(got) != 1 {
		t.Errorf("after skipping two: %d records", len(got))
	}
	if got := commands(read(t, path, "another", c.Entries[1].End)); len(got) != 3 {
		t.Errorf("another generation's offset applied: %d records", len(got))
	}
}

// TestTornFrames: a frame cut short at the end (a crash of the machine
// mid-write: never answered, since its fsync had not returned) is ignored;
// garbage or a bad checksum in the middle is skipped and the records after
// it, which were answered, are still read.
func TestTornFrames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	for _, c := range []string{"a", "b"} {
		if err := Append(path, rec(c)); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	full := len(data)
	// A torn tail: the start of a third frame.
	third := frame(nil, []byte(`{"row":{"command":"c","decision":"allow"}}`))
	for cut := 1; cut < len(third); cut += 7 {
		c := Parse(append(append([]byte{}, data...), third[:cut]...), "", 0)
		if got := commands(c); len(got) != 2 || got[1] != "b" {
			t.Fatalf("torn tail of %d bytes: %q", cut, got)
		}
	}
	// A flipped byte inside b's payload: b is lost (its checksum fails), a
	// and a record written after it survive.
	bad := append([]byte{}, data...)
	bad[full-3] ^= 0xff
	bad = append(bad, frame(nil, []byte(`{"row":{"command":"d","decision":"allow"}}`))...)
	c := Parse(bad, "", 0)
	if got := commands(c); len(got) != 2 || got[0] != "a" || got[1] != "d" || c.Torn == 0 {
		t.Errorf("with b garbled: %q torn %d, want a and d", got, c.Torn)
	}
	// Zeros (what a crash can leave past a file's last block) then a record.
	z := append(append(append([]byte{}, data...), make([]byte, 4096)...), frame(nil, []byte(`{"row":{"command":"e","decision":"allow"}}`))...)
	if got := commands(Parse(z, "", 0)); len(got) != 3 || got[2] != "e" {
		t.Errorf("after zeros: %q", got)
	}
}

// TestTakeLocksOutAppends: while an ingest holds the journal, an append
// waits; after Done(true) it lands in a new generation and is not lost.
func TestTakeLocksOutAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	if err := Append(path, rec("a")); err != nil {
		t.Fatal(err)
	}
	b, err := Take(path, "", 0)
	if err != nil || b == nil || len(b.Entries) != 1 {
		t.Fatalf("take: %v %v", b, err)
	}
	done := make(chan error, 1)
	go func() { done <- Append(path, rec("b")) }()
	select {
	case err := <-done:
		t.Fatalf("append finished while the journal was taken: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	if err := b.Done(true); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	c := read(t, path, b.Gen, b.Size)
	if got := commands(c); len(got) != 1 || got[0] != "b" || c.Gen == b.Gen {
		t.Errorf("after the ingest: %q gen %q (was %q)", got, c.Gen, b.Gen)
	}
	if b, err := Take(filepath.Join(t.TempDir(), "none"), "", 0); b != nil || err != nil {
		t.Errorf("take of a missing journal: %v %v", b, err)
	}
}

// TestConcurrentAppends: goroutines and processes appending at once never
// interleave frames.
func TestConcurrentAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	var wg sync.WaitGroup
	const writers, each = 8, 50
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				c := fmt.Sprintf("w%d-%d %s", w, i, strings.Repeat("y", (w*i)%3000))
				if err := Append(path, rec(c)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	c := read(t, path, "", 0)
	if len(c.Entries) != writers*each || c.Torn != 0 {
		t.Errorf("%d records, %d torn; want %d and none", len(c.Entries), c.Torn, writers*each)
	}
}

// TestKilledMidBurst: processes appending as fast as they can are killed
// with SIGKILL; every record a process reported as appended (Append
// returned) is in the journal, and the file parses without torn frames (a
// killed process never tears one: its write is whole or absent).
func TestKilledMidBurst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	const procs = 4
	reported := map[string]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for p := range procs {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "JOURNAL_CHILD="+path, "JOURNAL_CHILD_ID="+strconv.Itoa(p))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			sc := bufio.NewScanner(out)
			n := 0
			for sc.Scan() {
				if c, ok := strings.CutPrefix(sc.Text(), "appended "); ok {
					mu.Lock()
					reported[c] = true
					mu.Unlock()
					if n++; n == 40 {
						_ = cmd.Process.Signal(syscall.SIGKILL)
					}
				}
			}
			_ = cmd.Wait()
		})
	}
	wg.Wait()
	c := read(t, path, "", 0)
	have := map[string]bool{}
	for _, e := range c.Entries {
		have[e.Record.Row.Command] = true
	}
	for r := range reported {
		if !have[r] {
			t.Errorf("%q was reported appended and is not in the journal", r)
		}
	}
	if len(reported) < procs*40 || c.Torn != 0 {
		t.Errorf("%d reported, %d read, %d torn", len(reported), len(c.Entries), c.Torn)
	}
}

// TestMain runs TestKilledMidBurst's children: with JOURNAL_CHILD set, the
// process appends until killed, printing each record once Append returned.
func TestMain(m *testing.M) {
	path := os.Getenv("JOURNAL_CHILD")
	if path == "" {
		os.Exit(m.Run())
	}
	id := os.Getenv("JOURNAL_CHILD_ID")
	for i := 0; ; i++ {
		c := fmt.Sprintf("p%s-%d", id, i)
		if err := Append(path, rec(c)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("appended %s\n", c)
	}
}

// TestRecordJSON: the hand-written encoding reads back as encoding/json's
// own does, whatever the strings hold (quotes, controls, bytes that are
// not UTF-8, U+2028).
func TestRecordJSON(t *testing.T) {
	odd := []string{"", "plain", `q"uote\back`, "ctl\x00\x01\x1b\x7f\n\r\t", "bad\xff\xfeutf8", "é 世界 \u2028\u2029", "<&>"}
	for i, s := range odd {
		r := rec(s)
		r.Row.Cwd, r.Row.Reason, r.Row.Session, r.Row.Micros, r.Row.Enabled = s, s+s, odd[(i+1)%len(odd)], int64(i*1000), i%2
		r.Row.Classes = []string{"read", s}
		if i%2 == 0 {
			r.RejectedBy = s + "x"
		}
		var fromOurs, fromJSON Record
		if err := json.Unmarshal(r.appendJSON(nil), &fromOurs); err != nil {
			t.Fatalf("%q: %v\n%s", s, err, r.appendJSON(nil))
		}
		std, _ := json.Marshal(r)
		if err := json.Unmarshal(std, &fromJSON); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fromOurs, fromJSON) {
			t.Errorf("%q:\nours %+v\njson %+v", s, fromOurs, fromJSON)
		}
	}
}

// TestNotRegular: a FIFO or a directory where the journal should be fails
// the append at once (the hook then prompts), never waits.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- Append(fifo, rec("ls")) }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("append to a FIFO succeeded")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("append to a FIFO blocked")
	}
	if err := Append(dir, rec("ls")); err == nil {
		t.Error("append to a directory succeeded")
	}
	if b, err := Take(fifo, "", 0); b != nil {
		t.Errorf("take of a FIFO: %v %v, want nothing taken", b, err)
	}
}
