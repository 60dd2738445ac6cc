package main

import (
	"context"
	"fmt"
	"io"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hookrun"
	"github.com/ml-ai/command-safety/settings"
)

// verdictLogger writes check's verdicts to the decision log. A nil
// *verdictLogger logs nothing (`--no-log`). When the log cannot be opened or
// written, verdicts are downgraded by [audit.Record] and the failure is
// reported on stderr once.
type verdictLogger struct {
	log      *audit.Log
	path     string
	stderr   io.Writer
	reported bool
	first    int64 // the first row this process wrote (0: none)
}

// logPathFor is [hookrun.LogPathFor]: the flag, else the user setting, else
// the platform default.
func logPathFor(flagPath, setting string) (string, error) {
	return hookrun.LogPathFor(flagPath, setting)
}

func openVerdictLogger(flagPath, setting string, stderr io.Writer) *verdictLogger {
	l := &verdictLogger{stderr: stderr}
	path, err := logPathFor(flagPath, setting)
	if err != nil {
		l.report(err)
		return l
	}
	l.path = path
	if l.log, err = audit.Open(path); err != nil {
		l.report(err)
	}
	return l
}

func (l *verdictLogger) report(err error) {
	if l.reported {
		return
	}
	l.reported = true
	fmt.Fprintf(l.stderr, "command-safety: decision log: %v (allow verdicts become prompt while it is unavailable)\n", err)
}

// Path is the decision log's path, "" when unknown or not logging.
func (l *verdictLogger) Path() string {
	if l == nil {
		return ""
	}
	return l.path
}

// Record logs v and returns it with its log id, or downgraded on failure.
func (l *verdictLogger) Record(v gate.Verdict) gate.Verdict {
	if l == nil {
		return v
	}
	// Nobody answers a prompt of check in the decision log: advisory.
	out, err := audit.Record(context.Background(), l.log, v, "", audit.StatusAdvisory)
	if err != nil {
		l.report(err)
	}
	if l.first == 0 {
		l.first = out.LogID
	}
	return out
}

// kickExport hands the rows this run wrote to a detached exporter, when
// export is configured (see kickExport).
func (l *verdictLogger) kickExport(snap *settings.Snapshot) {
	if l != nil && l.first > 0 {
		kickExport(snap, l.path, l.first-1)
	}
}

// Close closes the log.
func (l *verdictLogger) Close() {
	if l != nil && l.log != nil {
		_ = l.log.Close()
	}
}
