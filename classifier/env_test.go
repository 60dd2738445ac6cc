package classifier

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

func TestGitConfigParameters(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // nil: does not parse
	}{
		{"", []string{}},
		{"'core.pager'='less'", []string{"core.pager=less"}},
		{"'core.pager=less -R'", []string{"core.pager=less -R"}},
		{"'a.b'='x' 'c.d'='y z'", []string{"a.b=x", "c.d=y z"}},
		{`'a.b'='it'\''s'`, []string{"a.b=it's"}},
		{`'alias.p'=''\!'ls'`, []string{"alias.p=!ls"}},
		{"'color.ui'", []string{"color.ui="}},
		{"  'a.b'='x'  ", []string{"a.b=x"}},
		{"core.pager=x", nil},
		{"'a.b'='x", nil},
		{"'a.b'='x'y", nil},
		{"'a.b'=x", nil},
	} {
		got, ok := gitConfigParameters(tc.in)
		if tc.want == nil {
			if ok {
				t.Errorf("%q: parses as %q, want no parse", tc.in, got)
			}
			continue
		}
		if !ok || !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%q: %q %v, want %q", tc.in, got, ok, tc.want)
		}
	}
}

// realGit returns git for the tests that check the classifier against it:
// without git they skip, unless REQUIRE_SHELLS=1.
func realGit(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("REQUIRE_SHELLS") == "1" {
			t.Fatal("git is required")
		}
		t.Skip("no git on this machine")
	}
	return git
}

// gitEnv is an environment for a real git that reads no configuration of
// the machine's: HOME in dir, no system or global file.
func gitEnv(dir string, extra ...string) []string {
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	return append(env, extra...)
}

// TestGitConfigParametersMatchesGit has a real git write
// GIT_CONFIG_PARAMETERS from `git -c` options (it passes them to the alias
// it runs, here printenv) and requires the decoder to read back exactly
// those keys and values.
func TestGitConfigParametersMatchesGit(t *testing.T) {
	git := realGit(t)
	dir := t.TempDir()
	set := []string{"a.b=x y", "c.d=it's", "e.f=", "alias.p=!printenv GIT_CONFIG_PARAMETERS"}
	args := []string{}
	for _, kv := range set {
		args = append(args, "-c", kv)
	}
	cmd := exec.Command(git, append(args, "p")...)
	cmd.Dir, cmd.Env = dir, gitEnv(dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git: %v", err)
	}
	got, ok := gitConfigParameters(strings.TrimSuffix(string(out), "\n"))
	if !ok {
		t.Fatalf("git wrote %q, which does not decode", out)
	}
	slices.Sort(got)
	want := slices.Clone(set)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("git wrote %q, decoded %q, want %q", out, got, want)
	}
}

// TestEnvConfigMatchesGit runs a real git with configuration given in the
// environment in several spellings, an alias `p` that runs printenv (a
// harmless stand-in for a program), and requires that whenever git runs
// the alias, the classifier classifies `ENV git p` as running code: what
// git takes from GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n and
// GIT_CONFIG_PARAMETERS, the classifier reads too (it may read more: a key
// without a count counts, since the count may be set already).
func TestEnvConfigMatchesGit(t *testing.T) {
	git := realGit(t)
	dir := t.TempDir()
	alias := "!printenv MARK"
	for _, env := range [][]string{
		{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=alias.p", "GIT_CONFIG_VALUE_0=" + alias},
		{"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=color.ui", "GIT_CONFIG_VALUE_0=never", "GIT_CONFIG_KEY_1=Alias.p", "GIT_CONFIG_VALUE_1=" + alias},
		{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_1=alias.p", "GIT_CONFIG_VALUE_1=" + alias},
		{"GIT_CONFIG_COUNT=01", "GIT_CONFIG_KEY_0=alias.p", "GIT_CONFIG_VALUE_0=" + alias},
		{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_00=alias.p", "GIT_CONFIG_VALUE_00=" + alias},
		{"GIT_CONFIG_KEY_0=alias.p", "GIT_CONFIG_VALUE_0=" + alias},
		{"GIT_CONFIG_PARAMETERS='alias.p'='" + alias + "'"},
		{"GIT_CONFIG_PARAMETERS='alias.p=" + alias + "'"},
		{"GIT_CONFIG_PARAMETERS='color.ui'='never' 'alias.p'='" + alias + "'"},
	} {
		cmd := exec.Command(git, "p")
		cmd.Dir, cmd.Env = dir, gitEnv(dir, append([]string{"MARK=ran"}, env...)...)
		out, _ := cmd.Output()
		ran := strings.TrimSpace(string(out)) == "ran"
		var line []string
		for _, kv := range env {
			name, value, _ := strings.Cut(kv, "=")
			line = append(line, name+"="+shellQuote(value))
		}
		src := strings.Join(line, " ") + " git p"
		r := Classify(src, Options{Cwd: dir, Workspaces: []string{dir}, Home: dir, Shell: Bash})
		flagged := hasClass(classesOf(r), effects.OpaqueMedium)
		if ran && !flagged {
			t.Errorf("git runs the alias with %q, but the classifier sees [%s]", src, renderSet(classesOf(r)))
		}
		t.Logf("%s: git ran the alias %v, classifier %v", src, ran, flagged)
	}
}
