package classifier

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

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
	case "at":
		return nil, inv.atJob(e, args)
	case "crontab":
		return nil, inv.crontab(e, args)
	case "tmux new", "tmux new-window", "tmux send-keys":
		return nil, inv.tmuxCommand(e, args)
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
	case "set", "ps", "jq", "yq":
		inv.envDump(args)
	case "kubectl api-resources", "oc api-resources", "npm config get", "pnpm config get", "yarn config get":
		inv.printsSecret(args)
	case "echo", "printf":
		inv.printedNames(args)
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
		return nil, inv.watch(e, args)
	case effects.SpecialFlock:
		inv.flockLock(e, args)
		if c := flagValue(args, "-c", "--command"); c != nil {
			inv.emit()
			inv.nestedField(*c)
			return nil, true
		}
	case effects.SpecialScript:
		return nil, inv.scriptCommand(e, args)
	case effects.SpecialSSH:
		return nil, inv.ssh(e, args)
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
	case effects.SpecialGitConfig:
		return nil, inv.gitConfig(e, args)
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
			case ok && (strings.EqualFold(typ, "EXEC") || strings.EqualFold(typ, "SYSTEM")):
				// The program (EXEC:) or shell command (SYSTEM:) reads the
				// other address: `socat TCP:h:4444 EXEC:/bin/sh` is a shell
				// fed by the network.
				cmd, _, _ := strings.Cut(rest, ",") // then socat's options
				inv.w.codeValue(fedCode(cmd), false, inv.at, inv.depth, inv.carried())
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
	case "git checkout":
		if hasAny(inv.args, "--") {
			inv.classes = []effects.Class{effects.HistoryRewrite}
			inv.why = "git checkout -- PATH throws away uncommitted changes to those files"
		}
	case "patch":
		// patch [ORIGFILE [PATCHFILE]]: the first operand is the file
		// patched, whatever the patch names.
		if len(inv.operands) > 0 {
			inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, "patch", ""), inv.operands[0])
		}
	case "unzip":
		// unzip ARCHIVE [MEMBER...] [-x ...]: the members are written in
		// the -d directory, or where unzip runs.
		if len(inv.operands) > 1 && !inv.replacing {
			dirs := inv.dirs
			if h := inv.has("-d"); h != nil && h.value != nil {
				dirs = unknownDirs
				if !h.value.dynamic {
					dirs = inv.w.resolveIn(h.value.value, false, inv.dirs)
				}
			}
			inv.memberWrites(unzipMembers(inv.entry, inv.args), dirs, false)
		}
	case "7z e":
		// 7z x ARCHIVE [MEMBER...]: written where -o put them.
		if len(inv.operands) > 1 {
			inv.memberWrites(inv.operands[1:], inv.dirs, false)
		}
	}
	if e.Pathspecs {
		inv.pathspecs()
	}
	if inv.top == "git" {
		for _, o := range inv.operands {
			inv.gitExtURL(o)
		}
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
	case effects.SpecialDocker:
		inv.docker() // the parsed flags: `-itv /:/host` is -i -t -v /:/host
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

// shell: sh/bash/zsh/dash [long options] [-opts] [-c 'code' [name args]] |
// [script args]. The options are read as the shell reads them, letter by
// letter: in bash, dash and sh every o/O of a cluster takes the next word
// (`-euo pipefail -c CODE`); in zsh an o takes the rest of its word or the
// next word (`-opipefail`). The code of -c is the first operand after all
// options, wherever the c stands in them (`-co pipefail CODE`). bash's
// --rcfile/--init-file (also spelled with one dash) name a startup file an
// interactive shell runs before the code: it is classified as a script.
func (inv *invocation) shell(args []field) bool {
	zsh := inv.shellDialect() == Zsh
	code, stdin, interactive := false, false, false
	var rcfile *field
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("a shell with arguments only known at run time")
			return true
		}
		v := a.value
		if v == "--" || v == "-" {
			i++
			break
		}
		if !isOption(v) && !strings.HasPrefix(v, "+") {
			break
		}
		switch v {
		case "--rcfile", "--init-file", "-rcfile", "-init-file":
			if i+1 < len(args) {
				rcfile = &args[i+1]
			}
			i++
			continue
		}
		if long := strings.TrimPrefix(v[1:], "-"); !zsh && bashLongOptions[long] {
			// bash reads `-norc` as --norc, not as -n -o rc -c.
			if long == "version" || long == "help" {
				inv.classes = []effects.Class{effects.Read}
				inv.emit()
				return true
			}
			continue
		}
		if strings.HasPrefix(v, "--") {
			if zsh && !zshOptionSafe(v[2:]) {
				// zsh's long options set options (--globsubst).
				inv.zshOptionArg(v)
				return true
			}
			continue
		}
		for k := 1; k < len(v); k++ {
			switch l := v[k]; {
			case l == 'o' || (!zsh && l == 'O'):
				name := ""
				switch {
				case zsh && k+1 < len(v):
					name = v[k+1:]
				case i+1 < len(args):
					i++
					if args[i].dynamic {
						inv.opaqueHigh("a shell with arguments only known at run time")
						return true
					}
					name = args[i].value
				}
				if zsh && !zshOptionSafe(name) {
					inv.zshOptionArg("-o " + name)
					return true
				}
				if zsh {
					continue options
				}
			case zsh && !strings.ContainsRune(zshSafeLetters, rune(l)):
				// zsh's letters set options (-y is shwordsplit): only
				// the harmless ones are read.
				inv.zshOptionArg(v)
				return true
			case l == 'c':
				code = true
			case l == 's':
				stdin = true
			case l == 'i':
				interactive = true
			}
		}
	}
	ops := args[i:]
	if rcfile != nil && (interactive || (!code && len(ops) == 0)) {
		inv.script([]field{*rcfile})
	}
	switch {
	case code && len(ops) == 0:
		inv.classes = []effects.Class{effects.Read}
		inv.emit()
	case code && ops[0].dynamic:
		inv.opaqueHigh("shell code only known at run time")
	case code:
		// The code is read in the shell's dialect (`zsh -lc CODE` as zsh).
		ctx := inv.carried()
		ctx.dialect = inv.shellDialect()
		inv.nestedFieldIn(ops[0], ctx)
	case stdin || len(ops) == 0:
		inv.stdinScript()
	default:
		inv.script(ops)
	}
	return true
}

