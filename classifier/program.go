package classifier

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// systemDirs hold programs that are treated as the bare program (SPEC §3 rule 6).
var systemDirs = map[string]bool{"/bin": true, "/usr/bin": true, "/usr/local/bin": true,
	"/sbin": true, "/usr/sbin": true, "/opt/homebrew/bin": true}

// call classifies a simple command.
func (w *walker) call(c *syntax.CallExpr, depth int, red redirInfo) {
	// Past the part cap, a command identical to one already classified in
	// the same directory cannot add anything: skip it. This bounds lines
	// of thousands of repeated commands.
	if w.offered >= MaxParts {
		key := w.textOf(c) + "\x00" + strings.Join(w.cwd, "\x00")
		if w.seenCalls[key] {
			return
		}
		if w.seenCalls == nil {
			w.seenCalls = map[string]bool{}
		}
		w.seenCalls[key] = true
	}
	// The words expand before the assignments in front of them take
	// effect (`x=1 cmd $x` passes the old x).
	lits := w.substituted(c)
	if len(c.Assigns) > 0 && len(c.Args) > 0 {
		defer w.tempLits(c.Assigns)()
	}
	for _, a := range c.Assigns {
		w.assign(a, depth, c)
	}
	if len(c.Args) == 0 {
		w.add(w.part(c, effects.Read, "", ""))
		return
	}
	if lits != "" {
		w.readLiterals(c, lits, depth)
	}
	for _, a := range c.Args {
		w.wordSubst(a, depth+1)
	}
	ctx := w.shellCtx()
	if w.zsh() {
		for _, a := range c.Args {
			w.zshGlobs(a, depth+1)
		}
		if name, ok := equalsProgram(c.Args[0]); ok {
			// `=rm`: the program rm from $PATH, never a function.
			ctx.funcs = false
			args := append([]field{{value: name, word: c.Args[0]}}, w.fields(c.Args[1:])...)
			w.argv(args, c, depth, red, ctx)
			return
		}
	}
	w.argv(w.fields(c.Args), c, depth, red, ctx)
}

// argv classifies one program invocation given as fields, run in ctx; at is
// the node whose span names it.
func (w *walker) argv(args []field, at syntax.Node, depth int, red redirInfo, ctx callCtx) {
	from := len(w.parts)
	w.argvRun(args, at, depth, red, ctx)
	if w.credential == nil && len(args) > 1 {
		w.opaqueArgReads(args[1:], at, from, shellWithArgs(args))
	}
}

// shellWithArgs reports whether args run a shell's -c code with more
// words after it, which the code reads as $0, $1, "$@" (`sh -c 'cat "$1"'
// _ ~/.netrc`): what it does with them is only known at run time.
func shellWithArgs(args []field) bool {
	if args[0].dynamic {
		return false
	}
	e := effects.Lookup(path.Base(args[0].value))
	if e == nil || e.Special != effects.SpecialShell {
		return false
	}
	for i, a := range args[1:] {
		if a.dynamic || !strings.HasPrefix(a.value, "-") || a.value == "--" {
			return false
		}
		if !strings.HasPrefix(a.value, "--") && strings.Contains(a.value, "c") {
			return i+3 < len(args) // the code and at least one word after it
		}
	}
	return false
}

// opaqueArgReads records for §5.5 the arguments of a command that runs
// code the classifier does not see (a part from `from` on is opaque: a
// script, inline code, a project program, an unknown program or
// subcommand): what that code reads is not known, so an argument naming
// stored credentials counts as read (`python3 x.py ~/.netrc | nc`, `perl
// -pe 1 ~/.netrc`, `./tool ~/.ssh/id_rsa`, `make upload F=~/.netrc`), as
// an unknown program's arguments always have.
func (w *walker) opaqueArgReads(args []field, at syntax.Node, from int, opaque bool) {
	for _, p := range w.parts[min(from, len(w.parts)):] {
		if p.Class == effects.OpaqueLow || p.Class == effects.OpaqueMedium || p.Class == effects.OpaqueHigh {
			opaque = true
			break
		}
	}
	if !opaque {
		return
	}
	for _, f := range args {
		if f.dynamic || strings.ContainsAny(f.value, " \t\n") {
			continue
		}
		v := f.value
		if _, val, ok := strings.Cut(v, "="); ok {
			v = val // `--key=~/.netrc` is not expanded, `F=$HOME/.netrc` is
		}
		w.noteRead(at, strings.TrimPrefix(v, "@"), nil)
	}
}

// argvRun is [walker.argv] but for the arguments' reads.
func (w *walker) argvRun(args []field, at syntax.Node, depth int, red redirInfo, ctx callCtx) {
	if len(args) == 0 {
		return
	}
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	name := args[0]
	text := w.textOf(at)
	if name.dynamic || name.glob {
		p := w.part(at, effects.OpaqueHigh, "", fmt.Sprintf("the program of `%s` is only known at run time", text))
		w.allKnown = false
		w.add(p)
		return
	}
	prog := name.value
	if w.traceArgv != nil {
		w.traceArgv(prog, ctx)
	}
	if w.opts.Platform == Windows && strings.ContainsAny(prog, `\/`) {
		// `C:\Program Files\Git\usr\bin\rm.exe` is rm (SPEC rule 6).
		if p, ok := winPath(prog, w.opts.Home); ok && winProgramDir(dirOf(p)) {
			prog = path.Base(p)
		}
	}
	if strings.Contains(prog, "/") {
		if systemDirs[dirOf(prog)] {
			prog = path.Base(prog)
		} else {
			// The gate's own binary, by whatever path or link, is its entry
			// in the table (its rule-store commands are refused), not a
			// file that is not inspected.
			gate, other := w.gateBinary(prog, ctx.dirs)
			if e := w.installedPath(prog, ctx.dirs); other && e != nil {
				// `./node_modules/.bin/tsc`: what `npx tsc` runs.
				w.runEntry(e, prog, args, at, text, depth, red, ctx)
			} else if other {
				w.allKnown = false
				w.runFile(at, prog, text, ctx.dirs)
				w.runWritten(prog, at, depth, ctx)
			}
			if gate {
				// A path never runs a shell function: straight to the entry.
				w.runEntry(effects.Lookup(GateProgram), GateProgram, args, at, text, depth, red, ctx)
			}
			return
		}
	}
	w.noteHash(prog, args)
	w.noteWorkTree(prog, args)
	if to, ok := w.hashed[prog]; ok && ctx.funcs && w.funcs[prog] == nil {
		// `hash -p /bin/rm ls; ls -rf ~` runs /bin/rm.
		delete(w.hashed, prog) // once: `hash -p ls ls` runs ls
		moved := append([]field{{value: to}}, args[1:]...)
		w.argvRun(moved, at, depth, red, ctx)
		w.hashed[prog] = to
		return
	}
	if def := w.funcs[prog]; def != nil && ctx.funcs {
		// Only the shell calls its functions: `timeout 5 rm` and
		// `command rm` run the program rm.
		w.callFunc(def, at, prog, depth, red)
		return
	}
	e := w.lookup(prog)
	if re := w.opts.Rules.lookup(prog); e == nil && re != nil {
		// A user rule teaches a program the table does not know; its
		// operands and flags go through the same path and refusal logic.
		from := len(w.parts)
		if name, priv := ruleOperandProgram(args[1:]); name != "" {
			// A rule says its operands are files; it cannot say the
			// program does not run one. An operand naming a program that
			// escalates privileges or runs code is what it would be as a
			// command: a rule never makes `sudo` or `bash` cheaper.
			class := effects.OpaqueMedium
			if priv {
				class = effects.Privilege
			}
			w.add(w.part(at, class, prog, fmt.Sprintf("`%s` is given `%s`, a program that %s; rule %s does not say %s does not run it", brief(text), name, map[bool]string{true: "escalates privileges", false: "runs programs or code"}[priv], re.id, prog)))
		}
		if bad := ruleUnknownOption(re.entry, args[1:]); bad != "" {
			// A rule's options are a closed set: one it does not declare
			// may do anything the program can.
			w.add(w.part(at, effects.OpaqueMedium, prog, fmt.Sprintf("`%s` is not an option rule %s declares for %s, so what it does is not known", bad, re.id, prog)))
		}
		w.ruleOptions = true // ruleUnknownOption reports what the rule does not declare
		w.runEntry(re.entry, prog, args, at, text, depth, red, ctx)
		w.ruleOptions = false
		for i := from; i < len(w.parts); i++ {
			if w.parts[i].Program != "" {
				w.parts[i].Rule = re.id
			}
		}
		return
	}
	if e == nil {
		w.allKnown = false
		why := fmt.Sprintf("`%s` is not a known program, so what it does is not known", prog)
		if hasInvisible(prog) {
			why = fmt.Sprintf("`%s` contains invisible or lookalike characters, so it is not a known program", strings.ToValidUTF8(prog, "?"))
		}
		w.add(w.part(at, effects.OpaqueMedium, prog, why))
		if n := strings.ToLower(prog); n == "cmd" || n == "cmd.exe" {
			if code, ok := w.cmdCode(args[1:]); ok {
				w.foreignEffects(at, prog, code, false, ctx.dirs) // foreign.go
			}
		}
		// What an unknown program reads is unknown: any argument naming
		// stored credentials counts as read (SPEC §5.5).
		for _, f := range args[1:] {
			if !f.dynamic && !strings.ContainsAny(f.value, " \t\n") {
				w.noteRead(at, strings.TrimPrefix(f.value, "@"), nil)
			}
		}
		return
	}
	w.runEntry(e, prog, args, at, text, depth, red, ctx)
}

// runEntry classifies args (the program and its arguments) as the table's
// entry e for prog, run in ctx; a nil entry is an unknown program.
func (w *walker) runEntry(e *effects.Program, prog string, args []field, at syntax.Node, text string, depth int, red redirInfo, ctx callCtx) {
	if e == nil {
		w.allKnown = false
		w.add(w.part(at, effects.OpaqueMedium, prog, fmt.Sprintf("`%s` is not a known program, so what it does is not known", prog)))
		return
	}
	inv := &invocation{w: w, at: at, text: brief(text), prog: prog, top: e.Name, typed: len(prog), depth: depth, red: red, ctx: ctx, dirs: ctx.dirs, runDirs: ctx.dirs, rule: w.ruleOptions}
	saved := w.invAt
	w.tick++
	w.invAt = w.tick
	inv.run(e, args[1:])
	w.invAt = saved
}

