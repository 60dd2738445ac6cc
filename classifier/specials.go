package classifier

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// special runs the logic an entry needs before (or instead of) the generic
// option parsing. done means the invocation is fully classified; a non-nil
// rewritten list replaces args for the generic parsing.
func (inv *invocation) special(e *effects.Program, args []field) (rewritten []field, done bool) {
	w := inv.w
	switch inv.key() {
	case "alias":
		inv.emit()
		for _, a := range args {
			if _, val, ok := strings.Cut(a.value, "="); ok && !a.dynamic {
				w.nested(val, a.word, inv.depth)
			} else if a.dynamic {
				inv.opaqueHigh("an alias whose value is only known at run time")
			}
		}
		return nil, true
	case "trap":
		inv.emit()
		if len(args) > 0 && args[0].value == "--" {
			args = args[1:]
		}
		if len(args) > 0 && !isOption(args[0].value) && args[0].value != "-" && !isDigits(args[0].value) {
			if args[0].dynamic {
				inv.opaqueHigh("a trap whose action is only known at run time")
			} else {
				// The action runs later, on a signal or at exit, from
				// wherever the shell is then (`trap 'rm -rf x' EXIT; cd /`).
				w.later(args[0].value, args[0].word, inv.depth)
			}
		}
		return nil, true
	case "unset":
		for _, a := range args {
			if a.dynamic || requestVar(a.value) {
				w.requestEnv = true // `unset no_proxy; curl ...`
			}
		}
		inv.varNames(args) // arith.go: names whose subscripts the shell evaluates
	case "printenv":
		if len(args) == 0 {
			w.noteCredential(inv.at, "printenv")
		}
		for _, a := range args {
			if a.dynamic || isSecretVar(a.value) {
				w.noteCredential(inv.at, "printenv "+a.value)
			}
		}
	case "float": // and integer: the values are arithmetic, which evaluates variables' values as code
		inv.zshNumbers(args) // arith.go
	case "read", "mapfile", "readarray", "getopts", "[":
		inv.varNames(args) // arith.go: names whose subscripts the shell evaluates
	case "command":
		for _, a := range args {
			if a.value == "-v" || a.value == "-V" {
				inv.classes = []effects.Class{effects.Read}
				inv.emit()
				return nil, true
			}
			if !isOption(a.value) {
				break
			}
		}
	}
	if e.Credential {
		w.notePrinted(inv.at, inv.prog)
	}
	switch e.Special {
	case effects.SpecialShell:
		return nil, inv.shell(args)
	case effects.SpecialInterpreter:
		return inv.interpreter(e, args)
	case effects.SpecialEnv:
		return nil, inv.env(e, args)
	case effects.SpecialEval:
		return nil, inv.eval(args)
	case effects.SpecialCD:
		inv.cd(args)
		return nil, true
	case effects.SpecialFind:
		return nil, inv.find(args)
	case effects.SpecialXargs:
		return nil, inv.xargs(e, args)
	case effects.SpecialWatch:
		return nil, inv.watch(args)
	case effects.SpecialFlock:
		inv.flockLock(e, args)
		if c := flagValue(args, "-c", "--command"); c != nil {
			inv.emit()
			inv.nestedField(*c)
			return nil, true
		}
	case effects.SpecialScript:
		for i, a := range args {
			v := a.value
			if strings.HasPrefix(v, "--command=") || v == "--command" || len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsRune(v, 'c') {
				inv.classes = []effects.Class{effects.Read}
				inv.emit()
			}
			if strings.HasPrefix(v, "--command=") {
				inv.nestedField(field{value: strings.TrimPrefix(v, "--command="), dynamic: a.dynamic, word: a.word})
				return nil, true
			}
			if (v == "--command" || len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsRune(v, 'c')) && i+1 < len(args) {
				inv.nestedField(args[i+1])
				// The typescript file (default ./typescript) is written.
				file := field{value: "typescript"}
				for j, x := range args {
					if j != i && j != i+1 && (x.dynamic || !isOption(x.value)) {
						file = x
					}
				}
				inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, "script", ""), file)
				return nil, true
			}
		}
		inv.emit()
		inv.opaqueMedium("an interactive shell")
		return nil, true
	case effects.SpecialSSH:
		return nil, inv.ssh(args)
	case effects.SpecialKubectlExec:
		for i, a := range args {
			if a.value == "--" {
				inv.emit()
				inv.remoteArgv(args[i+1:])
				return nil, true
			}
		}
	case effects.SpecialSubmodule:
		inv.emit()
		var code []string
		for _, a := range args {
			if a.dynamic {
				inv.opaqueHigh("a command only known at run time")
				return nil, true
			}
			if !isOption(a.value) {
				code = append(code, a.value)
			}
		}
		if len(code) > 0 {
			// A shell runs it in each submodule's directory, which git
			// finds at run time.
			ctx := processCtx(unknownDirs, unknownDirs)
			ctx.dialect = Sh
			inv.shellCode(strings.Join(code, " "), inv.at, ctx)
		}
		return nil, true
	case effects.SpecialDocker:
		inv.docker(args)
	case effects.SpecialGitConfig:
		return nil, inv.gitConfig(args)
	case effects.SpecialCode:
		inv.code(args)
	case effects.SpecialDD:
		inv.dd(args)
		return nil, true
	case effects.SpecialZshOptions:
		inv.zshOptions(args)
		return nil, true
	case effects.SpecialZmodload:
		inv.zmodload(args)
		return nil, true
	case effects.SpecialAutoload:
		inv.autoload(args)
		return nil, true
	}
	return nil, false
}

// finishSpecial runs the logic an entry needs after option parsing.
func (inv *invocation) finishSpecial(e *effects.Program) {
	switch inv.key() {
	case "printf", "print", "wait", "mapfile", "readarray":
		inv.namedByFlag() // arith.go
	case "rsync", "scp":
		inv.copyTool()
	case "socat":
		// Addresses that open files: FILE:, OPEN:, GOPEN: or a bare path
		// (`socat FILE:.env TCP:host:80`) are read for §5.5.
		for _, o := range inv.operands {
			typ, rest, ok := strings.Cut(o.value, ":")
			switch {
			case o.dynamic:
			case ok && (strings.EqualFold(typ, "FILE") || strings.EqualFold(typ, "OPEN") || strings.EqualFold(typ, "GOPEN")):
				rest, _, _ = strings.Cut(rest, ",")
				inv.w.noteReadField(inv.at, field{value: rest, glob: o.glob})
			case strings.HasPrefix(o.value, "/") || strings.HasPrefix(o.value, "."):
				rest, _, _ = strings.Cut(o.value, ",")
				inv.w.noteReadField(inv.at, field{value: rest, glob: o.glob})
			}
		}
	case "wget":
		if inv.has("-O", "--output-document") != nil {
			inv.classes = without(inv.classes, effects.WriteInside)
		}
	case "git push":
		for _, o := range inv.operands[min(1, len(inv.operands)):] {
			if strings.HasPrefix(o.value, "+") || strings.HasPrefix(o.value, ":") {
				inv.classes = append(inv.classes, effects.HistoryRewrite)
				inv.why = fmt.Sprintf("the refspec %s force-pushes or deletes a remote branch", o.value)
				break
			}
		}
	case "git rm", "git restore", "git checkout":
		if inv.key() == "git checkout" && hasAny(inv.args, "--") {
			inv.classes = []effects.Class{effects.HistoryRewrite}
			inv.why = "git checkout -- PATH throws away uncommitted changes to those files"
		}
		inv.ruleStoreOperands()
	}
	if e.Request == effects.ItemRequests {
		inv.requestItemFiles()
	}
	switch e.Special {
	case effects.SpecialChmod:
		inv.chmod()
	case effects.SpecialSed:
		inv.sed()
	case effects.SpecialAwk:
		inv.awk()
	case effects.SpecialTar:
		inv.tar()
	case effects.SpecialTruncate:
		if h := inv.has("-s", "--size"); h != nil && h.value != nil && strings.TrimLeft(h.value.value, "=") == "0" {
			inv.classes = []effects.Class{effects.Deletion}
			inv.why = "truncate -s 0 erases the files' contents"
			for _, o := range inv.operands {
				inv.deleteOperand(inv.w.part(inv.at, effects.Deletion, inv.prog, ""), o)
			}
			inv.operands = nil
		}
	}
}

