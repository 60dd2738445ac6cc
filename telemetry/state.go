package telemetry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/internal/atomicfile"
	"github.com/ml-ai/command-safety/settings"
)

// StateFile is where the export of the decision log at logPath keeps its
// [State]; [LockFile] is its lock. Both belong to the permission-rule store
// (gate.LogFiles lists them): an agent that moved the mark on would keep
// its commands from the collector.
func StateFile(logPath string) string { return logPath + gate.ExportSuffix }

// LockFile is the file whose lock the one process shipping a log holds.
func LockFile(logPath string) string { return logPath + gate.ExportSuffix + ".lock" }

// State is what the export of one log has done, kept in [StateFile].
type State struct {
	Version int `json:"version"`
	// LastID is the mark: every row up to it was shipped, or given up on
	// (counted in Failed or Dropped).
	LastID int64 `json:"lastId"`
	// Pending are prompts shipped while they waited for an answer; their
	// resolution is still to be shipped.
	Pending []PendingRow `json:"pending,omitempty"`
	// Totals over every process that shipped this log.
	Exported int64     `json:"exported"`
	Failed   int64     `json:"failed"`
	LastErr  string    `json:"lastError,omitempty"`
	ErrAt    time.Time `json:"lastErrorAt,omitzero"`
	Updated  time.Time `json:"updated"`
}

// PendingRow is a prompt whose resolution is still to be shipped.
type PendingRow struct {
	ID   int64     `json:"id"`
	Time time.Time `json:"time"`
}

// stateVersion is [State.Version].
const stateVersion = 1

// maxStateSize bounds the state file read.
const maxStateSize = 1 << 20

// ReadState reads the state at path ([StateFile]); ok is false when there
// is none. It reads through settings.ReadFile, as every file the gate reads
// beside its own: without blocking, regular files only, bounded.
func ReadState(path string) (st State, ok bool, err error) {
	data, _, err := settings.ReadFile(path, maxStateSize)
	if errors.Is(err, fs.ErrNotExist) {
		return State{}, false, nil
	}
	if err != nil {
		return State{}, false, fmt.Errorf("%s: %w", path, err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return State{}, false, fmt.Errorf("%s: %w", path, err)
	}
	if st.Version != stateVersion {
		return State{}, false, fmt.Errorf("%s: version %d, want %d", path, st.Version, stateVersion)
	}
	return st, true, nil
}

// writeState replaces path with st atomically ([atomicfile.Write]; 0600,
// like the log).
func writeState(path string, st State) error {
	st.Version = stateVersion
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o600)
}
