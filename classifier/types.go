package classifier

import "github.com/ml-ai/command-safety/effects"

// Options are the facts about where a command runs.
type Options struct {
	Cwd        string   // absolute directory the command starts in; "" is unknown
	Workspaces []string // absolute workspace roots; a path is inside when under one of them
	Home       string   // the user's home directory; "" is unknown
	// Shell is the shell that will run the command (SPEC §1); the zero
	// value, [UnknownDialect], classifies it as bash and as zsh.
	Shell Dialect
	// Platform is where the command runs: it decides how the paths of the
	// command and of these options are spelled and matched ([Platform]). On
	// Windows, Cwd, Workspaces and Home may be given in either spelling
	// (`C:\Users\me\ws`, `/c/Users/me/ws`) and name the same place.
	Platform Platform
	// FS resolves symlinks on existing path prefixes; nil uses the real
	// filesystem. On Windows it is asked in Windows' spelling (`C:/x`,
	// `//server/share/x`), and a case-insensitive filesystem is expected.
	FS FS
	// RuleStore lists extra absolute paths (files or directories) that belong to
	// the permission-rule store (SPEC §5.6): the decision log and the files
	// SQLite keeps beside it, the user settings files, the agents' hook
	// settings files. Workspace settings (`.vscode/settings.json` of each
	// root, `*.code-workspace`) are always included. A path is matched by
	// what it resolves to and by file identity, so writing a member through
	// any alias (a symlink either way, a hard link, `..`, a bind mount of its
	// directory) is a rule-store modification.
	RuleStore []string
	// Binaries are the gate's own executables (the running binary as started
	// and resolved). They belong to the rule store, and a program named by a
	// path that resolves to one of them, or is the same file, is the
	// `command-safety` entry of the table, not an opaque file.
	Binaries []string
	// Rules are the user's program rules (`ml-ai.rules`, [NewRules]),
	// consulted only for a bare program name the table does not know.
	Rules *Rules
}

// FS is the part of the filesystem the classifier consults. An FS may also
// have these methods, which the real filesystem has:
//
//	Lstat(p string) (fs.FileInfo, error) // like os.Lstat
//	Readlink(p string) (string, error)   // like os.Readlink
//
// With Lstat a path costs one call per new component, and files have an
// identity: the [FileID] in the FileInfo's Sys(), or the device and inode of
// the platform's stat result (Unix). With Readlink a symlink whose target
// does not exist yet is followed to where a write through it would land.
type FS interface {
	// EvalSymlinks resolves p like [path/filepath.EvalSymlinks].
	EvalSymlinks(p string) (string, error)
	// IsFile reports whether p exists and is not a directory.
	IsFile(p string) bool
}

// FileID identifies a file: two names with the same FileID are one file
// (a hard link, or a directory seen through a bind mount). On Unix it is
// the device and inode number.
type FileID struct{ Dev, Ino uint64 }

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
	// Prompt: the part asks a human whatever the budget says: one of the
	// shells that may run the command cannot read it, so it is classified
	// as the others read it (SPEC §1). Its Class is [effects.Unknown].
	Prompt bool
	// Rule is the id of the user rule that taught the program
	// ("user:acme-lint"), or "" when the part is the table's.
	Rule string
}

// Result is what [Classify] found: every part, in source order.
type Result struct {
	Parts []Part
	// AllKnown reports whether every program position resolved to a program in
	// the table (the fuzz property "allow means known").
	AllKnown bool
	// Shell is the dialect the command was classified in: [UnknownDialect]
	// means as bash and as zsh, the worst of both.
	Shell Dialect
}