func (inv *invocation) opaqueHigh(what string) {
	w := inv.w
	w.allKnown = false
	w.add(w.part(inv.at, effects.OpaqueHigh, inv.prog, fmt.Sprintf("`%s` runs %s, which cannot be identified", inv.text, what)))
}

func (inv *invocation) opaqueMedium(what string) {
	w := inv.w
	w.allKnown = false
	w.add(w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` runs %s, which is not analysed", inv.text, what)))
}

// nestedField classifies a field that holds shell code, which a new shell
// runs where the invocation carries its commands (`sh -c CODE`, `flock f -c
// CODE`).
func (inv *invocation) nestedField(f field) {
	inv.nestedFieldIn(f, inv.carried())
}

// nestedFieldIn is [invocation.nestedField] in ctx.
func (inv *invocation) nestedFieldIn(f field, ctx callCtx) {
	if f.dynamic {
		inv.opaqueHigh("shell code only known at run time")
		return
	}
	var at syntax.Node = inv.at
	if f.word != nil {
		at = f.word
	}
	inv.shellCode(f.value, at, ctx)
}

func flagValue(args []field, names ...string) *field {
	for i, a := range args {
		for _, n := range names {
			if a.value == n && i+1 < len(args) {
				return &args[i+1]
			}
			if strings.HasPrefix(a.value, "--") && strings.HasPrefix(a.value, n+"=") {
				return &field{value: a.value[len(n)+1:], dynamic: a.dynamic, word: a.word}
			}
		}
	}
	return nil
}

// shell: sh/bash/zsh/dash [-opts] [-c 'code' [name args]] | [script args].
func (inv *invocation) shell(args []field) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("a shell with arguments only known at run time")
			return true
		}
		v := a.value
		if v == "--" || v == "-" {
			inv.script(args[i+1:])
			return true
		}
		if !isOption(v) && !strings.HasPrefix(v, "+") {
			inv.script(args[i:])
			return true
		}
		zsh := inv.shellDialect() == Zsh
		switch v {
		case "-o", "+o", "-O", "+O", "--rcfile", "--init-file":
			if zsh && (v == "-o" || v == "+o") && i+1 < len(args) && !zshOptionSafe(args[i+1].value) {
				inv.zshOptionArg("-o " + args[i+1].value)
				return true
			}
			i++
			continue
		}
		if zsh && (strings.HasPrefix(v, "--") || strings.Trim(v[1:], zshSafeLetters) != "") {
			// zsh's letters and long options set options (-y is
			// shwordsplit, --globsubst): only the harmless ones are read.
			if name := strings.TrimPrefix(v, "--"); !strings.HasPrefix(v, "--") || !zshOptionSafe(name) {
				inv.zshOptionArg(v)
				return true
			}
			continue
		}
		if !strings.HasPrefix(v, "--") && strings.ContainsRune(v[1:], 'c') {
			// -c: the first operand after the options is the code, read
			// in the shell's dialect (`zsh -lc CODE` as zsh).
			for j := i + 1; j < len(args); j++ {
				if args[j].dynamic || !isOption(args[j].value) {
					if args[j].dynamic {
						inv.opaqueHigh("shell code only known at run time")
					} else {
						ctx := inv.carried()
						ctx.dialect = inv.shellDialect()
						inv.nestedFieldIn(args[j], ctx)
					}
					return true
				}
			}
			inv.classes = []effects.Class{effects.Read}
			inv.emit()
			return true
		}
		if !strings.HasPrefix(v, "--") && strings.ContainsRune(v[1:], 's') {
			inv.stdinScript()
			return true
		}
	}
	inv.stdinScript()
	return true
}

// zshSafeLetters are zsh's one-letter options that change nothing the
// classifier reads: -c CODE, -s (stdin), -i, -l (login), -f (no startup
// files), -d, -e, -u, -v, -x, -n (no execution), and -o taking a name.
const zshSafeLetters = "cslifdeuvxno"

// zshOptionArg refuses a zsh started with an option that changes how it
// reads the code it runs.
func (inv *invocation) zshOptionArg(opt string) {
	w := inv.w
	p := w.part(inv.at, effects.Unknown, inv.prog, fmt.Sprintf("`%s` starts zsh with %s, which changes how zsh reads the code in ways the classifier does not model", inv.text, opt))
	p.Refusal = effects.Unparseable
	w.allKnown = false
	w.add(p)
}

// interpreterInline lists each interpreter entry's flags whose value is
// inline code, by entry name (TestInterpreterInline checks that every
// interpreter of the table has a list; its aliases share it).
var interpreterInline = map[string][]string{
	"python": {"-c"}, "node": {"-e", "--eval", "-p", "--print"},
	"perl": {"-e", "-E"}, "ruby": {"-e"}, "php": {"-r"}, "lua": {"-e"},
	"deno": {"eval"}, "bun": {"-e", "--eval", "-p", "--print"}, "Rscript": {"-e"},
	"osascript": {"-e"}, "pwsh": {"-c", "-Command"},
	"julia": {"-e", "--eval"}, "tclsh": {}, "swift": {"-e"}, "scala": {"-e"},
	"elixir": {"-e"}, "racket": {"-e"},
	"ts-node": {"-e", "--eval", "-p", "--print"},
}

// interpreter: python/node/perl/ruby...: -c/-e inline code, -m module, a
// script, or stdin. A known subcommand (`deno test`) goes the generic way.
func (inv *invocation) interpreter(e *effects.Program, args []field) ([]field, bool) {
	inline := interpreterInline[inv.key()]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("an interpreter with arguments only known at run time")
			return nil, true
		}
		v := a.value
		if name, _, _ := strings.Cut(v, "="); isOption(v) {
			if f := findFlag(e, name); f != nil && f.Replace {
				return args, false
			}
		}
		for _, n := range inline {
			if v == n || (strings.HasPrefix(v, n) && len(n) == 2 && !strings.HasPrefix(v, "--")) || strings.HasPrefix(v, n+"=") {
				inv.opaqueMedium("inline " + inv.prog + " code")
				return nil, true
			}
		}
		if v == "-m" && i+1 < len(args) && inv.key() == "python" {
			// python -m pytest ...: classify the module as the program.
			mod := args[i+1]
			if m := effects.Lookup(mod.value); !mod.dynamic && m != nil && m.Special != effects.SpecialInterpreter && m.Special != effects.SpecialShell {
				inv.carry(args[i+1:], inv.red)
				return nil, true
			}
			inv.opaqueMedium("the python module " + mod.value)
			return nil, true
		}
		if !isOption(v) {
			if len(e.Subcommands) > 0 && e.Sub(v) != nil {
				return args, false
			}
			inv.script(args[i:])
			return nil, true
		}
	}
	if len(args) > 0 && (args[0].value == "--version" || args[0].value == "-V" || args[0].value == "-v" || args[0].value == "--help" || args[0].value == "-h") {
		inv.classes = []effects.Class{effects.Read}
		inv.emit()
		return nil, true
	}
	inv.stdinScript()
	return nil, true
}

