package telemetry

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/log"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
)

// The event names of the records (the log record's EventName).
const (
	// EventVerdict is one verdict: a row of the decision log.
	EventVerdict = "command_safety.verdict"
	// EventResolution is a prompt's answer: its row moved to approved or
	// rejected.
	EventResolution = "command_safety.resolution"
)

// Attribute keys. Where OpenTelemetry's semantic conventions have one
// (process.command_line, process.working_directory, session.id,
// gen_ai.agent.name), it is used; the rest are this product's, under
// command_safety.
const (
	// AttrLogID is the decision log row id (int): `command-safety log resolve ID`.
	AttrLogID           attribute.Key = "command_safety.log.id"
	AttrDecision        attribute.Key = "command_safety.decision" // allow, prompt, refuse
	AttrRule            attribute.Key = "command_safety.rule"     // budget effect or SPEC §5 rule id
	AttrReason          attribute.Key = "command_safety.reason"
	AttrEffects         attribute.Key = "command_safety.effects" // []string, each class once
	AttrMode            attribute.Key = "command_safety.mode"
	AttrShell           attribute.Key = "command_safety.shell"  // bash, zsh, sh or unknown: the dialect classified in
	AttrStatus          attribute.Key = "command_safety.status" // auto, held, asked, advisory, approved, rejected
	AttrDecidedBy       attribute.Key = "command_safety.decided_by"
	AttrClassification  attribute.Key = "command_safety.classification_enabled"
	AttrClassifier      attribute.Key = "command_safety.classifier.version"
	AttrRequestID       attribute.Key = "command_safety.request.id"
	AttrWorkspaces      attribute.Key = "command_safety.workspaces"
	AttrReviewer        attribute.Key = "command_safety.reviewer"
	AttrClassifyMicros  attribute.Key = "command_safety.classify.duration_us"
	AttrCommandRedacted attribute.Key = "command_safety.command.redacted" // true when the text was left out
	// AttrAgent is gen_ai.agent.name of the GenAI semantic conventions
	// (development status; not in the Go semconv package).
	AttrAgent attribute.Key = "gen_ai.agent.name"
)

// backticked is a part of a reason that quotes the command (`rm -rf ~`).
var backticked = regexp.MustCompile("`[^`]*`")

// redacted is what replaces command text when commands are redacted.
const redacted = "`[redacted]`"

// verdictRecord is the log record of row e.
func verdictRecord(e audit.Entry, redact bool) log.Record {
	var r log.Record
	r.SetEventName(EventVerdict)
	r.SetTimestamp(e.Time)
	r.SetObservedTimestamp(time.Now())
	r.SetSeverity(severity(e.Decision))
	r.SetSeverityText(strings.ToUpper(e.Decision.String()))
	r.AddAttributes(common(e, redact)...)
	body := fmt.Sprintf("%s (%s): %s", e.Decision, e.Rule, e.Reason)
	if !redact {
		body = fmt.Sprintf("%s %q (%s): %s", e.Decision, e.Command, e.Rule, e.Reason)
	} else {
		body = backticked.ReplaceAllString(body, redacted)
	}
	r.SetBody(attribute.StringValue(body))
	return r
}

// resolutionRecord is the log record of prompt e's answer.
func resolutionRecord(e audit.Entry, redact bool) log.Record {
	var r log.Record
	r.SetEventName(EventResolution)
	at := e.ReviewedAt
	if at.IsZero() {
		at = time.Now()
	}
	r.SetTimestamp(at)
	r.SetObservedTimestamp(time.Now())
	r.SetSeverity(log.SeverityInfo)
	r.SetSeverityText("INFO")
	r.AddAttributes(common(e, redact)...)
	r.AddAttributes(AttrReviewer.String(e.Reviewer))
	body := fmt.Sprintf("%s by %s: log %d", e.Status, e.Reviewer, e.LogID)
	if !redact {
		body = fmt.Sprintf("%s by %s: %q (log %d)", e.Status, e.Reviewer, e.Command, e.LogID)
	}
	r.SetBody(attribute.StringValue(body))
	return r
}

// common are the attributes of both records of row e.
func common(e audit.Entry, redact bool) []attribute.KeyValue {
	var classes []string
	seen := map[effects.Class]bool{}
	for _, p := range e.Effects {
		if !seen[p.Effect] {
			seen[p.Effect] = true
			classes = append(classes, p.Effect.String())
		}
	}
	reason := e.Reason
	decided := ""
	if e.DecidedBy != nil {
		decided = e.DecidedBy.Text
	}
	attrs := []attribute.KeyValue{
		AttrLogID.Int64(e.LogID),
		AttrDecision.String(e.Decision.String()),
		AttrRule.String(e.Rule),
		AttrEffects.StringSlice(classes),
		AttrAgent.String(e.Agent),
		AttrMode.String(e.Mode),
		AttrShell.String(e.Shell.String()),
		semconv.SessionID(e.Session),
		AttrStatus.String(string(e.Status)),
		AttrClassification.Bool(e.ClassificationEnabled),
		AttrClassifier.String(e.ClassifierVersion),
		AttrClassifyMicros.Int64(e.Micros),
		semconv.ProcessWorkingDirectory(e.Cwd),
		AttrWorkspaces.StringSlice(e.Workspaces),
	}
	if e.ID != "" && e.ID != fmt.Sprint(e.LogID) {
		attrs = append(attrs, AttrRequestID.String(e.ID))
	}
	if redact {
		reason = backticked.ReplaceAllString(reason, redacted)
		attrs = append(attrs, AttrCommandRedacted.Bool(true))
	} else {
		attrs = append(attrs, semconv.ProcessCommandLine(e.Command), AttrDecidedBy.String(decided))
	}
	return append(attrs, AttrReason.String(reason))
}

func severity(d effects.Decision) log.Severity {
	switch d {
	case effects.Allow:
		return log.SeverityInfo
	case effects.Prompt:
		return log.SeverityWarn
	}
	return log.SeverityError
}
