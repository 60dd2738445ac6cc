package effects

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

//go:generate go tool stringer -type=Value,Operands,Special,Scripts,Request,Ecosystem,EnvRole,LongOptions -output=table_string.go
//go:generate go run -tags tablesrc ./internal/gentable -o table_gen.go

// Program is one entry of the table of known programs, or one subcommand of
// such an entry (subcommands nest with the same shape).
//
// How the classifier reads an entry:
//   - Options are parsed with [Program.Flags]: a flag that takes a value
//     consumes it; short flags cluster (`-rf`) unless [Program.SingleDashLong].
//   - The first operand is looked up in [Program.Subcommands]; a match
//     continues there, an unmatched operand takes [Program.Other] (the
//     conservative entry, SPEC §3 rule 9) when the program has subcommands.
//   - The part's effects are [Program.Effects] plus the effects of every flag
//     present, plus the effects of the operands by [Program.Operands].
//     For operand-driven roles (write, delete, move, copy) the location classes
//     `write-inside-workspace`, `write-outside-workspace` and
//     `irreversible-deletion` in Effects describe a workspace operand and are
//     replaced by what the operands' resolved paths give.
//   - [Program.Special] names logic the data cannot say (find, sed, awk, ...).
type Program struct {
	Name    string   // "git", or a subcommand name "push"
	Aliases []string // other names of the same entry: "python3" for "python"
	// Versioned: the name or an alias followed by a version also names the
	// entry, as distributions install interpreters (`python3.12`,
	// `pypy3.10`, `pip3.11`, `perl5.36`). Only for programs whose versioned
	// binaries are the same program.
	Versioned bool
	Effects   []Class // effects of a plain invocation: `git push` network
	Why       string  // why a non-read entry is what it is; shown in reasons
	// Operands says what the non-flag arguments are.
	Operands Operands
	// Skip is the number of leading operands that are not paths or commands:
	// `timeout 5 CMD` skips 1; `ssh host CMD` skips 1; `chmod MODE FILE` skips 1.
	Skip int
	// SkipCode: the operands Skip passes over are code the program loads,
	// each classified as a [CodePath] flag's value (`direnv exec DIR CMD`
	// runs DIR's .envrc before CMD).
	SkipCode bool
	Flags    []Flag
	// Subcommands are matched on the first operand. An entry may use both
	// Subcommands and Operands: Operands applies when no subcommand matched
	// and Other is empty.
	Subcommands []Program
	// Other are the effects of an unknown subcommand (SPEC §3 rule 9); when
	// nil and Subcommands is non-empty, an unknown subcommand is opaque-medium.
	// For a goal runner, the effects of a goal not in Goals.
	Other []Class
	// Goals are the goals of a goal runner that verify by name (`make test`,
	// `mvn verify`): the operands are goals, and the invocation verifies
	// when every goal is one of these; any other goal gives it Other's
	// effects (`make test install` runs install's recipe). With no goal it
	// has Effects (the default goal). Names and patterns as in
	// [Program.Checks] ([IsCheck]): `test-*` takes `make test-unit`.
	Goals []string
	// SingleDashLong: options are words like `-delete` (find), not clusters.
	SingleDashLong bool
	// LongOptions says how the program matches a long option to its names:
	// exactly, by getopt_long's unambiguous prefixes (`sed --in-pl`), or by
	// git's unique prefixes and negations. Subcommands without their own
	// take the entry's (the generator fills them in).
	LongOptions LongOptions
	// OpenOptions, for an entry that can be allowed (plain effects read or
	// verify), says why its options are left open: such an entry otherwise
	// lists every option it has, and an option it does not know makes the
	// part opaque-medium (SPEC §3 judgment calls). Only for programs whose
	// option-like words cannot change what they do (`echo --x` prints
	// `--x`; `test -f x` is an expression).
	OpenOptions string
	// Outside: the entry's writes and deletions land outside the workspace
	// whatever the cwd: containers, clusters, cloud resources, package caches
	// (`docker volume rm`, `kubectl delete`, `terraform destroy`). Its
	// irreversible-deletion is then an absolute refusal (SPEC §3 rule 13).
	Outside bool
	// HomeWrite names the file in the home directory the entry writes
	// implicitly ("~/.npmrc" for `npm config set`, "~/go/bin" for `go
	// install`): a home write is a write-protected-path refusal (SPEC §3
	// judgment calls, §5.2).
	HomeWrite string
	// Credential: the entry's output is a stored credential (`gh auth
	// token`, `vault kv get`): a line that also sends anything over the
	// network is a credential-exfiltration refusal (SPEC §5.5).
	Credential bool
	// Tree: like [Flag.Tree], for every invocation of the entry (`7z a`
	// adds directories whole).
	Tree bool
	// Links: the paths the entry writes become links (`ln`, `link`). Paths
	// through them cannot be resolved before the command runs, so anything
	// else in the command that writes or deletes through them is unknown.
	Links bool
	// URIOperands: an operand may be a SQLite URI filename, which names the
	// file in its path (`sqlite3 'file:app.db?mode=rw'` opens app.db): the
	// operand counts as that file too.
	URIOperands bool
	// RuleStore: running the entry changes the permission-rule store (SPEC
	// §5.6), so it is a rule-store-modification refusal whatever the budget
	// (`command-safety hook uninstall`); [Program.Why] says what it changes.
	RuleStore bool
	// OtherRuleStore: an unknown subcommand (the [Program.Other] effects)
	// is a [Program.RuleStore] change too: the gate's own commands, where an
	// unknown verb may be one that edits the rules (`command-safety rules`).
	OtherRuleStore bool
	// WorkTree: the entry changes the files of the work tree where it runs
	// (`git reset --hard`, `git rebase`, `git checkout .`), so its history
	// rewrites are located there too: a work tree that holds a rule-store
	// member makes them a rule-store-modification refusal (SPEC §5.6).
	WorkTree bool
	// Pathspecs: the operands are pathspecs of files in the work tree that
	// the entry writes, or deletes when its effects include
	// irreversible-deletion (`git checkout main -- a.go`, `git clean -fdx
	// ..`, `git rm -r dir`). Each is resolved as a path: a rule-store member
	// is refused (SPEC §5.6), a deletion outside the workspace is refused
	// (§5.1). Operands that are revisions resolve to harmless names inside.
	Pathspecs bool
	// RepoConfig: the program reads the configuration and hooks of the
	// repository it finds where it runs (git looks upward from its
	// directory), which may name programs (core.fsmonitor runs on `git
	// status`, core.pager on `git log`). Run in a directory outside the
	// workspace (`git -C /tmp/x status`, `cd /tmp/x && git diff`) that is
	// opaque-medium, like a [RepoDir] option outside. Only on top-level
	// entries.
	RepoConfig bool
	// InShell: the command the entry carries runs in the shell itself, not in
	// a process it starts (`builtin cd src`, `command cd src`): a cd there
	// changes the shell's directory. Functions are still not called
	// (`command rm` runs the program rm, whatever function rm exists).
	InShell bool
	// DeleteVerbs: for a command that is no known subcommand (one handled
	// by [Program.Other]), the words of its command path that make it a
	// deletion of remote resources (SPEC §3 rule 13, refused as §5.1):
	// a word as written (`delete`), or a prefix pattern `delete-*`
	// (`gcloud compute instances delete x`, `aws ec2 terminate-instances`).
	// An entry without subcommands looks for them among its operands and
	// their `:`-separated parts (`heroku apps:destroy x`, `doctl compute
	// droplet delete x`).
	DeleteVerbs []string
	// RunsOperands: the operands name the code a verifier runs (test files,
	// test directories, packages: `pytest tests/a_test.py`, `go test ./x`).
	// Verify by name trusts the project's own tests, so an operand outside
	// the workspace makes the run
	// opaque-medium, as a script outside the workspace is (`pytest /tmp/t`).
	RunsOperands bool
	// VarOperands: operands `NAME=VALUE` (with `:=`, `::=`, `+=`, `?=`,
	// `!=`) define variables the program takes from its command line and
	// exports to the commands it runs (GNU make: `make test SHELL=/tmp/x`
	// runs the recipes with /tmp/x, `make test LD_PRELOAD=/tmp/x.so` loads
	// it into each). Each is judged as the environment assignment
	// `NAME=VALUE` in front of the program would be, and opaque-medium
	// where the program expands it into code: a value only known at run
	// time, a function call such as `$(shell ...)`, `NAME!=CMD` (which runs
	// CMD), or a variable of the entry's [Program.Env] that only the
	// command line sets (make's `.SHELLFLAGS`).
	VarOperands bool
	// ReadOperands: with at most this many operands, each known before it
	// runs, the entry only reads (`git symbolic-ref HEAD` prints where HEAD
	// points; `git symbolic-ref HEAD refs/heads/x` points it elsewhere).
	ReadOperands int
	// VersionOnly are options that, as the only word after the program,
	// print its version or usage and exit before it opens, compiles, runs
	// or connects to anything: the invocation reads (`javac -version`,
	// `psql --version`; `javac -version A.java` still compiles).
	VersionOnly []string
	// DashOptions: the words after `--` are still options the program reads
	// (`cargo fmt -- --check` hands them to rustfmt); the entry lists them
	// among its flags.
	DashOptions bool
	// Elsewhere: the command the entry carries runs where the shell's
	// directories, home and workspace roots do not apply — in a container,
	// under another root directory, as a service unit (`docker exec web rm
	// x`, `chroot /srv/jail ls`, `systemd-run rm x`): its paths are unknown,
	// as a remote command's are (SPEC §3 rule 13).
	Elsewhere bool
	// Joined: the command the entry carries is its words joined with
	// spaces and run by a shell, as ssh runs a remote command (`wsl ls
	// -la`, `wsl 'rm -rf ~'`): the words are parsed as shell code. After a
	// flag with [Flag.Exec] the words run as they are (`wsl -e CMD`).
	Joined bool
	// StartsShell: with no command to run, the program starts the user's
	// shell, which reads its commands from stdin (`firejail`, `distrobox
	// enter box`, `script`): commands fed to it are classified as that
	// shell's code (read as bash), and with none it is an interactive shell.
	StartsShell bool
	// StdinCommands: the program reads commands in this language from
	// stdin (a database client, a debugger, a file-transfer client), and
	// the language can run programs ([Program.Escapes], gdb's `shell
	// CMD`, ftp's `!CMD`). Commands fed by a pipe, a file outside the
	// workspace or an input only known at run time cannot be identified
	// (opaque-high, SPEC §3 rule 12: `echo '.shell rm -rf ~' | sqlite3`,
	// `psql < /tmp/x.sql`); a literal here-document is classified as a
	// value of this kind (`gdb <<< 'shell rm -rf ~'`); `< /dev/null`
	// feeds nothing. [NoValue] for the others.
	StdinCommands Value
	// ShellCalls, for an interpreter, are the functions and operators of
	// its language that hand a command line to a shell (`os.system`,
	// `execSync`, perl's `system` and `qx`, `` ` `` for backtick strings):
	// in its inline code (`python3 -c`, a here-document), a whole string
	// literal given to one is classified as `sh -c` is, a list of literals
	// as the command they spell, and anything else as a command built at
	// run time (unidentifiable). A name with no dot matches only as a whole
	// identifier, not a method (`/re/.exec(s)` is no `exec`).
	ShellCalls []string
	// DeleteCalls, for an interpreter, are the functions of its language
	// that delete the file or tree their first argument names
	// (`shutil.rmtree`, `fs.rmSync`, `FileUtils.rm_rf`): in its inline code,
	// a call whose argument is a string literal, or one of the language's
	// expressions for the home directory ([Program.HomeExprs]), is
	// classified as `rm -rf` of that path is. Any other argument leaves
	// the inline code's own opaque-medium verdict.
	DeleteCalls []string
	// NetCalls, for an interpreter, are the names in its language that
	// reach the network (`urllib.request`, `fetch`, `Net::HTTP`): inline
	// code that uses one is network, and with stored credentials a string
	// literal names, credential-exfiltration (SPEC §5.5).
	NetCalls []string
	// HomeExprs are the interpreter's expressions for the home directory
	// (`os.homedir()`, `Path.home()`, `os.path.expanduser("~")`), for
	// [Program.DeleteCalls].
	HomeExprs []string
	// Escapes are the commands of the program's own language that reach
	// past it ([Escape]: sqlite3's `.shell` and `.output`, psql's `\!` and
	// `\o`, mysql's `system` and `pager`): in its [ReplCommands] values,
	// its operands after the first and a literal stdin, such a line is
	// classified as what it runs or writes.
	Escapes []Escape
	// Shell, for a shell (SpecialShell): the dialect it reads code in,
	// "bash", "zsh" or "sh" (`zsh -c 'ls *(e:rm:)'` is read as zsh).
	Shell string
	// Zsh: the entry is a zsh builtin, reserved word or precommand modifier
	// (`noglob`, `print`, `r`): it names the entry only when zsh runs the
	// command; elsewhere the name is an unknown program.
	Zsh bool
	// ZshFuncs: when zsh runs the command, the command the entry carries
	// may be one of the shell's functions (zsh's `exec`, `noglob`, `-`).
	ZshFuncs bool
	// Scripts says whether the operands name the project's own scripts, which
	// verify by name when [Program.Checks] lists them (SPEC §3 judgment
	// calls: project check scripts are verify by name).
	Scripts Scripts
	// Runner: the entry runs the program its command names from the
	// project's installation of this ecosystem when it is there (npx, npm
	// exec, pnpm exec, bunx, uv run; the script runners pnpm and yarn when
	// no project script has the name): see [Ecosystem].
	Runner Ecosystem
	// Request says how the operands name the requests an HTTP client makes,
	// so that one that stays on the machine is a read ([Request]).
	Request Request
	// Checks are the script names that verify by name, as Goals are a goal
	// runner's: a name as written (`test`, `type-check`), or a pattern
	// `BASE:*` / `BASE-*` that takes further segments of letters and digits
	// (`test:unit`); see [IsCheck]. Each [ScriptName] entry lists them
	// (shared lists in binaries.go).
	Checks []string
	// CheckExamples classify to exactly verify: the Checks at work
	// (`npm run lint`, `pnpm typecheck`).
	CheckExamples []string
	// Packages are the package ecosystems that install the entry's program
	// into a project (eslint: Node; pytest: Python): a [Program.Runner] of
	// one of them that finds it installed there runs it as this entry.
	Packages []Ecosystem
	// LocalExamples classify to exactly read: requests to a loopback
	// address that stay local (`curl -s http://localhost:3000/health`).
	LocalExamples []string
	// OperandForms classify operands by their form, the first form whose
	// Prefix an operand has deciding: such an operand is not what Operands
	// says (not a path), and adds the form's Effects unless it is one of the
	// form's Plain ones or a ReadOnly flag is present (`date +%s` formats,
	// `date 0101` sets the clock, `date -j 0101` does not; `less +G` jumps
	// to the end, `less '+!cmd'` runs a shell command; `hostname NAME` sets
	// the host name).
	OperandForms []OperandForm
	// PyModule: `python -m NAME` runs this entry, a standard module with a
	// command line (json.tool, unittest) or a Python package's (pip,
	// coverage); so does every entry whose Packages hold [Python]. Another
	// entry of the same name is not what python -m runs: `python -m code`
	// is Python's interactive console, not VS Code's code, and `python -m
	// test` CPython's test suite.
	PyModule bool
	// Special names classifier logic for this entry; see [Special].
	Special Special
	// Env are the environment variables the program reads to run code or
	// to move its reach (SPEC §3 rule 8; [EnvVar]): `GIT_PAGER=x git log`
	// runs x, `GIT_PAGER=x ls` runs nothing. Only on top-level entries.
	Env []EnvVar
	// EnvOf names entries whose programs this one runs, so that their
	// [Program.Env] variables that run code ([EnvCode], [EnvProgram],
	// [EnvConfig]) count for it too: go runs git (VCS stamping, modules),
	// so GIT_CONFIG_* with a core.fsmonitor reaches `go build`.
	EnvOf []string
	// Examples classify to exactly the set Effects (cwd and the workspace are
	// /ws, HOME is /home/u); NotExamples do not.
	Examples    []string
	NotExamples []string

	// flagIndex is the index of the names of Flags, sorted by length and
	// then by name (most comparisons of a lookup are of lengths): each
	// entry is a flag's index in Flags times 256 plus the name's index in
	// its Names (the first flag that has a name, as a scan would find). The
	// generator writes it for entries with many options, so that
	// [Program.FindFlag] need not scan (an option is looked up for every
	// option word a command has). It holds no pointers, so the garbage
	// collector does not scan it as it scans the rest of the table on
	// every cycle.
	flagIndex []uint32
}

