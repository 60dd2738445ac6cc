//go:build tablesrc

package effects

import (
	"cmp"
	"slices"
)

// table is the table of known programs, sorted by Name (a test checks it and
// that names and aliases are unique). Each family lives in its own
// binaries_*.go file; subcommands are written sorted by hand.
//
// Provenance of flags: the GNU coreutils 9.x, findutils 4.9 and git 2.4x man
// pages, and each tool's own `--help` or reference page for the others.
//
// Encoding conventions, beyond the schema's doc comments:
//   - Every option that takes a value is declared, so that its value is not
//     taken for an operand or a subcommand; a boolean option is never
//     declared with a value, since it would swallow the next word (`npm
//     --json install -g x`). Options without effects and without values are
//     left out: the classifier ignores unknown options.
//   - Options whose value is optional and attached (`--color=auto`) are
//     declared without a value ([optArg]); OptionalArg is kept for short
//     options only (`-i.bak`).
//   - Programs whose options are words (`-name`, `-out`) are SingleDashLong,
//     with every subcommand ([singleDash]); options a tool accepts after its
//     subcommand are copied down ([withFlags], [inherit]).
//   - Programs whose first operand is a pattern (grep, jq) do not Skip it:
//     reading it as a path costs nothing and keeps `grep -e x FILE` honest.
//   - A tool that rewrites the files it is given only with a flag (`gofmt -w`,
//     `prettier --write`) keeps Operands ReadPaths or NoPaths and carries the
//     write on the flag, marked InPlace: with it the operands are written
//     paths. A tool that rewrites them by default (black, rustfmt) has
//     Operands WritePaths, and its check flags are ReadOnly.
//   - Goal runners (make, mvn, gradle, just, ...) list the goals that verify
//     by name in Goals: they verify only when every goal does, and `make
//     test test test install` has the runner's Other effects. Script runners
//     (npm run, pnpm, yarn, deno task) list theirs in Checks ([Scripts]).
//   - Deleting resources that live outside the workspace (containers,
//     clusters, cloud, shared caches) is Outside; implicit writes of
//     configuration, credentials or installed programs under the home
//     directory name the file in HomeWrite (`~/.npmrc`).
//   - Tools that run a package's program (npx, uvx, pnpm dlx) have Operands
//     Command: the program they name is classified too, as if it were the
//     system program of that name, on top of their own opaque effects.
var table = finishTable(sortedTable(
	shellPrograms,
	zshPrograms,
	coreutils,
	textTools,
	systemTools,
	networkTools,
	archiveTools,
	gitPrograms,
	goPrograms,
	nodePrograms,
	pythonPrograms,
	pythonModules,
	rustPrograms,
	jvmPrograms,
	nativePrograms,
	otherLangPrograms,
	buildPrograms,
	verifyPrograms,
	containerPrograms,
	cloudPrograms,
	packagePrograms,
	servicePrograms,
	editorPrograms,
	miscPrograms,
	extraPrograms,
	gatePrograms,
))

// sortedTable joins the families and sorts them by name.
func sortedTable(families ...[]Program) []Program {
	var all []Program
	for _, f := range families {
		all = append(all, f...)
	}
	slices.SortStableFunc(all, func(a, b Program) int { return cmp.Compare(a.Name, b.Name) })
	return all
}

// finishTable adds the entries' plain options ([plainOptions]), marks the
// programs that packages install ([packaged]) and hands each entry's way of
// matching long options down to its subcommands.
func finishTable(all []Program) []Program {
	all = withPlainOptions(all)
	for i := range all {
		all[i].Packages = packaged[all[i].Name]
		all[i] = longDown(all[i], all[i].LongOptions)
	}
	return all
}

// longDown returns p with its subcommands, recursively, matching long
// options as l says unless they say otherwise ([Program.LongOptions]).
func longDown(p Program, l LongOptions) Program {
	if p.LongOptions == LongUnknown {
		p.LongOptions = l
	}
	if len(p.Subcommands) > 0 {
		subs := make([]Program, len(p.Subcommands))
		for i, s := range p.Subcommands {
			subs[i] = longDown(s, p.LongOptions)
		}
		p.Subcommands = subs
	}
	return p
}

// digits are the options `-0` to `-9`, clustered into a number as a count
// (`head -20`, `tail -5f`, `grep -3 x`); plainOptions spell them `-NUM`.
func digits() Flag {
	return Flag{Names: names("-0", "-1", "-2", "-3", "-4", "-5", "-6", "-7", "-8", "-9")}
}

