package classifier

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// evalPayload is the value that runs the stand-in when a shell evaluates it
// as arithmetic or as a variable's name: the subscript is expanded.
const evalPayload = "a[$(touch ran)]"

// evalCase is a command run with X=evalPayload in the environment and the
// payload in the file f: bash and zsh say whether that shell runs the
// stand-in. A look-alike runs it in neither, and must not be opaque-high.
type evalCase struct {
	cmd       string
	bash, zsh bool
	lookalike bool
}

// evalCases are the expansions that evaluate code (issue 13, point 5) and
// the idioms that look like them but do not.
var evalCases = []evalCase{
	// Arithmetic on a value from outside the line, or a command's output.
	{cmd: "echo $((X))", bash: true, zsh: true},
	{cmd: "echo $(($X + 1))", bash: true, zsh: true},
	{cmd: "echo $[X]", bash: true, zsh: true},
	{cmd: "(( X ))", bash: true, zsh: true},
	{cmd: "let X", bash: true, zsh: true},
	{cmd: `let "n = X * 2"`, bash: true, zsh: true},
	{cmd: "for ((i = 0; i < X; i++)); do :; done", bash: true, zsh: true},
	{cmd: "[[ $X -eq 1 ]]", bash: true, zsh: true},
	{cmd: "[[ X -lt 1 ]]", bash: true, zsh: true},
	{cmd: `[[ 1 -ne "$X" ]]`, bash: true, zsh: true},
	{cmd: "n=X; echo $((n))", bash: true, zsh: true},
	{cmd: "n=$(cat f); echo $((n + 1))", bash: true, zsh: true},
	{cmd: "echo $(( $(cat f) ))", bash: true, zsh: true},
	{cmd: "[[ $(grep touch f) -gt 0 ]]", bash: true, zsh: true},
	{cmd: "read -r n < f; echo $((n))", bash: true, zsh: true},
	{cmd: "while read -r n; do echo $((n)); done < f", bash: true, zsh: true},
	{cmd: "n=5; read -r n < f; (( n > 1 ))", bash: true, zsh: true},
	// An assignment that does not reach the arithmetic: in a child process,
	// a branch not taken, a function not called.
	{cmd: "(X=5); echo $((X))", bash: true, zsh: true},
	{cmd: "echo $(X=5) $((X))", bash: true, zsh: true},
	{cmd: ": | X=5; echo $((X))", bash: true},
	{cmd: "X=5 & wait; echo $((X))", bash: true},
	{cmd: "if false; then X=5; fi; echo $((X))", bash: true, zsh: true},
	{cmd: "false && X=5; echo $((X))", bash: true, zsh: true},
	{cmd: "for f in; do X=5; done; (( X ))", bash: true, zsh: true},
	{cmd: "f() { X=5; }; echo $((X))", bash: true, zsh: true},
	// Subscripts of indexed arrays and slices.
	{cmd: "echo ${b[X]}", bash: true, zsh: true},
	{cmd: `echo "${b[$X]}"`, bash: true, zsh: true},
	{cmd: "b[$X]=1", bash: true, zsh: true},
	{cmd: "b=([X]=1)", bash: true, zsh: true},
	{cmd: "echo ${#b[X]}", bash: true, zsh: true},
	{cmd: "echo ${y:$X:1}", bash: true, zsh: true},
	{cmd: "echo ${y:0:X}", bash: true},
	// Integer variables evaluate what they are given.
	{cmd: "declare -i n=$X", bash: true, zsh: true},
	{cmd: "typeset -i n=$X", bash: true, zsh: true},
	{cmd: "declare -i n; n=$X", bash: true, zsh: true},
	{cmd: "f() { local -i n=$1; }; f \"$X\"", bash: true, zsh: true},
	{cmd: "declare -i n; read -r n < f", bash: true, zsh: true},
	{cmd: "integer n=$X", zsh: true},
	{cmd: "declare -i n=0; n+=$X", bash: true, zsh: true},
	// Names the shell takes as text: their subscripts are expanded.
	{cmd: "echo ${!X}", bash: true},
	{cmd: "v=${!X}", bash: true},
	{cmd: `declare -n r=$X; echo "$r"`, bash: true},
	{cmd: `declare -n r; r=$X; echo "$r"`, bash: true},
	{cmd: `printf -v "$X" %s 1`, bash: true, zsh: true},
	{cmd: `read -r "$X" <<< 1`, bash: true, zsh: true},
	{cmd: "read -r 'a[$(touch ran)]' <<< 1", bash: true, zsh: true},
	{cmd: "declare 'a[$(touch ran)]=1'", bash: true, zsh: true},
	{cmd: "typeset 'a[$(touch ran)]=1'", bash: true, zsh: true},
	{cmd: "unset 'a[$(touch ran)]'", bash: true, zsh: true},
	{cmd: `unset "$X"`, bash: true, zsh: true},
	{cmd: "[[ -v 'a[$(touch ran)]' ]]", bash: true, zsh: true},
	{cmd: "[[ -v $X ]]", bash: true, zsh: true},
	{cmd: `test -v "$X"`, bash: true, zsh: true},
	{cmd: `[ -v "$X" ]`, bash: true, zsh: true},
	{cmd: `mapfile -C "$X" -c 1 arr <<< 1`, bash: true},
	{cmd: `print -v "$X" 1`, zsh: true},
	{cmd: "let 'a[$(touch ran)]'", bash: true, zsh: true},
	{cmd: `let "n = X"`, bash: true, zsh: true},
	{cmd: "exec {b[X]}>/dev/null", bash: true},
	{cmd: "coproc a[$(touch ran)] { :; }", bash: true},
	// Prompts are expanded when they are printed: PS4 before each traced command.
	{cmd: "PS4=$X; set -x; :", bash: true},
	{cmd: "PS4='$((X)) '; set -x; :", bash: true},

	// Look-alikes: nothing is evaluated, or only what is known.
	{cmd: `[ "$X" -eq 1 ]`, lookalike: true},
	{cmd: `test "$X" -gt 1`, lookalike: true},
	{cmd: "echo $((1 + 2))", lookalike: true},
	{cmd: "(( 1 < 2 ))", lookalike: true},
	{cmd: "i=0; (( i++ )); echo $i", lookalike: true},
	{cmd: "for ((i = 0; i < 3; i++)); do echo $i; done", lookalike: true},
	{cmd: "let i=1+2", lookalike: true},
	{cmd: "let i=2 j=i+1", lookalike: true},
	{cmd: "[[ $# -eq 0 ]]", lookalike: true},
	{cmd: "[[ $? -ne 0 ]] || echo ok", lookalike: true},
	{cmd: "echo $((RANDOM % 10 + LINENO + SECONDS))", lookalike: true},
	{cmd: `echo "${#X}"`, lookalike: true},
	{cmd: `echo "${X:1:2}"`, lookalike: true},
	{cmd: `echo "$X"`, lookalike: true},
	{cmd: `[[ $X == 1 || -n $X ]]`, lookalike: true},
	{cmd: "echo ${!b[@]} ${#b[@]}", lookalike: true},
	{cmd: "echo ${!BASH*} > /dev/null", lookalike: true},
	{cmd: "x=HOME; echo ${!x}", lookalike: true},
	{cmd: "set -- p q; echo ${!#}", lookalike: true},
	{cmd: "n=$(wc -l < f); echo $((n + 1))", lookalike: true},
	{cmd: "echo $(( $(wc -l < f) * 2 ))", lookalike: true},
	{cmd: "echo $(( $(cat f | wc -l) ))", lookalike: true},
	{cmd: "start=$(date +%s); echo $(( $(date +%s) - start ))", lookalike: true},
	{cmd: "echo $(( $(nproc) + 1 ))", lookalike: true},
	{cmd: "[[ $(grep -c touch f) -gt 0 ]] && echo found", lookalike: true},
	{cmd: "[[ $(grep -ic TOUCH < f) -gt 0 ]] && echo found", lookalike: true},
	{cmd: "for i in 1 2 3; do echo $((i * 2)); done", lookalike: true},
	{cmd: "for i in {1..3}; do echo $((i * 2)); done", lookalike: true},
	{cmd: "for i in $(seq 1 3); do echo $((i * 2)); done", lookalike: true},
	{cmd: "n=5; m=$n; echo $((m + 1))", lookalike: true},
	{cmd: "X=5; echo $((X))", lookalike: true},
	{cmd: "X=0; if false; then X=5; fi; echo $((X))", lookalike: true},
	{cmd: "true && X=5 && echo $((X))", lookalike: true},
	{cmd: "n=0; while read -r l; do n=$((n + 1)); done < f; echo $n", lookalike: true},
	{cmd: "c=(x y z); for ((i = 0; i < ${#c[@]}; i++)); do echo \"${c[$i]}\"; done", lookalike: true},
	{cmd: "typeset -A m; m[$X]=1; echo \"${m[$X]}\"", lookalike: true},
	{cmd: "declare -i n=5; n+=1; echo $n", lookalike: true},
	{cmd: "read -r line < f; echo \"$line\"", lookalike: true},
	{cmd: `printf -v v '%s' "$X"; echo "$v"`, lookalike: true},
	{cmd: `printf '%s\n' "$X"`, lookalike: true},
	{cmd: "x='a[$(touch ran)]'; echo \"$x\"", lookalike: true},
	{cmd: "unset v; echo ok", lookalike: true},
	{cmd: "[[ -v HOME ]]", lookalike: true},
	{cmd: "mapfile -t lines < f", lookalike: true},
	{cmd: `let "i = 1 + 2" 'j = i * 2'; echo $j`, lookalike: true},
	{cmd: "exec {fd}>/dev/null; echo $((fd + 1))", lookalike: true},
	{cmd: "PS4='+ ${BASH_SOURCE}:${LINENO}: '; set -x; :", lookalike: true},
	{cmd: `PS4='+\$(touch ran) '; set -x; :`, lookalike: true},
}

