package classifier

import (
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// TestKnownProgramsHaveParts checks that every entry of the table, run with
// a few argument shapes (a mode-like option, a lone operand, `--`), yields
// at least one part: a verdict that names no part is the "empty command"
// `chmod -x f` once got (REDTEAM B5), and SPEC §2 wants the offending part
// named.
func TestKnownProgramsHaveParts(t *testing.T) {
	o := Options{Cwd: "/home/u/ws", Workspaces: []string{"/home/u/ws"}, Home: "/home/u"}
	for _, e := range effects.Table() {
		for _, args := range []string{"", " -x", " -x a", " a", " -- a", " 755", " -w a", " a b", " -R -w /etc"} {
			if v := Classify(e.Name+args, o); len(v.Parts) == 0 {
				t.Errorf("%q: no parts", e.Name+args)
			}
		}
	}
}
