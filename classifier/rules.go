package classifier

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// Rule is one user or workspace rule (`ml-ai.rules`): an entry in the
// effects table's vocabulary for a program the table does not know.
type Rule struct {
	// ID names the rule in verdicts: "user:acme-lint", "workspace:acme-lint".
	ID string
	// Workspace: the rule comes from a workspace's settings, so it can only
	// add effects (see [NewRules]).
	Workspace bool
	// Entry is the program entry: Name, Effects, Operands (ReadPaths,
	// WritePaths or DeletePaths), Flags (names, Arg or NoValue, Effects,
	// Replace), Subcommands of the same shape, Other, Examples, NotExamples.
	Entry effects.Program
}

// RuleError is a rule that was rejected, with why.
type RuleError struct {
	Index int    // the rule's index in the list given to [NewRules]
	ID    string // [Rule.ID]
	Err   error
}

// Error renders `rule ID: why`.
func (e RuleError) Error() string { return fmt.Sprintf("rule %s: %v", e.ID, e.Err) }

// Rules are the accepted rules, an overlay on the effects table consulted
// only for programs the table does not know. The zero or nil Rules has none.
type Rules struct {
	byName map[string]*ruleEntry
}

type ruleEntry struct {
	id    string
	entry *effects.Program
}

// Len returns the number of programs the rules teach.
func (r *Rules) Len() int {
	if r == nil {
		return 0
	}
	return len(r.byName)
}

// lookup returns the rule entry for a bare program name, or nil.
func (r *Rules) lookup(name string) *ruleEntry {
	if r == nil {
		return nil
	}
	return r.byName[name]
}

// Programs returns the program names the rules teach, each with its rule id.
func (r *Rules) Programs() map[string]string {
	out := map[string]string{}
	if r != nil {
		for n, e := range r.byName {
			out[n] = e.id
		}
	}
	return out
}

// NewRules checks rules and returns the accepted ones; each rejected rule
// has a [RuleError] and the others still apply.
//
// What a rule may do (the rules never loosen SPEC §5):
//   - It names a program the table does not know (under any name, alias
//     or versioned spelling): rules teach programs, they never change a
//     known one, so no rule applies to interpreters, shells or wrappers,
//     and none makes `sudo`, `bash` or `env` anything else. A name whose
//     versioned stem is a table entry that runs programs or code
//     (`bash5`, `python3x`) is refused too.
//   - The name is a plain word: no `/`, no spaces, quotes, invisible or
//     lookalike characters. Dynamic names (`$X`) never reach a rule.
//   - Its operands are files read, written or deleted; the path and
//     refusal logic runs on them as for any table entry (a rule's write to
//     `~/.bashrc` is still a write-protected-path refusal). It has no
//     carried command, script, special logic or program-valued flag.
//   - Every example classifies, with the rule, to exactly the declared
//     effects (read aside when other classes are present) and no
//     not-example does, as the table's own examples do.
//
// A workspace rule can only make things stricter: its effects are added to
// what the program has without it (opaque-medium, unknown program, or the
// user rule for the same program, at every level), and its subcommands,
// flags and operands are ignored. Its examples must include its effects.
func NewRules(rules []Rule) (*Rules, []RuleError) {
	out := &Rules{byName: map[string]*ruleEntry{}}
	var errs []RuleError
	total := 0 // examples checked so far
	reject := func(i int, r Rule, format string, args ...any) {
		errs = append(errs, RuleError{Index: i, ID: r.ID, Err: fmt.Errorf(format, args...)})
	}
	// User rules first, then workspace rules on top of them.
	for pass := 0; pass < 2; pass++ {
		for i, r := range rules {
			if r.Workspace != (pass == 1) {
				continue
			}
			r.Entry = cloneProgram(&r.Entry) // checkRuleShape fills defaults in
			name := r.Entry.Name
			if err := checkRuleName(name); err != nil {
				reject(i, r, "%v", err)
				continue
			}
			if err := checkRuleShape(&r.Entry, "", r.Workspace); err != nil {
				reject(i, r, "%v", err)
				continue
			}
			if n := countExamples(&r.Entry); total+n > maxTotalExamples {
				reject(i, r, "the rules have more than %d examples in all; this one is not checked", maxTotalExamples)
				continue
			} else {
				total += n
			}
			var e *effects.Program
			id := r.ID
			if !r.Workspace {
				if old := out.byName[name]; old != nil {
					reject(i, r, "program %q already has rule %s", name, old.id)
					continue
				}
				c := cloneProgram(&r.Entry)
				e = &c
			} else {
				var base effects.Program
				if old := out.byName[name]; old != nil {
					base = cloneProgram(old.entry)
					id = old.id + "+" + r.ID
				} else {
					base = effects.Program{Name: name, Effects: []effects.Class{effects.OpaqueMedium}, Operands: effects.ReadPaths}
				}
				addEffects(&base, r.Entry.Effects)
				e = &base
			}
			try := &Rules{byName: map[string]*ruleEntry{}}
			for k, v := range out.byName {
				try.byName[k] = v
			}
			try.byName[name] = &ruleEntry{id: id, entry: e}
			if err := checkRuleExamples(try, &r.Entry, e, name, r.Workspace); err != nil {
				reject(i, r, "%v", err)
				continue
			}
			out.byName[name] = try.byName[name]
		}
	}
	sort.Slice(errs, func(a, b int) bool { return errs[a].Index < errs[b].Index })
	return out, errs
}

