package classifier

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// TestTableExamples classifies every example of the effects table: each
// entry's Examples classify to exactly its Effects (read aside when other
// classes are present) and its NotExamples do not; each flag's Examples
// include the flag's Effects, exactly them for a Replace flag (Codex-style
// match / not_match).
func TestTableExamples(t *testing.T) {
	n := 0
	var walk func(prefix string, p *effects.Program)
	walk = func(prefix string, p *effects.Program) {
		name := strings.TrimSpace(prefix + " " + p.Name)
		// zsh's builtins are known when zsh runs the command; every other
		// entry's examples hold under bash and zsh alike.
		tableOpts := tableOpts
		if top := effects.Lookup(strings.Fields(name)[0]); top != nil && top.Zsh {
			tableOpts.Shell = Zsh
		}
		// The entry's declared effects, and the refusals its own data
		// implies: deletions of outside resources, implicit home writes.
		declared := p.Effects
		if p.HomeWrite != "" && !hasClass(declared, effects.WriteOutside) {
			declared = append(append([]effects.Class(nil), declared...), effects.WriteOutside)
		}
		want := renderSet(declared)
		if p.Outside && hasClass(p.Effects, effects.Deletion) {
			want += " !" + string(effects.DeleteOutsideWorkspace)
		}
		if p.HomeWrite != "" {
			want += " !" + string(effects.WriteProtectedPath)
		}
		if p.RuleStore {
			want += " !" + string(effects.RuleStoreModification)
		}
		for _, ex := range p.Examples {
			n++
			r := Classify(ex, tableOpts)
			if got := classSet(r); got != want {
				t.Errorf("%s: example %q classifies as [%s], the entry says [%s]", name, ex, got, want)
			}
			if rs := refusals(r); len(rs) > 0 && !hasClass(p.Effects, effects.Privilege) && !hasClass(p.Effects, effects.OpaqueHigh) && !p.Outside && p.HomeWrite == "" && !p.RuleStore {
				t.Errorf("%s: example %q is refused (%v)", name, ex, rs)
			}
		}
		if p.OtherRuleStore {
			// An unknown subcommand is a rule-store change: refused, with
			// the entry's Other effects.
			n++
			ex := name + " no-such-subcommand"
			other := renderSet(p.Other) + " !" + string(effects.RuleStoreModification)
			if got := classSet(Classify(ex, tableOpts)); got != other {
				t.Errorf("%s: unknown subcommand %q classifies as [%s], want [%s]", name, ex, got, other)
			}
		}
		for _, ex := range p.LocalExamples {
			// A request that stays on the machine is a read (effects.Request).
			n++
			if got := classSet(Classify(ex, tableOpts)); got != "read" {
				t.Errorf("%s: local example %q classifies as [%s], want [read]", name, ex, got)
			}
		}
		for _, ex := range p.CheckExamples {
			// A check script or goal verifies by name (effects.Scripts).
			n++
			if got := classSet(Classify(ex, tableOpts)); got != "verify" {
				t.Errorf("%s: check example %q classifies as [%s], want [verify]", name, ex, got)
			}
		}
		for _, ex := range p.NotExamples {
			n++
			if got := classSet(Classify(ex, tableOpts)); got == want {
				t.Errorf("%s: not-example %q classifies as the entry's own [%s]", name, ex, want)
			}
		}
		for _, f := range p.Flags {
			if f.ReadOnly && !f.Replace {
				t.Errorf("%s %v: ReadOnly without Replace: the entry's effects would stay", name, f.Names)
			}
			for _, ex := range f.Examples {
				n++
				r := Classify(ex, tableOpts)
				got := classesOf(r)
				for _, c := range f.Effects {
					if !hasClass(got, c) {
						t.Errorf("%s %v: example %q lacks %s (got [%s])", name, f.Names, ex, c, renderSet(got))
					}
				}
				// A flag that replaces the entry's effects leaves nothing
				// else: `php -l a.php` reads a.php and does not run it.
				want := renderSet(f.Effects)
				if (p.Outside || f.Outside) && hasClass(f.Effects, effects.Deletion) {
					want += " !" + string(effects.DeleteOutsideWorkspace)
				}
				if f.Replace && classSet(r) != want {
					t.Errorf("%s %v: example %q classifies as [%s], the flag replaces the effects with [%s]", name, f.Names, ex, classSet(r), want)
				}
			}
		}
		for _, f := range p.OperandForms {
			for _, ex := range f.Examples {
				n++
				got := classesOf(Classify(ex, tableOpts))
				for _, c := range f.Effects {
					if !hasClass(got, c) {
						t.Errorf("%s operand form %q: example %q lacks %s (got [%s])", name, f.Prefix, ex, c, renderSet(got))
					}
				}
			}
		}
		// A goal runner verifies when every goal does, and has Other's
		// effects when any goal does not (`make test test test install`).
		other := renderSet(p.Other)
		if len(p.Other) == 0 {
			other = renderSet(p.Effects)
		}
		goals := make([]string, len(p.Goals))
		for i, g := range p.Goals {
			goals[i] = strings.ReplaceAll(g, "*", "unit") // a pattern's example: `test-*` takes test-unit
		}
		for _, g := range goals {
			for _, tc := range []struct{ line, want string }{
				{name + " " + g, "verify"},
				{name + " " + strings.Join(goals, " ") + " " + g, "verify"},
				{name + " " + g + " " + g + " " + g + " zz-other", other},
				{name + " zz-other " + g, other},
			} {
				n++
				if got := classSet(Classify(tc.line, tableOpts)); got != tc.want {
					t.Errorf("%s: %q classifies as [%s], want [%s]", name, tc.line, got, tc.want)
				}
			}
		}
		for i := range p.Subcommands {
			walk(name, &p.Subcommands[i])
		}
	}
	tbl := effects.Table()
	for i := range tbl {
		walk("", &tbl[i])
	}
	t.Logf("%d table examples classified", n)
}