// FindFlag returns the flag of p that has the name exactly, or nil.
func (p *Program) FindFlag(name string) *Flag {
	if ix := p.flagIndex; ix != nil {
		i, j := 0, len(ix) // sort.Search, without its closure
		for i < j {
			h := int(uint(i+j) >> 1)
			if n := p.indexedName(ix[h]); len(n) < len(name) || len(n) == len(name) && sameLenLess(n, name) {
				i = h + 1
			} else {
				j = h
			}
		}
		if i < len(ix) && name != "" && p.indexedName(ix[i]) == name {
			return &p.Flags[ix[i]>>8] // in range: indexedName found it
		}
		return nil
	}
	for i := range p.Flags {
		for _, n := range p.Flags[i].Names {
			if n == name {
				return &p.Flags[i]
			}
		}
	}
	return nil
}

// sameLenLess reports whether a < b for strings of the same length, inline:
// option names are short and most differ early, so a loop is cheaper than
// a call to the runtime's comparison.
func sameLenLess(a, b string) bool {
	for k := 0; k < len(a) && k < len(b); k++ {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return false
}

// indexedName is the option name an entry of [Program.flagIndex] stands
// for; "" for an entry out of range (the index does not match Flags).
func (p *Program) indexedName(x uint32) string {
	f, n := int(x>>8), int(x&0xff)
	if f >= len(p.Flags) || n >= len(p.Flags[f].Names) {
		return ""
	}
	return p.Flags[f].Names[n]
}

// Escape is a command of a client's own language, at the start of a line,
// that reaches past the client: it runs the rest of its line in a shell,
// pipes to or from a shell command, writes a file or runs one.
type Escape struct {
	// Name is the command as typed, with its lead character: ".shell",
	// "\\!", "system".
	Name string
	// Abbrev is the length of the shortest prefix of Name the client takes
	// for it, lead character included (sqlite3 runs `.sys` as `.system`);
	// 0 when it takes only the whole name.
	Abbrev int
	// Fold: the name matches whatever its case (mysql's long commands).
	Fold bool
	// Arg is what the rest of the line is: [ShellCode] (run in a shell),
	// [WritePath] (its words name files written), [ReadPath] (read),
	// [CodePath] (a library the client loads) or [ReplCommands] (a script
	// of the client's own commands, which cannot be identified from
	// outside the workspace, as what stdin feeds it: `.read`, `\\i`).
	Arg Value
	// Pipe: a rest that starts with `|` is a shell command the client
	// runs, its output going there or its input coming from it (`.once
	// |sh`, `\o |cmd`, `.read |cmd`), whatever Arg says otherwise.
	Pipe bool
	// After, when set, is the word after which Arg's value comes (psql's
	// `\copy t from program 'CMD'`): the rest is not Arg before it.
	After string
}

// Flag is an option of a [Program].
type Flag struct {
	// Names as typed: "-i", "--in-place". A long name matches `--name=value`;
	// a short name that takes a value matches `-ovalue` and `-o value`.
	Names []string
	// Value says whether the flag takes an argument and what it is.
	Value Value
	// Effects are added when the flag is present: `rm` has none, `git push
	// --force` adds history-rewrite.
	Effects []Class
	// Replace makes Effects replace the program's effects instead of adding:
	// `eslint --fix` is a writer, no longer a verifier.
	Replace bool
	// Fed, for a [ProgramArg] or [ShellCode] value: what it runs reads the
	// program's connection (`nc -e /bin/sh host 4444`, `ncat --sh-exec`),
	// input the line does not follow, so a shell or interpreter there runs
	// code that cannot be identified.
	Fed bool
	// Outside: like [Program.Outside], for this flag (`go clean -modcache`).
	Outside bool
	// Anywhere: the program's writes land where its input (a patch, an
	// archive) names, which the flag lets lead out of its directory
	// (`git apply --unsafe-paths`, whose patch may name `../x` or an
	// absolute path): the write's location is unknown before it runs.
	Anywhere bool
	// HomeWrite: like [Program.HomeWrite], for this flag (`pip install --user`).
	HomeWrite string
	// Links: like [Program.Links], for this flag (`cp -s`, `cp -l`).
	Links bool
	// Elsewhere: like [Program.Elsewhere], for this flag (`unshare -R DIR`,
	// `parallel -S host`).
	Elsewhere bool
	// Credential: the flag makes the program read stored credentials
	// (`curl --netrc` reads ~/.netrc and sends its password): with the
	// network in the line it is a credential-exfiltration refusal (§5.5).
	Credential bool
	// Tree: the flag makes the program read the directories its operands
	// name whole, hidden files included (`grep -r`, `zip -r`, `cp -a`,
	// `rg --hidden`): one at or above a home directory of stored
	// credentials (`grep -r . ~`) reads them (SPEC §5.5).
	Tree bool
	// Exec: for a [Program.Joined] entry, the carried words run as they
	// are, not through a shell (`wsl --exec CMD`).
	Exec bool
	// InPlace: the flag makes the program rewrite the files its operands
	// name (`gofmt -w`, `prettier --write`, `clang-format -i`, `perl -i`):
	// operands that are files read become files written, located as
	// [WritePaths] are, and the flag's write-inside-workspace is where
	// they lie (`clang-format -i ~/.bashrc` writes home). An interpreter
	// rewrites the files after its code or script (`perl -pi -e CODE f`).
	InPlace bool
	// DeletesSources: the flag makes the program delete the files it
	// reads or copies, its operands but a copy's destination (`rsync
	// --remove-source-files a/ b/`, `tar --remove-files -cf x.tar a`):
	// they are classified as deleted (SPEC §5.1).
	DeletesSources bool
	// Carries: the words after the flag, to the end of the line, are a
	// command the program runs (`ctest --build-and-test s b --test-command
	// CMD ARGS`); it is classified as a wrapper's command is. A program
	// may declare `--` as such a flag: after it comes the command, and the
	// operands before it are names (`distrobox enter box -- CMD`).
	Carries bool
	// PerPath: with Carries, the command runs on each path the program
	// finds below its search paths (the operands after [Program.Skip], or
	// the working directory), named by `{}` and its variants or added at
	// the end (`fd -e tmp . ~ -x rm`): the paths are those below them.
	PerPath bool
	// More: the flag takes this many words after its value (`bwrap --bind
	// SRC DEST`, `hyperfine -L NAME VALUES`); they are no operands.
	More uint8
	// ReadOnly: with this flag the program only reads (`gzip -c`, `sd -p`,
	// `poetry config --list`): the operands are files read, the values of
	// write-path flags are read, and the entry's HomeWrite does not happen
	// when no operand follows. Only for modes that change nothing, whatever
	// else is on the line.
	ReadOnly bool
	// Lists: the flag puts the program in its listing mode, in which an
	// operand after it is a pattern that selects what is listed, never the
	// name of a thing to create: no subcommand and not [Program.Other]
	// (`git branch --list 'feat*'`, `git branch --merged main`, `git tag -l
	// 'v*'`). An operand before it keeps its meaning.
	Lists bool
	// Closes: with this flag an entry whose options are open (its plain
	// effects write) only reads or verifies, so its options are a closed
	// world too: one it does not know makes the part opaque-medium, since
	// it may be one that writes (`rustfmt --check --print-config default
	// f` writes f).
	Closes bool
	// Local: the flag keeps a request to a loopback address a read
	// ([Request]): it sends no body, uploads nothing, keeps no cookie jar,
	// writes no file and follows no redirect (`curl -s`, `-H 'Accept: x'`,
	// `-w '%{http_code}'`). With LocalValues, only those values do (`-X GET`,
	// `-o /dev/null`).
	Local       bool
	LocalValues []string
	// LocalNeed names a condition a local read needs: flags that share a
	// LocalNeed are alternatives, one of which must be present (wget follows
	// redirects and writes a file unless `--max-redirect=0` and `-O -`).
	LocalNeed string
	// PlainValues are values with which the flag adds none of its Effects,
	// as [OperandForm] Plain patterns (`pytest -o log_cli=true` sets a
	// display option; `-o pythonpath=/tmp/x` imports code from there;
	// `pytest -p no:cacheprovider` blocks a plugin, where `-p NAME` loads
	// one). A value only known at run time is not one of them.
	PlainValues []string
	// EffectValues, when set, are the only values with which the flag adds
	// its Effects and Links, as [OperandForm] Plain patterns matched against
	// the value and each of its comma-separated items (`mount -o bind`
	// makes the mount point a link, `mount -o ro` does not; `systemd-run -p
	// User=root` runs as another user, `-p MemoryMax=1G` does not). A value
	// only known at run time may be any of them.
	EffectValues []string
	Why          string
	// Examples classify to include every class of Effects.
	Examples []string
}

// IsPlainValue reports whether v is one of the flag's PlainValues.
func (f *Flag) IsPlainValue(v string) bool { return matchesPlain(f.PlainValues, v) }

// Applies reports whether the flag with value v adds its Effects and Links:
// always, unless it has EffectValues and v (known, not dynamic) matches
// none of them, whole or by a comma-separated item.
func (f *Flag) Applies(v string, dynamic bool) bool {
	if len(f.EffectValues) == 0 || dynamic || matchesPlain(f.EffectValues, v) {
		return true
	}
	for _, item := range strings.Split(v, ",") {
		if matchesPlain(f.EffectValues, item) {
			return true
		}
	}
	return false
}

// Changes reports whether the flag makes the program do something its plain
// effects do not say: effects of its own beyond read and verify, or a value
// that names where it writes, works or finds code, a program, code, a
// configuration or a mode, or a place outside, elsewhere, a link, a
// deletion of its sources, a carried command, a credential store or an
// in-place rewrite of its operands (`sort -o`, `rg --pre`, `git diff
// --output`, `python -c`, `gofmt -w`). A word only known at run time may be
// such a flag.
func (f *Flag) Changes() bool {
	for _, c := range f.Effects {
		if c != Read && c != Verify {
			return true
		}
	}
	switch f.Value {
	case WritePath, Dir, ProgramArg, Config, TreeDir, RepoDir, InlineCode, ProjectDir, CodePath, Mode, ShellCode, DebuggerCommand, ClientCommands, ReplCommands:
		return true
	}
	return f.Outside || f.HomeWrite != "" || f.Links || f.Elsewhere || f.DeletesSources || f.Carries || f.Credential || f.InPlace
}

// OperandForm is a form of operand that means something of its own
// ([Program.OperandForms]).
type OperandForm struct {
	// Prefix starts the operands of this form; "" is every operand.
	Prefix string
	// Contains, when set, is in every operand of the form too (zsh's
	// `hash NAME=PATH`).
	Contains string
	// Match, when set, is a regular expression every operand of the form
	// matches somewhere: a construct of a mini-language the operand is
	// written in (mlr's DSL `system(`), for a form whose operands are
	// code. Compiled at first use.
	Match string
	// Plain are the operands of the form that do nothing more, as patterns
	// of what follows Prefix ([OperandForm.IsPlain]).
	Plain []string
	// Effects are added by an operand of the form that is not Plain; none
	// makes the form's operands data (`date +FORMAT`).
	Effects []Class
	Why     string
	// Examples classify to include every class of Effects.
	Examples []string
}

// Has reports whether the operand s has the form: it starts with Prefix
// and holds Contains and a match of Match.
func (f *OperandForm) Has(s string) bool {
	if !strings.HasPrefix(s, f.Prefix) || !strings.Contains(s, f.Contains) {
		return false
	}
	return f.Match == "" || matcher(f.Match).MatchString(s)
}

// matchers caches the compiled [OperandForm.Match] expressions.
var matchers sync.Map

func matcher(expr string) *regexp.Regexp {
	if re, ok := matchers.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(expr) // TestOperandFormMatch compiles every one
	matchers.Store(expr, re)
	return re
}

// IsPlain reports whether rest, an operand of the form without its Prefix,
// matches one of the form's Plain patterns. In a pattern `#` is one or more
// digits and a final `*` any rest without control characters; every other byte is itself (`#`, `G`,
// `/*`).
func (f *OperandForm) IsPlain(rest string) bool { return matchesPlain(f.Plain, rest) }

func matchesPlain(patterns []string, s string) bool {
	for _, p := range patterns {
		if matchPlain(p, s) {
			return true
		}
	}
	return false
}

func matchPlain(p, s string) bool {
	for len(p) > 0 {
		switch {
		case p == "*":
			// Not a control character: a newline would end the command
			// and start the next (less reads `+cmd` as typed input).
			return !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f })
		case p[0] == '#':
			n := 0
			for n < len(s) && s[n] >= '0' && s[n] <= '9' {
				n++
			}
			if n == 0 {
				return false
			}
			p, s = p[1:], s[n:]
		case len(s) > 0 && s[0] == p[0]:
			p, s = p[1:], s[1:]
		default:
			return false
		}
	}
	return s == ""
}

