package effects

import "testing"

// TestGitConfigRuns checks the keys that name programs, and data keys
// that must stay data.
func TestGitConfigRuns(t *testing.T) {
	for _, c := range []struct {
		key, value string
		runs       bool
		kind       GitConfigValue
	}{
		{"core.pager", "less", true, GitCode},
		{"Core.AlternateRefsCommand", "x", true, GitCode},
		{"gpg.ssh.defaultKeyCommand", "x", true, GitCode},
		{"sendemail.toCmd", "x", true, GitCode},
		{"sendemail.work.ccCmd", "x", true, GitCode},
		{"sendemail.smtpServer", "/tmp/x", true, GitCode},
		{"submodule.x.update", "!rm -rf ~", true, GitBang},
		{"submodule.x.update", "rebase", false, 0},
		{"alias.l", "log", false, 0},
		{"alias.l", "!git log", true, GitBang},
		{"remote.origin.vcs", "x", true, GitElsewhere},
		{"protocol.ext.allow", "always", true, GitElsewhere},
		{"core.hooksPath", ".husky", true, GitElsewhere},
		{"remote.origin.url", "ext::sh -c x", true, GitElsewhere},
		{"foo.bar.somecommand", "x", true, GitCode},
		{"user.name", "x", false, 0},
		{"remote.origin.url", "https://x", false, 0},
		{"core.autocrlf", "true", false, 0},
		{"pull.rebase", "true", false, 0},
	} {
		kind, runs := GitConfigRuns(c.key, c.value)
		if runs != c.runs || runs && kind != c.kind {
			t.Errorf("GitConfigRuns(%q, %q) = %v %v, want %v %v", c.key, c.value, kind, runs, c.kind, c.runs)
		}
	}
}
