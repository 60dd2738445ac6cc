package classifier

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// envAssign is an assignment, made in the line, to an environment variable
// that some program of the table reads ([effects.ReadByProgram]). Every
// assignment counts for the rest of the line once made, whatever its form
// (`VAR=x cmd`, `VAR=x`, `export`, `declare -x`, `env VAR=x`): a plain
// assignment reaches a program's environment only when the variable is
// exported already, which the classifier cannot know, so it is taken to
// be; one in front of a command may reach a shell function, `eval` or a
// builtin that runs the shell's own code. `unset` and `export -n` are not
// followed. A loop body that assigns one is walked again (walker.loop).
type envAssign struct {
	name    string
	value   string
	dynamic bool
	at      syntax.Node // the assignment (a *syntax.Assign, or env's word)
	span    syntax.Node // the part that names it: the command it is in
	ctx     callCtx     // where the shell was: a code value runs from there
	// done: a program that reads the variable was classified with it, or
	// its code value was classified ([walker.envLeftovers] skips it).
	done     bool
	codeDone bool
	// ambient: `export X` of a value the line did not assign, so it is
	// not known: a program it names is opaque-medium, not unidentifiable.
	ambient bool
	// where: the part span names and the text of at, taken when the
	// assignment is made (the walk's frame is gone by envLeftovers).
	where  Part
	atText string
	// paths: the variable is a list of directories programs load code
	// from ([effects.EnvVar.Paths]), judged where each program runs
	// (judged: some program was).
	paths  *effects.EnvVar
	judged bool
}

// newEnvAssign records an assignment of name at at, in the part span.
func (w *walker) newEnvAssign(name, value string, dynamic bool, at, span syntax.Node) *envAssign {
	a := &envAssign{name: name, value: value, dynamic: dynamic, at: at, span: span, ctx: processCtx(w.cwd, w.lcwd)}
	a.where = w.part(span, effects.OpaqueMedium, "", "")
	a.atText = w.textOf(at)
	return a
}

// partOf is a part of class for the assignment a, in the part that names it.
func (a *envAssign) partOf(class effects.Class, program, reason string) Part {
	p := a.where
	p.Class, p.Program, p.Reason = class, program, reason
	return p
}

// exportEnv records `export NAME` (or `declare -x NAME`) of a variable the
// line did not assign: its value is unknown.
func (w *walker) exportEnv(name string, at, span syntax.Node) {
	if v := effects.GenericEnv(name); v != nil {
		w.allKnown = false
		w.add(w.part(span, effects.OpaqueMedium, "", fmt.Sprintf("`%s` exports %s, which %s", brief(w.textOf(at)), name, v.Why)))
		return
	}
	if effects.ReadByProgram(name) {
		a := w.newEnvAssign(name, "", true, at, span)
		a.ambient = true
		w.env = append(w.env, a)
	}
}

// loopEnv records the variable of `for NAME in WORDS` (and `select`),
// which takes each word's value: in the environment when exported.
func (w *walker) loopEnv(l *syntax.WordIter, at syntax.Node, depth int) {
	if l.Name == nil {
		return
	}
	if _, ok := w.namerefs[l.Name.Value]; ok {
		// bash: a nameref loop variable is bound to each word's variable.
		target := ""
		if len(l.Items) == 1 && !isDynamicWord(l.Items[0], false) {
			if vs := w.word(l.Items[0]).values(); len(vs) == 1 {
				target = vs[0]
			}
		}
		w.namerefs[l.Name.Value] = target
		return
	}
	if name := cmp.Or(w.namerefs[l.Name.Value], l.Name.Value); effects.GenericEnv(name) == nil && !effects.ReadByProgram(name) && !(w.zsh() && zshRunsPrograms[name] != "") {
		return
	}
	if len(l.Items) == 0 && !l.InPos.IsValid() {
		w.setEnv(l.Name.Value, "", true, l.Name, at, depth) // `for X; do`: the positional parameters
		return
	}
	for _, it := range l.Items {
		if isDynamicWord(it, w.opts.Home != "") {
			w.setEnv(l.Name.Value, "", true, it, at, depth)
			continue
		}
		for _, v := range w.word(it).values() {
			w.setEnv(l.Name.Value, v, false, it, at, depth)
		}
	}
}

// nameref records `declare -n NAME=TARGET` (a's value is the target):
// assignments to NAME assign TARGET ([walker.assign]).
func (w *walker) nameref(a *syntax.Assign, at syntax.Node) {
	if w.namerefs == nil {
		w.namerefs = map[string]string{}
	}
	target := ""
	if a.Value != nil && !isDynamicWord(a.Value, false) {
		target, _, _ = strings.Cut(strings.Join(w.word(a.Value).values(), " "), "[")
	} else if a.Value == nil {
		target = a.Name.Value // `declare -n p` alone: no target yet
	}
	w.namerefs[a.Name.Value] = target
	if a.Value == nil || target == "" {
		return
	}
	if effects.GenericEnv(target) != nil || effects.ReadByProgram(target) {
		// The target's value may be exported already: it is not known.
		w.exportEnv(target, a, at)
	}
}