// Value says what a flag's argument is.
type Value int

const (
	// NoValue: the flag takes no argument.
	NoValue Value = iota
	// Arg: an argument that is neither a path nor a program (`-n 5`).
	Arg
	// OptionalArg: an argument only in the attached form (`-i.bak`, `--color=auto`).
	OptionalArg
	// WritePath: the argument is a file written (`sort -o out`, `curl -o f`).
	WritePath
	// ReadPath: the argument is a file read (`grep -f patterns`, `curl -T f`, `-d @f`).
	ReadPath
	// Dir: the program runs in this directory (`git -C d`, `make -C d`, `tar -C d`),
	// and so does the command it carries (`env -C d CMD`, `conda run --cwd d CMD`).
	Dir
	// ProgramArg: the argument is a program the tool runs (`rg --pre cmd`):
	// opaque-medium, whatever it names.
	ProgramArg
	// Config: a `key=value` that may name a program (`git -c core.pager=..`).
	Config
	// TreeDir: the program writes its tree here, not (only) in its working
	// directory, whose meaning for operands it keeps (`git --work-tree=/
	// checkout .`): the invocation's location classes, and the work-tree
	// writes of its history rewrites, land here as well.
	TreeDir
	// RepoDir: like [TreeDir], for the directory the program keeps its data
	// and reads its configuration from (`git --git-dir=/x/.git`): outside
	// the workspace that configuration, which may name programs (git's
	// core.pager, core.fsmonitor, hooks), is not inspected (opaque-medium).
	RepoDir
	// InlineCode: the argument is code in the interpreter's own language
	// (`python -c CODE`, `node -e CODE`, `perl -e CODE`): opaque-medium,
	// since inline code is not analysed (SPEC §3 judgment calls). The
	// interpreter handler finds it in clusters too (`python3 -Bc CODE`).
	InlineCode
	// ProjectDir: the program works on the project in this directory, and a
	// command it carries runs there or in the working directory, as the
	// tool's version decides: both are candidates (`npm --prefix d exec
	// CMD`, `uv run --project d CMD`).
	ProjectDir
	// CodePath: a file of code the program loads and runs (a JS config, a
	// plugin, a formatter, a parser: `eslint -f f.js`, `jest --config
	// j.js`), or a configuration that names such code (mypy's plugins=):
	// read like a [ReadPath], and opaque-medium outside the workspace or
	// when only known at run time, as a script outside is. A bare name
	// resolves inside and is the project's (`eslint -f json`).
	CodePath
	// Mode: a file mode, octal or symbolic (`install -m 4755`, `mkdir -m
	// u+s`): setuid and setgid bits in any spelling are privilege
	// escalation (SPEC §5.3), and a mode only known at run time is a
	// system change.
	Mode
	// ShellCode: the argument is shell code the program has a shell run
	// (`nix-shell --run CODE`, `hyperfine --prepare CODE`): classified as
	// `sh -c CODE` is; only known at run time, opaque-high.
	ShellCode
	// DebuggerCommand: the argument is a debugger command (`gdb -ex CMD`):
	// its `shell CMD`, `!CMD` and `pipe ... | CMD` forms (lldb's `platform
	// shell CMD`) run CMD in a shell, classified as `sh -c CMD` is.
	DebuggerCommand
	// ClientCommands: commands of a file-transfer client's own language,
	// separated by `;` or newlines (`lftp -e 'put f'`, `lftp -c 'open h;
	// mput *'`, `smbclient -c 'put f'`): the local files its upload commands
	// name (put, mput, reput, append, mirror -R) are read and sent, and a
	// `!` command is shell code.
	ClientCommands
	// ReplCommands: commands of a client's own language, one a line (SQL,
	// dot- and backslash-commands: `psql -c CMD`, `sqlite3 -cmd CMD`): not
	// analysed, except a line that starts with one of the entry's
	// [Program.Escapes] (`\! rm -rf ~`, `.once |sh x`, `\o ~/.bashrc`).
	ReplCommands
	// SSHOption: an ssh configuration option, `Key=Value` or `Key Value`
	// (`ssh -o`, `scp -o`, `sftp -o`): ProxyCommand, LocalCommand and
	// KnownHostsCommand are command lines ssh has the user's shell run on
	// this machine, classified as `sh -c` is (opaque-medium at least), and
	// one only known at run time may be any of them.
	SSHOption
)

