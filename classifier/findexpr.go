package classifier

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// find's expression (after the start points) parsed into a tree, and read
// abstractly for one kind of file at a time: which actions can be reached
// for the start path itself (issue 13 point 9: `find .. -name '*.pyc'
// -delete` from a subdirectory of the root does not delete the root), and
// for a file below it that holds stored credentials (SPEC §5.5: `find .
// -name '.env*' -exec curl -F f=@{} ...`). Every test either says what it
// knows about that kind of file or says "maybe"; anything not understood
// (an unknown primary, a word only known at run time, unbalanced
// parentheses) makes every action reachable.

// findNode is a node of find's expression.
type findNode struct {
	op   byte // 'a' and, 'o' or, ',' comma, '!' not, 'p' primary
	x, y *findNode
	name string  // the primary: "-name", "-exec", ...
	args []field // its arguments
	at   int     // the primary's index in the words find was given
}

// findExpr is a parsed expression.
type findExpr struct {
	root    *findNode
	bad     bool // not understood: every action may run on every file
	actions bool // it has an action other than -prune (no implicit -print)
	// mindepth is the literal -mindepth (-1 when only known at run
	// time); maxdepth0 says -maxdepth 0.
	mindepth  int
	maxdepth0 bool
}

// findArity is how many words each known primary takes; -exec and its
// relatives take words up to `;` or `+`.
var findArity = map[string]int{
	"-print": 0, "-print0": 0, "-ls": 0, "-delete": 0, "-prune": 0, "-quit": 0, "-true": 0, "-false": 0,
	"-empty": 0, "-executable": 0, "-readable": 0, "-writable": 0, "-nouser": 0, "-nogroup": 0,
	"-depth": 0, "-d": 0, "-xdev": 0, "-mount": 0, "-follow": 0, "-noleaf": 0, "-ignore_readdir_race": 0,
	"-noignore_readdir_race": 0, "-daystart": 0, "-nowarn": 0, "-warn": 0, "-help": 0, "--help": 0, "-version": 0, "--version": 0,
	"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1, "-iregex": 1,
	"-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1, "-user": 1, "-group": 1, "-uid": 1, "-gid": 1, "-perm": 1,
	"-size": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1, "-mtime": 1, "-atime": 1, "-ctime": 1, "-mmin": 1,
	"-amin": 1, "-cmin": 1, "-used": 1, "-links": 1, "-inum": 1, "-samefile": 1, "-fstype": 1, "-context": 1,
	"-maxdepth": 1, "-mindepth": 1, "-regextype": 1, "-fprint": 1, "-fprint0": 1, "-fls": 1, "-printf": 1,
	"-files0-from": 1, "-fprintf": 2,
	"-exec": -1, "-execdir": -1, "-ok": -1, "-okdir": -1,
}

// findActions are the primaries that are actions (POSIX: with one of
// them find does not add -print).
var findActions = map[string]bool{
	"-print": true, "-print0": true, "-ls": true, "-delete": true, "-quit": true, "-fprint": true, "-fprint0": true,
	"-fls": true, "-printf": true, "-fprintf": true, "-exec": true, "-execdir": true, "-ok": true, "-okdir": true,
}

// parseFindExpr parses words (find's arguments from the first expression
// word on); base is the index of words[0] among all of find's arguments.
func parseFindExpr(words []field, base int) *findExpr {
	x := &findExpr{}
	p := findParser{words: words, base: base, x: x}
	if len(words) > 0 {
		x.root = p.comma()
		if p.i < len(words) {
			x.bad = true
		}
	}
	if x.root == nil && len(words) > 0 {
		x.bad = true
	}
	return x
}

type findParser struct {
	words []field
	i     int
	base  int
	x     *findExpr
}

func (p *findParser) peek() string {
	if p.i < len(p.words) {
		return p.words[p.i].value
	}
	return ""
}

func (p *findParser) comma() *findNode {
	n := p.or()
	for n != nil && p.i < len(p.words) && p.peek() == "," && !p.words[p.i].dynamic {
		p.i++
		n = &findNode{op: ',', x: n, y: p.or()}
		if n.y == nil {
			return nil
		}
	}
	return n
}

func (p *findParser) or() *findNode {
	n := p.and()
	for n != nil && p.i < len(p.words) && (p.peek() == "-o" || p.peek() == "-or") && !p.words[p.i].dynamic {
		p.i++
		n = &findNode{op: 'o', x: n, y: p.and()}
		if n.y == nil {
			return nil
		}
	}
	return n
}

func (p *findParser) and() *findNode {
	n := p.unary()
	for n != nil && p.i < len(p.words) {
		switch v := p.peek(); {
		case p.words[p.i].dynamic:
		case v == "-a" || v == "-and":
			p.i++
		case v == ")" || v == "," || v == "-o" || v == "-or":
			return n
		}
		n = &findNode{op: 'a', x: n, y: p.unary()}
		if n.y == nil {
			return nil
		}
	}
	return n
}

