package classifier

import (
	"os/exec"
	"strings"
	"testing"
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