// LongOptions says how a program matches a long option (`--name`) it is
// given to the long names of its options.
type LongOptions uint8

const (
	// LongUnknown: not known, treated as the worst case of the others. An
	// unambiguous prefix of a long name counts for that option's effects (the
	// program may accept it), and is still an option the table does not know
	// (the program may not, and then it is an option the table does not
	// list). A prefix of a directory option also takes its value, since
	// taking it for the command the program carries would hide where that
	// runs (`parallel --w / CMD`).
	LongUnknown LongOptions = iota
	// LongExact: only the names as listed (clap, Go's flag package, jq).
	LongExact
	// LongGetopt: a name as listed or any unambiguous prefix of one, as GNU
	// getopt_long, Python's argparse and Perl's Getopt::Long accept them
	// (`sed --in-pl` is `--in-place`). A prefix that several options share
	// is refused by the program, and is an option the table does not know.
	LongGetopt
	// LongGit: git's parse-options: a name as listed, a unique prefix of
	// one, and `--no-NAME` (or a prefix) negating the option NAME, which
	// turns it off and adds nothing (`git log --no-decorate`).
	LongGit
)

// Operands says what the non-flag arguments of a [Program] are.
type Operands int

const (
	// NoPaths: operands are data (patterns, names, URLs), not files changed.
	NoPaths Operands = iota
	// ReadPaths: operands are files read (`cat f`); reads of credential files
	// matter to the exfiltration rule.
	ReadPaths
	// WritePaths: every operand is a file created or changed (`touch a b`).
	WritePaths
	// DeletePaths: every operand is deleted (`rm a b`).
	DeletePaths
	// CopyPaths: the last operand is written, the others read (`cp a b`, `ln`).
	CopyPaths
	// MovePaths: every operand is changed (sources leave), and an existing
	// destination file is deleted (`mv a b`).
	MovePaths
	// Command: after Skip operands, the rest is a command the program runs
	// (wrappers: `timeout 5 ls`, `nice ls`).
	Command
	// Script: the first operand is a script the interpreter runs; with none it
	// reads its program from stdin (`python x.py`, `bash x.sh`).
	Script
	// ArchiveFirst: the first operand is the archive written (`-` is
	// standard output) and the others are the files read into it (`zip
	// -r out.zip src`): a credential among them is read, for §5.5.
	ArchiveFirst
	// InputOutput: the first operand is read and an optional second one is
	// the output written (`xxd a.bin`, `uniq -d a.txt out.txt`, `python -m
	// json.tool in.json out.json`); a single operand is only read.
	InputOutput
	// ShellCodes: every operand is shell code the program has a shell run
	// (`hyperfine 'make' 'make -j8'`), each classified as `sh -c CODE` is.
	ShellCodes
	// CodePaths: every operand is a file (or a directory's file) of code
	// the program loads and runs (`nix-shell /tmp/shell.nix`), each
	// classified as a [CodePath] flag's value: opaque-medium outside the
	// workspace or when only known at run time.
	CodePaths
)