// readVars records the variables that `read`, `printf -v`, `getopts` and
// `mapfile` assign from their input (keyed on the entry): values only known
// at run time.
func (inv *invocation) readVars(e *effects.Program, args []field) {
	var names []string
	switch e.Name {
	case "read":
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case a.dynamic:
			case isOption(a.value):
				if f := findFlag(e, a.value[:2]); f != nil && f.Value != effects.NoValue && len(a.value) == 2 {
					i++ // -p PROMPT, -d DELIM, ...
					if (a.value == "-a" || a.value == "-A") && i < len(args) {
						names = append(names, args[i].value) // -a ARRAY
					}
				} else if j := strings.IndexAny(a.value, "aA"); j > 0 && j == len(a.value)-1 && i+1 < len(args) {
					i++
					names = append(names, args[i].value) // -ra ARRAY
				} else if j > 0 && j < len(a.value)-1 {
					names = append(names, a.value[j+1:]) // -aARRAY
				}
			default:
				names = append(names, a.value)
			}
		}
	case "mapfile", "readarray":
		name := "MAPFILE"
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch {
			case isOption(a.value) && !a.dynamic:
				if f := findFlag(e, a.value[:2]); f != nil && f.Value != effects.NoValue && len(a.value) == 2 {
					i++ // -d DELIM, -C CALLBACK, ...
				}
			default:
				name = a.value
			}
		}
		names = append(names, name)
	case "printf":
		for i := 0; i+1 < len(args); i++ {
			if args[i].value == "-v" {
				names = append(names, args[i+1].value)
			} else if v, ok := strings.CutPrefix(args[i].value, "-v"); ok && v != "" {
				names = append(names, v)
			}
		}
	case "getopts":
		if len(args) > 1 {
			names = append(names, args[1].value)
		}
	}
	for _, n := range names {
		if n, _, _ = strings.Cut(n, "["); n != "" {
			inv.w.setEnv(n, "", true, inv.at, inv.at, inv.depth)
		}
	}
}

// setEnv records the assignment name=value at at (SPEC §3 rule 8): a
// variable of [effects.Environment] counts for every program now, one a
// program reads ([effects.Program.Env]) for the programs that read it.
// span is the node whose span names the part (the command the assignment
// is in).
func (w *walker) setEnv(name, value string, dynamic bool, at, span syntax.Node, depth int) {
	if t := w.namerefs[name]; t != "" {
		name = t // `declare -n p=PATH; read p`
	}
	if why, ok := zshRunsPrograms[name]; ok && w.zsh() {
		// zsh's own (`for path in /tmp`, `read -A path`); an assignment
		// word's is zshAssign's.
		if as, ok := at.(*syntax.Assign); !ok || as.Name == nil {
			w.allKnown = false
			w.add(w.part(span, effects.OpaqueMedium, "", fmt.Sprintf("`%s` sets %s, which %s", brief(w.textOf(at)), name, why)))
		}
	}
	if v := effects.GenericEnv(name); v != nil {
		if v.Paths && !dynamic && w.opts.Platform != Windows {
			// (On Windows the list is `;`-separated, and MSYS rewrites a
			// `:`-separated one into drive paths: not followed.)
			// `PYTHONPATH=src pytest`: judged where each program runs.
			a := w.newEnvAssign(name, value, false, at, span)
			a.paths = v
			w.env = append(w.env, a)
			return
		}
		if v.Role == effects.EnvWrite {
			// Every program that reads it may write the file (SSLKEYLOGFILE).
			if dynamic || value != "" && (v.AnyValue || strings.HasPrefix(value, "/")) {
				part := w.part(span, effects.WriteOutside, "", fmt.Sprintf("`%s` sets %s, which %s", brief(w.textOf(at)), name, v.Why))
				if dynamic {
					w.write(part, "", true)
				} else {
					for _, p := range w.resolve(value, false) {
						w.write(part, p, p == "")
					}
				}
			}
			return
		}
		if len(v.Plain) > 0 && !dynamic && plainOptions(value, v.Plain) {
			return // NODE_OPTIONS=--max-old-space-size=4096
		}
		w.allKnown = false
		w.add(w.part(span, effects.OpaqueMedium, "", fmt.Sprintf("`%s` sets %s, which %s", brief(w.textOf(at)), name, v.Why)))
		if v.Role == effects.EnvCode {
			// Another program runs it, from the shell's directory.
			w.codeValue(envCode(name, value), dynamic, at, depth, processCtx(w.cwd, w.lcwd))
		}
		return
	}
	if effects.ReadByProgram(name) {
		w.env = append(w.env, w.newEnvAssign(name, value, dynamic, at, span))
	}
}

// envCode is the shell code of an [effects.EnvCode] variable's value: a
// function's body for BASH_FUNC_NAME (`() { body; }`), and less's input
// preprocessor without the marks before it (LESSOPEN='|-cmd %s', `||`).
func envCode(name, value string) string {
	switch {
	case strings.HasPrefix(name, "BASH_FUNC_"):
		return strings.TrimPrefix(strings.TrimSpace(value), "()")
	case name == "LESSOPEN":
		v := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(value), "|"), "|")
		return strings.TrimPrefix(v, "-")
	}
	return value
}

// runsRole reports whether an environment variable's role runs code.
func runsRole(r effects.EnvRole) bool {
	return r != effects.EnvOption && r != effects.EnvOptions && r != effects.EnvWrite
}

