package effects

import (
	"strings"
	"sync"
)

// EnvVar is an environment variable that a program reads to run code or to
// move its reach (SPEC §3 rule 8): per program in [Program.Env], and for
// every program in [Environment]. An assignment counts for the rest of the
// line once made (in front of the command, plainly, with `export`,
// `declare -x` or `env VAR=x`), and for a program that reads it.
type EnvVar struct {
	// Name as the program reads it (`GIT_PAGER`); a name ending in `*` is a
	// prefix (`GIT_CONFIG_KEY_*`).
	Name string
	// Fold: the program reads the name in any case and with `-` for `_`
	// (npm's `npm_config_script_shell` is `NPM_CONFIG_SCRIPT-SHELL`).
	Fold bool
	Role EnvRole
	// Letters, for [EnvOptions]: a first word without a dash is a cluster
	// of single-letter options (MAKEFLAGS=ks is -k -s).
	Letters bool
	// Option, for [EnvOption]: the program's option whose value the
	// variable is (`--work-tree` for GIT_WORK_TREE); `--*` derives it from
	// the rest of a prefix name, lower case with `-` for `_` (pip reads
	// PIP_TARGET as --target, npm npm_config_global as --global); for
	// [EnvConfig], the program's configuration option (`-c`).
	Option string
	// Plain, for a variable of options to a program that runs one
	// ([EnvProgram]: RUSTFLAGS, rustc's): the option words that only tune
	// it (`-D`, `-Copt-level=`), as prefixes of a word with its value
	// joined (`-C opt-level=3` is `-Copt-level=3`). A value of only such
	// words adds nothing; any other word (`-C linker=/tmp/x`) is the role's.
	Plain []string
	// AnyValue, for [EnvWrite]: every non-empty value is the file written
	// (SSLKEYLOGFILE), not only an absolute path.
	AnyValue bool
	// Paths, for [EnvProgram]: the value is a list of directories,
	// separated by `:`, from which programs load code (PYTHONPATH). Where
	// every directory lies inside the workspace, resolved where each
	// program runs (an empty one is that directory), it is the project's
	// own code, as a [CodePath] flag's value there is (`PYTHONPATH=src
	// pytest`); a value only known at run time is not.
	Paths bool
	Why   string
	// Effects are the classes the variable adds: its Examples classify to
	// include every one, its NotExamples to none of them.
	Effects     []Class
	Examples    []string
	NotExamples []string
}

// EnvRole says what an [EnvVar]'s value is to the program reading it.
type EnvRole uint8

const (
	// EnvUnknown: treated as the worst case, a program that runs ([EnvProgram]).
	EnvUnknown EnvRole = iota
	// EnvCode: a command line the program runs with `sh -c` (GIT_PAGER,
	// EDITOR): opaque-medium, and the value is classified as code (SPEC §3
	// rule 11).
	EnvCode
	// EnvProgram: names a program, a library or a file of code or
	// configuration the program runs or loads (RUSTC_WRAPPER, LD_PRELOAD,
	// MAKEFILES): opaque-medium, whatever it names.
	EnvProgram
	// EnvOption: the value of one of the program's options
	// ([EnvVar.Option]), parsed as that option (GIT_DIR is --git-dir).
	EnvOption
	// EnvOptions: words of the program's own options, parsed as them
	// (GOFLAGS for go, MAKEFLAGS for make, which may spell single-letter
	// options without the dash).
	EnvOptions
	// EnvWrite: a file the program writes when the value is an absolute
	// path (git's GIT_TRACE=/tmp/t.log; `1`, `2` and `true` mean stderr).
	EnvWrite
	// EnvConfig: git configuration in the environment, decoded like `git -c
	// KEY=VALUE` ([EnvVar.Option]): GIT_CONFIG_COUNT with its
	// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, and GIT_CONFIG_PARAMETERS.
	// A key that names a program is rule 11's; a count, key or value only
	// known at run time is opaque-medium.
	EnvConfig
)

