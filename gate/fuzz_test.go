package gate_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// FuzzClassify checks the classifier's contract on any input: no panic
// (PanicOnBugs turns an internal-error refusal back into a crash), the same
// verdict twice, a reason on every non-allow verdict, and allow only when
// every program position resolved to a known program.
func FuzzClassify(f *testing.F) {
	for _, ex := range tableExamples() {
		f.Add(ex)
	}
	files, _ := filepath.Glob("../testdata/commands/*.txtar")
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range a.Files {
			if strings.HasSuffix(fl.Name, ".sh") {
				f.Add(strings.TrimSuffix(string(fl.Data), "\n"))
			}
		}
	}
	classifier.PanicOnBugs = true
	// The corpus's environment: its filesystem (symlinks, hard links, a bind
	// mount, dangling links) and its installation's rule store.
	opts := classifier.Options{Cwd: corpusCwd, Workspaces: corpusWorkspaces, Home: corpusHome, FS: corpusFS{},
		RuleStore: corpusStore.RuleStore(), Binaries: corpusStore.Binaries}
	req := gate.Request{Cwd: opts.Cwd, Workspaces: opts.Workspaces, Home: opts.Home, FS: opts.FS, RuleStore: corpusStore}
	// And the corpus's Windows environment (Git Bash paths, a
	// case-insensitive filesystem in Windows' spelling).
	winOpts := classifier.Options{Cwd: winCwd, Workspaces: winWorkspaces, Home: winHome, FS: winCorpusFS{},
		RuleStore: winStore.RuleStore(), Binaries: winStore.Binaries, Platform: classifier.Windows}
	winReq := gate.Request{Cwd: winCwd, Workspaces: winWorkspaces, Home: winHome, FS: winCorpusFS{}, RuleStore: winStore, Platform: "windows"}
	policy := gate.DefaultPolicy()
	f.Fuzz(func(t *testing.T, cmd string) {
		for _, env := range []struct {
			opts classifier.Options
			req  gate.Request
		}{{opts, req}, {winOpts, winReq}} {
			r1 := classifier.Classify(cmd, env.opts)
			r2 := classifier.Classify(cmd, env.opts)
			if !reflect.DeepEqual(r1, r2) {
				t.Fatalf("two classifications of %q differ (%s)", cmd, env.opts.Platform)
			}
			env.req.Command = cmd
			v := gate.Decide(env.req, policy, nil)
			if v.Decision != effects.Allow && v.Reason == "" {
				t.Fatalf("%q: %s without a reason (%s)", cmd, v.Decision, env.opts.Platform)
			}
			if v.Decision == effects.Allow && !r1.AllKnown {
				t.Fatalf("%q is allowed but not every program is known (%s): %+v", cmd, env.opts.Platform, r1.Parts)
			}
			for _, p := range r1.Parts {
				if p.Start < 0 || p.End > len(cmd) || p.Start > p.End {
					t.Fatalf("%q: part %q has span [%d,%d] outside the command", cmd, p.Text, p.Start, p.End)
				}
				if p.Class != effects.Read && p.Class != effects.Verify && p.Reason == "" {
					t.Fatalf("%q: part %q (%s) has no reason (%s)", cmd, p.Text, p.Class, env.opts.Platform)
				}
			}
		}
	})
}

// tableExamples are the commands of every example the effects table holds:
// of its entries and subcommands, their flags and the environment they read.
func tableExamples() []string {
	var out []string
	var walk func(ps []effects.Program)
	walk = func(ps []effects.Program) {
		for i := range ps {
			out = append(out, ps[i].OwnExamples()...)
			walk(ps[i].Subcommands)
		}
	}
	walk(effects.Table())
	return out
}

// FuzzClassifyShells is FuzzClassify in every dialect (the second value
// picks it): the same properties, and allow under an unknown shell only when
// bash and zsh both allow. It is seeded with the corpus in every dialect.
func FuzzClassifyShells(f *testing.F) {
	files, _ := filepath.Glob("../testdata/commands/*.txtar")
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range a.Files {
			if strings.HasSuffix(fl.Name, ".sh") {
				cmd := strings.TrimSuffix(string(fl.Data), "\n")
				for _, d := range classifier.Dialects {
					f.Add(cmd, uint8(d))
				}
			}
		}
	}
	classifier.PanicOnBugs = true
	base := classifier.Options{Cwd: corpusCwd, Workspaces: corpusWorkspaces, Home: corpusHome, FS: corpusFS{},
		RuleStore: corpusStore.RuleStore(), Binaries: corpusStore.Binaries}
	policy := gate.DefaultPolicy()
	f.Fuzz(func(t *testing.T, cmd string, dialect uint8) {
		d := classifier.Dialects[int(dialect)%len(classifier.Dialects)]
		opts := base
		opts.Shell = d
		req := gate.Request{Command: cmd, Cwd: opts.Cwd, Workspaces: opts.Workspaces, Home: opts.Home, FS: opts.FS,
			RuleStore: corpusStore, Shell: d}
		r1 := classifier.Classify(cmd, opts)
		r2 := classifier.Classify(cmd, opts)
		if !reflect.DeepEqual(r1, r2) {
			t.Fatalf("two classifications of %q as %s differ", cmd, d)
		}
		v := gate.Decide(req, policy, nil)
		if v.Decision != effects.Allow && v.Reason == "" {
			t.Fatalf("%q as %s: %s without a reason", cmd, d, v.Decision)
		}
		if v.Decision == effects.Allow && !r1.AllKnown {
			t.Fatalf("%q is allowed as %s but not every program is known: %+v", cmd, d, r1.Parts)
		}
		if v.Shell != d {
			t.Fatalf("%q: the verdict says %s, classified as %s", cmd, v.Shell, d)
		}
		for _, p := range r1.Parts {
			if p.Start < 0 || p.End > len(cmd) || p.Start > p.End {
				t.Fatalf("%q as %s: part %q has span [%d,%d] outside the command", cmd, d, p.Text, p.Start, p.End)
			}
		}
		if d == classifier.UnknownDialect && v.Decision == effects.Allow {
			for _, one := range []classifier.Dialect{classifier.Bash, classifier.Zsh} {
				req.Shell = one
				if w := gate.Decide(req, policy, nil); w.Decision != effects.Allow {
					t.Fatalf("%q is allowed under an unknown shell but %s as %s: %s", cmd, w.Decision, one, w.Reason)
				}
			}
		}
	})
}
