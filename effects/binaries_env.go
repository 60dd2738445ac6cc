//go:build tablesrc

package effects

// The environment each program reads to run code or to move its reach
// ([Program.Env]), from each program's manual: git(1) "ENVIRONMENT
// VARIABLES" and git-config(1) "ENVIRONMENT" (git 2.4x), `go help
// environment` (Go 1.26), GNU make 4.4 "Options/Recursion", npm-config(7)
// (npm 10), cargo's "Environment variables" reference, pip's "Configuration"
// (pip 24: PIP_<LONG_OPTION>), man-db man(1), kubectl and gh reference.

// envVar is an [EnvVar] that runs code or a program (role), with examples.
func envVar(name string, role EnvRole, why string, examples ...string) EnvVar {
	return EnvVar{Name: name, Role: role, Why: why, Effects: fx(OpaqueMedium), Examples: examples}
}

// folded marks the variables [EnvVar.Fold].
func folded(vs ...EnvVar) []EnvVar {
	for i := range vs {
		vs[i].Fold = true
	}
	return vs
}

// envOption is an [EnvVar] read as the program's option opt.
func envOption(name, opt string, effects []Class, why string, examples ...string) EnvVar {
	return EnvVar{Name: name, Role: EnvOption, Option: opt, Why: why, Effects: effects, Examples: examples}
}

var gitEnv = []EnvVar{
	{Name: "GIT_CONFIG_COUNT", Role: EnvConfig, Option: "-c", Effects: fx(OpaqueMedium),
		Why:         "GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n is configuration, like git -c, which may name programs",
		Examples:    ex("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=less git log", "GIT_CONFIG_COUNT=$N git status"),
		NotExamples: ex("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=color.ui GIT_CONFIG_VALUE_0=always git log")},
	{Name: "GIT_CONFIG_KEY_*", Role: EnvConfig, Option: "-c", Effects: fx(OpaqueMedium), Why: "GIT_CONFIG_KEY_n names configuration, like git -c, which may name programs",
		Examples: ex("GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=/tmp/x git status")},
	{Name: "GIT_CONFIG_VALUE_*", Role: EnvConfig, Option: "-c", Effects: fx(OpaqueMedium), Why: "GIT_CONFIG_VALUE_n is a configuration value, like git -c, which may name programs",
		Examples: ex("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.sshCommand GIT_CONFIG_VALUE_0=/tmp/x git fetch")},
	{Name: "GIT_CONFIG_PARAMETERS", Role: EnvConfig, Option: "-c", Effects: fx(OpaqueMedium),
		Why:         "GIT_CONFIG_PARAMETERS holds git -c configuration, which may name programs",
		Examples:    ex(`GIT_CONFIG_PARAMETERS="'core.pager'='less'" git log`, "GIT_CONFIG_PARAMETERS=\"$P\" git log"),
		NotExamples: ex(`GIT_CONFIG_PARAMETERS="'color.ui'='never'" git status`)},
	envVar("GIT_ASKPASS", EnvProgram, "runs a program for git's passwords", "GIT_ASKPASS=/tmp/x git fetch"),
	envVar("GIT_CONFIG", EnvProgram, "reads git's configuration, which may name programs, from another file", "GIT_CONFIG=/tmp/c git log"),
	envVar("GIT_CONFIG_GLOBAL", EnvProgram, "reads git's configuration, which may name programs, from another file", "GIT_CONFIG_GLOBAL=/tmp/c git status"),
	envVar("GIT_CONFIG_SYSTEM", EnvProgram, "reads git's configuration, which may name programs, from another file", "GIT_CONFIG_SYSTEM=/tmp/c git status"),
	{Name: "GIT_DIR", Role: EnvOption, Option: "--git-dir", Effects: fx(OpaqueMedium),
		Why:         "GIT_DIR is --git-dir: the repository, its configuration and hooks are there",
		Examples:    ex("GIT_DIR=/tmp/x/.git git status"),
		NotExamples: ex("GIT_DIR=.git git status")},
	envVar("GIT_EDITOR", EnvCode, "runs a program as git's editor", "GIT_EDITOR=/tmp/ed git commit"),
	envVar("GIT_EXEC_PATH", EnvProgram, "runs git's commands from another directory", "GIT_EXEC_PATH=/tmp/x git status"),
	envVar("GIT_EXTERNAL_DIFF", EnvCode, "runs a program for git diff", "GIT_EXTERNAL_DIFF=/tmp/d git diff"),
	envVar("GIT_PAGER", EnvCode, "runs a program as git's pager", "GIT_PAGER=cat git log", "GIT_PAGER='less -R' git diff"),
	envVar("GIT_PROXY_COMMAND", EnvProgram, "runs a program to connect to git:// remotes", "GIT_PROXY_COMMAND=/tmp/p git fetch"),
	envVar("GIT_SEQUENCE_EDITOR", EnvCode, "runs a program as git rebase's todo editor", "GIT_SEQUENCE_EDITOR=/tmp/ed git rebase -i HEAD~2"),
	envVar("GIT_SSH", EnvProgram, "runs a program for git's ssh", "GIT_SSH=/tmp/s git fetch"),
	envVar("GIT_SSH_COMMAND", EnvCode, "runs a program for git's ssh", "GIT_SSH_COMMAND='ssh -i deploy_key' git fetch"),
	envVar("GIT_TEMPLATE_DIR", EnvProgram, "makes git copy hooks from elsewhere", "GIT_TEMPLATE_DIR=/tmp/t git init"),
	envOption("GIT_WORK_TREE", "--work-tree", fx(WriteOutside), "GIT_WORK_TREE is --work-tree: git writes the work tree there",
		"GIT_WORK_TREE=/tmp/wt git checkout main"),
	envVar("MANPAGER", EnvCode, "runs a program as the pager of git help", "MANPAGER=/tmp/p git help log"),
	{Name: "GIT_TRACE", Role: EnvWrite, Effects: fx(WriteOutside), Why: "an absolute path makes git write its trace there",
		Examples: ex("GIT_TRACE=/tmp/t.log git status"), NotExamples: ex("GIT_TRACE=1 git status")},
	{Name: "GIT_TRACE*", Role: EnvWrite, Effects: fx(WriteOutside), Why: "an absolute path makes git write its trace there",
		Examples: ex("GIT_TRACE2_EVENT=/tmp/t.json git status", "GIT_TRACE_PACKET=/tmp/p git fetch"), NotExamples: ex("GIT_TRACE_PACKET=2 git status")},
}