// Environment are the variables that change what runs for every program
// (SPEC §3 rule 8): the loader's, the shells', and those read by more
// programs than a table can list (PAGER, EDITOR, NODE_OPTIONS).
var Environment = []EnvVar{
	{Name: "BASHOPTS", Role: EnvProgram, Why: "changes how bash runs", Examples: []string{"BASHOPTS=extdebug bash -c ls"}},
	{Name: "BASH_ENV", Role: EnvProgram, Why: "names a script every bash runs", Examples: []string{"BASH_ENV=/tmp/x bash -c ls"}},
	// bash imports BASH_FUNC_NAME%%=() { ...; } from its environment as the
	// function NAME, which then runs in place of the command NAME.
	{Name: "BASH_FUNC_*", Role: EnvCode, Why: "defines a function bash imports, which runs in place of a command", Examples: []string{"env 'BASH_FUNC_ls%%=() { /tmp/x; }' bash -c ls"}},
	{Name: "BROWSER", Role: EnvCode, Why: "runs a program as the web browser (gh, git web--browse, python's webbrowser)", Examples: []string{"BROWSER=/tmp/b gh pr view --web"}},
	// Bundler, which `require "bundler/setup"` loads into rspec, rails and
	// rake too, evaluates the Gemfile (Ruby code) and reads its settings
	// (which may name another Gemfile) from BUNDLE_APP_CONFIG.
	{Name: "BUNDLE_APP_CONFIG", Role: EnvProgram, Why: "reads bundler's settings, which may name the Gemfile (Ruby code) it runs, from another directory", Examples: []string{"BUNDLE_APP_CONFIG=/tmp/b bundle exec rspec"}},
	{Name: "BUNDLE_GEMFILE", Role: EnvProgram, Why: "names the Gemfile, Ruby code, bundler runs", Examples: []string{"BUNDLE_GEMFILE=/tmp/Gemfile bundle exec rspec"}},
	{Name: "CC", Role: EnvProgram, Why: "names the C compiler builds run", Examples: []string{"CC=/tmp/cc go build ./..."}},
	// The .NET runtime loads a profiler, native code, into every .NET
	// program (dotnet, pwsh) when CORECLR_ENABLE_PROFILING=1.
	{Name: "CORECLR_PROFILER_PATH", Role: EnvProgram, Why: "loads a profiler library into every .NET program", Examples: []string{"CORECLR_ENABLE_PROFILING=1 CORECLR_PROFILER_PATH=/tmp/p.so dotnet test"}},
	{Name: "CORECLR_PROFILER_PATH_*", Role: EnvProgram, Why: "loads a profiler library into every .NET program", Examples: []string{"CORECLR_ENABLE_PROFILING=1 CORECLR_PROFILER_PATH_64=/tmp/p.so dotnet test"}},
	{Name: "CXX", Role: EnvProgram, Why: "names the C++ compiler builds run", Examples: []string{"CXX=/tmp/cc cargo build"}},
	{Name: "DOTNET_STARTUP_HOOKS", Role: EnvProgram, Why: "loads assemblies, code, into every .NET program before its Main", Examples: []string{"DOTNET_STARTUP_HOOKS=/tmp/h.dll dotnet test"}},
	{Name: "DYLD_INSERT_LIBRARIES", Role: EnvProgram, Why: "loads code into every program", Examples: []string{"DYLD_INSERT_LIBRARIES=/tmp/x.dylib ls"}},
	{Name: "DYLD_LIBRARY_PATH", Role: EnvProgram, Why: "changes which libraries programs load", Examples: []string{"DYLD_LIBRARY_PATH=/tmp ls"}},
	{Name: "EDITOR", Role: EnvCode, Why: "runs a program as the editor", Examples: []string{"EDITOR=/tmp/ed crontab -e"}},
	{Name: "ELIXIR_ERL_OPTIONS", Role: EnvProgram, Why: "passes options such as -eval, which runs code, to the Erlang VM elixir starts", Examples: []string{"ELIXIR_ERL_OPTIONS='-eval x' mix test"}},
	{Name: "ENV", Role: EnvProgram, Why: "names a script every sh runs", Examples: []string{"ENV=/tmp/rc sh -c ls"}},
	{Name: "ERL_AFLAGS", Role: EnvProgram, Why: "passes options such as -eval, which runs code, to every Erlang VM", Examples: []string{"ERL_AFLAGS='-eval x' rebar3 eunit"}},
	{Name: "ERL_FLAGS", Role: EnvProgram, Why: "passes options such as -eval, which runs code, to every Erlang VM", Examples: []string{"ERL_FLAGS='-eval x' mix test"}},
	{Name: "ERL_ZFLAGS", Role: EnvProgram, Why: "passes options such as -eval, which runs code, to every Erlang VM", Examples: []string{"ERL_ZFLAGS='-eval x' mix test"}},
	{Name: "GCONV_PATH", Role: EnvProgram, Why: "makes glibc load character-set modules, which are code, from another directory", Examples: []string{"GCONV_PATH=/tmp iconv -f utf8 -t ascii a.txt"}},
	{Name: "GEM_HOME", Role: EnvProgram, Why: "changes which gems, code, ruby programs load", Examples: []string{"GEM_HOME=/tmp/g rspec"}},
	{Name: "GEM_PATH", Role: EnvProgram, Why: "changes which gems, code, ruby programs load", Examples: []string{"GEM_PATH=/tmp/g ruby -v"}},
	{Name: "HOME", Role: EnvProgram, Why: "moves the configuration programs read, which may name programs (git's core.pager in ~/.gitconfig)", Examples: []string{"HOME=/tmp/h git log"}},
	{Name: "IFS", Role: EnvProgram, Why: "changes how the shell splits words", Examples: []string{"IFS=x bash -c ls"}},
	{Name: "JAVA_TOOL_OPTIONS", Role: EnvProgram, Plain: jvmPlain, Why: "passes options such as -javaagent, which loads code, to every JVM", Examples: []string{"JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar mvn test"}},
	{Name: "JDK_JAVA_OPTIONS", Role: EnvProgram, Plain: jvmPlain, Why: "passes options such as -javaagent, which loads code, to every java launcher", Examples: []string{"JDK_JAVA_OPTIONS=-javaagent:/tmp/a.jar gradle test"}},
	{Name: "LD_AUDIT", Role: EnvProgram, Why: "loads code into every program", Examples: []string{"LD_AUDIT=/tmp/x.so ls"}},
	{Name: "LD_LIBRARY_PATH", Role: EnvProgram, Why: "changes which libraries programs load", Examples: []string{"LD_LIBRARY_PATH=/tmp/lib go test ./..."}},
	{Name: "LD_PRELOAD", Role: EnvProgram, Why: "loads code into every program", Examples: []string{"LD_PRELOAD=/tmp/x.so ls"}},
	// less runs LESSOPEN and LESSCLOSE with the shell: a command line,
	// LESSOPEN's after its pipe marks (`|`, `||`, then `-` for stdin too).
	{Name: "LESSCLOSE", Role: EnvCode, Why: "is a command line less runs when it closes a file (less is every program's pager)", Examples: []string{"LESSCLOSE='/tmp/x %s' git log"}},
	{Name: "LESSOPEN", Role: EnvCode, Why: "is a command line less runs when it opens a file (less is every program's pager)", Examples: []string{"LESSOPEN='|/tmp/x %s' less README.md", "LESSOPEN='||-lesspipe %s' less README.md"}},
	{Name: "LUA_INIT", Role: EnvProgram, Why: "is code, or names a file of code, every lua runs first", Examples: []string{"LUA_INIT=@/tmp/x.lua lua -v"}},
	{Name: "NODE_OPTIONS", Role: EnvProgram, Plain: nodePlain, Why: "can load code into node, which many tools are",
		Examples:    []string{"NODE_OPTIONS=--require=/tmp/x.js tsc --noEmit", "NODE_OPTIONS='--max-old-space-size=4096 --import /tmp/x.mjs' npm test"},
		NotExamples: []string{"NODE_OPTIONS=--max-old-space-size=4096 npm test", "NODE_OPTIONS='--enable-source-maps --no-warnings' jest"}},
	{Name: "NODE_PATH", Role: EnvProgram, Paths: true, Why: "changes which modules node loads", Examples: []string{"NODE_PATH=/tmp npm test"}},
	{Name: "PAGER", Role: EnvCode, Why: "runs a program as the pager", Examples: []string{"PAGER=cat git log", "PAGER=/tmp/p psql -l"}},
	{Name: "PATH", Role: EnvProgram, Why: "changes which programs run", Examples: []string{"PATH=/tmp/evil:$PATH git status"}},
	{Name: "PERL5DB", Role: EnvProgram, Why: "is code perl's debugger (-d) runs", Examples: []string{"PERL5DB='system(q(/tmp/x))' perl -d t.pl"}},
	{Name: "PERL5LIB", Role: EnvProgram, Paths: true, Why: "changes which modules perl loads", Examples: []string{"PERL5LIB=/tmp perl -v"}},
	{Name: "PERL5OPT", Role: EnvProgram, Why: "passes options to every perl", Examples: []string{"PERL5OPT=-Mx perl -v"}},
	{Name: "PERLLIB", Role: EnvProgram, Paths: true, Why: "changes which modules perl loads", Examples: []string{"PERLLIB=/tmp perl -v"}},
	// php.ini's auto_prepend_file runs a script before every php program.
	{Name: "PHPRC", Role: EnvProgram, Why: "reads php's configuration, whose auto_prepend_file is a script every php program runs, from another place", Examples: []string{"PHPRC=/tmp/php phpunit"}},
	{Name: "PHP_INI_SCAN_DIR", Role: EnvProgram, Why: "reads php's configuration, whose auto_prepend_file is a script every php program runs, from another directory", Examples: []string{"PHP_INI_SCAN_DIR=/tmp/php composer test"}},
	{Name: "PROMPT_COMMAND", Role: EnvProgram, Why: "runs a command at every prompt", Examples: []string{"PROMPT_COMMAND=/tmp/x bash -i"}},
	{Name: "PYTHONBREAKPOINT", Role: EnvProgram, Why: "names a callable python imports and runs at every breakpoint()", Examples: []string{"PYTHONBREAKPOINT=evil.hook pytest"}},
	{Name: "PYTHONHOME", Role: EnvProgram, Why: "changes which standard library python loads", Examples: []string{"PYTHONHOME=/tmp python3 -m pytest"}},
	{Name: "PYTHONPATH", Role: EnvProgram, Paths: true, Why: "changes which modules python imports",
		Examples: []string{"PYTHONPATH=/tmp python3 -m pytest", "PYTHONPATH=src:/tmp/x pytest"}, NotExamples: []string{"PYTHONPATH=src pytest", "PYTHONPATH=.:src python -m pytest"}},
	// PYTHONSTARTUP runs only in interactive python, but SPEC §3 rule 8 lists it.
	{Name: "PYTHONSTARTUP", Role: EnvProgram, Why: "names a script python runs", Examples: []string{"PYTHONSTARTUP=/tmp/s.py python3 -m pytest"}},
	// The user site directory's .pth files run code at every start.
	{Name: "PYTHONUSERBASE", Role: EnvProgram, Why: "moves the user site-packages, whose modules and .pth files python loads", Examples: []string{"PYTHONUSERBASE=/tmp/u pytest"}},
	{Name: "RUBYLIB", Role: EnvProgram, Paths: true, Why: "changes which libraries ruby loads", Examples: []string{"RUBYLIB=/tmp ruby -v"}},
	{Name: "RUBYOPT", Role: EnvProgram, Why: "passes options to every ruby", Examples: []string{"RUBYOPT=-rx ruby -v"}},
	{Name: "SHELLOPTS", Role: EnvProgram, Why: "changes how shells run", Examples: []string{"SHELLOPTS=xtrace bash -c ls"}},
	{Name: "SSH_ASKPASS", Role: EnvCode, Why: "runs a program for ssh's passwords (ssh runs under git, rsync, scp, ...)", Examples: []string{"SSH_ASKPASS=/tmp/x ssh host"}},
	// Programs built on OpenSSL, GnuTLS or NSS (curl, python's ssl, node,
	// browsers) append their TLS keys to the file SSLKEYLOGFILE names.
	{Name: "SSLKEYLOGFILE", Role: EnvWrite, AnyValue: true, Effects: []Class{WriteOutside}, Why: "makes TLS programs write their keys to the file it names",
		Examples: []string{"SSLKEYLOGFILE=/tmp/k curl https://x.example"}},
	{Name: "VISUAL", Role: EnvCode, Why: "runs a program as the editor", Examples: []string{"VISUAL=vim crontab -e"}},
	{Name: "XDG_CONFIG_HOME", Role: EnvProgram, Why: "moves the configuration programs read, which may name programs (git's core.pager)", Examples: []string{"XDG_CONFIG_HOME=/tmp/c git log"}},
	{Name: "ZDOTDIR", Role: EnvProgram, Why: "names the directory of the startup files zsh runs", Examples: []string{"ZDOTDIR=/tmp zsh -ic ls"}},
	{Name: "_JAVA_OPTIONS", Role: EnvProgram, Plain: jvmPlain, Why: "passes options such as -javaagent, which loads code, to every JVM", Examples: []string{"_JAVA_OPTIONS=-javaagent:/tmp/a.jar mvn test"}},
}

