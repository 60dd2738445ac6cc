package classifier

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// TestBashBuiltins checks bashBuiltins against the builtins of the bash
// installed (`compgen -b`, which runs nothing else): a builtin missing from
// the list would be found by a case-folded spelling (`CD`) that bash does
// not run.
func TestBashBuiltins(t *testing.T) {
	out, err := exec.Command(realBash(t), "--norc", "--noprofile", "-c", "compgen -b").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range strings.Fields(string(out)) {
		if !bashBuiltins[b] {
			t.Errorf("bash builtin %q is not in bashBuiltins", b)
		}
	}
}

// TestFoldedEntry checks the spellings of a program name that a
// case-insensitive platform runs as the program, and that builtins and
// unknown names stay unknown.
func TestFoldedEntry(t *testing.T) {
	tests := []struct {
		name string
		exe  bool
		want string
	}{
		{"RM", false, "rm"}, {"Sudo", false, "sudo"}, {"BASH", false, "bash"},
		{"rm.exe", true, "rm"}, {"SUDO.EXE", true, "sudo"}, {"Curl.exe", true, "curl"},
		{"rm.exe", false, ""}, // macOS: rm.exe is another file
		{"CD", true, ""}, {"EVAL", true, ""}, {"Echo", true, ""}, {"rm", true, ""},
		{"NOSUCHPROGRAM", true, ""}, {".EXE", true, ""},
	}
	for _, tt := range tests {
		got := ""
		if e := foldedEntry(tt.name, tt.exe); e != nil {
			got = e.Name
		}
		if got != tt.want {
			t.Errorf("foldedEntry(%q, %v) = %q, want %q", tt.name, tt.exe, got, tt.want)
		}
	}
}

// TestShellOptionsMatchBash runs bash with option clusters, one-dash long
// options and -c in each position around a stand-in command (touch P) and
// a stand-in script (x.sh, which touches S), in a temporary directory with
// HOME there: the classifier must parse the stand-in command exactly when
// bash runs it as the -c code, and must call the line opaque when bash runs
// the script (`bash -euo pipefail -c CODE` read the code as the script
// ./pipefail; `bash -norc x.sh` must not read -n -o -c).
func TestShellOptionsMatchBash(t *testing.T) {
	bash := realBash(t)
	cases := [][]string{
		{"-euo", "pipefail", "-c", "touch P"}, {"-eo", "pipefail", "-c", "touch P"},
		{"-co", "pipefail", "touch P"}, {"-oo", "pipefail", "errexit", "-c", "touch P"},
		{"-O", "extglob", "-c", "touch P"}, {"-eO", "extglob", "-c", "touch P"},
		{"-c", "--", "touch P"}, {"-ec", "touch P"}, {"-xc", "touch P"},
		{"-norc", "-c", "touch P"}, {"--norc", "-e", "-c", "touch P"}, {"+o", "pipefail", "-c", "touch P"},
		{"-c", "touch P", "x.sh"}, {"-noprofile", "x.sh"}, {"-norc", "x.sh"},
		{"-euo", "pipefail", "x.sh"}, {"-o", "pipefail", "x.sh"}, {"-e", "--", "x.sh"},
	}
	for _, argv := range cases {
		dir := t.TempDir()
		if err := os.WriteFile(dir+"/x.sh", []byte("touch S\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bash, argv...)
		cmd.Dir = dir
		cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin"}
		_ = cmd.Run()
		_, errP := os.Stat(dir + "/P")
		_, errS := os.Stat(dir + "/S")
		quoted := []string{"bash"}
		for _, a := range argv {
			quoted = append(quoted, "'"+a+"'")
		}
		line := strings.Join(quoted, " ")
		r := Classify(line, tableOpts)
		parsed, opaque := false, false
		for _, p := range r.Parts {
			parsed = parsed || p.Program == "touch"
			opaque = opaque || p.Class == effects.OpaqueLow || p.Class == effects.OpaqueMedium || p.Class == effects.OpaqueHigh
		}
		if ran := errP == nil; ran != parsed {
			t.Errorf("%s: bash ran the -c code: %v; the classifier parsed it: %v (%s)", line, ran, parsed, classSet(r))
		}
		if errS == nil && !opaque {
			t.Errorf("%s: bash ran the script, the classifier has no opaque part (%s)", line, classSet(r))
		}
	}
}
