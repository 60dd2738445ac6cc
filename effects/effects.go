// Package effects owns the shared vocabulary of the gate: the effect classes of
// SPEC §3 ([Class]), the decisions of SPEC §2 ([Decision]), the absolute-refusal
// rule ids of SPEC §5 ([Rule]), and the table of known programs ([Table]).
//
// It imports the standard library only. The table is data: the classifier
// interprets it, and every entry carries examples that a test classifies.
package effects

import (
	"fmt"
	"strings"
)

//go:generate go tool stringer -type=Class,Decision -linecomment

// Class is one effect class of SPEC §3. Its String is the wire spelling.
type Class int

// The effect classes, ordered roughly from harmless to worst.
const (
	// Unknown is an effect the classifier could not name; it is treated as the
	// worst case (every budget refuses it).
	Unknown Class = iota // unknown
	// Read only reads: `ls`, `cat f`, `git status`.
	Read // read
	// Verify runs tests, typecheckers and linters by name: `go test ./...`.
	Verify // verify
	// WriteInside creates or changes files strictly inside a workspace root: `touch a`.
	WriteInside // write-inside-workspace
	// WriteOutside creates or changes files elsewhere: `echo x > /tmp/f`.
	WriteOutside // write-outside-workspace
	// Network makes an outbound request: `curl`, `git push`, `npm install`.
	Network // network
	// Deletion deletes irreversibly: `rm`, `git clean -f`, `mv` onto a file.
	Deletion // irreversible-deletion
	// HistoryRewrite rewrites version-control history: `git reset --hard`.
	HistoryRewrite // history-rewrite
	// SystemChange changes machine state outside workspace files: `apt-get install`.
	SystemChange // system-change
	// Privilege escalates privileges: `sudo`, `chmod u+s`.
	Privilege // privilege-escalation
	// OpaqueLow runs code the project defines without inspecting it: `make build`.
	OpaqueLow // opaque-low
	// OpaqueMedium runs code not inspected from elsewhere: an unknown program, `python -c`.
	OpaqueMedium // opaque-medium
	// OpaqueHigh runs a program that cannot be identified before running: `eval "$X"`.
	OpaqueHigh // opaque-high
)

// Classes lists every class a budget, filter or setting can name, in order:
// not [Unknown], which marks only parts refused before they could be
// classified (it still appears on the wire; see [Class.UnmarshalText]).
var Classes = []Class{Read, Verify, WriteInside, WriteOutside, Network, Deletion,
	HistoryRewrite, SystemChange, Privilege, OpaqueLow, OpaqueMedium, OpaqueHigh}

// ParseClass returns the class whose wire spelling is s.
func ParseClass(s string) (Class, error) {
	for _, c := range Classes {
		if c.String() == s {
			return c, nil
		}
	}
	return Unknown, fmt.Errorf("unknown effect %q (want one of %s)", s, joinStrings(Classes))
}

// MarshalText writes the wire spelling.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads the wire spelling, [Unknown]'s included: parts refused
// before they could be classified (unparseable, too large, too deep) carry it
// on the wire and in the decision log, which must read them back. Settings
// name effects with [ParseClass], which refuses it.
func (c *Class) UnmarshalText(b []byte) error {
	if string(b) == Unknown.String() {
		*c = Unknown
		return nil
	}
	v, err := ParseClass(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Decision is what happens to a command (SPEC §2). The zero value is [Refuse],
// so a forgotten field refuses, and combining is the minimum.
type Decision int

// The decisions, strictest first.
const (
	// Refuse never runs.
	Refuse Decision = iota // refuse
	// Prompt runs only after a human approves the exact command text.
	Prompt // prompt
	// Allow runs unattended.
	Allow // allow
)

// Decisions lists every decision, strictest first.
var Decisions = []Decision{Refuse, Prompt, Allow}

// Strictest returns the stricter of a and b.
func Strictest(a, b Decision) Decision { return min(a, b) }

// ParseDecision returns the decision whose wire spelling is s.
func ParseDecision(s string) (Decision, error) {
	for _, d := range Decisions {
		if d.String() == s {
			return d, nil
		}
	}
	return Refuse, fmt.Errorf("unknown decision %q (want allow, prompt or refuse)", s)
}

// MarshalText writes the wire spelling.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads the wire spelling.
func (d *Decision) UnmarshalText(b []byte) error {
	v, err := ParseDecision(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Rule is the stable id of an absolute refusal (SPEC §5). The empty Rule means
// "no absolute refusal".
type Rule string

// The absolute refusals of SPEC §5.
const (
	DeleteOutsideWorkspace Rule = "delete-outside-workspace" // §5.1
	WriteProtectedPath     Rule = "write-protected-path"     // §5.2
	PrivilegeEscalation    Rule = "privilege-escalation"     // §5.3
	ForkBomb               Rule = "fork-bomb"                // §5.4
	CredentialExfiltration Rule = "credential-exfiltration"  // §5.5
	RuleStoreModification  Rule = "rule-store-modification"  // §5.6
	UnidentifiableProgram  Rule = "unidentifiable-program"   // §5.7
	Unparseable            Rule = "unparseable"              // §5.8: parse errors and syntax we do not support
	InternalError          Rule = "internal-error"           // §5.8
	TooLarge               Rule = "too-large"                // §5.8: over 64 KiB, or over classifier.MaxUnits of syntax
	TooDeep                Rule = "too-deep"                 // §5.8: nesting deeper than 64
)

// Rules lists every absolute-refusal rule id, the most telling first: when
// several parts of one command are refused, the verdict names the first.
var Rules = []Rule{TooLarge, TooDeep, Unparseable, InternalError, ForkBomb, CredentialExfiltration,
	PrivilegeEscalation, RuleStoreModification, DeleteOutsideWorkspace, WriteProtectedPath,
	UnidentifiableProgram}

func joinStrings[T fmt.Stringer](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
}