// Scripts says how the operands of a script runner name the project's
// scripts (package.json scripts; goal runners have [Program.Goals]). A
// script runs code the project defines, so it takes the entry's
// [Program.Other] effects (opaque-low), except a check: it verifies by name
// when its name is one of [Program.Checks], the project's directory is in
// the workspace, and no argument makes the check write ([ScriptWrites]) or
// names a path outside the workspace. "By name" is the seed's trade: a
// project test script that deletes files is still trusted at this layer.
type Scripts uint8

const (
	// NoScripts: the operands are not script names.
	NoScripts Scripts = iota
	// ScriptName: the first operand names one script and the words after it
	// are the script's arguments (`npm run lint -- src`, `pnpm typecheck`,
	// `deno task test`); with no operand the entry keeps its own effects
	// (`npm run` lists the scripts). On an entry with subcommands, a first
	// operand that is no subcommand is the script (`pnpm lint`).
	ScriptName
	// ScriptArgs: the entry runs the script of its own name and its words
	// are the script's arguments (`npm test -- -u`): its effects stand
	// unless an argument makes it write or reach outside the workspace.
	ScriptArgs
)

// ScriptWriters are words that make a script or goal name no check,
// whatever the patterns say: a name with one of them as a segment (split at
// `:`, `-`, `_` and `.`) writes, builds, deploys or changes data (`lint:fix`,
// `test:update-snapshots`, `check-format`, `test:db`). `build`, `dev`,
// `start`, `deploy`, `db:*`, `migrate`, `release`, `publish`, `fix` and
// `format` never verify (issue 14).
var ScriptWriters = []string{"apply", "autofix", "build", "bundle", "clean", "codegen", "commit", "db", "delete", "deploy",
	"dev", "drop", "fix", "fmt", "format", "gen", "generate", "install", "migrate", "migration", "migrations", "prune",
	"publish", "push", "release", "reset", "rm", "seed", "serve", "snap", "snapshot", "snapshots", "start", "sync",
	"u", "update", "upgrade", "write"}