// Matches reports whether the variable name is v's: its name, or a name
// under its prefix, folded when v is [EnvVar.Fold].
func (v *EnvVar) Matches(name string) bool {
	return v.matches(name, FoldEnv(name))
}

// matches is Matches with name's folded spelling given.
func (v *EnvVar) matches(name, folded string) bool {
	if v.Fold {
		name = folded
	}
	if prefix, ok := strings.CutSuffix(v.Name, "*"); ok {
		return len(name) > len(prefix) && strings.HasPrefix(name, prefix)
	}
	return name == v.Name
}

// FoldEnv spells a variable name as a folding program reads it: upper
// case, `-` read as `_`.
func FoldEnv(name string) string {
	return strings.ReplaceAll(strings.ToUpper(name), "-", "_")
}

// GenericEnv returns the [Environment] variable named name, or nil: a
// name under a prefix (`BASH_FUNC_*`) too.
func GenericEnv(name string) *EnvVar {
	envIndexOnce.Do(buildEnvIndex)
	if v := genericEnv[name]; v != nil {
		return v
	}
	for _, v := range genericPrefixes {
		if v.matches(name, name) {
			return v
		}
	}
	return nil
}

// ProgramEnv returns p's [Program.Env] variable named name, or nil: the
// first that matches, in the order Env lists them.
func (p *Program) ProgramEnv(name string) *EnvVar {
	if len(p.Env) == 0 {
		return nil
	}
	envIndexOnce.Do(buildEnvIndex)
	folded := FoldEnv(name)
	if ix := programEnv[p]; ix != nil {
		// The first exact match, unless a prefix listed before it matches.
		best := -1
		if i, ok := ix.exact[name]; ok {
			best = i
		}
		if i, ok := ix.folded[folded]; ok && (best < 0 || i < best) {
			best = i
		}
		for _, i := range ix.prefixes {
			if best >= 0 && i > best {
				break
			}
			if p.Env[i].matches(name, folded) {
				best = i
				break
			}
		}
		if best < 0 {
			return nil
		}
		return &p.Env[best]
	}
	for i := range p.Env {
		if p.Env[i].matches(name, folded) {
			return &p.Env[i]
		}
	}
	return nil
}

