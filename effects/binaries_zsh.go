//go:build tablesrc

package effects

// zshPrograms are zsh's own builtins, reserved words that mvdan.cc/sh parses
// as commands, and precommand modifiers (zsh 5.9 manual, "Shell Builtin
// Commands" and "Precommand Modifiers"). Each is Zsh: the name is this entry
// only when zsh runs the command. The options of the read-only ones are
// listed in full, so that one the table does not know prompts.
var zshPrograms = []Program{
	zshOnly(Program{Name: "-", Effects: fx(Read), Operands: Command, InShell: true, ZshFuncs: true,
		Examples: ex("- ls"), NotExamples: ex("- rm -rf ~")}),
	zshOnly(Program{Name: "autoload", Effects: fx(Read), Special: SpecialAutoload,
		Flags:    fl(Flag{Names: names("-U", "-z", "-k", "-K", "-X", "-m", "-r", "-R", "-t", "-T", "-W", "-d", "-w")}),
		Examples: ex("autoload -Uz compinit"), NotExamples: ex("autoload -U zmv; zmv '(*).txt' '$1.md'")}),
	zshOnly(Program{Name: "bye", Aliases: names("logout"), Effects: fx(Read), Examples: ex("bye")}),
	zshOnly(Program{Name: "emulate", Effects: fx(Read), Special: SpecialZshOptions,
		Flags:    fl(Flag{Names: names("-L", "-R", "-l")}),
		Examples: ex("emulate -L zsh"), NotExamples: ex("emulate sh; ls *", "emulate sh -c 'rm -rf ~'")}),
	// coproc CMD: a reserved word that mvdan.cc/sh parses as a command under zsh.
	zshOnly(Program{Name: "coproc", Effects: fx(Read), Operands: Command, ZshFuncs: true,
		Examples: ex("coproc cat"), NotExamples: ex("coproc rm -rf ~")}),
	zshOnly(Program{Name: "disable", Aliases: names("enable"), Effects: fx(Read), Special: SpecialZshOptions,
		Flags:    fl(Flag{Names: names("-a", "-f", "-m", "-p", "-r", "-s")}),
		Examples: ex("disable -p"), NotExamples: ex("disable -r if; ls")}),
	// integer and float evaluate their values as arithmetic.
	zshOnly(Program{Name: "float", Aliases: names("integer"), Effects: fx(Read),
		Examples: ex("integer n=3", "float x=1.5"), NotExamples: ex("integer n=$x")}),
	zshOnly(Program{Name: "functions", Effects: fx(Read),
		Flags:    fl(Flag{Names: names("-m", "-s", "-t", "-T", "-u", "-U", "-x", "-z", "-k")}),
		Examples: ex("functions", "functions -m 'git*'")}),
	zshOnly(Program{Name: "noglob", Aliases: names("nocorrect"), Effects: fx(Read), Operands: Command, InShell: true, ZshFuncs: true,
		Examples: ex("noglob ls *.go", "nocorrect git status"), NotExamples: ex("noglob rm -rf ~")}),
	zshOnly(Program{Name: "print", Effects: fx(Read),
		Flags: fl(arg("-C", "-f", "-u", "-v", "-x", "-X"),
			Flag{Names: names("-a", "-b", "-c", "-D", "-e", "-E", "-i", "-l", "-m", "-n", "-N", "-o", "-O", "-r", "-R", "-s", "-S")},
			Flag{Names: names("-P"), Effects: fx(OpaqueMedium), Why: "print -P expands prompt sequences, which run commands with the PROMPT_SUBST option",
				Examples: ex("print -P '%F{red}x%f'")},
			Flag{Names: names("-z"), Effects: fx(OpaqueMedium), Why: "print -z puts the text on the command line, where it runs next",
				Examples: ex("print -z 'rm -rf ~'")}),
		Examples: ex("print -l *.md", "print -r -- $PWD")}),
	zshOnly(Program{Name: "r", Effects: fx(OpaqueHigh), Why: "r runs a command again from the shell history, which cannot be identified",
		Examples: ex("r", "r ls")}),
	// repeat N CMD: a reserved word that mvdan.cc/sh parses as a command.
	zshOnly(Program{Name: "repeat", Effects: fx(Read), Operands: Command, Skip: 1, InShell: true, ZshFuncs: true,
		Examples: ex("repeat 3 ls"), NotExamples: ex("repeat 2 rm -rf ~")}),
	// sched runs its command later, from the prompt (zsh/sched).
	zshOnly(Program{Name: "sched", Effects: fx(Read), Operands: Command, Skip: 1, ZshFuncs: true,
		Examples: ex("sched +0:10 ls"), NotExamples: ex("sched +1 rm -rf ~")}),
	zshOnly(Program{Name: "setopt", Aliases: names("unsetopt"), Effects: fx(Read), Special: SpecialZshOptions,
		Flags:    fl(Flag{Names: names("-m")}),
		Examples: ex("setopt errexit", "setopt", "unsetopt xtrace"), NotExamples: ex("setopt shwordsplit; rm -rf $x", "setopt globsubst; ls")}),
	zshOnly(Program{Name: "whence", Aliases: names("where"), Effects: fx(Read),
		Flags:    fl(arg("-x"), Flag{Names: names("-a", "-c", "-f", "-m", "-p", "-s", "-S", "-v", "-w")}),
		Examples: ex("whence -p git", "where ls")}),
	zshOnly(Program{Name: "zmodload", Effects: fx(Read), Special: SpecialZmodload,
		Flags:    fl(Flag{Names: names("-a", "-b", "-c", "-d", "-e", "-F", "-i", "-I", "-l", "-L", "-m", "-p", "-P", "-s", "-u", "-A", "-R")}),
		Examples: ex("zmodload zsh/files", "zmodload -F zsh/stat b:zstat", "zmodload"), NotExamples: ex("zmodload zsh/files; zf_rm -rf ~", "zmodload ./evil")}),
	zshOnly(Program{Name: "zpty", Effects: fx(OpaqueMedium), Operands: Command, Skip: 1, ZshFuncs: true,
		Why: "zpty runs a command in a pseudo-terminal", Examples: ex("zpty w ls")}),
	zshOnly(Program{Name: "ztcp", Aliases: names("zftp", "zsocket"), Effects: fx(Network),
		Why: "ztcp, zsocket and zftp open network connections", Examples: ex("ztcp example.com 80")}),
}

// zshOnly marks p as a zsh builtin.
func zshOnly(p Program) Program {
	p.Zsh = true
	return p
}
