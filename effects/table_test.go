package effects

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// walkTable calls f for every entry of the table and every subcommand, with
// its path ("git stash drop").
func walkTable(f func(path string, p *Program)) {
	var walk func(prefix string, ps []Program)
	walk = func(prefix string, ps []Program) {
		for i := range ps {
			p := &ps[i]
			path := strings.TrimSpace(prefix + " " + p.Name)
			f(path, p)
			walk(path, p.Subcommands)
		}
	}
	walk("", table)
}

// TestTableSorted checks that the table and every list of subcommands are
// sorted by name, and that no name or alias repeats among siblings.
func TestTableSorted(t *testing.T) {
	check := func(where string, ps []Program) {
		seen := map[string]string{}
		for i, p := range ps {
			if p.Name == "" {
				t.Errorf("%s: entry %d has no name", where, i)
			}
			if i > 0 && ps[i-1].Name >= p.Name {
				t.Errorf("%s: %q is listed after %q; keep names sorted and unique", where, p.Name, ps[i-1].Name)
			}
			if !slices.IsSorted(p.Aliases) {
				t.Errorf("%s: aliases of %q are not sorted: %v", where, p.Name, p.Aliases)
			}
			for _, n := range append([]string{p.Name}, p.Aliases...) {
				if other, dup := seen[n]; dup {
					t.Errorf("%s: name %q of %q is already used by %q", where, n, p.Name, other)
				}
				seen[n] = p.Name
			}
		}
	}
	check("table", table)
	walkTable(func(path string, p *Program) {
		if len(p.Subcommands) > 0 {
			check(path, p.Subcommands)
		}
	})
}

// TestNamesUnique checks that a program name or alias names one entry only,
// so that [Lookup] is unambiguous.
func TestNamesUnique(t *testing.T) {
	ns := Names()
	for i := 1; i < len(ns); i++ {
		if ns[i] == ns[i-1] {
			t.Errorf("program name %q is used twice", ns[i])
		}
	}
	for _, n := range ns {
		if p := Lookup(n); p == nil {
			t.Errorf("Lookup(%q) = nil, want its entry", n)
		}
	}
}

// TestTableCount checks the coverage promised by issue 2: at least 300
// distinct programs (entries, not counting aliases).
func TestTableCount(t *testing.T) {
	const want = 300
	if len(table) < want {
		t.Errorf("the table has %d programs, want at least %d", len(table), want)
	}
	if n := len(Names()); n < len(table) {
		t.Errorf("Names() has %d names for %d entries", n, len(table))
	}
}

// TestEntriesHaveExamples checks that every entry and subcommand has an
// example, that examples start with the entry's program name, and that a
// flag with effects has an example of its own.
func TestEntriesHaveExamples(t *testing.T) {
	walkTable(func(path string, p *Program) {
		if len(p.Examples) == 0 {
			t.Errorf("%s: no Examples", path)
		}
		prog := strings.Fields(path)[0]
		top := Lookup(prog)
		for _, e := range append(slices.Clone(p.Examples), p.NotExamples...) {
			if strings.TrimSpace(e) == "" {
				t.Errorf("%s: empty example", path)
				continue
			}
			first := strings.Fields(e)[0]
			if top != nil && Lookup(first) != top {
				t.Errorf("%s: example %q does not run %s", path, e, prog)
			}
		}
		for _, f := range p.Flags {
			if len(f.Effects) > 0 && len(f.Examples) == 0 {
				t.Errorf("%s: flag %v has effects %v but no Examples", path, f.Names, f.Effects)
			}
		}
	})
}

// TestWhy checks that every entry, subcommand and flag whose effects are
// more than read or verify says why.
func TestWhy(t *testing.T) {
	mild := func(cs []Class) bool {
		for _, c := range cs {
			if c != Read && c != Verify {
				return false
			}
		}
		return true
	}
	walkTable(func(path string, p *Program) {
		if !mild(p.Effects) && p.Why == "" {
			t.Errorf("%s: effects %v but no Why", path, p.Effects)
		}
		if p.Why != "" && (strings.HasSuffix(p.Why, ".") || p.Why != strings.TrimSpace(p.Why)) {
			t.Errorf("%s: Why %q: one sentence without a final period", path, p.Why)
		}
		for _, f := range p.Flags {
			if !f.Replace && !mild(f.Effects) && f.Why == "" {
				t.Errorf("%s: flag %v has effects %v but no Why", path, f.Names, f.Effects)
			}
		}
	})
}

