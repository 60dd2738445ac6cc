package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/gate"
)

// A ring is serve's own journal (issue 17 point 2): a file of fixed size,
// written once with zeros when serve starts and then overwritten in place,
// so that recording a verdict costs one pwrite and one fdatasync of blocks
// the file system has already allocated (an append to a growing file also
// journals the file's new size: about half as much again per fsync here).
//
// A ring lives in [RingDir] beside the log, one file per serve process,
// named by its generation. Its owner holds an exclusive flock on it for as
// long as it runs; a ring nobody holds belongs to a process that is gone,
// and whoever ingests it next ([ReadRing], then the log's commit) removes it.
//
// # Format
//
// Frames follow each other from offset 0: the magic "CSR1", the payload's
// length (uint32), the frame's sequence number (uint64) and the FNV-1a of
// the sequence number and payload (uint32), all little-endian, then the
// payload, a JSON [Record]. Sequence numbers rise by one from frame to
// frame over the file's whole life. The owner starts again at offset 0
// ([Ring.Rewind]) only once every frame it wrote is in the log, so the
// frames a reader must take are the run of consecutive sequence numbers
// that starts at offset 0: it ends at the first frame that is torn, fails
// its checksum, or does not follow (an older frame beyond the rewound
// start, or zeros).

// RingDir is the directory of the rings of the decision log at logPath.
func RingDir(logPath string) string { return logPath + gate.RingSuffix }

// RingSize is the size of a ring: about a thousand verdicts, where the log
// takes them in every few milliseconds.
const RingSize = 1 << 20

// ringMagic starts every frame of a ring.
var ringMagic = []byte("CSR1")

// ringHead is the magic, length, sequence number and checksum.
const ringHead = 20

// ErrRingFull is the error of a [Ring.Write] that does not fit before the
// end of the file: the log must take the frames written so far before the
// ring can start again at offset 0.
var ErrRingFull = errors.New("journal: the ring is full until the log takes its verdicts")

// Ring is a ring open for writing by its owner. One goroutine at a time may
// call its methods, but [Ring.Sync] may run alongside them (package audit's
// group commit).
type Ring struct {
	f    *os.File
	name string
	path string
	head int64  // where the next frame goes
	next uint64 // the next frame's sequence number
}

// CreateRing makes a new ring in dir (created 0700 if missing, durably),
// fills it with zeros, fsyncs it and its directory, and locks it for this
// process. Close it when done; [Ring.Remove] deletes it once the log holds
// its verdicts.
//
// The file is made under a name readers do not list and renamed once it is
// locked and filled: a reader never finds it unlocked (abandoned, to be
// removed) while it is being made.
func CreateRing(dir string) (*Ring, error) {
	if err := mkdirDurable(dir); err != nil {
		return nil, fmt.Errorf("journal ring: %w", err)
	}
	removeAbandonedNew(dir)
	name := fmt.Sprintf("%x-%x-%x", time.Now().UnixNano(), os.Getpid(), genSeq.Add(1))
	path := filepath.Join(dir, name+ringExt)
	tmp := filepath.Join(dir, name+newExt)
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("journal ring: %w", err)
	}
	r := &Ring{f: f, name: name, path: path, next: 1}
	fail := func(err error) (*Ring, error) {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("journal ring %s: %w", path, err)
	}
	if err := lock(f, true); err != nil {
		return fail(err)
	}
	if _, err := f.Write(make([]byte, RingSize)); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fail(err)
	}
	if err := syncDir(dir); err != nil {
		os.Remove(path)
		f.Close()
		return nil, fmt.Errorf("journal ring %s: %w", path, err)
	}
	return r, nil
}

// newExt ends the name of a ring being made.
const newExt = ".ring-new"

// removeAbandonedNew removes the rings that a process began to make in dir
// and did not finish (it died): nobody holds them, and none holds a verdict.
func removeAbandonedNew(dir string) {
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), newExt) {
			continue
		}
		p := filepath.Join(dir, de.Name())
		if f, err := os.OpenFile(p, os.O_RDONLY|openNonblock, 0); err == nil {
			if tryLock(f) {
				os.Remove(p)
			}
			f.Close()
		}
	}
}

