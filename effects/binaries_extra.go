//go:build tablesrc

package effects

// interp is a language interpreter whose inline-code option the classifier
// knows (SpecialInterpreter): a script runs the project's code.
func interp(name, why string, example, inline string, aliases ...string) Program {
	return Program{Name: name, Aliases: aliases, Effects: fx(OpaqueLow), Operands: Script, Special: SpecialInterpreter,
		Why: why, Examples: ex(example), NotExamples: ex(inline)}
}

// versionManager is a language version manager (pyenv, nvm, mise ...):
// listing reads, installing downloads into the home directory, selecting a
// version for the project writes a file in the workspace.
func versionManager(name, home string, aliases ...string) Program {
	n := name
	return Program{Name: name, Aliases: aliases, Effects: fx(Read), Other: fx(Network, WriteOutside),
		Subcommands: []Program{
			{Name: "current", Aliases: names("list", "ls", "ls-remote", "version", "versions", "which"), Effects: fx(Read), Examples: ex(n + " ls")},
			{Name: "exec", Aliases: names("x"), Effects: fx(Read), Operands: Command, Examples: ex(n + " exec ls")},
			{Name: "global", Aliases: names("alias", "default"), Effects: fx(WriteOutside), HomeWrite: home, Why: n + " global changes the user's default version",
				Examples: ex(n + " global 3.12")},
			{Name: "install", Aliases: names("uninstall", "update", "upgrade"), Effects: fx(Network, WriteOutside), HomeWrite: home, Why: n + " install downloads a toolchain into the home directory",
				Examples: ex(n + " install 20")},
			{Name: "local", Aliases: names("pin", "use"), Effects: fx(WriteInside), Why: n + " local records the project's version in a file of the workspace",
				Examples: ex(n + " local 3.12")},
		},
		Examples: ex(n + " --version")}
}