// env [-i] [-u NAME] [-C DIR] [-S 'cmd args'] [NAME=VALUE]... [CMD [ARGS]].
// Options are parsed with the table's flags, as getopt_long parses them
// (`-C/`, `-iC/`, `--chdir=/`, `--ch /`): -C moves the command env runs, and
// only that command.
func (inv *invocation) env(e *effects.Program, args []field) bool {
	w := inv.w
	split := findFlag(e, "-S")
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("a command only known at run time")
			return true
		}
		v := a.value
		switch {
		case v == "--":
			inv.emit()
			inv.carry(args[i+1:], inv.red)
			return true
		case isOption(v):
			n := len(inv.flags)
			used := inv.option(e, a, args[i+1:])
			for _, h := range inv.flags[n:] {
				if h.value != nil && (h.value.dynamic || requestVar(h.value.value)) && (h.name == "-u" || h.name == "--unset") {
					w.requestEnv = true // `env -u no_proxy curl ...`
				}
				if h.flag != split || h.value == nil {
					continue
				}
				// -S 'cmd args': the string is split into words, and the
				// rest of the line follows them.
				parts := []string{h.value.value}
				for _, r := range args[i+1+used:] {
					parts = append(parts, shellQuote(r.value))
				}
				inv.emit()
				ctx := inv.carried()
				ctx.dialect = Bash // env splits the string itself, much as sh would
				inv.shellCode(strings.TrimSpace(strings.Join(parts, " ")), inv.at, ctx)
				return true
			}
			i += used
		case strings.Contains(v, "=") && !strings.HasPrefix(v, "="):
			name, _, _ := strings.Cut(v, "=")
			if requestVar(name) {
				w.requestEnv = true
			}
			_, val, _ := strings.Cut(v, "=")
			w.setEnv(name, val, false, inv.at, inv.at, inv.depth)
		case v == "-": // a lone - is -i
		default:
			inv.emit()
			inv.carry(args[i:], inv.red)
			return true
		}
	}
	// env with no command prints the environment, secrets included.
	w.noteCredential(inv.at, "env")
	inv.emit()
	return true
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// eval, source and `.`.
func (inv *invocation) eval(args []field) bool {
	w := inv.w
	if inv.key() == "eval" {
		var code []string
		for _, a := range args {
			if a.dynamic {
				inv.opaqueHigh("code only known at run time")
				return true
			}
			code = append(code, a.value)
		}
		switch {
		case len(code) > 0 && inv.ctx.shell:
			// The shell runs it now: its cd changes what follows.
			w.here(strings.Join(code, " "), inv.at, inv.depth)
		case len(code) > 0:
			ctx := inv.carried()
			ctx.dialect = inv.ctx.dialect
			inv.shellCode(strings.Join(code, " "), inv.at, ctx)
		default:
			w.add(w.part(inv.at, effects.Read, "eval", ""))
		}
		return true
	}
	// source FILE / . FILE
	if len(args) == 0 {
		w.add(w.part(inv.at, effects.Read, inv.prog, ""))
		return true
	}
	f := args[0]
	if f.dynamic || f.value == "/dev/stdin" || strings.HasPrefix(f.value, "/dev/fd/") || f.value == "-" {
		inv.opaqueHigh("a script only known at run time")
		return true
	}
	inv.script(args)
	return true
}

// cd, pushd, popd change the tracked working directory. bash's cd is
// logical by default: `cd DIR` goes to $PWD/DIR with `..` taken off the
// path as written, and the kernel then follows the symlinks of that path;
// with -P (or when that fails) `..` is taken after the symlinks. Both are
// kept as candidates: a command after the cd must be safe in either.
func (inv *invocation) cd(args []field) {
	w := inv.w
	w.add(w.part(inv.at, effects.Read, inv.prog, ""))
	if !inv.ctx.shell {
		// A process started by a wrapper (`timeout 5 cd x`, `env cd x`):
		// whatever it does, the shell's directory stays.
		return
	}
	var ops []field
	mayFail := false // the cd may leave the directory as it was
	cdOpts := "LPe@"
	if w.zsh() {
		cdOpts = "LPq" // zsh 5.9 cd (-s fails on symlinks); -N and +N name the directory stack
	}
	for _, a := range args {
		if a.dynamic || !isOption(a.value) || a.value == "-" || w.zsh() && isDigits(a.value[1:]) {
			ops = append(ops, a)
		} else if a.value != "--" && (inv.key() != "cd" || strings.Trim(a.value[1:], cdOpts) != "") {
			mayFail = true // an option the shell's cd rejects, or pushd -n (no cd at all)
		}
	}
	old, oldL := w.cwd, w.lcwd
	var next, nextL []string
	switch {
	case inv.key() == "popd":
		if n := len(w.dirStack); n > 0 {
			before := w.saveCwd()
			popped, poppedL := w.dirStack[n-1], w.ldirStack[n-1]
			if w.stackUncertain {
				// A pushd that may have failed pushed nothing: this popd may
				// pop any entry below, or fail and leave the directory.
				popped, poppedL = nil, nil
				for i := range n {
					popped, poppedL = unionDirs(popped, w.dirStack[i]), unionDirs(poppedL, w.ldirStack[i])
				}
			}
			// Capacity is clipped so that a later pushd does not write
			// into an array a saved state still uses (see cwdState).
			w.dirStack, w.ldirStack = w.dirStack[:n-1:n-1], w.ldirStack[:n-1:n-1]
			w.cwd, w.lcwd = popped, poppedL
			if before.stackUncertain {
				w.fail, w.failSt = failAt, before
			}
			return
		}
		next = []string{""}
	case len(ops) == 0:
		if inv.key() == "pushd" {
			next = []string{""}
		} else {
			next = []string{w.opts.Home}
		}
	default:
		o := ops[0]
		switch {
		case o.dynamic || o.value == "-" || strings.HasPrefix(o.value, "+") || o.glob:
			next = []string{""}
		case w.zsh() && (len(ops) > 1 || strings.HasPrefix(o.value, "-")):
			// `cd old new` replaces old by new in $PWD; -N is a stack entry.
			next = []string{""}
		case w.cdpath && !strings.HasPrefix(o.value, "/") && !strings.HasPrefix(o.value, "./") && !strings.HasPrefix(o.value, "../") && o.value != "." && o.value != "..":
			next = []string{""}
		default:
			target, ok := w.pathText(o.value) // `cd C:\ws` is `cd /c/ws`
			if !ok {
				next = []string{""}
				break
			}
			mayFail = mayFail || w.cdMayFail(target, old) || w.cdMayFail(target, oldL)
			next = w.resolve(target, false) // physical: -P
			for _, l := range oldL {        // logical: -L, the default
				lp := ""
				switch {
				case strings.HasPrefix(target, "/"):
					lp = path.Clean(target)
				case l != "":
					lp = path.Clean(l + "/" + target)
				}
				nextL = append(nextL, lp)
				if lp == "" {
					next = append(next, "")
				} else {
					next = append(next, w.physical(lp, false))
				}
			}
		}
	}
	next = unionDirs(next, nil)
	nextL = unionDirs(nextL, next) // after -P, $PWD is the physical path
	before := w.saveCwd()
	if inv.key() == "pushd" {
		w.dirStack = append(w.dirStack, old)
		w.ldirStack = append(w.ldirStack, oldL)
	}
	w.cwd, w.lcwd = next, nextL
	// A cd into a directory that exists succeeds; one into a directory we
	// cannot see may fail and leave the shell where it was: what runs only
	// after its success (`cd x && rm y`) runs in next, what runs after it
	// either way in both.
	w.fail = failNever
	for _, d := range next {
		if mayFail || d == "" || !w.exists(d) {
			w.fail, w.failSt = failAt, before
			return
		}
	}
}

// cdMayFail reports whether `cd target` from one of dirs may fail although
// where it leads exists: bash (logically) and the kernel (physically) both
// need what comes before each `..` to exist (`cd missing/..` fails).
func (w *walker) cdMayFail(target string, dirs []string) bool {
	comps := strings.Split(target, "/")
	for i, c := range comps {
		if c != ".." || i == 0 {
			continue
		}
		prefix := strings.Join(comps[:i], "/")
		if prefix == "" {
			continue // `/..` is `/`
		}
		for _, d := range w.resolveIn(prefix, false, dirs) {
			if d == "" || !w.exists(d) {
				return true
			}
		}
	}
	return false
}

// unionDirs returns the distinct directories of b and a, or the unknown
// directory when there are more than maxCandidates.
func unionDirs(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	for _, x := range append(append([]string(nil), b...), a...) {
		dup := false
		for _, y := range out {
			if x == y {
				dup = true
			}
		}
		if !dup {
			out = append(out, x)
		}
	}
	if len(out) > maxCandidates {
		return []string{""}
	}
	return out
}

