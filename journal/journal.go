package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/ml-ai/command-safety/gate"
)

// Path is the journal of the decision log at logPath.
func Path(logPath string) string { return logPath + gate.JournalSuffix }

// Record is one verdict a hook wrote to the journal.
type Record struct {
	Row Row `json:"row"`
	// RejectedBy, when not "", rejects the prompt as soon as it is in the
	// log, with this reviewer: nobody can be asked (Codex, `claude -p`), so
	// the prompt was denied and the row says so instead of waiting.
	RejectedBy string `json:"rejectedBy,omitempty"`
}

// header is a journal's first frame.
type header struct {
	Gen string `json:"gen"`
}

// magic starts every frame.
var magic = []byte("CSJ1")

// frameHead is the magic, the payload's length and its CRC-32C.
const frameHead = 12

// maxFrame bounds a frame's payload: a command is at most
// gate.MaxCommandBytes (longer ones are stored as a prefix), and its
// reason quotes at most a little of it.
const maxFrame = 1 << 20

// checksum is the payload's FNV-1a: it detects a torn or garbled frame
// (nothing here defends against a writer that means harm: the journal is
// part of the rule store, which no command may write), and unlike CRC-32C
// it needs no table built at every process start (crc32's Castagnoli table
// was a fifth of the hook binary's initialisation).
func checksum(p []byte) uint32 {
	h := fnv.New32a()
	h.Write(p)
	return h.Sum32()
}

// frame appends payload framed to b.
func frame(b, payload []byte) []byte {
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, checksum(payload))
	return append(b, payload...)
}

// exclusiveAbove is the frame size above which a writer takes the lock
// exclusively: smaller appends rely on O_APPEND writing each frame whole
// and in one piece (as every local filesystem does for a regular file), larger ones
// do not share the file with any other writer.
const exclusiveAbove = 4 << 10

// Append writes rec to the journal at path and fsyncs it: when it returns
// nil the record survives a crash of the process or the machine, and the
// next process that opens the log ingests it. The journal and its
// directory are created as the log's (0600 in a 0700 directory). Several
// processes may append at once.
func Append(path string, rec Record) error {
	payload := rec.appendJSON(make([]byte, 0, 1024))
	if len(payload) > maxFrame {
		return fmt.Errorf("journal: a record of %d bytes is over the %d-byte limit", len(payload), maxFrame)
	}
	f, created, err := openAppend(path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	buf := frame(make([]byte, 0, 2*frameHead+64+len(payload)), payload)
	if err := lock(f, len(buf) > exclusiveAbove); err != nil {
		return fmt.Errorf("journal %s: lock: %w", path, err)
	}
	// The lock is released when f is closed.
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if st.Size() == 0 {
		// A new file (or one an ingest emptied): its generation first, in the
		// same write, so that no reader sees records without it.
		h, err := newHeader()
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		buf = append(frame(nil, append(h, '}')), buf...)
	}
	if n, err := f.Write(buf); err != nil {
		return fmt.Errorf("journal %s: write: %w", path, err)
	} else if n != len(buf) {
		return fmt.Errorf("journal %s: short write (%d of %d bytes)", path, n, len(buf))
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("journal %s: fsync: %w", path, err)
	}
	if created {
		// The file's name must survive a crash too.
		if err := syncDir(filepath.Dir(path)); err != nil {
			return fmt.Errorf("journal %s: fsync its directory: %w", path, err)
		}
	}
	return nil
}

// newHeader names a new generation: the time in nanoseconds, the process
// and a counter. It need only differ from the generations this file had
// before (the last ingest's is the one compared), which a clock that moves
// and the writer's pid ensure; crypto/rand would cost every hook the
// initialisation of the FIPS 140 module.
func newHeader() ([]byte, error) {
	gen := fmt.Sprintf("%x-%x-%x", time.Now().UnixNano(), os.Getpid(), genSeq.Add(1))
	return appendString([]byte(`{"gen":`), gen), nil
}

// genSeq counts the generations this process named (appends of several
// goroutines may start one at once).
var genSeq atomic.Uint64

// openAppend opens path for appending, creating it (and its directory)
// when missing; created says it did.
// A FIFO or device in its place is an error, never a wait (O_NONBLOCK, then
// the file's type).
func openAppend(path string) (f *os.File, created bool, err error) {
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|openNonblock, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if err := mkdirDurable(filepath.Dir(path)); err != nil {
			return nil, false, err
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o600)
		created = err == nil
		if errors.Is(err, fs.ErrExist) {
			f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|openNonblock, 0)
		}
	}
	if err != nil {
		return nil, false, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
		}
		return nil, false, err
	}
	return f, created, nil
}

