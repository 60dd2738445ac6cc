package classifier

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// osFS is the real filesystem.
type osFS struct{}

func (osFS) EvalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }
func (osFS) IsFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func (w *walker) fs() FS {
	if w.opts.FS == nil {
		return osFS{}
	}
	return w.opts.FS
}

// cleanAbs returns a cleaned absolute path, or "" for anything else.
func cleanAbs(p string) string {
	if p == "" || !strings.HasPrefix(p, "/") {
		return ""
	}
	return path.Clean(p)
}

// maxCandidates bounds the number of working directories tracked at once.
const maxCandidates = 8

// resolve returns the absolute, physical candidates for a path operand (one
// per possible cwd). "" is a path that cannot be resolved.
func (w *walker) resolve(p string, glob bool) []string {
	return w.resolveIn(p, glob, w.cwd)
}

func (w *walker) resolveIn(p string, glob bool, dirs []string) []string {
	if p == "" {
		return []string{""}
	}
	if strings.HasPrefix(p, "/") {
		return []string{w.physical(p, glob)}
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if d == "" {
			out = append(out, "")
			continue
		}
		out = append(out, w.physical(d+"/"+p, glob))
	}
	return out
}

// physical resolves an absolute path the way the kernel would: `..` is taken
// after the symlinks before it are resolved, and symlinks on the longest
// existing prefix are followed. A `..` after a glob component is unknown
// (the glob may match a symlink).
func (w *walker) physical(p string, glob bool) string {
	comps := strings.Split(p, "/")
	if len(comps) > 256 {
		return ""
	}
	cur := "/"
	sawGlob := false
	last := "" // the glob component, which must be the last one
	for _, c := range comps {
		switch c {
		case "", ".":
			continue
		case "..":
			if sawGlob {
				return ""
			}
			cur = path.Dir(w.evalPrefix(cur))
		default:
			if glob && (hasGlobChars(c) || strings.Contains(c, "(")) {
				if strings.Contains(c, "(") && strings.Contains(c, "..") {
					return "" // an extended glob that may name `..`
				}
				// `.*` matches `..` in many shells (bash before 5.2):
				// the path may climb, so it is unknown. Only a pattern
				// that starts with a literal dot matches a dot file.
				if m, _ := path.Match(strings.ReplaceAll(c, "[!", "[^"), ".."); m && (c[0] == '.' || c[0] == '[') {
					return ""
				}
				if sawGlob {
					// A glob followed by more components (src/*/tmp,
					// **/*.o) may pass through a symlink that leads out.
					return ""
				}
				sawGlob, last = true, c
				continue
			}
			if sawGlob {
				return ""
			}
			cur = path.Join(cur, c)
		}
	}
	if sawGlob {
		// The names the glob matches are children of the resolved directory.
		return path.Join(w.evalPrefix(cur), last)
	}
	return w.evalPrefix(cur)
}

// evalPrefix follows symlinks on the longest existing prefix of p. Results
// are remembered for the rest of the call: a command names the same
// directories again and again.
func (w *walker) evalPrefix(p string) string {
	if r, ok := w.evalCache[p]; ok {
		return r
	}
	r := w.evalPrefixUncached(p)
	if w.evalCache == nil {
		w.evalCache = map[string]string{}
	}
	if len(w.evalCache) < 1024 {
		w.evalCache[p] = r
	}
	return r
}

func (w *walker) evalPrefixUncached(p string) string {
	fs := w.fs()
	rest := ""
	for cur := p; ; {
		if r, err := fs.EvalSymlinks(cur); err == nil {
			if rest == "" {
				return path.Clean(r)
			}
			return path.Join(r, rest)
		}
		if cur == "/" {
			return p
		}
		if rest == "" {
			rest = path.Base(cur)
		} else {
			rest = path.Base(cur) + "/" + rest
		}
		cur = path.Dir(cur)
	}
}

// exists reports whether directory or file p exists.
func (w *walker) exists(p string) bool {
	_, err := w.fs().EvalSymlinks(p)
	return err == nil
}

// roots returns the physical workspace roots.
func (w *walker) roots() []string {
	if w.rootsDone {
		return w.physRoots
	}
	w.rootsDone = true
	for _, r := range w.opts.Workspaces {
		if r != "" {
			w.physRoots = append(w.physRoots, w.evalPrefix(r))
		}
	}
	return w.physRoots
}

// location is where a resolved path lies.
type location int