// find START... EXPR: -delete, -exec/-execdir/-ok/-okdir CMD {} ;|+, -fprint FILE.
func (inv *invocation) find(args []field) bool {
	w := inv.w
	var starts []field
	follow := false // -H or -L: find follows a start point that is a symlink
	i := findOptions(args, &starts, &follow)
	for ; i < len(args); i++ {
		v := args[i].value
		if !args[i].dynamic && (strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ",") {
			break
		}
		starts = append(starts, args[i])
	}
	for _, a := range args[i:] {
		if a.value == "-files0-from" {
			// GNU find 4.9 reads its start points from a file.
			starts = []field{{value: "-files0-from", dynamic: true}}
		}
	}
	if len(starts) == 0 {
		starts = []field{{value: "."}}
	}

	inv.emit()
	exprAt := i
	fx := inv.findExpr(args[i:], i, starts)
	for ; i < len(args); i++ {
		a := args[i]
		switch a.value {
		case "-delete":
			deleted := starts
			if follow {
				// Through a start point that is a symlink find deletes
				// in its target too (`find -L link -delete`).
				deleted = append([]field(nil), starts...)
				for _, s := range starts {
					if !s.dynamic && !strings.HasSuffix(s.value, "/") && path.Base(s.value) != "." {
						deleted = append(deleted, field{value: s.value + "/", glob: s.glob, word: s.word})
					}
				}
			}
			for _, s := range deleted {
				d := w.part(inv.at, effects.Deletion, "find", "")
				if s.dynamic {
					w.remove(d, "")
					continue
				}
				target := s.value
				if base := path.Base(target); base == "." || target == "./" || !inv.startReaches(fx, i, s) {
					// find never removes the `.` it starts from, nor a
					// start its expression rules out: only what is below.
					target = startChild(s)
				}
				for _, p := range w.resolveIn(target, s.glob || target != s.value, inv.dirs) {
					w.remove(d, p)
				}
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j].value != ";" && args[j].value != "+" {
				j++
			}
			// -exec runs the command where find runs; -execdir in the
			// directory of each file found, which is only known then.
			ctx := inv.carried()
			inDir := a.value == "-execdir" || a.value == "-okdir"
			if inDir {
				ctx = processCtx(unknownDirs, unknownDirs)
			}
			// {} is a found file: below a start path, or the start path
			// itself (`find /ws -exec rm -rf {} +` deletes /ws), unless
			// the tests before the action rule the start out.
			found := []field{{value: startChild(starts[0]), glob: true}}
			if s := starts[0]; !s.dynamic && inv.findsStart(fx, i, s) {
				found = append(found, field{value: s.value, glob: s.glob})
			}
			for _, f := range found {
				if v, ok := w.pathText(f.value); ok {
					f.value = v
				} else {
					f.dynamic = true
				}
				if inDir && !strings.HasPrefix(f.value, "/") && len(inv.dirs) == 1 && inv.dirs[0] != "" {
					// Under -execdir {} is ./NAME in the file's directory,
					// the same file: name it from where find runs.
					f.value = inv.dirs[0] + "/" + f.value
				}
				f.dynamic = f.dynamic || starts[0].dynamic || len(starts) > 1 && !sameStarts(starts)
				inner := make([]field, 0, j-i-1)
				for _, x := range args[i+1 : j] {
					if strings.Contains(x.value, "{}") {
						x = f
					}
					inner = append(inner, x)
				}
				w.found = append(w.found, f.value)
				inv.carryIn(inner, redirInfo{}, ctx)
				w.found = w.found[:len(w.found)-1]
			}
			i = j
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(args) {
				inv.writeOperand(w.part(inv.at, effects.WriteOutside, "find", ""), args[i+1])
				i++
			}
		}
	}
	w.findNul = inv.nulNames(args, exprAt, starts, fx, follow)
	return true
}

// nulNames are the names find prints NUL-separated when -print0 is its
// only output: below the first start, or the start itself, as -exec's {}
// is; nil when it prints anything else (a newline-separated name can make
// xargs see `..`), follows links, or reads its starts from a file.
func (inv *invocation) nulNames(args []field, exprAt int, starts []field, fx *findExpr, follow bool) []field {
	if follow || len(starts) == 0 || starts[0].dynamic || len(starts) > 1 && !sameStarts(starts) {
		return nil
	}
	print0 := false
	for _, a := range args[exprAt:] {
		switch a.value {
		case "-print0":
			print0 = true
		case "-print", "-printf", "-ls", "-exec", "-execdir", "-ok", "-okdir", "-follow", "-files0-from", "-fprint", "-fprintf", "-fls", "-fprint0":
			return nil
		}
		if a.dynamic {
			return nil
		}
	}
	if !print0 {
		return nil
	}
	if fx == nil {
		fx = parseFindExpr(args[exprAt:], exprAt)
	}
	if fx.bad {
		return nil
	}
	found := []field{{value: startChild(starts[0]), glob: true}}
	for i, a := range args {
		if a.value == "-print0" && inv.findsStart(fx, i, starts[0]) {
			found = append(found, starts[0])
			break
		}
	}
	for k := range found {
		if v, ok := inv.w.pathText(found[k].value); ok {
			found[k].value = v
		} else {
			found[k].dynamic = true
		}
	}
	return found
}

// findOptions reads the options before find's start points and returns
// the index of the first word after them: GNU find's -H, -L, -P, -D
// DEBUGOPTS, -OLEVEL and a closing `--`, and BSD find's -E, -X, -d, -s, -x
// and -f PATH (a start point, added to starts). follow is set by -H and -L.
func findOptions(args []field, starts *[]field, follow *bool) int {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			return i
		}
		switch v := a.value; {
		case v == "-H" || v == "-L":
			*follow = true
		case v == "-P" || v == "-E" || v == "-X" || v == "-d" || v == "-s" || v == "-x":
		case v == "-D" && i+1 < len(args):
			i++
		case strings.HasPrefix(v, "-O") && isDigits(v[2:]):
		case v == "-f" && i+1 < len(args):
			*starts = append(*starts, args[i+1])
			i++
		case v == "--":
			return i + 1
		default:
			return i
		}
	}
	return i
}

// findsStart reports whether find may hand its start path s itself to the
// action at index i of its arguments (x is its expression): not `.` or `..`
// (no program deletes or moves them), and not when the expression rules s
// out ([invocation.startReaches]).
func (inv *invocation) findsStart(x *findExpr, i int, s field) bool {
	start, ok := inv.w.pathText(s.value)
	if !ok {
		return true // not placeable: it may be anything, the root included
	}
	if b := path.Base(start); b == "." || b == ".." {
		return false
	}
	return inv.startReaches(x, i, s)
}

func startChild(s field) string {
	if s.value == "/" {
		return "/*"
	}
	return strings.TrimSuffix(s.value, "/") + "/*"
}

func sameStarts(s []field) bool {
	for _, x := range s[1:] {
		if x.value != s[0].value {
			return false
		}
	}
	return true
}

// xargs/parallel [options] CMD [ARGS]: CMD gets more arguments from stdin.
func (inv *invocation) xargs(e *effects.Program, args []field) bool {
	if w := inv.w; w.credential == nil && w.printedCredentials() {
		// find printed names that may be files of stored credentials:
		// the command run on them may read them (SPEC §5.5).
		w.noteCredential(inv.at, inv.prog)
		w.credential.Reason = fmt.Sprintf("`%s` runs its command on the names a find prints, which may be files of stored credentials", brief(inv.text))
	}
	if inv.key() == "parallel" {
		return inv.parallel(e, args)
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("a command only known at run time")
			return true
		}
		if isOption(a.value) {
			if f := findFlag(e, a.value); f != nil && f.Value != effects.NoValue && f.Value != effects.OptionalArg {
				i++
			} else if f == nil && len(a.value) == 2 && strings.Contains("IdEeLnPsa", a.value[1:]) && i+1 < len(args) {
				// xargs options that take a separate value.
				i++
			}
			continue
		}
		inner := []field{}
		for _, x := range args[i:] {
			if x.value == ":::" || x.value == "::::" {
				break
			}
			if strings.Contains(x.value, "{}") || strings.Contains(x.value, "{1}") {
				x = field{value: x.value, dynamic: true}
			}
			inner = append(inner, x)
		}
		if nul := inv.w.pipeNul; nul != nil && inv.nulInput(args) {
			// `find src -print0 | xargs -0 rm`: the names are the
			// find's, as `find src -exec rm {} +` gets them.
			inv.w.pipeNul = nil
			inv.emit()
			for _, f := range nul {
				run := make([]field, 0, len(inner))
				replaced := false
				for _, x := range inner {
					if x.dynamic && strings.Contains(x.value, "{}") {
						x, replaced = f, true
					}
					run = append(run, x)
				}
				if !replaced {
					run = append(run, f)
				}
				inv.carry(run, redirInfo{})
			}
			return true
		}
		inner = append(inner, field{value: "", dynamic: true})
		inv.emit()
		inv.carry(inner, redirInfo{})
		return true
	}
	inv.emit()
	return true
}

