package classifier

import "path"

// The permission-rule store (SPEC §5.6) is what its paths resolve to, not
// how they are spelled. Besides the names that always belong to it (see
// [walker.isRuleStore]), the store has concrete members: the paths of
// [Options.RuleStore] and [Options.Binaries], and the settings files of each
// workspace root. On the first write, move or deletion a command makes, each
// member is resolved once on the filesystem, symlinks followed (dangling
// ones too), and its identity taken where the filesystem has one. A path
// the command changes is then a rule-store path when it
//
//   - is a member's resolved path or under it (a symlink to the member, the
//     member a symlink into the workspace, `..` that leads there);
//   - is the same file as an existing member (a hard link, a bind mount of
//     its directory), or a new file in a member's directory seen through
//     such an alias and named like the member;
//   - contains a member (deleting or moving a directory above it), by
//     resolved path or by the identity of the member's directories.
//
// Commands that write nothing never get here, so they cost no system call.
// The resolution is not cached between classifications: the store can be
// replaced at any moment (an editor saving its settings makes a new file),
// and a stale identity would miss a hard link made since.

// storeMember is one concrete path of the rule store, resolved.
type storeMember struct {
	name   string // as given: `/home/u/.config/Code/User/settings.json`
	path   string // physical: symlinks on the way followed
	exists bool
	dir    bool   // an existing directory
	id     FileID // identity of the existing member, when hasID
	hasID  bool
	dirID  FileID // identity of the physical parent directory, when hasDir
	hasDir bool
}

// ruleStore is the resolved store of one classification.
type ruleStore struct {
	members []storeMember
	ids     map[FileID]int // existing members by identity
	dirIDs  map[FileID]int // existing directory members by identity
	// anyID: some member or member's directory has an identity, so paths
	// are compared by identity too.
	anyID bool
	// ancestors are the identities of every directory above a member's
	// resolved path, built on the first deletion or move of a directory.
	ancestors     map[FileID]int
	ancestorsDone bool
}

// workspaceStoreFiles are the settings files of a workspace root that belong
// to the store: VS Code's and the hooked agents' project files.
var workspaceStoreFiles = []string{".vscode/settings.json", ".claude/settings.json", ".claude/settings.local.json",
	".cursor/hooks.json", ".gemini/settings.json"}

// resolveMember resolves one member on the filesystem.
func (w *walker) resolveMember(name string) storeMember {
	saved := w.resolutions
	defer func() { w.resolutions = saved }() // the gate's own lookups are not the command's budget
	r := w.evalPrefixOf(name)
	m := storeMember{name: name, path: r.path, exists: r.exists}
	if r.exists {
		m.id, m.hasID = w.idOf(r.path)
		// A directory member matters only with identities (a bind mount of
		// it); without them its resolved path says everything.
		m.dir = m.hasID && w.evalPrefixOf(r.path).dir
	}
	if m.path != "/" {
		m.dirID, m.hasDir = w.idOf(dirOf(m.path))
	}
	return m
}

// ruleStoreMembers returns the resolved store, resolving it on first use.
func (w *walker) ruleStoreMembers() *ruleStore {
	if w.store != nil {
		return w.store
	}
	n := len(w.opts.RuleStore) + len(w.opts.Binaries) + len(w.roots())*len(workspaceStoreFiles)
	s := &ruleStore{members: make([]storeMember, 0, n)}
	w.store = s
	// The members' directories join the resolution cache: grow it once.
	if len(w.evalCache) < 4*n {
		c := make(map[string]prefix, len(w.evalCache)+4*n)
		for k, v := range w.evalCache {
			c[k] = v
		}
		w.evalCache = c
	}
	add := func(p string) {
		p = w.placed(p) // the roots and (on Windows) the store are converted already
		if p == "" {
			return
		}
		for i := range s.members {
			if w.same(s.members[i].name, p) {
				return
			}
		}
		m := w.resolveMember(p)
		s.members = append(s.members, m)
		s.anyID = s.anyID || m.hasID || m.hasDir
		if !m.hasID {
			return
		}
		if s.ids == nil {
			s.ids = make(map[FileID]int, n)
		}
		s.ids[m.id] = len(s.members) - 1
		if m.dir {
			if s.dirIDs == nil {
				s.dirIDs = map[FileID]int{}
			}
			s.dirIDs[m.id] = len(s.members) - 1
		}
	}
	for _, p := range w.opts.RuleStore {
		add(p)
	}
	for _, p := range w.opts.Binaries {
		add(p)
	}
	for _, r := range w.roots() {
		for _, f := range workspaceStoreFiles {
			add(joinPath(r, f))
		}
	}
	return s
}