// bashLongOptions are bash's long options that take no value (shell.c
// long_args), which bash also accepts with one dash: `-norc` is --norc.
var bashLongOptions = map[string]bool{"debug": true, "debugger": true, "dump-po-strings": true, "dump-strings": true,
	"help": true, "login": true, "noediting": true, "noprofile": true, "norc": true, "posix": true,
	"pretty-print": true, "protected": true, "restricted": true, "verbose": true, "version": true, "wordexp": true}

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

// clusterHasInline reports whether v is a cluster of one-letter options
// (`-lane`) with a letter of one of e's inline-code flags (-e, -c) after
// its first.
func clusterHasInline(e *effects.Program, v string) bool {
	if len(v) < 3 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for _, f := range e.Flags {
		if f.Value != effects.InlineCode {
			continue
		}
		for _, n := range f.Names {
			if len(n) == 2 && n[0] == '-' && strings.IndexByte(v[2:], n[1]) >= 0 {
				return true
			}
		}
	}
	return false
}

// interpreter: python/node/perl/ruby...: inline code (flags whose value
// is [effects.InlineCode]), -m module, a script, or stdin. Options are
// parsed with the table's flags, so a value is not taken for the script
// (`python3 -W ignore x.py`); inline code is found in clusters too
// (`python3 -Bc CODE`, `perl -wle CODE`). A known subcommand (`deno test`)
// goes the generic way.
func (inv *invocation) interpreter(e *effects.Program, args []field) ([]field, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("an interpreter with arguments only known at run time")
			return nil, true
		}
		v := a.value
		if v == "--" {
			if i+2 <= len(args) {
				inv.inPlaceFiles(e, args[:i], args[i+2:]) // after the script
			}
			inv.emitFlags()
			inv.script(args[i+1:])
			return nil, true
		}
		if !isOption(v) {
			if len(e.Subcommands) > 0 && e.Sub(v) != nil {
				return args, false
			}
			if inv.top == "pwsh" && windowsPowerShell(inv.prog) && !pwshScriptWord(v) {
				// powershell.exe (5.1) takes its first word that is no
				// option as -Command's code, not as a script (pwsh 7 takes a
				// -File): `powershell Remove-Item -Recurse ~`.
				inv.opaqueMedium("inline " + inv.prog + " code")
				inv.w.foreignEffects(inv.at, inv.prog, inv.w.foreignCode(args[i:]), true, inv.dirs) // foreign.go
				return nil, true
			}
			inv.inPlaceFiles(e, args[:i], args[i+1:])
			inv.emitFlags()
			inv.script(args[i:])
			return nil, true
		}
		if lv := strings.ToLower(v); inv.top == "pwsh" && slices.Contains(pwshSwitches, lv) {
			continue // `-NoProfile`, `-nop`: PowerShell's switches, in any case
		} else if inv.top == "pwsh" && slices.Contains(pwshValued, lv) && i+1 < len(args) {
			if lv == "-workingdirectory" || lv == "-wd" {
				inv.dirs, inv.runDirs = unknownDirs, unknownDirs
			}
			i++ // `-WindowStyle Hidden`
			continue
		}
		if lv := strings.ToLower(v); inv.top == "pwsh" && i+1 < len(args) && (lv == "-ec" || len(lv) >= 2 && strings.HasPrefix("-encodedcommand", lv)) {
			// -EncodedCommand B64 at any prefix PowerShell takes (-e, -enc,
			// -ec): base64 of UTF-16LE; decoded, it is classified as
			// -Command's code is, and stays inline code not analysed.
			inv.opaqueMedium("inline " + inv.prog + " code")
			if c := args[i+1]; !c.dynamic {
				if code, ok := decodePwsh(c.value); ok {
					inv.w.foreignEffects(inv.at, inv.prog, code, true, inv.dirs) // foreign.go
				}
			}
			return nil, true
		}
		name, _, _ := strings.Cut(v, "=")
		if f := findFlag(e, name); f != nil && f.Replace {
			return args, false
		}
		if clusterHasInline(e, v) {
			// `perl -CSDne CODE`, `perl -lane CODE`: whatever value a letter
			// before it takes, an inline-code letter in a cluster is read
			// as inline code, the stricter of the readings.
			rest := args[i+1:]
			for _, r := range rest {
				// The code is the next word, or a later one when the letter
				// took a value (`perl -MFile::Path -e CODE`): each is looked
				// at (inline.go).
				if !isOption(r.value) {
					inv.inlineShellCalls(r)
				}
			}
			if strings.IndexAny(v[len(v)-1:], "eE") == 0 && len(rest) > 0 {
				rest = rest[1:] // the code
			}
			inv.inPlaceFiles(e, args[:i+1], rest)
			inv.opaqueMedium("inline " + inv.prog + " code")
			return nil, true
		}
		from := len(inv.flags)
		used := inv.option(e, a, args[i+1:])
		for _, h := range inv.flags[from:] {
			switch {
			case h.flag.Value == effects.InlineCode:
				inv.inPlaceFiles(e, args[:i], args[i+1+used:])
				inv.opaqueMedium("inline " + inv.prog + " code")
				if h.value != nil {
					inv.inlineShellCalls(*h.value) // inline.go
				}
				if inv.top == "pwsh" && h.value != nil && !strings.HasPrefix(strings.ToLower(h.name), "-e") {
					// PowerShell joins the words after -Command into its code.
					code := inv.w.foreignCode(append([]field{*h.value}, args[i+1+used:]...))
					inv.w.foreignEffects(inv.at, inv.prog, code, true, inv.dirs) // foreign.go
				}
				return nil, true
			case h.name == "-m" && inv.key() == "python" && h.value != nil:
				// python -m pytest ...: classify the module as the program.
				mod := *h.value
				rest := args[i+1+used:]
				if m := effects.Lookup(mod.value); !mod.dynamic && m != nil && (m.PyModule || slices.Contains(m.Packages, effects.Python)) &&
					m.Special != effects.SpecialInterpreter && m.Special != effects.SpecialShell {
					inv.carry(append([]field{mod}, rest...), inv.red)
					return nil, true
				}
				inv.opaqueMedium("the python module " + mod.value)
				return nil, true
			}
		}
		i += used
	}
	if len(args) > 0 && (args[0].value == "--version" || args[0].value == "-V" || args[0].value == "-v" || args[0].value == "--help" || args[0].value == "-h") {
		inv.classes = []effects.Class{effects.Read}
		inv.emit()
		return nil, true
	}
	inv.emitFlags()
	inv.stdinScript()
	return nil, true
}