// nulInput reports whether xargs reads NUL-separated names (-0, --null)
// from its stdin, not from a file (-a, --arg-file).
func (inv *invocation) nulInput(args []field) bool {
	null := false
	for _, a := range args {
		switch {
		case a.value == "-0" || a.value == "--null":
			null = true
		case a.value == "-a" || strings.HasPrefix(a.value, "--arg-file") || strings.HasPrefix(a.value, "-a") && len(a.value) > 2 && !strings.HasPrefix(a.value, "--"):
			return false
		case !isOption(a.value):
			return null
		}
	}
	return null
}

// watch [options] CMD...: the words are joined and run by sh -c (unless -x).
func (inv *invocation) watch(args []field) bool {
	exec := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.dynamic && isOption(a.value) {
			switch a.value {
			case "-n", "--interval", "-d", "-q", "--equexit", "-s", "--shotsfile":
				if a.value == "-n" || a.value == "--interval" || a.value == "-q" || a.value == "--equexit" || a.value == "-s" || a.value == "--shotsfile" {
					i++
				}
			case "-x", "--exec":
				exec = true
			}
			continue
		}
		inv.emit()
		if exec {
			inv.carry(args[i:], redirInfo{})
			return true
		}
		var code []string
		for _, x := range args[i:] {
			if x.dynamic {
				inv.opaqueHigh("a command only known at run time")
				return true
			}
			code = append(code, x.value)
		}
		ctx := inv.carried()
		ctx.dialect = Sh // watch runs `sh -c`
		inv.shellCode(strings.Join(code, " "), inv.at, ctx)
		return true
	}
	inv.emit()
	return true
}

// ssh [options] HOST [CMD...]: network, and the remote command's effects
// with every target on the remote side unknown.
func (inv *invocation) ssh(args []field) bool {
	withValue := "bcDEeFIiJLlmOopQRSWw"
	inv.emit()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.remoteArgv(args[i:])
			return true
		}
		v := a.value
		if isOption(v) {
			if strings.HasPrefix(v, "-o") {
				opt := strings.TrimPrefix(v, "-o")
				if opt == "" && i+1 < len(args) {
					opt = args[i+1].value
					i++
				}
				lo := strings.ToLower(opt)
				if strings.HasPrefix(lo, "proxycommand") || strings.HasPrefix(lo, "localcommand") || strings.HasPrefix(lo, "permitlocalcommand") || strings.HasPrefix(lo, "knownhostscommand") {
					inv.opaqueMedium("a local command from the ssh option " + opt)
				}
				continue
			}
			if len(v) == 2 && strings.ContainsRune(withValue, rune(v[1])) {
				i++
			}
			continue
		}
		// v is the host.
		if i+1 < len(args) {
			inv.remoteArgv(args[i+1:])
		} else {
			inv.fedShell()
		}
		return true
	}
	return true
}

// fedShell classifies the commands a shell started elsewhere with no
// command reads from its stdin (`ssh host < cmds`, `echo ls | wsl`): a
// literal here-doc is parsed there; anything else is only known at run time.
func (inv *invocation) fedShell() {
	switch red := inv.red; {
	case red.script != nil && !red.scriptDyn:
		inv.remoteArgv([]field{{value: *red.script}})
	case red.scriptDyn || red.stdinDyn || red.stdin == stdinPipe || red.stdinFile != "":
		inv.opaqueHigh(fmt.Sprintf("commands fed to %s at run time", inv.prog))
	}
}

// remoteArgv classifies a command that runs on another machine: its words are
// joined and parsed like sh -c, with no cwd, home or workspace there.
func (inv *invocation) remoteArgv(args []field) {
	w := inv.w
	var code []string
	for _, a := range args {
		if a.dynamic {
			inv.opaqueHigh("a remote command only known at run time")
			return
		}
		code = append(code, a.value)
	}
	w.elsewhere(func(ctx callCtx) { w.newShell(strings.Join(code, " "), inv.at, inv.depth, ctx) })
}

// docker/podman: --privileged, host-root mounts and host namespaces escalate.
func (inv *invocation) docker(args []field) {
	w := inv.w
	for i, a := range args {
		v := a.value
		val := ""
		switch {
		case v == "--privileged" || strings.HasPrefix(v, "--privileged="):
			if v != "--privileged=false" {
				inv.privileged("--privileged")
			}
			continue
		case v == "-v" || v == "--volume" || v == "--mount":
			if i+1 < len(args) {
				val = args[i+1].value
			}
		case strings.HasPrefix(v, "--volume=") || strings.HasPrefix(v, "--mount="):
			_, val, _ = strings.Cut(v, "=")
		case strings.HasPrefix(v, "-v") && len(v) > 2:
			val = v[2:]
		case v == "--pid=host" || v == "--userns=host" || v == "--ipc=host" || strings.HasPrefix(v, "--cap-add=SYS_ADMIN") || strings.HasPrefix(v, "--cap-add=ALL"):
			inv.privileged(v)
			continue
		case v == "--cap-add" && i+1 < len(args) && (args[i+1].value == "ALL" || args[i+1].value == "SYS_ADMIN"):
			inv.privileged("--cap-add " + args[i+1].value)
			continue
		case v == "--device" || strings.HasPrefix(v, "--device="):
			// A disk or memory device is the host's data, as a host-root
			// mount is (`--device /dev/sda`).
			dev, ok := strings.CutPrefix(v, "--device=")
			if !ok && i+1 < len(args) {
				dev = args[i+1].value
			}
			if src, _, _ := strings.Cut(dev, ":"); hostDevice(src) {
				inv.privileged("--device " + src)
			}
			continue
		case v == "--security-opt" || strings.HasPrefix(v, "--security-opt="):
			opt, ok := strings.CutPrefix(v, "--security-opt=")
			if !ok && i+1 < len(args) {
				opt = args[i+1].value
			}
			if strings.Contains(opt, "unconfined") || opt == "label=disable" || opt == "label:disable" {
				inv.privileged("--security-opt " + opt)
			}
			continue
		default:
			continue
		}
		src := val
		if strings.Contains(val, "source=") || strings.Contains(val, "src=") {
			for _, kv := range strings.Split(val, ",") {
				if k, x, ok := strings.Cut(kv, "="); ok && (k == "source" || k == "src") {
					src = x
				}
			}
		} else if w.opts.Platform == Windows && len(val) > 2 && val[1] == ':' && isASCIILetter(val[0]) && (val[2] == '\\' || val[2] == '/') {
			// -v C:\Users:/x: the drive's colon is not the separator.
			src = val
			if i := strings.IndexByte(val[2:], ':'); i >= 0 {
				src = val[:2+i]
			}
		} else {
			src, _, _ = strings.Cut(val, ":")
		}
		if w.hostMount(src) {
			inv.privileged("a mount of the host's " + src)
		}
	}
}