// packaged are the programs that the packages of an ecosystem install into
// a project, by entry name ([Program.Packages]): a package runner of that
// ecosystem that finds one installed runs it as its entry (`npx tsc
// --noEmit`, `uv run pytest`). A runner naming anything else installed
// there runs the project's file, or keeps its own effects for a program it
// is not (`npx rm`). TestPackaged checks that every name is an entry.
var packaged = map[string][]Ecosystem{
	// npm packages.
	"ava": {Node}, "biome": {Node}, "commitlint": {Node}, "cucumber": {Node}, "cypress": {Node}, "esbuild": {Node},
	"eslint": {Node}, "jasmine": {Node}, "jest": {Node}, "knip": {Node}, "lerna": {Node}, "lint-staged": {Node},
	"markdownlint": {Node}, "mocha": {Node}, "next": {Node}, "nodemon": {Node}, "nyc": {Node}, "oxlint": {Node},
	"playwright": {Node}, "prettier": {Node}, "stylelint": {Node}, "ts-node": {Node}, "tsc": {Node}, "turbo": {Node},
	"vite": {Node}, "vitest": {Node}, "webpack": {Node}, "xo": {Node},
	// Both.
	"pyright": {Node, Python},
	// Python packages (the virtualenv's own python and pip too).
	"autopep8": {Python}, "bandit": {Python}, "black": {Python}, "codespell": {Python}, "coverage": {Python},
	"flake8": {Python}, "isort": {Python}, "jupyter": {Python}, "mkdocs": {Python}, "mypy": {Python}, "nox": {Python},
	"pip": {Python}, "pre-commit": {Python}, "pylint": {Python}, "pytest": {Python}, "python": {Python}, "ruff": {Python},
	"sphinx-build": {Python}, "sqlfluff": {Python}, "tox": {Python}, "twine": {Python}, "yamllint": {Python}, "yapf": {Python},
}

// runs marks p as a package runner of e ([Program.Runner]).
func runs(p Program, e Ecosystem) Program { p.Runner = e; return p }

// fx is a list of effect classes.
func fx(cs ...Class) []Class { return cs }

// versioned marks an entry whose versioned names name it too (`tclsh8.6`).
func versioned(p Program) Program { p.Versioned = true; return p }

// secret marks an entry whose output is a stored credential.
func secret(p Program) Program { p.Credential = true; return p }

// ex is a list of example commands.
func ex(s ...string) []string { return s }

// names is a list of option or program names.
func names(s ...string) []string { return s }

// arg is an option whose value is data (`-n 5`).
func arg(ns ...string) Flag { return Flag{Names: ns, Value: Arg} }

// optArg is an option whose value is only ever attached (`--color=auto`,
// `-i.bak`). Names that are words (`--color`, or any name of a single-dash
// program) are declared without a value: their attached value is read
// either way, and the classifier takes the next word as the value of a long
// OptionalArg option, which would hide an operand (`rm --interactive ~`).
// Only a flag made of short names keeps OptionalArg, so that its attached
// value is not read as more short options.
func optArg(ns ...string) Flag {
	for _, n := range ns {
		if len(n) != 2 {
			return Flag{Names: ns}
		}
	}
	return Flag{Names: ns, Value: OptionalArg}
}

// wpath is an option whose value is a file written (`sort -o out`).
func wpath(ns ...string) Flag { return Flag{Names: ns, Value: WritePath} }

// rpath is an option whose value is a file read (`grep -f patterns`).
func rpath(ns ...string) Flag { return Flag{Names: ns, Value: ReadPath} }

// bools are options without a value or effects (`perl -l`).
func bools(ns ...string) Flag { return Flag{Names: ns} }

// inline is an option whose value is inline code ([InlineCode]).
func inline(ns ...string) Flag { return Flag{Names: ns, Value: InlineCode} }

// dir is an option whose value is the directory the program works in (`make -C d`).
func dir(ns ...string) Flag { return Flag{Names: ns, Value: Dir} }

// projectDir is an option whose value is the project the tool works on
// (`npm --prefix d`): a command it carries may run there or in the cwd.
func projectDir(ns ...string) Flag { return Flag{Names: ns, Value: ProjectDir} }

