package classifier

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// osFS is the real filesystem.
type osFS struct{}

func (osFS) EvalSymlinks(p string) (string, error) { return filepath.EvalSymlinks(p) }
func (osFS) Lstat(p string) (fs.FileInfo, error)   { return os.Lstat(p) }
func (osFS) Readlink(p string) (string, error)     { return os.Readlink(p) }
func (osFS) IsFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func (w *walker) fs() FS {
	f := w.opts.FS
	if f == nil {
		f = osFS{}
	}
	if w.opts.Platform == Windows {
		if _, ok := f.(lstatFS); ok {
			return winFS{f}
		}
		return winPlainFS{winFS{f}}
	}
	return f
}

// cleanAbs returns a cleaned absolute path, or "" for anything else.
func cleanAbs(p string) string {
	if p == "" || !strings.HasPrefix(p, "/") {
		return ""
	}
	if isCleanAbs(p) {
		return p // most paths are clean already: one scan, not Clean's rewrite
	}
	return path.Clean(p)
}

// isCleanAbs reports whether path.Clean leaves the absolute path p as it
// is: no empty, `.` or `..` component, and no trailing slash but the
// root's.
func isCleanAbs(p string) bool {
	if p == "/" {
		return true
	}
	if strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..") {
		return false
	}
	// The runtime's vectorized searches: cheaper than a loop over the bytes.
	return !strings.Contains(p, "//") && !strings.Contains(p, "/./") && !strings.Contains(p, "/../")
}

// dirOf is path.Dir(p), without Clean's rewrite when p is a clean absolute
// path already (as resolved paths are).
func dirOf(p string) string {
	if p != "" && p[0] == '/' && isCleanAbs(p) {
		if i := strings.LastIndexByte(p, '/'); i > 0 {
			return p[:i]
		}
		return "/"
	}
	return path.Dir(p)
}

// joinPath is path.Join(dir, name), without Clean's rewrite when the joined
// path is a clean absolute path already.
func joinPath(dir, name string) string {
	if dir != "" && name != "" {
		if s := dir + "/" + name; s[0] == '/' && isCleanAbs(s) {
			return s
		}
	}
	return path.Join(dir, name)
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
	p, ok := w.pathText(p)
	if !ok {
		return []string{""}
	}
	if strings.HasPrefix(p, "/") {
		if strings.HasPrefix(p, "/proc/") {
			// `/proc/self/cwd/../x` is where the process runs: one per
			// candidate directory.
			out := make([]string, 0, len(dirs))
			for _, d := range dirs {
				out = append(out, w.physicalAt(d, "", p, glob))
			}
			return out
		}
		return []string{w.physical(p, glob)}
	}
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if d == "" {
			out = append(out, "")
			continue
		}
		out = append(out, w.physicalIn(d, p, glob))
	}
	return out
}

// physical resolves an absolute path the way the kernel would: `..` is taken
// after the symlinks before it are resolved, and symlinks on the longest
// existing prefix are followed. A `..` after a glob component is unknown
// (the glob may match a symlink).
func (w *walker) physical(p string, glob bool) string { return w.physicalAt("", "", p, glob) }

// physicalIn is [walker.physical] of dir/p, without joining them first;
// the process runs in dir.
func (w *walker) physicalIn(dir, p string, glob bool) string { return w.physicalAt(dir, dir, p, glob) }

// physicalAt is [walker.physicalIn] for a process that runs in cwd ("":
// unknown). The process's own links are not the gate's: /proc/self,
// /proc/thread-self and /dev/fd on the gate's filesystem are the gate's
// process, so they are never looked up there. `/proc/self/cwd` is cwd and
// `/proc/self/root` is `/`; another process's (`/proc/PID/cwd`) is
// unknown; below any other entry of a process (its descriptors, `fd/N`,
// `/dev/stdin`), the path is taken as spelled, and a component after a
// descriptor, or a `..`, makes it unknown (`/dev/fd/3/../x`: fd 3 may be
// any directory).
func (w *walker) physicalAt(cwd, dir, p string, glob bool) string {
	if strings.Count(dir, "/")+strings.Count(p, "/") >= 256 {
		return ""
	}
	// cur is the path so far, built in place in a buffer the walker keeps:
	// joining component by component allocated and cleaned a string per
	// component, and a command may name thousands of paths.
	cur := append(w.pathBuf[:0], '/')
	defer func() { w.pathBuf = cur[:0] }()
	sawGlob := false
	last := "" // the glob component, which must be the last one
	// proc: the components so far name a process's directory (procSelf:
	// this process's, procOther: another's) or an entry in it (procEntry),
	// its descriptors' directory (procFDs) or a descriptor (procDesc),
	// after which no component is known; all taken as spelled.
	const (
		procNone = iota
		procSelf
		procOther
		procEntry
		procFDs
		procDesc
	)
	proc := procNone
	for rest, more := dir, p; rest != "" || more != ""; {
		if rest == "" {
			rest, more = more, ""
			continue
		}
		var c string
		c, rest, _ = strings.Cut(rest, "/")
		switch c {
		case "", ".":
			continue
		case "..":
			if sawGlob || proc != procNone {
				return ""
			}
			w.dotdots = append(w.dotdots, string(cur))
			r, ok := w.resolvePrefix(cur)
			if !ok {
				return ""
			}
			cur = append(cur[:0], dirOf(r)...)
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
			switch proc {
			case procSelf, procOther:
				switch {
				case c == "cwd" && proc == procSelf && cwd != "":
					cur = append(cur[:0], cwd...)
					proc = procNone
					continue
				case c == "root" && proc == procSelf:
					cur = append(cur[:0], '/')
					proc = procNone
					continue
				case c == "cwd", c == "root":
					return "" // another process's, or an unknown directory
				case c == "fd":
					proc = procFDs
				default:
					proc = procEntry
				}
			case procFDs:
				proc = procDesc
			case procDesc:
				return "" // below a descriptor: `/dev/fd/3/x`
			case procEntry:
			case procNone:
				switch string(cur) {
				case "/proc":
					switch {
					case c == "self", c == "thread-self":
						proc = procSelf
					case isDigits(c):
						proc = procOther
					}
				case "/dev":
					switch c {
					case "fd":
						proc = procFDs
					case "stdin", "stdout", "stderr":
						proc = procDesc
					}
				}
			}
			if len(cur) > 1 {
				cur = append(cur, '/')
			}
			cur = append(cur, c...)
		}
	}
	if proc != procNone {
		// As spelled: not the gate's own process.
		if sawGlob {
			return joinPath(string(cur), last)
		}
		return string(cur)
	}
	r, ok := w.resolvePrefix(cur)
	if !ok {
		return ""
	}
	if sawGlob {
		// The names the glob matches are children of the resolved directory.
		return joinPath(r, last)
	}
	return r
}