// storeHolds reports whether physical path p is a rule-store member or
// inside one, by resolved path or by identity, and which member.
func (w *walker) storeHolds(p string) (string, bool) {
	s := w.ruleStoreMembers()
	for _, m := range s.members {
		if w.under(p, m.path) {
			return m.name, true
		}
	}
	if !s.anyID {
		return "", false // the filesystem tells no identities
	}
	if id, ok := w.idOf(p); ok {
		if i, ok := s.ids[id]; ok {
			return s.members[i].name, true
		}
	} else if p != "/" {
		// A new file: the member's name in the member's directory, reached
		// through another name of that directory (a bind mount).
		if did, ok := w.idOf(dirOf(p)); ok {
			base := path.Base(p)
			for _, m := range s.members {
				if m.hasDir && m.dirID == did && w.same(path.Base(m.path), base) {
					return m.name, true
				}
			}
		}
	}
	if len(s.dirIDs) > 0 {
		// Inside a member directory seen through another name.
		for q := dirOf(p); ; q = dirOf(q) {
			if id, ok := w.idOf(q); ok {
				if i, ok := s.dirIDs[id]; ok {
					return s.members[i].name, true
				}
			}
			if q == "/" {
				break
			}
		}
	}
	return "", false
}

// storeWithin reports whether physical path p is a directory above a
// rule-store member (deleting or moving it takes the member along), and
// which member.
func (w *walker) storeWithin(p string) (string, bool) {
	s := w.ruleStoreMembers()
	for _, m := range s.members {
		if w.under(m.path, p) {
			return m.name, true
		}
	}
	id, ok := w.idOf(p)
	if !ok {
		return "", false
	}
	if !s.ancestorsDone {
		s.ancestorsDone = true
		s.ancestors = map[FileID]int{}
		seen := map[string]bool{}
		for i, m := range s.members {
			// Members share their upper directories: stop at one seen.
			for q := dirOf(m.path); q != "/" && q != "." && !seen[q]; q = dirOf(q) {
				seen[q] = true
				if aid, ok := w.idOf(q); ok {
					s.ancestors[aid] = i
				}
			}
		}
	}
	if i, ok := s.ancestors[id]; ok {
		return s.members[i].name, true
	}
	return "", false
}

// locateChange is [walker.locate] for a path the command writes, moves or
// deletes: rule-store members are also found through aliases. A workspace
// root keeps its own rule (deleting a root is refused as such), and home
// and system paths are only upgraded when they are a member themselves,
// not when they merely contain one (`rm -rf ~` is a deletion of the home).
func (w *walker) locateChange(p string) location {
	loc := w.locate(p)
	switch loc {
	case locUnknown, locRuleStore, locRoot:
		return loc
	}
	if m, ok := w.storeHolds(p); ok {
		w.noteAlias(p, m)
		return locRuleStore
	}
	if loc == locInside || loc == locOutside {
		if m, ok := w.storeWithin(p); ok {
			w.noteAlias(p, m)
			return locRuleStore
		}
	}
	return loc
}

// noteAlias remembers that p is (or holds) rule-store member m, for the
// reason; nothing is noted when p is m as spelled.
func (w *walker) noteAlias(p, m string) {
	if p == m {
		return
	}
	if w.storeAlias == nil {
		w.storeAlias = map[string]string{}
	}
	w.storeAlias[p] = m
}

// gateBinary reports, for a program named by a path, whether it resolves
// (in some candidate working directory) to one of the gate's binaries, or
// is the same file as one, and whether it resolves to something else in
// another candidate; dirs are the directories it runs from.
func (w *walker) gateBinary(prog string, dirs []string) (gate, other bool) {
	if len(w.opts.Binaries) == 0 {
		return false, true
	}
	if !w.binDone {
		w.binDone = true
		for _, b := range w.opts.Binaries {
			if b = w.absPath(b); b != "" {
				w.binaries = append(w.binaries, w.resolveMember(b))
			}
		}
	}
	for _, p := range w.resolveIn(prog, false, dirs) {
		if p != "" && w.isBinary(p) {
			gate = true
		} else {
			other = true
		}
	}
	return gate, other
}

// isBinary reports whether physical path p is one of the gate's binaries
// or the same file as one.
func (w *walker) isBinary(p string) bool {
	looked := false
	var id FileID
	var hasID bool
	for _, b := range w.binaries {
		if w.same(p, b.path) {
			return true
		}
		if !b.hasID {
			continue
		}
		if !looked {
			looked = true
			id, hasID = w.idOf(p)
		}
		if hasID && id == b.id {
			return true
		}
	}
	return false
}
