package journal

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
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

// appendJSON appends r as encoding/json would read it back (the same keys
// as the struct tags). Written out by hand: in a fresh process,
// encoding/json's first Marshal of a struct type builds its encoder by
// reflection, which cost a hook more than the write itself.
func (r Record) appendJSON(b []byte) []byte {
	w := r.Row
	b = append(b, `{"row":{`...)
	str := func(key, v string, always bool) {
		if v == "" && !always {
			return
		}
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = appendString(append(appendString(b, key), ':'), v)
	}
	num := func(key string, v int64) {
		b = strconv.AppendInt(append(appendString(append(b, ','), key), ':'), v, 10)
	}
	str("time", w.Time, true)
	str("requestId", w.RequestID, false)
	str("command", w.Command, true)
	str("cwd", w.Cwd, false)
	str("workspaces", w.Workspaces, true)
	str("agent", w.Agent, false)
	str("mode", w.Mode, false)
	str("session", w.Session, false)
	str("decision", w.Decision, true)
	str("effects", w.Effects, true)
	str("decidedBy", w.DecidedBy, false)
	str("rule", w.Rule, false)
	str("reason", w.Reason, false)
	str("status", w.Status, true)
	str("shell", w.Shell, false)
	num("enabled", int64(w.Enabled))
	if w.Micros != 0 {
		num("micros", w.Micros)
	}
	if len(w.Classes) > 0 {
		b = append(b, `,"classes":[`...)
		for i, c := range w.Classes {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, c)
		}
		b = append(b, ']')
	}
	str("classifierVersion", w.ClassifierVersion, true)
	b = append(b, '}')
	if r.RejectedBy != "" {
		b = appendString(append(b, `,"rejectedBy":`...), r.RejectedBy)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string that decodes as encoding/json
// decodes its own encoding of s: bytes that are not UTF-8 become U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
