package classifier

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// Package runners (SPEC §3 judgment calls, issue 14 point 1): `npx tsc
// --noEmit`, `pnpm exec eslint src`, `uv run pytest -q` run the project's
// own installation of the program when it has one, and then the part is
// that program with its arguments, classified by its entry. The table says
// which entries are runners of which ecosystem (effects.Program.Runner) and
// which programs the ecosystem's packages install (effects.Program.Packages);
// this file finds the installation: one stat per candidate directory, from
// the working directory up to the workspace root, remembered for the
// command.

// maxManifest bounds a package.json read for its scripts.
const maxManifest = 1 << 20

// readFileFS is implemented by filesystems that read small files (the real
// one): without it no manifest is known, and a script runner's name is
// taken for a project script.
type readFileFS interface {
	ReadFile(p string) ([]byte, error)
}

// ReadFile reads a regular file of at most maxManifest bytes, without
// blocking on a FIFO or a device.
func (osFS) ReadFile(p string) ([]byte, error) {
	f, err := openNoBlock(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxManifest {
		return nil, errors.New("not a regular file of a manifest's size")
	}
	b, err := io.ReadAll(io.LimitReader(f, maxManifest+1))
	if err != nil || len(b) > maxManifest {
		return nil, errors.New("not a manifest")
	}
	return b, nil
}

// ReadFile is the filesystem's, asked in Windows' spelling.
func (f winFS) ReadFile(p string) ([]byte, error) {
	r, ok := f.fs.(readFileFS)
	n, native := f.native(p)
	if !ok || !native {
		return nil, errors.New("cannot read files")
	}
	return r.ReadFile(n)
}

// installed reports whether the program that the runner e names (a, the
// first word of the command it runs) is installed in the project for every
// directory the runner works in, and the program's entry when the table
// knows it (nil: a program the table does not know, the project's file).
// ok is false when the runner may fetch the program or runs something else:
// a dynamic or path-like name, a version or package spec (`pkg@1.2`,
// `@scope/pkg`), an option of the runner with effects of its own (`npx -p`,
// `uv run --with`), an entry that is no package of e's ecosystem (`npx rm`),
// or a directory outside the workspace or unknown.
func (inv *invocation) installed(e *effects.Program, a field) (entry *effects.Program, ok bool) {
	w := inv.w
	name := a.value
	if e.Runner == effects.NoEcosystem || a.dynamic || a.glob || name == "" || strings.ContainsAny(name, "@/\\: \t") || isOption(name) {
		return nil, false
	}
	for _, h := range inv.flags {
		if len(h.flag.Effects) > 0 {
			return nil, false
		}
	}
	entry = effects.Lookup(name)
	if entry != nil && !slices.Contains(entry.Packages, e.Runner) {
		return nil, false
	}
	rel := "/node_modules/.bin/" + name
	if e.Runner == effects.Python {
		rel = "/.venv/bin/" + name
		if w.opts.Platform == Windows {
			rel = "/.venv/Scripts/" + name + ".exe"
		}
	}
	for _, d := range inv.dirs {
		if !w.installedIn(d, rel) {
			return nil, false
		}
	}
	return entry, len(inv.dirs) > 0
}

// installedPath returns the table's entry for a program run by its path in
// the project's installation, `./node_modules/.bin/tsc --noEmit` or
// `.venv/bin/pytest -q`: the file a package runner runs for `npx tsc` or
// `uv run pytest` ([invocation.installed]), so the same entry, when the table
// says that ecosystem's packages install the program and the path lies
// inside the workspace from every directory the command runs in (a link out
// of it, or a directory outside, is a program from elsewhere). Nil
// otherwise: `node_modules/.bin/rm` is no package's program, and a program
// the table does not know stays the project's file.
func (w *walker) installedPath(prog string, dirs []string) *effects.Program {
	dir, name := path.Split(path.Clean(prog))
	dir = strings.TrimSuffix(dir, "/")
	var eco effects.Ecosystem
	switch {
	case dir == "node_modules/.bin" || strings.HasSuffix(dir, "/node_modules/.bin"):
		eco = effects.Node
	case w.opts.Platform != Windows && (dir == ".venv/bin" || strings.HasSuffix(dir, "/.venv/bin")):
		eco = effects.Python
	default:
		return nil
	}
	entry := effects.Lookup(name)
	if entry == nil || entry.Name != name || !slices.Contains(entry.Packages, eco) || len(dirs) == 0 {
		return nil
	}
	for _, p := range w.resolveIn(prog, false, dirs) {
		if l := w.locate(p); l != locInside || !w.fs().IsFile(p) {
			return nil
		}
	}
	return entry
}

// installedIn reports whether rel (`/node_modules/.bin/tsc`) is a file in
// directory d or a directory above it, up to the workspace root: the
// lookup npm, pnpm, yarn and bun make, and where uv keeps a project's
// virtualenv.
func (w *walker) installedIn(d, rel string) bool {
	for q := d; q != ""; q = dirOf(q) {
		l := w.placeDir(q)
		if l != locInside && l != locRoot {
			return false
		}
		key := q + rel
		found, seen := w.bins[key]
		if !seen {
			found = w.fs().IsFile(key)
			if w.bins == nil {
				w.bins = map[string]bool{}
			}
			w.bins[key] = found
		}
		if found {
			return true
		}
		if l == locRoot || q == "/" {
			return false
		}
	}
	return false
}

// placeDir is where directory d lies: a workspace root as the options spell
// it is that root (without asking the filesystem: most commands run there),
// any other directory is located where it resolves (the cwd as an agent
// gives it may be a path through a link).
func (w *walker) placeDir(d string) location {
	if d == "" {
		return locUnknown
	}
	for _, r := range w.opts.Workspaces {
		if r != "" && w.same(d, r) {
			return locRoot
		}
	}
	return w.locate(w.physical(d, false))
}

// noScript reports whether no project script is named name where the
// script runner (pnpm, yarn) looks for one: the nearest package.json from
// each directory it works in, within the workspace. A manifest that cannot
// be read or parsed, or none within the workspace, may define it.
func (inv *invocation) noScript(name string) bool {
	w := inv.w
	for _, d := range inv.dirs {
		found := false
		for q := d; q != ""; q = dirOf(q) {
			l := w.placeDir(q)
			if l != locInside && l != locRoot {
				return false
			}
			scripts, exists, ok := w.manifestScripts(q + "/package.json")
			if !ok {
				return false
			}
			if exists {
				if scripts[name] {
					return false
				}
				found = true
				break
			}
			if l == locRoot || q == "/" {
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(inv.dirs) > 0
}

// manifestScripts returns the script names of package.json at p, whether p
// exists, and ok false when it exists but cannot be read or parsed.
func (w *walker) manifestScripts(p string) (scripts map[string]bool, exists, ok bool) {
	if m, seen := w.manifests[p]; seen {
		return m.scripts, m.exists, m.ok
	}
	m := manifest{}
	defer func() {
		if w.manifests == nil {
			w.manifests = map[string]manifest{}
		}
		w.manifests[p] = m
		scripts, exists, ok = m.scripts, m.exists, m.ok
	}()
	fsys := w.fs()
	if !fsys.IsFile(p) {
		m.ok = true
		return
	}
	m.exists = true
	r, can := fsys.(readFileFS)
	if !can {
		return
	}
	b, err := r.ReadFile(p)
	if err != nil {
		return
	}
	var pkg struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return
	}
	m.scripts, m.ok = map[string]bool{}, true
	for k := range pkg.Scripts {
		m.scripts[k] = true
	}
	return
}

// manifest is what manifestScripts found at one path.
type manifest struct {
	scripts    map[string]bool
	exists, ok bool
}

// runInstalled classifies the runner's command args as the project's
// installed program: its entry with its arguments, or, for a program the
// table does not know, the project's file (opaque-low).
func (inv *invocation) runInstalled(entry *effects.Program, args []field) {
	w := inv.w
	if entry == nil {
		w.allKnown = false
		w.add(w.part(inv.at, effects.OpaqueLow, args[0].value, fmt.Sprintf("`%s` runs the project's installed program %s, which is not inspected", inv.text, args[0].value)))
		return
	}
	inv.carry(args, inv.red.input())
}