// ScriptWriteArgs are options that make a check write when they are passed
// to its script (`npm run lint -- --fix`, `pnpm test -u`, `yarn lint
// --write`): the name as written, with `=VALUE`, or, for a long option,
// followed by `-` (`--fix-type`, `--update-snapshots`). A cluster of short
// options with one of the single letters in it counts too (`-ui`).
var ScriptWriteArgs = []string{"--apply", "--fix", "--unsafe", "--update", "--updateSnapshot", "--write", "-u"}

// ScriptWrites reports whether arg, passed to a project script, makes the
// check write ([ScriptWriteArgs]).
func ScriptWrites(arg string) bool {
	for _, w := range ScriptWriteArgs {
		if arg == w || strings.HasPrefix(arg, w+"=") {
			return true
		}
		if strings.HasPrefix(w, "--") && strings.HasPrefix(arg, w+"-") {
			return true
		}
		if len(w) == 2 && len(arg) > 2 && arg[0] == '-' && arg[1] != '-' && strings.IndexByte(arg, w[1]) > 0 && isLetters(arg[1:]) {
			return true
		}
	}
	return false
}

// IsCheck reports whether the script or goal name is one of checks
// ([Program.Checks], [Program.Goals]): listed as written, or matched by a
// pattern `BASE:*` (`BASE-*`) whose star is one or more segments of ASCII
// letters and digits separated by `:`, `-`, `_` or `.`. A name with a
// segment in [ScriptWriters] is never a check.
func IsCheck(checks []string, name string) bool {
	segs, ok := segments(name)
	if !ok {
		return false
	}
	for _, s := range segs {
		for _, w := range ScriptWriters {
			if strings.EqualFold(s, w) {
				return false
			}
		}
	}
	for _, c := range checks {
		if base, ok := strings.CutSuffix(c, "*"); ok {
			if rest, ok := strings.CutPrefix(name, base); ok && rest != "" {
				if _, ok := segments(rest); ok {
					return true
				}
			}
			continue
		}
		if name == c {
			return true
		}
	}
	return false
}