// envOf indexes one entry's Env: exact names (folded ones apart) and the
// positions of the prefixes, in order.
type envOf struct {
	exact, folded map[string]int
	prefixes      []int
}

var (
	envIndexOnce sync.Once
	genericEnv   map[string]*EnvVar // Environment by name (no prefixes, no folding)
	// genericPrefixes are the Environment variables whose name is a prefix.
	genericPrefixes []*EnvVar
	envOwners       []*Program // the entries with an Env
	// envNames holds the exact names of every entry's Env, folded for a
	// Fold variable; envPrefixes the prefixes of the `*` names.
	envNames    map[string]bool
	envPrefixes []*EnvVar
	programEnv  map[*Program]*envOf
)

func buildEnvIndex() {
	genericEnv = map[string]*EnvVar{}
	for i := range Environment {
		if strings.HasSuffix(Environment[i].Name, "*") {
			genericPrefixes = append(genericPrefixes, &Environment[i])
			continue
		}
		genericEnv[Environment[i].Name] = &Environment[i]
	}
	envNames = map[string]bool{}
	programEnv = map[*Program]*envOf{}
	for i := range table {
		if len(table[i].Env) == 0 {
			continue
		}
		envOwners = append(envOwners, &table[i])
		ix := &envOf{exact: map[string]int{}, folded: map[string]int{}}
		programEnv[&table[i]] = ix
		for j := range table[i].Env {
			v := &table[i].Env[j]
			switch {
			case strings.HasSuffix(v.Name, "*"):
				envPrefixes = append(envPrefixes, v)
				ix.prefixes = append(ix.prefixes, j)
			case v.Fold:
				envNames[v.Name] = true
				if _, dup := ix.folded[v.Name]; !dup {
					ix.folded[v.Name] = j
				}
			default:
				envNames[v.Name] = true
				if _, dup := ix.exact[v.Name]; !dup {
					ix.exact[v.Name] = j
				}
			}
		}
	}
}