// hostMount reports whether a container mount's source gives the container
// the host: its root (also as `//` or `/./`), /etc, /root, the docker
// socket, the home directory; on Windows a drive root, C:\Windows, or the
// home directory in any spelling.
func (w *walker) hostMount(src string) bool {
	if w.opts.Platform == Windows {
		switch strings.ReplaceAll(src, `\`, "/") {
		case "//var/run/docker.sock", "/var/run/docker.sock", "//./pipe/docker_engine":
			return true
		}
		p, ok := w.pathText(src)
		if !ok || !strings.HasPrefix(p, "/") {
			return !ok
		}
		p = path.Clean(p)
		return windowsSystem(p) || w.opts.Home != "" && w.same(p, w.opts.Home)
	}
	if src == "" || !strings.HasPrefix(src, "/") {
		return false
	}
	switch p := path.Clean(src); p {
	case "/", "/etc", "/root", "/var/run/docker.sock", "/run/docker.sock", "/var/run", "/run":
		return true
	default:
		return w.opts.Home != "" && w.same(p, w.opts.Home)
	}
}

// hostDevice reports whether a device handed to a container holds the
// host's data or memory: a disk, partition, mapper or loop device, or
// /dev/mem. Only known at run time counts too.
func hostDevice(src string) bool {
	if !strings.HasPrefix(src, "/dev/") {
		return src == "" || strings.ContainsAny(src, "$`")
	}
	for _, p := range []string{"/dev/sd", "/dev/hd", "/dev/vd", "/dev/xvd", "/dev/nvme", "/dev/mmcblk", "/dev/dm-", "/dev/mapper", "/dev/disk", "/dev/loop", "/dev/md", "/dev/mem", "/dev/kmem", "/dev/port"} {
		if strings.HasPrefix(src, p) {
			return true
		}
	}
	return false
}

func (inv *invocation) privileged(what string) {
	w := inv.w
	p := w.part(inv.at, effects.Privilege, inv.prog, fmt.Sprintf("`%s` gives a container control of the host (%s)", inv.text, what))
	p.Refusal = effects.PrivilegeEscalation
	w.add(p)
}

// gitConfig: `git config` reads, writes .git/config, or writes home with --global.
func (inv *invocation) gitConfig(args []field) bool {
	w := inv.w
	var ops []field
	scope := ""
	file := ""
	read := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value
		switch {
		case v == "--global" || v == "--system":
			scope = v
		case v == "-f" || v == "--file":
			if i+1 < len(args) {
				file = args[i+1].value
				i++
			}
		case strings.HasPrefix(v, "--file="):
			file = strings.TrimPrefix(v, "--file=")
		case v == "--get" || v == "--get-all" || v == "--get-regexp" || v == "-l" || v == "--list" || v == "--show-origin" || v == "--show-scope" || v == "--get-urlmatch" || v == "get" || v == "list" || v == "--name-only":
			read = true
		case v == "--type" || v == "--default" || v == "--comment":
			i++
		case isOption(v) && !a.dynamic:
		default:
			ops = append(ops, a)
		}
	}
	writeVerb := false
	if len(ops) > 0 && (ops[0].value == "set" || ops[0].value == "unset" || ops[0].value == "rename-section" || ops[0].value == "remove-section" || ops[0].value == "edit") {
		writeVerb = true
		ops = ops[1:]
	} else if len(ops) > 0 && (ops[0].value == "get" || ops[0].value == "list") {
		read = true
	}
	if read || !writeVerb && len(ops) < 2 && !hasAny(args, "--unset", "--unset-all", "--add", "--replace-all", "--remove-section", "--rename-section", "-e", "--edit") {
		w.add(w.part(inv.at, effects.Read, "git config", ""))
		return true
	}
	base := w.part(inv.at, effects.WriteOutside, "git config", "")
	switch {
	case scope == "--system":
		w.write(base, "/etc/gitconfig", false)
	case scope == "--global":
		if w.opts.Home == "" {
			w.write(base, "", true)
		} else {
			w.write(base, w.opts.Home+"/.gitconfig", false)
		}
	case file != "":
		inv.writeOperand(base, field{value: file})
	default:
		for _, d := range inv.dirs {
			if d == "" {
				w.write(base, "", true)
			} else {
				w.writeTo(base, d+"/.git/config", false, false)
			}
		}
	}
	if len(ops) >= 1 {
		kv := ops[0].value
		if len(ops) >= 2 {
			kv += "=" + ops[1].value
		}
		if ops[0].dynamic || configRunsProgram(ops[0].value, kv) {
			w.allKnown = false
			w.add(w.part(inv.at, effects.OpaqueMedium, "git config", fmt.Sprintf("`%s` sets %s, which makes git run a program later", inv.text, ops[0].value)))
			if len(ops) >= 2 && configIsCode(ops[0].value, ops[1].value) {
				var at syntax.Node = inv.at
				if ops[1].word != nil {
					at = ops[1].word
				}
				// git runs it later from the top of the work tree.
				w.codeValue(ops[1].value, ops[1].dynamic, at, inv.depth, processCtx(unknownDirs, unknownDirs))
			}
		}
	}
	return true
}

func hasAny(args []field, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a.value == n {
				return true
			}
		}
	}
	return false
}

// code/cursor/codium: disabling or uninstalling this extension touches the rule store.
func (inv *invocation) code(args []field) {
	w := inv.w
	for i, a := range args {
		v := a.value
		if v == "--disable-extensions" || ((v == "--uninstall-extension" || v == "--disable-extension") && i+1 < len(args) && (args[i+1].dynamic || strings.Contains(strings.ToLower(args[i+1].value), "command-safety"))) {
			p := w.part(inv.at, effects.SystemChange, inv.prog, fmt.Sprintf("`%s` disables or uninstalls the command-safety extension", inv.text))
			p.Refusal = effects.RuleStoreModification
			w.add(p)
			return
		}
	}
}

// dd if=FILE of=FILE.
func (inv *invocation) dd(args []field) {
	w := inv.w
	wrote := false
	for _, a := range args {
		if k, v, ok := strings.Cut(a.value, "="); ok {
			switch k {
			case "of":
				wrote = true
				inv.writeOperand(w.part(inv.at, effects.WriteOutside, "dd", ""), field{value: v, dynamic: a.dynamic})
			case "if":
				if w.credentialPath(v) {
					w.noteCredential(inv.at, v)
				}
			}
		}
	}
	if !wrote {
		w.add(w.part(inv.at, effects.Read, "dd", ""))
	}
}

// setuidMode reports whether a file mode, octal or symbolic, sets (or
// touches) a setuid or setgid bit: `4755`, `04755`, `=4755`, `+4000`,
// `u+s`, `-x,g+s`. GNU chmod takes an octal number after an operator as
// well as on its own; a symbolic `s` is counted whatever the operator.
func setuidMode(m string) bool {
	if strings.ContainsRune(m, '/') {
		return false // a path, not a mode
	}
	for _, clause := range strings.Split(m, ",") {
		if strings.ContainsRune(clause, 's') {
			return true
		}
		digits := strings.TrimLeft(clause, "ugoa+-=")
		if digits == "" || strings.Trim(digits, "01234567") != "" {
			continue
		}
		if v, err := strconv.ParseUint(digits, 8, 32); err != nil || v&0o6000 != 0 {
			return true
		}
	}
	return false
}

// chmodModeWord reports whether a word GNU chmod reads as an option is a
// mode (`chmod -x f`, `chmod -w,u+s f`): its getopt takes each of
// rwxXstugoa,+-= and the octal digits as the start of a mode.
func chmodModeWord(v string) bool {
	return len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Trim(v[1:], "rwxXstugoa,+-=01234567") == ""
}

// chmod/chown/chgrp: setuid bits escalate; targets outside the workspace are
// system changes, in home or system roots protected writes. A chmod mode
// may be typed as an option (`chmod -x f`): then every operand is a file.
func (inv *invocation) chmod() {
	w := inv.w
	ops := inv.operands
	var modes []field
	if inv.key() == "chmod" {
		for _, a := range inv.args {
			if a.value == "--" {
				break
			}
			if chmodModeWord(a.value) {
				modes = append(modes, a)
			}
		}
	}
	if len(modes) == 0 && inv.has("--reference") == nil && len(ops) > 0 {
		modes = ops[:1]
		ops = ops[1:]
	}
	for _, mode := range modes {
		if inv.key() == "chmod" && !mode.dynamic && setuidMode(mode.value) {
			p := w.part(inv.at, effects.Privilege, inv.prog, fmt.Sprintf("`%s` sets a setuid or setgid bit", inv.text))
			p.Refusal = effects.PrivilegeEscalation
			w.add(p)
		}
		if mode.dynamic {
			w.add(w.part(inv.at, effects.SystemChange, inv.prog, fmt.Sprintf("`%s` sets a mode only known at run time", inv.text)))
		}
	}
	if len(ops) == 0 {
		// Nothing to change (`chmod 755`, `chown u`): the program fails,
		// but the verdict still names it.
		w.add(w.part(inv.at, effects.WriteInside, inv.prog, fmt.Sprintf("`%s` names no file to change", inv.text)))
	}
	inv.operands = nil
	inv.classes = nil
	for _, o := range ops {
		if o.dynamic {
			w.add(w.part(inv.at, effects.SystemChange, inv.prog, fmt.Sprintf("`%s` changes a path only known at run time", inv.text)))
			continue
		}
		for _, p := range w.resolveIn(o.value, o.glob, inv.dirs) {
			switch l := w.locateChange(p); l {
			case locInside, locRoot:
				w.add(w.part(inv.at, effects.WriteInside, inv.prog, fmt.Sprintf("`%s` changes permissions of %s", inv.text, w.describe(p, l))))
			case locOutside:
				w.add(w.part(inv.at, effects.SystemChange, inv.prog, fmt.Sprintf("`%s` changes permissions of %s", inv.text, w.describe(p, l))))
			default:
				w.write(w.part(inv.at, effects.WriteOutside, inv.prog, ""), p, p == "")
			}
		}
	}
}