// TestWhyNamesProgram checks that an entry's Why names the program, so
// that the reason shown to a user says what runs ("git push sends commits to
// a remote").
func TestWhyNamesProgram(t *testing.T) {
	for i := range table {
		top := &table[i]
		progs := append([]string{top.Name}, top.Aliases...)
		walkTable(func(path string, p *Program) {
			if strings.Fields(path)[0] != top.Name || p.Why == "" {
				return
			}
			for _, n := range progs {
				if strings.Contains(p.Why, n) {
					return
				}
			}
			t.Errorf("%s: Why %q does not name %s", path, p.Why, strings.Join(progs, " or "))
		})
	}
}

// TestHomeWrite checks that implicit home writes are written from the home
// directory, as the classifier resolves them (`~/.npmrc`).
func TestHomeWrite(t *testing.T) {
	check := func(where, hw string, cs []Class) {
		if hw == "" {
			return
		}
		if !strings.HasPrefix(hw, "~/") || strings.Contains(hw, "..") {
			t.Errorf("%s: HomeWrite %q must be a path under ~/", where, hw)
		}
		if !slices.Contains(cs, WriteOutside) {
			t.Errorf("%s: HomeWrite %q without write-outside-workspace in its effects %v", where, hw, cs)
		}
	}
	walkTable(func(path string, p *Program) {
		check(path, p.HomeWrite, p.Effects)
		for _, f := range p.Flags {
			check(path+" "+f.Names[0], f.HomeWrite, f.Effects)
		}
	})
}

// TestExamplesUnique checks that no example command is written twice in the
// table, and that no entry lists a command both as an example and as a
// not-example. (Flag examples may repeat: a shared set of options such as
// git's diff options carries one example for every command that takes it.)
func TestExamplesUnique(t *testing.T) {
	seen := map[string]string{}
	walkTable(func(path string, p *Program) {
		for _, e := range p.Examples {
			if other, dup := seen[e]; dup {
				t.Errorf("example %q of %s repeats one of %s", e, path, other)
			}
			seen[e] = path
		}
		not := map[string]bool{}
		for _, e := range p.NotExamples {
			if not[e] {
				t.Errorf("%s: not-example %q repeated", path, e)
			}
			not[e] = true
			if slices.Contains(p.Examples, e) {
				t.Errorf("%s: %q is both an example and a not-example", path, e)
			}
		}
	})
}

// TestFlags checks the shape of every flag: names start with a dash and are
// not repeated within one flag (`--` only as a flag that carries a
// command), effects and Replace go together, and a single-dash program's
// flags are words.
func TestFlags(t *testing.T) {
	walkTable(func(path string, p *Program) {
		for _, f := range p.Flags {
			if len(f.Names) == 0 {
				t.Errorf("%s: flag without names", path)
			}
			seen := map[string]bool{}
			for _, n := range f.Names {
				if !strings.HasPrefix(n, "-") || n == "-" || n == "--" && !f.Carries || strings.ContainsAny(n, " =") {
					t.Errorf("%s: flag name %q must be an option as typed (-x, --name)", path, n)
				}
				if seen[n] {
					t.Errorf("%s: flag name %q repeated", path, n)
				}
				seen[n] = true
			}
			if f.Replace && len(f.Effects) == 0 {
				t.Errorf("%s: flag %v replaces the effects with nothing", path, f.Names)
			}
			if f.Value < NoValue || f.Value > SSHOption {
				t.Errorf("%s: flag %v has an unknown Value %d", path, f.Names, f.Value)
			}
		}
	})
}

// TestOptionalArgShort checks the encoding rule of [optArg]: OptionalArg is
// only for flags made of short names in programs that cluster them. A word
// option declared OptionalArg would have its value looked for in the next
// word, hiding an operand (`rm --interactive ~`).
func TestOptionalArgShort(t *testing.T) {
	walkTable(func(path string, p *Program) {
		for _, f := range p.Flags {
			if f.Value != OptionalArg {
				continue
			}
			for _, n := range f.Names {
				if len(n) != 2 || p.SingleDashLong {
					t.Errorf("%s: flag %q is OptionalArg; declare a word option without a value", path, n)
				}
			}
		}
	})
}

// TestShortNames checks that a program whose short options cluster (`-rf`)
// declares no single-dash word (`-name`): such a name could never match, so
// its value would be read as an operand. Word options belong to
// SingleDashLong programs (find, go, terraform).
func TestShortNames(t *testing.T) {
	walkTable(func(path string, p *Program) {
		if p.SingleDashLong {
			return
		}
		for _, f := range p.Flags {
			for _, n := range f.Names {
				if !strings.HasPrefix(n, "--") && len(n) != 2 {
					t.Errorf("%s: flag %q is a single-dash word in a program whose short options cluster", path, n)
				}
			}
		}
	})
}

