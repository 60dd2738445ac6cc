package effects

import "strings"

// GitConfigValue says what the value of a git config key that makes git run
// a program is (SPEC §3 rule 11).
type GitConfigValue uint8

const (
	// GitCode: the value is a command line git runs with `sh -c`
	// (`core.pager`, `diff.*.textconv`): it is classified as if it ran.
	GitCode GitConfigValue = iota
	// GitBang: only a value starting with `!` is a command line (`alias.*`,
	// `submodule.*.update`); any other value runs no program.
	GitBang
	// GitElsewhere: the value names a program, a directory of programs or
	// configuration elsewhere, or allows a transport that runs one
	// (`core.hooksPath`, `include.path`, `protocol.ext.allow`): opaque, but
	// not a command line to classify.
	GitElsewhere
)

// GitConfigKey is a git config key, or a pattern of keys, whose value makes
// git run a program.
type GitConfigKey struct {
	// Pattern is the key in lower case; `*` matches any text (a
	// subsection: `diff.*.textconv`, or the rest of a key: `pager.*`).
	Pattern string
	Value   GitConfigValue
}

// GitConfigKeys are the git config keys that name programs (git 2.47's
// git-config(1)): setting one, with `git config` or `git -c`, is code that
// runs later (SPEC §3 rule 11). A key not listed is data.
var GitConfigKeys = []GitConfigKey{
	{"alias.*", GitBang},
	{"submodule.*.update", GitBang},
	{"core.pager", GitCode}, {"pager.*", GitCode}, {"core.editor", GitCode}, {"sequence.editor", GitCode},
	{"core.sshcommand", GitCode}, {"core.fsmonitor", GitCode}, {"core.askpass", GitCode}, {"core.gitproxy", GitCode},
	{"core.alternaterefscommand", GitCode}, {"core.alternaterefsprefixes", GitElsewhere},
	{"gpg.program", GitCode}, {"gpg.*.program", GitCode}, {"gpg.ssh.defaultkeycommand", GitCode},
	{"gpg.ssh.allowedsignersfile", GitElsewhere}, {"gpg.ssh.revocationfile", GitElsewhere},
	{"credential.helper", GitCode}, {"credential.*.helper", GitCode},
	{"interactive.difffilter", GitCode}, {"diff.external", GitCode}, {"diff.*.command", GitCode},
	{"diff.*.textconv", GitCode}, {"diff.tool", GitElsewhere}, {"merge.tool", GitElsewhere},
	{"difftool.*.cmd", GitCode}, {"mergetool.*.cmd", GitCode}, {"difftool.*.path", GitCode}, {"mergetool.*.path", GitCode},
	{"merge.*.driver", GitCode}, {"filter.*.clean", GitCode}, {"filter.*.smudge", GitCode}, {"filter.*.process", GitCode},
	{"sendemail.smtpserver", GitCode}, {"sendemail.*.smtpserver", GitCode}, {"sendemail.sendmailcmd", GitCode},
	{"sendemail.*.sendmailcmd", GitCode}, {"sendemail.tocmd", GitCode}, {"sendemail.cccmd", GitCode},
	{"sendemail.*.tocmd", GitCode}, {"sendemail.*.cccmd", GitCode}, {"sendemail.headercmd", GitCode},
	{"sendemail.*.headercmd", GitCode}, {"sendemail.aliasesfile", GitElsewhere},
	{"remote.*.uploadpack", GitCode}, {"remote.*.receivepack", GitCode}, {"remote.*.proxy", GitElsewhere},
	{"remote.*.vcs", GitElsewhere}, {"http.proxy", GitElsewhere}, {"http.*.proxy", GitElsewhere},
	{"uploadpack.packobjectshook", GitCode}, {"receive.procreceiverefs", GitElsewhere},
	{"web.browser", GitCode}, {"browser.*.cmd", GitCode}, {"browser.*.path", GitCode},
	{"man.viewer", GitElsewhere}, {"man.*.cmd", GitCode}, {"man.*.path", GitCode},
	{"instaweb.httpd", GitCode}, {"gui.*", GitElsewhere}, {"guitool.*.cmd", GitCode},
	{"core.hookspath", GitElsewhere}, {"hook.*.command", GitCode}, {"core.worktree", GitElsewhere},
	{"include.path", GitElsewhere}, {"includeif.*", GitElsewhere}, {"safe.directory", GitElsewhere},
	{"protocol.allow", GitElsewhere}, {"protocol.*.allow", GitElsewhere}, {"core.attributesfile", GitElsewhere},
	{"maintenance.*", GitElsewhere}, {"trace2.*", GitElsewhere}, {"init.templatedir", GitElsewhere},
	{"lfs.customtransfer.*", GitCode}, {"lfs.extension.*", GitCode}, {"git-p4.*", GitElsewhere},
	// The class: any other key whose last part names a command, a
	// helper, a driver or a filter (`sendemail.tocmd`, `x.defaultkeycommand`).
	{"*cmd", GitCode}, {"*command", GitCode}, {"*.textconv", GitCode}, {"*.driver", GitCode}, {"*.clean", GitCode},
	{"*.smudge", GitCode}, {"*.process", GitCode}, {"*.uploadpack", GitCode}, {"*.receivepack", GitCode},
	{"*.helper", GitCode}, {"*.program", GitCode}, {"*.proxy", GitElsewhere}, {"*hook", GitCode}, {"*.editor", GitCode},
}

// GitConfigRuns reports whether git config key makes git run a program,
// and what its value is; value decides the [GitBang] keys.
func GitConfigRuns(key, value string) (GitConfigValue, bool) {
	k := strings.ToLower(key)
	if strings.HasPrefix(strings.TrimSpace(value), "ext::") {
		// A URL of the ext transport is a command git runs (`remote.x.url`,
		// `url.ext::cmd.insteadOf`); classifier.gitExtURL reads it.
		return GitElsewhere, true
	}
	for _, g := range GitConfigKeys {
		if matchKey(g.Pattern, k) {
			if g.Value == GitBang && !strings.HasPrefix(strings.TrimSpace(value), "!") && value != "" {
				return g.Value, false
			}
			return g.Value, true
		}
	}
	return 0, false
}

// matchKey matches a lower-case key against a pattern whose `*` matches
// any non-empty text.
func matchKey(pattern, k string) bool {
	before, after, star := strings.Cut(pattern, "*")
	if !star {
		return pattern == k
	}
	if !strings.HasPrefix(k, before) || len(k) <= len(before) {
		return false
	}
	rest := k[len(before):]
	if after == "" {
		return true
	}
	return len(rest) > len(after) && strings.HasSuffix(rest, after)
}
