package classifier

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// Code staged into the workspace by the line (SPEC §3 rules 11 and 12).
//
// A file inside the workspace is the project's code (opaque-low) because
// it was there before the command: a file the line itself writes with
// content the classifier does not know (runWritten inspects what it does
// know) holds whatever the writer brought in. Copied, moved or linked from
// outside the workspace (`cp /tmp/x x.sh; bash x.sh`), downloaded (`curl
// -o a.sh URL && sh a.sh`, `wget URL && sh a.sh`), extracted from an
// archive from elsewhere (`tar xf /tmp/a.tar && ./run.sh`) or computed from
// the line's own data (`base64 -d <<< X > x.sh`), it is code from
// elsewhere: running it is opaque-medium as `bash /tmp/x.sh` is, and
// opaque-high when it came from the network, as `curl URL | sh` is.
//
// What the line builds from the project (`go build -o app && ./app`, `make
// && ./a.out`) or copies from inside the workspace stays the project's.
// Provenance is over-approximated in the strict direction: anything that
// reads outside the workspace, reaches the network or runs code from
// elsewhere between the write and the run counts.

// stagedWrite is a path inside the workspace the line wrote with content
// the classifier does not know.
type stagedWrite struct {
	path string
	// tree: the write may put files below path (a copied or extracted
	// directory), which are staged too.
	tree bool
	// from is w.tick when the write, or the program making it, was seen:
	// what the line brought in from then on (w.imports) may be its content.
	from int
	// copy: a copy, move, link or extraction wrote it, which can put any
	// file of the project's there (a Makefile, a conftest.py).
	copy bool
	// fed: the writer read a pipe or a here-document: its output is
	// computed from data the classifier did not follow.
	fed bool
	// entry: an extraction or download into a directory, whose file names
	// are not known (`unzip /tmp/a.zip`, `wget URL`); why says from where.
	entry bool
	why   string
	net   bool
	// owner is w.invAt of the program that wrote it: its own run does not
	// count (`cmake ..` writes the build tree it runs in).
	owner int
}

// importMark is content the line brings in at a point of its walk: a
// network part, code that is not inspected, or a read, which brings content
// from elsewhere only when it is outside the workspace. Its reason is made
// when asked (importWhy): locating a read costs lstat calls, most reads
// are inside, and most lines run no staged file.
type importMark struct {
	at    int    // w.tick then
	text  string // the part's text (network, code)
	net   bool
	code  bool
	paths []string // what the read resolved to ("" not known)
	// read and dirs: a read not resolved yet, and the directories it is
	// resolved against (resolving costs lstat calls too).
	read string
	dirs []string
	// judged: why is made (from text, or paths located); "" for a read
	// inside the workspace, which brings in nothing.
	judged bool
	why    string
}

// noteImport records that the line, now, brings in content from elsewhere
// (text's network part, or code that is not inspected).
func (w *walker) noteImport(text string, net bool) {
	w.addImport(importMark{text: text, net: net, code: !net})
}

// addImport adds m at the next tick. Past maxImports it takes the place of
// a read found inside the workspace, or else of the oldest mark: a later
// mark covers every write an earlier one did.
func (w *walker) addImport(m importMark) {
	w.tick++
	m.at = w.tick
	if len(w.imports) < maxImports {
		w.imports = append(w.imports, m)
		return
	}
	if !m.net && !m.code {
		if w.judge(&m); m.why == "" {
			return // inside: nothing brought in
		}
	}
	oldest := 0
	for i := range w.imports {
		if w.judge(&w.imports[i]); w.imports[i].why == "" {
			w.imports[i] = m
			return
		}
		if w.imports[i].at < w.imports[oldest].at {
			oldest = i
		}
	}
	w.imports[oldest] = m
}

// judge makes m's reason.
func (w *walker) judge(m *importMark) {
	if m.judged {
		return
	}
	m.judged = true
	switch {
	case m.net:
		m.why = "downloaded by `" + brief(m.text) + "`"
	case m.code:
		m.why = "produced by `" + brief(m.text) + "`, code that is not inspected"
	default:
		if m.paths == nil {
			m.paths = w.resolveIn(m.read, false, m.dirs)
		}
		for _, x := range m.paths {
			if l := w.locate(x); l != locInside && l != locRoot && l != locRuleStore {
				where := "a path only known at run time"
				if x != "" {
					where = w.describe(x, l)
				}
				m.why = "read from " + where
				return
			}
		}
	}
}

// importWhy is the reason of w.imports[i] ("" when it brings in nothing).
func (w *walker) importWhy(i int) string {
	w.judge(&w.imports[i])
	return w.imports[i].why
}

// maxImports bounds w.imports; staged writes are bounded the same way.
const maxImports = 64

// noteReadFrom records a read of v (resolved as p, or when asked against
// the directories of now when p is nil):
// content from elsewhere when it is outside the workspace.
func (w *walker) noteReadFrom(v string, p []string) {
	if v == "" || v == "-" {
		return
	}
	if p == nil {
		// w.cwd is replaced when the shell moves, never changed in place.
		w.addImport(importMark{read: v, dirs: w.cwd})
		return
	}
	w.addImport(importMark{paths: p})
}

// stage records a write of p (inside the workspace) with content the
// classifier does not know.
func (w *walker) stage(p string) {
	if p == "" || len(w.staged) >= maxImports {
		return
	}
	w.tick++
	from := w.tick
	if w.invAt > 0 {
		from = w.invAt // what the writer reads counts, before or after
	}
	if w.copyInto != nil && w.exists(p) && !w.fs().IsFile(p) {
		// `cp /tmp/x.json testdata/`: the sources land in the directory
		// under their own names.
		for _, n := range w.copyInto {
			if n != "" && len(w.staged) < maxImports {
				w.staged = append(w.staged, stagedWrite{path: joinPath(p, n), tree: true, copy: true, from: from, fed: w.fed, owner: w.invAt})
			}
		}
		return
	}
	w.staged = append(w.staged, stagedWrite{path: p, tree: w.copying || w.fetching, copy: w.copying, from: from, fed: w.fed, owner: w.invAt})
}