// extraPrograms are more of the programs agents run: read-only viewers and
// counters, language version managers, documentation builders, interpreters
// the classifier knows, and a few dangerous tools named so that their reason
// is precise.
var extraPrograms = []Program{
	{Name: "adb", Effects: fx(Read), Other: fx(SystemChange),
		Flags: fl(arg("-s", "-t", "-H", "-P")),
		Subcommands: []Program{
			{Name: "devices", Aliases: names("get-serialno", "get-state", "logcat", "version"), Effects: fx(Read), Examples: ex("adb devices", "adb logcat -d")},
			{Name: "pull", Effects: fx(WriteInside), Operands: CopyPaths, Why: "adb pull copies files from the device", Examples: ex("adb pull /sdcard/a.txt a.txt")},
			{Name: "shell", Effects: fx(SystemChange), Why: "adb shell runs commands on the device", Examples: ex("adb shell ls /sdcard")},
		},
		Examples: ex("adb")},
	{Name: "age", Aliases: names("rage"), Effects: fx(Read), Operands: ReadPaths, Flags: fl(wpath("-o", "--output"), arg("-r", "--recipient"), rpath("-i", "--identity", "-R", "--recipients-file")),
		Examples: ex("age -r age1xyz a.txt"), NotExamples: ex("age -r age1xyz -o /tmp/a.age a.txt")},
	{Name: "ast-grep", Effects: fx(Read), Other: fx(Read),
		Flags: fl(arg("-p", "--pattern", "-l", "--lang", "-r", "--rewrite", "--selector", "--globs", "-j", "--threads"), rpath("-c", "--config", "--rule"),
			Flag{Names: names("-U", "--update-all", "-i", "--interactive"), Effects: fx(WriteInside), Why: "ast-grep -U rewrites the files", Examples: ex("ast-grep run -p 'a' -r 'b' -U src")}),
		Subcommands: []Program{
			{Name: "run", Effects: fx(Read), Flags: fl(arg("-p", "--pattern", "-l", "--lang", "-r", "--rewrite"),
				Flag{Names: names("-U", "--update-all"), Effects: fx(WriteInside), Why: "ast-grep run -U rewrites the files", Examples: ex("ast-grep run -p 'x' -r 'y' -U .")}),
				Examples: ex("ast-grep run -p 'console.log($A)' src")},
			{Name: "scan", Effects: fx(Verify), Examples: ex("ast-grep scan")},
			{Name: "test", Effects: fx(Verify), Examples: ex("ast-grep test")},
		},
		Examples: ex("ast-grep -p 'foo($A)' -l ts")},
	{Name: "bear", Effects: fx(WriteInside), Operands: Command, Why: "bear records the build into compile_commands.json", Flags: fl(wpath("--output")),
		Examples: ex("bear -- ls")},
	{Name: "bfg", Effects: fx(HistoryRewrite), Why: "bfg rewrites the repository's history", Flags: fl(arg("-D", "--delete-files", "--delete-folders", "-b", "--strip-blobs-bigger-than"), rpath("--replace-text")),
		Examples: ex("bfg --delete-files id_rsa")},
	{Name: "busybox", Aliases: names("toybox"), Effects: fx(Read), Operands: Command, Examples: ex("busybox ls -la")},
	{Name: "cdk", Effects: fx(Read), Other: fx(SystemChange, Network, OpaqueLow),
		Subcommands: []Program{
			{Name: "bootstrap", Aliases: names("deploy"), Effects: fx(SystemChange, Network, OpaqueLow), Why: "cdk deploy runs the app and changes cloud resources", Examples: ex("cdk deploy --all")},
			{Name: "destroy", Effects: fx(Deletion, Network), Outside: true, Why: "cdk destroy deletes the stack's cloud resources", Examples: ex("cdk destroy -f")},
			{Name: "diff", Effects: fx(Network, OpaqueLow), Why: "cdk diff runs the app and compares with the deployed stacks", Examples: ex("cdk diff")},
			{Name: "list", Aliases: names("ls", "synth", "synthesize"), Effects: fx(OpaqueLow, WriteInside), Why: "cdk synth runs the app and writes cdk.out", Examples: ex("cdk synth")},
		},
		Examples: ex("cdk --version")},
	{Name: "cloc", Aliases: names("scc", "tokei"), Effects: fx(Read), Operands: ReadPaths, Flags: fl(arg("--exclude-dir", "--include-lang", "--exclude-lang", "-e", "--exclude", "-t", "--type")),
		Examples: ex("cloc src", "tokei .")},
	{Name: "codesign", Effects: fx(WriteInside), Operands: WritePaths, Why: "codesign signs the files in place",
		Flags: fl(arg("-s", "--sign", "--entitlements", "--options", "-i", "--identifier", "--keychain"), optArg("--timestamp"),
			Flag{Names: names("-v", "--verify", "-d", "--display", "--validate-constraint"), Replace: true, ReadOnly: true, Effects: fx(Read), Examples: ex("codesign -v App.app")}),
		Examples: ex("codesign -s - bin/app")},
	{Name: "conan", Aliases: names("vcpkg"), Effects: fx(Read), Other: fx(Network, WriteOutside, OpaqueLow),
		Subcommands: []Program{
			{Name: "install", Effects: fx(Network, WriteOutside), Why: "conan install downloads packages into the shared cache", Examples: ex("conan install . --build=missing")},
			{Name: "list", Aliases: names("search", "version"), Effects: fx(Read), Examples: ex("conan list '*'")},
		},
		Examples: ex("conan --version")},
	// cygpath (Git Bash, MSYS2, Cygwin) and wslpath print a path converted
	// between Windows' and the POSIX spelling; -f reads the paths from a file.
	{Name: "cygpath", Effects: fx(Read), Flags: fl(rpath("-f", "--file"), arg("-F", "--folder", "-t", "--type", "-C", "--codepage"),
		Flag{Names: names("-u", "--unix", "-w", "--windows", "-m", "--mixed", "-a", "--absolute", "-l", "--long-name", "-s", "--short-name",
			"-p", "--path", "-d", "--dos", "-D", "--desktop", "-A", "--allusers", "-H", "--homeroot", "-O", "--mydocs", "-P", "--smprograms",
			"-S", "--sysdir", "-W", "--windir", "-U", "--proc-cygdrive", "-o", "--option", "-i", "--ignore", "-c", "--close", "-h", "--help", "-V", "--version")}),
		Examples: ex(`cygpath -u 'C:\Users\u\ws'`, "cygpath -w /c/Users/u", "cygpath -m -a .")},
	{Name: "wslpath", Effects: fx(Read), Flags: fl(Flag{Names: names("-a", "-u", "-w", "-m")}), Examples: ex(`wslpath -u 'C:\Users'`, "wslpath -w /home/u")},
	{Name: "ctags", Aliases: names("etags", "uctags"), Effects: fx(WriteInside), Why: "ctags writes a tags file", Flags: fl(wpath("-f", "-o"), arg("--languages", "--exclude", "--kinds-all", "--fields", "--extras")),
		Examples: ex("ctags -R src")},
	{Name: "dmidecode", Aliases: names("iotop", "sensors", "system_profiler", "systemd-analyze", "vm_stat"), Effects: fx(Read), Flags: fl(arg("-t", "--type", "-s", "--string")),
		Examples: ex("dmidecode -t memory", "system_profiler SPHardwareDataType")},
	{Name: "doxygen", Effects: fx(WriteInside), Why: "doxygen writes the documentation", Examples: ex("doxygen Doxyfile")},
	{Name: "dune", Effects: fx(Read), Other: fx(OpaqueLow, WriteInside),
		Subcommands: []Program{
			{Name: "build", Effects: fx(OpaqueLow, WriteInside), Why: "dune build runs the build rules and writes _build", Examples: ex("dune build")},
			{Name: "clean", Effects: fx(Deletion), Why: "dune clean deletes _build", Examples: ex("dune clean")},
			{Name: "exec", Effects: fx(OpaqueLow), Why: "dune exec builds and runs a program", Examples: ex("dune exec bin/main.exe")},
			{Name: "fmt", Effects: fx(WriteInside), Why: "dune fmt rewrites the files", Examples: ex("dune fmt")},
			{Name: "test", Aliases: names("runtest"), Effects: fx(Verify), Examples: ex("dune test")},
		},
		Examples: ex("dune --version")},
	{Name: "duf", Aliases: names("dust", "ncdu"), Effects: fx(Read), Operands: ReadPaths, Examples: ex("duf", "dust -d 2")},
	{Name: "eza", Aliases: names("exa", "lsd"), Effects: fx(Read), Operands: ReadPaths, Flags: fl(arg("-L", "--level", "-I", "--ignore-glob", "--sort", "--time-style", "--color")),
		Examples: ex("eza -la", "eza --tree -L 2 src")},
	{Name: "fallocate", Effects: fx(WriteInside), Operands: WritePaths, Why: "fallocate creates or changes the space of files", Flags: fl(arg("-l", "--length", "-o", "--offset"),
		Flag{Names: names("-p", "--punch-hole", "-c", "--collapse-range", "-z", "--zero-range"), Effects: fx(Deletion), Why: "fallocate -p erases part of the file", Examples: ex("fallocate -p -o 0 -l 4096 a.img")}),
		Examples: ex("fallocate -l 1G a.img")},
	{Name: "fsck", Aliases: names("e2fsck"), Effects: fx(SystemChange), Why: "fsck repairs file systems", Flags: fl(arg("-t"),
		Flag{Names: names("-n"), Replace: true, Effects: fx(Read), Examples: ex("fsck -n disk.img")}), Examples: ex("fsck -y /dev/sdb1")},
	{Name: "grpcurl", Aliases: names("ab", "hey", "iperf3", "websocat", "wrk"), Effects: fx(Network), Why: "grpcurl sends requests over the network",
		Flags:          fl(arg("-d", "-H", "-rpc-header", "-authority", "-max-time", "-n", "-c", "-t", "-z", "-p", "-u"), rpath("-import-path", "-proto", "-cert", "-key", "-cacert")),
		SingleDashLong: true,
		Examples:       ex("grpcurl -plaintext localhost:50051 list", "ab -n 100 http://localhost:8080/")},
	{Name: "hugo", Effects: fx(WriteInside), Why: "hugo builds the site into public/", Other: fx(OpaqueLow),
		Flags: fl(wpath("-d", "--destination"), dir("-s", "--source"), arg("-e", "--environment", "-b", "--baseURL", "--config")),
		Subcommands: []Program{
			{Name: "new", Effects: fx(WriteInside), Why: "hugo new writes content files", Examples: ex("hugo new posts/a.md")},
			{Name: "server", Aliases: names("serve"), Effects: fx(OpaqueLow), Why: "hugo server runs a development server", Examples: ex("hugo server -D")},
			rsub("version", "hugo version"),
		},
		Examples: ex("hugo", "hugo --minify")},
	{Name: "husky", Aliases: names("lefthook"), Effects: fx(WriteInside, OpaqueLow), Why: "husky installs git hooks that run the project's commands",
		Examples: ex("husky install", "lefthook install")},
	{Name: "jekyll", Effects: fx(Read), Other: fx(OpaqueLow),
		Subcommands: []Program{
			{Name: "b", Aliases: names("build"), Effects: fx(WriteInside, OpaqueLow), Why: "jekyll build runs the site's plugins and writes _site", Examples: ex("jekyll build")},
			{Name: "s", Aliases: names("serve", "server"), Effects: fx(OpaqueLow), Why: "jekyll serve runs a development server", Examples: ex("jekyll serve")},
		},
		Examples: ex("jekyll --version")},
	{Name: "k6", Effects: fx(Network, OpaqueLow), Why: "k6 runs a load-test script against servers", Examples: ex("k6 run load.js")},
	{Name: "luarocks", Aliases: names("cpan", "cpanm"), Effects: fx(Read), Other: fx(Network, WriteOutside),
		Subcommands: []Program{
			{Name: "install", Effects: fx(Network, WriteOutside), Why: "luarocks install downloads packages outside the project", Examples: ex("luarocks install busted")},
			{Name: "list", Aliases: names("search", "show"), Effects: fx(Read), Examples: ex("luarocks list")},
		},
		Examples: ex("luarocks --version")},
	inherit(Program{Name: "mise", Aliases: names("asdf", "rtx"), Effects: fx(Read), Other: fx(OpaqueLow),
		Flags: fl(dir("-C", "--cd")), // mise's global `-C, --cd <DIR>`: change directory before running
		Subcommands: []Program{
			{Name: "current", Aliases: names("list", "ls", "ls-remote", "version", "where", "which"), Effects: fx(Read), Examples: ex("mise ls", "asdf current")},
			{Name: "exec", Aliases: names("x"), Effects: fx(Read), Operands: Command, Examples: ex("mise exec -- ls")},
			// asdf global writes ~/.tool-versions.
			{Name: "global", Effects: fx(WriteOutside), HomeWrite: "~/.tool-versions", Why: "asdf global changes the user's ~/.tool-versions", Examples: ex("asdf global node 20")},
			{Name: "install", Aliases: names("plugin", "uninstall", "upgrade"), Effects: fx(Network, WriteOutside), HomeWrite: "~/.local/share/mise", Why: "mise install downloads tools into the home directory",
				Examples: ex("mise install node@20")},
			{Name: "run", Aliases: names("r", "tasks"), Effects: fx(OpaqueLow), Why: "mise run runs the project's tasks", Examples: ex("mise run build")},
			{Name: "use", Aliases: names("local", "set"), Effects: fx(Network, WriteInside), Why: "mise use installs a tool and records it in the project's configuration",
				Flags:    fl(Flag{Names: names("-g", "--global"), Effects: fx(WriteOutside), HomeWrite: "~/.config/mise/config.toml", Why: "mise use -g changes the user's configuration", Examples: ex("mise use -g node@20")}),
				Examples: ex("mise use node@20")},
		},
		Examples: ex("mise --version")}),
	// machinectl shell/login open a shell as a user of a machine, root of
	// the host by default (`machinectl shell root@.host`): su in another
	// spelling.
	{Name: "machinectl", Effects: fx(Read), Other: fx(SystemChange),
		Subcommands: []Program{
			rsub("list", "machinectl list"),
			{Name: "login", Aliases: names("shell"), Effects: fx(Privilege), Why: "machinectl shell runs a shell as a user of the machine, root by default",
				Examples: ex("machinectl shell root@.host /bin/sh", "machinectl login")},
			rsub("show", "machinectl show"),
			rsub("status", "machinectl status web"),
		},
		Examples: ex("machinectl")},
	{Name: "mkcert", Effects: fx(WriteInside), Why: "mkcert writes certificates and keys",
		Flags: fl(wpath("-cert-file", "-key-file", "-p12-file"), Flag{Names: names("-install", "-uninstall"), Effects: fx(SystemChange), Why: "mkcert -install adds a certificate authority to the system's trust stores",
			Examples: ex("mkcert -install")}),
		SingleDashLong: true,
		Examples:       ex("mkcert localhost")},
	{Name: "mkdocs", Effects: fx(Read), Other: fx(OpaqueLow),
		Subcommands: []Program{
			{Name: "build", Effects: fx(WriteInside, OpaqueLow), Why: "mkdocs build runs the site's plugins and writes site/", Flags: fl(wpath("-d", "--site-dir"), rpath("-f", "--config-file")), Examples: ex("mkdocs build --strict")},
			{Name: "gh-deploy", Effects: fx(Network, WriteInside, OpaqueLow), Why: "mkdocs gh-deploy builds the site and pushes it to GitHub", Examples: ex("mkdocs gh-deploy")},
			{Name: "new", Effects: fx(WriteInside), Why: "mkdocs new writes a new project", Examples: ex("mkdocs new docs-site")},
			{Name: "serve", Effects: fx(OpaqueLow), Why: "mkdocs serve runs a development server", Examples: ex("mkdocs serve")},
		},
		Examples: ex("mkdocs --version")},
	{Name: "mosh", Effects: fx(Network, OpaqueMedium), Why: "mosh opens a shell on another host", Examples: ex("mosh user@host")},
	{Name: "msbuild", Aliases: names("xbuild"), Effects: fx(OpaqueLow, WriteInside), Why: "msbuild runs the project's build targets", Examples: ex("msbuild App.sln /p:Configuration=Release")},
	{Name: "ngrok", Aliases: names("cloudflared"), Effects: fx(Network, SystemChange), Why: "ngrok exposes a local port to the internet", Examples: ex("ngrok http 8080")},
	{Name: "nix", Effects: fx(Read), Other: fx(Network, WriteOutside, OpaqueMedium),
		Subcommands: []Program{
			{Name: "build", Effects: fx(Network, WriteInside, OpaqueLow), Why: "nix build fetches and builds the project's derivations", Examples: ex("nix build .#app")},
			// nix develop and nix shell start an interactive shell, or with
			// -c the command after it (the rest of the line), in an
			// environment whose packages they fetch: the flake's shellHook
			// is the project's code.
			{Name: "develop", Aliases: names("shell"), Effects: fx(Network, OpaqueMedium), Operands: CodePaths, Why: "nix develop fetches packages and starts an interactive shell from them",
				Flags: fl(Flag{Names: names("-c", "--command"), Carries: true, Replace: true, Effects: fx(Network, OpaqueLow), Why: "nix develop -c fetches the environment's packages and runs the command in it",
					Examples: ex("nix develop -c ls")}, arg("-k", "--keep", "--keep-env-var", "-u", "--unset", "--unset-env-var", "--profile", "--override-input", "--system", "--option"),
					Flag{Names: names("-i", "--ignore-environment", "--impure", "--offline", "--refresh", "--no-write-lock-file", "-L", "--print-build-logs", "-v", "--verbose", "--quiet")}),
				Examples: ex("nix develop"), NotExamples: ex("nix develop -c rm -rf ~", "nix shell nixpkgs#hello -c rm -rf ~", "nix develop /tmp/flake -c ls", "nix develop github:o/r -c ls")},
			{Name: "eval", Aliases: names("log", "path-info", "search", "show-config", "why-depends"), Effects: fx(Read), Examples: ex("nix eval .#x")},
			{Name: "flake", Effects: fx(Network), Why: "nix flake fetches inputs", Other: fx(Network, WriteInside),
				Subcommands: []Program{
					{Name: "check", Effects: fx(Verify, Network), Why: "nix flake check fetches inputs and runs the checks", Examples: ex("nix flake check")},
					{Name: "metadata", Aliases: names("show"), Effects: fx(Network), Why: "nix flake show fetches inputs", Examples: ex("nix flake show")},
				},
				Examples: ex("nix flake")},
			{Name: "fmt", Effects: fx(WriteInside), Why: "nix fmt rewrites the files", Examples: ex("nix fmt")},
			{Name: "run", Effects: fx(Network, OpaqueMedium), Why: "nix run fetches a package and runs its program, which is not inspected", Examples: ex("nix run nixpkgs#hello")},
		},
		Examples: ex("nix --version")},
	{Name: "notify-send", Aliases: names("say"), Effects: fx(Read), Examples: ex("notify-send done")},
	{Name: "nvm", Aliases: names("fnm", "nodenv", "volta"), Effects: fx(Read), Other: fx(Network, WriteOutside),
		Subcommands: []Program{
			{Name: "alias", Aliases: names("default"), Effects: fx(WriteOutside), HomeWrite: "~/.nvm/alias", Why: "nvm alias changes the user's default version", Examples: ex("nvm alias default 20")},
			{Name: "current", Aliases: names("list", "ls", "ls-remote", "version", "which"), Effects: fx(Read), Examples: ex("nvm ls", "fnm list")},
			{Name: "exec", Aliases: names("run"), Effects: fx(Read), Operands: Command, Skip: 1, Examples: ex("nvm exec 20 ls")},
			{Name: "install", Aliases: names("uninstall"), Effects: fx(Network, WriteOutside), HomeWrite: "~/.nvm/versions", Why: "nvm install downloads Node.js into the home directory",
				Examples: ex("nvm install 20")},
			{Name: "pin", Aliases: names("use"), Effects: fx(Read), Examples: ex("nvm use 20")},
		},
		Examples: ex("nvm --version")},
	{Name: "pdflatex", Aliases: names("latexmk", "lualatex", "tectonic", "xelatex"), Effects: fx(WriteInside), Operands: ReadPaths, Why: "pdflatex writes the PDF and auxiliary files",
		Flags: fl(wpath("-output-directory", "-outdir", "-aux-directory", "-auxdir"), arg("-jobname", "-interaction", "-pdflatex"),
			Flag{Names: names("-shell-escape", "--shell-escape", "-enable-write18"), Effects: fx(OpaqueMedium), Why: "-shell-escape lets the document run shell commands", Examples: ex("pdflatex -shell-escape a.tex")}),
		SingleDashLong: true,
		Examples:       ex("pdflatex paper.tex", "latexmk -pdf paper.tex")},
	{Name: "pdftotext", Aliases: names("pdftohtml", "pdftoppm"), Effects: fx(WriteInside), Operands: CopyPaths, Why: "pdftotext writes the converted file",
		Flags: fl(arg("-f", "-l", "-r", "-enc")), SingleDashLong: true, Examples: ex("pdftotext a.pdf a.txt")},
	{Name: "pg_dump", Aliases: names("mongodump", "mysqldump", "pg_dumpall"), Effects: fx(Network), Why: "pg_dump reads a database over the network",
		Flags:    fl(arg("-h", "--host", "-p", "--port", "-U", "--username", "-d", "--dbname", "-n", "--schema", "-t", "--table", "-F", "--format", "-u", "--user", "--uri"), wpath("-f", "--file", "-o", "--out", "--result-file")),
		Examples: ex("pg_dump -h db -U app app"), NotExamples: ex("pg_dump -h db -f /tmp/dump.sql app")},
	{Name: "pg_restore", Aliases: names("mongorestore"), Effects: fx(Network, SystemChange), Why: "pg_restore loads data into a database server",
		Flags: fl(arg("-h", "--host", "-p", "--port", "-U", "--username", "-d", "--dbname", "--uri")), Examples: ex("pg_restore -d app dump.tar")},
	{Name: "pod", Effects: fx(Read), Other: fx(Network, WriteInside, OpaqueMedium),
		Subcommands: []Program{
			{Name: "install", Aliases: names("update"), Effects: fx(Network, WriteInside), Why: "pod install downloads dependencies into Pods/", Examples: ex("pod install")},
			{Name: "lib", Aliases: names("spec"), Effects: fx(Verify), Examples: ex("pod lib lint")},
		},
		Examples: ex("pod --version")},
	{Name: "pwsh", Aliases: names("powershell"), Effects: fx(OpaqueLow), Operands: Script, Special: SpecialInterpreter, Why: "pwsh runs the script it is given",
		Flags: fl(inline("-Command", "-c", "-EncodedCommand", "-e", "-ec", "-CommandWithArgs", "-cwa"), rpath("-File", "-f"), arg("-ExecutionPolicy", "-ep")), SingleDashLong: true,
		Examples: ex("pwsh scripts/build.ps1"), NotExamples: ex("pwsh -Command 'Get-ChildItem'", "pwsh -EncodedCommand ZQBjAGgAbwA=")},
	// Shells whose language the classifier does not read: their code is
	// inline code, and what a pipe or an outside file feeds them cannot be
	// identified (`curl .. | fish`), as for any interpreter.
	withFlags(interp("csh", "csh runs the script it is given", "csh tools/x.csh", "tcsh -c 'ls'", "tcsh"), fl(inline("-c"), Flag{Names: names("-e", "-f", "-i", "-l", "-n", "-s", "-v", "-V", "-x", "-X", "-b", "-m", "-q", "-d")})),
	withFlags(interp("fish", "fish runs the script it is given", "fish tools/x.fish", "fish -c 'ls'"), fl(inline("-c", "--command", "-C", "--init-command"),
		Flag{Names: names("-i", "--interactive", "-l", "--login", "-n", "--no-execute", "-N", "--no-config", "-P", "--private", "-p", "--profile")})),
	withFlags(interp("racket", "racket runs the program it is given", "racket src/main.rkt", "racket -e '(display 1)'"), fl(inline("-e", "--eval"))),
	{Name: "rclone", Effects: fx(Read), Other: fx(Network, SystemChange),
		Subcommands: []Program{
			{Name: "cat", Aliases: names("ls", "lsd", "lsf", "lsl", "size", "tree"), Effects: fx(Network), Why: "rclone ls asks the remote", Examples: ex("rclone ls remote:bucket")},
			{Name: "copy", Aliases: names("copyto", "sync"), Effects: fx(Network, SystemChange, WriteInside), Operands: CopyPaths, Why: "rclone copy copies between remotes and the machine",
				Examples: ex("rclone copy remote:bucket/a a")},
			{Name: "delete", Aliases: names("deletefile", "move", "moveto", "purge", "rmdir", "rmdirs"), Effects: fx(Deletion, Network), Outside: true, Why: "rclone delete deletes files on the remote",
				Examples: ex("rclone purge remote:bucket/old")},
		},
		Examples: ex("rclone")},
	withFlags(interp("scala", "scala runs the program it is given", "scala run Main.scala", "scala -e 'println(1)'", "groovy"), fl(inline("-e"))),
	{Name: "sd", Effects: fx(WriteInside), Operands: WritePaths, Skip: 2, Why: "sd replaces text in the files in place",
		Flags:    fl(arg("-f", "--flags", "-n", "--max-replacements"), Flag{Names: names("-p", "--preview"), Replace: true, ReadOnly: true, Effects: fx(Read), Examples: ex("sd -p foo bar a.txt")}),
		Examples: ex("sd foo bar a.txt"), NotExamples: ex("sd foo bar ~/.bashrc")},
	{Name: "sops", Effects: fx(Read), Operands: ReadPaths, Flags: fl(wpath("--output"), arg("--input-type", "--output-type", "--age", "--pgp", "--kms", "--extract"),
		Flag{Names: names("-i", "--in-place"), Effects: fx(WriteInside), InPlace: true, Why: "sops -i rewrites the file in place", Examples: ex("sops -e -i secrets.yaml")}),
		Examples: ex("sops -d secrets.yaml")},
	{Name: "sphinx-build", Effects: fx(WriteInside, OpaqueLow), Why: "sphinx-build runs conf.py and writes the documentation", Flags: fl(arg("-b", "-D", "-j", "-t"), rpath("-c"), wpath("-d", "-w")),
		Examples: ex("sphinx-build -b html docs docs/_build")},
	{Name: "sshpass", Effects: fx(Read), Operands: Command, Flags: fl(arg("-p", "-d", "-P"), optArg("-e"), rpath("-f")), Examples: ex("sshpass -e ls"), NotExamples: ex("sshpass -f pw.txt ssh host uptime")},
	// systemd-run: a service starts in / (or the user's home with --user),
	// with the unit's environment, on this machine or another (-H, -M).
	{Name: "systemd-run", Effects: fx(SystemChange), Operands: Command, Elsewhere: true, Why: "systemd-run starts the command as a service unit",
		Flags: fl(arg("-u", "--unit", "--on-active", "--on-calendar", "-E", "--setenv", "--slice", "-M", "--machine", "--nice"), dir("--working-directory"),
			Flag{Names: names("--uid", "--gid"), Value: Arg, Effects: fx(Privilege), Why: "systemd-run --uid runs the command as another user, as run0 does",
				Examples: ex("systemd-run --uid=0 --pty bash")},
			// systemd.exec(5): User= and Group= (SupplementaryGroups=) run
			// the unit as that user, as --uid does; other properties do not.
			Flag{Names: names("-p", "--property"), Value: Arg, Effects: fx(Privilege), EffectValues: names("User=*", "Group=*", "SupplementaryGroups=*"),
				Why: "systemd-run -p User= runs the command as another user, as run0 does", Examples: ex("systemd-run -p User=root ls")}),
		Examples: ex("systemd-run --user ls")},
	{Name: "tcpdump", Aliases: names("tshark"), Effects: fx(Read), Flags: fl(arg("-i", "--interface", "-c", "-s", "--snapshot-length", "-y", "-E", "-Y", "-f"), wpath("-w"), rpath("-r", "-F"), prog("-z")),
		Examples: ex("tcpdump -i any -c 10 port 443"), NotExamples: ex("tcpdump -w /tmp/cap.pcap")},
	versioned(interp("tclsh", "tclsh runs the script it is given", "tclsh tools/gen.tcl", "tclsh /tmp/x.tcl", "wish")),
	{Name: "tldr", Aliases: names("cheat", "tealdeer"), Effects: fx(Network), Why: "tldr downloads its pages", Examples: ex("tldr tar")},
	versionManager("pyenv", "~/.pyenv", "goenv", "jenv", "rbenv"),
	{Name: "winget", Aliases: names("choco", "scoop"), Effects: fx(Read), Other: fx(SystemChange, Network),
		Subcommands: []Program{
			{Name: "export", Aliases: names("info", "list", "show"), Effects: fx(Read), Examples: ex("winget list")},
			{Name: "search", Effects: fx(Network), Why: "winget search asks the package source", Examples: ex("winget search git")},
		},
		Examples: ex("winget --version")},
	// wsl runs a command in a Linux distribution of the Windows Subsystem
	// for Linux: by the distribution's shell, the words joined as ssh joins
	// a remote command, or as they are after -e. Its paths are the
	// distribution's (`/mnt/c` is drive C:, `~` another home), so they are
	// unknown here: a deletion or write there cannot be placed. With no
	// command it starts that shell.
	{Name: "wsl", Aliases: names("wsl.exe"), Effects: fx(OpaqueMedium), Why: "wsl runs a shell in a Linux distribution", Operands: Command, Joined: true, Elsewhere: true,
		Flags: fl(arg("-d", "--distribution", "-u", "--user", "--shell-type", "--distribution-id"), Flag{Names: names("--cd"), Value: Arg},
			Flag{Names: names("-e", "--exec"), Exec: true},
			Flag{Names: names("-l", "--list", "--status", "-v", "--version", "--help"), Replace: true, Effects: fx(Read), Examples: ex("wsl -l -v", "wsl --status")},
			Flag{Names: names("--shutdown", "--unmount", "--set-default-version"), Replace: true, Effects: fx(SystemChange), Why: "wsl changes a distribution or the subsystem", Examples: ex("wsl --shutdown")},
			// The distribution's name; what follows it (a version, a file)
			// is classified as a command, which only adds to the effects.
			Flag{Names: names("-t", "--terminate", "-s", "--set-default", "--set-version", "--import", "--import-in-place", "--mount", "--manage", "--export"), Value: Arg,
				Replace: true, Effects: fx(SystemChange), Why: "wsl changes a distribution or the subsystem", Examples: ex("wsl -t Ubuntu", "wsl --set-default Debian")},
			Flag{Names: names("--install", "--update"), Replace: true, Effects: fx(SystemChange, Network), Why: "wsl downloads and installs a distribution or the subsystem", Examples: ex("wsl --install -d Ubuntu")},
			Flag{Names: names("--unregister"), Value: Arg, Replace: true, Effects: fx(Deletion), Outside: true, Why: "wsl --unregister deletes a distribution and every file in it", Examples: ex("wsl --unregister Ubuntu")}),
		Examples: ex("wsl", "wsl ls -la", "wsl -d Ubuntu -e uname -a"), NotExamples: ex("wsl rm -rf /", "wsl 'rm -rf ~'", "wsl -e sh -c 'rm -rf /'")},
	{Name: "xcode-select", Effects: fx(Read), Flags: fl(Flag{Names: names("--install", "-s", "--switch", "-r", "--reset"), Effects: fx(SystemChange), Why: "xcode-select --install installs the command line tools",
		Examples: ex("xcode-select --install")}), Examples: ex("xcode-select -p")},
	{Name: "zfs", Aliases: names("zpool"), Effects: fx(Read), Other: fx(SystemChange),
		Subcommands: []Program{
			{Name: "destroy", Effects: fx(Deletion), Outside: true, Why: "zfs destroy deletes a dataset and its data", Examples: ex("zfs destroy tank/old")},
			{Name: "get", Aliases: names("iostat", "list", "status"), Effects: fx(Read), Examples: ex("zfs list", "zpool status")},
		},
		Examples: ex("zfs")},
}