func hasInvisible(s string) bool {
	for _, r := range s {
		if r > unicode.MaxASCII || !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}

// GateProgram is the table entry of the gate's own binary: a program that
// resolves to one of [Options.Binaries] is classified as this entry.
const GateProgram = "command-safety"

// runFile classifies running a program named by a path, from dirs.
func (w *walker) runFile(at syntax.Node, prog, text string, dirs []string) {
	if remoteCode(prog) {
		// `uv run https://x/y.py`: a package runner fetches it.
		w.add(w.part(at, effects.Network, prog, fmt.Sprintf("`%s` downloads %s", brief(text), prog)))
		w.add(w.part(at, effects.OpaqueMedium, prog, fmt.Sprintf("`%s` runs %s from the network, which is not inspected", brief(text), prog)))
		return
	}
	inside := true
	for _, p := range w.resolveIn(prog, false, dirs) {
		if l := w.locate(p); l != locInside && l != locRoot {
			inside = false
		}
	}
	if inside {
		p := w.part(at, effects.OpaqueLow, prog, fmt.Sprintf("`%s` runs %s, a file of the project that is not inspected", brief(text), prog))
		if !w.stagedRun(p, w.resolveIn(prog, false, dirs)) {
			w.add(p)
		}
		return
	}
	w.add(w.part(at, effects.OpaqueMedium, prog, fmt.Sprintf("`%s` runs %s, a program from outside the workspace", brief(text), prog)))
}

// invocation is one program with its arguments being classified.
type invocation struct {
	w    *walker
	at   syntax.Node
	text string
	prog string // the program as typed, and its subcommands: `gchmod`, `git push`
	top  string // the name of the program's entry (`chmod` for gchmod); see key
	// typed is the length of the typed program name at the start of prog.
	typed int
	depth int
	red   redirInfo
	ctx   callCtx  // what the invocation runs in
	rule  bool     // the entry is a user rule's, whose options the rule declares (ruleUnknownOption)
	dirs  []string // where the program works: the cwd, or -C DIR
	// runDirs are where the command the program carries runs: dirs, or
	// both dirs and the cwd for a project option (`npm --prefix d exec`).
	runDirs []string
	moved   bool // a directory option moved dirs: $PWD no longer names them
	// elsewhere: a flag makes the carried command run under another root
	// or on other hosts (`unshare -R d`, `parallel -S host`).
	elsewhere bool

	classes   []effects.Class
	why       string
	outside   bool
	operands  []field
	flags     []flagHit
	links     bool // the entry or a flag makes the written paths links
	ruleStore bool // the entry changes the permission-rule store (RuleStore, OtherRuleStore)
	replacing bool // a Replace flag took over the entry's effects (`php -l`)
	otherGoal bool // a goal runner was given a goal that does not verify by name
	readOnly  bool // a ReadOnly flag: the program only reads (`gzip -c`)
	inPlace   bool // an InPlace flag: the program rewrites its file operands (`gofmt -w`)
	// unknownOpts: an option the table does not know, or only abbreviates,
	// was given (a local request is no read then: localRequest).
	unknownOpts bool
	// unknownNames are the options an entry with open options did not
	// know, which a Closes flag makes unknown after all (closeOptions).
	unknownNames []string
	// flagWrites are the values of WritePath flags, classified once all
	// flags are known (writeFlagValues).
	flagWrites []field
	// target is `-t DIR` (`--target-directory`): every operand of a copy or
	// move then goes into DIR. Kept apart because flags are emitted (and
	// dropped) before the operands are classified.
	target *flagHit
	entry  *effects.Program
	args   []field // the arguments after the program or subcommand name
	// scripts are the words from the project script's name on, for an entry
	// whose operands name scripts or goals ([effects.Scripts]).
	scripts []field
	// bin are the words of a script runner's command that name a program
	// the project installed, not a script (`pnpm tsc --noEmit`), with its
	// entry (nil: unknown to the table); run classifies them last.
	bin      []field
	binEntry *effects.Program
	// envWords are options the environment gives the program (GOFLAGS,
	// GIT_DIR as --git-dir) that no level of its entry has taken yet
	// ([invocation.envOptions]).
	envWords []envWord
	// inherited are the options given before the subcommand being entered
	// that it declares too (`npm -g install`): applied as its own.
	inherited []flagHit
	// trees are the TreeDir and RepoDir options (`git --work-tree=/`):
	// the program's location classes land there too. They are resolved
	// where the program ends up ([invocation.treeDirs]): git takes a
	// relative --work-tree or GIT_DIR from the directory -C moved it to.
	trees       []flagHit
	treesLooked bool // the RepoDir options were checked (repoConfig)
	repoHere    bool // the top entry reads the repository where it runs (RepoConfig)
	// sources are the files a [effects.Flag.DeletesSources] flag deletes
	// when a special took them from the operands (tar's members); nil: the
	// operands.
	sources []field
}

type flagHit struct {
	flag  *effects.Flag
	name  string
	value *field
}

func (inv *invocation) has(names ...string) *flagHit {
	for i := range inv.flags {
		for _, n := range names {
			if inv.flags[i].name == n {
				return &inv.flags[i]
			}
		}
	}
	return nil
}

// run classifies e invoked with args (the arguments after the program or
// subcommand name).
func (inv *invocation) run(e *effects.Program, args []field) {
	top := inv.entry == nil
	inv.entry = e
	if top && len(inv.w.env) > 0 {
		inv.applyEnv(e)
	}
	if top && (e.Name == "read" || e.Name == "printf" || e.Name == "getopts" || e.Name == "mapfile" || e.Name == "readarray") {
		inv.readVars(e, args)
	}
	if top && e.Name == "git" && inv.w.gitWorkTree != nil {
		// `git config core.worktree / && git clean -fdx` cleans /.
		wt := *inv.w.gitWorkTree
		wt.value = "--work-tree=" + wt.value
		inv.envWords = append(inv.envWords, envWord{field: wt, why: "core.worktree was set earlier in the line"})
	}
	if len(inv.envWords) > 0 {
		inv.envOptions(e)
	}
	if top {
		inv.repoHere = e.RepoConfig
	}
	inv.args = args
	inv.ruleStore = e.RuleStore
	inv.classes = append(inv.classes[:0], e.Effects...)
	inv.why = e.Why
	inv.outside = inv.outside || e.Outside
	for _, h := range inv.inherited {
		inv.applyFlag(h)
	}
	inv.inherited = nil

	if len(args) == 1 && !args[0].dynamic && slices.Contains(e.VersionOnly, args[0].value) {
		// `psql --version`: it prints and exits.
		inv.classes, inv.why = append(inv.classes[:0], effects.Read), ""
		inv.emit()
		return
	}
	if pre, done := inv.special(e, args); done {
		return
	} else if pre != nil {
		args = pre
	}
	endOpts := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !endOpts && a.dynamic {
			if f, name := inv.w.fixedShortOption(e, a); f != nil {
				// `make -j$(nproc)`: the option, with a value only known at run time.
				inv.applyFlag(flagHit{flag: f, name: name, value: &field{value: "", dynamic: true, word: a.word}})
				continue
			}
		}
		if !endOpts && (!a.dynamic && isOption(a.value) || a.dynamic && inv.w.fixedLongOption(e, a)) {
			n := len(inv.flags)
			if a.value == "--" {
				f := findFlag(e, "--")
				if f == nil || !f.Carries {
					endOpts = !e.DashOptions // `cargo fmt -- --check`: rustfmt's options
					continue
				}
				inv.applyFlag(flagHit{flag: f, name: "--"}) // `distrobox enter box -- CMD`
			} else {
				i += inv.option(e, a, args[i+1:])
			}
			if len(inv.flags) > n && inv.flags[len(inv.flags)-1].flag.Carries {
				// The rest of the line is the command it runs.
				inv.codeOperandsSoFar(e)
				inv.writeFlagValues()
				inv.finishSpecial(e)
				inv.homeWrites(e)
				perPath := inv.flags[len(inv.flags)-1].flag.PerPath
				inv.emit()
				inv.emitFlags()
				if perPath {
					inv.carryPerPath(e, args[i+1:])
					return
				}
				if i+1 == len(args) && e.StartsShell {
					// `distrobox enter box --`: no command, the shell.
					inv.stdinScript()
					return
				}
				inv.carry(args[i+1:], inv.red.input())
				return
			}
			continue
		}
		if !endOpts && a.dynamic && !e.Zsh && inv.w.mayBeOption(a) && riskyOptions(e) {
			// `sort $o f`, `rg $p x`, `git diff "$@"`: the word may be any of
			// the options (SPEC §3 rule 9); it is classified as an operand too.
			inv.dynamicOption(a, "only known at run time")
		} else if !endOpts && a.glob && !a.dynamic && !e.Zsh && riskyOptions(e) && inv.w.globMayBeOption(a.value, inv.dirs) {
			inv.dynamicOption(a, "a glob that matches a file whose name starts with -")
		}
		// An operand.
		if len(e.Goals) > 0 {
			// A goal runner's operands are goals (`make test install`).
			if a.dynamic || !effects.IsCheck(e.Goals, a.value) {
				inv.otherGoal = true
			}
			inv.operands = append(inv.operands, a)
			continue
		}
		if inv.scripts == nil && len(inv.operands) == 0 && e.Scripts == effects.ScriptName && (a.dynamic || e.Sub(a.value) == nil) {
			// The project's script: its name and arguments from here on
			// (`npm run lint -- src`, `pnpm lint`).
			inv.scripts = args[i:]
			continue
		}
		if len(e.Subcommands) > 0 && len(inv.operands) == 0 && !endOpts && inv.scripts == nil && !inv.listing() {
			if a.dynamic {
				inv.unknownSub(e, a)
				return
			}
			if s := e.Sub(a.value); s != nil {
				// An option given before the subcommand that the subcommand
				// declares too is the subcommand's (`npm -g install x` is
				// `npm install -g x`: npm reads its options anywhere).
				inv.inherited = inv.inherited[:0]
				for _, h := range inv.flags {
					// Also when f is h.flag: the generated table shares a
					// subcommand's flags that are its program's own.
					if f := findFlag(s, h.name); f != nil {
						inv.inherited = append(inv.inherited, flagHit{flag: f, name: h.name, value: h.value})
					}
				}
				inv.writeFlagValues()
				inv.emitFlags()
				inv.flags, inv.replacing, inv.readOnly, inv.inPlace = nil, false, false, false
				inv.prog += " " + s.Name
				inv.run(s, args[i+1:])
				return
			}
			if e.Operands == effects.NoPaths || e.Other != nil {
				if e.Pathspecs {
					// `git checkout other -- a.go`: a revision, then pathspecs.
					inv.operands = append(inv.operands, a)
					for _, r := range args[i+1:] {
						if r.dynamic || !isOption(r.value) {
							inv.operands = append(inv.operands, r)
						}
					}
					inv.finishSpecial(e)
				}
				inv.unknownSub(e, a)
				return
			}
		}
		if e.Operands == effects.Command && len(inv.operands) >= e.Skip {
			inv.codeOperandsSoFar(e)
			inv.writeFlagValues()
			inv.finishSpecial(e)
			inv.homeWrites(e)
			if entry, ok := inv.installed(e, a); ok {
				// The project's own installation: that program alone.
				inv.emitFlags()
				inv.runInstalled(entry, args[i:])
				return
			}
			inv.emit()
			inv.emitFlags()
			inv.carry(args[i:], inv.red.input())
			return
		}
		inv.operands = append(inv.operands, a)
		if endOpts || e.Operands == effects.Command {
			continue
		}
	}
	if len(e.Goals) > 0 && len(inv.operands) > 0 {
		if e.VarOperands {
			inv.varOperands(e)
		}
		inv.installDirs()
		// Every goal verifies by name, or one runs whatever its recipe is.
		inv.classes, inv.why = []effects.Class{effects.Verify}, ""
		if inv.otherGoal {
			inv.classes, inv.why = slices.Clone(e.Other), e.Why
			if len(inv.classes) == 0 {
				inv.classes = slices.Clone(e.Effects)
			}
		}
	}
	if len(e.DeleteVerbs) > 0 && len(e.Subcommands) == 0 {
		inv.deleteVerb(e)
	}
	inv.writeFlagValues()
	inv.finishSpecial(e)
	if inv.localRequest(e, args) {
		inv.classes, inv.why = append(inv.classes[:0], effects.Read), ""
	}
	inv.checkScripts(e, args)
	if e.ReadOperands > 0 && len(inv.operands) <= e.ReadOperands && !inv.replacing && !slices.ContainsFunc(inv.operands, func(o field) bool { return o.dynamic }) {
		inv.classes, inv.why = append(inv.classes[:0], effects.Read), "" // `git symbolic-ref HEAD`
	}
	inv.closeOptions()
	inv.homeWrites(e)
	inv.links = e.Links
	for _, h := range inv.flags {
		inv.links = inv.links || h.flag.Links && (h.value == nil || h.flag.Applies(h.value.value, h.value.dynamic))
	}
	if t := inv.has("-t", "--target-directory"); t != nil && (e.Operands == effects.CopyPaths || e.Operands == effects.MovePaths) {
		hit := *t
		inv.target = &hit
	}
	inv.treeReads(e) // before emitFlags drops the flags
	inv.emit()
	if inv.target != nil { // `cp -t DIR SRC`: DIR gets SRC's files
		inv.w.copying, inv.w.copyInto = true, baseNames(inv.operands)
	}
	inv.emitFlags()
	inv.w.copying, inv.w.copyInto = false, nil
	fetching := inv.w.fetching
	inv.w.fetching = slices.Contains(inv.classes, effects.Network) // `git clone URL dir`: a tree
	inv.operandsEffects(e)
	inv.w.fetching = fetching
	inv.stageEntry()
	if e.Joined && !inv.replacing {
		// No command: the shell it starts reads its commands from stdin.
		inv.fedShell()
	}
	if e.StartsShell && !inv.replacing {
		// No command: the user's shell, here, reading stdin.
		inv.stdinScript()
	}
	if e.StdinCommands != effects.NoValue && !inv.replacing {
		inv.stdinCommands(e)
	}
	if inv.bin != nil {
		inv.runInstalled(inv.binEntry, inv.bin)
	}
}

// listing reports whether a flag seen so far puts the program in its
// listing mode ([effects.Flag.Lists]): its operands are patterns.
func (inv *invocation) listing() bool {
	for _, h := range inv.flags {
		if h.flag.Lists {
			return true
		}
	}
	return false
}

// treeReads records for §5.5 the directories that the entry or a
// [effects.Flag.Tree] flag makes the program read whole (`grep -r . ~`,
// `zip -r - ~`, `cp -a ~ h`, `7z a x ~`): one at or above a home
// directory of stored credentials reads them. A copy's destination and an
// archive are not read.
func (inv *invocation) treeReads(e *effects.Program) {
	tree := e.Tree
	for _, h := range inv.flags {
		tree = tree || h.flag.Tree
	}
	if !tree || inv.w.credential != nil {
		return
	}
	ops := inv.operands[min(e.Skip, len(inv.operands)):]
	switch inv.operandRole() {
	case effects.ReadPaths:
		if len(ops) <= 1 {
			// A search with a pattern and no path reads the working
			// directory (`cd ~ && grep -r pass`, `rg -uu key`).
			ops = append(slices.Clip(ops), field{value: "."})
		}
	case effects.CopyPaths:
		if inv.has("-t", "--target-directory") == nil && len(ops) > 0 {
			ops = ops[:len(ops)-1]
		}
	case effects.ArchiveFirst:
		if len(ops) > 0 {
			ops = ops[1:]
		}
	default:
		return
	}
	for _, o := range ops {
		if !o.dynamic && !inv.remote(o.value) {
			inv.w.noteTree(inv.at, o.value, inv.dirs)
		}
	}
}

// homeWrites classifies the implicit home writes of the entry and its flags
// (`npm config set` writes ~/.npmrc): home writes are protected (SPEC §5.2).
func (inv *invocation) homeWrites(e *effects.Program) {
	w := inv.w
	var hw []string
	if !inv.readOnly || len(inv.operands) > 0 { // `poetry config --list` only reads what `poetry config` writes
		hw = append(hw, e.HomeWrite)
	}
	for _, h := range inv.flags {
		hw = append(hw, h.flag.HomeWrite)
	}
	seen := map[string]bool{}
	for _, f := range hw {
		if f == "" || seen[f] {
			continue
		}
		seen[f] = true
		base := w.part(inv.at, effects.WriteOutside, inv.prog, "")
		if w.opts.Home == "" {
			w.write(base, "", true)
			continue
		}
		p := w.opts.Home + strings.TrimPrefix(f, "~")
		loc := w.locate(p)
		base.Reason = fmt.Sprintf("`%s` writes %s", inv.text, w.describe(p, loc))
		w.write(base, p, false)
	}
}