// baseNames are the last names of the sources a copy puts into a
// directory, "" for one only known at run time.
func baseNames(sources []field) []string {
	names := make([]string, 0, len(sources))
	for _, s := range sources {
		n := ""
		if !s.dynamic && !s.glob {
			n = path.Base(strings.TrimRight(s.value, "/"))
		}
		if n == "" || n == "." || n == ".." || n == "/" {
			return nil // a directory's contents: the directory itself
		}
		names = append(names, n)
	}
	return names
}

// stageDirs records the extraction or download of files with names not
// known into dirs, from where why says.
func (w *walker) stageDirs(dirs []string, why string, net bool) {
	for _, d := range dirs {
		if d != "" && len(w.staged) < maxImports {
			w.tick++
			w.staged = append(w.staged, stagedWrite{path: d, tree: true, from: w.tick, entry: true, why: why, net: net, owner: w.invAt})
		}
	}
}

// stagedOrigin reports where the content of s came from, or "" when it is
// the project's own; net: from the network.
func (w *walker) stagedOrigin(s stagedWrite) (why string, net bool) {
	if s.owner != 0 && s.owner == w.invAt {
		return "", false // the program that wrote it, running now
	}
	if s.entry {
		return s.why, s.net
	}
	for i, m := range w.imports {
		if m.at > s.from {
			if y := w.importWhy(i); y != "" && why == "" {
				why = y
			}
			net = net || m.net
		}
	}
	if why == "" && s.fed {
		why = "computed from its input, which is not inspected"
	}
	return why, net
}

// stagedFile reports, for a file p run as code, the staged write that put
// it there with content from elsewhere ([stagedWrite]).
func (w *walker) stagedFile(p string) (why string, net bool) {
	if p == "" {
		return "", false
	}
	for _, s := range w.staged {
		if !w.same(p, s.path) && !(s.tree && w.under(p, s.path)) {
			continue
		}
		if why, net := w.stagedOrigin(s); why != "" {
			return why, net
		}
	}
	return "", false
}

// stagedDir reports, for a directory d whose code a program runs (make's
// Makefile, npm's package.json, pytest's conftest.py), a copy or an
// extraction from elsewhere that put d itself, a directory holding it or a
// file directly in it there.
func (w *walker) stagedDir(d string) string {
	if d == "" {
		return ""
	}
	for _, s := range w.staged {
		if !s.copy && !(s.entry && !s.net) {
			// A file written, downloaded or pulled is data until something
			// runs it; a copy or an extraction can bring in any file the
			// project's tools read as code.
			continue
		}
		if !w.same(d, s.path) && !w.under(d, s.path) && !w.same(dirOf(s.path), d) {
			continue
		}
		if why, _ := w.stagedOrigin(s); why != "" {
			return w.display(s.path) + ", written earlier in the line with content " + why
		}
	}
	return ""
}

// stagedRun adds the part of running p, a file inside the workspace, as
// code staged from elsewhere, and reports whether it did; the caller
// adds its opaque-low part otherwise.
func (w *walker) stagedRun(p Part, files []string) bool {
	for _, f := range files {
		why, net := w.stagedFile(f)
		if why == "" {
			continue
		}
		w.allKnown = false
		p.Class = effects.OpaqueMedium
		if net {
			p.Class = effects.OpaqueHigh
		}
		p.Reason = fmt.Sprintf("`%s` runs %s, which the line wrote earlier with content %s", brief(p.Text), w.display(f), why)
		w.add(p)
		return true
	}
	return false
}

// remoteOperand reports whether v names something fetched over the
// network (`https://x/a.sh`, `git@host:r.git`).
func remoteOperand(v string) bool {
	return remoteCode(v) || strings.Contains(v, "://")
}

// stageEntry records the files an invocation writes without naming them
// (its entry's or a flag's write-inside effect, not a path): a download of
// a URL operand into its directory (`wget URL`, `curl -O URL`, `git clone
// URL`) writes the URL's last name there; an extraction or a build from
// something outside the workspace (`tar xf /tmp/a.tar`, `unzip /tmp/a.zip`,
// `curl URL | tar x`, `patch -i /tmp/p`) may write any file below it.
func (inv *invocation) stageEntry() {
	w := inv.w
	if !slices.Contains(inv.classes, effects.WriteInside) || inv.pathDriven() || len(inv.flagWrites) > 0 {
		return
	}
	for _, o := range inv.operands {
		if o.dynamic || !remoteOperand(o.value) {
			continue
		}
		name := o.value
		if i := strings.IndexAny(name, "?#"); i >= 0 {
			name = name[:i]
		}
		name = path.Base(strings.TrimRight(name, "/"))
		if name == "" || name == "." || name == "/" || strings.Contains(name, ":") {
			continue
		}
		for _, d := range inv.dirs {
			for _, n := range []string{name, strings.TrimSuffix(name, ".git")} {
				w.stageDirs([]string{joinPath(d, n)}, "downloaded from "+o.value, true)
			}
		}
	}
	why := ""
	if inv.red.stdin == stdinPipe || inv.red.stdinDyn {
		why = "extracted from its input, which is not inspected"
	}
	for i, m := range w.imports {
		if w.invAt > 0 && m.at > w.invAt && !m.net && why == "" {
			why = w.importWhy(i)
		}
	}
	if why != "" {
		w.stageDirs(inv.dirs, why, false)
	}
}