func (p *findParser) unary() *findNode {
	if p.i >= len(p.words) {
		return nil
	}
	w := p.words[p.i]
	if w.dynamic {
		return nil
	}
	switch w.value {
	case "!", "-not":
		p.i++
		x := p.unary()
		if x == nil {
			return nil
		}
		return &findNode{op: '!', x: x}
	case "(":
		p.i++
		x := p.comma()
		if x == nil || p.peek() != ")" || p.words[p.i].dynamic {
			return nil
		}
		p.i++
		return x
	}
	n, ok := findArity[w.value]
	if !ok && strings.HasPrefix(w.value, "-newer") && len(w.value) == len("-newerXY") {
		n, ok = 1, true // -newerXY REF
	}
	if !ok {
		return nil
	}
	at := p.i
	p.i++
	var args []field
	if n < 0 {
		for p.i < len(p.words) && p.words[p.i].value != ";" && p.words[p.i].value != "+" {
			args = append(args, p.words[p.i])
			p.i++
		}
		if p.i >= len(p.words) {
			return nil
		}
		p.i++
	} else {
		if p.i+n > len(p.words) {
			return nil
		}
		args = p.words[p.i : p.i+n]
		p.i += n
	}
	switch w.value {
	case "-mindepth":
		if args[0].dynamic {
			p.x.mindepth = -1
		} else if d := args[0].value; d != "0" && d != "" && isDigits(d) && p.x.mindepth >= 0 {
			p.x.mindepth = 1
		}
	case "-maxdepth":
		if !args[0].dynamic && strings.TrimLeft(args[0].value, "0") == "" && args[0].value != "" {
			p.x.maxdepth0 = true
		}
	}
	if findActions[w.value] {
		p.x.actions = true
	}
	return &findNode{op: 'p', name: w.value, args: args, at: p.base + at}
}

// tv is what a test may answer for a kind of file: true, false, or both.
type tv struct{ t, f bool }

var (
	tvTrue  = tv{t: true}
	tvFalse = tv{f: true}
	tvMaybe = tv{t: true, f: true}
)

// findSubject answers a primary for one kind of file.
type findSubject func(n *findNode) tv

// reach evaluates x for the kind of file s answers for and returns the
// indexes of the primaries that may run for it, and whether the whole
// expression may be true for it.
func (x *findExpr) reach(s findSubject) (reached map[int]bool, whole bool) {
	reached = map[int]bool{}
	if x.root == nil {
		return reached, true
	}
	v := x.eval(x.root, true, s, reached)
	return reached, v.t
}

func (x *findExpr) eval(n *findNode, reach bool, s findSubject, reached map[int]bool) tv {
	switch n.op {
	case 'a':
		a := x.eval(n.x, reach, s, reached)
		b := x.eval(n.y, reach && a.t, s, reached)
		return tv{t: a.t && b.t, f: a.f || a.t && b.f}
	case 'o':
		a := x.eval(n.x, reach, s, reached)
		b := x.eval(n.y, reach && a.f, s, reached)
		return tv{t: a.t || a.f && b.t, f: a.f && b.f}
	case ',':
		x.eval(n.x, reach, s, reached)
		return x.eval(n.y, reach, s, reached)
	case '!':
		a := x.eval(n.x, reach, s, reached)
		return tv{t: a.f, f: a.t}
	}
	if reach {
		reached[n.at] = true
	}
	switch n.name {
	case "-print", "-print0", "-ls", "-fprint", "-fprint0", "-fls", "-printf", "-fprintf", "-prune", "-true",
		"-depth", "-d", "-xdev", "-mount", "-follow", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race",
		"-daystart", "-nowarn", "-warn", "-maxdepth", "-mindepth", "-regextype", "-files0-from":
		return tvTrue
	case "-false":
		return tvFalse
	case "-quit":
		return tv{} // nothing after it runs
	}
	return s(n)
}

// mayReach reports whether the primary at index i may run for the kind of
// file s answers for.
func (x *findExpr) mayReach(i int, s findSubject) bool {
	if x.bad {
		return true
	}
	r, _ := x.reach(s)
	return r[i]
}