var goEnv = []EnvVar{
	envVar("CGO_CFLAGS", EnvProgram, "passes flags such as -fplugin to the C compiler cgo runs", "CGO_CFLAGS=-fplugin=/tmp/x.so go build ./..."),
	envVar("CGO_CPPFLAGS", EnvProgram, "passes flags such as -fplugin to the C compiler cgo runs", "CGO_CPPFLAGS=-fplugin=/tmp/x.so go test ./..."),
	envVar("CGO_CXXFLAGS", EnvProgram, "passes flags such as -fplugin to the C++ compiler cgo runs", "CGO_CXXFLAGS=-fplugin=/tmp/x.so go test ./..."),
	envVar("CGO_LDFLAGS", EnvProgram, "passes flags such as -fuse-ld to the linker cgo runs", "CGO_LDFLAGS=-fuse-ld=/tmp/ld go test ./..."),
	envVar("GOROOT", EnvProgram, "runs the compiler and tools of another Go installation", "GOROOT=/tmp/g go vet ./..."),
	{Name: "GOTOOLCHAIN", Role: EnvProgram, Plain: []string{"local", "auto"}, Effects: fx(OpaqueMedium),
		Why:         "names a go toolchain to run instead, found in PATH or downloaded",
		Examples:    ex("GOTOOLCHAIN=go1.99.0 go test ./...", "GOTOOLCHAIN=path go build ./..."),
		NotExamples: ex("GOTOOLCHAIN=local go test ./...", "GOTOOLCHAIN=auto go vet ./...")},
	{Name: "GOWORK", Role: EnvProgram, Plain: []string{"off"}, Effects: fx(OpaqueMedium),
		Why:         "names a go.work file, whose use and replace directives build code from other directories",
		Examples:    ex("GOWORK=/tmp/go.work go test ./..."),
		NotExamples: ex("GOWORK=off go test ./...")},
	envVar("PKG_CONFIG", EnvProgram, "names the pkg-config program cgo runs", "PKG_CONFIG=/tmp/pc go build ./..."),
	envVar("GOENV", EnvProgram, "reads go's environment, which may set GOFLAGS=-toolexec, from another file", "GOENV=/tmp/goenv go test ./..."),
	{Name: "GOFLAGS", Role: EnvOptions, Effects: fx(OpaqueMedium),
		Why:         "GOFLAGS holds flags every go command takes as its own (-toolexec, -exec, -overlay)",
		Examples:    ex("GOFLAGS=-toolexec=/tmp/x go test ./...", "GOFLAGS='-count=1 -exec=/tmp/run' go test ./..."),
		NotExamples: ex("GOFLAGS=-mod=mod go test ./...", "GOFLAGS='-count=1 -race' go test ./...")},
}

