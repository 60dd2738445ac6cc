package classifier

import (
	"strings"
	"testing"

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