func isOption(v string) bool { return len(v) > 1 && v[0] == '-' }

// key names the invocation's entry: its name and its subcommands' (`chmod`
// for gchmod, `npm run` for npm rum). Behaviour is keyed on it, never on
// the typed name, so that every alias of an entry behaves alike. It is prog
// itself unless the program was typed under an alias.
func (inv *invocation) key() string {
	if inv.prog[:inv.typed] == inv.top {
		return inv.prog
	}
	return inv.top + inv.prog[inv.typed:]
}

// carried is the context of the command the invocation carries: a process
// in the invocation's run directories (or, for `builtin` and `command`, the
// shell itself, without its functions).
func (inv *invocation) carried() callCtx {
	c := processCtx(inv.runDirs, inv.ctx.ldirs)
	if inv.moved {
		c.ldirs = inv.runDirs // a chdir leaves $PWD behind; the child's pwd is physical
	}
	if inv.entry != nil && inv.entry.InShell {
		c.shell = inv.ctx.shell
	}
	if inv.entry != nil && inv.entry.ZshFuncs && inv.w.zsh() && inv.ctx.funcs {
		// zsh's exec and precommand modifiers run functions too.
		c.funcs, c.shell = true, c.shell || inv.entry.InShell
	}
	return c
}

// shellDialect is the dialect a shell entry reads code in (`zsh -c CODE`).
func (inv *invocation) shellDialect() Dialect {
	d, _ := ParseDialect(inv.entry.Shell)
	if inv.entry.Shell == "" {
		d = Bash
	}
	return d
}

// carry classifies the command args the invocation runs (`timeout 5 CMD`):
// where the invocation's directory options put it, or elsewhere.
func (inv *invocation) carry(args []field, red redirInfo) {
	inv.carryIn(args, red, inv.carried())
}

// carryIn is [invocation.carry] in ctx, unless the command runs elsewhere
// (`docker exec web CMD`, `unshare -R d CMD`).
func (inv *invocation) carryIn(args []field, red redirInfo, ctx callCtx) {
	w := inv.w
	if inv.entry != nil && inv.entry.Joined {
		inv.joined(args, ctx)
		return
	}
	if inv.elsewhere || inv.entry != nil && inv.entry.Elsewhere {
		w.elsewhere(func(ctx callCtx) { w.argv(args, inv.at, inv.depth+1, red, ctx) })
		return
	}
	w.argv(args, inv.at, inv.depth+1, red, ctx)
}

// joined classifies the words of a [effects.Program.Joined] entry's
// command: joined with spaces, they are the code a shell runs (`wsl rm -rf
// ~`); after an Exec flag, each word as it is (quoted for the parse).
func (inv *invocation) joined(args []field, ctx callCtx) {
	exec := false
	for _, h := range inv.flags {
		exec = exec || h.flag.Exec
	}
	code := make([]string, 0, len(args))
	for _, a := range args {
		if a.dynamic {
			inv.opaqueHigh("a command only known at run time")
			return
		}
		if exec {
			code = append(code, shellQuote(a.value))
		} else {
			code = append(code, a.value)
		}
	}
	inv.shellCode(strings.Join(code, " "), inv.at, ctx)
}

// shellCode classifies shell code that a new shell started by the
// invocation runs (`sh -c CODE`, `flock f -c CODE`, `watch CMD`), in ctx.
func (inv *invocation) shellCode(code string, at syntax.Node, ctx callCtx) {
	w := inv.w
	if inv.elsewhere || inv.entry != nil && inv.entry.Elsewhere {
		w.elsewhere(func(ctx callCtx) { w.newShell(code, at, inv.depth, ctx) })
		return
	}
	w.newShell(code, at, inv.depth, ctx)
}

func (inv *invocation) unknownSub(e *effects.Program, a field) {
	cls := e.Other
	if cls == nil {
		cls = []effects.Class{effects.OpaqueMedium}
	}
	if slices.Contains(inv.classes, effects.HistoryRewrite) && e.Pathspecs {
		cls = append([]effects.Class{effects.HistoryRewrite}, cls...) // finishSpecial found `--`
	}
	inv.classes = append([]effects.Class(nil), cls...)
	inv.ruleStore = e.OtherRuleStore
	name := a.value
	if a.dynamic {
		name = "a subcommand only known at run time"
	}
	inv.why = fmt.Sprintf("%s is not a known subcommand of %s, so it is treated conservatively", name, inv.prog)
	// What it reads is not known either: an argument naming stored
	// credentials counts as read (SPEC §5.5), as an unknown program's does
	// (`glab snippet create ~/.netrc`, `gcloud storage cp ~/.netrc gs://x`,
	// `az rest --body @~/.netrc`).
	for _, x := range inv.args[max(slices.Index(inv.args, a), 0):] {
		if x.dynamic || strings.ContainsAny(x.value, " \t\n") {
			continue
		}
		v := x.value
		if _, val, ok := strings.Cut(v, "="); ok && strings.HasPrefix(v, "-") {
			v = val
		}
		inv.w.noteRead(inv.at, strings.TrimPrefix(v, "@"), nil)
	}
	if len(e.DeleteVerbs) > 0 {
		// A delete verb among the words (`compute instances delete`, `ec2
		// terminate-instances`) deletes remote resources; an option's
		// value that spells one errs on the side of refusing.
		for _, x := range inv.args[max(slices.Index(inv.args, a), 0):] {
			if x.dynamic || isOption(x.value) {
				continue
			}
			if effects.IsDeleteVerb(e.DeleteVerbs, x.value) {
				inv.classes = append(inv.classes, effects.Deletion)
				inv.outside = true
				inv.why = fmt.Sprintf("%s %s deletes remote resources", inv.prog, x.value)
				break
			}
		}
	}
	inv.writeFlagValues()
	inv.homeWrites(e)
	inv.emit()
	inv.emitFlags()
}

// option handles one option word; it returns how many following args it consumed.
func (inv *invocation) option(e *effects.Program, a field, rest []field) int {
	v := a.value
	long := strings.HasPrefix(v, "--") || e.SingleDashLong
	if long {
		typed, val, hasVal := strings.Cut(v, "=")
		f, name, m := longFlag(e, typed)
		if m != matchExact {
			inv.unknownOption(e, typed, m)
		}
		if f == nil {
			inv.unknownOutput(e, a, typed, val, hasVal, rest)
			return 0
		}
		hit := flagHit{flag: f, name: name}
		consumed := 0
		if hasVal {
			hit.value = &field{value: val, dynamic: a.dynamic, glob: a.glob, word: a.word}
		} else if takesValue(f.Value) && f.Value != effects.OptionalArg && len(rest) > 0 &&
			(m != matchMaybe || f.Value == effects.Dir || f.Value == effects.ProjectDir) {
			// A prefix the program may not take keeps the next word an
			// operand, except a directory's (see [effects.LongUnknown]).
			hit.value = &rest[0]
			consumed = 1
		}
		if hit.value != nil {
			consumed += min(int(f.More), len(rest)-consumed) // `bwrap --bind SRC DEST`
		}
		inv.applyFlag(hit)
		return consumed
	}
	// A cluster of short options: -rf, -ofile, -C dir.
	odd := !closedOptions(e) && inv.oddCluster(e, v)
	for j := 1; j < len(v); j++ {
		name := shortOption(v[j])
		f := findFlag(e, name)
		if f == nil {
			inv.unknownOption(e, name, matchNone)
			continue
		}
		if odd && f.Replace {
			continue // `kill -KILL` is no `kill -l`
		}
		hit := flagHit{flag: f, name: name}
		if takesValue(f.Value) {
			if j+1 < len(v) {
				hit.value = &field{value: v[j+1:], word: a.word}
				inv.applyFlag(hit)
				return min(int(f.More), len(rest))
			}
			if f.Value != effects.OptionalArg && len(rest) > 0 {
				hit.value = &rest[0]
				inv.applyFlag(hit)
				return 1 + min(int(f.More), len(rest)-1)
			}
		}
		inv.applyFlag(hit)
	}
	return 0
}

func takesValue(v effects.Value) bool { return v != effects.NoValue }

// carryPerPath classifies the command (args, up to a `;`) that a
// [effects.Flag.PerPath] flag runs on each path found below the search
// paths (the operands after the entry's Skip, or `.`): `{}` and its
// variants name such a path, or it is added at the end. A path below a
// search path is a glob of what is below it, as find's `{}` is; a search
// path only known at run time makes it unknown.
func (inv *invocation) carryPerPath(e *effects.Program, args []field) {
	if j := slices.IndexFunc(args, func(a field) bool { return !a.dynamic && a.value == ";" }); j >= 0 {
		args = args[:j]
	}
	if len(args) == 0 {
		return
	}
	for _, o := range inv.operands[:min(e.Skip, len(inv.operands))] {
		// A pattern names the files found (`fd -H id_rsa ~ -x cat`).
		if !o.dynamic {
			inv.w.noteRead(inv.at, o.value, nil)
		}
	}
	roots := inv.operands[min(e.Skip, len(inv.operands)):]
	if len(roots) == 0 {
		roots = []field{{value: "."}}
	}
	for _, r := range roots {
		found := field{value: startChild(r), glob: true, dynamic: r.dynamic}
		if r.dynamic {
			found.value = ""
		}
		inner := make([]field, 0, len(args)+1)
		placed := false
		for _, x := range args {
			if !x.dynamic && strings.Contains(x.value, "{") && strings.Contains(x.value, "}") &&
				(strings.Contains(x.value, "{}") || strings.Contains(x.value, "{/}") || strings.Contains(x.value, "{//}") ||
					strings.Contains(x.value, "{.}") || strings.Contains(x.value, "{/.}")) {
				x = found
				placed = true
			}
			inner = append(inner, x)
		}
		if !placed {
			inner = append(inner, found)
		}
		inv.carryIn(inner, redirInfo{}, inv.carried())
	}
}

// deleteVerb classifies a delete verb among the operands of an entry with
// [effects.Program.DeleteVerbs] and no subcommands, or among their
// `:`-separated parts (`heroku apps:destroy x`, `doctl compute droplet
// delete x`): it deletes remote resources (SPEC §3 rule 13).
func (inv *invocation) deleteVerb(e *effects.Program) {
	for _, o := range inv.operands {
		if o.dynamic {
			continue
		}
		for seg := range strings.SplitSeq(o.value, ":") {
			if effects.IsDeleteVerb(e.DeleteVerbs, seg) {
				inv.classes = append(inv.classes, effects.Deletion)
				inv.outside = true
				inv.why = fmt.Sprintf("%s %s deletes remote resources", inv.prog, o.value)
				return
			}
		}
	}
}

// oddCluster reports whether the cluster v holds a letter e does not know
// before any letter that takes the rest as its value: then the word may be
// no cluster at all (`kill -KILL` and `-SIGKILL` name a signal), and a
// letter in it that replaces the program's effects with fewer (`kill -l`
// lists signals) does not apply; unknown options take the program's
// conservative entry (SPEC §3 rule 9).
func (inv *invocation) oddCluster(e *effects.Program, v string) bool {
	for j := 1; j < len(v); j++ {
		f := findFlag(e, shortOption(v[j]))
		if f == nil {
			return true
		}
		if takesValue(f.Value) {
			return false
		}
	}
	return false
}

// shortOptions holds `-` and each ASCII byte, for shortOption.
var shortOptions = func() string {
	b := make([]byte, 0, 2*utf8.RuneSelf)
	for c := range utf8.RuneSelf {
		b = append(b, '-', byte(c))
	}
	return string(b)
}()

// shortOption is "-" + string(rune(c)), the name of a short option in a
// cluster (`-la`), without building it for an ASCII letter: a cluster's
// letters are looked up and recorded for every command that has one.
func shortOption(c byte) string {
	if c < utf8.RuneSelf {
		return shortOptions[2*int(c) : 2*int(c)+2]
	}
	return "-" + string(rune(c)) // as the cluster's reason has always named it
}

// mayBeOption reports whether a word only known at run time may expand to
// an option: it does not start with a literal other than `-` (`./$x`,
// `src/$f` and `$((n))` cannot), and it is not a variable whose values the
// line gave and none of which starts with `-` (`for p in ./a ./b; do go
// test "$p"`), or the file names of a glob (`for f in *.go`; a glob operand
// is a file name too). `$x`, `"$x"`, `"$@"`, `${a[@]}`, `$(cmd)` and `-$x`
// may.
func (w *walker) mayBeOption(f field) bool {
	if f.word == nil || len(f.word.Parts) == 0 {
		return true
	}
	parts := f.word.Parts
	if dq, ok := parts[0].(*syntax.DblQuoted); ok && len(parts) == 1 {
		parts = dq.Parts
	} else if ok {
		parts = dq.Parts
		if len(parts) == 0 {
			return false // `""x`: x
		}
		parts = parts[:1]
	}
	if len(parts) == 0 {
		return false
	}
	switch p := parts[0].(type) {
	case *syntax.Lit:
		return p.Value == "" || p.Value[0] == '-'
	case *syntax.SglQuoted:
		return p.Value == "" || p.Value[0] == '-'
	case *syntax.ArithmExp:
		return false // a number: `head -n $((n))`, at worst `-5`
	case *syntax.CmdSubst:
		return !w.printsCount(p.Stmts) // `make -j $(nproc)`
	case *syntax.ParamExp:
		if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Flags != nil {
			return true
		}
		if w.globVars[p.Param.Value] {
			return false
		}
		v, ok := w.vars[p.Param.Value]
		if !ok || v == unknownValue {
			return true
		}
		for _, x := range strings.Fields(v) {
			if strings.HasPrefix(x, "-") {
				return true
			}
		}
		return false
	}
	return true
}

