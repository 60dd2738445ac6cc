package classifier

import (
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

func kubectlxRule() Rule {
	return Rule{ID: "user:kx", Entry: effects.Program{
		Name:     "kx",
		Effects:  []effects.Class{effects.OpaqueMedium},
		Operands: effects.ReadPaths,
		Subcommands: []effects.Program{
			{Name: "get", Effects: []effects.Class{effects.Read, effects.Network}, Operands: effects.ReadPaths,
				Flags:    []effects.Flag{{Names: []string{"-o", "--output"}, Value: effects.Arg}},
				Examples: []string{"kx get pods", "kx get pods -o json"}, NotExamples: []string{"kx apply -f x"}},
			{Name: "save", Effects: []effects.Class{effects.WriteInside}, Operands: effects.WritePaths,
				Examples: []string{"kx save out.txt"}},
		},
	}}
}

func TestRulesTeachUnknownProgram(t *testing.T) {
	rules, errs := NewRules([]Rule{kubectlxRule()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts := tableOpts
	opts.Rules = rules
	for _, tc := range []struct{ cmd, want, refusal string }{
		{"kx get pods", "network", ""},
		{"timeout 5 kx get pods", "network", ""},
		{"kx get pods --watch", "", ""}, // unknown flag: not the entry's plain effects
		{"kx save out.txt", "write-inside-workspace", ""},
		{"kx save ~/.bashrc", "write-outside-workspace", string(effects.WriteProtectedPath)},
		{"kx save /etc/passwd", "write-outside-workspace", string(effects.WriteProtectedPath)},
		{"sudo kx get pods", "", string(effects.PrivilegeEscalation)},
		{"kx delete all", "opaque-medium", ""},
		{"kx get sudo", "", string(effects.PrivilegeEscalation)},
		{"kx get /usr/bin/doas x", "", string(effects.PrivilegeEscalation)},
		{"kx get bash x.sh", "opaque-medium", ""},
		{"kx get python3", "opaque-medium", ""},
	} {
		r := Classify(tc.cmd, opts)
		if got := classSet(r); tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%q: classes [%s], want %s", tc.cmd, got, tc.want)
		}
		if got := refusalsOf(r); !strings.Contains(got, tc.refusal) || (tc.refusal == "" && got != "") {
			t.Errorf("%q: refusals %q, want %q", tc.cmd, got, tc.refusal)
		}
		if tc.refusal == "" && tc.want == "network" && !taught(r, "kx") {
			t.Errorf("%q: no part names the rule: %+v", tc.cmd, r.Parts)
		}
	}
	// Without the rules, kx is unknown.
	if got := classSet(Classify("kx get pods", tableOpts)); got != "opaque-medium" {
		t.Errorf("without rules: [%s]", got)
	}
}

func TestRulesRejected(t *testing.T) {
	read := []effects.Class{effects.Read}
	for _, tc := range []struct {
		name string
		rule Rule
		want string
	}{
		{"sudo", Rule{ID: "user:s", Entry: effects.Program{Name: "sudo", Effects: read, Operands: effects.ReadPaths}}, "in the effects table"},
		{"bash", Rule{ID: "user:b", Entry: effects.Program{Name: "bash", Effects: read, Operands: effects.ReadPaths}}, "in the effects table"},
		{"env", Rule{ID: "user:e", Entry: effects.Program{Name: "env", Effects: read, Operands: effects.ReadPaths}}, "in the effects table"},
		{"python3.99", Rule{ID: "user:p", Entry: effects.Program{Name: "python3.99", Effects: read, Operands: effects.ReadPaths}}, "in the effects table"},
		{"bash5", Rule{ID: "user:b5", Entry: effects.Program{Name: "bash5", Effects: read, Operands: effects.ReadPaths}}, "runs programs or code"},
		{"git", Rule{ID: "user:g", Entry: effects.Program{Name: "git", Effects: read, Operands: effects.ReadPaths}}, "in the effects table"},
		{"path", Rule{ID: "user:x", Entry: effects.Program{Name: "/tmp/x", Effects: read, Operands: effects.ReadPaths}}, "bare program name"},
		{"failing example", Rule{ID: "user:f", Entry: effects.Program{Name: "zork", Effects: read, Operands: effects.ReadPaths, Examples: []string{"zork > ~/.zshrc"}}}, "refused"},
		{"wrong example", Rule{ID: "user:w", Entry: effects.Program{Name: "zork", Effects: read, Operands: effects.ReadPaths, Examples: []string{"zork --fix"}}}, "the rule says [read]"},
		{"not-example matches", Rule{ID: "user:n", Entry: effects.Program{Name: "zork", Effects: read, Operands: effects.ReadPaths, NotExamples: []string{"zork a"}}}, "not-example"},
		{"no effects", Rule{ID: "user:z", Entry: effects.Program{Name: "zork", Operands: effects.ReadPaths}}, "no effects"},
		{"command operands", Rule{ID: "user:c", Entry: effects.Program{Name: "zork", Effects: read, Operands: effects.Command}}, "operands"},
		{"too many examples", Rule{ID: "user:m", Entry: effects.Program{Name: "zork", Effects: read, Operands: effects.ReadPaths, Examples: manyExamples(33)}}, "more than 32 examples"},
		{"workspace flags", Rule{ID: "workspace:w", Workspace: true, Entry: effects.Program{Name: "zork", Effects: read, Operands: effects.ReadPaths, Flags: []effects.Flag{{Names: []string{"-q"}}}}}, "only add effects"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			good := Rule{ID: "user:ok", Entry: effects.Program{Name: "okprog", Effects: read, Operands: effects.ReadPaths, Examples: []string{"okprog a"}}}
			rules, errs := NewRules([]Rule{tc.rule, good})
			if len(errs) != 1 || errs[0].Index != 0 || !strings.Contains(errs[0].Error(), tc.want) {
				t.Fatalf("errors %v, want one for rule 0 containing %q", errs, tc.want)
			}
			if rules.Len() != 1 {
				t.Errorf("the good rule should still apply: %v", rules.Programs())
			}
		})
	}
}

// A workspace rule can only add effects: it never makes a program cheaper
// than unknown, nor than the user's rule.
func TestWorkspaceRulesOnlyTighten(t *testing.T) {
	opts := tableOpts
	ws := Rule{ID: "workspace:zork", Workspace: true, Entry: effects.Program{Name: "zork", Effects: []effects.Class{effects.Read}, Operands: effects.ReadPaths}}
	rules, errs := NewRules([]Rule{ws})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts.Rules = rules
	if got := classSet(Classify("zork a", opts)); got != "opaque-medium" {
		t.Errorf("workspace read rule alone: [%s], want it to stay opaque-medium", got)
	}
	user := Rule{ID: "user:zork", Entry: effects.Program{Name: "zork", Effects: []effects.Class{effects.Read}, Operands: effects.ReadPaths}}
	ws.Entry.Effects = []effects.Class{effects.SystemChange}
	rules, errs = NewRules([]Rule{ws, user})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts.Rules = rules
	if got := classSet(Classify("zork a", opts)); got != "system-change" {
		t.Errorf("workspace adds system-change to the user's read rule: [%s]", got)
	}
}

// FuzzNewRules: NewRules never panics, never accepts a rule for a program
// the table knows, and a command with the rules in place still classifies
// (total) and refuses whatever it refuses without them.
func FuzzNewRules(f *testing.F) {
	f.Add("acme", "acme x", "sudo acme x")
	f.Add("bash", "bash -c ls", "bash -c 'rm -rf ~'")
	f.Add("kx", "kx get", "kx save ~/.bashrc")
	f.Fuzz(func(t *testing.T, name, example, cmd string) {
		r := Rule{ID: "user:f", Entry: effects.Program{Name: name, Effects: []effects.Class{effects.Read}, Operands: effects.WritePaths, Examples: []string{example}}}
		rules, errs := NewRules([]Rule{r})
		if len(errs) == 0 && effects.Lookup(name) != nil {
			t.Fatalf("rule accepted for table program %q", name)
		}
		opts := tableOpts
		opts.Rules = rules
		with, without := Classify(cmd, opts), Classify(cmd, tableOpts)
		if a, b := refusalsOf(without), refusalsOf(with); a != "" && b == "" {
			t.Fatalf("%q: refused (%s) without the rules, not with them", cmd, a)
		}
	})
}

func manyExamples(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "zork a"
	}
	return out
}