// runsCode reports whether a table entry runs programs or code it is given
// (shells, interpreters, wrappers, xargs, eval): no rule may stand for one.
func runsCode(p *effects.Program) bool {
	switch p.Special {
	case effects.SpecialShell, effects.SpecialInterpreter, effects.SpecialEnv, effects.SpecialXargs,
		effects.SpecialEval, effects.SpecialWatch, effects.SpecialFlock, effects.SpecialScript, effects.SpecialSSH:
		return true
	}
	if p.Operands == effects.Command || p.Operands == effects.Script {
		return true
	}
	for i := range p.Subcommands {
		if runsCode(&p.Subcommands[i]) {
			return true
		}
	}
	return false
}

// CheckRuleName reports why no rule may teach the program name, or nil:
// see [NewRules].
func CheckRuleName(name string) error { return checkRuleName(name) }

func checkRuleName(name string) error {
	if name == "" {
		return fmt.Errorf("no program name")
	}
	if len(name) > 128 {
		return fmt.Errorf("program name longer than 128 bytes")
	}
	for _, c := range name {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.+@", c)
		if !ok {
			return fmt.Errorf("program name %q: only letters, digits and -_.+@ (a bare program name, no path)", strings.ToValidUTF8(name, "?"))
		}
	}
	if name[0] == '-' || name[0] == '.' {
		return fmt.Errorf("program name %q starts with %q", name, name[0])
	}
	if e := effects.Lookup(name); e != nil {
		return fmt.Errorf("program %q is in the effects table (as %q): rules only teach programs the table does not know", name, e.Name)
	}
	// A name that looks like a versioned or suffixed spelling of a program
	// that runs code (`bash5`, `python3x`, `node-20`) would make a shell or
	// interpreter cheaper if it is one: refused.
	for _, stem := range nameStems(name) {
		if e := effects.Lookup(stem); e != nil && runsCode(e) {
			return fmt.Errorf("program %q looks like a spelling of %q, which runs programs or code: rules never apply to interpreters, shells or wrappers", name, e.Name)
		}
	}
	return nil
}