// riskyOptions reports whether some option of e changes what the program
// does ([effects.Flag.Changes]), or e's handler reads actions among its
// words (find): a word only known at run time in an option position of
// such an entry may be one of them.
func riskyOptions(e *effects.Program) bool {
	if v, ok := riskyCache.Load(e); ok {
		return v.(bool)
	}
	risky := e.Special == effects.SpecialFind
	for i := range e.Flags {
		risky = risky || e.Flags[i].Changes()
	}
	riskyCache.Store(e, risky)
	return risky
}

// riskyCache remembers riskyOptions per table entry (the table is fixed).
var riskyCache sync.Map

// fixedLongOption reports whether a word only known at run time is one long
// option with a value whatever it expands to: every part is literal text,
// and the option's name and its `=` come before any character a shell may
// expand, so that only the value is unknown (`-run=^TestX$`,
// `--new-from-rev=HEAD~1`, `--stat=~/x`: patterns or a tilde only to zsh,
// with EXTENDED_GLOB or MAGIC_EQUAL_SUBST, and every match keeps the
// literal start), or an expansion in double quotes (`--base="$REV"`). The
// flag's kind of value then judges the unknown value. An unquoted
// expansion is not: it may split into more words.
func (w *walker) fixedLongOption(e *effects.Program, a field) bool {
	if !w.oneWordValue(a) {
		return false
	}
	l, ok := a.word.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	head := l.Value
	if i := strings.IndexAny(head, "*?[]()<>^#|~{},\\$`!@+"); i >= 0 {
		head = head[:i]
	}
	eq := strings.IndexByte(head, '=')
	if strings.HasPrefix(head, "--") {
		return eq > 2
	}
	return e.SingleDashLong && strings.HasPrefix(head, "-") && eq > 1
}

// fixedShortOption returns the flag of e that a word only known at run
// time names when it is `-X` and a value that stays one word (`make
// -j$(nproc)`, `-j"$N"`): a short option that takes a value, whose value is
// then only known at run time.
func (w *walker) fixedShortOption(e *effects.Program, a field) (*effects.Flag, string) {
	if e.SingleDashLong || !w.oneWordValue(a) || len(a.word.Parts) < 2 {
		return nil, ""
	}
	l, ok := a.word.Parts[0].(*syntax.Lit)
	if !ok || len(l.Value) != 2 || l.Value[0] != '-' || l.Value[1] == '-' {
		return nil, ""
	}
	f := findFlag(e, l.Value)
	if f == nil || !takesValue(f.Value) {
		return nil, ""
	}
	return f, l.Value
}