// rootSubject answers find's tests for the start path itself: names are
// its base names (as typed, `..`, and as resolved, `ws`; "" when one is not
// known), typed is the path as find prints it ("" when not known), and dir
// says whether it is known to be a directory. caseless: the filesystem
// matches names without case (macOS, Windows), so the name on disk may be
// spelled otherwise: a test whose answer depends on case is a maybe.
func rootSubject(names []string, typed string, dir, caseless bool) findSubject {
	match := func(pat string, names []string, o globOpts) tv {
		v := matchAll(pat, names, o)
		if caseless && !o.fold && v != matchAll(pat, names, globOpts{slash: o.slash, fold: true}) {
			return tvMaybe
		}
		return v
	}
	return func(n *findNode) tv {
		if len(n.args) == 0 || n.args[0].dynamic {
			return tvMaybe
		}
		v := n.args[0].value
		switch n.name {
		case "-name", "-iname":
			return match(v, names, globOpts{fold: n.name == "-iname"})
		case "-path", "-wholename", "-ipath", "-iwholename":
			if typed == "" {
				return tvMaybe
			}
			return match(v, []string{typed}, globOpts{slash: true, fold: n.name == "-ipath" || n.name == "-iwholename"})
		case "-type":
			if !dir {
				return tvMaybe
			}
			for _, t := range strings.Split(v, ",") {
				if t == "d" {
					return tvTrue
				}
				if len(t) != 1 || !strings.Contains("bcpflsD", t) {
					return tvMaybe // not a type GNU find knows
				}
			}
			return tvFalse
		}
		return tvMaybe
	}
}

// matchAll is a -name test for a file that has one of names: true when
// every name matches, false when none does.
func matchAll(pat string, names []string, o globOpts) tv {
	var v tv
	for _, name := range names {
		if name == "" {
			return tvMaybe
		}
		m, known := globMatch(pat, name, o)
		if !known {
			return tvMaybe
		}
		if m {
			v.t = true
		} else {
			v.f = true
		}
	}
	if !v.t && !v.f {
		return tvMaybe
	}
	return v
}

// credentialSubject answers find's tests for a file below the start path
// that holds stored credentials. anyName: the start is at or above a
// directory of them (`~`, `~/.ssh`), where they have any name.
func (w *walker) credentialSubject(anyName bool) findSubject {
	return func(n *findNode) tv {
		if len(n.args) == 0 || n.args[0].dynamic {
			return tvMaybe
		}
		v := n.args[0].value
		switch n.name {
		case "-name", "-iname":
			if anyName || w.credentialName(v, n.name == "-iname") {
				return tvMaybe
			}
			return tvFalse
		case "-path", "-wholename", "-ipath", "-iwholename":
			if anyName || w.credentialGlob(v, globOpts{slash: true, fold: n.name == "-ipath" || n.name == "-iwholename"}) {
				return tvMaybe
			}
			return tvFalse
		}
		return tvMaybe
	}
}

// homeCredentialDirs are the directories under home whose files are
// stored credentials whatever their names.
var homeCredentialDirs = []string{".ssh", ".aws", ".gnupg", ".kube", ".docker", ".password-store", ".config/gh", ".azure", ".config/gcloud", "Library/Keychains",
	".local/share/keyrings", ".config/github-copilot", ".config/sops", ".config/op", ".oci", ".config/doctl", ".config/rclone", ".config/glab-cli", ".kaggle"}

// credentialsAnyName reports whether files below the start s of a find
// (run in dirs) may be stored credentials whatever their names: s is at or
// above one of the home directories of them, inside one, or not known.
func (w *walker) credentialsAnyName(s field, dirs []string) bool {
	if s.dynamic || w.opts.Home == "" {
		return true
	}
	for _, p := range w.resolveIn(s.value, s.glob, dirs) {
		if p == "" {
			return true
		}
		for _, d := range homeCredentialDirs {
			d = w.opts.Home + "/" + d
			if w.under(d, p) || w.under(p, d) {
				return true
			}
		}
	}
	return false
}

// credentialSubjectOf is the kind of file "a stored credential below one
// of the starts": the most a name can be for any of them.
func (w *walker) credentialSubjectOf(starts []field, dirs []string) findSubject {
	anyName := false
	for _, s := range starts {
		anyName = anyName || w.credentialsAnyName(s, dirs)
	}
	return w.credentialSubject(anyName)
}

// startReaches reports whether find's expression x may run the primary at
// index i for the start path s itself: not with -mindepth 1 (or more), and
// not when a test before it rules s out by its name (as typed and as
// resolved), its path as find prints it, or its type (a directory).
func (inv *invocation) startReaches(x *findExpr, i int, s field) bool {
	if x == nil || x.bad || x.mindepth < 0 {
		return true
	}
	if x.mindepth > 0 {
		return false
	}
	w := inv.w
	typed, ok := w.pathText(s.value)
	if !ok || s.dynamic || s.glob {
		return x.mayReach(i, rootSubject([]string{""}, "", false, false))
	}
	names := []string{path.Base(typed)}
	dir := true
	for _, p := range w.resolveIn(s.value, false, inv.dirs) {
		if p == "" {
			names, dir = append(names, ""), false
			continue
		}
		names = append(names, path.Base(p))
		if !w.exists(p) || w.fs().IsFile(p) {
			dir = false // not known to be a directory
		}
	}
	return x.mayReach(i, rootSubject(names, s.value, dir, w.foldCase()))
}