func hasClass(cs []effects.Class, c effects.Class) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// TestTableAliases classifies every example and not-example of an entry
// (and of its subcommands and flags) under every alias of the entry, and of
// the subcommand, and a versioned spelling of a Versioned entry, and
// requires the same classes and refusals as under the name the example
// uses: behaviour is keyed on the entry, never on the typed name (issue 13,
// point 2: `gchmod u+s a.out` skipped the setuid check of `chmod u+s a.out`).
func TestTableAliases(t *testing.T) {
	n := 0
	// check classifies ex with the word at position pos (0 the program, or
	// the first later word spelled as one of names) spelled as each of names.
	check := func(where, ex string, names []string, sub bool) {
		f, err := syntax.NewParser().Parse(strings.NewReader(ex), "")
		if err != nil || len(f.Stmts) == 0 {
			return
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return // an example that starts with a function or a keyword
		}
		var word *syntax.Word
		for i, a := range call.Args {
			if i == 0 && sub || i > 0 && !sub {
				continue
			}
			if slices.Contains(names, a.Lit()) {
				word = a
				break
			}
		}
		if word == nil {
			return
		}
		want := classSet(Classify(ex, tableOpts))
		s, e := int(word.Pos().Offset()), int(word.End().Offset())
		for _, alias := range names {
			if alias == word.Lit() {
				continue
			}
			n++
			aliased := ex[:s] + alias + ex[e:]
			if got := classSet(Classify(aliased, tableOpts)); got != want {
				t.Errorf("%s: %q classifies as [%s], %q as [%s]", where, ex, want, aliased, got)
			}
		}
	}
	var walk func(prefix string, p *effects.Program, top []string, depth int)
	walk = func(prefix string, p *effects.Program, top []string, depth int) {
		name := strings.TrimSpace(prefix + " " + p.Name)
		own := append([]string{p.Name}, p.Aliases...)
		for _, ex := range p.OwnExamples() {
			if len(top) > 1 {
				check(name, ex, top, false) // the program's aliases
			}
			if depth > 0 && len(own) > 1 {
				check(name, ex, own, true) // the subcommand's aliases
			}
		}
		for i := range p.Subcommands {
			walk(name, &p.Subcommands[i], top, depth+1)
		}
	}
	tbl := effects.Table()
	for i := range tbl {
		p := &tbl[i]
		names := append([]string{p.Name}, p.Aliases...)
		if p.Versioned {
			names = append(names, p.Name+"3.12") // python3.12, pip3.12, ...
		}
		walk("", p, names, 0)
	}
	t.Logf("%d examples classified under an alias", n)
}