// code is an option whose value is a file of code the program loads
// (`eslint -f formatter.js`): opaque-medium outside the workspace ([CodePath]).
func code(ns ...string) Flag { return Flag{Names: ns, Value: CodePath} }

// mode is an option whose value is a file mode (`install -m 755`): setuid
// and setgid bits in it refuse ([Mode]).
func mode(ns ...string) Flag { return Flag{Names: ns, Value: Mode} }

// prog is an option whose value is a program the tool runs (`rg --pre cmd`).
func prog(ns ...string) Flag { return Flag{Names: ns, Value: ProgramArg} }

// local marks f as keeping a request to a loopback address a read
// ([Flag.Local]); with values, only those values do.
func local(f Flag, values ...string) Flag {
	f.Local, f.LocalValues = true, values
	return f
}

// needed makes f one of the alternatives of the local-read condition need
// ([Flag.LocalNeed]).
func needed(need string, f Flag) Flag {
	f.LocalNeed = need
	return f
}

// devices are the outputs that are not files (SPEC §3 rule 4): an HTTP
// client writing there keeps a local request a read.
var devices = []string{"-", "/dev/null", "/dev/stdout", "/dev/stderr"}

// config is an option whose value is `key=value` that may name a program.
func config(ns ...string) Flag { return Flag{Names: ns, Value: Config} }

// flags joins lists of flags.
func flags(fs ...[]Flag) []Flag {
	var out []Flag
	for _, f := range fs {
		out = append(out, f...)
	}
	return out
}

// fl is a list of flags.
func fl(fs ...Flag) []Flag { return fs }

// ro is a read-only program whose operands are data (`uname -a`).
func ro(name string, examples ...string) Program {
	return Program{Name: name, Effects: fx(Read), Examples: examples}
}

// rof is a read-only program whose operands are data, with options.
func rof(name string, fs []Flag, examples ...string) Program {
	return Program{Name: name, Effects: fx(Read), Flags: fs, Examples: examples}
}

// sub is a subcommand with fixed effects and no options of its own.
func sub(name string, cs []Class, why string, examples ...string) Program {
	return Program{Name: name, Effects: cs, Why: why, Examples: examples}
}

// rsub is a read-only subcommand.
func rsub(name string, examples ...string) Program {
	return Program{Name: name, Effects: fx(Read), Examples: examples}
}

// withFlags returns p with fs added to its flags, and to those of its
// subcommands, recursively (options that every level of a tool accepts).
func withFlags(p Program, fs []Flag) Program {
	p.Flags = flags(p.Flags, fs)
	if len(p.Subcommands) > 0 {
		subs := make([]Program, len(p.Subcommands))
		for i, s := range p.Subcommands {
			subs[i] = withFlags(s, fs)
		}
		p.Subcommands = subs
	}
	return p
}

// inherit returns p with its flags also accepted by its subcommands,
// recursively: tools whose global options may follow the subcommand
// (`helm template x --output-dir out`, `bazel test --run_under=x`).
func inherit(p Program) Program {
	subs := make([]Program, len(p.Subcommands))
	for i, s := range p.Subcommands {
		subs[i] = withFlags(s, p.Flags)
	}
	p.Subcommands = subs
	return p
}

// singleDash returns p with SingleDashLong set on it and on every
// subcommand, recursively: tools whose options are words everywhere
// (`mvn test -pl core`, `terraform init -backend-config=x`).
func singleDash(p Program) Program {
	p.SingleDashLong = true
	subs := make([]Program, len(p.Subcommands))
	for i, s := range p.Subcommands {
		subs[i] = singleDash(s)
	}
	p.Subcommands = subs
	return p
}

// nodeChecks are the package.json scripts that verify by name (`npm run
// lint`, `pnpm typecheck`, `yarn test:unit`): the names that projects give
// their test runners, linters and typecheckers. Scripts named for anything
// else (`build`, `dev`, `start`, `lint:fix`) run the project's code; see
// [ScriptWriters]. `lint-*` is not here: `lint-staged` rewrites and stages
// files.
var nodeChecks = names("check", "check:*", "lint", "lint:*", "test", "test:*", "tests", "type-check", "typecheck", "typecheck:*")

// makeGoals are the Makefile goals, justfile recipes and Taskfile tasks
// that verify by name (`make lint`, `just test`, `task check`), where
// hyphens join words (`make test-unit`).
var makeGoals = names("check", "check-*", "lint", "lint-*", "test", "test-*", "tests", "type-check", "typecheck", "vet")
