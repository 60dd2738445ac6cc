package effects

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// helpTools are the programs whose `--help` output TestOptionsMatchHelp
// compares with their table entries: GNU coreutils, diffutils, findutils'
// xargs, grep, sed, tar, gzip's zcat, binutils, util-linux and procps tools
// (and file), which print their options in the same shape, that can be
// allowed, so their
// option lists must be complete (SPEC §3 judgment calls: a program that can
// be allowed has a closed set of options).
var helpTools = []string{
	"arch", "b2sum", "base64", "basename", "cat", "cksum", "cmp", "column", "comm", "cut", "date", "df", "diff",
	"diff3", "dirname", "dmesg", "du", "env", "expand", "factor", "file", "findmnt", "fmt", "fold", "free",
	"getent", "grep", "groups", "head", "hexdump", "id", "join", "last", "logname", "ls", "lsblk", "lscpu",
	"md5sum", "nice", "nl", "nm", "nohup", "nproc", "numfmt", "objdump", "od", "paste", "pgrep", "pr",
	"printenv", "readelf", "readlink", "realpath", "sdiff", "sed", "seq", "sha1sum", "sha256sum", "sha512sum",
	"shuf", "sleep", "sort", "stat", "stdbuf", "strings", "sum", "sync", "tac", "tail", "tar", "timeout", "tr",
	"tsort", "tty", "uname", "unexpand", "uniq", "uptime", "users", "w", "watch", "wc", "who", "whoami", "xargs", "zcat",
}

// helpUnknown are options that `--help` lists and the table deliberately
// does not know, by program: an invocation with one of them prompts.
var helpUnknown = map[string][]string{}

// helpPlaceholders are words that `--help` prints in the shape of an option
// but that stand for a family of options the table lists one by one
// (diff's `--GTYPE-group-format` is `--old-group-format` and its siblings).
var helpPlaceholders = []string{"--GTYPE-group-format", "--LTYPE-line-format"}

var (
	helpLong  = regexp.MustCompile(`(?:^|[\s,\[(])(--[A-Za-z0-9][A-Za-z0-9_-]*)(=|\[=)?`)
	helpShort = regexp.MustCompile(`(?:^\s+|,\s+)(-[A-Za-z0-9])\b`)
)

// TestOptionsMatchHelp runs `PROG --help` (nothing else) for the GNU tools
// installed on this machine and checks that every option it lists is a
// name of one of the entry's flags, or on the entry's helpUnknown list; an
// option listed with a mandatory value (`--output=FILE`) must be declared
// with one, so that its value is not read as an operand. A tool that is not
// installed is skipped, and logged.
func TestOptionsMatchHelp(t *testing.T) {
	home := t.TempDir()
	var missing []string
	for _, name := range helpTools {
		path, err := exec.LookPath(name)
		if err != nil {
			missing = append(missing, name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			p := Lookup(name)
			if p == nil {
				t.Fatalf("%s is not in the table", name)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, path, "--help")
			cmd.Dir = home
			cmd.Env = []string{"HOME=" + home, "LC_ALL=C", "PATH=" + os.Getenv("PATH")}
			out, err := cmd.Output()
			if err != nil && len(out) == 0 {
				t.Fatalf("%s --help: %v", name, err)
			}
			known := map[string]*Flag{}
			for i := range p.Flags {
				for _, n := range p.Flags[i].Names {
					known[n] = &p.Flags[i]
				}
			}
			unknown := helpUnknown[name]
			bare, valued := map[string]bool{}, map[string]string{}
			for _, line := range strings.Split(string(out), "\n") {
				line = strings.TrimSpace(line)
				if !strings.HasPrefix(line, "-") {
					continue
				}
				// The options column ends at the first run of two spaces.
				head, _, _ := strings.Cut(line, "  ")
				for _, m := range helpLong.FindAllStringSubmatch(head, -1) {
					if m[2] == "=" {
						valued[m[1]] = line
					} else {
						bare[m[1]] = true
					}
				}
				var opts []string
				for _, m := range helpShort.FindAllStringSubmatch(" "+line, -1) {
					opts = append(opts, m[1])
				}
				for _, m := range helpLong.FindAllStringSubmatch(line, -1) {
					opts = append(opts, m[1])
				}
				for _, o := range opts {
					if o == "--help" || o == "--version" || known[o] != nil || slices.Contains(unknown, o) || slices.Contains(helpPlaceholders, o) {
						continue
					}
					t.Errorf("%s: %s --help lists %s, which the table entry %s does not know (line %q)", name, name, o, p.Name, line)
				}
			}
			for o, line := range valued {
				if f := known[o]; f != nil && !bare[o] && (f.Value == NoValue || f.Value == OptionalArg) {
					t.Errorf("%s: %s takes a value (%q) but is declared without one", name, o, line)
				}
			}
		})
	}
	if len(missing) > 0 {
		t.Logf("not installed, so not checked: %s", strings.Join(missing, " "))
	}
}
