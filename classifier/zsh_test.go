package classifier

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// realZsh returns the path of zsh for the checks against a real zsh, like
// realBash: without zsh they skip, unless REQUIRE_SHELLS=1 (scripts/test.sh
// installs the Debian package), where a missing zsh is a failure.
func realZsh(t *testing.T) string {
	t.Helper()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		if os.Getenv("REQUIRE_SHELLS") == "1" {
			t.Fatal("zsh is required (apt-get install zsh)")
		}
		t.Skip("no zsh on this machine")
	}
	return zsh
}

// TestWordsMatchZsh is TestWordsMatchBash against zsh 5.9 (`zsh -f`: no
// startup files), with the walker reading the words as zsh: brace
// expansions keep their empty words, `a=~` stays as written (no
// MAGIC_EQUAL_SUBST) or is unknown, `$"x"` is unknown.
func TestWordsMatchZsh(t *testing.T) {
	wordsMatch(t, realZsh(t), []string{"-f", "-o", "nonomatch", "-s"}, Zsh, 1500)
}

// TestCdMatchesZsh is TestCdMatchesBash against zsh, with zsh's own forms:
// `cd -N`/`cd +N` (the directory stack), `cd OLD NEW` (a substitution in
// $PWD), `cd -q`, `chdir`.
func TestCdMatchesZsh(t *testing.T) {
	cdMatches(t, realZsh(t), []string{"-f", "-s"}, Zsh, []string{"-1", "+1", "-0", "-q ..", "-s deep", "ws out", "a d", "-q -P up"})
}