// sed: -i edits files; the script's w/W/e commands and s///e, s///w flags.
func (inv *invocation) sed() {
	w := inv.w
	scripts := []string{}
	ops := inv.operands
	for _, h := range inv.flags {
		if (h.name == "-e" || h.name == "--expression") && h.value != nil {
			scripts = append(scripts, h.value.value)
		}
		if (h.name == "-f" || h.name == "--file") && h.value != nil {
			inv.opaqueMedium("a sed script from " + h.value.value)
		}
	}
	if len(scripts) == 0 && inv.has("-f", "--file") == nil && len(ops) > 0 {
		if ops[0].dynamic {
			inv.opaqueHigh("a sed script only known at run time")
		}
		scripts = append(scripts, ops[0].value)
		ops = ops[1:]
	}
	for _, s := range scripts {
		executes, writes, reads := sedScan(s)
		if executes {
			inv.opaqueMedium("a sed script that executes commands")
		}
		for _, f := range reads {
			w.noteRead(inv.at, f, nil) // `r FILE`, `R FILE`: its lines go to the output
		}
		for _, f := range writes {
			if f != "/dev/stdout" && f != "/dev/stderr" {
				inv.writeOperand(w.part(inv.at, effects.WriteOutside, "sed", ""), field{value: f})
			}
		}
	}
	if inv.has("-i", "--in-place") != nil {
		inv.classes = nil
		for _, o := range ops {
			inv.writeOperand(w.part(inv.at, effects.WriteOutside, "sed", ""), o)
		}
	} else {
		for _, o := range ops {
			w.noteReadField(inv.at, o)
		}
	}
	inv.operands = nil
}

// sedScan reads a sed script the way GNU sed would, far enough to find the
// commands that execute (`e`, `s///e`), the files written (`w`, `s///w`)
// and the files read into the output (`r`, `R`).
func sedScan(s string) (executes bool, writes, reads []string) {
	i := 0
	skipSpace := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ';' || s[i] == '\n' || s[i] == '{' || s[i] == '}' || s[i] == '!') {
			i++
		}
	}
	delimited := func(d byte) { // skip to the next unescaped d
		for i < len(s) && s[i] != d {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		i++
	}
	restOfLine := func() string {
		j := i
		for i < len(s) && s[i] != '\n' {
			i++
		}
		return strings.TrimSpace(s[j:i])
	}
	for steps := 0; i < len(s) && steps < len(s)+1; steps++ {
		skipSpace()
		// Address: numbers, $, regexes, ranges and steps.
		for i < len(s) {
			c := s[i]
			if c >= '0' && c <= '9' || c == '$' || c == ',' || c == '~' || c == '+' || c == ' ' || c == '!' {
				i++
				continue
			}
			if c == '/' {
				i++
				delimited('/')
				continue
			}
			if c == '\\' && i+1 < len(s) {
				d := s[i+1]
				i += 2
				delimited(d)
				continue
			}
			break
		}
		if i >= len(s) {
			break
		}
		cmd := s[i]
		i++
		switch cmd {
		case 'e':
			return true, writes, reads
		case 'w', 'W':
			writes = append(writes, restOfLine())
		case 'r', 'R':
			reads = append(reads, restOfLine())
		case 'a', 'i', 'c', 'b', 't', 'T', ':', 'q', 'Q', 'l', 'L':
			restOfLine()
		case 's', 'y':
			if i >= len(s) {
				break
			}
			d := s[i]
			i++
			delimited(d)
			delimited(d)
			if cmd == 'y' {
				continue
			}
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch s[i] {
				case 'e':
					executes = true
				case 'w':
					i++
					writes = append(writes, restOfLine())
					continue
				}
				i++
			}
		}
	}
	return executes, writes, reads
}

// awkString finds awk's string literals.
var awkString = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)

// awkPrintTo finds `print ... > "file"` (the file when it is a literal).
var awkPrintTo = regexp.MustCompile(`print[f]?[^;{}]*?>>?\s*(?:"([^"]*)")?`)

// awk: system(), pipes and getline run commands; print > writes files.
func (inv *invocation) awk() {
	ops := inv.operands
	if inv.has("-f", "--file") != nil {
		inv.opaqueMedium("an awk program from a file")
		return
	}
	if len(ops) == 0 {
		return
	}
	prog := ops[0]
	if prog.dynamic {
		inv.opaqueHigh("an awk program only known at run time")
		return
	}
	s := prog.value
	if strings.Contains(s, "system") || strings.Contains(s, "|") || strings.Contains(s, "getline") || strings.Contains(s, "@load") || strings.Contains(s, "ENVIRON") {
		inv.opaqueMedium("an awk program that runs commands")
	}
	for _, m := range awkString.FindAllStringSubmatch(s, -1) {
		if strings.HasPrefix(m[1], "/inet/") || strings.HasPrefix(m[1], "/inet4/") || strings.HasPrefix(m[1], "/inet6/") {
			// gawk's special files: a print to or getline from
			// /inet/tcp/LPORT/HOST/RPORT is a connection.
			inv.w.add(inv.w.part(inv.at, effects.Network, inv.prog, fmt.Sprintf("`%s` opens a network connection (awk's %s)", inv.text, m[1])))
			break
		}
	}
	if strings.Contains(s, "getline") {
		// `getline < FILE` reads any file the program names: each string
		// in it may be one (`f = ".env"; getline l < f`).
		for _, m := range awkString.FindAllStringSubmatch(s, -1) {
			inv.w.noteRead(inv.at, strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[1]), nil)
		}
	}
	for _, m := range awkPrintTo.FindAllStringSubmatch(s, -1) {
		if m[1] == "" {
			inv.w.write(inv.w.part(inv.at, effects.WriteOutside, inv.prog, ""), "", true)
			continue
		}
		inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, inv.prog, ""), field{value: m[1]})
	}
	for _, o := range ops[1:] {
		if !o.dynamic && !strings.Contains(o.value, "=") {
			inv.w.noteReadField(inv.at, o)
		}
	}
	inv.operands = nil
}

