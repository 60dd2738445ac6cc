package classifier

import (
	"fmt"
	"path"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// Links made by the command itself. Paths are resolved against the
// filesystem as it is before the command runs, so `ln -s ~ h && rm -rf h/`
// would see h/ as a new directory in the workspace while it deletes the home
// directory. The walker therefore remembers the paths the command makes
// links (entries and flags with Links: `ln`, `cp -s`) or copies or moves
// links to (`mv link x`), and every path it writes or deletes. When the walk
// is done, a write or deletion through one of those links, or a `..` taken
// from one, is refused: where it lands cannot be known before running.
// Order does not matter (a loop runs its body again), so a path written
// before the link is made counts too.
//
// Not covered: links that come out of content the classifier cannot see,
// such as archives (`tar -x`, `unzip`), clones and checkouts, or a symlink
// inside a directory tree copied with `cp -r`.

// linkPath is a path the command makes a link, or a directory it puts links
// in (only what is under it is unknown, not the directory itself).
type linkPath struct {
	path  string
	inDir bool
}

// touch is a write or deletion of a resolved path, kept for the link check.
type touch struct {
	path string
	part Part // Class and Refusal are those of a write or a deletion
	del  bool
}

// addLink records that p (resolved, "" when unknown) becomes a link, or,
// with inDir, that links are made in the directory p.
func (w *walker) addLink(p string, inDir bool) {
	if p == "" {
		w.linksUnknown = true
		return
	}
	w.links = append(w.links, linkPath{p, inDir})
}

// throughLink reports whether resolved path p lies on or under a path the
// command makes a link.
func (w *walker) throughLink(p string) bool {
	if w.linksUnknown {
		return true
	}
	for _, l := range w.links {
		if w.under(p, l.path) && !(l.inDir && w.same(p, l.path)) {
			return true
		}
	}
	return false
}

// touch records a write or deletion of resolved path p by part.
func (w *walker) touch(p string, part Part, del bool) {
	if p != "" && !w.noTouch {
		w.touched = append(w.touched, touch{path: p, part: part, del: del})
	}
}

// isLink reports whether operand value, taken in each of dirs, names a
// symlink now or a path the command makes a link. Unknown is a link.
func (w *walker) isLink(value string, dirs []string) bool {
	value, ok := w.pathText(value)
	if !ok {
		return true
	}
	for _, d := range dirs {
		p := value
		if !path.IsAbs(p) {
			if d == "" {
				return true
			}
			p = joinPath(d, p)
		}
		p = path.Clean(p)
		if p == "/" {
			continue
		}
		if w.resolutions >= maxResolutions {
			return true
		}
		parent := w.evalPrefix(dirOf(p))
		full := w.evalPrefix(p)
		if !w.same(full, joinPath(parent, path.Base(p))) || w.throughLink(full) {
			return true
		}
	}
	return false
}

// makesLinks reports whether an invocation of a CopyPaths or MovePaths
// program makes links: a link maker always, a copy or move when a source is
// a link or unknown (a glob, a run-time value).
func (inv *invocation) makesLinks(sources []field) bool {
	if inv.links {
		return true
	}
	for _, s := range sources {
		if s.dynamic || s.glob || inv.w.isLink(s.value, inv.dirs) {
			return true
		}
	}
	return false
}

// recordLinks records where the links of an invocation that makes them
// land: in the -t directory, in dest when it is a directory, or at dest.
// single says that the only operand is both source and destination (`ln -s
// TARGET` makes a link named like TARGET in the working directory).
func (inv *invocation) recordLinks(sources []field, dest *field, single bool) {
	w := inv.w
	if t := inv.target; t != nil {
		if t.value == nil || t.value.dynamic {
			w.addLink("", true)
			return
		}
		for _, p := range w.resolveIn(t.value.value, t.value.glob, inv.dirs) {
			w.addLink(p, true)
		}
		return
	}
	if dest == nil {
		return
	}
	if dest.dynamic {
		w.addLink("", false)
		return
	}
	value := dest.value
	if inv.links && single {
		value = path.Base(value)
	}
	many := len(sources) > 1 || strings.HasSuffix(value, "/")
	for _, s := range sources {
		many = many || s.glob
	}
	for _, p := range w.resolveIn(value, dest.glob, inv.dirs) {
		// Into a directory, the links land under it; otherwise dest is one.
		w.addLink(p, p != "" && !single && (many || w.exists(p) && !w.fs().IsFile(p)))
	}
}

// linkRefusals refuses the writes and deletions through links the command
// makes (see the top of this file).
func (w *walker) linkRefusals() {
	if len(w.links) == 0 && !w.linksUnknown {
		return
	}
	for _, t := range w.touched {
		if !w.throughLink(t.path) {
			continue
		}
		p := t.part
		verb := "writes"
		p.Class, p.Refusal = effects.WriteOutside, effects.WriteProtectedPath // a write to an unknown place
		if t.del {
			verb = "deletes"
			p.Class, p.Refusal = effects.Deletion, effects.DeleteOutsideWorkspace
		}
		p.Reason = fmt.Sprintf("`%s` %s %s, and the command makes that path a link (or puts one on its way), so where it lands cannot be known before running", brief(p.Text), verb, t.path)
		w.add(p)
	}
	for _, d := range w.dotdots {
		if w.throughLink(d) {
			w.add(Part{Class: effects.WriteOutside, Text: w.orig, Start: 0, End: len(w.orig), Refusal: effects.WriteProtectedPath,
				Reason: fmt.Sprintf("a path of the command climbs out of %s with `..`, and the command makes that path a link, so where it leads cannot be known before running", d)})
			return
		}
	}
}
