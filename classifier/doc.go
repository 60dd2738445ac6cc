// Package classifier parses a command line with mvdan.cc/sh/v3/syntax, in
// the dialect of the shell that will run it (bash, zsh or POSIX sh; as bash
// and as zsh when that is not known), and returns every part of it (each
// program position, each redirection) with its effect classes and any
// absolute refusal of SPEC §5.
//
// It imports effects and mvdan.cc/sh/v3 only; it knows nothing of budgets,
// settings or the wire protocol. [Classify] is total: it never panics and has
// no error result; input it cannot prove safe yields a refusal with a reason.
package classifier