const (
	locUnknown   location = iota // cannot be resolved
	locInside                    // strictly inside a workspace root
	locRoot                      // a workspace root itself
	locRuleStore                 // the permission-rule store (SPEC §5.6)
	locDevice                    // a device (/dev/sd*)
	locSystem                    // a system root (/etc, /usr, ...)
	locHome                      // home or under it, not in a workspace
	locOutside                   // anywhere else (/tmp)
)

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

var systemRoots = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/boot", "/sys", "/proc", "/root", "/var", "/opt", "/System", "/Library", "/private/etc",
	"/private/var", "/dev", "/run", "/snap", "/nix", "/Applications", "/usr/local"}

var systemExceptions = []string{"/var/tmp", "/var/folders", "/private/var/tmp", "/private/var/folders"}

// ruleStoreDirs are directory names whose settings files belong to the rule
// store: VS Code's and the hooked agents'.
var ruleStoreDirs = map[string]bool{".vscode": true, ".claude": true, ".cursor": true, ".gemini": true}

func (w *walker) isRuleStore(p string) bool {
	base := path.Base(p)
	dir := path.Base(path.Dir(p))
	switch {
	case ruleStoreDirs[base]:
		return true
	case base == "settings.json" && (dir == "User" || ruleStoreDirs[dir]),
		base == "settings.local.json" && dir == ".claude",
		base == "hooks.json" && dir == ".cursor",
		strings.HasSuffix(base, ".code-workspace"),
		strings.Contains(p, "/extensions/ml-ai.command-safety"),
		strings.Contains(p, "/ml-ai/decisions.db"):
		return true
	}
	// The settings directories of the editors: Code/User, Cursor/User, ...
	if base == "User" && (dir == "Code" || dir == "Code - Insiders" || dir == "VSCodium" || dir == "Cursor" || dir == "code-server") {
		return true
	}
	for _, r := range w.opts.RuleStore {
		if r != "" && under(p, r) {
			return true
		}
	}
	return false
}

// containsRuleStore reports whether p is a directory above a rule-store path
// given in the options (deleting it deletes the store).
func (w *walker) containsRuleStore(p string) bool {
	for _, r := range w.opts.RuleStore {
		if r != "" && under(r, p) {
			return true
		}
	}
	return false
}

// locate says where an absolute physical path lies.
func (w *walker) locate(p string) location {
	if p == "" {
		return locUnknown
	}
	if w.isRuleStore(p) {
		return locRuleStore
	}
	if under(p, "/dev") && !harmlessDevice(p) {
		return locDevice
	}
	for _, r := range w.roots() {
		if p == r {
			return locRoot
		}
		if under(p, r) {
			if w.containsRuleStore(p) {
				return locRuleStore
			}
			return locInside
		}
	}
	if p == "/" || path.Dir(p) == "/" && !strings.HasPrefix(p, "/tmp") {
		return locSystem
	}
	for _, e := range systemExceptions {
		if under(p, e) {
			return locOutside
		}
	}
	for _, s := range systemRoots {
		if under(p, s) {
			return locSystem
		}
	}
	if w.opts.Home == "" {
		// Without a home we cannot prove a path is not in it.
		return locUnknown
	}
	if under(p, w.opts.Home) || under(p, w.evalPrefix(w.opts.Home)) {
		return locHome
	}
	// A path above a workspace root contains it.
	for _, r := range w.roots() {
		if under(r, p) {
			return locSystem
		}
	}
	if w.containsRuleStore(p) {
		return locRuleStore
	}
	return locOutside
}

// describe names a path for a reason sentence.
func (w *walker) describe(p string, loc location) string {
	switch loc {
	case locUnknown:
		return "a path that cannot be resolved before running"
	case locRoot:
		return "the workspace root " + p
	case locHome:
		if p == w.opts.Home {
			return "the home directory"
		}
		return p + " in the home directory"
	case locSystem:
		if p == "/" {
			return "the root directory"
		}
		return "the system path " + p
	case locDevice:
		return "the device " + p
	case locRuleStore:
		return p + ", part of the permission-rule store"
	case locInside:
		return p + " inside the workspace"
	}
	return p + " outside the workspace"
}

// write classifies a write of path p by the part base (whose Class is ignored).
func (w *walker) write(base Part, p string, unknown bool) { w.writeTo(base, p, unknown, true) }