// applyEnv classifies the environment the line gave the invocation's
// program e (its entry's [effects.Program.Env]), before its arguments:
// variables that run code add their effects now, and those that are the
// program's options become option words (inv.envWords) that the entry or
// its subcommands take as their own ([invocation.envOptions]). The
// variables of the programs e runs ([effects.Program.EnvOf]) count when
// they run code.
func (inv *invocation) applyEnv(e *effects.Program) {
	for _, a := range inv.w.env {
		if a.paths != nil {
			inv.codePaths(a)
		}
	}
	if len(e.Env) > 0 {
		inv.envOf(e, true, "")
	}
	for _, of := range e.EnvOf {
		if o := effects.Lookup(of); o != nil {
			inv.envOf(o, false, fmt.Sprintf(" (%s runs %s)", e.Name, o.Name))
		}
	}
}

// codePaths classifies for the invocation the assignment a of a list of
// directories programs load code from ([effects.EnvVar.Paths]): each
// directory resolved where the program runs (an empty one is that
// directory) must lie inside the workspace, or the program may load code
// from elsewhere (`PYTHONPATH=/tmp/x pytest`, `PYTHONPATH=. env -C /tmp/x
// yq`). A directory starting with `~` is not followed (the shell may
// expand it after a colon).
func (inv *invocation) codePaths(a *envAssign) {
	a.judged = true
	w := inv.w
	for _, d := range strings.Split(a.value, ":") {
		var rs []string
		switch {
		case strings.HasPrefix(d, "~"):
			rs = []string{""}
		case d == "":
			rs = inv.runDirs
		default:
			rs = w.resolveIn(d, false, inv.runDirs)
		}
		for _, r := range rs {
			if l := w.locateCode(r); l != locInside && l != locRoot {
				w.allKnown = false
				where := "a directory only known at run time"
				if r != "" {
					where = w.describe(r, l)
				}
				w.add(a.partOf(effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` sets %s to %s, which %s", brief(a.atText), a.name, where, a.paths.Why)))
				return
			}
		}
	}
}

// envOf classifies, for the invocation, the variables of owner's Env that
// the line assigned; all says whether options count too (owner is the
// invocation's own entry) or only variables that run code, and via how
// they reach the program (" (go runs git)").
func (inv *invocation) envOf(owner *effects.Program, all bool, via string) {
	w := inv.w
	var config []*envAssign
	for _, a := range w.env {
		v := owner.ProgramEnv(a.name)
		if v == nil || !all && !runsRole(v.Role) {
			continue
		}
		a.done = true
		switch v.Role {
		case effects.EnvOption:
			inv.envWords = append(inv.envWords, envWord{field{value: envOptionName(v, a.name) + "=" + a.value, dynamic: a.dynamic, word: inv.wordOf(a)}, a, v.Why})
		case effects.EnvOptions:
			if a.dynamic {
				inv.envPart(a, fmt.Sprintf("sets %s only known at run time: %s", a.name, v.Why))
				continue
			}
			words := strings.Fields(a.value)
			if len(words) > 0 && v.Letters && !strings.HasPrefix(words[0], "-") && !strings.Contains(words[0], "=") {
				words[0] = "-" + words[0] // MAKEFLAGS=ks is -ks
			}
			for _, wd := range words {
				if wd == "--" {
					// What follows are variables (make's), which may be
					// SHELL or anything a recipe runs.
					inv.envPart(a, fmt.Sprintf("sets %s with %q, after which come variables: %s", a.name, wd, v.Why))
					break
				}
				inv.envWords = append(inv.envWords, envWord{field{value: wd, word: inv.wordOf(a)}, a, v.Why})
			}
		case effects.EnvConfig:
			config = append(config, a)
		case effects.EnvWrite:
			// A value exported from the environment as it was is the
			// user's own setting.
			if !a.ambient && (a.dynamic || strings.HasPrefix(a.value, "/")) {
				inv.writeOperand(a.partOf(effects.WriteOutside, inv.prog, ""), field{value: a.value, dynamic: a.dynamic})
			}
		default:
			if len(v.Plain) > 0 && !a.dynamic && !a.ambient && plainOptions(a.value, v.Plain) {
				continue // RUSTFLAGS=-Dwarnings
			}
			verb := "sets"
			if a.ambient {
				verb = "exports"
			}
			inv.envPart(a, fmt.Sprintf("%s %s, which %s%s", verb, a.name, v.Why, via))
			if v.Role == effects.EnvCode && !a.codeDone && !a.ambient {
				a.codeDone = true
				w.codeValue(envCode(a.name, a.value), a.dynamic, a.at, inv.depth, a.ctx)
			}
		}
	}
	if len(config) > 0 {
		inv.envConfig(owner, config, via)
	}
}

// envPart adds the opaque-medium part of an assignment a that changes what
// the invocation's program runs.
func (inv *invocation) envPart(a *envAssign, what string) {
	w := inv.w
	w.allKnown = false
	w.add(a.partOf(effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` %s", brief(a.atText), what)))
}

// wordOf is the word an option taken from assignment a stands at.
func (inv *invocation) wordOf(a *envAssign) *syntax.Word {
	if as, ok := a.at.(*syntax.Assign); ok && as.Value != nil {
		return as.Value
	}
	return nil
}

// envOptions applies the option words the environment gave (inv.envWords)
// that entry e knows, as if they came first on its command line; the rest
// wait for a subcommand, and those no level knows are not the program's
// (go ignores GOFLAGS flags a command does not take).
//
// A word that is no option and no option's value (`MAKEFLAGS='-j4
// SHELL=/tmp/x'`, a variable make takes; `PYTEST_ADDOPTS=tests/`) is
// opaque-medium; one after an option this level does not know waits with
// it when a subcommand may know the option and take it as its value.
func (inv *invocation) envOptions(e *effects.Program) {
	words := inv.envWords
	inv.envWords = nil
	waiting := false
	for i := 0; i < len(words); i++ {
		wd := words[i]
		if !wd.dynamic && !strings.HasPrefix(wd.value, "-") {
			if waiting {
				inv.envWords = append(inv.envWords, wd)
			} else {
				inv.envPart(wd.from, fmt.Sprintf("sets %s with %q, which is not an option: %s", wd.from.name, wd.value, wd.why))
			}
			continue
		}
		name, _, _ := strings.Cut(wd.value, "=")
		known := false
		if strings.HasPrefix(name, "--") || e.SingleDashLong {
			// By its name: the variable names the option exactly
			// (npm_config_global is --global, not a prefix of npm's
			// --globalconfig).
			known = findFlag(e, name) != nil
		} else if len(name) > 1 {
			known = findFlag(e, name[:2]) != nil
		}
		if !known {
			// A subcommand may know it (GOFLAGS' -toolexec is go test's);
			// with none, what follows may not be its value.
			waiting = len(e.Subcommands) > 0
			inv.envWords = append(inv.envWords, wd)
			continue
		}
		waiting = false
		rest := make([]field, 0, len(words)-i-1)
		for _, r := range words[i+1:] {
			rest = append(rest, r.field)
		}
		i += inv.option(e, wd.field, rest)
	}
}

// envWord is an option word the environment gives a program, with the
// assignment it comes from and why the variable matters.
type envWord struct {
	field
	from *envAssign
	why  string
}

// envConfig decodes git configuration from the environment (config, the
// line's assignments of owner's EnvConfig variables) like `git -c
// KEY=VALUE` (git-config(1) ENVIRONMENT): GIT_CONFIG_COUNT pairs of
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, and GIT_CONFIG_PARAMETERS. With
// no count in the line, every pair assigned counts (the count may be in the
// environment already); a count, key or parameter list only known at run
// time, or a pair the count needs that the line does not set, is
// configuration that is not known.
func (inv *invocation) envConfig(owner *effects.Program, config []*envAssign, via string) {
	w := inv.w
	opt := "-c"
	if v := owner.ProgramEnv("GIT_CONFIG_PARAMETERS"); v != nil && v.Option != "" {
		opt = v.Option
	}
	if len(config) > 2*maxEnvConfig+2 {
		inv.envPart(config[0], "sets more git configuration than the classifier follows, so git's configuration, which may name programs, is not known"+via)
		return
	}
	keys, values := map[int][]*envAssign{}, map[int][]*envAssign{}
	var counts, params []*envAssign
	for _, a := range config {
		switch {
		case a.name == "GIT_CONFIG_COUNT":
			counts = append(counts, a)
		case a.name == "GIT_CONFIG_PARAMETERS":
			params = append(params, a)
		case strings.HasPrefix(a.name, "GIT_CONFIG_KEY_"), strings.HasPrefix(a.name, "GIT_CONFIG_VALUE_"):
			_, num, _ := strings.Cut(a.name[len("GIT_CONFIG_"):], "_")
			n, err := strconv.Atoi(num)
			if err != nil || n < 0 || strconv.Itoa(n) != num {
				continue // git reads GIT_CONFIG_KEY_0, never GIT_CONFIG_KEY_00
			}
			if strings.HasPrefix(a.name, "GIT_CONFIG_KEY_") {
				keys[n] = append(keys[n], a)
			} else {
				values[n] = append(values[n], a)
			}
		}
	}
	if n := len(keys) + len(params); n > maxEnvConfig {
		inv.envPart(counts0(counts, params, keys), "sets more git configuration than the classifier follows, so git's configuration, which may name programs, is not known"+via)
		return
	}
	unknown := func(a *envAssign, what string) {
		inv.envPart(a, what+", so git's configuration, which may name programs, is not known"+via)
	}
	pairs := map[int]bool{}
	if len(counts) == 0 {
		for n := range keys {
			pairs[n] = true
		}
	}
	for _, c := range counts {
		n, err := strconv.Atoi(strings.TrimSpace(c.value))
		switch {
		case c.dynamic:
			unknown(c, "sets GIT_CONFIG_COUNT only known at run time")
		case err != nil || n < 0 || n > maxEnvConfig:
			unknown(c, "sets GIT_CONFIG_COUNT to a count the classifier does not follow")
		default:
			for i := range n {
				if len(keys[i]) == 0 {
					unknown(c, fmt.Sprintf("counts GIT_CONFIG_KEY_%d, which the line does not set", i))
					continue
				}
				pairs[i] = true
			}
		}
	}
	apply := func(kv string, dynamic bool, word *syntax.Word) {
		f := flagHit{flag: findFlag(owner, opt), name: opt, value: &field{value: kv, dynamic: dynamic, word: word}}
		if f.flag == nil {
			f.flag = &effects.Flag{Names: []string{opt}, Value: effects.Config}
		}
		inv.applyFlag(f)
	}
	ns := make([]int, 0, len(pairs))
	for n := range pairs {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	for _, n := range ns {
		vals := values[n]
		for _, k := range keys[n] {
			if len(vals) == 0 {
				// git refuses a key without a value: nothing runs.
				apply(k.value+"=", k.dynamic, inv.wordOf(k))
			}
			for _, v := range vals {
				if k.dynamic && !v.dynamic {
					// The key is not known; the value, which may be a
					// program git runs, is.
					unknown(k, "sets GIT_CONFIG_KEY_"+strconv.Itoa(n)+" only known at run time")
					w.codeValue(v.value, false, v.at, inv.depth, processCtx(unknownDirs, unknownDirs))
					continue
				}
				apply(k.value+"="+v.value, k.dynamic || v.dynamic, inv.wordOf(v))
			}
		}
	}
	for _, p := range params {
		if p.dynamic {
			unknown(p, "sets GIT_CONFIG_PARAMETERS only known at run time")
			continue
		}
		kvs, ok := gitConfigParameters(p.value)
		if !ok {
			unknown(p, "sets GIT_CONFIG_PARAMETERS in a form the classifier does not read")
			continue
		}
		for _, kv := range kvs {
			apply(kv, false, inv.wordOf(p))
		}
	}
}

// counts0 is an assignment of git's environment configuration to name in
// a reason: a count, a parameter list or the first key.
func counts0(counts, params []*envAssign, keys map[int][]*envAssign) *envAssign {
	if len(counts) > 0 {
		return counts[0]
	}
	if len(params) > 0 {
		return params[0]
	}
	first := -1
	for n := range keys {
		if first < 0 || n < first {
			first = n
		}
	}
	return keys[first][0]
}

// maxEnvConfig bounds the GIT_CONFIG_COUNT the classifier follows, and the
// pairs and parameter lists it decodes.
const maxEnvConfig = 64

// gitConfigParameters decodes GIT_CONFIG_PARAMETERS as git writes it
// (config.c, sq_quote): entries separated by spaces, each a single-quoted
// `'key=value'` (git before 2.31) or `'key'='value'`, where `'\”` is a
// quote. ok is false for anything else.
func gitConfigParameters(s string) (kvs []string, ok bool) {
	i := 0
	quoted := func() (string, bool) {
		if i >= len(s) || s[i] != '\'' {
			return "", false
		}
		var b strings.Builder
		i++
		for {
			j := strings.IndexByte(s[i:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(s[i : i+j])
			i += j + 1
			if strings.HasPrefix(s[i:], `\''`) || strings.HasPrefix(s[i:], `\!'`) {
				b.WriteByte(s[i+1]) // sq_quote writes ' and ! as '\'' and '\!'
				i += 3
				continue
			}
			return b.String(), true
		}
	}
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= len(s) {
			return kvs, true
		}
		k, ok := quoted()
		if !ok {
			return nil, false
		}
		if i < len(s) && s[i] == '=' {
			i++
			v, ok := quoted()
			if !ok {
				return nil, false
			}
			k += "=" + v
		} else if !strings.Contains(k, "=") {
			k += "=" // a key alone is `true` (git -c key)
		}
		if i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			return nil, false
		}
		kvs = append(kvs, k)
	}
}

// envLeftovers classifies, at the end of the line, the variables that run
// code (GIT_PAGER, RUSTC_WRAPPER, GIT_CONFIG_*) that no program reading
// them took, when some part runs code the classifier does not see (a
// check by name, project code, an unknown program): that code may run the
// program that reads them (`GIT_PAGER=x make test`, whose recipe may run
// git log).
func (w *walker) envLeftovers() {
	if len(w.env) == 0 {
		return
	}
	for _, a := range w.env {
		if a.paths != nil && !a.judged {
			// No program was seen to run with it: as any such variable.
			w.allKnown = false
			w.add(a.partOf(effects.OpaqueMedium, "", fmt.Sprintf("`%s` sets %s, which %s", brief(a.atText), a.name, a.paths.Why)))
		}
	}
	var runs *Part
	for i := range w.parts {
		switch w.parts[i].Class {
		case effects.Verify, effects.OpaqueLow, effects.OpaqueMedium:
			if w.parts[i].Program != "" {
				runs = &w.parts[i]
			}
		}
		if runs != nil {
			break
		}
	}
	if runs == nil {
		return
	}
	w.envOwners(runs.Text)
}

// envOwners classifies the assignments of w.env that no program reading
// them was seen to run with (not done), for each program whose variable
// runs code, as if the part text ran it: code that may run any program.
// A variable of a program's options (GOFLAGS, PYTEST_ADDOPTS, GIT_DIR as
// --git-dir) is opaque-medium when an option it gives may run code or move
// what the program reads or writes ([envOptionRisk]), and one naming a
// file the program writes (GIT_TRACE=/path) is that write.
func (w *walker) envOwners(text string) {
	for _, a := range w.env {
		if a.done || a.ambient {
			continue
		}
		for _, p := range effects.EnvOwners(a.name) {
			v := p.ProgramEnv(a.name)
			if v == nil {
				continue
			}
			via := fmt.Sprintf(" (`%s` runs code that may run %s)", brief(text), p.Name)
			switch v.Role {
			case effects.EnvOption, effects.EnvOptions:
				if why := envOptionRisk(p, v, a); why != "" {
					w.allKnown = false
					w.add(a.partOf(effects.OpaqueMedium, p.Name, fmt.Sprintf("`%s` sets %s %s%s", brief(a.atText), a.name, why, via)))
				}
			case effects.EnvWrite:
				if a.dynamic || strings.HasPrefix(a.value, "/") {
					part := a.partOf(effects.WriteOutside, p.Name, fmt.Sprintf("`%s` sets %s, which %s%s", brief(a.atText), a.name, v.Why, via))
					if a.dynamic {
						w.write(part, "", true)
						continue
					}
					for _, r := range w.resolveIn(a.value, false, a.ctx.dirs) {
						w.write(part, r, r == "")
					}
				}
			}
		}
	}
	owners := map[*effects.Program]bool{}
	for _, a := range w.env {
		if a.done {
			continue
		}
		for _, p := range effects.EnvOwners(a.name) {
			if v := p.ProgramEnv(a.name); v != nil && runsRole(v.Role) {
				owners[p] = true
			}
		}
	}
	names := make([]*effects.Program, 0, len(owners))
	for p := range owners {
		names = append(names, p)
	}
	slices.SortFunc(names, func(a, b *effects.Program) int { return strings.Compare(a.Name, b.Name) })
	for _, p := range names {
		a := w.env[0]
		inv := &invocation{w: w, at: a.span, text: brief(text), prog: p.Name, top: p.Name, typed: len(p.Name), depth: 1,
			ctx: a.ctx, dirs: a.ctx.dirs, runDirs: a.ctx.dirs, entry: p}
		inv.envOf(p, false, fmt.Sprintf(" (`%s` runs code that may run %s)", brief(text), p.Name))
		inv.emitFlags()
	}
}

// envOptionName is the option an [effects.EnvOption] variable named name
// stands for: its Option, or for `--*` the rest of a prefix name, lower
// case with `-` for `_` (PIP_TARGET is --target).
func envOptionName(v *effects.EnvVar, name string) string {
	if v.Option != "--*" {
		return v.Option
	}
	if v.Fold {
		name = effects.FoldEnv(name)
	}
	return "--" + strings.ReplaceAll(strings.ToLower(name[len(v.Name)-1:]), "_", "-")
}

// envOptionRisk says why the options the assignment a of p's variable v
// gives (its option words, or the option it is the value of) may run code
// or move what p reads or writes, or "" when each option p or one of its
// subcommands knows takes no value or a plain one (GOFLAGS=-mod=mod is
// plain, GOFLAGS=-toolexec=/tmp/x is not).
func envOptionRisk(p *effects.Program, v *effects.EnvVar, a *envAssign) string {
	if a.dynamic {
		return "to options only known at run time"
	}
	var words []string
	if v.Role == effects.EnvOption {
		words = []string{envOptionName(v, a.name) + "=" + a.value}
	} else {
		words = strings.Fields(a.value)
		if len(words) > 0 && v.Letters && !strings.HasPrefix(words[0], "-") && !strings.Contains(words[0], "=") {
			words[0] = "-" + words[0]
		}
	}
	value := false // the word is the value of the option before it
	for _, wd := range words {
		if value {
			value = false
			continue
		}
		if !strings.HasPrefix(wd, "-") {
			return fmt.Sprintf("with %q, which is not an option", wd)
		}
		name, _, attached := strings.Cut(wd, "=")
		fs := flagsBelow(p, name)
		if len(fs) == 0 && !strings.HasPrefix(name, "--") && len(name) > 2 {
			fs = flagsBelow(p, name[:2])
			attached = true // -j4
		}
		// One no level knows is not the program's, as when it runs itself
		// (go ignores GOFLAGS flags a command does not take).
		for _, f := range fs {
			if riskyFlag(f) {
				return fmt.Sprintf("with %s, an option of %s that may run code or move what it reads or writes", name, p.Name)
			}
			value = value || !attached && f.Value == effects.Arg
		}
	}
	return ""
}

// flagsBelow returns the flags named name of p and of its subcommands, at
// any depth.
func flagsBelow(p *effects.Program, name string) []*effects.Flag {
	var out []*effects.Flag
	if f := findFlag(p, name); f != nil {
		out = append(out, f)
	}
	for i := range p.Subcommands {
		out = append(out, flagsBelow(&p.Subcommands[i], name)...)
	}
	return out
}

// riskyFlag reports whether a flag may run code, or change what its program
// reads, writes or reaches: anything but an option with no value or a plain
// one and no effects beyond reading and verifying.
func riskyFlag(f *effects.Flag) bool {
	if f.Value != effects.NoValue && f.Value != effects.Arg && f.Value != effects.OptionalArg {
		return true
	}
	if f.Carries || f.Outside || f.Anywhere || f.HomeWrite != "" || f.Elsewhere {
		return true
	}
	for _, c := range f.Effects {
		if c != effects.Read && c != effects.Verify {
			return true
		}
	}
	return false
}

// varOperands judges the `NAME=VALUE` operands of an entry that takes
// variables on its command line and exports them to what it runs
// ([effects.Program.VarOperands], make): each as the assignment in front
// of the program would be (the [effects.Environment] variables, the
// entry's own [effects.Program.Env] with its options, and the variables
// of programs that run code, which a recipe may run), for this invocation
// only; and opaque-medium where the program expands the definition into
// code. An ordinary variable adds nothing here: the goal that is no check
// already runs the project's code (opaque-low).
func (inv *invocation) varOperands(e *effects.Program) {
	w := inv.w
	saved := w.env
	w.env = nil
	defer func() { w.env = saved }()
	for _, o := range inv.operands {
		at := syntax.Node(inv.at)
		if o.word != nil {
			at = o.word
		}
		if o.dynamic && w.mayHoldEquals(o) {
			// Whatever its literal start, the word may hold `=` once
			// expanded: a definition, whose `$(shell ...)` may run
			// (`X:=$(shell ...)` at once), or SHELL itself.
			inv.varCode(at, fmt.Sprintf("is only known at run time: %s takes a word with `=` as a variable definition, which it expands ($(shell ...) runs a command)", e.Name))
		}
		def, value, ok := strings.Cut(o.value, "=")
		if !ok || def == "" || strings.ContainsAny(def, " \t") {
			continue
		}
		op := ""
		name := strings.TrimRight(def, ":+?!")
		if name != def {
			op = def[len(name):]
		}
		switch {
		case o.dynamic:
		case op == "!":
			// `X!=CMD`: make runs CMD with its shell when it reads the line.
			inv.varCode(at, fmt.Sprintf("runs the shell command of the variable %s", name))
			w.codeValue(value, false, at, inv.depth, processCtx(inv.runDirs, inv.runDirs))
		case makeExpands(o.value):
			inv.varCode(at, fmt.Sprintf("defines %s with a function call, which %s expands ($(shell ...) runs a command)", name, e.Name))
		}
		if name == "" || strings.Contains(name, "$") {
			continue
		}
		// As `NAME=VALUE make`, for make and what its recipes run.
		w.setEnv(name, value, o.dynamic, at, inv.at, inv.depth)
		if v := e.ProgramEnv(name); v != nil && !exportable(name) && len(w.env) == 0 {
			// Only make's command line sets it (.SHELLFLAGS).
			w.env = append(w.env, w.newEnvAssign(name, value, o.dynamic, at, inv.at))
		}
	}
	if len(w.env) == 0 {
		return
	}
	for _, a := range w.env {
		if a.paths != nil {
			inv.codePaths(a)
		}
	}
	inv.envOf(e, true, "")
	if len(inv.envWords) > 0 {
		inv.envOptions(e) // MAKEFLAGS=-j4 is -j4
		inv.envWords = nil
	}
	w.envOwners(inv.text)
}

// mayHoldEquals reports whether the dynamic field f may hold `=` once
// expanded: a literal `=` in it, or an expansion whose values the line does
// not show to be free of it (`for t in a b; do make $t; done` is not).
func (w *walker) mayHoldEquals(f field) bool {
	if f.word == nil {
		return true
	}
	var parts func(ps []syntax.WordPart) bool
	parts = func(ps []syntax.WordPart) bool {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				if strings.Contains(p.Value, "=") {
					return true
				}
			case *syntax.SglQuoted:
				if strings.Contains(p.Value, "=") {
					return true
				}
			case *syntax.DblQuoted:
				if parts(p.Parts) {
					return true
				}
			case *syntax.ArithmExp:
				// a number
			case *syntax.ParamExp:
				if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Flags != nil {
					return true
				}
				v, ok := w.vars[p.Param.Value]
				if !ok || v == unknownValue || w.globVars[p.Param.Value] || strings.Contains(v, "=") {
					return true
				}
			default:
				return true
			}
		}
		return false
	}
	return parts(f.word.Parts)
}

// varCode adds the opaque-medium part of a variable operand the program
// expands into code.
func (inv *invocation) varCode(at syntax.Node, what string) {
	w := inv.w
	w.allKnown = false
	w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` %s", brief(w.textOf(at)), what)))
}

// exportable reports whether name can be an environment variable's name
// that make exports: letters, digits and underscores.
func exportable(name string) bool {
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return name != ""
}

// plainMakeRef matches a reference to a variable, which only expands to its
// value: `$(HOME)`, `${PREFIX}`, `$@`.
var plainMakeRef = regexp.MustCompile(`\$(?:\([A-Za-z0-9_.]*\)|\{[A-Za-z0-9_.]*\}|[^({$])|\$\$`)

// makeExpands reports whether a make variable definition holds a function
// call or a computed reference (`$(shell ls)`, `$(eval ...)`, `$($(x))`),
// which make expands when it reads or uses the variable.
func makeExpands(def string) bool {
	if !strings.Contains(def, "$") {
		return false
	}
	return strings.Contains(plainMakeRef.ReplaceAllString(def, ""), "$")
}

// declDump records for §5.5 a declaration that prints the environment:
// `export`, `declare` or `typeset` with no names (`export -p`, `declare
// -x`, `declare -p`), which print every variable's value, secrets
// included, like `env`, or with -p a secret one (`declare -p GITHUB_TOKEN`);
// `-f`/`-F` print functions instead.
func (w *walker) declDump(c *syntax.DeclClause) {
	switch c.Variant.Value {
	case "export", "declare", "typeset":
	default:
		return
	}
	var opts string
	names, secret := false, false
	for _, a := range c.Args {
		switch {
		case a.Naked && a.Name == nil && a.Value != nil:
			v := a.Value.Lit()
			if v == "" || v[0] != '-' && v[0] != '+' {
				return // a word only known at run time, or `declare a=b` quoted
			}
			opts += v
		case a.Naked && a.Name != nil && a.Value == nil:
			names = true
			secret = secret || isSecretVar(a.Name.Value) // `declare -p GITHUB_TOKEN` prints it
		default:
			return // an assignment: it declares
		}
	}
	if strings.ContainsAny(opts, "fF") || names && !(secret && strings.Contains(opts, "p")) {
		return
	}
	w.noteCredential(c, w.textOf(c))
	w.credential.Reason = "`" + brief(w.textOf(c)) + "` prints the environment, secrets included"
}

// jqEnv matches jq's builtins that read the environment: `env`, `$ENV`
// (jq, gojq, jaq) and yq's `env(NAME)`, `strenv(NAME)`.
var jqEnv = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$ENV\b|(^|[^\w$.])(str)?env\b`) })

// envDump records for §5.5 the invocations that print the environment
// other than env and printenv: `set` with no arguments (every variable),
// `ps e`/`ps -E` (each process's environment), a jq or yq filter that
// reads it.
func (inv *invocation) envDump(args []field) {
	w := inv.w
	if w.credential != nil {
		return
	}
	dump := false
	switch inv.key() {
	case "set":
		dump = len(args) == 0
	case "ps":
		for i, a := range args {
			switch {
			case a.dynamic:
			case strings.HasPrefix(a.value, "-"):
				dump = dump || !strings.HasPrefix(a.value, "--") && strings.Contains(a.value, "E")
			case i > 0 && psValue(args[i-1].value):
				// the value of -o, -p, -u, ... (`-o user,etime`)
			default:
				// BSD options without a dash: `e` shows the environment.
				dump = dump || strings.Contains(a.value, "e") && strings.Trim(a.value, "aAcCefghjlLmMnrsStTuvwxXZ") == ""
			}
		}
	case "jq", "yq":
		for _, a := range args {
			dump = dump || !a.dynamic && !strings.HasPrefix(a.value, "-") && jqEnv().MatchString(a.value)
		}
	}
	if dump {
		w.noteCredential(inv.at, inv.text)
		w.credential.Reason = "`" + brief(inv.text) + "` prints the environment, secrets included"
	}
}

// printedNames records for §5.5 an echo or printf that prints names of
// files of stored credentials (`echo ~/.ssh/id_rsa | xargs curl -T`): a
// later xargs or parallel runs its command on them, like on the names a
// find prints ([walker.printedCredentials]).
func (inv *invocation) printedNames(args []field) {
	w := inv.w
	if w.credentialNames {
		return
	}
	for _, a := range args {
		if a.dynamic || strings.HasPrefix(a.value, "-") {
			continue
		}
		if w.credentialPath(a.value) || a.glob && w.credentialGlob(a.value, globOpts{dots: true}) {
			w.credentialNames = true
			return
		}
		for _, j := range w.inCwd(a.value) {
			if w.credentialPath(j) {
				w.credentialNames = true
				return
			}
		}
	}
}

// plainOptions reports whether every word of value is an option of plain
// ([effects.EnvVar.Plain]): a word that is exactly a long plain option is
// one without a value; another word that is only an option's name (`-C`,
// `-D`, `--x`) takes the next word as its value, joined to it; a next word
// that is an option is not such a value.
func plainOptions(value string, plain []string) bool {
	words := strings.Fields(value)
	for i := 0; i < len(words); i++ {
		wd := words[i]
		if len(wd) > 2 && slices.Contains(plain, wd) {
			continue // a plain option without a value (NODE_OPTIONS' --enable-source-maps)
		}
		if len(wd) == 2 && wd[0] == '-' || strings.HasPrefix(wd, "--") && !strings.Contains(wd, "=") {
			if i+1 >= len(words) || strings.HasPrefix(words[i+1], "-") {
				return false // no value, or an option that may be one of its own (`-D -Clinker=x`)
			}
			i++
			if strings.HasPrefix(wd, "--") {
				wd += "="
			}
			wd += words[i]
		}
		if !slices.ContainsFunc(plain, func(p string) bool { return strings.HasPrefix(wd, p) }) {
			return false
		}
	}
	return true
}

// printsSecret records for §5.5 a command that prints a stored secret by
// what it is asked for: `kubectl get secret NAME -o yaml` (the values,
// where the default table prints names), `npm config get KEY` of an
// auth token or password.
func (inv *invocation) printsSecret(args []field) {
	w := inv.w
	if w.credential != nil || strings.HasSuffix(inv.key(), "api-resources") && !slices.Contains(strings.Fields(inv.text), "get") {
		return // kubectl's entry for get is also describe, logs, ...
	}
	secret, output := false, false
	for i, a := range args {
		v := asciiLower(a.value)
		switch {
		case a.dynamic:
			secret = secret || strings.HasSuffix(inv.key(), "config get")
		case strings.HasSuffix(inv.key(), "config get"):
			secret = secret || strings.Contains(v, "auth") || strings.Contains(v, "token") || strings.Contains(v, "password")
			output = true
		case v == "secret" || v == "secrets" || strings.HasPrefix(v, "secret/") || strings.HasPrefix(v, "secrets/") ||
			strings.Contains(v, ",secret") || strings.HasPrefix(v, "secret,") || strings.HasPrefix(v, "secrets,"):
			secret = true
		case v == "-o" || v == "--output":
			if i+1 < len(args) {
				o := asciiLower(args[i+1].value)
				output = output || args[i+1].dynamic || o != "name" && o != "wide"
			}
		case strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "--output="):
			o := strings.TrimPrefix(strings.TrimPrefix(v, "--output="), "-o")
			o = strings.TrimPrefix(o, "=")
			output = output || o != "name" && o != "wide"
		}
	}
	if secret && output {
		w.notePrinted(inv.at, inv.text)
	}
}

// psValue reports whether a ps option word takes the next word as its
// value (procps and BSD ps: -o FORMAT, -p PID, -u USER, --sort KEY, ...).
func psValue(opt string) bool {
	if len(opt) == 2 && opt[0] == '-' {
		return strings.IndexByte("oOpqtuUgGCkNMW", opt[1]) >= 0
	}
	switch opt {
	case "--format", "--sort", "--pid", "--ppid", "--user", "--User", "--group", "--Group", "--tty", "--sid", "--cols", "--columns", "--rows", "--width", "--lines":
		return true
	}
	return false
}