// maxResolutions bounds the path prefixes one classification resolves on
// the filesystem (each costs a system call or more). Past it, further paths
// are unknown: a write or delete of them is not allowed, and the reason says
// why. A command naming thousands of distinct paths (`rm f1 f2 … f7000`)
// took over half a second before this bound.
const maxResolutions = 256

// prefix is a path with the symlinks on its longest existing prefix
// resolved; exists says whether all of it exists. id is the file's identity
// when the filesystem told it (hasID).
type prefix struct {
	path   string
	exists bool
	dir    bool // known to be a directory (from Lstat)
	hasID  bool
	id     FileID
}

// lstatFS is implemented by filesystems that tell in one call whether a path
// exists and whether it is a symlink (the real one). With it a path whose
// parent is resolved costs one lstat instead of one per component.
type lstatFS interface {
	Lstat(p string) (fs.FileInfo, error)
}

// readlinkFS is implemented by filesystems that read a symlink's target
// (the real one): a symlink whose target does not exist is followed to
// where a write through it lands.
type readlinkFS interface {
	Readlink(p string) (string, error)
}

// maxLinkHops bounds the dangling symlinks followed in a row, like the
// kernel's 40.
const maxLinkHops = 40

// fileID is the identity of a FileInfo: the [FileID] an FS put in Sys(),
// else the platform's.
func fileID(fi fs.FileInfo) (FileID, bool) {
	if id, ok := fi.Sys().(FileID); ok {
		return id, true
	}
	return platformID(fi)
}

// resolvePrefix is [walker.evalPrefix] within the resolution budget: ok is
// false when p would need the filesystem and the budget is spent.
func (w *walker) resolvePrefix(p []byte) (string, bool) {
	if r, ok := w.evalCache[string(p)]; ok {
		return r.path, true
	}
	if w.resolutions >= maxResolutions {
		w.capped = true
		return "", false
	}
	return w.evalPrefix(string(p)), true
}

// evalPrefix follows symlinks on the longest existing prefix of p, a clean
// absolute path. Results are remembered for the rest of the call: a command
// names the same directories again and again.
func (w *walker) evalPrefix(p string) string { return w.evalPrefixOf(p).path }

func (w *walker) evalPrefixOf(p string) prefix {
	if r, ok := w.evalCache[p]; ok {
		return r
	}
	r := w.evalPrefixUncached(p)
	if w.evalCache == nil {
		w.evalCache = map[string]prefix{}
	}
	w.evalCache[p] = r
	return r
}

// evalPrefixUncached resolves p's parent (remembered) and then its last
// component: the same result as resolving the whole path, with one lookup
// per new path rather than one per component.
func (w *walker) evalPrefixUncached(p string) prefix {
	if p == "/" || !strings.HasPrefix(p, "/") {
		return prefix{path: p, exists: p == "/"}
	}
	w.resolutions++
	// p is clean: split it and join the resolved parent without cleaning
	// again (path.Dir and path.Join cost more than the lookups here).
	i := strings.LastIndexByte(p, '/')
	dir, base := p[:i], p[i+1:]
	if dir == "" {
		dir = "/"
	}
	if base == "" || base == "." || base == ".." {
		dir, base = dirOf(p), path.Base(p)
	}
	parent := w.evalPrefixOf(dir)
	child := parent.path + "/" + base
	if parent.path == "/" {
		child = "/" + base
	} else if !strings.HasPrefix(parent.path, "/") || strings.HasSuffix(parent.path, "/") {
		child = joinPath(parent.path, base)
	}
	if !parent.exists {
		return prefix{path: child}
	}
	fsys := w.fs()
	if l, ok := fsys.(lstatFS); ok {
		fi, err := l.Lstat(child)
		if err != nil {
			return prefix{path: child}
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			id, hasID := fileID(fi)
			return prefix{path: child, exists: true, dir: fi.IsDir(), id: id, hasID: hasID}
		}
	}
	r, err := fsys.EvalSymlinks(child)
	if err != nil {
		return w.dangling(child, parent.path, err)
	}
	return prefix{path: path.Clean(r), exists: true}
}