var makeEnv = []EnvVar{
	envVar("MAKEFILES", EnvProgram, "names makefiles every make reads first", "MAKEFILES=/tmp/x.mk make test"),
	{Name: "MAKEFLAGS", Role: EnvOptions, Letters: true, Effects: fx(OpaqueMedium),
		Why:         "MAKEFLAGS holds options make takes as its own (-f FILE, --eval)",
		Examples:    ex("MAKEFLAGS='-f /tmp/x.mk' make test", "MAKEFLAGS=\"--eval='x: ; ls'\" make check"),
		NotExamples: ex("MAKEFLAGS=-j4 make test", "MAKEFLAGS=ks make test", "MAKEFLAGS=--no-print-directory make check")},
	{Name: "MFLAGS", Role: EnvOptions, Letters: true, Effects: fx(OpaqueMedium), Why: "MFLAGS holds options make takes as its own (-f FILE, -C DIR)",
		Examples: ex("MFLAGS='-C /tmp' make test"), NotExamples: ex("MFLAGS=-s make test")},
	// GNU make does not take SHELL from the environment, but does from its
	// command line (`make test SHELL=/tmp/x`, VarOperands); BSD make and the
	// programs a recipe runs may.
	envVar("SHELL", EnvProgram, "names the shell that may run the recipes", "SHELL=/tmp/x make test", "make test SHELL=/tmp/x"),
	// Only a command-line variable (no environment name has a dot): the
	// options the recipes' shell gets, which may be code (`-c 'cmd' x`).
	envVar(".SHELLFLAGS", EnvProgram, "holds the options, code among them, make gives the recipes' shell", "make test .SHELLFLAGS=-ec"),
}

