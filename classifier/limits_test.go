package classifier

import (
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// TestLimits checks SPEC §3 rule 10: over-large and over-deep commands are
// refused with their rule, and large but legal ones are still classified.
func TestLimits(t *testing.T) {
	tests := []struct {
		name string
		cmd  string
		want effects.Rule // "" means no refusal expected
	}{
		{"over 64 KiB", strings.Repeat("a", MaxBytes+1), effects.TooLarge},
		{"exactly 64 KiB", "echo " + strings.Repeat("x", MaxBytes-5), ""},
		{"65-deep substitutions", strings.Repeat("echo $(", 65) + "ls" + strings.Repeat(")", 65), effects.TooDeep},
		{"200-deep subshells", strings.Repeat("(", 200) + "ls" + strings.Repeat(")", 200), effects.TooDeep},
		{"long pipeline", strings.Repeat("ls | ", 5000) + "ls", effects.TooDeep},
		{"deep sh -c", strings.Repeat("sh -c '", 1) + "ls" + "'", ""},
		{"unparseable", "if then fi (", effects.Unparseable},
		// Refused by the bracket pre-scan, before the parser (which takes
		// about a second on 32,000 nested parentheses).
		{"32000 nested parentheses", strings.Repeat("(", 32000) + "ls" + strings.Repeat(")", 32000), effects.TooDeep},
		{"nested braces", strings.Repeat("{ ", 16000) + "ls;", effects.TooDeep},
		{"deep arithmetic", "echo $((" + strings.Repeat("(", 30000) + "1" + strings.Repeat(")", 30000) + "))", effects.TooDeep},
		// Brackets in quotes and comments are data.
		{"parentheses in quotes", "echo '" + strings.Repeat("(", 200) + "' \"" + strings.Repeat("{", 200) + "\"", ""},
		{"parentheses in a comment", "ls # " + strings.Repeat("(", 200), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Classify(tc.cmd, tableOpts)
			rs := refusals(r)
			if tc.want == "" {
				if len(rs) > 0 {
					t.Errorf("refused %v, want no refusal", rs)
				}
				if len(r.Parts) == 0 {
					t.Error("no parts")
				}
				return
			}
			found := false
			for _, x := range rs {
				found = found || x == string(tc.want)
			}
			if !found {
				t.Errorf("refusals %v, want %s", rs, tc.want)
			}
		})
	}
}

// TestPanicBecomesRefusal checks that a bug is an internal-error refusal,
// never a crash, when PanicOnBugs is off.
func TestPanicBecomesRefusal(t *testing.T) {
	PanicOnBugs = false
	defer func() { PanicOnBugs = true }()
	r := Classify("rm -rf build", Options{Cwd: "/ws", Workspaces: []string{"/ws"}, Home: "/home/u", FS: panicFS{}})
	if rs := refusals(r); len(rs) != 1 || rs[0] != string(effects.InternalError) {
		t.Fatalf("refusals %v, want internal-error", rs)
	}
	if r.Parts[0].Reason == "" {
		t.Error("internal-error without a reason")
	}
}

type panicFS struct{}

func (panicFS) EvalSymlinks(string) (string, error) { panic("boom") }
func (panicFS) IsFile(string) bool                  { panic("boom") }