// dangling resolves child, a path that EvalSymlinks could not resolve
// (err), in the resolved directory dir. When child is a symlink whose
// target does not exist, a write through it creates the target: the result
// is the target, resolved in turn (`ws/s -> ~/.config/Code/User/settings.json`
// before that file exists writes the user settings). Anything else stays
// child, as it is spelled.
func (w *walker) dangling(child, dir string, err error) prefix {
	rl, ok := w.fs().(readlinkFS)
	if !ok || !errors.Is(err, fs.ErrNotExist) || w.linkHops >= maxLinkHops {
		return prefix{path: child}
	}
	target, rerr := rl.Readlink(child)
	if rerr != nil || target == "" {
		return prefix{path: child}
	}
	if !path.IsAbs(target) {
		target = joinPath(dir, target)
	}
	w.linkHops++
	r := w.evalPrefixOf(path.Clean(target))
	w.linkHops--
	return prefix{path: r.path}
}

// idOf is the identity of the file at physical path p, when it exists and
// the filesystem tells identities. Looking it up does not count against the
// command's resolution budget: it is the gate's own question.
func (w *walker) idOf(p string) (FileID, bool) {
	saved := w.resolutions
	r := w.evalPrefixOf(p)
	w.resolutions = saved
	return r.id, r.hasID && r.exists && r.path == p
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
		if r == "" {
			continue
		}
		// A root that is a link to the home directory is as broad as it.
		// The home directory as given and as its links resolve.
		home := w.opts.Home
		if home != "" {
			home = w.evalPrefix(home)
		}
		if p := w.evalPrefix(r); !w.tooBroad(p, w.opts.Home) && !w.tooBroad(p, home) {
			w.physRoots = append(w.physRoots, p)
		} else {
			w.broadRoot = r
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
	names := p
	if w.foldCase() {
		names = asciiLower(p) // compared with lower-case spellings below
	}
	base := path.Base(names)
	dir := path.Base(dirOf(names))
	user := "User"
	if w.foldCase() {
		user = "user"
	}
	switch {
	case ruleStoreDirs[base]:
		return true
	case base == "settings.json" && (dir == user || ruleStoreDirs[dir]),
		base == "settings.local.json" && dir == ".claude",
		base == "hooks.json" && dir == ".cursor",
		strings.HasSuffix(base, ".code-workspace"),
		// The extension's install folders (`ml-ai.command-safety-0.1.0-linux-x64`),
		// wherever the editor keeps its extensions.
		strings.Contains(names, "/ml-ai.command-safety"),
		strings.Contains(names, "/ml-ai/decisions.db"):
		return true
	}
	// The settings directories of the editors: Code/User, Cursor/User, ...
	if base == user && w.editorDir(dir) {
		return true
	}
	for _, r := range w.opts.RuleStore {
		if r != "" && w.under(p, r) {
			return true
		}
	}
	return false
}

// editorDir reports whether dir is an editor's settings directory, which
// holds User/settings.json (with the platform's case matching).
func (w *walker) editorDir(dir string) bool {
	for _, e := range []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "code-server"} {
		if w.same(dir, e) {
			return true
		}
	}
	return false
}