// ringExt ends the name of every ring file.
const ringExt = ".ring"

// Name is the ring's generation: its file's name without the extension,
// unique to this ring.
func (r *Ring) Name() string { return r.name }

// Path is the ring's file.
func (r *Ring) Path() string { return r.path }

// Last is the sequence number of the last frame written (0 before any).
func (r *Ring) Last() uint64 { return r.next - 1 }

// Head is where the next frame will be written.
func (r *Ring) Head() int64 { return r.head }

// Write appends payloads ([Ring.Append]) and makes them durable
// ([Ring.Sync]).
func (r *Ring) Write(payloads [][]byte) error {
	if _, err := r.Append(payloads); err != nil {
		return err
	}
	return r.Sync()
}

// Append writes one frame per payload at the ring's head with one pwrite
// and returns the last frame's sequence number. They are durable once a
// [Ring.Sync] that started after Append returned has returned. It returns
// [ErrRingFull], writing nothing, when they do not fit before the end of
// the file. After any other error the ring must not be written again: what
// reached the disk is unknown.
func (r *Ring) Append(payloads [][]byte) (uint64, error) {
	n := 0
	for _, p := range payloads {
		if len(p) > maxFrame {
			return 0, fmt.Errorf("journal ring: a record of %d bytes is over the %d-byte limit", len(p), maxFrame)
		}
		n += ringHead + len(p)
	}
	if r.head+int64(n) > RingSize {
		return 0, ErrRingFull
	}
	buf := make([]byte, 0, n)
	seq := r.next
	for _, p := range payloads {
		buf = ringFrame(buf, seq, p)
		seq++
	}
	if _, err := r.f.WriteAt(buf, r.head); err != nil {
		return 0, fmt.Errorf("journal ring %s: write: %w", r.path, err)
	}
	r.head += int64(n)
	r.next = seq
	return seq - 1, nil
}

// Sync makes every frame appended before it was called durable (fdatasync:
// the file's size and blocks do not change). It may run while another
// goroutine appends: that is how appends ready at once share one.
func (r *Ring) Sync() error {
	if err := datasync(r.f); err != nil {
		return fmt.Errorf("journal ring %s: fdatasync: %w", r.path, err)
	}
	return nil
}

// Rewind makes the next frame start at offset 0. Call it only when the log
// holds every frame written so far: a reader then stops at the first older
// frame beyond the new ones.
func (r *Ring) Rewind() { r.head = 0 }

// Close releases the ring (and its lock) without removing it: a process
// that ends without taking its frames into the log leaves them to the next
// ingest.
func (r *Ring) Close() error { return r.f.Close() }

// Remove deletes the ring's file and closes it. Call it only once the log
// holds every frame written.
func (r *Ring) Remove() error {
	err := os.Remove(r.path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil // removed by hand: its frames were read through r's file
	}
	return errors.Join(err, r.f.Close())
}

// ringFrame appends the frame of payload with sequence number seq to b.
func ringFrame(b []byte, seq uint64, payload []byte) []byte {
	b = append(b, ringMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint64(b, seq)
	b = binary.LittleEndian.AppendUint32(b, ringChecksum(seq, payload))
	return append(b, payload...)
}

func ringChecksum(seq uint64, payload []byte) uint32 {
	h := fnv.New32a()
	var s [8]byte
	binary.LittleEndian.PutUint64(s[:], seq)
	h.Write(s[:])
	h.Write(payload)
	return h.Sum32()
}

// EncodeRecord is rec as a ring frame's payload.
func EncodeRecord(rec Record) []byte { return rec.appendJSON(make([]byte, 0, 1024)) }

// RingEntry is a record read back from a ring, with its sequence number.
type RingEntry struct {
	Seq    uint64
	Record Record
}

// RingFile is a ring found in a [RingDir].
type RingFile struct {
	Name string // the ring's generation ([Ring.Name])
	Path string
}

// ListRings returns the rings in dir (none when dir does not exist).
func ListRings(dir string) ([]RingFile, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal rings: %w", err)
	}
	var out []RingFile
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), ringExt)
		if ok && de.Type().IsRegular() {
			out = append(out, RingFile{Name: name, Path: filepath.Join(dir, de.Name())})
		}
	}
	return out, nil
}

