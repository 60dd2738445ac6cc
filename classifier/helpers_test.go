package classifier

import (
	"errors"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

func init() { PanicOnBugs = true }

// realBash returns the path of bash for the tests that check the classifier
// against it. Without bash they skip, unless REQUIRE_SHELLS=1 (as in
// scripts/test.sh), where a missing bash is a failure.
func realBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("REQUIRE_SHELLS") == "1" {
			t.Fatal("bash is required")
		}
		t.Skip("no bash on this machine")
	}
	return bash
}

// emptyFS is a filesystem where nothing exists but the root.
type emptyFS struct{}

func (emptyFS) EvalSymlinks(p string) (string, error) {
	if p == "/" {
		return p, nil
	}
	return "", errors.New("does not exist")
}
func (emptyFS) IsFile(string) bool { return false }

// tableOpts is the environment the effects table's examples assume.
var tableOpts = Options{Cwd: "/ws", Workspaces: []string{"/ws"}, Home: "/home/u", FS: emptyFS{}}

// classSet renders the distinct classes of r, sorted, without read when
// other classes are present (read parts never change a decision).
func classSet(r Result) string {
	set := renderSet(classesOf(r))
	for _, p := range r.Parts {
		implied := p.Class == effects.Privilege && p.Refusal == effects.PrivilegeEscalation ||
			p.Class == effects.OpaqueHigh && p.Refusal == effects.UnidentifiableProgram
		if p.Refusal != "" && !implied {
			set += " !" + string(p.Refusal)
		}
	}
	return set
}

func classesOf(r Result) []effects.Class {
	var cs []effects.Class
	for _, p := range r.Parts {
		cs = append(cs, p.Class)
	}
	return cs
}

func renderSet(cs []effects.Class) string {
	m := map[string]bool{}
	for _, c := range cs {
		m[c.String()] = true
	}
	if len(m) > 1 {
		delete(m, "read")
	}
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

func refusals(r Result) []string {
	var s []string
	for _, p := range r.Parts {
		if p.Refusal != "" {
			s = append(s, string(p.Refusal))
		}
	}
	return s
}