// findExpr parses find's expression words (base: the index of words[0]
// among find's arguments) when an action needs it (-delete, -exec and its
// relatives) and records what the find hands on for §5.5; otherwise it
// returns nil and leaves the names the find prints to be judged only if an
// xargs or parallel asks ([walker.printedCredentials]).
func (inv *invocation) findExpr(words []field, base int, starts []field) *findExpr {
	w := inv.w
	for _, a := range words {
		switch a.value {
		case "-delete", "-exec", "-execdir", "-ok", "-okdir":
			x := parseFindExpr(words, base)
			inv.findCredentials(x, starts)
			return x
		}
	}
	if !w.credentialNames {
		dirs := inv.dirs
		w.pendingNames = append(w.pendingNames, func() bool { return w.findPrints(parseFindExpr(words, base), starts, dirs) })
	}
	return nil
}

// findCredentials records for §5.5 what find hands on: the files its
// -exec and -ok actions get as `{}`, and the names it prints, when they may
// be stored credentials. The names matter only to an xargs or parallel in
// the line, which asks then ([walker.printedCredentials]): most finds cost
// no comparison of patterns with credential names.
func (inv *invocation) findCredentials(x *findExpr, starts []field) {
	w := inv.w
	braces := false
	for _, a := range inv.args {
		braces = braces || strings.Contains(a.value, "{}")
	}
	dirs := inv.dirs
	if !braces {
		if !w.credentialNames {
			w.pendingNames = append(w.pendingNames, func() bool { return w.findPrints(x, starts, dirs) })
		}
		return
	}
	if w.credential != nil && w.credentialNames {
		return
	}
	note := func(reason string) {
		if w.credential == nil {
			w.noteCredential(inv.at, "find")
			w.credential.Reason = reason
		}
	}
	if x.bad {
		// Not understood: every action may get any file.
		note(fmt.Sprintf("`%s` hands its command files that may hold stored credentials", brief(inv.text)))
		w.credentialNames = true
		return
	}
	reached, _ := x.reach(w.credentialSubjectOf(starts, dirs))
	var walk func(n *findNode)
	walk = func(n *findNode) {
		if n == nil {
			return
		}
		walk(n.x)
		walk(n.y)
		if n.op != 'p' || !reached[n.at] {
			return
		}
		switch n.name {
		case "-exec", "-execdir", "-ok", "-okdir":
			for _, a := range n.args {
				if strings.Contains(a.value, "{}") {
					note(fmt.Sprintf("`%s` hands %s files that may hold stored credentials", brief(inv.text), n.name))
					return
				}
			}
		}
	}
	walk(x.root)
	if !w.credentialNames && w.findPrints(x, starts, dirs) {
		w.credentialNames = true
	}
}

// findPrints reports whether the find with expression x and starts (run
// in dirs) may print the name of a file that holds stored credentials.
func (w *walker) findPrints(x *findExpr, starts []field, dirs []string) bool {
	if x.bad {
		return true
	}
	reached, whole := x.reach(w.credentialSubjectOf(starts, dirs))
	if !x.actions && whole {
		return true // the implicit -print
	}
	var prints func(n *findNode) bool
	prints = func(n *findNode) bool {
		if n == nil {
			return false
		}
		if n.op == 'p' && reached[n.at] {
			switch n.name {
			case "-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls":
				return true
			}
		}
		return prints(n.x) || prints(n.y)
	}
	return prints(x.root)
}

// printedCredentials reports whether a find earlier in the line may print
// names of files that hold stored credentials.
func (w *walker) printedCredentials() bool {
	for _, f := range w.pendingNames {
		if w.credentialNames {
			break
		}
		w.credentialNames = f()
	}
	w.pendingNames = nil
	return w.credentialNames
}

// noteTree records for §5.5 a directory v (run in dirs) that a program
// copies or archives whole (`tar cz ~`, `rsync -a ~/ host:`): one at or
// above a home directory of stored credentials reads them.
func (w *walker) noteTree(n syntax.Node, v string, dirs []string) {
	if w.credential != nil || w.opts.Home == "" {
		return
	}
	for _, p := range w.resolveIn(v, false, dirs) {
		if p == "" {
			continue
		}
		for _, d := range homeCredentialDirs {
			if w.under(w.opts.Home+"/"+d, p) {
				w.noteCredential(n, v)
				w.credential.Reason = fmt.Sprintf("`%s` holds stored credentials (~/%s)", v, d)
				return
			}
		}
	}
}