// OpenRing opens a ring to read it. Abandoned reports whether no process
// holds it (its writer is gone): the caller then holds its lock until
// [RingReader.Close], and may remove it once the log holds its frames.
func OpenRing(path string) (*RingReader, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("journal ring: %w", err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
		}
		return nil, fmt.Errorf("journal ring: %w", err)
	}
	name := strings.TrimSuffix(filepath.Base(path), ringExt)
	rr := &RingReader{f: f, path: path, name: name}
	rr.Abandoned = tryLock(f)
	return rr, nil
}

// RingReader is a ring open for reading ([OpenRing]).
type RingReader struct {
	f    *os.File
	path string
	name string
	// Abandoned: no writer holds the ring, and this reader holds its lock.
	Abandoned bool
}

// Read returns the ring's frames after sequence number after, in order,
// and the sequence number of the last frame of the run (0 when the ring
// holds none). A torn or garbled frame ends the run (see the format).
func (rr *RingReader) Read(after uint64) ([]RingEntry, uint64, error) {
	// The first 64 KiB hold the run unless the log fell behind.
	buf, whole, err := rr.readFirst(64 << 10)
	if err != nil {
		return nil, 0, err
	}
	var out []RingEntry
	var last uint64
	for pos := 0; ; {
		if len(buf)-pos >= 4 && !bytes.Equal(buf[pos:pos+4], ringMagic) {
			break
		}
		if frameEnd(buf, pos) > len(buf) && !whole {
			// The run goes on past what was read: read the whole file. A
			// writer may have rewound meanwhile; then the frame found at pos
			// does not follow and the run ends there.
			if buf, whole, err = rr.readFirst(RingSize); err != nil {
				return nil, 0, err
			}
			continue
		}
		if frameEnd(buf, pos) > len(buf) {
			break
		}
		n := int(binary.LittleEndian.Uint32(buf[pos+4:]))
		seq := binary.LittleEndian.Uint64(buf[pos+8:])
		end := pos + ringHead + n
		if n > maxFrame || seq == 0 || (last != 0 && seq != last+1) {
			break
		}
		if seq > after {
			payload := buf[pos+ringHead : end]
			if binary.LittleEndian.Uint32(buf[pos+16:]) != ringChecksum(seq, payload) {
				break
			}
			// A payload no record can be made of passed its checksum, so it
			// was written so: it is skipped, as an ingest of the hooks'
			// journal skips one.
			var rec Record
			if err := json.Unmarshal(payload, &rec); err == nil && rec.Row.Decision != "" {
				out = append(out, RingEntry{Seq: seq, Record: rec})
			}
		}
		last = seq
		pos = end
	}
	return out, last, nil
}

// readFirst reads the first n bytes of the ring; whole says that is all the
// file holds.
func (rr *RingReader) readFirst(n int) ([]byte, bool, error) {
	buf := make([]byte, n)
	got, err := rr.f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, fmt.Errorf("journal ring %s: %w", rr.path, err)
	}
	return buf[:got], got < n || n >= RingSize, nil
}

// frameEnd is where the frame at pos claims to end (past len(buf) when its
// header is not all there).
func frameEnd(buf []byte, pos int) int {
	if len(buf)-pos < ringHead {
		return len(buf) + 1
	}
	return pos + ringHead + int(binary.LittleEndian.Uint32(buf[pos+4:]))
}

// Name is the ring's generation ([Ring.Name]).
func (rr *RingReader) Name() string { return rr.name }

// Close releases the reader (and the ring's lock when it took it).
func (rr *RingReader) Close() error { return rr.f.Close() }

// Remove deletes an abandoned ring's file; the caller closes the reader
// afterwards.
func (rr *RingReader) Remove() error {
	if !rr.Abandoned {
		return fmt.Errorf("journal ring %s: still in use", rr.path)
	}
	return os.Remove(rr.path)
}