// containsRuleStore reports whether p is a directory above a rule-store path
// given in the options (deleting it deletes the store).
func (w *walker) containsRuleStore(p string) bool {
	for _, r := range w.opts.RuleStore {
		if r != "" && w.under(r, p) {
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
	if w.opts.Platform != Windows && w.under(p, "/dev") && !harmlessDevice(p) {
		return locDevice
	}
	for _, r := range w.roots() {
		if w.same(p, r) {
			return locRoot
		}
		if w.under(p, r) {
			if w.containsRuleStore(p) {
				return locRuleStore
			}
			return locInside
		}
	}
	if w.opts.Platform == Windows {
		if windowsSystem(p) {
			return locSystem
		}
	} else {
		if p == "/" || dirOf(p) == "/" && !strings.HasPrefix(p, "/tmp") {
			return locSystem
		}
		for _, e := range systemExceptions {
			if w.under(p, e) {
				return locOutside
			}
		}
		for _, s := range systemRoots {
			if w.under(p, s) {
				return locSystem
			}
		}
	}
	if w.opts.Home == "" {
		// Without a home we cannot prove a path is not in it.
		return locUnknown
	}
	if w.under(p, w.opts.Home) || w.under(p, w.evalPrefix(w.opts.Home)) {
		return locHome
	}
	// A path above a workspace root contains it.
	for _, r := range w.roots() {
		if w.under(r, p) {
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
	shown := w.display(p)
	switch loc {
	case locUnknown:
		if w.capped {
			return fmt.Sprintf("a path that is not resolved (the command names more than %d paths; split it)", maxResolutions)
		}
		return "a path that cannot be resolved before running"
	case locRoot:
		return "the workspace root " + shown
	case locHome:
		if w.same(p, w.opts.Home) {
			return "the home directory" + w.broadNote()
		}
		return shown + " in the home directory" + w.broadNote()
	case locSystem:
		if p == "/" {
			return "the root directory" + w.broadNote()
		}
		return "the system path " + shown + w.broadNote()
	case locDevice:
		return "the device " + shown
	case locRuleStore:
		if m, ok := w.storeAlias[p]; ok {
			return shown + ", part of the permission-rule store (it is " + w.display(m) + " or holds it)"
		}
		return shown + ", part of the permission-rule store"
	case locInside:
		return shown + " inside the workspace"
	}
	return shown + " outside the workspace"
}

// broadNote tells, in a reason about a home or system path, that the
// workspace root given was too broad to be one (see [walker.tooBroad]).
func (w *walker) broadNote() string {
	if w.broadRoot == "" {
		return ""
	}
	return " (the workspace root " + w.display(w.broadRoot) + " is the filesystem root or holds the home directory, so it is not taken as a workspace)"
}

// write classifies a write of path p by the part base (whose Class is ignored).
func (w *walker) write(base Part, p string, unknown bool) { w.writeTo(base, p, unknown, true) }

// writeTo is [walker.write]; hooks says whether a write into .git/hooks or
// .git/config also counts as code that runs later (rule 11). `git config`
// judges its own keys and passes false.
func (w *walker) writeTo(base Part, p string, unknown, hooks bool) {
	loc := locUnknown
	if !unknown {
		loc = w.locateChange(p)
		if content := w.hookContent; (content != nil || w.teeContent != nil) && hooks {
			if content == nil {
				content = w.teeContent
			}
			if w.writtenCode == nil {
				w.writtenCode = map[string]string{}
			}
			w.writtenCode[p] = *content
		}
	}
	part := base
	part.Class, part.Refusal = effects.WriteOutside, ""
	switch loc {
	case locInside, locRoot:
		if hooks && w.hookContent == nil && w.teeContent == nil {
			w.stage(p) // content not known: staged.go
		}
		part.Class = effects.WriteInside
		switch {
		case !hooks:
		case gitHookTop(w.caseKey(p)) >= 0 || w.inConfiguredHooks(p):
			// A hook runs later: classify what is written as if it ran now
			// (rule 11), and refuse what cannot be inspected.
			if w.hookContent != nil && !w.hookFromDoc {
				// git runs a hook in a new shell at the top of the work
				// tree: this one's, or a submodule's, which git knows.
				top := unknownDirs
				if i := gitHookTop(w.caseKey(p)); i >= 0 && strings.HasPrefix(w.caseKey(p)[i:], "/.git/hooks") {
					top = []string{p[:gitHookTop(w.caseKey(p))]}
				}
				w.newShell(*w.hookContent, w.hookAt, w.hookDepth, processCtx(top, top))
			} else {
				hook := base
				hook.Class = effects.OpaqueHigh
				hook.Reason = fmt.Sprintf("`%s` writes the git hook %s with content that cannot be inspected", brief(base.Text), p)
				w.add(hook)
			}
		case gitDirHoldingHooks(w.caseKey(p)):
			// `unzip h.zip -d .git`, `cp -r /tmp/x/.git .git`, `echo
			// 'gitdir: /tmp/x' > .git`: the git directory itself, with
			// the hooks and configuration git runs.
			hook := base
			hook.Class = effects.OpaqueHigh
			hook.Reason = fmt.Sprintf("`%s` writes the git directory %s, whose hooks and configuration git runs, with content that cannot be inspected", brief(base.Text), p)
			w.add(hook)
		case gitRepoConfig(w.caseKey(p)):
			hook := base
			hook.Class = effects.OpaqueMedium
			hook.Reason = fmt.Sprintf("`%s` writes %s, which can make git run programs", brief(base.Text), p)
			w.add(hook)
		}
	case locRuleStore:
		part.Refusal = effects.RuleStoreModification
	case locDevice, locSystem, locHome, locUnknown:
		part.Refusal = effects.WriteProtectedPath
	}
	w.touch(p, part, false)
	if !w.keeps(part) {
		return
	}
	switch loc {
	case locInside, locRoot:
		if part.Reason == "" {
			part.Reason = fmt.Sprintf("`%s` writes %s", brief(base.Text), w.describe(p, loc))
		}
	case locRuleStore:
		part.Reason = fmt.Sprintf("`%s` changes %s", brief(base.Text), w.describe(p, loc))
	case locUnknown:
		part.Reason = fmt.Sprintf("`%s` writes %s, so it cannot be proven to stay out of the home directory and system paths", brief(base.Text), w.describe(p, loc))
	default:
		part.Reason = fmt.Sprintf("`%s` writes %s", brief(base.Text), w.describe(p, loc))
	}
	w.add(part)
}

// remove classifies a deletion of path p (SPEC §5.1).
func (w *walker) remove(base Part, p string) {
	loc := w.locateChange(p)
	part := base
	part.Class = effects.Deletion
	switch loc {
	case locInside:
	case locRuleStore:
		part.Refusal = effects.RuleStoreModification
	default:
		part.Refusal = effects.DeleteOutsideWorkspace
	}
	w.touch(p, part, true)
	if !w.keeps(part) {
		return
	}
	if part.Reason == "" || loc != locInside {
		part.Reason = fmt.Sprintf("`%s` deletes %s", brief(base.Text), w.describe(p, loc))
	}
	if loc == locUnknown && !w.capped {
		part.Reason += ", so it cannot be proven inside the workspace"
	}
	w.add(part)
}

// credentialPath reports whether a literal argument names stored credentials.
func (w *walker) credentialPath(v string) bool {
	if w.opts.Platform == Windows {
		v = strings.ReplaceAll(v, `\`, "/")
	}
	if w.foldCase() {
		v = asciiLower(v) // the names below are lower case
	}
	base := path.Base(v)
	if base == "environ" && strings.HasPrefix(v, "/proc/") {
		return true // a process's environment (/proc/self/environ), whose secrets env prints
	}
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env."),
		strings.HasSuffix(base, ".pem"), strings.HasSuffix(base, ".key"),
		base == ".netrc", base == "_netrc", base == ".git-credentials", base == ".npmrc", base == ".pypirc",
		strings.HasPrefix(base, "id_rsa"), strings.HasPrefix(base, "id_ed25519"), strings.HasPrefix(base, "id_ecdsa"), strings.HasPrefix(base, "id_dsa"):
		return base != ".env.example" && base != ".env.sample" && base != ".env.template"
	case slices.Contains(credentialFiles, base),
		// Key stores and password databases by their kind.
		strings.HasSuffix(base, ".p12"), strings.HasSuffix(base, ".pfx"), strings.HasSuffix(base, ".jks"),
		strings.HasSuffix(base, ".keystore"), strings.HasSuffix(base, ".ppk"), strings.HasSuffix(base, ".kdbx"):
		return true
	}
	switch base {
	case ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".password-store", ".azure":
		return true
	case "hub":
		if v == ".config/hub" || strings.HasSuffix(v, "/.config/hub") {
			return true // hub's token
		}
	}
	for _, s := range []string{".aws/credentials", ".config/gh/hosts.yml", ".docker/config.json", ".kube/config", ".ssh/", ".gnupg/", ".aws/config",
		".config/git/credentials", ".cargo/credentials", ".terraform.d/credentials", ".azure/", ".config/gcloud/", "Library/Keychains/"} {
		if strings.Contains(v+"/", s) { // the directory itself too (`tar -c ~/.config/gh`)
			return true
		}
	}
	// Every place has a dot in it but those under Library and /etc: a path
	// with none of them (most operands: src/main.go has a dot, but the
	// loop is skipped for plain names and directories) names none.
	if strings.IndexByte(v, '.') >= 0 || strings.Contains(v, "ibrary/") || strings.Contains(v, "/etc/") {
		places := credentialPlaces
		if w.foldCase() {
			places = credentialPlacesLower()
		}
		vs := v + "/" // a directory itself too (`tar -c ~/.oci`)
		for _, s := range places {
			if strings.Contains(vs, s) {
				return true
			}
		}
	}
	if w.opts.Platform == Windows {
		// Where the same tools keep them on Windows (%APPDATA% is
		// AppData/Roaming), and the DPAPI stores of Windows itself; v is
		// lower case there.
		for _, s := range []string{"appdata/roaming/github cli/", "appdata/roaming/gcloud/", "appdata/roaming/microsoft/credentials/",
			"appdata/local/microsoft/credentials/", "appdata/roaming/microsoft/protect/", "appdata/roaming/hub"} {
			if strings.Contains(v+"/", s) {
				return true
			}
		}
	}
	return false
}

// A glob is compared with the names of stored credentials
// ([walker.credentialGlob]): with the names that are fixed and start with a
// dot (`.env`, `.netrc`, a `.ssh` directory) any match counts, since a
// shell glob reaches them only by spelling the dot and find's `*` matches
// them; with the open ones (`*.pem`, `.env.*`, `id_rsa*`) the pattern
// must spell what makes the name a credential (`*.pem`, `*.[kK]ey`,
// `.env.*`, `id_*`), since any `*` can match `x.pem` (`dist/*`, `*.go`,
// which `.env.go` or `id_rsa.go` would match, are not credentials).
// credentialDotNames and credentialOpenNames are these names (with glob
// patterns a little wider than [walker.credentialPath]'s: `id_*`, and
// .env.example and its kin), credentialDirs the directories whose files
// are credentials.
var (
	credentialDotNames = []string{".env", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".password-store", ".azure",
		".pgpass", ".my.cnf", ".mylogin.cnf", ".vault-token", ".s3cfg", ".boto", ".databrickscfg", ".htpasswd", ".terraformrc"}
	credentialOpenNames = []string{".env.*", "*.pem", "*.key", "_netrc", "id_rsa*", "id_ed25519*", "id_ecdsa*", "id_dsa*", "id_*",
		"*.p12", "*.pfx", "*.jks", "*.keystore", "*.ppk", "*.kdbx"}
	credentialDirs = []string{".ssh/", ".gnupg/", ".aws/", ".kube/", ".docker/", ".password-store/", ".config/gh/", ".azure/", ".config/gcloud/", "Library/Keychains/",
		".local/share/keyrings/", ".config/github-copilot/", ".config/sops/", ".config/op/", ".oci/", ".config/doctl/", ".config/rclone/", ".config/glab-cli/", ".kaggle/"}
)

// credentialFiles are the base names of files that hold passwords or
// tokens wherever they lie (SPEC §5.5's list is examples): PostgreSQL's
// and MySQL's password files, Vault's token, s3cmd's and boto's keys,
// Databricks', Terraform's and htpasswd's.
var credentialFiles = []string{".pgpass", ".my.cnf", ".mylogin.cnf", ".vault-token", ".s3cfg", ".boto", ".databrickscfg", ".htpasswd", ".terraformrc"}

// credentialPlaces are paths (as their ends) of stored credentials that
// are not named by a base name alone: the token stores of coding agents,
// package registries, secret managers and cloud CLIs, the keyrings and
// browser profiles (saved passwords, cookies), and the system's password
// hashes and host keys. One ending in `/` is a directory of them (the
// directory itself counts too).
var credentialPlaces = []string{
	".password-store/", ".gem/credentials", ".claude/.credentials.json", ".codex/auth.json", ".config/github-copilot/", ".local/share/keyrings/",
	".config/sops/", ".config/op/", ".oci/", ".config/doctl/", ".config/rclone/", ".config/glab-cli/", ".kaggle/",
	".cache/huggingface/token", ".huggingface/token", ".config/hub", ".m2/settings.xml", ".m2/settings-security.xml",
	".gradle/gradle.properties", ".config/configstore/firebase-tools.json", ".config/netlify/config.json",
	".mozilla/firefox/", ".config/google-chrome/", ".config/chromium/", ".config/BraveSoftware/",
	"Library/Application Support/Google/Chrome/", "Library/Application Support/Firefox/", "Library/Cookies/",
	"/etc/shadow", "/etc/gshadow", "/etc/ssh/ssh_host_",
}

// credentialPlacesLower are credentialPlaces in lower case, for a platform
// whose paths match ignoring case.
var credentialPlacesLower = sync.OnceValue(func() []string {
	out := make([]string, len(credentialPlaces))
	for i, s := range credentialPlaces {
		out[i] = asciiLower(s)
	}
	return out
})

// credentialLang is one pattern of the names of stored credentials as
// tokens; loose: any match counts (see above).
type credentialLang struct {
	toks  []globTok
	loose bool
}

// credentialNameLangs match base names; credentialPathLangs whole paths
// (any directories before a base name; anything around a directory of
// credentials, which a shell glob must spell since its `*` matches
// no leading dot and no slash, and find's -path must spell too).
//
// They are built at first use (a glob or a find pattern to compare), not
// at every process start: a hook classifies one command and exits.
var credentialLangs = sync.OnceValues(func() (names, paths []credentialLang) {
	var anyStar globTok
	anyStar.star = true
	anyStar.addAll(true)
	prefix := []globTok{anyStar, literalToks("/")[0]}
	add := func(b string, loose bool) {
		t, _ := parseGlob(b, globOpts{})
		names = append(names, credentialLang{t, loose})
		paths = append(paths, credentialLang{t, loose}, credentialLang{append(slices.Clone(prefix), t...), loose})
	}
	for _, b := range credentialDotNames {
		add(b, true)
	}
	for _, b := range credentialOpenNames {
		add(b, false)
	}
	for _, d := range credentialDirs {
		t := append(append([]globTok{anyStar}, literalToks(d)...), anyStar)
		paths = append(paths, credentialLang{t, false})
	}
	return names, paths
})

// maxGlobWork bounds the work of comparing globs with credential names in
// one command (product states, a few ns each: about 60 globs): past it a
// glob is taken to match them, the conservative answer.
const maxGlobWork = 1 << 18

// credentialName reports whether a file whose base name matches the glob
// pat (find's -name) may hold stored credentials.
func (w *walker) credentialName(pat string, fold bool) bool {
	if !isPattern(pat) {
		if fold {
			pat = asciiLower(pat)
		}
		return w.credentialPath(pat)
	}
	if len(pat) > maxGlob || w.globWork > maxGlobWork {
		return true
	}
	toks, _ := parseGlob(pat, globOpts{fold: fold || w.foldCase()})
	names, _ := credentialLangs()
	for _, c := range names {
		w.globWork += (len(toks) + 1) * (len(c.toks) + 1)
		if meet(toks, c.toks, c.loose) {
			return true
		}
	}
	return false
}

// credentialGlob reports whether a path matching the glob pat (a shell
// glob with o.dots, find's -path with o.slash) may name stored
// credentials: whether it meets one of credentialPathLangs.
func (w *walker) credentialGlob(pat string, o globOpts) bool {
	if w.credentialPath(pat) {
		return true
	}
	if !isPattern(pat) {
		return false
	}
	if len(pat) > maxGlob || w.globWork > maxGlobWork {
		return true
	}
	if w.opts.Platform == Windows {
		pat = strings.ReplaceAll(pat, `\`, "/")
	}
	o.fold = o.fold || w.foldCase()
	toks, _ := parseGlob(pat, o)
	_, paths := credentialLangs()
	for _, c := range paths {
		w.globWork += (len(toks) + 1) * (len(c.toks) + 1)
		if meet(toks, c.toks, c.loose) {
			return true
		}
	}
	return false
}

// noteReadField records a read of the operand f for §5.5: its literal text
// and, when it is a shell glob, what the glob may match (`cat ~/.env*`).
// The `{}` that find hands on is a glob of everything below its start;
// find's expression decides what it may be (findexpr.go), not the glob.
func (w *walker) noteReadField(n syntax.Node, f field) {
	if f.dynamic {
		w.noteDynamicRead(n, f.word)
		return
	}
	w.noteRead(n, f.value, nil)
	if f.glob && w.credential == nil && !slices.Contains(w.found, f.value) {
		if w.credentialGlob(f.value, globOpts{dots: true}) {
			w.noteCredential(n, f.value)
			return
		}
		for _, j := range w.inCwd(f.value) {
			if w.credentialGlob(j, globOpts{dots: true}) {
				w.noteCredential(n, f.value)
				return
			}
		}
	}
}

// noteDynamicRead records for §5.5 a read of a word only known at run
// time whose text names a process's environment (`/proc/$$/environ`,
// `/proc/$PID/environ`) or, unquoted, stored credentials under a directory
// the line does not know (`"$USERPROFILE/.ssh/id_rsa"`, `$DIR/.env`).
func (w *walker) noteDynamicRead(n syntax.Node, word *syntax.Word) {
	if word == nil || w.credential != nil {
		return
	}
	t := w.textOf(word)
	if strings.HasPrefix(t, "/proc/") && strings.HasSuffix(t, "/environ") {
		w.noteCredential(n, t)
		return
	}
	u := strings.NewReplacer(`"`, "", `'`, "").Replace(t)
	if w.opts.Platform == Windows {
		u = windowsProfileVars(u)
	}
	if strings.Contains(u, "/") && !strings.ContainsAny(path.Base(u), "$`(){}") && w.credentialPath(u) {
		w.noteCredential(n, t)
	}
}

// windowsProfileVars spells a path only known at run time under Git Bash
// with slashes, and the profile's folders that Windows names by variables
// as the directories they are (`$APPDATA/GitHub CLI/hosts.yml` is
// ~/AppData/Roaming/GitHub CLI/hosts.yml, `"$USERPROFILE\.aws\credentials"`
// ~/.aws/credentials), for the credential names (SPEC §5.5).
func windowsProfileVars(u string) string {
	u = strings.ReplaceAll(strings.ReplaceAll(u, `\\`, "/"), `\`, "/")
	for _, v := range [...]struct{ name, dir string }{
		{"LOCALAPPDATA", "~/AppData/Local"}, {"APPDATA", "~/AppData/Roaming"}, {"USERPROFILE", "~"},
	} {
		for _, spelled := range [...]string{"$" + v.name, "${" + v.name + "}", "%" + v.name + "%"} {
			if rest, ok := cutPrefixFold(u, spelled); ok && (rest == "" || rest[0] == '/') {
				return v.dir + rest
			}
		}
	}
	return u
}

// inCwd joins a relative operand to each directory the shell may be in
// (lexically: `..` folded, no link followed), for the credential names
// anchored in a directory (`cd ~/.aws; cat credentials`, SPEC §5.5); nil
// for an absolute one or one starting with `~`, which are named already.
func (w *walker) inCwd(v string) []string {
	if v == "" || v[0] == '/' || v[0] == '~' || w.opts.Platform == Windows {
		return nil
	}
	var out []string
	for _, d := range w.cwd {
		// A directory with no dot-directory, Library or /proc in it adds
		// nothing the operand's own text does not name.
		if d != "" && (strings.Contains(d, "/.") || strings.Contains(d, "/Library") || strings.HasPrefix(d, "/proc")) {
			out = append(out, joinPath(d, v))
		}
	}
	return out
}

// noteReadValue records the files an option's value reads for §5.5: the
// value itself and the files it names the ways curl, wget and HTTPie
// name them: `@FILE` and `NAME@FILE` (`-d`, `--data-urlencode`, HTTPie's
// `field@file`), `NAME=@FILE` and `NAME=<FILE` (`-F`, HTTPie's
// `field=@file`, `field:=@file`, `Header:@file`), each up to a `;` (`-F
// 'f=@x;type=text/plain'`), and curl's `{a,b}` lists (`-T '{a,b}'`); glob:
// the value is a shell glob.
func (w *walker) noteReadValue(n syntax.Node, v string, glob bool) {
	if w.credential != nil {
		return
	}
	cands := []string{v}
	for i := 0; i < len(v); i++ {
		if v[i] != '@' && v[i] != '<' {
			continue
		}
		f := v[i+1:]
		if q, ok := strings.CutPrefix(f, `"`); ok {
			// curl -F 'f=@"name;with;semicolons"': a quoted file name,
			// with \" and \\ escaped.
			var b strings.Builder
			for k := 0; k < len(q) && q[k] != '"'; k++ {
				if q[k] == '\\' && k+1 < len(q) {
					k++
				}
				b.WriteByte(q[k])
			}
			f = b.String()
		} else if j := strings.IndexByte(f, ';'); j >= 0 {
			f = f[:j]
		}
		cands = append(cands, f)
		if strings.Contains(f, ",") {
			cands = append(cands, strings.Split(f, ",")...) // curl -F 'f=@a,b' sends both
		}
	}
	for _, c := range cands {
		if c == "" || c == "-" {
			continue
		}
		for _, alt := range braceAlternatives(c) {
			w.noteReadField(n, field{value: alt, glob: glob})
			if w.credential != nil {
				return
			}
		}
	}
}

// braceAlternatives expands the first `{a,b,...}` of s (curl's file and URL
// globbing), once: a nested or later list stays as it is, and is compared
// as a glob by noteRead.
func braceAlternatives(s string) []string {
	i := strings.IndexByte(s, '{')
	j := strings.IndexByte(s[max(i, 0):], '}')
	if i < 0 || j < 0 {
		return []string{s}
	}
	j += i
	out := []string{s}
	for _, alt := range strings.Split(s[i+1:j], ",") {
		out = append(out, s[:i]+alt+s[j+1:])
	}
	return out
}

// noteRead records a literal read of v (already resolved to p) for §5.5.
func (w *walker) noteRead(n syntax.Node, v string, p []string) {
	w.noteReadFrom(v, p)
	if w.credential != nil {
		return // only the first counts
	}
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
	if p == nil {
		for _, x := range w.inCwd(v) {
			if w.credentialPath(x) {
				w.noteCredential(n, v)
				return
			}
		}
	}
}

// gitHookTop returns where the `/.git/` of the git directory that holds
// key's hook directory starts, or -1: key is, or is in, a directory named
// hooks inside a `.git` directory. That is `.git/hooks` and the hooks of
// the repositories git keeps there: submodules' `.git/modules/NAME/hooks`
// (nested: `.git/modules/a/modules/b/hooks`) and worktrees' (rule 11 is
// about git's hook directories, not one spelling).
func gitHookTop(key string) int {
	k := key + "/"
	i := strings.Index(k, "/.git/")
	if i < 0 {
		return -1
	}
	rest := strings.Split(k[i+len("/.git/"):], "/")
	for _, c := range rest {
		if c == "hooks" {
			return i
		}
	}
	return -1
}

// gitRepoConfig reports whether key is the configuration file of a git
// directory, which can make git run programs: `.git/config`, or a
// submodule's or worktree's under `.git/modules/` or `.git/worktrees/`
// (`config`, `config.worktree`).
func gitRepoConfig(key string) bool {
	if strings.HasSuffix(key, "/.git/config") || strings.HasSuffix(key, "/.git/config.worktree") {
		return true
	}
	if !strings.Contains(key, "/.git/modules/") && !strings.Contains(key, "/.git/worktrees/") {
		return false
	}
	return strings.HasSuffix(key, "/config") || strings.HasSuffix(key, "/config.worktree")
}

// gitDirHoldingHooks reports whether key is a git directory that holds
// hook directories, as a whole: `.git` (or a `.git` file that points git
// elsewhere), a submodule's `.git/modules/NAME` (nested too) or a
// worktree's `.git/worktrees/NAME`.
func gitDirHoldingHooks(key string) bool {
	if strings.HasSuffix(key, "/.git") {
		return true
	}
	i := strings.Index(key, "/.git/")
	if i < 0 {
		return false
	}
	rest := strings.Split(key[i+len("/.git/"):], "/")
	if len(rest)%2 != 0 {
		return false
	}
	for j := 0; j < len(rest); j += 2 {
		if rest[j] != "modules" && !(j == 0 && rest[j] == "worktrees") || rest[j+1] == "" {
			return false
		}
	}
	return true
}

// inConfiguredHooks reports whether p is in (or is) a hook directory that
// a workspace root's repository configures with core.hooksPath (husky's
// `.husky/_`): git runs what is written there as hooks (rule 11).
func (w *walker) inConfiguredHooks(p string) bool {
	if !w.hooksPathsDone {
		w.hooksPathsDone = true
		for _, r := range w.roots() {
			w.hooksPaths = append(w.hooksPaths, w.configuredHooks(r)...)
		}
	}
	for _, d := range w.hooksPaths {
		if w.under(p, d) {
			return true
		}
	}
	return false
}

// configuredHooks reads core.hooksPath from root/.git/config, resolved
// as git resolves it for hooks run at the top of the work tree root. An
// include of another file is not followed.
func (w *walker) configuredHooks(root string) []string {
	cfg := root + "/.git/config"
	fsys := w.fs()
	r, can := fsys.(readFileFS)
	if !can || !fsys.IsFile(cfg) {
		return nil
	}
	b, err := r.ReadFile(cfg)
	if err != nil {
		return nil
	}
	var out []string
	for _, v := range gitConfigValues(string(b), "core", "hookspath") {
		switch {
		case v == "":
		case v == "~" || strings.HasPrefix(v, "~/"):
			if w.opts.Home != "" {
				out = append(out, path.Clean(w.opts.Home+v[1:]))
			}
		case strings.HasPrefix(v, "/"):
			out = append(out, path.Clean(v))
		default:
			out = append(out, path.Clean(root+"/"+v))
		}
	}
	return out
}

// gitConfigValues returns the values of section.key (both in lower case)
// in a git config file's text, in order: `[core]` then `hooksPath = x`,
// with double quotes, backslash escapes and `#`/`;` comments as git reads
// them (well enough for a path).
func gitConfigValues(text, section, key string) []string {
	var out []string
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				cur = ""
				continue
			}
			name := strings.TrimSpace(line[1:end])
			if sec, sub, ok := strings.Cut(name, " "); ok {
				name = strings.ToLower(sec) + " " + sub
			} else {
				name = strings.ToLower(name)
			}
			cur = name
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || cur != section || !strings.EqualFold(strings.TrimSpace(k), key) {
			continue
		}
		var val strings.Builder
		quoted := false
		v = strings.TrimSpace(v)
		for i := 0; i < len(v); i++ {
			c := v[i]
			switch {
			case c == '"':
				quoted = !quoted
			case c == '\\' && i+1 < len(v):
				i++
				val.WriteByte(v[i])
			case (c == '#' || c == ';') && !quoted:
				i = len(v)
			default:
				val.WriteByte(c)
			}
		}
		out = append(out, strings.TrimSpace(val.String()))
	}
	return out
}