// npmEnv: npm reads npm_config_KEY in any case, `_` for `-` (npm-config(7)).
var npmEnv = folded(
	envVar("NPM_CONFIG_BROWSER", EnvProgram, "names the browser npm runs", "npm_config_browser=/tmp/b npm test"),
	envVar("NPM_CONFIG_EDITOR", EnvCode, "runs a program as npm's editor", "npm_config_editor=/tmp/ed npm test"),
	envVar("NPM_CONFIG_GIT", EnvProgram, "names the git npm runs", "npm_config_git=/tmp/g npm test"),
	envVar("NPM_CONFIG_GLOBALCONFIG", EnvProgram, "reads npm's configuration, which may name programs, from another file", "npm_config_globalconfig=/tmp/rc npm test"),
	envVar("NPM_CONFIG_INIT_MODULE", EnvProgram, "names a script npm init runs", "npm_config_init_module=/tmp/x.js npm test"),
	envVar("NPM_CONFIG_NODE_GYP", EnvProgram, "names the node-gyp npm runs", "npm_config_node_gyp=/tmp/g npm test"),
	envVar("NPM_CONFIG_NODE_OPTIONS", EnvProgram, "passes options that may load code to node", "npm_config_node_options=--require=/tmp/x.js npm test"),
	envOption("NPM_CONFIG_PREFIX", "--prefix", fx(WriteOutside), "npm_config_prefix is --prefix: npm installs there",
		"npm_config_prefix=/tmp/p npm install --no-save x"),
	envVar("NPM_CONFIG_SCRIPT_SHELL", EnvProgram, "runs npm scripts with another program", "npm_config_script_shell=/tmp/x npm test", "NPM_CONFIG_SCRIPT_SHELL=/tmp/x npm run lint"),
	envVar("NPM_CONFIG_SHELL", EnvProgram, "names the shell npm exec runs", "npm_config_shell=/tmp/x npm test"),
	envVar("NPM_CONFIG_USERCONFIG", EnvProgram, "reads npm's configuration, which may name programs, from another file", "npm_config_userconfig=/tmp/rc npm test"),
	envVar("NPM_CONFIG_VIEWER", EnvProgram, "names the program npm help runs", "npm_config_viewer=/tmp/v npm test"),
	// After the keys above: every other key is the option of its name.
	EnvVar{Name: "NPM_CONFIG_*", Role: EnvOption, Option: "--*", Effects: fx(SystemChange), Why: "npm_config_KEY is --KEY",
		Examples: ex("npm_config_global=true npm install x"), NotExamples: ex("npm_config_loglevel=silent npm test", "npm_config_ignore_scripts=true npm test")},
)

