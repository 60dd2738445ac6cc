package classifier

import (
	"slices"
	"testing"
)

// TestGitExtWords checks the splitting of ext:: commands against
// git-remote-ext(1).
func TestGitExtWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"sh -c rm% -rf% ~", []string{"sh", "-c", "rm -rf ~"}},
		{"git %s /srv/repo", []string{"git", "upload-pack", "/srv/repo"}},
		{"ssh -p% 22 %S", []string{"ssh", "-p 22", "git-upload-pack"}},
		{"a  b%%c", []string{"a", "b%c"}},
		{"nc %G/repo host 9418", []string{"nc", "host", "9418"}},
		{"", nil},
	} {
		if got := gitExtWords(c.in); !slices.Equal(got, c.want) {
			t.Errorf("gitExtWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestGitPathspec checks the pathspec magic that moves or excludes a path.
func TestGitPathspec(t *testing.T) {
	for _, c := range []struct {
		in            string
		path          string
		top, excluded bool
	}{
		{"src/a.go", "src/a.go", false, false},
		{":/x", "x", true, false},
		{":!x", "x", false, true},
		{":^x", "x", false, true},
		{":(exclude)x", "x", false, true},
		{":(top,glob)x/*", "x/*", true, false},
		{":(literal)a", "a", false, false},
		{":(unclosed", "", true, false},
	} {
		p, top, ex := gitPathspec(c.in)
		if p != c.path || top != c.top || ex != c.excluded {
			t.Errorf("gitPathspec(%q) = %q %v %v, want %q %v %v", c.in, p, top, ex, c.path, c.top, c.excluded)
		}
	}
}

// TestGitConfigValues checks the reading of core.hooksPath from a
// repository's config text.
func TestGitConfigValues(t *testing.T) {
	text := "[core]\n\tbare = false\n[Core]\n  HooksPath = \".husky/_\" # husky\n[core \"x\"]\n\thookspath = no\n[alias] hookspath = no\n[core] hooksPath=a\\\\b ; c\n"
	got := gitConfigValues(text, "core", "hookspath")
	want := []string{".husky/_", `a\b`}
	if !slices.Equal(got, want) {
		t.Errorf("gitConfigValues = %q, want %q", got, want)
	}
}