// TestZshReadings checks the zsh families of issue 15 one case at a time:
// each line is a dialect, a command and the classes it must classify as
// (read aside when others are present, as in the table examples). The safe
// look-alikes are here as well as the refusals.
func TestZshReadings(t *testing.T) {
	for _, tc := range []struct{ shell, cmd, want string }{
		// Glob qualifiers that run code, and those that only select.
		{"zsh", "ls *(e:rm -rf ~:)", "opaque-high"},
		{"unknown", "ls *(e:rm -rf ~:)", "opaque-high"},
		{"bash", "ls *(e:rm -rf ~:)", "read"},
		{"zsh", "ls *(e{rm -rf ~})", "opaque-high"},
		{"zsh", "ls *(+cleanup)", "opaque-high"},
		{"zsh", "ls a(e:rm:)", "opaque-high"},
		{"zsh", "ls *(#qe:rm:)", "opaque-high"},
		{"zsh", "ls *(.e:'[[ -s $REPLY ]]':)", "opaque-high"},
		{"zsh", "ls *(u:root:e:rm:)", "opaque-high"},
		{"zsh", "ls *(P:/:)", "opaque-high"},
		{"zsh", "x=(*(e:rm:))", "opaque-high"},
		{"zsh", "ls > *(e:rm:)", "opaque-high write-inside-workspace"},
		{"zsh", "print -l *(.om[1,3])", "read"},
		{"zsh", "ls *(/)", "read"},
		{"zsh", "ls *(:t)", "read"},
		{"zsh", "ls *(Lk+10)", "read"},
		{"zsh", "ls *.(eps|pdf)", "read"},
		{"zsh", "rm -rf ~(/)", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "rm -rf ..(/)", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "rm -rf (..)/x", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "ls **/*.go", "read"},
		{"zsh", "print -l *.md", "read"},
		// =cmd and process substitutions.
		{"zsh", "=rm -rf x", "irreversible-deletion"},
		{"zsh", "rm() { :; }; =rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "rm -rf =ls", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "cat =(rm -rf ~)", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "diff <(ls) >(cat)", "read"},
		{"zsh", "echo =ls", "read"},
		// Parameter flags.
		{"zsh", "echo ${(e)x}", "opaque-high"},
		{"zsh", "echo ${(P)x}", "opaque-high"},
		{"zsh", "echo ${(%)x}", "opaque-high"},
		{"zsh", "echo ${~x}", "opaque-high"},
		{"zsh", "echo $~x", "opaque-high"},
		{"zsh", "echo ${(l:$n:)x}", "opaque-high"},
		{"zsh", "echo $[x+1]", "opaque-high"},
		{"zsh", "echo ${#arr}", "read"},
		{"zsh", "echo ${(k)commands}", "read"},
		{"zsh", "echo ${(j:,:)arr}", "read"},
		{"zsh", "echo ${(s:/:)PWD}", "read"},
		{"zsh", "echo ${(l:3::0:)n}", "read"},
		{"zsh", "print -l ${(f)\"$(git status --short)\"}", "read"},
		{"zsh", "echo $commands[git]", "read"},
		// Precommand modifiers and zsh's reserved words as commands.
		{"zsh", "noglob rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "nocorrect rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "- rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "repeat 2 rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "coproc rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "noglob ls *.go", "read"},
		{"bash", "noglob ls", "opaque-medium"},
		// zsh's exec and modifiers run functions, where they run.
		{"zsh", "f() { rm -rf x; }; cd /; exec f", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "f() { rm -rf x; }; cd /; noglob f", "irreversible-deletion !delete-outside-workspace"},
		// Modules, autoload, history.
		{"zsh", "zmodload zsh/files; zf_rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "zmodload zsh/files; rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "zmodload zsh/files; builtin rm -rf ~", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "zmodload ./evil", "opaque-medium"},
		{"zsh", "zmodload zsh/files", "read"},
		{"zsh", "autoload -U zmv; zmv '(*).txt' '$1.md'", "opaque-medium"},
		{"zsh", "autoload -Uz compinit", "read"},
		{"zsh", "typeset -fu ls; ls", "opaque-medium"},
		{"zsh", "r", "opaque-high"},
		{"zsh", "fc -e - ls", "opaque-high"},
		{"zsh", "fc -l", "read"},
		// Functions zsh calls by itself, later, from wherever it is.
		{"zsh", "TRAPEXIT() { rm -rf build }", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "chpwd() { rm -rf x }; cd /", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "function precmd { rm -rf ~ }", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "chpwd() { ls }; cd src", "read"},
		{"zsh", "functions[ls]='rm -rf ~'", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "aliases[ll]=\"$x\"", "opaque-high"},
		{"zsh", "mapfile[notes.txt]=hi", "write-inside-workspace"},
		{"zsh", "mapfile[~/.zshrc]=hi", "unknown !unparseable"}, // the subscript is arithmetic to mvdan.cc/sh
		// Options that change how later words are read.
		{"zsh", "setopt shwordsplit; ls", "unknown !unparseable"},
		{"zsh", "setopt globsubst; ls", "unknown !unparseable"},
		{"zsh", "emulate sh; ls", "unknown !unparseable"},
		{"zsh", "options[globsubst]=on; ls", "unknown !unparseable"},
		{"zsh", "setopt errexit; ls", "read"},
		{"zsh", "setopt extended_glob no_nomatch; ls", "read"},
		{"zsh", "emulate -L zsh; ls", "read"},
		{"zsh", "ls; setopt shwordsplit", "read"},
		{"zsh", "emulate sh -c 'rm -rf ~'", "irreversible-deletion !delete-outside-workspace"},
		// Parameters that change what runs.
		{"zsh", "path=(/tmp $path); ls", "opaque-medium"},
		{"zsh", "commands[ls]=/tmp/x; ls", "opaque-medium"},
		{"zsh", "cdpath=(/); cd etc && rm -rf x", "irreversible-deletion !delete-outside-workspace"},
		// cd's own forms.
		{"zsh", "cd ws tmp && rm -rf x", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "pushd /; cd -1 && rm -rf x", "irreversible-deletion !delete-outside-workspace"},
		{"zsh", "chdir / && rm -rf x", "irreversible-deletion !delete-outside-workspace"},
		// Nested shells in their own dialect.
		{"bash", "zsh -c 'ls *(e:rm:)'", "opaque-high"},
		{"bash", "zsh -lc 'ls *(e:rm:)'", "opaque-high"},
		{"zsh", "bash -c 'ls *(e:rm:)'", "read"},
		{"zsh", "sh -c 'rm -rf {x,~}'", "irreversible-deletion !delete-outside-workspace"},
		{"bash", "zsh <<'EOF'\nls *(e:rm:)\nEOF", "opaque-high"},
		// The safe look-alikes stay allowed under every reading.
		{"unknown", "git status && go test ./...", "verify"},
		{"unknown", "ls -la | grep x", "read"},
		{"zsh", "print -r -- $PWD", "read"},
		{"zsh", "whence -p git", "read"},
	} {
		d, err := ParseDialect(tc.shell)
		if err != nil {
			t.Fatal(err)
		}
		o := tableOpts
		o.Shell = d
		if got := classSet(Classify(tc.cmd, o)); got != tc.want {
			t.Errorf("%s: %q classifies as [%s], want [%s]", tc.shell, tc.cmd, got, tc.want)
		}
	}
}

// TestUnknownShell checks the reading of a command whose shell is not known:
// both readings count, and one that does not parse makes the command
// prompt, naming that shell, after what that shell would run before its
// error is walked too.
func TestUnknownShell(t *testing.T) {
	o := tableOpts
	for _, tc := range []struct {
		cmd, want string
		prompt    string // the shell a Prompt part names, or ""
	}{
		{"ls @(a|b)", "read", ""},
		{"git status", "read", ""},
		// zsh reads the glob qualifier, bash does not: the worse wins.
		{"ls *(e:rm -rf ~:)", "opaque-high", ""},
		// Only bash reads `${ cmd; }`; zsh refuses it: prompt at least.
		{"echo ${ ls; }", "unknown", "zsh"},
		// Only zsh reads `if [[ x ]] { ... }`-like forms mvdan.cc/sh
		// parses; `() { ... }` is a zsh anonymous function.
		{"() { ls }", "unknown", "bash"},
		// What bash runs before the line it cannot read counts.
		{"rm -rf ~\n() { ls }", "irreversible-deletion unknown !delete-outside-workspace", "bash"},
		// Neither reads it: refused.
		{"for x (a b) echo $x", "unknown !unparseable !unparseable", ""},
	} {
		r := Classify(tc.cmd, o)
		if got := classSet(r); got != tc.want {
			t.Errorf("%q classifies as [%s], want [%s]", tc.cmd, got, tc.want)
		}
		named := ""
		for _, p := range r.Parts {
			if p.Prompt {
				named, _, _ = strings.Cut(p.Reason, " ")
			}
		}
		if named != tc.prompt {
			t.Errorf("%q: the prompting part names %q, want %q", tc.cmd, named, tc.prompt)
		}
		if r.Shell != UnknownDialect {
			t.Errorf("%q: Result.Shell = %s, want unknown", tc.cmd, r.Shell)
		}
	}
}

// TestSh checks that sh is read as POSIX sh and as bash (macOS's /bin/sh).
func TestSh(t *testing.T) {
	o := tableOpts
	o.Shell = Sh
	for cmd, want := range map[string]string{
		"rm -rf {x,~}":  "irreversible-deletion !delete-outside-workspace",
		"ls {a,b}":      "read",
		"[[ -f x ]]":    "opaque-medium", // dash: a program [[; bash: a test
		"echo hi; ls":   "read",
		"cd / && rm x":  "irreversible-deletion !delete-outside-workspace",
		"ls *(e:rm:)":   "unknown", // dash cannot read it; bash reads an extended glob
		"printf '%s' x": "read",
	} {
		if got := classSet(Classify(cmd, o)); got != want {
			t.Errorf("sh: %q classifies as [%s], want [%s]", cmd, got, want)
		}
	}
}

// TestReadingsBounded: a source read in two dialects (sh, unknown) nested in
// another (here-documents fed to sh inside each other do not grow with
// quoting) is walked twice per level; every reading counts its units, so
// the classification stays bounded instead of doubling with the depth.
func TestReadingsBounded(t *testing.T) {
	var b strings.Builder
	const depth = 40
	for i := range depth {
		fmt.Fprintf(&b, "sh <<'E%d'\n", i)
	}
	b.WriteString(strings.Repeat("ls; ", 20) + "\n")
	for i := depth - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "E%d\n", i)
	}
	cmd := b.String()
	for _, d := range Dialects {
		o := tableOpts
		o.Shell = d
		start := time.Now()
		r := Classify(cmd, o)
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("%s: %d nested here-documents took %v", d, depth, el)
		}
		if len(r.Parts) == 0 {
			t.Errorf("%s: no parts", d)
		}
	}
}