// TestEvalMatchesBash runs each of evalCases in a real bash, with
// X=evalPayload in the environment, the payload in a file, HOME and the
// working directory in a fresh temporary directory: the stand-in `touch
// ran` is all that can run. Where bash runs it, the classifier must say
// opaque-high (as bash and as sh, which it reads as bash too); a look-alike
// must run nothing and not be opaque-high.
func TestEvalMatchesBash(t *testing.T) {
	bash := realBash(t)
	evalMatches(t, bash, Bash, func(c evalCase) bool { return c.bash })
}

// TestEvalMatchesZsh is [TestEvalMatchesBash] in a real zsh.
func TestEvalMatchesZsh(t *testing.T) {
	zsh := realZsh(t)
	evalMatches(t, zsh, Zsh, func(c evalCase) bool { return c.zsh })
}

func evalMatches(t *testing.T, shell string, d Dialect, runs func(evalCase) bool) {
	args := []string{"--norc", "--noprofile", "-c"}
	if d == Zsh {
		args = []string{"-f", "-c"}
	}
	seen := map[string]bool{}
	for _, c := range evalCases {
		if seen[c.cmd] {
			t.Fatalf("%s: listed twice", c.cmd)
		}
		seen[c.cmd] = true
		dir, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(evalPayload+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		// The arrays the payload and the cases name exist, so that zsh
		// evaluates their subscripts too.
		argv := append([]string{"10", shell}, args...)
		cmd := exec.Command("timeout", append(argv, "a=(1 2); b=(1 2); y=hello; "+c.cmd)...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "X=" + evalPayload}
		_ = cmd.Run() // most cases fail once the payload is evaluated
		_, err = os.Stat(filepath.Join(dir, "ran"))
		ran := err == nil
		want := runs(c)
		if c.lookalike {
			want = false
		}
		if ran != want {
			t.Errorf("%s: %s ran the stand-in: %v, the case says %v", c.cmd, d, ran, want)
			continue
		}
		dialects := []Dialect{d}
		if d == Bash {
			dialects = append(dialects, Sh)
		}
		for _, dd := range dialects {
			r := Classify(c.cmd, Options{Cwd: dir, Workspaces: []string{dir}, Home: dir, Shell: dd})
			high := false
			for _, p := range r.Parts {
				high = high || p.Class == effects.OpaqueHigh
			}
			switch {
			case ran && !high:
				t.Errorf("%s: %s runs code from the value, the classifier (as %s) says %s", c.cmd, d, dd, classSet(r))
			case c.lookalike && high && dd == d: // sh also reads it as POSIX, where arrays are programs
				t.Errorf("%s: a look-alike, the classifier (as %s) says %s: %s", c.cmd, dd, classSet(r), reasons(r))
			}
		}
	}
}

func reasons(r Result) string {
	var s []string
	for _, p := range r.Parts {
		if p.Reason != "" {
			s = append(s, p.Reason)
		}
	}
	return strings.Join(s, "; ")
}