// inPlaceFiles classifies the files an interpreter in in-place mode
// rewrites (`perl -pi -e CODE f`, `ruby -i.bak -pe CODE f`, `perl -i x.pl
// f`): the words after its code or script (rest) that are no options, when
// a flag with [effects.Flag.InPlace] is given, alone or in a cluster of
// single letters, before (before) or after the code (perl reads its
// switches on).
func (inv *invocation) inPlaceFiles(e *effects.Program, before, rest []field) {
	on := inv.inPlace
	for _, a := range before {
		on = on || !a.dynamic && clusterInPlace(e, a.value)
	}
	var files []field
	end := false
	for _, a := range rest {
		switch {
		case !end && !a.dynamic && a.value == "--":
			end = true
		case !end && !a.dynamic && isOption(a.value):
			on = on || clusterInPlace(e, a.value)
		default:
			files = append(files, a)
		}
	}
	if !on {
		return
	}
	base := inv.w.part(inv.at, effects.WriteOutside, inv.prog, "")
	for _, f := range files {
		inv.writeOperand(base, f)
	}
}

// clusterInPlace reports whether the option word v is, or has in its
// cluster of single letters, a flag of e with [effects.Flag.InPlace]
// (`-i`, `-pi`, `-ni.bak`); the letters after one that takes a value are
// that value (`-Mlib` is not -i).
func clusterInPlace(e *effects.Program, v string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		if f := findFlag(e, v); f != nil {
			return f.InPlace
		}
		return false
	}
	for j := 1; j < len(v); j++ {
		f := findFlag(e, "-"+v[j:j+1])
		if f == nil {
			continue
		}
		if f.InPlace {
			return true
		}
		if f.Value != effects.NoValue {
			return false
		}
	}
	return false
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
	i, links := findOptions(args, &starts)
	follow := links != followNone // find follows a start point that is a symlink
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
	inv.findDynamicWords(starts, args[i:])
	// -L (or the -follow test) follows every symlink below the starts: what
	// it deletes or hands to -exec may be anywhere a link inside points.
	throughLinks := links == followAll
	for _, a := range args[exprAt:] {
		throughLinks = throughLinks || !a.dynamic && a.value == "-follow"
	}
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
				if s.dynamic || throughLinks {
					// Through links below the start the files deleted
					// cannot be placed before find runs.
					w.remove(d, "")
					if s.dynamic {
						continue
					}
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
				f.dynamic = f.dynamic || starts[0].dynamic || len(starts) > 1 && !sameStarts(starts) || throughLinks
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

// findDynamicWords classifies the words of find's line that are only known
// at run time and may be part of its expression (`find . $x`, `find .
// "$@"`, `find . -$x`): they may be any action, `-delete` or `-exec CMD ;`
// included. A value of a test (`-name "$p"`), the first start point
// (`find "$dir" -type f`) and words inside `-exec ... ;` are not.
func (inv *invocation) findDynamicWords(starts, expr []field) {
	for k, s := range starts {
		if k > 0 && s.dynamic && inv.w.mayBeOption(s) {
			inv.dynamicOption(s, "only known at run time")
			return
		}
		if s.glob && !s.dynamic && inv.w.globMayBeOption(s.value, inv.dirs) {
			inv.dynamicOption(s, "a glob that matches a file whose name starts with -")
			return
		}
	}
	for j := 0; j < len(expr); j++ {
		a := expr[j]
		if a.dynamic {
			if inv.w.mayBeOption(a) {
				inv.dynamicOption(a, "only known at run time")
				return
			}
			continue
		}
		n, ok := findArity[a.value]
		switch {
		case !ok:
		case n < 0:
			for j++; j < len(expr) && expr[j].value != ";" && expr[j].value != "+"; j++ {
			}
		default:
			j += n
		}
	}
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
// and -f PATH (a start point, added to starts), and which links -H, -L and
// -P make it follow.
func findOptions(args []field, starts *[]field) (int, findLinks) {
	links := followNone
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			return i, links
		}
		switch v := a.value; {
		case v == "-H":
			links = followStarts
		case v == "-L":
			links = followAll
		case v == "-P":
			links = followNone // the last of -H, -L and -P counts
		case v == "-E" || v == "-X" || v == "-d" || v == "-s" || v == "-x":
		case v == "-D" && i+1 < len(args):
			i++
		case strings.HasPrefix(v, "-O") && isDigits(v[2:]):
		case v == "-f" && i+1 < len(args):
			*starts = append(*starts, args[i+1])
			i++
		case v == "--":
			return i + 1, links
		default:
			return i, links
		}
	}
	return len(args), links
}

// findLinks says which symlinks find follows: none (-P, the default), its
// start points (-H), or every one it meets (-L).
type findLinks uint8

