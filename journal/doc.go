// Package journal is the hook's side of the decision log: an append-only
// file beside the log ([gate.JournalSuffix]) where a hook process records its
// verdict with one write and one fsync, without opening SQLite. Package
// audit ingests the journal into the log before anything reads it, so the
// log shows every verdict.
//
// Linking SQLite (modernc.org/sqlite) costs a process about twice an empty Go
// program's start before it opens anything, and opening the log as much
// again (issue 17): a hook that wrote the log itself could not start and
// exit within 3× an empty program. The journal keeps the hook's path free
// of SQLite and of everything else serve needs.
//
// # Format
//
// The file is a sequence of frames: the magic "CSJ1", the payload's length
// and its FNV-1a checksum (both little-endian uint32), then the payload, a JSON
// object. The first frame of a file is a header naming the file's
// generation (a random id); every later frame is one [Record]. A frame that
// is cut short or whose checksum fails (a write torn by a crash of the
// machine: a hook that answered had its frame fsynced first) is skipped,
// and reading resumes at the next magic, so a torn frame never hides the
// records written after it.
//
// # Concurrency and ingest
//
// Writers ([Append]) hold a shared flock on the file while they write and
// fsync; one frame (header included) is one write(2) on a file opened with
// O_APPEND, so concurrent hooks never interleave. The ingester ([Take])
// holds the exclusive flock while it reads, commits what it read to the
// log, and truncates the file: no frame can be written between its read and
// its truncation. Its commit stores the generation and the end offset it
// ingested, in the same transaction as the rows, so a crash between the
// commit and the truncation ingests nothing twice (the next ingest starts at
// that offset of that generation), and one before the commit loses nothing.
//
// This package must not import SQLite, jsonrpc or telemetry: it is linked
// into cmd/command-safety-hook.
package journal