// TestInterpreterInline checks that every interpreter entry of the table
// declares its inline-code options ([effects.InlineCode]), except those
// listed here with the reason: an interpreter missing them would run
// `-e CODE` as a script operand.
func TestInterpreterInline(t *testing.T) {
	none := map[string]string{
		"deno":  "deno eval is a subcommand",
		"swift": "swift has no inline-code option",
		"tclsh": "tclsh has no inline-code option",
	}
	for _, p := range effects.Table() {
		if p.Special != effects.SpecialInterpreter {
			continue
		}
		has := false
		for _, f := range p.Flags {
			has = has || f.Value == effects.InlineCode
		}
		if _, ok := none[p.Name]; has == ok {
			t.Errorf("interpreter %s: declares inline code %v, listed as having none %v", p.Name, has, ok)
		}
	}
}

// TestInlineCluster: a cluster of one-letter options with an inline-code
// letter in it is inline code (perlrun, ruby(1), python(1)), whatever a
// letter before it takes; a letter that takes a value ends the cluster.
func TestInlineCluster(t *testing.T) {
	for _, tt := range []struct {
		cmd    string
		inline bool
	}{
		{"perl -ne 'print' f", true},
		{"perl -lane 'print' f", true},
		{"perl -l0ne 'print' f", true},
		{"perl -0777ne 'print' f", true},
		{"perl -nE 'say' f", true},
		{"perl -CSDne 'print' f", true},
		{"perl -Ilib x.pl", false},
		{"perl -I lib x.pl", false},
		{"perl -Mstrict x.pl", false},
		{"perl -w x.pl", false},
		{"perl -pie 's/a/b/' f", true}, // perl takes the e as -i's suffix: the stricter reading
		{"ruby -ne 'print' f", true},
		{"ruby -rjson x.rb", false},
		{"ruby -r json x.rb", false},
		{"python3 -Bc 'print(1)'", true},
		{"python3 -W error x.py", false},
		{"python3 -Werror x.py", false},
		{"node -pe '1'", true},
		{"node -r ts-node/register x.js", false},
	} {
		got := false
		for _, p := range Classify(tt.cmd, tableOpts).Parts {
			got = got || p.Class == effects.OpaqueMedium && strings.Contains(p.Reason, "inline")
		}
		if got != tt.inline {
			t.Errorf("%s: inline code %v, want %v", tt.cmd, got, tt.inline)
		}
	}
}

// TestTableEnv classifies the examples of every environment variable the
// table knows ([effects.Program.Env], and [effects.Environment] for every
// program): each example names the variable and classifies to include
// every class of its Effects (opaque-medium for one of Environment), each
// not-example to none of them (issue 13, point 6).
func TestTableEnv(t *testing.T) {
	n := 0
	check := func(where string, v effects.EnvVar) {
		want := v.Effects
		if len(want) == 0 {
			if !strings.HasPrefix(where, "environment") {
				t.Errorf("%s %s: no Effects", where, v.Name)
			}
			want = []effects.Class{effects.OpaqueMedium}
		}
		if len(v.Examples) == 0 {
			t.Errorf("%s %s: no examples", where, v.Name)
		}
		if v.Why == "" {
			t.Errorf("%s %s: no Why", where, v.Name)
		}
		for _, ex := range v.Examples {
			n++
			prefix := strings.TrimSuffix(v.Name, "*")
			if !strings.Contains(ex, prefix) && !(v.Fold && strings.Contains(effects.FoldEnv(ex), prefix)) {
				t.Errorf("%s %s: example %q does not set it", where, v.Name, ex)
			}
			got := classesOf(Classify(ex, tableOpts))
			for _, c := range want {
				if !hasClass(got, c) {
					t.Errorf("%s %s: example %q lacks %s (got [%s])", where, v.Name, ex, c, renderSet(got))
				}
			}
		}
		for _, ex := range v.NotExamples {
			n++
			got := classesOf(Classify(ex, tableOpts))
			for _, c := range want {
				if hasClass(got, c) {
					t.Errorf("%s %s: not-example %q has %s", where, v.Name, ex, c)
				}
			}
		}
	}
	for _, v := range effects.Environment {
		check("environment", v)
	}
	tbl := effects.Table()
	for i := range tbl {
		for _, v := range tbl[i].Env {
			check(tbl[i].Name, v)
		}
	}
	// The generic variables are sorted and unique.
	for i := 1; i < len(effects.Environment); i++ {
		if effects.Environment[i-1].Name >= effects.Environment[i].Name {
			t.Errorf("environment: %s before %s", effects.Environment[i-1].Name, effects.Environment[i].Name)
		}
	}
	t.Logf("%d environment examples classified", n)
}
