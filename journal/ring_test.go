//go:build unix

package journal

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func payloads(cmds ...string) [][]byte {
	var out [][]byte
	for _, c := range cmds {
		out = append(out, EncodeRecord(rec(c)))
	}
	return out
}

func ringCommands(t *testing.T, path string, after uint64) ([]string, []uint64, uint64) {
	t.Helper()
	es, last := readRing(t, path, after)
	var cmds []string
	var seqs []uint64
	for _, e := range es {
		cmds = append(cmds, e.Record.Row.Command)
		seqs = append(seqs, e.Seq)
	}
	return cmds, seqs, last
}

// readRing opens the ring at path and reads its frames after seq after.
func readRing(t *testing.T, path string, after uint64) ([]RingEntry, uint64) {
	t.Helper()
	rr, err := OpenRing(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	es, last, err := rr.Read(after)
	if err != nil {
		t.Fatal(err)
	}
	return es, last
}

// TestRingWriteRead: frames read back in order after a sequence number;
// after a rewind only the new run is read, never the older frames beyond
// it; a ring is full when frames do not fit before its end.
func TestRingWriteRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d.db.serve")
	r, err := CreateRing(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if st, err := os.Stat(r.Path()); err != nil || st.Size() != RingSize || st.Mode().Perm() != 0o600 {
		t.Fatalf("ring file: %v, %v; want %d bytes, 0600", st, err, RingSize)
	}
	if cmds, _, last := ringCommands(t, r.Path(), 0); len(cmds) != 0 || last != 0 {
		t.Fatalf("new ring reads %q (last %d), want nothing", cmds, last)
	}
	if err := r.Write(payloads("a", "b")); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(payloads("c")); err != nil {
		t.Fatal(err)
	}
	cmds, seqs, last := ringCommands(t, r.Path(), 0)
	if !slices.Equal(cmds, []string{"a", "b", "c"}) || !slices.Equal(seqs, []uint64{1, 2, 3}) || last != 3 {
		t.Fatalf("read %q %v last %d", cmds, seqs, last)
	}
	if cmds, _, last := ringCommands(t, r.Path(), 2); !slices.Equal(cmds, []string{"c"}) || last != 3 {
		t.Fatalf("after 2: %q last %d", cmds, last)
	}
	// Rewound: "d" overwrites "a"; "b" and "c" beyond it are older.
	r.Rewind()
	if err := r.Write(payloads("d")); err != nil {
		t.Fatal(err)
	}
	if cmds, seqs, last := ringCommands(t, r.Path(), 3); !slices.Equal(cmds, []string{"d"}) || !slices.Equal(seqs, []uint64{4}) || last != 4 {
		t.Fatalf("after the rewind: %q %v last %d; want only d (4)", cmds, seqs, last)
	}
	// Full: a record that does not fit before the end writes nothing.
	big := EncodeRecord(rec(strings.Repeat("x", 600<<10)))
	if err := r.Write([][]byte{big}); err != nil {
		t.Fatal(err)
	}
	head := r.Head()
	if err := r.Write([][]byte{big}); !errors.Is(err, ErrRingFull) || r.Head() != head || r.Last() != 5 {
		t.Fatalf("write past the end: %v, head %d (was %d), last %d", err, r.Head(), head, r.Last())
	}
	if _, _, last := ringCommands(t, r.Path(), 0); last != 5 {
		t.Fatalf("last %d, want 5", last)
	}
	// A frame over a megabyte is refused outright.
	if err := r.Write([][]byte{make([]byte, maxFrame+1)}); err == nil || errors.Is(err, ErrRingFull) {
		t.Errorf("oversized frame: %v", err)
	}
}

// TestRingTorn: a frame torn by a crash (its checksum fails), or cut short,
// ends the run; nothing after it is read.
func TestRingTorn(t *testing.T) {
	dir := t.TempDir()
	r, err := CreateRing(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Write(payloads("a", "b", "c")); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(r.Path(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	first := EncodeRecord(rec("a"))
	second := ringHead + len(first)
	// Garble b's payload.
	if _, err := f.WriteAt([]byte("Z"), int64(second+ringHead+5)); err != nil {
		t.Fatal(err)
	}
	if cmds, _, last := ringCommands(t, r.Path(), 0); !slices.Equal(cmds, []string{"a"}) || last != 1 {
		t.Errorf("garbled b: read %q last %d, want a only", cmds, last)
	}
	// A length that runs past the file.
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], RingSize)
	if _, err := f.WriteAt(n[:], 4); err != nil {
		t.Fatal(err)
	}
	if cmds, _, last := ringCommands(t, r.Path(), 0); len(cmds) != 0 || last != 0 {
		t.Errorf("cut-short first frame: read %q last %d, want nothing", cmds, last)
	}
}

// TestRingAbandoned: a ring is in use while its writer holds it, in this
// process or another, and abandoned once the writer closed it (or died).
func TestRingAbandoned(t *testing.T) {
	dir := t.TempDir()
	r, err := CreateRing(dir)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := ListRings(dir)
	if err != nil || len(rs) != 1 || rs[0].Name != r.Name() || rs[0].Path != r.Path() {
		t.Fatalf("ListRings = %v, %v", rs, err)
	}
	rr, err := OpenRing(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	if rr.Abandoned || rr.Remove() == nil {
		t.Fatal("a ring its writer holds is abandoned")
	}
	rr.Close()
	r.Close()
	rr, err = OpenRing(r.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !rr.Abandoned || rr.Name() != r.Name() {
		t.Fatalf("closed ring: abandoned %v, name %q", rr.Abandoned, rr.Name())
	}
	if err := rr.Remove(); err != nil {
		t.Fatal(err)
	}
	rr.Close()
	if rs, err := ListRings(dir); err != nil || len(rs) != 0 {
		t.Errorf("after Remove: %v, %v", rs, err)
	}
	if rs, err := ListRings(filepath.Join(dir, "missing")); err != nil || rs != nil {
		t.Errorf("missing directory: %v, %v", rs, err)
	}
}

// FuzzRingRead: whatever a ring file holds (a disk's garbage, a tool's
// write), reading it never panics, returns frames of one rising run only,
// and only frames after the sequence number asked for.
func FuzzRingRead(f *testing.F) {
	var good []byte
	for i, p := range payloads("ls", "git status", "rm -rf build") {
		good = ringFrame(good, uint64(i+7), p)
	}
	f.Add(good, uint64(0))
	f.Add(good, uint64(8))
	f.Add(good[:len(good)-3], uint64(0))
	f.Add(append(ringFrame(nil, 1, []byte(`{"row":{"decision":"allow"}}`)), good...), uint64(0))
	f.Add([]byte("CSR1\xff\xff\xff\xff"), uint64(0))
	dir := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, data []byte, after uint64) {
		n++
		path := filepath.Join(dir, strconv.Itoa(n)+ringExt)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(path)
		es, last := readRing(t, path, after)
		for i, e := range es {
			if e.Seq <= after || e.Seq > last || (i > 0 && e.Seq != es[i-1].Seq+1) {
				t.Fatalf("entry %d: seq %d (after %d, last %d, entries %v)", i, e.Seq, after, last, es)
			}
		}
	})
}