// IsDeleteVerb reports whether word is one of verbs ([Program.DeleteVerbs]).
func IsDeleteVerb(verbs []string, word string) bool {
	for _, v := range verbs {
		if base, ok := strings.CutSuffix(v, "*"); ok && strings.HasPrefix(word, base) && len(word) > len(base) || word == v {
			return true
		}
	}
	return false
}

// segments splits a script name at `:`, `-`, `_` and `.`; ok is false when
// a segment is empty or has anything but ASCII letters and digits.
func segments(name string) (segs []string, ok bool) {
	start := 0
	for i := 0; i <= len(name); i++ {
		if i < len(name) && !strings.ContainsRune(":-_.", rune(name[i])) {
			c := name[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return nil, false
			}
			continue
		}
		if i == start {
			return nil, false
		}
		segs = append(segs, name[start:i])
		start = i + 1
	}
	return segs, len(segs) > 0
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// Request says how an HTTP client's operands name its requests, for the
// judgment call of SPEC §3: a GET or HEAD to a loopback address with no
// body, upload, cookie jar or output file stays on the machine and is read.
// The part is read only when every word is literal, every option is a
// [Flag.Local] one (with one of its LocalValues, and every [Flag.LocalNeed]
// met), no value reads or writes a file (`@FILE`, curl's `%output{FILE}`),
// every URL provably names a loopback address (`localhost`, 127.0.0.0/8,
// [::1]; no user info, no percent-encoding, no other spelling of an
// address), and the line sets no variable that moves the request or the
// client's configuration (`http_proxy`, `CURL_HOME`, `HOME`). Anything else
// stays network.
type Request uint8

const (
	// NoRequest: the entry is not an HTTP client with local reads.
	NoRequest Request = iota
	// URLRequests: every operand is a URL (`curl URL...`, `wget URL...`).
	URLRequests
	// ItemRequests: `[METHOD] URL [ITEM...]` (HTTPie's `http`, `xh`): the
	// method GET or HEAD, the URL possibly as `:PORT/path` for localhost,
	// and items that are headers (`Name:value`) or query parameters
	// (`name==value`); a data field, JSON or file item makes a body.
	ItemRequests
)

// Ecosystem is a package ecosystem that installs programs into a project.
// A package runner of it (SPEC §3 judgment calls) that names a program the
// project has installed, in node_modules/.bin of the working directory or of
// a directory above it in the workspace, or in the project's virtualenv
// (.venv/bin; .venv\Scripts on Windows), runs that program: the part is the
// program's entry with its arguments alone, when the entry lists the
// ecosystem in [Program.Packages] (`npx tsc --noEmit` verifies, `npx eslint
// --fix` writes). A program the table does not know is the project's file
// (opaque-low); one whose entry is no package of the ecosystem (`npx rm`)
// keeps the runner's own effects, as does a program not installed (the
// runner may download it), a version or package spec (`npx pkg@1.2`) and a
// runner option with effects of its own (`npx -p`, `uv run --with`).
type Ecosystem uint8

const (
	// NoEcosystem: not a package runner, or not a package.
	NoEcosystem Ecosystem = iota
	// Node: npm, pnpm, yarn and bun packages, in node_modules/.bin.
	Node
	// Python: Python packages in the project's virtualenv, .venv.
	Python
)

// Special names classifier logic that an entry needs beyond what the data says.
type Special int

const (
	// None: the data says everything.
	None               Special = iota
	SpecialFind                // find: -delete, -exec/-execdir/-ok CMD ;, -fprint F, start paths
	SpecialSed                 // sed: -i, and `w FILE`/`e` commands in the script
	SpecialAwk                 // awk: system(), print > file, | getline in the program text
	SpecialShell               // sh/bash/zsh/dash: -c 'literal' parsed recursively, script files, stdin
	SpecialInterpreter         // python/node/perl/ruby...: -c/-e inline code, -m module, script, stdin
	SpecialEnv                 // env: assignments, -u, -i, -S 'cmd', then a command
	SpecialXargs               // xargs/parallel: options then a command run with stdin's words
	SpecialGitConfig           // git config: values that name programs, --global writes home
	SpecialSSH                 // ssh: host then a remote command (network + inner effects)
	SpecialDD                  // dd: if=, of= operands
	SpecialChmod               // chmod/chown: setuid bits, targets
	SpecialTar                 // tar: -x/-c modes, -f archive, -C dir
	SpecialCD                  // cd/pushd/popd: change the tracked cwd
	SpecialDocker              // docker/podman run, exec, compose run: --privileged, -v /:/host, --device, --security-opt
	SpecialKubectlExec         // kubectl exec ... -- CMD: remote command
	SpecialEval                // eval/source/.: the program cannot be identified unless literal
	SpecialTruncate            // truncate: -s 0 deletes content
	SpecialWatch               // watch: options then a command string (like sh -c)
	SpecialFlock               // flock: options, a lock file, then a command or -c 'cmd'
	SpecialScript              // script -c 'cmd'
	SpecialSubmodule           // git submodule foreach 'cmd'
	SpecialCode                // code/cursor/codium: --uninstall-extension, --disable-extension
	SpecialZshOptions          // zsh setopt/unsetopt/emulate/enable/disable: options that change how words are read
	SpecialZmodload            // zsh zmodload: modules that add builtins or parameters
	SpecialAutoload            // zsh autoload: functions loaded from $fpath when called
)

// Table returns the table of known programs, sorted by name.
func Table() []Program { return table }

// OwnExamples are every example command the entry itself holds (not its
// subcommands'): its examples and not-examples, its check and local
// examples, its flags' and its environment's.
func (p *Program) OwnExamples() []string {
	var exs []string
	exs = append(exs, p.Examples...)
	exs = append(exs, p.NotExamples...)
	exs = append(exs, p.CheckExamples...)
	exs = append(exs, p.LocalExamples...)
	for _, f := range p.Flags {
		exs = append(exs, f.Examples...)
	}
	for _, v := range p.Env {
		exs = append(exs, v.Examples...)
		exs = append(exs, v.NotExamples...)
	}
	for _, f := range p.OperandForms {
		exs = append(exs, f.Examples...)
	}
	return exs
}

var (
	indexOnce sync.Once
	index     map[string]*Program
)

// Lookup returns the entry for a bare program name (or one of its aliases,
// or a versioned spelling of a [Program.Versioned] entry's names), or nil
// when the program is not in the table.
func Lookup(name string) *Program {
	indexOnce.Do(func() {
		index = make(map[string]*Program, len(table)*2)
		for i := range table {
			p := &table[i]
			index[p.Name] = p
			for _, a := range p.Aliases {
				index[a] = p
			}
		}
	})
	if p := index[name]; p != nil {
		return p
	}
	if stem, ok := versionStem(name); ok {
		if p := index[stem]; p != nil && p.Versioned {
			return p
		}
	}
	return nil
}

// versionStem splits a versioned program name (`python3.12`) into the name
// before its version (`python`): the version is digits in dot-separated
// groups, and the name ends in a letter.
func versionStem(name string) (string, bool) {
	stem := strings.TrimRight(name, "0123456789.")
	v := name[len(stem):]
	if stem == "" || v == "" || v[0] == '.' || v[len(v)-1] == '.' || strings.Contains(v, "..") {
		return "", false
	}
	if c := stem[len(stem)-1]; c < 'a' || c > 'z' {
		return "", false
	}
	return stem, true
}

// Sub returns the subcommand of p named name, or nil.
func (p *Program) Sub(name string) *Program {
	for i := range p.Subcommands {
		s := &p.Subcommands[i]
		if s.Name == name {
			return s
		}
		for _, a := range s.Aliases {
			if a == name {
				return s
			}
		}
	}
	return nil
}

// Names returns the sorted names and aliases of every entry.
func Names() []string {
	var ns []string
	for _, p := range table {
		ns = append(ns, p.Name)
		ns = append(ns, p.Aliases...)
	}
	sort.Strings(ns)
	return ns
}
