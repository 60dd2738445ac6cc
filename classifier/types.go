package classifier

import "github.com/ml-ai/command-safety/effects"

// Options are the facts about where a command runs.
type Options struct {
	Cwd        string   // absolute directory the command starts in; "" is unknown
	Workspaces []string // absolute workspace roots; a path is inside when under one of them
	Home       string   // the user's home directory; "" is unknown
	// FS resolves symlinks on existing path prefixes; nil uses the real filesystem.
	FS FS
	// RuleStore lists extra absolute paths (files or directories) that belong to
	// the permission-rule store (SPEC §5.6): the decision log, the binary's own
	// install folder. User and workspace settings are always included.
	RuleStore []string
}

// FS is the part of the filesystem the classifier consults.
type FS interface {
	// EvalSymlinks resolves p like [path/filepath.EvalSymlinks].
	EvalSymlinks(p string) (string, error)
	// IsFile reports whether p exists and is not a directory.
	IsFile(p string) bool
}

// Part is one piece of the command with one effect class.
type Part struct {
	Class   effects.Class
	Text    string // the source text of the part: `rm -rf ~`
	Start   int    // byte offset of Text in the original command
	End     int    // byte offset just past Text
	Program string // the program the part runs, "" for a redirection
	Reason  string // one sentence naming the offending part
	// Refusal is the absolute-refusal rule (SPEC §5) this part triggers, or "".
	Refusal effects.Rule
}

// Result is what [Classify] found: every part, in source order.
type Result struct {
	Parts []Part
	// AllKnown reports whether every program position resolved to a program in
	// the table (the fuzz property "allow means known").
	AllKnown bool
}