// tar: -x writes into -C DIR (or the cwd), -c writes the -f archive, and
// options that run programs are opaque.
func (inv *invocation) tar() {
	w := inv.w
	mode := ""
	ops := inv.operands
	absolute := inv.has("-P", "--absolute-names") != nil
	for _, h := range inv.flags {
		switch h.name {
		case "-x", "--extract", "--get":
			mode = "x"
		case "-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--delete":
			mode = "c"
		case "-t", "--list", "-d", "--diff", "--compare":
			if mode == "" {
				mode = "t"
			}
		}
	}
	if mode == "" && len(ops) > 0 && !ops[0].dynamic && !strings.HasPrefix(ops[0].value, "-") {
		// Old style: tar xzf archive.tar.gz
		first := ops[0].value
		switch {
		case strings.ContainsRune(first, 'x'):
			mode = "x"
		case strings.ContainsAny(first, "cru"):
			mode = "c"
		case strings.ContainsRune(first, 't'):
			mode = "t"
		}
		if mode != "" {
			// The letters that take an argument take the next operands,
			// in order (`tar xfC a.tar /etc`); the rest are members.
			rest := ops[1:]
			for _, l := range first {
				if l == 'P' {
					absolute = true
				}
				if !strings.ContainsRune(tarArgLetters, l) || len(rest) == 0 {
					continue
				}
				v := rest[0]
				rest = rest[1:]
				if l == 'f' {
					if mode == "c" {
						inv.archive(v)
					}
					continue
				}
				if f := findFlag(inv.entry, "-"+string(l)); f != nil {
					inv.applyFlag(flagHit{flag: f, name: "-" + string(l), value: &v})
				}
			}
			ops = rest
		}
	}
	if mode == "c" {
		for _, o := range ops {
			if !o.dynamic {
				w.noteReadField(inv.at, o)
				w.noteTree(inv.at, o.value, inv.dirs)
			}
		}
	}
	inv.sources = ops // --remove-files deletes them
	inv.operands = nil
	switch mode {
	case "x":
		inv.classes = nil
		base := w.part(inv.at, effects.WriteInside, "tar", "`"+inv.text+"` extracts files")
		dirs := inv.dirs
		if h := inv.has("--one-top-level"); h != nil && h.value != nil {
			// Every member goes into that directory.
			dirs = unknownDirs
			if !h.value.dynamic {
				dirs = w.resolveIn(h.value.value, false, inv.dirs)
			}
		}
		if absolute {
			// Members keep their absolute names and `..`: anywhere.
			dirs = unknownDirs
		}
		for _, d := range dirs {
			w.write(base, d, d == "")
		}
	case "c":
		inv.classes = nil
		if h := inv.has("-f", "--file"); h != nil && h.value != nil {
			if h.value.value != "-" {
				inv.archive(*h.value)
			}
		}
		if len(inv.classes) == 0 {
			w.add(w.part(inv.at, effects.Read, "tar", ""))
		}
	}
}

// tarArgLetters are the letters of tar's old-style key that take an
// argument (GNU tar 1.35): `tar xfC a.tar DIR`.
const tarArgLetters = "bCfFgHIKLNTVX"

// archive classifies writing tar's archive a: tar opens it before any -C
// takes effect (GNU tar and bsdtar alike), so it is relative to the
// directory tar runs in, not to -C's (`tar -C /tmp -cf out.tar x` writes
// ./out.tar).
func (inv *invocation) archive(a field) {
	moved := inv.dirs
	inv.dirs = inv.ctx.dirs
	inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, "tar", ""), a)
	inv.dirs = moved
}

// codeValue classifies a literal value that is shell code another program
// runs later, in a new shell in ctx: a GIT_PAGER, a `git -c core.pager=`, an
// alias `!cmd` (SPEC §3 rule 11).
func (w *walker) codeValue(value string, dynamic bool, at syntax.Node, depth int, ctx callCtx) {
	if dynamic {
		p := w.part(at, effects.OpaqueHigh, "", fmt.Sprintf("`%s` sets a program only known at run time", brief(w.textOf(at))))
		w.allKnown = false
		w.add(p)
		return
	}
	code := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(value), "!"))
	if code == "" || code == "true" || code == "false" {
		return
	}
	ctx.dialect = Sh // git and the programs that run pagers and editors run `sh -c`
	w.newShell(code, at, depth, ctx)
}

func without(cs []effects.Class, c effects.Class) []effects.Class {
	out := cs[:0:0]
	for _, x := range cs {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}

// copyTool: rsync and scp reach the network only with a remote operand;
// rsync --delete deletes in the destination.
func (inv *invocation) copyTool() {
	w := inv.w
	anyRemote := false
	for _, o := range inv.operands {
		if o.dynamic || remote(o.value) || strings.HasPrefix(o.value, "rsync://") {
			anyRemote = true
		}
	}
	if !anyRemote && len(inv.operands) > 0 {
		inv.classes = without(inv.classes, effects.Network)
	}
	for _, o := range inv.operands[:max(len(inv.operands)-1, 0)] {
		if !o.dynamic && !remote(o.value) {
			w.noteTree(inv.at, o.value, inv.dirs) // the sources
		}
	}
	deletes := false
	for _, h := range inv.flags {
		if strings.HasPrefix(h.name, "--delete") {
			deletes = true
		}
	}
	for _, a := range inv.args {
		if strings.HasPrefix(a.value, "--delete") {
			deletes = true
		}
	}
	if deletes && len(inv.operands) >= 2 {
		dest := inv.operands[len(inv.operands)-1]
		if !remote(dest.value) {
			inv.deleteOperand(w.part(inv.at, effects.Deletion, inv.prog, fmt.Sprintf("`%s` deletes files in %s that the source lacks", inv.text, dest.value)), dest)
		}
	}
}

// parallel [options] [CMD] ::: ARGS: CMD is shell code with {} replaced by
// each argument; with no CMD, each argument is a command. Without ::: the
// arguments come from stdin and are unknown. Each job runs in --wd DIR
// (`...` is a new directory under ~/.parallel/tmp), or on the -S hosts.
func (inv *invocation) parallel(e *effects.Program, args []field) bool {
	inv.emit()
	var cmd, vals []field
	seps := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.dynamic || !isOption(a.value) {
			break
		}
		if len(a.value) == 2 && findFlag(e, a.value) == nil && strings.Contains("jSIdEPa", a.value[1:]) {
			i++ // an option that takes a separate value
			continue
		}
		i += inv.option(e, a, args[i+1:])
	}
	for _, h := range inv.flags {
		if h.flag.Value == effects.Dir && h.value != nil && h.value.value == "..." {
			inv.dirs, inv.runDirs = unknownDirs, unknownDirs
		}
	}
	inv.emitFlags()
	for ; i < len(args); i++ {
		a := args[i]
		if a.value == ":::" || a.value == "::::" || a.value == ":::+" {
			seps = true
			continue
		}
		if seps {
			vals = append(vals, a)
		} else {
			cmd = append(cmd, a)
		}
	}
	if !seps {
		vals = []field{{value: "$PARALLEL_ARG", dynamic: true}}
	}
	var code []string
	for _, c := range cmd {
		if c.dynamic {
			inv.opaqueHigh("a command only known at run time")
			return true
		}
		code = append(code, c.value)
	}
	for _, v := range vals {
		arg := shellQuote(v.value)
		if v.dynamic {
			arg = "\"$PARALLEL_ARG\""
		}
		var line string
		switch {
		case len(code) == 0:
			if v.dynamic {
				inv.opaqueHigh("commands read from stdin")
				return true
			}
			line = v.value
		case strings.Contains(strings.Join(code, " "), "{}"):
			line = strings.ReplaceAll(strings.Join(code, " "), "{}", arg)
		default:
			line = strings.Join(code, " ") + " " + arg
		}
		inv.shellCode(line, inv.at, inv.carried())
	}
	return true
}

// ruleStoreOperands refuses pathspec operands that name the rule store
// (`git rm .vscode/settings.json`), for commands whose operands are not
// otherwise classified as paths.
func (inv *invocation) ruleStoreOperands() {
	w := inv.w
	for _, o := range inv.operands {
		if o.dynamic {
			continue
		}
		for _, p := range w.resolveIn(o.value, o.glob, inv.dirs) {
			if p != "" && w.locateChange(p) == locRuleStore {
				part := w.part(inv.at, effects.WriteOutside, inv.prog, fmt.Sprintf("`%s` changes %s", inv.text, w.describe(p, locRuleStore)))
				part.Refusal = effects.RuleStoreModification
				w.add(part)
			}
		}
	}
}

// flockLock: flock creates its lock file (the first operand) when it is
// missing; a file descriptor number creates nothing.
func (inv *invocation) flockLock(e *effects.Program, args []field) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.dynamic && isOption(a.value) {
			if f := findFlag(e, a.value); f != nil && f.Value != effects.NoValue && f.Value != effects.OptionalArg {
				i++
			}
			continue
		}
		if !a.dynamic && isDigits(a.value) {
			return
		}
		p := inv.w.resolveIn(a.value, false, inv.dirs)
		if a.dynamic || len(p) != 1 || p[0] == "" || !inv.w.exists(p[0]) {
			inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, "flock", ""), a)
		}
		return
	}
}
