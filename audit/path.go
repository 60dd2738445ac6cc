package audit

import "github.com/ml-ai/command-safety/journal"

// Env is what [DefaultPath] reads from the environment ([journal.Env]: the
// hook binary places the log without this package).
type Env = journal.Env

// EnvFrom is [journal.EnvFrom].
func EnvFrom(goos string, getenv func(string) string) Env { return journal.EnvFrom(goos, getenv) }

// DefaultPath is [journal.DefaultPath]: where the decision log lives when
// nothing else is set.
func DefaultPath(env Env) (string, error) { return journal.DefaultPath(env) }