// oneWordValue reports whether a's word is literal text, expansions in
// double quotes that make one word each, and unquoted substitutions that
// print one count ([walker.printsCount]): whatever it expands to, it is
// one word, and its literal start stays its start.
func (w *walker) oneWordValue(a field) bool {
	if a.word == nil || len(a.word.Parts) == 0 {
		return false
	}
	for _, p := range a.word.Parts {
		switch x := p.(type) {
		case *syntax.CmdSubst:
			if !w.printsCount(x.Stmts) {
				return false
			}
		case *syntax.Lit:
		case *syntax.SglQuoted:
			if x.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			// Quoted, an expansion is one word (`--new-from-rev="$BASE"`),
			// except the ones that make several (`"$@"`, `"${a[@]}"`,
			// zsh's `"${(f)x}"`).
			for _, q := range x.Parts {
				switch y := q.(type) {
				case *syntax.Lit, *syntax.CmdSubst:
				case *syntax.ParamExp:
					if !isSimpleParam(y) || y.Param.Value == "@" || y.Param.Value == "*" {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// dynamicOption classifies a word only known at run time (what says why)
// in an option position of an entry with risky options: opaque-medium,
// since what it makes the program do is not known before it runs.
func (inv *invocation) dynamicOption(a field, what string) {
	w := inv.w
	w.allKnown = false
	text := a.value
	if a.word != nil {
		text = w.textOf(a.word)
	}
	w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` may be an option of %s, %s (it could make %s write, delete or run a program)", brief(text), inv.prog, what, inv.prog)))
}

// match says how an option word matched one of an entry's flags.
type match uint8

const (
	matchNone      match = iota // no flag: an option the table does not know
	matchExact                  // a name as listed, or a prefix or negation the program takes
	matchMaybe                  // a prefix of one flag's name that the program may not take (LongUnknown)
	matchAmbiguous              // a prefix of several flags' names: the program refuses it
)

// negated is the flag a git option negation resolves to (`--no-decorate`):
// it turns an option off and adds nothing.
var negated = effects.Flag{}

// longFlag returns the flag the long option typed (`--in-pl`, `-name` for a
// single-dash program) is for the entry, matched the way the program
// matches it ([effects.LongOptions]); the name it stands for (`--in-place`:
// handlers look flags up by their listed names); and how it matched.
func longFlag(e *effects.Program, typed string) (*effects.Flag, string, match) {
	if f := findFlag(e, typed); f != nil {
		return f, typed, matchExact
	}
	if !strings.HasPrefix(typed, "--") || len(typed) < 3 || e.LongOptions == effects.LongExact {
		return nil, typed, matchNone
	}
	f, name, m := prefixFlag(e.Flags, typed)
	switch e.LongOptions {
	case effects.LongUnknown:
		if m == matchExact {
			m = matchMaybe
		}
	case effects.LongGit:
		if base, ok := strings.CutPrefix(typed, "--no-"); ok && m == matchNone && base != "" {
			if findFlag(e, "--"+base) != nil {
				return &negated, typed, matchExact
			}
			if _, _, bm := prefixFlag(e.Flags, "--"+base); bm == matchExact {
				return &negated, typed, matchExact
			}
		}
	}
	return f, name, m
}

// prefixFlag returns the one flag of fs with a long name that typed is a
// prefix of, and that name: matchExact when there is one, matchAmbiguous
// when several flags share the prefix.
func prefixFlag(fs []effects.Flag, typed string) (*effects.Flag, string, match) {
	var hit *effects.Flag
	name := typed
	for i := range fs {
		f := &fs[i]
		for _, n := range f.Names {
			if strings.HasPrefix(n, "--") && strings.HasPrefix(n, typed) {
				if hit != nil && hit != f {
					return nil, typed, matchAmbiguous // the program refuses it
				}
				if hit == nil {
					name = n
				}
				hit = f
			}
		}
	}
	if hit == nil {
		return nil, typed, matchNone
	}
	return hit, name, matchExact
}

// closedOptions reports whether e's options are a closed world: its plain
// effects are read or verify, so it can be allowed, and an option it does
// not list may be one that writes or runs code (SPEC §3 judgment calls).
// An entry that cannot be allowed keeps its options open: an option it does
// not know takes no value, so the words after it stay operands and are
// classified as what the entry does to them; one that really took a value
// would only make the entry do less than classified.
func closedOptions(e *effects.Program) bool {
	if e.OpenOptions != "" || len(e.Effects) == 0 {
		return false
	}
	for _, c := range e.Effects {
		if c != effects.Read && c != effects.Verify {
			return false
		}
	}
	return true
}

// unknownOption classifies an option name that matched no flag of e as m
// says: opaque-medium with a reason naming it when e's options are closed.
// Words after a project script's name, and every word of an entry that
// passes its words to the script ([effects.ScriptArgs]), are the script's
// arguments, which [effects.ScriptWrites] judges instead.
func (inv *invocation) unknownOption(e *effects.Program, name string, m match) {
	inv.unknownOpts = true
	if inv.rule || inv.scripts != nil || e.Scripts == effects.ScriptArgs || name == "--help" || name == "--version" || e.SingleDashLong && (name == "-help" || name == "-version") {
		return
	}
	if !closedOptions(e) {
		inv.unknownNames = append(inv.unknownNames, name)
		return
	}
	w := inv.w
	why := fmt.Sprintf("`%s` is not an option command-safety knows for %s, so what it does is not known", name, inv.key())
	switch m {
	case matchAmbiguous:
		why = fmt.Sprintf("`%s` abbreviates more than one option of %s, so what it does is not known", name, inv.key())
	case matchMaybe:
		why = fmt.Sprintf("`%s` is not an option command-safety knows for %s (it may abbreviate one), so what it does is not known", name, inv.key())
	}
	w.allKnown = false
	w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, why))
}

// unknownOutput treats the value of a long option the table does not know
// whose name says it is where the program writes (`cargo build --out-dir
// DIR`, `--output-dir`, `--outdir`, `--dest`, `--pack-destination`,
// `--build-dir`) as a path it writes: an open option set lets an unknown
// option pass, but not a write outside the workspace read as one inside.
// Its value is `--name=VALUE` or the next word when that is no option.
func (inv *invocation) unknownOutput(e *effects.Program, a field, name, val string, hasVal bool, rest []field) {
	if inv.rule || inv.scripts != nil || e.Scripts == effects.ScriptArgs || inv.replacing || !strings.HasPrefix(name, "--") || !outputOptionName(name) {
		return // the options of a script or of what a runner runs are its own
	}
	if hasVal && (val == "none" || val == "-" || val == "stdout") {
		return // `dart format --output=none`
	}
	var v field
	switch {
	case hasVal && val != "":
		v = field{value: val, dynamic: a.dynamic, glob: a.glob, word: a.word}
	case !hasVal && len(rest) > 0 && (rest[0].dynamic || !isOption(rest[0].value)):
		v = rest[0]
	default:
		return
	}
	inv.flagWrites = append(inv.flagWrites, v)
}

// outputOptionName reports whether a long option's name (without its
// dashes) says its value is an output file or directory.
func outputOptionName(name string) bool {
	n := strings.ToLower(strings.TrimLeft(name, "-"))
	n = strings.NewReplacer("-", "", "_", "").Replace(n)
	if n == "out" || n == "output" {
		return true // `yarn pack --out F`, `--output F`
	}
	for _, w := range []string{"outdir", "outputdir", "outputpath", "outfile", "outputfile", "outpath", "destdir", "destination", "dest",
		"targetdir", "builddir", "distdir", "artifactdir", "installdir", "sitedir", "doctreedir", "cachedir", "wheeldir"} {
		if strings.HasSuffix(n, w) {
			return true
		}
	}
	return false
}

// closeOptions classifies the options an entry with open options did not
// know when a [effects.Flag.Closes] flag makes it only read or verify: each
// may be one that writes, as in a closed world (unknownOption).
func (inv *invocation) closeOptions() {
	closes := false
	for _, h := range inv.flags {
		closes = closes || h.flag.Closes
	}
	if !closes {
		return
	}
	w := inv.w
	for _, name := range inv.unknownNames {
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` is not an option command-safety knows for %s, so what it does is not known", name, inv.key())))
	}
}

// findFlag returns the flag of e named name exactly, or nil.
func findFlag(e *effects.Program, name string) *effects.Flag { return e.FindFlag(name) }

// applyFlag records a flag and what its value means.
func (inv *invocation) applyFlag(h flagHit) {
	w := inv.w
	if inv.flags == nil {
		inv.flags = make([]flagHit, 0, 4) // one allocation for the few most commands have
	}
	inv.flags = append(inv.flags, h)
	// `--check=false`: a boolean option turned off takes over nothing.
	off := h.flag.Value == effects.NoValue && h.value != nil && (h.value.dynamic || falseValue(h.value.value))
	inv.readOnly = inv.readOnly || h.flag.ReadOnly && !off
	inv.inPlace = inv.inPlace || h.flag.InPlace
	if h.flag.Replace && !off {
		inv.replacing = true
		inv.classes = append([]effects.Class(nil), h.flag.Effects...)
		if h.flag.Why != "" {
			inv.why = h.flag.Why
		}
	}
	if h.flag.Outside {
		inv.outside = true
	}
	if h.flag.Elsewhere {
		inv.elsewhere = true
	}
	if h.flag.Credential {
		w.noteCredential(inv.at, inv.text)
		w.credential.Reason = fmt.Sprintf("`%s` reads stored credentials (%s)", brief(inv.text), h.flag.Why)
	}
	if h.value == nil {
		return
	}
	val := *h.value
	switch h.flag.Value {
	case effects.WritePath:
		inv.flagWrites = append(inv.flagWrites, val) // see writeFlagValues
	case effects.ReadPath:
		if !val.dynamic {
			w.noteReadValue(inv.at, val.value, val.glob)
		} else {
			w.noteDynamicRead(inv.at, val.word)
		}
	case effects.Dir, effects.ProjectDir:
		inv.moved = true
		if val.dynamic {
			inv.dirs, inv.runDirs = unknownDirs, unknownDirs
			break
		}
		moved := w.resolveIn(val.value, false, inv.runDirs)
		if h.flag.Value == effects.ProjectDir {
			// The carried command runs there or where it was.
			moved = unionDirs(inv.runDirs, moved)
		}
		inv.dirs, inv.runDirs = w.resolveIn(val.value, false, inv.dirs), moved
	case effects.TreeDir, effects.RepoDir:
		inv.trees = append(inv.trees, h)
	case effects.CodePath:
		inv.codePath(val)
	case effects.Mode:
		if val.dynamic {
			w.add(w.part(inv.at, effects.SystemChange, inv.prog, fmt.Sprintf("`%s` sets a mode only known at run time", inv.text)))
		} else if setuidMode(val.value) {
			p := w.part(inv.at, effects.Privilege, inv.prog, fmt.Sprintf("`%s` sets a setuid or setgid bit", inv.text))
			p.Refusal = effects.PrivilegeEscalation
			w.add(p)
		}
	case effects.ShellCode:
		ctx := inv.carried()
		ctx.dialect = Sh
		inv.nestedFieldIn(val, ctx)
	case effects.DebuggerCommand:
		inv.debuggerCommand(val)
	case effects.ClientCommands:
		inv.clientCommands(val)
	case effects.ReplCommands:
		inv.replCommands(inv.entry, val)
	case effects.SSHOption:
		inv.sshOption(val)
	case effects.ProgramArg:
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` makes %s run the program %q, which is not inspected", inv.text, inv.prog, val.value)))
		code := strings.TrimPrefix(val.value, "exec=")
		if h.flag.Fed && !val.dynamic {
			code = fedCode(code)
		}
		w.codeValue(code, val.dynamic, inv.at, inv.depth, inv.carried())
	case effects.Config:
		if key, value, _ := strings.Cut(val.value, "="); val.dynamic || configRunsProgram(key, val.value) {
			w.allKnown = false
			w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` sets %s, which makes git run a program", inv.text, key)))
			if !val.dynamic && strings.HasPrefix(strings.TrimSpace(value), "ext::") {
				inv.gitExtURL(field{value: strings.TrimSpace(value)})
			}
			if configIsCode(key, value) {
				// git runs it later from the top of the work tree, which
				// git finds at run time.
				w.codeValue(value, val.dynamic, inv.at, inv.depth, processCtx(unknownDirs, unknownDirs))
			}
		}
	}
}

// stdinCommands classifies what a program that reads its own commands from
// stdin is fed ([effects.Program.StdinCommands]): a pipe, a file outside the
// workspace or an input only known at run time is code that cannot be
// identified (`cat /tmp/x | sqlite3`, `psql < /tmp/x.sql`), a literal
// here-document, or a pipe from echo or printf of literal words, is a value
// of the entry's kind (`gdb <<< 'shell rm -rf ~'`, `echo '.shell rm -rf ~' |
// sqlite3`). Its operands after the first are scanned for shell escapes
// too (`sqlite3 app.db '.shell rm -rf ~'`).
func (inv *invocation) stdinCommands(e *effects.Program) {
	if len(e.Escapes) > 0 && len(inv.operands) > 1 {
		for _, o := range inv.operands[1:] {
			inv.replCommands(e, o)
		}
	}
	red := inv.red
	switch {
	case red.script != nil && !red.scriptDyn:
		inv.docCommands(e, field{value: *red.script})
	case red.stdin == stdinPipe && red.pipeText != nil && !red.scriptDyn && !red.stdinDyn:
		// A pipe from echo or printf of literal words carries a literal
		// document (`echo 'select 1' | sqlite3 app.db`), as `<<<` does.
		inv.docCommands(e, field{value: *red.pipeText})
	case red.scriptDyn || red.stdinDyn || red.stdin == stdinPipe:
		inv.opaqueHigh(fmt.Sprintf("the commands fed to %s at run time", inv.prog))
	case red.stdinFile != "" && !red.stdinNull:
		inv.commandsFrom(red.stdinFile)
	}
}

// docCommands classifies a literal document of commands fed to a program
// that reads its own commands from stdin, in the entry's language.
func (inv *invocation) docCommands(e *effects.Program, doc field) {
	switch e.StdinCommands {
	case effects.DebuggerCommand:
		for _, line := range strings.Split(doc.value, "\n") {
			inv.debuggerCommand(field{value: line})
		}
	case effects.ClientCommands:
		inv.clientCommands(doc)
	default:
		inv.replCommands(e, doc)
	}
}

// commandsFrom classifies the commands of the program's own language it
// reads from file path (stdin, `.read FILE`, `\\i FILE`): from outside the
// workspace they cannot be identified.
func (inv *invocation) commandsFrom(path string) {
	w := inv.w
	if l := w.locate(path); l != locInside && l != locRoot {
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueHigh, inv.prog, fmt.Sprintf("`%s` runs the commands of %s, from outside the workspace", inv.text, path)))
	}
}

// debuggerCommand classifies a [effects.DebuggerCommand] value: its shell
// forms run code in a shell.
func (inv *invocation) debuggerCommand(val field) {
	if val.dynamic {
		inv.opaqueHigh("a debugger command only known at run time")
	} else if code, ok := debuggerShell(val.value); ok {
		ctx := inv.carried()
		ctx.dialect = Sh
		inv.shellCode(code, inv.at, ctx)
	}
}

// replCommands classifies a [effects.ReplCommands] value of entry e: a line
// holding one of its [effects.Program.Escapes] is classified as what the
// escape runs, writes or reads; the rest is the client's language, not
// analysed.
func (inv *invocation) replCommands(e *effects.Program, val field) {
	if val.dynamic || e == nil || len(e.Escapes) == 0 {
		return
	}
	for _, line := range strings.Split(val.value, "\n") {
		for _, hit := range escapeHits(e.Escapes, line) {
			inv.replEscape(hit.esc, hit.rest)
		}
	}
}

// escapeHit is an escape found in a line of a client's language, with the
// rest of the line after its name.
type escapeHit struct {
	esc  *effects.Escape
	rest string
}

// escapeHits finds the escapes of a line: the command at its start, and
// every backslash command in it (psql and mysql run `select 1 \g |cmd` and
// `select 1; \! cmd` as well). A name matches an escape as a whole, or as
// a prefix of it the client takes ([effects.Escape.Abbrev]).
func escapeHits(escs []effects.Escape, line string) []escapeHit {
	line = strings.TrimSpace(line)
	var hits []escapeHit
	for p := 0; p < len(line); p++ {
		if p > 0 && line[p] != '\\' {
			continue
		}
		var name string
		if line[p] == '\\' {
			n := p + 1
			for n < len(line) && isNameByte(line[n]) {
				n++
			}
			if n == p+1 && n < len(line) {
				n++ // a one-character command: \! or \.
			}
			name = line[p:n]
		} else {
			name, _, _ = strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
		}
		for i := range escs {
			if escapeNamed(&escs[i], name) {
				hits = append(hits, escapeHit{esc: &escs[i], rest: strings.TrimSpace(line[p+len(name):])})
				break
			}
		}
	}
	return hits
}

// escapeNamed reports whether a command typed as name is escape e.
func escapeNamed(e *effects.Escape, name string) bool {
	full, typed := e.Name, name
	if e.Fold {
		full, typed = strings.ToLower(full), strings.ToLower(typed)
	}
	return typed == full || e.Abbrev > 0 && len(typed) >= e.Abbrev && strings.HasPrefix(full, typed)
}

// replEscape classifies escape e with the rest of its line.
func (inv *invocation) replEscape(e *effects.Escape, rest string) {
	w := inv.w
	if e.After != "" {
		i := indexWordFold(rest, e.After)
		if i < 0 {
			return
		}
		rest = strings.TrimSpace(rest[i+len(e.After):])
		if word := replWords(rest); len(word) > 0 {
			rest = word[0] // the quoted command of `program 'CMD'`
		}
	}
	if e.Pipe {
		if word := replWords(rest); len(word) > 0 && strings.HasPrefix(word[0], "|") {
			if strings.HasPrefix(rest, "|") {
				rest = rest[1:] // unquoted: the whole rest, whatever the client splits
			} else {
				rest = word[0][1:]
			}
			inv.replShell(rest)
			if e.Arg == effects.ReplCommands {
				inv.opaqueHigh(fmt.Sprintf("the commands a shell command feeds %s", inv.prog))
			}
			return
		}
	}
	switch e.Arg {
	case effects.ShellCode:
		inv.replShell(rest)
	case effects.WritePath, effects.ReadPath, effects.CodePath, effects.ReplCommands:
		for _, word := range replWords(rest) {
			if word == "" || strings.HasPrefix(word, "-") {
				continue // an option (`.once -x`, `.open --new`)
			}
			if w.opts.Home != "" && (word == "~" || strings.HasPrefix(word, "~/")) {
				word = w.opts.Home + word[1:] // psql expands it; taken as expanded wherever
			}
			val := field{value: word}
			switch e.Arg {
			case effects.WritePath:
				inv.writeValue(val)
			case effects.ReadPath:
				w.noteReadValue(inv.at, word, false)
			case effects.ReplCommands:
				ps := w.resolveIn(word, false, inv.dirs)
				if len(ps) != 1 || ps[0] == "" {
					inv.opaqueHigh(fmt.Sprintf("the commands of %s, a file only known at run time", word))
					continue
				}
				inv.commandsFrom(ps[0])
			default:
				inv.codePath(val)
			}
		}
	}
}

// replShell classifies code a client's escape runs in a shell.
func (inv *invocation) replShell(code string) {
	w := inv.w
	w.allKnown = false
	w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` makes %s run shell code", brief(inv.text), inv.prog)))
	ctx := inv.carried()
	ctx.dialect = Sh
	inv.shellCode(code, inv.at, ctx)
}

// replWords splits the arguments of a client's command as its lexer does:
// at blanks, with '...' and "..." quoting (two single quotes inside single
// quotes are one, as in SQL).
func replWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			in = true
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == c {
					if c == '\'' && j+1 < len(s) && s[j+1] == '\'' {
						cur.WriteByte(c)
						j++
						continue
					}
					break
				}
				cur.WriteByte(s[j])
			}
			i = j
		case c == ' ' || c == '\t':
			if in || cur.Len() > 0 {
				out = append(out, cur.String())
			}
			cur.Reset()
			in = false
		default:
			in = true
			cur.WriteByte(c)
		}
	}
	if in || cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// indexWordFold is the index of word in s as a whole word, whatever its
// case, or -1.
func indexWordFold(s, word string) int {
	for j := 0; j+len(word) <= len(s); j++ {
		end := j + len(word)
		if strings.EqualFold(s[j:end], word) && (j == 0 || !isNameByte(s[j-1])) && (end == len(s) || !isNameByte(s[end])) {
			return j
		}
	}
	return -1
}

// uploadVerbs are the commands of file-transfer clients (ftp, lftp, sftp,
// smbclient, ncftp) whose words name local files they send.
var uploadVerbs = map[string]bool{"put": true, "mput": true, "reput": true, "append": true, "mirror": true, "sput": true, "send": true, "upload": true}

// clientCommands classifies a [effects.ClientCommands] value: each word of
// an upload command may name a local file read and sent (§5.5), and a `!`
// command runs shell code. A value only known at run time may read anything.
func (inv *invocation) clientCommands(val field) {
	w := inv.w
	if val.dynamic {
		w.noteDynamicRead(inv.at, val.word)
		return
	}
	for _, cmd := range strings.FieldsFunc(val.value, func(r rune) bool { return r == ';' || r == '\n' }) {
		cmd = strings.TrimSpace(cmd)
		if code, ok := strings.CutPrefix(cmd, "!"); ok {
			w.allKnown = false
			w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` makes %s run shell code", brief(inv.text), inv.prog)))
			w.codeValue(code, false, inv.at, inv.depth, inv.carried())
			continue
		}
		words := strings.Fields(cmd)
		if len(words) == 0 || !uploadVerbs[strings.ToLower(words[0])] {
			continue
		}
		for _, word := range words[1:] {
			word = strings.Trim(word, `"'`)
			if word == "" || strings.HasPrefix(word, "-") {
				continue
			}
			w.noteReadValue(inv.at, word, strings.ContainsAny(word, "*?["))
		}
	}
}

// falseValue reports whether v turns a boolean option off the way Go's
// flag package, pflag and clap read it (`kubectl version --client=false`
// asks the cluster): such an option cannot take over the effects.
func falseValue(v string) bool {
	switch strings.ToLower(v) {
	case "false", "f", "0", "no", "off":
		return true
	}
	return false
}

// writeFlagValues classifies the files that flags name to be written (`sort
// -o out`), once every flag is known: a ReadOnly flag (`ssh-keygen -f key
// -l` fingerprints the key) makes them files read.
func (inv *invocation) writeFlagValues() {
	vals := inv.flagWrites
	inv.flagWrites = nil
	if inv.readOnly {
		return
	}
	for _, val := range vals {
		inv.writeValue(val)
	}
}

// writeValue records the write of a file named by val.
func (inv *invocation) writeValue(val field) {
	w := inv.w
	if val.dynamic {
		w.write(w.part(inv.at, effects.WriteOutside, inv.prog, ""), "", true)
	} else if !harmlessDevice(val.value) && val.value != "-" {
		for _, p := range w.resolveIn(val.value, val.glob, inv.dirs) {
			w.write(w.part(inv.at, effects.WriteOutside, inv.prog, ""), p, p == "")
		}
	}
}

// fedCode is code whose stdin is input the line does not follow (a
// network connection, awk's output): a shell or an interpreter there
// reads a program that cannot be identified, as in `cat f | sh`.
func fedCode(code string) string { return ": | {\n" + code + "\n}" }

// configRunsProgram reports whether a git config key names a program (rule
// 11; the keys are table data, [effects.GitConfigKeys]); kv is `key=value`.
func configRunsProgram(key, kv string) bool {
	_, v, _ := strings.Cut(kv, "=")
	_, ok := effects.GitConfigRuns(key, v)
	return ok
}

// configIsCode reports whether a git config value that runs a program is a
// command line (rather than a path or a boolean).
func configIsCode(key, value string) bool {
	kind, ok := effects.GitConfigRuns(key, value)
	return ok && kind != effects.GitElsewhere
}

// treeDirs resolves the TreeDir and RepoDir options (inv.trees) against
// the program's directories.
func (inv *invocation) treeDirs() []string {
	var out []string
	for _, h := range inv.trees {
		dirs := unknownDirs
		if !h.value.dynamic {
			dirs = inv.w.resolveIn(h.value.value, false, inv.dirs)
		}
		out = unionDirs(out, dirs)
	}
	return out
}

// repoConfig classifies the RepoDir options once: a repository outside the
// workspace has configuration and hooks, which may name programs, that are
// not inspected (`git --git-dir=/tmp/x/.git log`).
func (inv *invocation) repoConfig() {
	if inv.treesLooked {
		return
	}
	inv.treesLooked = true
	w := inv.w
	repoDir := false
	for _, h := range inv.trees {
		repoDir = repoDir || h.flag.Value == effects.RepoDir
	}
	if inv.repoHere && !repoDir {
		// The repository git finds from where it runs (`git -C /tmp/x
		// status`). A directory only known at run time is left alone:
		// `cd "$(git rev-parse --show-toplevel)" && git status` is common.
		for _, d := range inv.dirs {
			if d == "" || w.inRoot(d) {
				continue
			}
			if l := w.locate(d); l != locInside && l != locRoot {
				w.allKnown = false
				w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` runs in %s, in a repository whose configuration and hooks may name programs that are not inspected", inv.text, w.describe(d, l))))
			}
		}
	}
	for _, h := range inv.trees {
		if h.flag.Value != effects.RepoDir {
			continue
		}
		dirs := unknownDirs
		if !h.value.dynamic {
			dirs = w.resolveIn(h.value.value, false, inv.dirs)
		}
		for _, d := range dirs {
			if l := w.locate(d); l != locInside && l != locRoot {
				w.allKnown = false
				why := h.flag.Why
				if why == "" {
					why = fmt.Sprintf("%s uses the repository there, with its configuration and hooks", h.name)
				}
				w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` uses %s, whose configuration may name programs that are not inspected: %s", inv.text, w.describe(d, l), why)))
			}
		}
	}
}

// inRoot reports whether the directory d is a workspace root or below
// one, by name alone (cheaper than [walker.locate], which also asks the
// rule store). A physical d under a root as given is under it physically
// (every prefix of d is a real directory), so the roots as given are
// tried before their resolution, which costs a walk of the filesystem.
// The request's own cwd is taken as given, not resolved.
func (w *walker) inRoot(d string) bool {
	for _, r := range w.opts.Workspaces {
		if r == "" {
			continue
		}
		// newWalker made the roots absolute and clean in the classifier's
		// spelling; a root it could not place is "" and skipped above.
		if w.under(d, r) {
			return true
		}
	}
	for _, r := range w.roots() {
		if w.under(d, r) {
			return true
		}
	}
	return false
}

// emit adds the invocation's own classes as parts.
func (inv *invocation) emit() {
	if len(inv.trees) > 0 || inv.repoHere {
		inv.repoConfig()
	}
	seen := map[effects.Class]bool{}
	pathDriven := inv.pathDriven()
	for _, c := range inv.classes {
		if seen[c] || pathDriven && isLocationClass(c) {
			continue
		}
		if c == effects.OpaqueLow && inv.entry.Operands == effects.Script {
			continue // the script operand (or stdin) decides what runs
		}
		seen[c] = true
		inv.emitClass(c, inv.why)
	}
}

func (inv *invocation) emitClass(c effects.Class, why string) {
	w := inv.w
	reason := ""
	if c != effects.Read && c != effects.Verify {
		if why != "" {
			reason = fmt.Sprintf("`%s`: %s", inv.text, why)
		} else {
			reason = fmt.Sprintf("`%s` is %s", inv.text, c)
		}
	}
	p := w.part(inv.at, c, inv.prog, reason)
	switch {
	case inv.ruleStore && c != effects.Read && c != effects.Verify:
		p.Refusal = effects.RuleStoreModification
		p.Reason = fmt.Sprintf("`%s` changes the permission-rule store: %s", inv.text, why)
	case c == effects.Privilege:
		p.Refusal = effects.PrivilegeEscalation
		p.Reason = fmt.Sprintf("`%s` escalates privileges with %s", inv.text, inv.prog)
	case c == effects.OpaqueHigh:
		p.Refusal = effects.UnidentifiableProgram
	case c == effects.OpaqueLow || c == effects.Verify:
		// Both run the project's code (a verifier its tests, conftest.py,
		// build.rs, init(), its JS config); verify by name trusts the
		// project only inside the workspace (SPEC §3 opaque-medium: a
		// script outside). A verifier keeps its verify part beside it.
		op := p
		for _, d := range inv.dirs {
			// The agent's directory needs no lookup for the typical check.
			if !(c == effects.Verify && w.underStart(d)) {
				if l := w.locateCode(d); l != locInside && l != locRoot {
					op.Class = effects.OpaqueMedium
					op.Reason = fmt.Sprintf("`%s` runs code defined in %s, outside the workspace", inv.text, w.describe(d, l))
					continue
				}
			}
			if why := w.stagedDir(d); why != "" {
				// `cp /tmp/x Makefile && make test`: the project's
				// definition was brought in by the line (staged.go).
				op.Class = effects.OpaqueMedium
				op.Reason = fmt.Sprintf("`%s` runs code defined in %s", inv.text, why)
			}
		}
		if inv.entry.RunsOperands && op.Class == c {
			inv.codeOperands(&op)
		}
		if c == effects.Verify && op.Class != c {
			w.add(op)
		} else {
			p = op
		}
	case c == effects.Deletion && inv.outside:
		p.Refusal = effects.DeleteOutsideWorkspace
		p.Reason = fmt.Sprintf("`%s` deletes resources outside the workspace", inv.text)
	case c == effects.HistoryRewrite && len(inv.trees) == 0 && inv.entry.WorkTree:
		// The rewrite changes the files of the work tree where git runs
		// (`git -C dotfiles reset --hard`): one that holds the rule store
		// is a rule-store modification (SPEC §5.6).
		w.add(p)
		for _, d := range inv.dirs {
			if d != "" && w.locateChange(d) == locRuleStore {
				wp := p
				wp.Class = effects.WriteInside
				w.write(wp, d, false)
			}
		}
		return
	case c == effects.HistoryRewrite && len(inv.trees) > 0:
		// A history rewrite changes the files of the work tree, which an
		// option moved (`git --work-tree=/ checkout -- .`).
		w.add(p)
		for _, d := range inv.treeDirs() {
			wp := p
			wp.Class = effects.WriteInside
			w.write(wp, d, d == "")
		}
		return
	case (c == effects.WriteInside || c == effects.Deletion) && !inv.pathDriven():
		// The program writes where it runs: relocate by its directory,
		// and by where an option put its tree.
		dirs := inv.dirs
		if len(inv.trees) > 0 {
			dirs = unionDirs(inv.dirs, inv.treeDirs())
		}
		if slices.ContainsFunc(inv.flags, func(h flagHit) bool { return h.flag.Anywhere }) {
			dirs = unionDirs(dirs, unknownDirs) // `git apply --unsafe-paths`
		}
		for _, d := range dirs {
			if c == effects.Deletion {
				base := p
				base.Reason = why
				if base.Reason == "" {
					base.Reason = p.Reason
				}
				inv.removeIn(base, d)
			} else {
				w.write(p, d, d == "")
			}
		}
		return
	}
	w.add(p)
}

// lexicallyBelow reports whether a relative path stays below the directory
// it is taken in as spelled: no `..`, `~` or `$`, not absolute, and no
// drive (`C:/tmp/t` is absolute in Git Bash, `C:t` is on another drive's
// directory). A link below may still lead out (`pytest link-out/t`):
// judged as the spelling is.
func lexicallyBelow(v string) bool {
	if v == "" || v[0] == '/' || v[0] == '~' || v[0] == '-' || strings.ContainsAny(v, "$`\\") {
		return false
	}
	if len(v) >= 2 && v[1] == ':' && ('a' <= v[0]|0x20 && v[0]|0x20 <= 'z') {
		return false
	}
	for rest := v; rest != ""; { // the segments, without allocating them
		seg, next, _ := strings.Cut(rest, "/")
		if seg == ".." {
			return false
		}
		rest = next
	}
	return true
}

// underStart reports whether p is the agent's directory or lexically below
// it (`./...`, `tests/a_test.py` where the command started).
func (w *walker) underStart(p string) bool {
	return p != "" && (p == w.startCwd || strings.HasPrefix(p, strings.TrimSuffix(w.startCwd, "/")+"/"))
}

// locateCode locates the directory whose code a program runs where its
// links lead: `cd link-out && pytest` runs what link-out points to, and a
// cwd given through a link to the workspace runs the workspace's code.
func (w *walker) locateCode(p string) location {
	if p == "" {
		return locUnknown
	}
	return w.locate(w.evalPrefix(p))
}

// codeOperands makes p opaque-medium when an operand of a verifier (or of
// a runner of the project's code) whose operands are the code it runs
// ([effects.Program.RunsOperands]) lies outside the workspace (`pytest
// /tmp/t`) or is fetched from the network when it runs (`deno test
// https://host/x.ts`, `deno test jsr:@o/x`); a file: URL is its path.
func (inv *invocation) codeOperands(p *Part) {
	w := inv.w
	for _, o := range inv.operands {
		if o.dynamic {
			// Trusted as the loop's own packages are (`for p in ./a ./b;
			// do go test "$p"; done`): a moved directory is caught above.
			continue
		}
		v := o.value
		if rest, ok := cutPrefixFold(v, "file://"); ok {
			v = rest
		} else if remoteCode(v) {
			p.Class = effects.OpaqueMedium
			p.Reason = fmt.Sprintf("`%s` runs code from %s, fetched at run time", inv.text, v)
			return
		}
		if len(inv.dirs) == 1 && w.underStart(inv.dirs[0]) && lexicallyBelow(v) {
			continue // `./...`, `tests/`: below the agent's directory, no lookup
		}
		for _, r := range w.resolveIn(v, o.glob, inv.dirs) {
			if l := w.locate(r); l != locInside && l != locRoot {
				p.Class = effects.OpaqueMedium
				p.Reason = fmt.Sprintf("`%s` runs code in %s, outside the workspace", inv.text, w.describe(r, l))
				return
			}
		}
	}
}

// codeOperandsSoFar classifies the operands seen before the command the
// program carries when they are code it loads ([effects.Program.SkipCode],
// [effects.CodePaths]): `direnv exec DIR CMD`, `nix develop FLAKE -c CMD`.
func (inv *invocation) codeOperandsSoFar(e *effects.Program) {
	if !e.SkipCode && e.Operands != effects.CodePaths {
		return
	}
	for _, o := range inv.operands {
		inv.codePath(o)
	}
}

// codePath classifies v, a file (or a directory's file) of code the
// program loads and runs ([effects.CodePath]): read, and opaque-medium
// outside the workspace, fetched (`github:o/r`, `https://...`) or only
// known at run time.
func (inv *invocation) codePath(v field) {
	w := inv.w
	if v.dynamic {
		w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` loads code from a file only known at run time", inv.text)))
		return
	}
	for _, local := range []string{"path:", "git+file://", "file://"} {
		if rest, ok := strings.CutPrefix(v.value, local); ok {
			v.value = rest // a local path (`nix develop path:/tmp/x`, `file:///tmp/x`)
			break
		}
	}
	if remoteCode(v.value) {
		w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` loads code from %s, fetched at run time", inv.text, v.value)))
		return
	}
	w.noteReadValue(inv.at, v.value, v.glob)
	for _, r := range w.resolveIn(v.value, v.glob, inv.dirs) {
		if l := w.locateCode(r); l != locInside && l != locRoot {
			w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` loads code from %s", inv.text, w.describe(r, l))))
			return
		}
	}
}

// sourceDeletions classifies the operands a [effects.Flag.DeletesSources]
// flag deletes: every operand but a copy's destination (`rsync
// --remove-source-files ~/.ssh/ k/` deletes in ~/.ssh).
func (inv *invocation) sourceDeletions(h flagHit) {
	ops := inv.operands[min(inv.entry.Skip, len(inv.operands)):]
	if r := inv.entry.Operands; (r == effects.CopyPaths || r == effects.MovePaths) && inv.has("-t", "--target-directory") == nil && len(ops) > 0 {
		ops = ops[:len(ops)-1]
	}
	if inv.sources != nil {
		ops = inv.sources
	}
	if len(ops) == 0 {
		// The sources come from elsewhere (`tar --remove-files -T list`).
		inv.w.remove(inv.w.part(inv.at, effects.Deletion, inv.prog, fmt.Sprintf("`%s` deletes files it is not given as operands (%s)", inv.text, h.name)), "")
		return
	}
	for _, o := range ops {
		inv.deleteOperand(inv.w.part(inv.at, effects.Deletion, inv.prog, fmt.Sprintf("`%s` deletes %s once it is copied (%s)", inv.text, o.value, h.name)), o)
	}
}

// deleteFlagValue classifies the deletion a write-path flag makes in its
// value (`pytest --basetemp /tmp/x`).
func (inv *invocation) deleteFlagValue(val field, why string) {
	w := inv.w
	base := w.part(inv.at, effects.Deletion, inv.prog, fmt.Sprintf("`%s`: %s", inv.text, why))
	if val.dynamic {
		w.remove(base, "")
		return
	}
	for _, p := range w.resolveIn(val.value, val.glob, inv.dirs) {
		inv.removeIn(base, p)
	}
}

// removeIn classifies a deletion inside directory d (`git clean -f` in d).
func (inv *invocation) removeIn(p Part, d string) {
	w := inv.w
	switch w.locateChange(d) {
	case locInside, locRoot:
		p.Class = effects.Deletion
		w.add(p)
	default:
		w.remove(p, d)
	}
}

// pathDriven reports whether the invocation's location classes come from
// its path operands.
func (inv *invocation) pathDriven() bool {
	switch inv.operandRole() {
	case effects.WritePaths, effects.DeletePaths, effects.CopyPaths, effects.MovePaths:
		for _, o := range inv.operands[min(inv.entry.Skip, len(inv.operands)):] {
			if o.dynamic || !inv.remote(o.value) {
				return true
			}
		}
	case effects.ArchiveFirst:
		ops := inv.operands[min(inv.entry.Skip, len(inv.operands)):]
		return len(ops) > 0 && (ops[0].dynamic || ops[0].value != "-" && !inv.remote(ops[0].value))
	}
	return false
}

// operandRole is what the operands are: the entry's role, except that a
// ReadOnly flag makes a writer's operands files read (`gzip -c a`, `sd -p x
// y f`).
func (inv *invocation) operandRole() effects.Operands {
	r := inv.entry.Operands
	if r == effects.NoPaths && inv.links && !inv.entry.Links {
		return effects.CopyPaths // `mount --bind SRC DIR`: DIR becomes another name for SRC
	}
	if inv.inPlace && !inv.readOnly && (r == effects.ReadPaths || r == effects.NoPaths) {
		return effects.WritePaths // `gofmt -w f`, `prettier --write src`
	}
	if inv.readOnly {
		switch r {
		case effects.WritePaths, effects.DeletePaths, effects.CopyPaths, effects.MovePaths, effects.ArchiveFirst:
			return effects.ReadPaths
		}
	}
	return r
}

// isLocationClass reports whether c depends on where a path lies.
func isLocationClass(c effects.Class) bool {
	return c == effects.WriteInside || c == effects.WriteOutside || c == effects.Deletion
}

// emitFlags adds the classes of the flags seen so far (those not Replace).
func (inv *invocation) emitFlags() {
	if len(inv.trees) > 0 {
		inv.repoConfig()
	}
	for _, h := range inv.flags {
		if h.flag.Replace || h.value != nil && !h.value.dynamic && h.flag.IsPlainValue(h.value.value) {
			continue // `pytest -o log_cli=true`, `pytest -p no:cacheprovider`
		}
		if h.value != nil && !h.flag.Applies(h.value.value, h.value.dynamic) {
			continue // `mount -o ro`, `systemd-run -p MemoryMax=1G`
		}
		pathDriven := h.flag.InPlace && inv.pathDriven()
		for _, c := range h.flag.Effects {
			if pathDriven && isLocationClass(c) {
				continue // the rewritten operands say where it writes
			}
			why := h.flag.Why
			if why == "" {
				why = fmt.Sprintf("%s makes it %s", h.name, c)
			}
			if c == effects.Deletion && h.flag.DeletesSources {
				inv.sourceDeletions(h)
				continue
			}
			if c == effects.Deletion && h.flag.Value == effects.WritePath && h.value != nil && !inv.readOnly {
				// The flag deletes in the path it names (`pytest
				// --basetemp DIR` empties DIR), not where the program runs.
				inv.deleteFlagValue(*h.value, why)
				continue
			}
			inv.emitClass(c, why)
		}
	}
	inv.flags = nil
}

// operandForms emits what the operands of e's [effects.Program.OperandForms]
// do and returns the other operands, which the entry's role classifies. An
// operand only known at run time is left to the role (and to the
// dynamic-word checks, which make it prompt).
func (inv *invocation) operandForms(e *effects.Program, ops []field) []field {
	var rest []field
	taken := false
	for i, o := range ops {
		f := operandForm(e, o)
		if f == nil {
			if taken {
				rest = append(rest, o)
			}
			continue
		}
		if !taken {
			taken = true
			rest = append(make([]field, 0, len(ops)-1), ops[:i]...)
		}
		if inv.readOnly || f.IsPlain(o.value[len(f.Prefix):]) {
			continue
		}
		for _, c := range f.Effects {
			inv.emitClass(c, f.Why)
		}
	}
	if !taken {
		return ops
	}
	return rest
}

// operandForm returns the first of e's operand forms that o has, or nil.
func operandForm(e *effects.Program, o field) *effects.OperandForm {
	if o.dynamic {
		return nil
	}
	for i := range e.OperandForms {
		if f := &e.OperandForms[i]; f.Has(o.value) {
			return f
		}
	}
	return nil
}

// operandsEffects classifies the path operands by the entry's role.
func (inv *invocation) operandsEffects(e *effects.Program) {
	w := inv.w
	ops := inv.operands
	if len(ops) < e.Skip {
		return
	}
	ops = ops[e.Skip:]
	if len(e.OperandForms) > 0 {
		ops = inv.operandForms(e, ops)
	}
	base := w.part(inv.at, effects.WriteOutside, inv.prog, "")
	switch inv.operandRole() {
	case effects.ShellCodes:
		ctx := inv.carried()
		ctx.dialect = Sh
		for _, o := range ops {
			inv.nestedFieldIn(o, ctx)
		}
	case effects.ReadPaths:
		for _, o := range ops {
			w.noteReadField(inv.at, o)
		}
	case effects.CodePaths:
		for _, o := range ops {
			inv.codePath(o)
		}
	case effects.WritePaths:
		for _, o := range ops {
			inv.writeOperand(base, o)
		}
	case effects.DeletePaths:
		for _, o := range ops {
			inv.deleteOperand(base, o)
		}
	case effects.CopyPaths:
		var dest *field
		sources := ops[:max(len(ops)-1, min(len(ops), 1))]
		if inv.target != nil {
			sources = ops // all go into the -t directory, which the flag wrote
		}
		links := inv.makesLinks(sources)
		if inv.target == nil && len(ops) >= 1 {
			dest = &ops[len(ops)-1]
			written := *dest
			if inv.links && len(ops) == 1 && !written.dynamic {
				// `ln -s /usr/share/x` makes ./x: TARGET is not written.
				written.value = path.Base(written.value)
			}
			w.noTouch = links // what makes the link is not a write through it
			w.copying, w.copyInto = true, baseNames(sources)
			inv.writeOperand(base, written)
			w.noTouch, w.copying, w.copyInto = false, false, nil
		}
		for _, o := range sources {
			w.noteReadField(inv.at, o)
		}
		if links {
			inv.recordLinks(sources, dest, len(ops) == 1)
		}
	case effects.ArchiveFirst:
		for k, o := range ops {
			if k > 0 {
				w.noteReadField(inv.at, o)
			} else if o.value != "-" || o.dynamic {
				inv.writeOperand(base, o)
			}
		}
	case effects.InputOutput:
		for k, o := range ops {
			if k == 0 {
				w.noteReadField(inv.at, o)
			} else if o.value != "-" {
				inv.writeOperand(base, o)
			}
		}
	case effects.MovePaths:
		for _, o := range ops {
			w.noteReadField(inv.at, o)
		}
		var sources []field
		var dest *field
		if inv.target != nil {
			sources = ops
		} else if len(ops) >= 2 {
			sources, dest = ops[:len(ops)-1], &ops[len(ops)-1]
		}
		links := inv.makesLinks(sources)
		for i, o := range ops {
			w.noTouch = links && dest != nil && i == len(ops)-1 // what makes the link is not a write through it
			w.copying = true
			inv.writeOperand(base, o)
			w.copying = false
			if i == len(ops)-1 && len(ops) >= 2 && !o.dynamic && inv.target == nil {
				inv.replaced(base, o.value, o.glob)
			}
			w.noTouch = false
		}
		if t := inv.target; t != nil && t.value != nil && !t.value.dynamic {
			for _, o := range ops { // mv -t DIR a b replaces DIR/a and DIR/b
				if !o.dynamic && !o.glob {
					inv.replaced(base, joinPath(t.value.value, path.Base(o.value)), false)
				}
			}
		}
		if links {
			inv.recordLinks(sources, dest, false)
		}
	case effects.Script:
		if inv.replacing {
			return // `php -l a.php`, `node --check a.js`: the file is read, not run
		}
		inv.script(ops)
	}
}

// replaced classifies a move onto value: an existing file there is deleted.
func (inv *invocation) replaced(base Part, value string, glob bool) {
	w := inv.w
	for _, p := range w.resolveIn(value, glob, inv.dirs) {
		if p != "" && w.fs().IsFile(p) {
			d := base
			d.Reason = fmt.Sprintf("`%s` replaces the existing file %s", inv.text, value)
			w.remove(d, p)
		}
	}
}

// remote reports whether an operand names a remote path (`host:path`).
func remote(v string) bool {
	i := strings.IndexByte(v, ':')
	return i > 0 && !strings.Contains(v[:i], "/")
}

// remote reports whether an operand of this invocation names a remote path:
// `host:path` for a program that reaches other machines or containers
// (rsync, scp, `docker cp`, `kubectl cp`). For a local program such as cp or
// rm, `x:/../../.bashrc` is a path in the working directory like any other.
func (inv *invocation) remote(v string) bool {
	if !remote(v) {
		return false
	}
	if inv.w.opts.Platform == Windows && len(v) > 2 && v[1] == ':' && (v[2] == '\\' || v[2] == '/') {
		return false // C:\x is a drive path
	}
	for _, c := range inv.entry.Effects {
		if c == effects.Network || c == effects.SystemChange {
			return true
		}
	}
	return false
}

func (inv *invocation) writeOperand(base Part, o field) {
	w := inv.w
	if o.dynamic {
		w.write(base, "", true)
		return
	}
	if inv.remote(o.value) || harmlessDevice(o.value) {
		return
	}
	for _, p := range w.resolveIn(o.value, o.glob, inv.dirs) {
		w.write(base, p, p == "")
	}
	if inv.entry.URIOperands && strings.HasPrefix(o.value, "file:") {
		file, ok := sqliteURIFile(o.value)
		if !ok {
			w.write(base, "", true)
			return
		}
		if file != "" {
			for _, p := range w.resolveIn(file, false, inv.dirs) {
				w.write(base, p, p == "")
			}
		}
	}
}

// sqliteURIFile is the file a SQLite URI filename opens (`file:PATH?query`,
// `file:///abs/path`, percent-escapes decoded; https://sqlite.org/uri.html),
// "" for none (`file::memory:`, an empty path); ok is false when it cannot
// be told (another host, a bad escape).
func sqliteURIFile(v string) (file string, ok bool) {
	rest := strings.TrimPrefix(v, "file:")
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if auth, ok := strings.CutPrefix(rest, "//"); ok {
		host, p, found := strings.Cut(auth, "/")
		if !found || host != "" && host != "localhost" {
			return "", false
		}
		rest = "/" + p
	}
	if rest == ":memory:" {
		return "", true
	}
	file, err := url.PathUnescape(rest)
	if err != nil || strings.ContainsRune(file, 0) {
		return "", false
	}
	return file, true
}

func (inv *invocation) deleteOperand(base Part, o field) {
	w := inv.w
	base.Class = effects.Deletion
	if o.dynamic {
		w.remove(base, "")
		return
	}
	if inv.remote(o.value) {
		return
	}
	for _, p := range w.resolveIn(o.value, o.glob, inv.dirs) {
		w.remove(base, p)
	}
}

// script classifies an interpreter or shell run with a script operand, or
// with its program on stdin (SPEC §3 rule 12).
func (inv *invocation) script(ops []field) {
	w := inv.w
	if len(ops) > 0 {
		o := ops[0]
		if o.dynamic {
			w.add(w.part(inv.at, effects.OpaqueHigh, inv.prog, fmt.Sprintf("`%s` runs a script only known at run time", inv.text)))
			return
		}
		if o.value == "-" || o.value == "/dev/stdin" {
			inv.stdinScript()
			return
		}
		if strings.HasPrefix(o.value, "/dev/fd/") || strings.HasPrefix(o.value, "/proc/") {
			// bash <(curl ..): the script comes from a pipe.
			w.add(w.part(inv.at, effects.OpaqueHigh, inv.prog, fmt.Sprintf("`%s` runs a program fed to it at run time, which cannot be identified", inv.text)))
			return
		}
		w.allKnown = false
		if remoteCode(o.value) {
			// `deno run https://x/y.ts`, `deno run npm:pkg`: fetched when it
			// runs, not a file of the project.
			w.add(w.part(inv.at, effects.Network, inv.prog, fmt.Sprintf("`%s` downloads the script %s", inv.text, o.value)))
			w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` runs the script %s from the network, which is not inspected", inv.text, o.value)))
			return
		}
		inside := true
		for _, p := range w.resolveIn(o.value, false, inv.dirs) {
			if l := w.locate(p); l != locInside && l != locRoot {
				inside = false
			}
		}
		w.runWritten(o.value, inv.at, inv.depth, inv.carried())
		if inside {
			p := w.part(inv.at, effects.OpaqueLow, inv.prog, fmt.Sprintf("`%s` runs the project script %s, which is not inspected", inv.text, o.value))
			if !w.stagedRun(p, w.resolveIn(o.value, false, inv.dirs)) {
				w.add(p)
			}
		} else {
			w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` runs the script %s from outside the workspace", inv.text, o.value)))
		}
		return
	}
	inv.stdinScript()
}

// noteHash records the names a `hash -p PATH NAME...` (zsh also `hash
// NAME=PATH`) makes run the file PATH: later in the line the shell runs
// PATH for NAME (SPEC §3 rule 11, as for functions and aliases). The hash
// command itself is classified by its entry.
func (w *walker) noteHash(prog string, args []field) {
	if prog != "hash" || len(args) < 2 {
		return
	}
	rest := args[1:]
	to := ""
	if rest[0].value == "-p" && !rest[0].dynamic && len(rest) >= 3 && !rest[1].dynamic {
		to, rest = rest[1].value, rest[2:]
	}
	for _, a := range rest {
		if a.dynamic {
			continue
		}
		name, file := a.value, to
		if n, f, ok := strings.Cut(a.value, "="); ok && to == "" {
			name, file = n, f
		}
		if file == "" || name == "" || strings.HasPrefix(name, "-") {
			continue
		}
		if w.hashed == nil {
			w.hashed = map[string]string{}
		}
		w.hashed[name] = file
	}
}

// noteWorkTree records the work tree `git config [--local] core.worktree
// VALUE` (or `git config set core.worktree VALUE`) sets: git's later
// commands in the line work there, as with --work-tree (SPEC §3 rule 5).
func (w *walker) noteWorkTree(prog string, args []field) {
	if prog != "git" || len(args) < 3 {
		return
	}
	config := false
	for i, a := range args[1:] {
		switch {
		case a.dynamic:
			continue
		case !config && a.value == "-c" && i+2 < len(args) && !args[i+2].dynamic && len(args[i+2].value) > 14 && strings.EqualFold(args[i+2].value[:14], "core.worktree="):
			// `git -c core.worktree=/ clean -fdx` (for the line: stricter)
			v := args[i+2]
			v.value = v.value[14:]
			w.gitWorkTree = &v
			return
		case a.value == "config":
			config = true
		case config && strings.EqualFold(a.value, "core.worktree") && i+2 < len(args):
			v := args[i+2]
			if !v.dynamic && strings.HasPrefix(v.value, "-") {
				return
			}
			w.gitWorkTree = &v
			return
		case config && (a.value == "--get" || a.value == "--unset" || a.value == "--unset-all" || a.value == "get" || a.value == "unset" || a.value == "-l" || a.value == "--list"):
			return
		}
	}
}

// runWritten classifies running the file v (in ctx) when the line wrote
// it earlier with content it knows (`echo 'rm -rf ~' > x.sh && sh x.sh`,
// `printf '#!/bin/sh\nrm -rf ~\n' > x; chmod +x x; ./x`): the script's
// code is parsed as a shell's, as a git hook written in the line is (SPEC
// §3 rule 11). Its own opaque verdict stands beside it.
func (w *walker) runWritten(v string, at syntax.Node, depth int, ctx callCtx) {
	if len(w.writtenCode) == 0 {
		return
	}
	for _, p := range w.resolveIn(v, false, ctx.dirs) {
		if code, ok := w.writtenCode[p]; ok && p != "" {
			w.newShell(code, at, depth, ctx)
			return
		}
	}
}

// remoteCode reports whether a script operand names code the interpreter
// fetches: a URL (`https://x/y.ts`), a registry specifier (`npm:cowsay`,
// `jsr:@std/x`) or a flake reference (`github:o/r`, `tarball+https://...`).
func remoteCode(v string) bool {
	scheme, _, ok := strings.Cut(v, ":")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/.") {
		return false
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "ftp", "npm", "jsr", "git", "git+https", "git+http", "git+ssh", "github", "gitlab", "sourcehut",
		"hg+https", "hg+http", "tarball+https", "tarball+http", "file+https", "file+http", "data", "blob":
		return true
	}
	return false
}

// stdinScript classifies an interpreter that reads its program from stdin.
func (inv *invocation) stdinScript() {
	w := inv.w
	shell := inv.entry.Special == effects.SpecialShell || inv.entry.StartsShell
	red := inv.red
	switch {
	case red.script != nil && !red.scriptDyn:
		if shell {
			ctx := inv.carried()
			ctx.dialect = inv.shellDialect()
			inv.shellCode(*red.script, red.scriptAt, ctx)
			return
		}
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` runs inline %s code, which is not analysed", inv.text, inv.prog)))
		inv.inlineShellCalls(field{value: *red.script}) // inline.go
	case red.scriptDyn || red.stdinDyn || red.stdin == stdinPipe:
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueHigh, inv.prog, fmt.Sprintf("`%s` runs a program fed to it at run time, which cannot be identified", inv.text)))
	case red.stdinNull:
		// An empty program: `bash < /dev/null` runs nothing.
		w.add(w.part(inv.at, effects.Read, inv.prog, ""))
	case red.stdinFile != "":
		w.allKnown = false
		if l := w.locate(red.stdinFile); l == locInside {
			p := w.part(inv.at, effects.OpaqueLow, inv.prog, fmt.Sprintf("`%s` runs the project script %s, which is not inspected", inv.text, red.stdinFile))
			if !w.stagedRun(p, []string{red.stdinFile}) {
				w.add(p)
			}
		} else {
			w.add(w.part(inv.at, effects.OpaqueHigh, inv.prog, fmt.Sprintf("`%s` runs %s from outside the workspace as a program", inv.text, red.stdinFile)))
		}
	default:
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` starts an interactive %s that reads commands from the terminal", inv.text, inv.prog)))
	}
}

// checkScripts decides what the project scripts the invocation names do
// ([effects.Scripts]): a check verifies by name, anything else runs the
// project's code (the entry's Other effects). It also keeps a goal runner's
// checks (judged by name in run) to the project in the workspace. args are
// the invocation's arguments after the program or subcommand name.
func (inv *invocation) checkScripts(e *effects.Program, args []field) {
	if inv.replacing {
		return
	}
	var names, passed []field
	switch {
	case len(e.Goals) > 0:
		if len(inv.operands) == 0 {
			return // the default goal
		}
	case e.Scripts == effects.ScriptName:
		if inv.scripts == nil {
			return // `npm run` lists the scripts
		}
		names, passed = inv.scripts[:1], inv.scripts[1:]
	case e.Scripts == effects.ScriptArgs:
		passed = args
	default:
		return
	}
	other := e.Other
	if other == nil {
		other = []effects.Class{effects.OpaqueLow}
	}
	if why := inv.foreignScripts(); why != "" {
		// The scripts come from a file outside the workspace (`make -f
		// /tmp/x.mk`): code from elsewhere, whatever the names.
		inv.classes = inv.classes[:0]
		for _, c := range other {
			if c == effects.OpaqueLow {
				c = effects.OpaqueMedium
			}
			inv.classes = append(inv.classes, c)
		}
		if !slices.Contains(inv.classes, effects.OpaqueMedium) {
			inv.classes = append(inv.classes, effects.OpaqueMedium)
		}
		inv.why = why
		return
	}
	if len(e.Goals) > 0 && inv.otherGoal {
		return // run gave it Other's effects
	}
	why := inv.notCheck(e, names, passed)
	if why == "" {
		inv.classes = append(inv.classes[:0], effects.Verify)
		return
	}
	if e.Scripts == effects.ScriptName && e.Runner != effects.NoEcosystem && !names[0].dynamic && inv.noScript(names[0].value) {
		// No script has the name: pnpm and yarn run the installed program.
		if entry, ok := inv.installed(e, names[0]); ok {
			inv.classes, inv.bin, inv.binEntry = inv.classes[:0], inv.scripts, entry
			return
		}
	}
	inv.classes = append([]effects.Class(nil), other...)
	inv.why = why
}

// foreignScripts says which file that the runner reads its scripts from
// (a ReadPath option: `make -f FILE`, `just --justfile FILE`) is outside
// the workspace; "" when none is.
func (inv *invocation) foreignScripts() string {
	w := inv.w
	for _, h := range inv.flags {
		if h.flag.Value != effects.ReadPath && h.flag.Value != effects.CodePath || h.value == nil {
			continue
		}
		if h.value.dynamic {
			return fmt.Sprintf("it reads its scripts from %s, a file only known at run time", h.name)
		}
		for _, p := range w.resolveIn(h.value.value, h.value.glob, inv.dirs) {
			if l := w.locate(p); l != locInside && l != locRoot {
				return fmt.Sprintf("it runs code from %s (%s), which is not inspected", w.describe(p, l), h.name)
			}
		}
	}
	return ""
}

// notCheck says why the scripts or goals names, run with the arguments
// passed, are not a check of the project in the workspace; "" when they are.
func (inv *invocation) notCheck(e *effects.Program, names, passed []field) string {
	w := inv.w
	for _, n := range names {
		if n.dynamic {
			return "it runs a project script whose name is only known at run time"
		}
		if !effects.IsCheck(e.Checks, n.value) {
			return fmt.Sprintf("it runs the project script %s, which is not inspected (only checks such as test and lint verify by name)", shortQuote(n.value))
		}
	}
	for _, a := range passed {
		if a.dynamic {
			return "it passes the check arguments only known at run time"
		}
		if effects.ScriptWrites(a.value) {
			return fmt.Sprintf("%s makes the check write", a.value)
		}
		v := a.value
		if i := strings.IndexByte(v, '='); i > 0 && isOption(v) {
			v = v[i+1:]
		}
		if v != "" && (strings.ContainsRune(v, '/') || v[0] == '.' || v[0] == '~') {
			for _, p := range w.resolveIn(v, a.glob, inv.dirs) {
				if l := w.locate(p); l != locInside && l != locRoot {
					return fmt.Sprintf("it passes the check %s", w.describe(p, l))
				}
			}
		}
	}
	for _, d := range inv.dirs {
		if l := w.placeDir(d); l != locInside && l != locRoot {
			return fmt.Sprintf("it runs the scripts of a project in %s", w.describe(d, l))
		}
	}
	return ""
}

// shortQuote quotes a script name for a reason, cut to a readable length.
func shortQuote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return "`" + s + "`"
}

// debuggerShell returns the shell code a debugger command runs: gdb's
// `shell CMD`, `!CMD` and `pipe [CMD] | SHELL_CMD` (`|` its short form),
// lldb's `platform shell CMD`, each command name at any unambiguous prefix
// gdb takes (`she`). Other commands run none.
func debuggerShell(cmd string) (string, bool) {
	c := strings.TrimSpace(cmd)
	if rest, ok := strings.CutPrefix(c, "!"); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(c, "|"); ok {
		if _, code, found := strings.Cut(rest, "|"); found {
			return code, true
		}
		return rest, true
	}
	word, rest, _ := strings.Cut(c, " ")
	switch {
	case len(word) >= 3 && strings.HasPrefix("shell", word):
		return rest, true
	case len(word) >= 3 && strings.HasPrefix("pipe", word):
		if _, code, found := strings.Cut(rest, "|"); found {
			return code, true
		}
		return rest, true
	case word == "platform" || word == "pla" || word == "plat":
		if w2, r2, _ := strings.Cut(strings.TrimSpace(rest), " "); w2 == "shell" || w2 == "sh" {
			return r2, true
		}
	}
	return "", false
}

// installPrefixVars are the variables of a goal runner's `VAR=VALUE`
// operands that name where an install goal writes (GNU's directory
// variables and their common upper-case spellings).
var installPrefixVars = []string{"PREFIX", "prefix", "exec_prefix", "EXEC_PREFIX", "BINDIR", "bindir", "SBINDIR", "sbindir", "LIBDIR", "libdir",
	"LIBEXECDIR", "libexecdir", "DATADIR", "datadir", "DATAROOTDIR", "datarootdir", "SYSCONFDIR", "sysconfdir", "MANDIR", "mandir",
	"INCLUDEDIR", "includedir", "INSTALL_ROOT", "INSTALLDIR", "INSTALL_DIR", "INSTALL_PREFIX"}

// installDirs: a goal runner's install goal (`make install`,
// `install-strip`) with `DESTDIR=DIR` or `PREFIX=DIR` among its operands
// writes the installed files there (DESTDIR/PREFIX, PREFIX defaulting to
// /usr/local under a DESTDIR): classified as a write of that directory, so
// `make DESTDIR=/ install` and `make PREFIX=/usr install` write system
// paths (SPEC §5.2) and a staging directory in /tmp writes outside the
// workspace, whatever the recipe (opaque-low) does besides. Without an
// install goal the values are only built in (`make PREFIX=/usr`).
func (inv *invocation) installDirs() {
	install := false
	vals := map[string]field{}
	for _, o := range inv.operands {
		if o.dynamic {
			if name, _, ok := strings.Cut(o.value, "="); ok && (name == "DESTDIR" || slices.Contains(installPrefixVars, name)) {
				vals[name] = field{dynamic: true, word: o.word}
			}
			continue
		}
		if name, val, ok := strings.Cut(o.value, "="); ok {
			if name == "DESTDIR" || slices.Contains(installPrefixVars, name) {
				// `PREFIX='$(HOME)/.local'`: make expands the reference.
				vals[name] = field{value: val, dynamic: strings.Contains(val, "$"), word: o.word}
			}
			continue
		}
		install = install || strings.HasPrefix(o.value, "install")
	}
	if !install || len(vals) == 0 {
		return
	}
	var targets []field
	if d, ok := vals["DESTDIR"]; ok {
		sub := "/usr/local"
		for _, n := range []string{"PREFIX", "prefix"} {
			if p, ok := vals[n]; ok {
				if p.dynamic {
					d.dynamic = true
				}
				sub = p.value
			}
		}
		if d.value == "" && !d.dynamic {
			d.value = "/" // `DESTDIR=` installs into the prefix itself
		}
		d.value = strings.TrimRight(d.value, "/") + "/" + strings.TrimLeft(sub, "/")
		targets = append(targets, d)
	} else {
		for _, n := range installPrefixVars {
			if v, ok := vals[n]; ok && (v.dynamic || v.value != "") {
				targets = append(targets, v)
			}
		}
	}
	w := inv.w
	for _, t := range targets {
		why := fmt.Sprintf("`%s` installs into %s", brief(inv.text), t.value)
		if t.dynamic {
			w.write(w.part(inv.at, effects.WriteOutside, inv.prog, why), "", true)
			continue
		}
		for _, p := range w.resolveIn(t.value, false, inv.dirs) {
			w.write(w.part(inv.at, effects.WriteOutside, inv.prog, why), p, p == "")
		}
	}
}