// TestEntryShape checks fields that only make sense together.
func TestEntryShape(t *testing.T) {
	walkTable(func(path string, p *Program) {
		if len(p.Effects) == 0 {
			t.Errorf("%s: no Effects", path)
		}
		for _, c := range p.Effects {
			if c == Unknown {
				t.Errorf("%s: Effects lists unknown", path)
			}
		}
		if p.Skip < 0 {
			t.Errorf("%s: negative Skip", path)
		}
		if p.Skip > 0 && p.Operands == NoPaths {
			t.Errorf("%s: Skip %d with NoPaths operands means nothing", path, p.Skip)
		}
		if p.Other != nil && len(p.Subcommands) == 0 && len(p.Goals) == 0 && p.Scripts == NoScripts {
			t.Errorf("%s: Other is set but there are no Subcommands, goals or scripts to miss", path)
		}
		if p.RuleStore && p.Why == "" {
			t.Errorf("%s: RuleStore without a Why: the refusal must say what it changes", path)
		}
		if p.RuleStore && !slices.ContainsFunc(p.Effects, func(c Class) bool { return c != Read && c != Verify }) {
			t.Errorf("%s: RuleStore with only read or verify effects refuses nothing", path)
		}
		if p.OtherRuleStore && (len(p.Subcommands) == 0 || len(p.Other) == 0) {
			t.Errorf("%s: OtherRuleStore needs Subcommands and non-read Other effects", path)
		}
		if p.Outside && !slices.Contains(p.Effects, Deletion) && !slices.ContainsFunc(p.Flags, func(f Flag) bool { return slices.Contains(f.Effects, Deletion) }) {
			t.Errorf("%s: Outside without a deletion", path)
		}
	})
}

// TestScripts checks the entries whose operands name project scripts, and
// the names goal runners take: which names are checks, what arguments make a
// check write, and the shape the vocabulary needs (checks listed with
// examples, patterns that are a base and a star).
func TestScripts(t *testing.T) {
	walkTable(func(path string, p *Program) {
		switch p.Scripts {
		case NoScripts:
			if len(p.Checks) > 0 || len(p.CheckExamples) > 0 {
				t.Errorf("%s: Checks without Scripts", path)
			}
		case ScriptName:
			if len(p.Checks) == 0 || len(p.CheckExamples) == 0 || len(p.Goals) > 0 {
				t.Errorf("%s: a script runner needs Checks and CheckExamples (and no Goals)", path)
			}
		case ScriptArgs:
			if !slices.Equal(p.Effects, []Class{Verify}) || len(p.Checks) > 0 {
				t.Errorf("%s: ScriptArgs is for an entry that runs its own check script (effects verify, no Checks)", path)
			}
		default:
			t.Errorf("%s: unknown Scripts %d", path, p.Scripts)
		}
		for _, c := range append(slices.Clone(p.Checks), p.Goals...) {
			base, star := strings.CutSuffix(c, "*")
			if star && !strings.HasSuffix(base, ":") && !strings.HasSuffix(base, "-") {
				t.Errorf("%s: check pattern %q: a star follows `BASE:` or `BASE-`", path, c)
			}
			if _, ok := segments(strings.TrimRight(base, ":-")); !ok {
				t.Errorf("%s: check %q is not made of segments of letters and digits", path, c)
			}
		}
	})
	npm := Lookup("npm").Sub("run")
	for name, want := range map[string]bool{
		"test": true, "lint": true, "typecheck": true, "type-check": true, "check": true, "tests": true,
		"test:unit": true, "test:e2e:ci": true, "lint:js": true, "check:types": true, "typecheck:app": true,
		"build": false, "dev": false, "start": false, "deploy": false, "db:migrate": false, "migrate": false,
		"release": false, "publish": false, "fix": false, "format": false, "lint:fix": false, "test:update-snapshots": false,
		"test:u": false, "lint-staged": false, "test:": false, "test:;rm": false, "Test": false, "test:db": false,
		"lint:prettier-write": false, "tsc": false, "test:unit x": false, "": false, "check:format": false,
	} {
		if got := IsCheck(npm.Checks, name); got != want {
			t.Errorf("npm run %q: Check = %v, want %v", name, got, want)
		}
	}
	make := Lookup("make")
	for name, want := range map[string]bool{"test": true, "test-unit": true, "lint-go": true, "vet": true, "lint-fix": false, "test:unit": false, "install": false, "CC=x": false} {
		if got := IsCheck(make.Goals, name); got != want {
			t.Errorf("make %q: Check = %v, want %v", name, got, want)
		}
	}
	for arg, want := range map[string]bool{
		"--fix": true, "--fix=true": true, "--fix-type": true, "--write": true, "-u": true, "-ui": true, "--update-snapshots": true,
		"--updateSnapshot": true, "--apply-unsafe": true, "--unsafe-fixes": true,
		"--watch=false": false, "src/a.test.ts": false, "-t": false, "--run": false, "--coverage": false, "--fixture": false, "u": false, "-w": false, "--": false,
	} {
		if got := ScriptWrites(arg); got != want {
			t.Errorf("ScriptWrites(%q) = %v, want %v", arg, got, want)
		}
	}
}