const (
	followNone findLinks = iota
	followStarts
	followAll
)

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
	var cmd []field
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.opaqueHigh("a command only known at run time")
			return true
		}
		if a.value == "--" {
			cmd = args[i+1:]
			break
		}
		if isOption(a.value) {
			// The table's options, parsed as for every entry: a value
			// option takes its value, and one the table does not know
			// is reported (xargs can be allowed).
			i += inv.option(e, a, args[i+1:])
			continue
		}
		cmd = args[i:]
		break
	}
	args = cmd
	if len(args) == 0 {
		inv.writeFlagValues()
		inv.emit()
		inv.emitFlags()
		return true
	}
	inner := []field{}
	for _, x := range args {
		if x.value == ":::" || x.value == "::::" {
			break
		}
		if strings.Contains(x.value, "{}") || strings.Contains(x.value, "{1}") {
			// The input replaces the braces; a word that starts with
			// something else keeps its start (`./{}` is no option).
			y := field{value: x.value, dynamic: true}
			if !strings.HasPrefix(x.value, "{") {
				y.word = x.word
			}
			x = y
		}
		inner = append(inner, x)
	}
	if nul := inv.w.pipeNul; nul != nil && inv.has("-0", "--null") != nil && inv.has("-a", "--arg-file") == nil {
		// `find src -print0 | xargs -0 rm`: the names are the find's, as
		// `find src -exec rm {} +` gets them.
		inv.w.pipeNul = nil
		inv.writeFlagValues()
		inv.emit()
		inv.emitFlags()
		for _, f := range nul {
			run := make([]field, 0, len(inner)+1)
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
	if inv.has("-I", "-i", "--replace") == nil {
		// The words read from stdin follow the command's own, where they
		// may be its options (`ls | xargs sort`); -I replaces instead.
		inner = append(inner, field{value: "", dynamic: true})
	}
	inv.writeFlagValues()
	inv.emit()
	inv.emitFlags()
	inv.carry(inner, redirInfo{})
	return true
}

// watch [options] CMD...: the words are joined and run by sh -c (unless -x).
func (inv *invocation) watch(e *effects.Program, args []field) bool {
	var cmd []field
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.dynamic && isOption(a.value) {
			if a.value == "--" {
				cmd = args[i+1:]
				break
			}
			i += inv.option(e, a, args[i+1:]) // the table's options, as for every entry
			continue
		}
		cmd = args[i:]
		break
	}
	args = cmd
	inv.emit()
	inv.emitFlags()
	if len(args) == 0 {
		return true
	}
	if inv.has("-x", "--exec") != nil {
		inv.carry(args, redirInfo{})
		return true
	}
	var code []string
	for _, x := range args {
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

// scriptCommand: script [options] [FILE]: with -c CMD (`-qc CMD`, `--comm
// CMD`: the table's options, parsed as for every entry) it runs CMD in a
// new shell and records it into FILE (./typescript by default); without,
// it starts an interactive shell.
func (inv *invocation) scriptCommand(e *effects.Program, args []field) bool {
	var file *field
	if ops := inv.parseOptions(e, args); len(ops) > 0 {
		file = &ops[0]
	}
	c := inv.has("-c", "--command")
	if c == nil || c.value == nil {
		// The user's shell, reading stdin ([effects.Program.StartsShell]).
		inv.emit()
		inv.stdinScript()
		return true
	}
	inv.classes = []effects.Class{effects.Read}
	inv.emit()
	inv.writeFlagValues() // -O, -I, -B, -T log files
	inv.nestedField(*c.value)
	out := field{value: "typescript"}
	if file != nil {
		out = *file
	}
	inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, "script", ""), out)
	return true
}