// nameStems returns the prefixes of name left after dropping trailing
// digits, dots, dashes and underscores, or one trailing letter after a digit.
func nameStems(name string) []string {
	var out []string
	s := strings.TrimRight(name, "0123456789.-_")
	if s != name && s != "" {
		out = append(out, s)
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
			if p := strings.TrimRight(name[:i], "0123456789.-_"); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// Bounds on one rule, so that checking rules when they load stays fast.
const (
	maxRuleDepth       = 4  // subcommand levels
	maxRuleExamples    = 32 // examples and not-examples per level
	maxRuleSubcommands = 64 // per level
	maxRuleFlags       = 64 // per level
	maxTotalExamples   = 2048
)

func countExamples(p *effects.Program) int {
	n := len(p.Examples) + len(p.NotExamples)
	for i := range p.Subcommands {
		n += countExamples(&p.Subcommands[i])
	}
	return n
}

func checkRuleShape(p *effects.Program, at string, workspace bool) error {
	where := func() string {
		if at == "" {
			return ""
		}
		return "subcommand " + strings.TrimSpace(at) + ": "
	}
	if strings.Count(at, " ") > maxRuleDepth {
		return fmt.Errorf("%ssubcommands nest deeper than %d levels", where(), maxRuleDepth)
	}
	if len(p.Examples)+len(p.NotExamples) > maxRuleExamples || len(p.Subcommands) > maxRuleSubcommands || len(p.Flags) > maxRuleFlags {
		return fmt.Errorf("%smore than %d examples, %d subcommands or %d flags", where(), maxRuleExamples, maxRuleSubcommands, maxRuleFlags)
	}
	if len(p.Effects) == 0 && len(p.Subcommands) == 0 {
		return fmt.Errorf("%sno effects", where())
	}
	for _, c := range append(append([]effects.Class(nil), p.Effects...), p.Other...) {
		if c == effects.Unknown {
			return fmt.Errorf("%sunknown effect", where())
		}
	}
	switch p.Operands {
	case effects.ReadPaths, effects.WritePaths, effects.DeletePaths:
	default:
		return fmt.Errorf("%soperands must be read, write or delete", where())
	}
	if p.Special != effects.None || p.Skip != 0 || len(p.Goals) > 0 || p.RuleStore || p.OtherRuleStore || p.InShell || p.Elsewhere || p.HomeWrite != "" || p.Credential || p.Links || p.URIOperands || len(p.Aliases) > 0 || p.Versioned {
		return fmt.Errorf("%sonly name, effects, operands, flags, subcommands, other, examples and notExamples are allowed", where())
	}
	if workspace && (len(p.Flags) > 0 || len(p.Subcommands) > 0 || len(p.Other) > 0 || p.Operands != effects.ReadPaths) {
		return fmt.Errorf("a workspace rule can only add effects: flags, subcommands, other and operands are user settings only")
	}
	for _, f := range p.Flags {
		if len(f.Names) == 0 {
			return fmt.Errorf("%sa flag without names", where())
		}
		for _, n := range f.Names {
			if !strings.HasPrefix(n, "-") || n == "-" || n == "--" || strings.ContainsAny(n, " =\t\n") {
				return fmt.Errorf("%sflag %q: want -x or --name", where(), n)
			}
		}
		if f.Value != effects.NoValue && f.Value != effects.Arg {
			return fmt.Errorf("%sflag %v: a value is an argument or nothing", where(), f.Names)
		}
		if f.Outside || f.HomeWrite != "" || f.Links || f.Elsewhere || f.ReadOnly {
			return fmt.Errorf("%sflag %v: only names, value, effects and replace are allowed", where(), f.Names)
		}
		if f.Replace && len(f.Effects) == 0 {
			return fmt.Errorf("%sflag %v: replace needs effects", where(), f.Names)
		}
	}
	if len(p.Subcommands) > 0 && len(p.Effects) == 0 {
		// With subcommands, a bare invocation has Other's effects or opaque-medium.
		p.Effects = p.Other
		if len(p.Effects) == 0 {
			p.Effects = []effects.Class{effects.OpaqueMedium}
		}
	}
	seen := map[string]bool{}
	for i := range p.Subcommands {
		s := &p.Subcommands[i]
		if s.Name == "" || strings.HasPrefix(s.Name, "-") || strings.ContainsAny(s.Name, " \t\n/") {
			return fmt.Errorf("%sbad subcommand name %q", where(), s.Name)
		}
		if seen[s.Name] {
			return fmt.Errorf("%ssubcommand %q twice", where(), s.Name)
		}
		seen[s.Name] = true
		if s.Operands == effects.NoPaths {
			s.Operands = effects.ReadPaths
		}
		if err := checkRuleShape(s, at+" "+s.Name, workspace); err != nil {
			return err
		}
	}
	return nil
}

// ruleOpts is the environment rule examples assume, as the table's do:
// cwd and workspace /ws, HOME /home/u, nothing on disk.
var ruleOpts = Options{Cwd: "/ws", Workspaces: []string{"/ws"}, Home: "/home/u", FS: noFS{}}

type noFS struct{}

func (noFS) EvalSymlinks(p string) (string, error) {
	if p == "/" {
		return p, nil
	}
	return "", fmt.Errorf("does not exist")
}
func (noFS) IsFile(string) bool { return false }

// checkRuleExamples classifies the examples of spec (the rule as written)
// with rules in place; final is the entry in effect for the program.
func checkRuleExamples(rules *Rules, spec, final *effects.Program, name string, workspace bool) error {
	opts := ruleOpts
	opts.Rules = rules
	var walk func(prefix string, s, f *effects.Program) error
	walk = func(prefix string, s, f *effects.Program) error {
		label := strings.TrimSpace(prefix + " " + s.Name)
		want := classNames(f.Effects)
		for _, ex := range s.Examples {
			r := Classify(ex, opts)
			got := resultClasses(r)
			if ref := refusalsOf(r); ref != "" {
				return fmt.Errorf("%s: example %q is refused (%s)", label, ex, ref)
			}
			if !taught(r, name) {
				return fmt.Errorf("%s: example %q does not run %s", label, ex, name)
			}
			if workspace {
				for _, c := range s.Effects {
					if !strings.Contains(" "+got+" ", " "+c.String()+" ") {
						return fmt.Errorf("%s: example %q classifies as [%s], which lacks %s", label, ex, got, c)
					}
				}
			} else if got != want {
				return fmt.Errorf("%s: example %q classifies as [%s], the rule says [%s]", label, ex, got, want)
			}
		}
		for _, ex := range s.NotExamples {
			if got := resultClasses(Classify(ex, opts)); got == want {
				return fmt.Errorf("%s: not-example %q classifies as the rule's own [%s]", label, ex, want)
			}
		}
		for i := range s.Subcommands {
			if err := walk(label, &s.Subcommands[i], f.Sub(s.Subcommands[i].Name)); err != nil {
				return err
			}
		}
		return nil
	}
	return walk("", spec, final)
}

func taught(r Result, name string) bool {
	for _, p := range r.Parts {
		if p.Rule != "" && (p.Program == name || strings.HasPrefix(p.Program, name+" ")) {
			return true
		}
	}
	return false
}

// classNames renders classes as a sorted, distinct, space-separated set,
// without read when other classes are present.
func classNames(cs []effects.Class) string {
	set := map[string]bool{}
	for _, c := range cs {
		set[c.String()] = true
	}
	if len(set) > 1 {
		delete(set, effects.Read.String())
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

func resultClasses(r Result) string {
	cs := make([]effects.Class, 0, len(r.Parts))
	for _, p := range r.Parts {
		cs = append(cs, p.Class)
	}
	return classNames(cs)
}

func refusalsOf(r Result) string {
	var rs []string
	for _, p := range r.Parts {
		if p.Refusal != "" {
			rs = append(rs, string(p.Refusal))
		}
	}
	return strings.Join(rs, ", ")
}

func cloneProgram(p *effects.Program) effects.Program {
	c := *p
	c.Effects = append([]effects.Class(nil), p.Effects...)
	c.Other = append([]effects.Class(nil), p.Other...)
	c.Flags = append([]effects.Flag(nil), p.Flags...)
	for i := range c.Flags {
		c.Flags[i].Effects = append([]effects.Class(nil), c.Flags[i].Effects...)
	}
	c.Subcommands = make([]effects.Program, len(p.Subcommands))
	for i := range p.Subcommands {
		c.Subcommands[i] = cloneProgram(&p.Subcommands[i])
	}
	if len(p.Subcommands) == 0 {
		c.Subcommands = nil
	}
	return c
}

// addEffects adds cs to every level of p: the entry, its Other, every
// replacing flag and every subcommand.
func addEffects(p *effects.Program, cs []effects.Class) {
	p.Effects = union(p.Effects, cs)
	if len(p.Other) > 0 || len(p.Subcommands) > 0 {
		other := p.Other
		if len(other) == 0 {
			other = []effects.Class{effects.OpaqueMedium}
		}
		p.Other = union(other, cs)
	}
	for i := range p.Flags {
		if p.Flags[i].Replace {
			p.Flags[i].Effects = union(p.Flags[i].Effects, cs)
		}
	}
	for i := range p.Subcommands {
		addEffects(&p.Subcommands[i], cs)
	}
}

func union(a, b []effects.Class) []effects.Class {
	out := append([]effects.Class(nil), a...)
	for _, c := range b {
		found := false
		for _, x := range out {
			found = found || x == c
		}
		if !found {
			out = append(out, c)
		}
	}
	return out
}

// ruleUnknownOption returns the first literal option in args that the rule
// entry e (at the subcommand level reached) does not declare, or "".
func ruleUnknownOption(e *effects.Program, args []field) string {
	level := e
	operands := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		if a.dynamic || len(v) < 2 || v[0] != '-' {
			if !a.dynamic && operands == 0 && len(level.Subcommands) > 0 {
				if s := level.Sub(v); s != nil {
					level = s
					continue
				}
			}
			operands++
			continue
		}
		if v == "--" {
			return ""
		}
		f, attached := ruleFlag(level, v)
		if f == nil {
			return v
		}
		if f.Value == effects.Arg && !attached {
			i++
		}
	}
	return ""
}

// ruleFlag finds the flag of p that v names; attached reports a value given
// in the same word (`--output=json`, `-ojson`).
func ruleFlag(p *effects.Program, v string) (*effects.Flag, bool) {
	for i := range p.Flags {
		f := &p.Flags[i]
		for _, n := range f.Names {
			switch {
			case v == n:
				return f, false
			case strings.HasPrefix(n, "--") && strings.HasPrefix(v, n+"=") && f.Value == effects.Arg:
				return f, true
			case !strings.HasPrefix(n, "--") && len(n) == 2 && strings.HasPrefix(v, n) && f.Value == effects.Arg:
				return f, true
			}
		}
	}
	return nil, false
}

// ruleOperandProgram returns the first literal argument naming (by its base
// name) a table entry that escalates privileges (priv) or runs programs or
// code, preferring a privileged one; "" when none does.
func ruleOperandProgram(args []field) (name string, priv bool) {
	for _, a := range args {
		if a.dynamic || a.value == "" {
			continue
		}
		base := path.Base(a.value)
		e := effects.Lookup(base)
		if e == nil {
			continue
		}
		for _, c := range e.Effects {
			if c == effects.Privilege {
				return base, true
			}
		}
		if name == "" && runsCode(e) {
			name = base
		}
	}
	return name, false
}