// mkdirDurable creates dir and its missing parents (0700) and fsyncs the
// parent of each directory it created, so that the journal's path survives
// a crash as the journal does.
func mkdirDurable(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, d := range missing {
		if err := syncDir(filepath.Dir(d)); err != nil {
			return err
		}
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// Entry is a record read back, with where its frame ends in the file.
type Entry struct {
	Record Record
	End    int64
}

// Contents is what [Parse] found in a journal.
type Contents struct {
	// Gen is the generation of the file's first header; "" when none was
	// read (a header torn by a crash).
	Gen string
	// Entries are the records from the start offset on, in file order.
	Entries []Entry
	// Torn counts the stretches skipped: frames cut short, failing their
	// checksum or not a record.
	Torn int
}

// Parse reads the frames of data. Records that end at or before skip
// bytes are left out when the file's generation is gen (they were ingested
// already).
func Parse(data []byte, gen string, skip int64) Contents {
	var c Contents
	first := true
	for pos := 0; pos < len(data); {
		payload, next, ok := frameAt(data, pos)
		if !ok {
			c.Torn++
			i := bytes.Index(data[pos+1:], magic)
			if i < 0 {
				break
			}
			pos += 1 + i
			continue
		}
		pos = next
		var h header
		if json.Unmarshal(payload, &h) == nil && h.Gen != "" {
			if first {
				c.Gen = h.Gen
			}
			first = false
			continue // a later header: another writer that found the file empty too
		}
		first = false
		var r Record
		if err := json.Unmarshal(payload, &r); err != nil || r.Row.Decision == "" {
			c.Torn++
			continue
		}
		if c.Gen == gen && int64(next) <= skip {
			continue
		}
		c.Entries = append(c.Entries, Entry{Record: r, End: int64(next)})
	}
	return c
}

// frameAt decodes the frame at pos: its payload and where the next starts.
func frameAt(data []byte, pos int) (payload []byte, next int, ok bool) {
	if len(data)-pos < frameHead || !bytes.Equal(data[pos:pos+4], magic) {
		return nil, 0, false
	}
	n := binary.LittleEndian.Uint32(data[pos+4:])
	sum := binary.LittleEndian.Uint32(data[pos+8:])
	end := pos + frameHead + int(n)
	if n > maxFrame || end > len(data) {
		return nil, 0, false
	}
	payload = data[pos+frameHead : end]
	if checksum(payload) != sum {
		return nil, 0, false
	}
	return payload, end, true
}

// Pending reports whether the journal at path holds anything (one stat).
func Pending(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Size() > 0
}

// Batch is a journal held for ingest ([Take]): nobody appends until
// [Batch.Done].
type Batch struct {
	Contents
	// Size is the file's size when read: where [Batch.Contents] ends.
	Size int64
	f    *os.File
}

// Take locks the journal at path exclusively and reads it, leaving out what
// an earlier ingest of generation gen took up to offset skip. It returns nil
// and no error when there is no journal or it is empty. The caller commits
// the batch's records (with its Gen and Size, see the package doc) and
// then calls [Batch.Done] in every case: until then appends wait.
func Take(path, gen string, skip int64) (*Batch, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && st.Size() == 0) {
		return nil, nil // the common case costs one stat
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("journal %s is not a regular file (%s)", path, st.Mode().Type())
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := lock(f, true); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal %s: lock: %w", path, err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal %s: %w", path, err)
	}
	if len(data) == 0 {
		f.Close()
		return nil, nil
	}
	return &Batch{Contents: Parse(data, gen, skip), Size: int64(len(data)), f: f}, nil
}

// Done releases the journal. After a committed ingest (committed true) it
// empties the file first: the next append starts a new generation. The
// emptying need not be durable: if a crash undoes it, the committed
// generation and offset keep the next ingest from taking anything twice.
func (b *Batch) Done(committed bool) error {
	if b == nil {
		return nil
	}
	defer b.f.Close()
	if committed {
		if err := b.f.Truncate(0); err != nil {
			return fmt.Errorf("journal: empty after ingest: %w", err)
		}
	}
	return nil
}