// ssh [options] HOST [CMD...]: network, and the remote command's effects
// with every target on the remote side unknown.
func (inv *invocation) ssh(e *effects.Program, args []field) bool {
	inv.emit()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			inv.remoteArgv(args[i:])
			return true
		}
		if isOption(a.value) {
			// The table's options, clusters included (`-4p 2222`): a
			// value is not the host.
			i += inv.option(e, a, args[i+1:])
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

// sshOption classifies an [effects.SSHOption] value: a command line ssh
// runs here is shell code; one only known at run time may be any.
func (inv *invocation) sshOption(val field) {
	lo := strings.ToLower(val.value)
	if val.dynamic || strings.HasPrefix(lo, "proxycommand") || strings.HasPrefix(lo, "localcommand") || strings.HasPrefix(lo, "permitlocalcommand") || strings.HasPrefix(lo, "knownhostscommand") {
		inv.opaqueMedium("a local command from the ssh option " + val.value)
		if code, ok := sshCommandOption(val.value); ok && !val.dynamic {
			// ssh has the user's shell run it here.
			inv.w.codeValue(code, false, inv.at, inv.depth, inv.carried())
		}
	}
}

// sshCommandOption is the command line of an ssh option that holds one
// (`ProxyCommand=CMD`, `LocalCommand CMD`, `KnownHostsCommand=CMD`), which
// ssh runs on this machine; not `none`.
func sshCommandOption(opt string) (string, bool) {
	key, val, ok := strings.Cut(opt, "=")
	if i := strings.IndexAny(opt, " \t"); i >= 0 && (!ok || i < len(key)) {
		key, val, ok = opt[:i], opt[i+1:], true
	}
	key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
	if !ok || val == "" || strings.EqualFold(val, "none") {
		return "", false
	}
	switch key {
	case "proxycommand", "localcommand", "knownhostscommand":
		return val, true
	}
	return "", false
}

// fedShell classifies the commands a shell started elsewhere with no
// command reads from its stdin (`ssh host < cmds`, `echo ls | wsl`): a
// literal here-doc is parsed there; anything else is only known at run time.
func (inv *invocation) fedShell() {
	switch red := inv.red; {
	case red.stdinNull:
		// `wsl < /dev/null`: an empty program, as for a local shell.
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
func (inv *invocation) docker() {
	w := inv.w
	for _, h := range inv.flags {
		val := ""
		if h.value != nil {
			val = h.value.value
		}
		switch h.name {
		case "--privileged":
			if h.value == nil || val != "false" {
				inv.privileged("--privileged")
			}
			continue
		case "--pid", "--userns", "--ipc":
			if val == "host" {
				inv.privileged(h.name + "=" + val)
			}
			continue
		case "--cap-add":
			if v := strings.TrimPrefix(strings.ToUpper(val), "CAP_"); v == "ALL" || v == "SYS_ADMIN" {
				inv.privileged("--cap-add " + val)
			}
			continue
		case "--device":
			// A disk or memory device is the host's data, as a host-root
			// mount is (`--device /dev/sda`).
			if src, _, _ := strings.Cut(val, ":"); h.value != nil && hostDevice(src) {
				inv.privileged("--device " + src)
			}
			continue
		case "--security-opt":
			if strings.Contains(val, "unconfined") || val == "label=disable" || val == "label:disable" {
				inv.privileged("--security-opt " + val)
			}
			continue
		case "-v", "--volume", "--mount":
			if h.value == nil {
				continue
			}
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
		if !h.value.dynamic && w.hostMount(src) {
			inv.privileged("a mount of the host's " + src)
		}
		if !h.value.dynamic && (strings.HasPrefix(src, "/") || strings.HasPrefix(src, ".") || w.opts.Platform == Windows && strings.ContainsAny(src, `\/`)) {
			// A bind mount hands the container what it names, to read and
			// send anywhere (`-v ~/.ssh:/k`): the exfiltration rule reads it
			// as a file read. A bare name is a named volume.
			w.noteReadValue(inv.at, src, false)
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

// parseOptions reads args with e's options, as every entry's are read
// ([invocation.option]: a value option takes its value, one the table does
// not know is reported), up to the end of args or a `--`, and returns the
// operands in order.
func (inv *invocation) parseOptions(e *effects.Program, args []field) []field {
	var ops []field
	endOpts := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !endOpts && !a.dynamic && a.value == "--" {
			endOpts = true
			continue
		}
		if !endOpts && !a.dynamic && isOption(a.value) {
			i += inv.option(e, a, args[i+1:])
			continue
		}
		ops = append(ops, a)
	}
	return ops
}

// gitConfig: `git config` reads, writes .git/config, or writes home with --global.
func (inv *invocation) gitConfig(e *effects.Program, args []field) bool {
	w := inv.w
	// The table's options, as git parses them (`--glob` is --global,
	// `--type bool` takes its value).
	ops := inv.parseOptions(e, args)
	scope := ""
	switch {
	case inv.has("--system") != nil:
		scope = "--system"
	case inv.has("--global") != nil:
		scope = "--global"
	}
	file := ""
	if h := inv.has("-f", "--file"); h != nil && h.value != nil {
		file = h.value.value
	}
	read := inv.has("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list", "--show-origin", "--show-scope", "--name-only") != nil
	writeVerb := false
	if len(ops) > 0 && (ops[0].value == "set" || ops[0].value == "unset" || ops[0].value == "rename-section" || ops[0].value == "remove-section" || ops[0].value == "edit") {
		writeVerb = true
		ops = ops[1:]
	} else if len(ops) > 0 && (ops[0].value == "get" || ops[0].value == "list") {
		read = true
	}
	if read || !writeVerb && len(ops) < 2 && inv.has("--unset", "--unset-all", "--add", "--replace-all", "--remove-section", "--rename-section", "-e", "--edit") == nil {
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
			if len(ops) >= 2 && !ops[1].dynamic && strings.HasPrefix(strings.TrimSpace(ops[1].value), "ext::") {
				inv.gitExtURL(field{value: strings.TrimSpace(ops[1].value)})
			}
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
				if !a.dynamic {
					w.noteReadFrom(v, nil) // what of= gets: staged.go
				}
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
	inPlace := inv.has("-i", "-I", "--in-place")
	if len(scripts) == 0 && inv.has("-f", "--file") == nil && len(ops) > 0 {
		if ops[0].dynamic {
			inv.opaqueHigh("a sed script only known at run time")
		}
		scripts = append(scripts, ops[0].value)
		ops = ops[1:]
		if inPlace != nil && inPlace.value == nil && len(ops) > 0 && (w.opts.Platform == Darwin || inPlace.name == "-I" || scripts[0] == "" || strings.HasPrefix(scripts[0], ".")) {
			// BSD sed takes the word after a lone -i (or -I) as the backup
			// suffix and the next as the script (`sed -i '' 'w /tmp/x' f`);
			// GNU sed takes it as the script. On macOS, and where the word
			// is spelled as a suffix ('' or .bak), both readings count.
			if ops[0].dynamic {
				inv.opaqueHigh("a sed script only known at run time")
			}
			scripts = append(scripts, ops[0].value)
		}
	}
	if l := inv.has("-l"); l != nil && l.value != nil && !isDigits(l.value.value) {
		// BSD's -l takes no value: the word is the script there.
		scripts = append(scripts, l.value.value)
		if l.value.dynamic {
			inv.opaqueHigh("a sed script only known at run time")
		}
	}
	for _, s := range scripts {
		executes, commands, writes, reads := sedScan(s)
		if executes {
			inv.opaqueMedium("a sed script that executes commands")
		}
		for _, c := range commands {
			// GNU sed's `e COMMAND` runs COMMAND with sh.
			w.codeValue(c, false, inv.at, inv.depth, inv.carried())
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
	if inPlace != nil {
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
// commands that execute (`e`, `s///e`; the command of `e COMMAND`), the
// files written (`w`, `s///w`)
// and the files read into the output (`r`, `R`).
func sedScan(s string) (executes bool, commands, writes, reads []string) {
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
			executes = true
			if c := restOfLine(); c != "" {
				commands = append(commands, c)
			}
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
	return executes, commands, writes, reads
}

// awkCommand finds the commands an awk program gives as whole string
// literals: system("CMD") (1), "CMD" | getline (2) and print | "CMD" (3),
// `|&` (gawk's coprocess) too. A literal joined to more (system("rm " f))
// is not one.
var awkCommand = sync.OnceValue(func() *regexp.Regexp {
	const lit = `"((?:[^"\\]|\\.)*)"`
	return regexp.MustCompile(`system\s*\(\s*` + lit + `\s*\)|` + lit + `\s*\|&?\s*getline|\|&?\s*` + `"((?:[^"\\]|\\.)*)"` + `\s*(?:[;}\n)]|$)`)
})

// awkSystem finds awk's calls of system().
var awkSystem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bsystem\s*\(`) })

// awkString finds awk's string literals.
var awkString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`) })

// awkPrintTo finds `print ... > "file"` (the file when it is a literal).
var awkPrintTo = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`print[f]?[^;{}]*?>>?\s*(?:"([^"]*)")?`) })

// awk: system(), pipes and getline run commands; print > writes files.
// The program is the first operand, or the texts of gawk's -e/--source
// (then every operand is a file). A program or extension loaded from a file
// (-f, gawk's -E/--exec, -i/--include, -l/--load) is not inspected:
// opaque-medium. gawk's `-i inplace` rewrites the file operands: writes.
func (inv *invocation) awk() {
	ops := inv.operands
	var texts []field
	inplace := false
	for _, h := range inv.flags {
		if h.value != nil && h.value.dynamic {
			inv.opaqueHigh("an awk option only known at run time")
			return
		}
		switch h.name {
		case "-f", "--file", "-E", "--exec", "-l", "--load":
			inv.opaqueMedium("an awk program or extension from a file")
			return
		case "-i", "--include":
			if h.value != nil && (h.value.value == "inplace" || h.value.value == "inplace.awk") {
				inplace = true
				continue
			}
			inv.opaqueMedium("an awk source file included with " + h.name)
			return
		case "-e", "--source":
			if h.value != nil {
				texts = append(texts, *h.value)
			}
		}
	}
	files := ops
	if len(texts) == 0 {
		if len(ops) == 0 {
			return
		}
		texts, files = ops[:1], ops[1:]
	}
	for _, prog := range texts {
		if prog.dynamic {
			inv.opaqueHigh("an awk program only known at run time")
			return
		}
		inv.awkProgram(prog.value)
	}
	for _, o := range files {
		if o.dynamic || strings.Contains(o.value, "=") {
			continue
		}
		if inplace {
			inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, inv.prog, fmt.Sprintf("`%s` rewrites %s in place (gawk -i inplace)", inv.text, o.value)), o)
		} else {
			inv.w.noteReadField(inv.at, o)
		}
	}
	inv.operands = nil
}

// awkProgram classifies the awk program text s: read as tokens, so that
// the text of its string and regular-expression literals is data, or from
// its text alone when it does not split into tokens (awkTextFacts).
func (inv *invocation) awkProgram(s string) {
	var f awkFacts
	if toks, ok := lexAwk(s); ok {
		f = scanAwk(toks)
	} else {
		f = awkTextFacts(s)
	}
	if f.runs {
		inv.opaqueMedium("an awk program that runs commands")
	}
	inv.awkStrings(s)
	// Commands given as whole literals: system("CMD"), "CMD" | getline,
	// and print | "CMD", whose input is the program's output, data the
	// line does not follow (as `cat f | CMD` is).
	for _, c := range f.commands {
		code := c.code
		if c.fed {
			code = fedCode(code)
		}
		inv.w.codeValue(code, false, inv.at, inv.depth, inv.carried())
	}
	if f.systems > f.literals {
		// system("rm -rf " ENVIRON["HOME"]), system(cmd): a command the
		// program builds at run time, as `sh -c "$x"` runs.
		inv.opaqueHigh("a command an awk program builds at run time")
	}
	if f.indirect {
		inv.opaqueHigh("a function an awk program names at run time (an indirect call may be system())")
	}
	for _, name := range f.writes {
		if name == nil {
			inv.w.write(inv.w.part(inv.at, effects.WriteOutside, inv.prog, ""), "", true)
			continue
		}
		inv.writeOperand(inv.w.part(inv.at, effects.WriteOutside, inv.prog, ""), field{value: *name})
	}
}

// awkStrings classifies what the string literals of an awk program may
// name: gawk's network special files, and the files getline may read.
func (inv *invocation) awkStrings(s string) {
	for _, m := range awkString().FindAllStringSubmatch(s, -1) {
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
		for _, m := range awkString().FindAllStringSubmatch(s, -1) {
			inv.w.noteRead(inv.at, strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[1]), nil)
		}
	}
}

// awkTextFacts reads the facts of an awk program that does not split into
// tokens (a string or regular expression left open) from its text alone:
// every `>` after a print a redirection and every `|` a pipe.
func awkTextFacts(s string) awkFacts {
	var f awkFacts
	f.runs = strings.Contains(s, "system") || strings.Contains(s, "|") || strings.Contains(s, "getline") ||
		strings.Contains(s, "@load") || strings.Contains(s, "@include") || strings.Contains(s, "ENVIRON")
	unq := strings.NewReplacer(`\"`, `"`, `\\`, `\`)
	for _, m := range awkCommand().FindAllStringSubmatch(s, -1) {
		switch {
		case m[1] != "":
			f.literals++
			f.commands = append(f.commands, awkCommandLit{code: unq.Replace(m[1])})
		case m[2] != "":
			f.commands = append(f.commands, awkCommandLit{code: unq.Replace(m[2])})
		case m[3] != "":
			f.commands = append(f.commands, awkCommandLit{code: unq.Replace(m[3]), fed: true})
		}
	}
	f.systems = len(awkSystem().FindAllStringIndex(s, -1))
	for _, m := range awkPrintTo().FindAllStringSubmatch(s, -1) {
		if m[1] == "" {
			f.writes = append(f.writes, nil)
		} else {
			f.writes = append(f.writes, &m[1])
		}
	}
	return f
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
					} else if mode == "x" && !v.dynamic && v.value != "-" {
						w.noteReadFrom(v.value, w.resolveIn(v.value, false, inv.ctx.dirs)) // what it extracts: staged.go
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
		if h := inv.has("-f", "--file"); h != nil && h.value != nil && !h.value.dynamic && h.value.value != "-" {
			w.noteReadFrom(h.value.value, w.resolveIn(h.value.value, false, inv.ctx.dirs))
		}
		w.copying = true // the members go below each directory
		for _, d := range dirs {
			w.write(base, d, d == "")
		}
		w.copying = false
		if !absolute {
			inv.memberWrites(ops, dirs, false)
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

// pathspecs classifies the pathspec operands of a git command that writes
// them in the work tree, or deletes them ([effects.Program.Pathspecs]): a
// rule-store member among them is refused (`git checkout main --
// .vscode/settings.json`, SPEC §5.6), and so are a deletion outside the
// workspace (`git clean -fdx ..`, §5.1) and a write to the home directory
// or a system path (`git restore ../.bashrc` from a repository in ~,
// §5.2). Revisions among the operands resolve to names inside the
// workspace, which change nothing here.
func (inv *invocation) pathspecs() {
	w := inv.w
	deletes := slices.Contains(inv.classes, effects.Deletion)
	// A flag that replaced the entry's effects with another's and left no
	// history rewrite (`git restore --staged`, without `--worktree`) keeps
	// the work tree as it is.
	indexOnly := inv.replacing && !slices.Contains(inv.classes, effects.HistoryRewrite) && inv.has("-W", "--worktree") == nil
	base := w.part(inv.at, effects.WriteOutside, inv.prog, "")
	if deletes {
		base = w.part(inv.at, effects.Deletion, inv.prog, inv.why)
	}
	unknown := func() {
		if deletes {
			w.remove(base, "")
		} else {
			w.write(base, "", true)
		}
	}
	for _, o := range inv.operands {
		if o.dynamic {
			if deletes {
				unknown()
			}
			continue
		}
		v, top, exclude := gitPathspec(o.value)
		if exclude {
			continue
		}
		if top {
			// `:/x` is relative to the top of the work tree, which git
			// finds at run time.
			unknown()
			continue
		}
		for _, p := range w.resolveIn(v, o.glob, inv.dirs) {
			switch {
			case p == "":
				unknown()
			case deletes:
				inv.removeIn(base, p)
			default:
				switch w.locateChange(p) {
				case locRuleStore:
					part := w.part(inv.at, effects.WriteOutside, inv.prog, fmt.Sprintf("`%s` changes %s", inv.text, w.describe(p, locRuleStore)))
					part.Refusal = effects.RuleStoreModification
					w.add(part)
				case locHome, locSystem, locDevice:
					// A work tree above the workspace (dotfiles kept in
					// git in ~): `git restore ../.bashrc` writes home,
					// `git restore --staged` only the index.
					if !indexOnly {
						w.write(base, p, false)
					}
				}
			}
		}
	}
}

// gitExtURL classifies the command of a git `ext::` transport URL, which
// git runs to reach the remote (`git clone 'ext::sh -c rm% -rf% ~' y`,
// git-remote-ext(1)) when protocol.ext.allow lets it: the repository's
// configuration is not inspected, so it is classified as if it ran (SPEC
// §3 rule 1). The same URL in a config value (`remote.x.url`) runs later.
func (inv *invocation) gitExtURL(o field) {
	cmd, ok := strings.CutPrefix(o.value, "ext::")
	if !ok {
		return
	}
	if o.dynamic {
		inv.opaqueHigh("the command of an ext:: URL only known at run time")
		return
	}
	words := gitExtWords(cmd)
	if len(words) == 0 {
		return
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellQuote(w)
	}
	inv.w.allKnown = false
	inv.w.add(inv.w.part(inv.at, effects.OpaqueMedium, inv.prog, fmt.Sprintf("`%s` makes git run the command of the ext:: URL %q", inv.text, o.value)))
	inv.shellCode(strings.Join(quoted, " "), inv.at, processCtx(inv.dirs, inv.dirs))
}

// gitExtWords splits the command of an `ext::` URL as git does: words at
// spaces, `% ` a space inside a word, `%%` a percent sign, `%s`/`%S` the
// service name (git-upload-pack), `%G`/`%V` arguments git consumes.
func gitExtWords(cmd string) []string {
	var words []string
	var cur strings.Builder
	have := false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == ' ':
			if have {
				words = append(words, cur.String())
				cur.Reset()
				have = false
			}
		case c == '%' && i+1 < len(cmd):
			i++
			switch cmd[i] {
			case ' ', '%':
				cur.WriteByte(cmd[i])
			case 's':
				cur.WriteString("upload-pack")
			case 'S':
				cur.WriteString("git-upload-pack")
			case 'G', 'V':
				// the rest of the word goes to git, not to the command
				for i+1 < len(cmd) && cmd[i+1] != ' ' {
					i++
				}
				continue
			default:
				cur.WriteByte('%')
				cur.WriteByte(cmd[i])
			}
			have = true
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		words = append(words, cur.String())
	}
	return words
}

// gitPathspec reads git's pathspec magic (gitglossary(7)): the path the
// pathspec names, whether it is relative to the top of the work tree
// (`:/x`, `:(top)x`), and whether it only excludes (`:!x`, `:^x`,
// `:(exclude)x`).
func gitPathspec(v string) (path string, top, exclude bool) {
	if !strings.HasPrefix(v, ":") {
		return v, false, false
	}
	rest := v[1:]
	if strings.HasPrefix(rest, "(") {
		magic, after, ok := strings.Cut(rest[1:], ")")
		if !ok {
			return "", true, false
		}
		for _, m := range strings.Split(magic, ",") {
			switch strings.TrimSpace(m) {
			case "exclude":
				exclude = true
			case "top":
				top = true
			}
		}
		return after, top, exclude
	}
	for len(rest) > 0 && strings.ContainsRune("!^/", rune(rest[0])) {
		switch rest[0] {
		case '!', '^':
			exclude = true
		case '/':
			top = true
		}
		rest = rest[1:]
	}
	rest = strings.TrimPrefix(rest, ":")
	return rest, top, exclude
}

// unzipMembers are the member operands of unzip's words (e's options
// taking their values): after the archive, up to `-x` (the names after it
// are excluded, not written).
func unzipMembers(e *effects.Program, args []field) []field {
	var ops []field
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.dynamic:
			ops = append(ops, a)
		case a.value == "-x":
			return ops[min(1, len(ops)):]
		case isOption(a.value):
			if f := findFlag(e, a.value); f != nil && takesValue(f.Value) && f.Value != effects.OptionalArg {
				i++
			}
		default:
			ops = append(ops, a)
		}
	}
	return ops[min(1, len(ops)):]
}

// memberWrites classifies the archive members an extractor names, written
// in dirs (`tar -xf x.tar .vscode/settings.json`, `unzip x.zip
// .git/hooks/pre-commit`): a member is a path there, so a rule-store member
// or a git hook among them is what it is. Absolute member names keep their
// root only when absolute says so (tar -P); extractors strip it otherwise.
func (inv *invocation) memberWrites(ops []field, dirs []string, absolute bool) {
	w := inv.w
	base := w.part(inv.at, effects.WriteOutside, inv.prog, "")
	for _, o := range ops {
		if o.dynamic {
			continue // a member the archive may not have; the extraction is located by dirs
		}
		v := o.value
		if !absolute {
			v = strings.TrimLeft(v, "/")
			if v == "" {
				continue
			}
		}
		for _, d := range dirs {
			if d == "" {
				w.write(base, "", true)
				continue
			}
			for _, p := range w.resolveIn(v, o.glob, []string{d}) {
				w.write(base, p, p == "")
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

// atJob: at and batch read a job, shell code, from stdin or -f FILE and run
// it later in this directory: it is classified now (SPEC rule 1 and 11), as
// a shell fed the same stdin is. -l and -c list or print the jobs (read).
func (inv *invocation) atJob(e *effects.Program, args []field) bool {
	inv.parseOptions(e, args)
	job := inv.has("-f")
	inv.emit()
	inv.emitFlags() // the flags are emitted and dropped: job is read first
	if inv.replacing {
		return true
	}
	if job != nil && job.value != nil {
		inv.script([]field{*job.value})
		return true
	}
	inv.stdinJob("schedules a job", func(code string) { inv.shellCode(code, inv.red.scriptAt, inv.carried()) })
	return true
}

// stdinJob classifies the jobs a scheduler (at, crontab) reads from stdin:
// a literal here-document's through doc, input fed at run time as code
// that cannot be identified, a file as a script from where it lies;
// /dev/null feeds none.
func (inv *invocation) stdinJob(what string, doc func(code string)) {
	w, red := inv.w, inv.red
	switch {
	case red.script != nil && !red.scriptDyn:
		doc(*red.script)
	case red.scriptDyn || red.stdinDyn || red.stdin == stdinPipe:
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueHigh, inv.prog, fmt.Sprintf("`%s` %s fed to it at run time, which cannot be identified", inv.text, what)))
	case red.stdinFile != "" && !red.stdinNull:
		inv.script([]field{{value: red.stdinFile}})
	}
}

// crontab installs the user's scheduled jobs from a FILE operand or, with
// `-` or none, from stdin: a literal here-document's jobs are shell code
// cron runs later from the home directory, classified as such; jobs fed at
// run time cannot be identified, as at's cannot (`crontab -l | sed .. |
// crontab -` included); a file is a script from where it lies, as `at -f`'s.
func (inv *invocation) crontab(e *effects.Program, args []field) bool {
	inv.parseOptions(e, args)
	inv.emit()
	inv.emitFlags()
	if inv.replacing || inv.has("-r", "-e") != nil {
		return true
	}
	if ops := inv.operands; len(ops) > 0 && ops[0].value != "-" {
		inv.script(ops[:1])
		return true
	}
	w := inv.w
	dirs := unknownDirs
	if w.opts.Home != "" {
		dirs = []string{w.opts.Home} // cron runs jobs there
	}
	inv.stdinJob("installs scheduled jobs", func(tab string) {
		for _, job := range cronCommands(tab) {
			w.codeValue(job, false, inv.at, inv.depth, processCtx(dirs, dirs))
		}
	})
	return true
}

// cronCommands are the commands of a crontab's jobs: after the five time
// fields, or an @-schedule; comments, blank lines and variable settings
// are none. cron turns an unescaped % into a newline, the rest being the
// command's stdin: the command ends there.
func cronCommands(tab string) []string {
	var out []string
	for _, line := range strings.Split(tab, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Fields(line)
		n := 5
		if strings.HasPrefix(line, "@") {
			n = 1
		} else if name, _, ok := strings.Cut(fields[0], "="); ok && !strings.ContainsAny(name, " *,/-") {
			continue // SHELL=/bin/bash, MAILTO=x
		}
		if len(fields) <= n {
			continue
		}
		rest := line
		for range n {
			rest = strings.TrimLeft(rest, " \t")
			rest = strings.TrimLeft(rest[strings.IndexAny(rest+" ", " \t"):], " \t")
		}
		for i := 0; i < len(rest); i++ {
			if rest[i] == '\\' {
				i++
			} else if rest[i] == '%' {
				rest = rest[:i]
				break
			}
		}
		out = append(out, rest)
	}
	return out
}

// tmuxKeys are the key names tmux send-keys types as text.
var tmuxKeys = map[string]string{"Enter": "\n", "C-m": "\n", "C-j": "\n", "KPEnter": "\n", "Space": " ", "Tab": "\t"}

// tmuxCommand: tmux new-session, new-window and split-window run their
// operands as a shell command, and send-keys types its operands into a
// shell: the text is classified as shell code, besides the entry's own
// opaque-medium. It runs in the directory -c names; without -c,
// new-session's runs where tmux does, new-window's and split-window's in
// the session's directory, and send-keys' text in the target pane's
// shell, wherever that is: directories not known.
func (inv *invocation) tmuxCommand(e *effects.Program, args []field) bool {
	for _, a := range args {
		if a.dynamic {
			inv.emit()
			inv.opaqueHigh("a tmux command only known at run time")
			return true
		}
	}
	words := inv.parseOptions(e, args)
	literal := inv.has("-l") != nil // before emitFlags drops the flags
	inv.emit()
	inv.emitFlags()
	send := e.Name == "send-keys"
	var code []string
	for _, a := range words {
		v := a.value
		if k, ok := tmuxKeys[v]; ok && send && !literal {
			v = k
		}
		code = append(code, v)
	}
	if len(code) == 0 {
		return true
	}
	sep := " "
	if send {
		sep = ""
	}
	ctx := inv.carried()
	if send || e.Name == "new-window" && !inv.moved {
		ctx = processCtx(unknownDirs, unknownDirs)
	}
	inv.shellCode(strings.Join(code, sep), inv.at, ctx)
	return true
}

// windowsPowerShell reports whether prog is Windows PowerShell
// (powershell, powershell.exe, in any case and directory), whose default
// parameter is -Command.
func windowsPowerShell(prog string) bool {
	base := strings.ToLower(prog[strings.LastIndexAny(prog, `/\`)+1:])
	return base == "powershell" || base == "powershell.exe"
}

// pwshScriptWord reports whether v, the first word of powershell.exe that
// is no option, names a script file: one word ending in .ps1 (`powershell
// scripts/build.ps1`), which -Command runs as the script.
func pwshScriptWord(v string) bool {
	return !strings.ContainsAny(v, " \t;&|(){}$`'\"") && strings.HasSuffix(strings.ToLower(v), ".ps1")
}

// pwshSwitches and pwshValued are PowerShell's own options (pwsh and
// powershell.exe), lower case, whose value, if any, is no code: the
// interpreter walk passes over them to the code or script.
var (
	pwshSwitches = []string{"-noprofile", "-nop", "-noninteractive", "-noni", "-nologo", "-nol", "-noexit", "-noe", "-sta", "-mta", "-login", "-l", "-noprofileloadtime"}
	pwshValued   = []string{"-windowstyle", "-w", "-win", "-inputformat", "-inp", "-if", "-outputformat", "-o", "-of", "-configurationname", "-config",
		"-settingsfile", "-settings", "-version", "-v", "-workingdirectory", "-wd", "-executionpolicy", "-ep", "-ex", "-exec", "-custompipename", "-psconsolefile"}
)
