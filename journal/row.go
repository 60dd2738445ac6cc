package journal

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// Row is a verdict encoded as the decision log's verdicts table stores it
// (package audit inserts it): every writer, the log itself and the journal,
// encodes a verdict with [NewRow], so a row ingested from the journal is the
// row a direct append would have written.
type Row struct {
	Time              string   `json:"time"`
	RequestID         string   `json:"requestId,omitempty"`
	Command           string   `json:"command"`
	Cwd               string   `json:"cwd,omitempty"`
	Workspaces        string   `json:"workspaces"` // JSON array
	Agent             string   `json:"agent,omitempty"`
	Mode              string   `json:"mode,omitempty"`
	Session           string   `json:"session,omitempty"`
	Decision          string   `json:"decision"`
	Effects           string   `json:"effects"` // JSON array of gate.Effect
	DecidedBy         string   `json:"decidedBy,omitempty"`
	Rule              string   `json:"rule,omitempty"`
	Reason            string   `json:"reason,omitempty"`
	Status            string   `json:"status"`
	Shell             string   `json:"shell,omitempty"`
	Enabled           int      `json:"enabled"`
	Micros            int64    `json:"micros,omitempty"`
	Classes           []string `json:"classes,omitempty"`
	ClassifierVersion string   `json:"classifierVersion"`
}

// The statuses a prompt's row starts in (audit.Status spells them too).
const (
	StatusAuto     = "auto"
	StatusHeld     = "held"
	StatusAsked    = "asked"
	StatusAdvisory = "advisory"
)

// TimeFormat is how rows store times: fixed width, so text order is time
// order, and readable by SQLite's date functions.
const TimeFormat = "2006-01-02T15:04:05.000000Z"

// NewRow encodes v for the log. session names the writer; a prompt's row
// waits as waiting (held, asked or advisory), other rows are auto.
func NewRow(v gate.Verdict, session string, waiting string) (Row, error) {
	ws := v.Workspaces
	if ws == nil {
		ws = []string{}
	}
	wsJSON, err := json.Marshal(ws)
	if err != nil {
		return Row{}, err
	}
	effs := v.Effects
	if effs == nil {
		effs = []gate.Effect{}
	}
	effJSON, err := json.Marshal(effs)
	if err != nil {
		return Row{}, err
	}
	switch v.Decision {
	case effects.Allow, effects.Prompt, effects.Refuse:
	default:
		return Row{}, fmt.Errorf("verdict has no valid decision (%d)", v.Decision)
	}
	t := v.Time
	if t.IsZero() {
		t = time.Now()
	}
	r := Row{
		Time: t.UTC().Format(TimeFormat), RequestID: v.ID, Command: StoredCommand(v.Command), Cwd: v.Cwd,
		Workspaces: string(wsJSON), Agent: v.Agent, Mode: v.Mode, Session: session,
		Decision: v.Decision.String(), Effects: string(effJSON), Rule: v.Rule, Reason: v.Reason,
		Micros: v.Micros, Status: StatusAuto, Shell: v.Shell.String(), ClassifierVersion: gate.ClassifierVersion,
	}
	if v.ClassificationEnabled {
		r.Enabled = 1
	}
	if v.Decision == effects.Prompt {
		if waiting != StatusHeld && waiting != StatusAsked && waiting != StatusAdvisory {
			return Row{}, fmt.Errorf("a prompt's row waits as held, asked or advisory, not %q", waiting)
		}
		r.Status = waiting
	}
	if v.DecidedBy != nil {
		r.DecidedBy = v.DecidedBy.Text
	}
	seen := map[effects.Class]bool{}
	for _, e := range effs {
		if !seen[e.Effect] {
			seen[e.Effect] = true
			r.Classes = append(r.Classes, e.Effect.String())
		}
	}
	return r, nil
}

// storedPrefix is how much of a command over [gate.MaxCommandBytes] the log
// keeps.
const storedPrefix = 4 << 10

// StoredCommand is the command text a row keeps: the command itself, or for
// one over the size limit (refused as too-large, never run) a bounded prefix
// with its length and SHA-256, so a flood of huge commands cannot grow the
// log by their size twice over (the table and the command index): 300
// refused 1 MiB commands had made a 686 MB log.
func StoredCommand(c string) string {
	if len(c) <= gate.MaxCommandBytes {
		return c
	}
	n := storedPrefix
	for n > 0 && !utf8.RuneStart(c[n]) {
		n--
	}
	return fmt.Sprintf("%s… [%d bytes in all, SHA-256 %x; over the %d-byte limit, so only this prefix is kept]",
		c[:n], len(c), sha256.Sum256([]byte(c)), gate.MaxCommandBytes)
}
