package classifier

import (
	"os"
	"path"
	"strings"
)

// maxDirNames bounds the names read from one directory to tell whether a
// glob may expand to an option: a directory with more is taken to have one.
const maxDirNames = 4096

// dirNamesFS is implemented by filesystems that list directories (the real
// one): without it a glob's matches are taken for file names, never options.
type dirNamesFS interface {
	// DirNames returns at most max names of the entries of dir.
	DirNames(dir string, max int) ([]string, error)
}

// DirNames lists at most max names of dir, without following it if it is
// not a directory.
func (osFS) DirNames(dir string, max int) ([]string, error) {
	f, err := openNoBlock(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return nil, os.ErrInvalid
	}
	return f.Readdirnames(max)
}

// DirNames is the filesystem's, asked in Windows' spelling.
func (f winFS) DirNames(dir string, max int) ([]string, error) {
	d, ok := f.fs.(dirNamesFS)
	n, native := f.native(dir)
	if !ok || !native {
		return nil, os.ErrInvalid
	}
	return d.DirNames(n, max)
}

// globMayBeOption reports whether the unquoted glob pattern may expand to
// a word that starts with `-`, an option of the program it is given to:
// its first segment starts with a wildcard and a name that starts with `-`
// in the directory it runs in matches it (a cloned repository can ship
// files named `-delete` or `--pre=x.sh`: `find *`, `rg x *`). The
// directory is listed where the filesystem can (one read per directory, at
// most maxDirNames names; more, or a directory only known at run time,
// counts as a match).
func (w *walker) globMayBeOption(pattern string, dirs []string) bool {
	seg, _, _ := strings.Cut(pattern, "/")
	if seg == "" || !strings.ContainsAny(seg[:1], "*?[") {
		return false // a literal start: an option would be one as typed
	}
	lister, ok := w.fs().(dirNamesFS)
	if !ok {
		if l, plain := w.fs().(winPlainFS); plain {
			lister, ok = l.f, true
		}
	}
	if !ok {
		return false
	}
	for _, d := range dirs {
		if d == "" {
			return true
		}
		names, many := w.dashNames(lister, d)
		if many {
			return true
		}
		for _, n := range names {
			if m, err := path.Match(seg, n); m || err != nil {
				return true
			}
		}
	}
	return false
}

// dashNames returns the names in dir that start with `-`, read once per
// command (`rg x * *` lists the directory once); many says dir holds more
// than maxDirNames names, which are not all read.
func (w *walker) dashNames(lister dirNamesFS, dir string) (names []string, many bool) {
	if l, ok := w.dashDirs[dir]; ok {
		return l.names, l.many
	}
	var l dashList
	all, err := lister.DirNames(dir, maxDirNames+1)
	if err == nil { // an error: nothing to expand to
		l.many = len(all) > maxDirNames
		for _, n := range all {
			if strings.HasPrefix(n, "-") {
				l.names = append(l.names, n)
			}
		}
	}
	if w.dashDirs == nil {
		w.dashDirs = map[string]dashList{}
	}
	w.dashDirs[dir] = l
	return l.names, l.many
}

// dashList is what [walker.dashNames] read from one directory.
type dashList struct {
	names []string
	many  bool
}
