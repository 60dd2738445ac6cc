package gate_test

import (
	"testing"

	"github.com/ml-ai/command-safety/gate"
)

func TestTeach(t *testing.T) {
	for _, tc := range []struct {
		cmd, program, sub string
	}{
		{"kx get pods", "kx", "get"},
		{"kx report.txt", "kx", ""},
		{"kx get pods && ls", "kx", "get"},
		{"kx get pods -A", "", ""},          // an option the rule would not know: its example fails
		{"kx get pods > ~/.bashrc", "", ""}, // refused
		{"sudo kx get", "", ""},
		{"python -c 1", "", ""},
		{"./kx get", "", ""},
		{"/tmp/kx get", "", ""},
		{"bash -c 'kx get'", "kx", "get"}, // the inner program; bash itself is never taught
		{"kx get && zz x", "", ""},        // two unknown programs
		{"git push", "", ""},              // known
		{"ls", "", ""},                    // allowed
	} {
		v := gate.Decide(gate.Request{Command: tc.cmd, Cwd: "/ws", Workspaces: []string{"/ws"}, Home: "/home/u", FS: corpusFS{}}, gate.DefaultPolicy(), nil)
		got := v.Teach
		if tc.program == "" {
			if got != nil {
				t.Errorf("%q: teach %+v, want none", tc.cmd, got)
			}
			continue
		}
		if got == nil || got.Program != tc.program || got.Subcommand != tc.sub {
			t.Errorf("%q: teach %+v, want %s %s", tc.cmd, got, tc.program, tc.sub)
		}
	}
}