// TestGoals checks the goal runners: their goals are plain names, and a
// runner with goals has no subcommands (its operands are all goals).
func TestGoals(t *testing.T) {
	n := 0
	walkTable(func(path string, p *Program) {
		if len(p.Goals) == 0 {
			return
		}
		n++
		if len(p.Subcommands) > 0 {
			t.Errorf("%s: Goals and Subcommands both set", path)
		}
		for _, g := range p.Goals {
			if g == "" || strings.HasPrefix(g, "-") || strings.ContainsAny(g, " =") {
				t.Errorf("%s: goal %q is not a goal name", path, g)
			}
		}
	})
	if m := Lookup("make"); m == nil || !slices.Contains(m.Goals, "test") {
		t.Errorf("make has no goal test")
	}
	if n < 8 {
		t.Errorf("%d goal runners, want make, mvn, gradle, just, task, rake, ant, sbt, ...", n)
	}
}

// TestVersioned checks versioned spellings: they name a Versioned entry
// only, and only as a name, digits and dots.
func TestVersioned(t *testing.T) {
	for name, want := range map[string]string{
		"python3.12": "python", "pypy3.10": "python", "python2.7": "python", "pip3.11": "pip",
		"perl5.36": "perl", "tclsh8.6": "tclsh", "python3": "python",
		"python3.": "", "python.3": "", "python3..1": "", "ls2": "", "git2.40": "", "3.12": "",
	} {
		got := ""
		if p := Lookup(name); p != nil {
			got = p.Name
		}
		if got != want {
			t.Errorf("Lookup(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestRequests checks the vocabulary of local reads: only an HTTP client
// ([Request]) has local options, a local option adds no effects of its own
// (it keeps the request a read), and every such client shows a local read.
func TestRequests(t *testing.T) {
	n := 0
	walkTable(func(path string, p *Program) {
		if p.Request != NoRequest {
			n++
			if len(p.LocalExamples) == 0 || !slices.Contains(p.Effects, Network) {
				t.Errorf("%s: an HTTP client needs network effects and LocalExamples", path)
			}
		} else if len(p.LocalExamples) > 0 {
			t.Errorf("%s: LocalExamples without Request", path)
		}
		for _, f := range p.Flags {
			if !f.Local {
				if len(f.LocalValues) > 0 || f.LocalNeed != "" {
					t.Errorf("%s %v: LocalValues or LocalNeed on a flag that is not Local", path, f.Names)
				}
				continue
			}
			if p.Request == NoRequest {
				t.Errorf("%s %v: a Local flag on an entry that makes no requests", path, f.Names)
			}
			if len(f.Effects) > 0 || f.Replace || f.HomeWrite != "" {
				t.Errorf("%s %v: a Local flag has effects of its own", path, f.Names)
			}
			if len(f.LocalValues) > 0 && f.Value == NoValue {
				t.Errorf("%s %v: LocalValues on a flag without a value", path, f.Names)
			}
		}
	})
	if n < 3 {
		t.Errorf("%d HTTP clients with local reads, want curl, wget and http", n)
	}
}

// TestRunners checks the package runners: each runs a command (Operands
// Command) or names a project script (ScriptName), and some entries are
// packages of each ecosystem a runner runs.
func TestRunners(t *testing.T) {
	runs := map[Ecosystem]int{}
	walkTable(func(path string, p *Program) {
		if p.Runner == NoEcosystem {
			return
		}
		runs[p.Runner]++
		if p.Operands != Command && p.Scripts != ScriptName {
			t.Errorf("%s: a runner runs a command (Operands Command) or a script's name (ScriptName)", path)
		}
		if p.Runner != Node && p.Runner != Python {
			t.Errorf("%s: unknown Runner %d", path, p.Runner)
		}
	})
	for _, e := range []Ecosystem{Node, Python} {
		n := 0
		for _, p := range table {
			if slices.Contains(p.Packages, e) {
				n++
			}
		}
		if runs[e] == 0 || n == 0 {
			t.Errorf("ecosystem %v: %d runners, %d packages", e, runs[e], n)
		}
	}
	if Lookup("npx").Runner != Node || Lookup("uv").Sub("run").Runner != Python || Lookup("pnpx").Runner != NoEcosystem {
		t.Errorf("npx runs Node packages, uv run Python ones, and pnpx (pnpm dlx) always downloads")
	}
}

// TestFindFlagIndex checks the generated option index: every name of every
// entry's flags finds the first flag that has it, as a scan does, and a
// name no flag has finds nothing.
func TestFindFlagIndex(t *testing.T) {
	indexed := 0
	walkTable(func(path string, p *Program) {
		if p.flagIndex != nil {
			indexed++
		}
		seen := map[string]bool{}
		for i := range p.Flags {
			for _, n := range p.Flags[i].Names {
				if seen[n] {
					continue
				}
				seen[n] = true
				if got := p.FindFlag(n); got != &p.Flags[i] {
					t.Errorf("%s: FindFlag(%q) is not the first flag named so", path, n)
				}
			}
		}
		for _, n := range []string{"--no-such-option", "-\x00", ""} {
			if p.FindFlag(n) != nil {
				t.Errorf("%s: FindFlag(%q) found a flag", path, n)
			}
		}
	})
	if indexed == 0 && generatedTable {
		t.Error("no entry has an option index; run go generate")
	}
}

// TestFlagChanges: a flag changes what its program does when it adds an
// effect beyond read and verify or its value names a place, a program or
// code; a plain or value-only flag does not.
func TestFlagChanges(t *testing.T) {
	for _, tt := range []struct {
		f    Flag
		want bool
	}{
		{Flag{Names: []string{"-l"}}, false},
		{Flag{Names: []string{"-n"}, Value: Arg}, false},
		{Flag{Names: []string{"-f"}, Value: ReadPath}, false},
		{Flag{Names: []string{"--version"}, Replace: true, Effects: []Class{Read}}, false},
		{Flag{Names: []string{"-o"}, Value: WritePath}, true},
		{Flag{Names: []string{"--pre"}, Value: ProgramArg}, true},
		{Flag{Names: []string{"-c"}, Value: InlineCode}, true},
		{Flag{Names: []string{"--config"}, Value: CodePath}, true},
		{Flag{Names: []string{"-delete"}, Effects: []Class{Deletion}}, true},
		{Flag{Names: []string{"-g"}, Outside: true}, true},
		{Flag{Names: []string{"--netrc"}, Credential: true}, true},
	} {
		if got := tt.f.Changes(); got != tt.want {
			t.Errorf("%v.Changes() = %v, want %v", tt.f.Names, got, tt.want)
		}
	}
}

func TestOperandFormIsPlain(t *testing.T) {
	f := OperandForm{Prefix: "+", Plain: []string{"#", "G", "/*", "+#"}}
	for _, tc := range []struct {
		rest string
		want bool
	}{
		{"42", true}, {"G", true}, {"/TODO", true}, {"/", true}, {"+7", true},
		{"", false}, {"4x", false}, {"Gx", false}, {"!touch x", false}, {"s /tmp/x", false},
		{"/x\n!touch y", false}, {"/x\r", false}, {"+", false}, {"++7", false},
	} {
		if got := f.IsPlain(tc.rest); got != tc.want {
			t.Errorf("IsPlain(%q) = %v, want %v", tc.rest, got, tc.want)
		}
	}
}

// TestOperandFormMatch compiles every operand form's Match expression, so
// that none panics at its first use in the classifier.
func TestOperandFormMatch(t *testing.T) {
	var walk func(p *Program)
	walk = func(p *Program) {
		for _, f := range p.OperandForms {
			if f.Match == "" {
				continue
			}
			if _, err := regexp.Compile(f.Match); err != nil {
				t.Errorf("%s: operand form Match %q: %v", p.Name, f.Match, err)
			}
		}
		for i := range p.Subcommands {
			walk(&p.Subcommands[i])
		}
	}
	for i := range table {
		walk(&table[i])
	}
}
