package gate_test

import (
	"testing"

	"github.com/ml-ai/command-safety/classifier"
)

// TestProgramPositionsMatchZsh is TestProgramPositionsMatchBash against a
// real zsh (`zsh -f`: no startup files), classified as zsh, with zsh's own
// program positions: glob qualifiers, `=cmd`, `=(...)`, evaluating
// parameter flags, precommand modifiers, anonymous, hook and trap
// functions, and zsh's exec running functions. Only the stand-ins p1…p4
// run, in a temporary directory with HOME there.
func TestProgramPositionsMatchZsh(t *testing.T) {
	lines := []string{
		"echo *(e:p1:)", "echo *(e:'p1 x':)", "echo *(e{p1})", "echo *(+p1)", "echo a(e:p1:)",
		"echo *(.e:p1:)", "echo *(u0e:p1:)", "echo *(#qe:p1:)", "setopt extendedglob; echo *(#qe:p1:)",
		"x=(*(e:p1:))", "echo *(e:p1:) > /dev/null", "echo ${x:-*(e:p1:)}",
		"=p1 a", "p1() { :; }; =p1 a", "cat =(p1)", "echo =(p1)", "p1 <(p2) >(p3)",
		"x='$(p1)'; echo ${(e)x}", "x='*(e:p1:)'; echo ${~x}", "x='*(e:p1:)'; echo $~x",
		"y='$(p1)'; x=y; echo ${(P)x}", "print -l ${(f)\"$(p1)\"}", "echo ${x:-$(p1)}",
		"noglob p1", "nocorrect p1", "- p1", "repeat 2 p1", "exec p1", "command p1",
		"p1() { p2; }; exec p1", "p1() { p2; }; noglob p1", "p1() { p2; }; - p1", "p1 &|", "p1 &!",
		"() { p1 }", "() { p1 } a b", "function f g { p1 }; g", "f() { p1 }; f",
		"TRAPEXIT() { p1 }", "TRAPZERR() { p1 }; false", "chpwd() { p1 }; cd .",
		"functions[f]=p1; f", "emulate sh -c 'p1'", "emulate zsh -c 'p1'", "eval 'p1; p2'",
		"zsh -c 'p1'", "zsh -fc 'echo *(e:p2:)'", "bash -c 'p1'", "sh -c 'p1'", "coproc p1; wait",
		"zmodload zsh/files; p1", "setopt shwordsplit; p1", "trap p1 EXIT", "p1 =(p2)",
		"for x (a) p1", "if true { p1 }", "{ p1 } always { p2 }", "repeat 1 { p1 }", "integer x=$(p1)",
		"typeset *(e:p1:)", "local -a y=(*(e:p1:))", "select x in *(e:p1:); do break; done < /dev/null",
		"zsh -y -c 'p1'", "trap p1 INT; kill -INT $$", "alias -g G=\"; p1\"; eval \"echo G\"", "print -l ${arr[(r)$(p1)]}",
	}
	wraps := []string{"noglob", "nocorrect", "-", "repeat 1", "builtin exec"}
	programPositionsMatch(t, "zsh", []string{"-f", "-c"}, classifier.Zsh, lines, wraps)
}