// writeTo is [walker.write]; hooks says whether a write into .git/hooks or
// .git/config also counts as code that runs later (rule 11). `git config`
// judges its own keys and passes false.
func (w *walker) writeTo(base Part, p string, unknown, hooks bool) {
	loc := locUnknown
	if !unknown {
		loc = w.locate(p)
	}
	part := base
	switch loc {
	case locInside, locRoot:
		part.Class = effects.WriteInside
		if part.Reason == "" {
			part.Reason = fmt.Sprintf("`%s` writes %s", base.Text, w.describe(p, loc))
		}
		switch {
		case !hooks:
		case strings.Contains(p, "/.git/hooks/") || strings.HasSuffix(p, "/.git/hooks"):
			// A hook runs later: classify what is written as if it ran now
			// (rule 11), and refuse what cannot be inspected.
			if w.hookContent != nil {
				w.nested(*w.hookContent, w.hookAt, w.hookDepth)
			} else {
				hook := base
				hook.Class = effects.OpaqueHigh
				hook.Reason = fmt.Sprintf("`%s` writes the git hook %s with content that cannot be inspected", base.Text, p)
				w.add(hook)
			}
		case strings.HasSuffix(p, "/.git/config"):
			hook := base
			hook.Class = effects.OpaqueMedium
			hook.Reason = fmt.Sprintf("`%s` writes %s, which can make git run programs", base.Text, p)
			w.add(hook)
		}
	case locRuleStore:
		part.Class = effects.WriteOutside
		part.Refusal = effects.RuleStoreModification
		part.Reason = fmt.Sprintf("`%s` changes %s", base.Text, w.describe(p, loc))
	case locDevice, locSystem, locHome:
		part.Class = effects.WriteOutside
		part.Refusal = effects.WriteProtectedPath
		part.Reason = fmt.Sprintf("`%s` writes %s", base.Text, w.describe(p, loc))
	case locUnknown:
		part.Class = effects.WriteOutside
		part.Refusal = effects.WriteProtectedPath
		part.Reason = fmt.Sprintf("`%s` writes %s, so it cannot be proven to stay out of the home directory and system paths", base.Text, w.describe(p, loc))
	default:
		part.Class = effects.WriteOutside
		part.Reason = fmt.Sprintf("`%s` writes %s", base.Text, w.describe(p, loc))
	}
	w.add(part)
}

// remove classifies a deletion of path p (SPEC §5.1).
func (w *walker) remove(base Part, p string) {
	loc := w.locate(p)
	part := base
	part.Class = effects.Deletion
	switch loc {
	case locInside:
		if part.Reason == "" {
			part.Reason = fmt.Sprintf("`%s` deletes %s", base.Text, w.describe(p, loc))
		}
	case locRuleStore:
		part.Refusal = effects.RuleStoreModification
		part.Reason = fmt.Sprintf("`%s` deletes %s", base.Text, w.describe(p, loc))
	default:
		part.Refusal = effects.DeleteOutsideWorkspace
		part.Reason = fmt.Sprintf("`%s` deletes %s", base.Text, w.describe(p, loc))
		if loc == locUnknown {
			part.Reason += ", so it cannot be proven inside the workspace"
		}
	}
	w.add(part)
}

// credentialPath reports whether a literal argument names stored credentials.
func (w *walker) credentialPath(v string) bool {
	base := path.Base(v)
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env."),
		strings.HasSuffix(base, ".pem"), strings.HasSuffix(base, ".key"),
		base == ".netrc", base == "_netrc", base == ".git-credentials", base == ".npmrc", base == ".pypirc",
		strings.HasPrefix(base, "id_rsa"), strings.HasPrefix(base, "id_ed25519"), strings.HasPrefix(base, "id_ecdsa"), strings.HasPrefix(base, "id_dsa"):
		return base != ".env.example" && base != ".env.sample" && base != ".env.template"
	}
	switch base {
	case ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".password-store":
		return true
	}
	for _, s := range []string{".aws/credentials", ".config/gh/hosts.yml", ".docker/config.json", ".kube/config", ".ssh/", ".gnupg/", ".aws/config"} {
		if strings.Contains(v, s) {
			return true
		}
	}
	return false
}

// noteRead records a literal read of v (already resolved to p) for §5.5.
func (w *walker) noteRead(n syntax.Node, v string, p []string) {
	if w.credentialPath(v) {
		w.noteCredential(n, v)
		return
	}
	for _, x := range p {
		if x != "" && w.credentialPath(x) {
			w.noteCredential(n, v)
			return
		}
	}
}