// EnvOwners returns the entries whose [Program.Env] has the variable name.
func EnvOwners(name string) []*Program {
	if !ReadByProgram(name) {
		return nil
	}
	var out []*Program
	for _, p := range envOwners {
		if p.ProgramEnv(name) != nil {
			out = append(out, p)
		}
	}
	return out
}

// ReadByProgram reports whether some entry's [Program.Env] has the
// variable name: only such assignments need remembering for later parts.
func ReadByProgram(name string) bool {
	envIndexOnce.Do(buildEnvIndex)
	folded := FoldEnv(name)
	if envNames[name] || envNames[folded] {
		return true
	}
	for _, v := range envPrefixes {
		if v.matches(name, folded) {
			return true
		}
	}
	return false
}

// nodePlain are node's options that only tune it (memory, warnings,
// source maps), the values of NODE_OPTIONS that add nothing: not
// --require, --import, --loader, --inspect or --env-file.
var nodePlain = []string{"--max-old-space-size=", "--max-semi-space-size=", "--stack-size=", "--stack-trace-limit=",
	"--enable-source-maps", "--no-warnings", "--trace-warnings", "--no-deprecation", "--trace-deprecation", "--throw-deprecation",
	"--unhandled-rejections=", "--experimental-vm-modules", "--no-experimental-fetch", "--openssl-legacy-provider", "--expose-gc",
	"--trace-uncaught", "--dns-result-order="}

// jvmPlain are the JVM's options that only size or tune it, the values of
// JAVA_TOOL_OPTIONS and the build tools' JVM variables that add nothing:
// not -javaagent, -agentpath, -XX:OnError or -XX:OnOutOfMemoryError
// (which run commands), nor -D properties other than these.
var jvmPlain = []string{"-Xmx", "-Xms", "-Xss", "-XX:MaxRAMPercentage=", "-XX:InitialRAMPercentage=", "-XX:MaxMetaspaceSize=",
	"-XX:+UseG1GC", "-XX:+UseParallelGC", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=", "-Dfile.encoding=", "-Duser.timezone=",
	"-Duser.language=", "-Djava.awt.headless="}