var cargoEnv = []EnvVar{
	rustFlags("CARGO_BUILD_RUSTDOCFLAGS", "CARGO_BUILD_RUSTDOCFLAGS='-C linker=/tmp/ld' cargo test"),
	rustFlags("CARGO_BUILD_RUSTFLAGS", "CARGO_BUILD_RUSTFLAGS='-C linker=/tmp/ld' cargo test"),
	envVar("CARGO_BUILD_RUSTC", EnvProgram, "names the compiler cargo runs", "CARGO_BUILD_RUSTC=/tmp/r cargo check"),
	envVar("CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER", EnvProgram, "runs a program around every compiler call", "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER=/tmp/w cargo check"),
	envVar("CARGO_BUILD_RUSTC_WRAPPER", EnvProgram, "runs a program around every compiler call", "CARGO_BUILD_RUSTC_WRAPPER=/tmp/w cargo check"),
	envOption("CARGO_BUILD_TARGET_DIR", "--target-dir", fx(WriteOutside), "CARGO_BUILD_TARGET_DIR is --target-dir: cargo writes the build there",
		"CARGO_BUILD_TARGET_DIR=/tmp/t cargo build"),
	rustFlags("CARGO_ENCODED_RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS='-Clinker=/tmp/ld' cargo test"),
	envVar("CARGO_HOME", EnvProgram, "reads cargo's configuration, which may name programs, from another directory", "CARGO_HOME=/tmp/c cargo test"),
	envOption("CARGO_TARGET_DIR", "--target-dir", fx(WriteOutside), "CARGO_TARGET_DIR is --target-dir: cargo writes the build there",
		"CARGO_TARGET_DIR=/tmp/t cargo build"),
	// After CARGO_TARGET_DIR: CARGO_TARGET_<triple>_LINKER and _RUNNER.
	envVar("CARGO_TARGET_*", EnvProgram, "names a linker or a runner cargo runs", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=/tmp/r cargo test"),
	envVar("RUSTC", EnvProgram, "names the compiler cargo runs", "RUSTC=/tmp/r cargo check"),
	envVar("RUSTDOC", EnvProgram, "names the rustdoc cargo runs for documentation tests", "RUSTDOC=/tmp/rd cargo test"),
	envVar("CARGO_BUILD_RUSTDOC", EnvProgram, "names the rustdoc cargo runs for documentation tests", "CARGO_BUILD_RUSTDOC=/tmp/rd cargo test"),
	rustFlags("RUSTDOCFLAGS", "RUSTDOCFLAGS='-C linker=/tmp/ld' cargo test"),
	rustFlags("RUSTFLAGS", "RUSTFLAGS='-C linker=/tmp/ld' cargo test", "RUSTFLAGS='-Clink-arg=-fuse-ld=/tmp/ld' cargo build"),
	envVar("RUSTC_WORKSPACE_WRAPPER", EnvProgram, "runs a program around every compiler call", "RUSTC_WORKSPACE_WRAPPER=/tmp/w cargo test"),
	envVar("RUSTC_WRAPPER", EnvProgram, "runs a program around every compiler call", "RUSTC_WRAPPER=/tmp/w cargo test"),
}

// pipEnv: pip reads PIP_<LONG_OPTION> as the option.
var pipEnv = []EnvVar{
	envVar("PIP_CONFIG_FILE", EnvProgram, "reads pip's configuration from another file", "PIP_CONFIG_FILE=/tmp/pip.conf pip list"),
	envOption("PIP_PREFIX", "--prefix", fx(WriteOutside), "PIP_PREFIX is --prefix: pip installs there", "PIP_PREFIX=/tmp/p pip install x"),
	envOption("PIP_ROOT", "--root", fx(WriteOutside), "PIP_ROOT is --root: pip installs there", "PIP_ROOT=/tmp/p pip install x"),
	envOption("PIP_TARGET", "--target", fx(WriteOutside), "PIP_TARGET is --target: pip installs there", "PIP_TARGET=/tmp/t pip install x"),
	// After the names above: every other PIP_NAME is the option --name.
	{Name: "PIP_*", Role: EnvOption, Option: "--*", Effects: fx(WriteOutside), Why: "PIP_NAME is pip's --name option",
		Examples: ex("PIP_USER=1 pip install x"), NotExamples: ex("PIP_NO_INPUT=1 pip list", "PIP_DISABLE_PIP_VERSION_CHECK=1 pip list")},
}

var manEnv = []EnvVar{
	envVar("MANOPT", EnvProgram, "passes options such as -P PAGER to man", "MANOPT='-P /tmp/p' man ls"),
	envVar("MANPAGER", EnvCode, "runs a program as man's pager", "MANPAGER='less -R' man ls"),
}

var kubectlEnv = []EnvVar{
	envVar("KUBECONFIG", EnvProgram, "reads cluster configuration, whose credential plugins are programs, from another file", "KUBECONFIG=/tmp/k kubectl get pods"),
	envVar("KUBE_EDITOR", EnvCode, "runs a program as kubectl's editor", "KUBE_EDITOR=/tmp/ed kubectl get pods"),
}

var pytestEnv = []EnvVar{
	{Name: "PYTEST_ADDOPTS", Role: EnvOptions, Effects: fx(Deletion),
		Why:         "PYTEST_ADDOPTS holds options pytest takes as its own (--basetemp DIR empties DIR, -p loads a plugin)",
		Examples:    ex("PYTEST_ADDOPTS='--basetemp=/tmp/b' pytest", "PYTEST_ADDOPTS='-q --basetemp /tmp/b' python3 -m pytest"),
		NotExamples: ex("PYTEST_ADDOPTS='-q -x' pytest", "PYTEST_ADDOPTS=--color=yes pytest")},
	envVar("PYTEST_PLUGINS", EnvProgram, "names modules pytest loads as plugins", "PYTEST_PLUGINS=evil pytest"),
}

// systemdEnv: systemd's tools run a pager and systemctl edit an editor.
var systemdEnv = []EnvVar{
	envVar("SYSTEMD_EDITOR", EnvCode, "runs a program as systemctl edit's editor", "SYSTEMD_EDITOR=/tmp/ed systemctl status x"),
	envVar("SYSTEMD_PAGER", EnvCode, "runs a program as the pager of systemd's tools", "SYSTEMD_PAGER=/tmp/p journalctl -u x", "SYSTEMD_PAGER=cat systemctl status x"),
}

var mvnEnv = []EnvVar{
	{Name: "MAVEN_ARGS", Role: EnvOptions, Effects: fx(OpaqueMedium), Why: "MAVEN_ARGS holds options mvn takes as its own (-f POM)",
		Examples: ex("MAVEN_ARGS='-f /tmp/pom.xml' mvn test"), NotExamples: ex("MAVEN_ARGS=-q mvn test")},
	{Name: "MAVEN_OPTS", Role: EnvProgram, Plain: jvmPlain, Effects: fx(OpaqueMedium), Why: "passes options such as -javaagent, which loads code, to maven's JVM", Examples: ex("MAVEN_OPTS=-javaagent:/tmp/a.jar mvn test"), NotExamples: ex("MAVEN_OPTS=-Xmx2g mvn test")},
	envVar("JAVA_HOME", EnvProgram, "names the Java installation whose java maven runs", "JAVA_HOME=/tmp/j mvn test"),
}

var gradleEnv = []EnvVar{
	{Name: "GRADLE_OPTS", Role: EnvProgram, Plain: jvmPlain, Effects: fx(OpaqueMedium), Why: "passes options such as -javaagent, which loads code, to gradle's JVM", Examples: ex("GRADLE_OPTS=-javaagent:/tmp/a.jar gradle test"), NotExamples: ex("GRADLE_OPTS=-Xmx2g gradle test")},
	{Name: "JAVA_OPTS", Role: EnvProgram, Plain: jvmPlain, Effects: fx(OpaqueMedium), Why: "passes options such as -javaagent, which loads code, to gradle's JVM", Examples: ex("JAVA_OPTS=-javaagent:/tmp/a.jar gradle test"), NotExamples: ex("JAVA_OPTS=-Xmx2g gradle test")},
	envVar("GRADLE_USER_HOME", EnvProgram, "moves gradle's home, whose init.d scripts and gradle.properties (org.gradle.jvmargs) every build runs", "GRADLE_USER_HOME=/tmp/g gradle test"),
	envVar("JAVA_HOME", EnvProgram, "names the Java installation whose java gradle runs", "JAVA_HOME=/tmp/j gradle test"),
}

// yarnEnv: yarn reads npm's variables, and yarn 2+ every setting of its
// .yarnrc.yml as YARN_<SETTING> (yarnPath is the yarn it runs).
var yarnEnv = append(append([]EnvVar(nil), npmEnv...),
	envVar("YARN_RC_FILENAME", EnvProgram, "reads yarn's settings, whose yarnPath is a script yarn runs, from another file", "YARN_RC_FILENAME=/tmp/rc.yml yarn test"),
	envVar("YARN_YARN_PATH", EnvProgram, "names the script yarn runs as itself", "YARN_YARN_PATH=/tmp/x.js yarn test"),
)

// rspecEnv: RSpec takes SPEC_OPTS as options (--require FILE loads code).
var rspecEnv = []EnvVar{
	envVar("SPEC_OPTS", EnvProgram, "holds options rspec takes as its own (--require FILE loads code)", "SPEC_OPTS='--require /tmp/x.rb' rspec"),
}

// rgEnv: ripgrep reads options (--pre=COMMAND among them) from the file
// RIPGREP_CONFIG_PATH names.
var rgEnv = []EnvVar{
	envVar("RIPGREP_CONFIG_PATH", EnvProgram, "reads rg's options, which may be --pre=PROGRAM, from a file", "RIPGREP_CONFIG_PATH=/tmp/rc rg x"),
}

// tarEnv: GNU tar takes TAR_OPTIONS as options before its own, modes
// (-x) and programs (--use-compress-program, --to-command) among them.
var tarEnv = []EnvVar{
	envVar("TAR_OPTIONS", EnvProgram, "holds options tar takes as its own (-x, --to-command=PROGRAM, --use-compress-program=PROGRAM)",
		"TAR_OPTIONS=--use-compress-program=/tmp/x tar -tf a.tar", "TAR_OPTIONS=-x tar -f a.tar"),
}

// unzipEnv: Info-ZIP unzip takes UNZIP (or UNZIPOPT) as options before
// its own (-d DIR extracts there, -o overwrites).
var unzipEnv = []EnvVar{
	envVar("UNZIP", EnvProgram, "holds options unzip takes as its own (-d DIR extracts there)", "UNZIP='-d /tmp' unzip -l a.zip"),
	envVar("UNZIPOPT", EnvProgram, "holds options unzip takes as its own (-d DIR extracts there)", "UNZIPOPT='-d /tmp' unzip a.zip"),
}

// rsyncEnv: the remote shell rsync runs (its -e) and the program that
// connects it to a daemon.
var rsyncEnv = []EnvVar{
	envVar("RSYNC_CONNECT_PROG", EnvCode, "runs a command to connect to an rsync daemon", "RSYNC_CONNECT_PROG='/tmp/x %H' rsync rsync://h/m ."),
	envVar("RSYNC_RSH", EnvCode, "runs a program as rsync's remote shell (its -e)", "RSYNC_RSH=/tmp/x rsync -a a h:b"),
}

var uvEnv = []EnvVar{
	envVar("UV_PYTHON", EnvProgram, "names the interpreter uv runs", "UV_PYTHON=/tmp/py uv run pytest"),
}

// dockerEnv: the daemon the client talks to (docker -H, podman --url).
var dockerEnv = []EnvVar{
	envOption("CONTAINER_HOST", "--url", fx(Network), "CONTAINER_HOST is podman's --url: another daemon", "CONTAINER_HOST=ssh://h/run/podman.sock podman ps"),
	envVar("DOCKER_CONFIG", EnvProgram, "reads the client's configuration, whose credential helpers and plugins are programs and whose context names a daemon, from another directory", "DOCKER_CONFIG=/tmp/d docker ps"),
	envOption("DOCKER_CONTEXT", "--context", fx(Network), "DOCKER_CONTEXT is --context: a daemon the context names", "DOCKER_CONTEXT=prod docker ps"),
	envOption("DOCKER_HOST", "--host", fx(Network), "DOCKER_HOST is --host: another daemon", "DOCKER_HOST=ssh://host docker ps"),
}

var ghEnv = []EnvVar{
	envVar("GH_BROWSER", EnvCode, "runs a program as gh's browser", "GH_BROWSER=/tmp/b gh pr list"),
	envVar("GH_EDITOR", EnvCode, "runs a program as gh's editor", "GH_EDITOR=/tmp/ed gh pr list"),
	envVar("GH_PAGER", EnvCode, "runs a program as gh's pager", "GH_PAGER=/tmp/p gh pr list"),
}

// lessEnv: less(1) "ENVIRONMENT VARIABLES": LESS holds options, and a `+`
// word is a command less runs at start (`+!cmd` runs a shell command).
var lessEnv = []EnvVar{
	{Name: "LESS", Role: EnvOptions, Effects: fx(OpaqueMedium), Why: "LESS holds options less takes as its own (+CMD runs a less command, which may be a shell command)",
		Examples: ex("LESS='+!/tmp/x' less README.md"), NotExamples: ex("LESS=-R less README.md", "LESS='-R -S' less a.log")},
}

// rustPlain are the rustc options that only tune the compiler (lints,
// cfg, code generation levels): not -C linker, link-arg(s), -Z, -L.
var rustPlain = []string{"-D", "-W", "-A", "-F", "--deny=", "--warn=", "--allow=", "--forbid=", "--cap-lints=", "--cfg=",
	"-Copt-level=", "-Cdebuginfo=", "-Ctarget-cpu=", "-Ctarget-feature=", "-Ccodegen-units=", "-Clto", "-Cpanic=",
	"-Coverflow-checks", "-Cdebug-assertions", "-Cstrip=", "-Cforce-frame-pointers", "-Cinstrument-coverage",
	"-Crelocation-model=", "-Cembed-bitcode", "-Csymbol-mangling-version="}

// rustFlags is a variable of rustc options cargo passes on, which may name
// a linker to run (`-C linker=`).
func rustFlags(name string, examples ...string) EnvVar {
	v := envVar(name, EnvProgram, "passes options such as -C linker=PROGRAM to the compiler cargo runs", examples...)
	v.Plain = rustPlain
	v.NotExamples = ex(name+"=-Dwarnings cargo clippy", name+"='-D warnings -C opt-level=3' cargo test")
	return v
}
