package classifier

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"
)

// Platform is the operating system a command runs on (SPEC §1: path
// semantics follow it). It decides how a path is spelled and matched.
type Platform int

const (
	// Linux: POSIX paths, matched case-sensitively. The zero value, and the
	// platform of every system this table does not name.
	Linux Platform = iota // linux
	// Darwin: POSIX paths, matched case-insensitively (ASCII letters), as
	// macOS's default file system (APFS, case-insensitive) finds them.
	Darwin // darwin
	// Windows: Git Bash/MSYS. A path may be a drive path in either slash
	// style (`C:\Users\me`, `C:/Users/me`), a drive mount (`/c/Users/me`), a
	// UNC path (`\\server\share\x`), or `%USERPROFILE%\x` (home); it is
	// matched case-insensitively. MSYS's own tree (`/tmp`, `/usr`), a
	// drive-relative `C:x`, other `%VAR%` and `\\?\` forms, trailing dots
	// and spaces and 8.3 short names (`PROGRA~1`) cannot be placed: they are
	// unknown, never inside. C:\Windows, C:\Program Files* and C:\ProgramData
	// are system paths.
	Windows // windows
)

// PlatformOf is the platform of a Go GOOS value (runtime.GOOS): "windows",
// "darwin" (and "ios"), and Linux for every other.
func PlatformOf(goos string) Platform {
	switch goos {
	case "windows":
		return Windows
	case "darwin", "ios":
		return Darwin
	}
	return Linux
}

// String is the platform's GOOS spelling.
func (p Platform) String() string {
	switch p {
	case Darwin:
		return "darwin"
	case Windows:
		return "windows"
	}
	return "linux"
}

// The classifier's own spelling of a Windows path is a POSIX one: a drive
// path is its drive mount with the letter in lower case (`C:\Users\me` is
// `/c/Users/me`, as Git Bash spells it), and a UNC path is under the
// pseudo-directory /unc (`\\server\share\x` is `/unc/server/share/x`). Only
// winPath makes these from what a command says; the filesystem adapter
// (winFS) turns them back into Windows paths.

// uncRoot is the directory under which UNC paths live in the classifier's
// spelling of Windows paths.
const uncRoot = "/unc"

// pathText turns a path as the command names it into the classifier's
// spelling: unchanged on Linux and macOS; on Windows see [Windows]. ok is
// false when the path cannot be placed.
func (w *walker) pathText(p string) (string, bool) {
	if w.opts.Platform != Windows {
		return p, true
	}
	return winPath(p, w.opts.Home)
}

// winPath is [walker.pathText] on Windows; home is the home directory in the
// classifier's spelling ("" when unknown).
func winPath(p, home string) (string, bool) {
	if p == "" {
		return "", true
	}
	if hasEnvRef(p) {
		rest, ok := cutPrefixFold(p, "%USERPROFILE%")
		if !ok || home == "" || hasEnvRef(rest) {
			return "", false // %APPDATA%, %TEMP%, ...: not placeable
		}
		p = home + "/" + strings.TrimLeft(rest, `/\`)
	}
	p = strings.ReplaceAll(p, `\`, "/")
	switch {
	case strings.HasPrefix(p, "//"):
		// UNC: //server/share/rest; //./ and //?/ are device namespaces.
		parts := strings.SplitN(p[2:], "/", 3)
		if len(parts) < 2 || parts[0] == "" || parts[1] == "" || parts[0] == "." || parts[0] == "?" {
			return "", false
		}
		p = uncRoot + "/" + strings.Join(parts, "/")
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		if len(p) == 2 || p[2] != '/' {
			return "", false // C: and C:x are relative to drive C's own cwd
		}
		p = "/" + string(p[0]|0x20) + p[2:]
	case strings.HasPrefix(p, "/"):
		// Git Bash's drive mounts are /c, /d, ...: anything else is MSYS's
		// own tree (its /tmp, /usr, /etc, /home), which cannot be placed.
		if len(p) < 2 || p[1] < 'a' || p[1] > 'z' || len(p) > 2 && p[2] != '/' {
			return "", false
		}
	}
	if !winNamesPlaceable(p) {
		return "", false
	}
	return p, true
}

// winNamesPlaceable reports whether every component of p names what it
// says: Windows drops trailing dots and spaces (`Users.` is Users), and a
// component with `~DIGIT` may be an 8.3 short name of another (`PROGRA~1` is
// Program Files).
func winNamesPlaceable(p string) bool {
	for c := range strings.SplitSeq(p, "/") {
		if c == "" || c == "." || c == ".." {
			continue
		}
		if last := c[len(c)-1]; last == '.' || last == ' ' {
			return false
		}
		if i := strings.IndexByte(c, '~'); i >= 0 && i+1 < len(c) && c[i+1] >= '0' && c[i+1] <= '9' {
			return false
		}
	}
	return true
}

// hasEnvRef reports whether s holds a cmd.exe variable reference `%NAME%`.
func hasEnvRef(s string) bool {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(s[i+1:], '%')
		if j < 0 {
			return false
		}
		if j > 0 {
			return true
		}
		s = s[i+2:]
	}
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// absPath is a path the options give (cwd, workspace roots, home, the rule
// store) in the classifier's spelling, cleaned, or "" when it is not
// absolute or cannot be placed.
func (w *walker) absPath(p string) string {
	if w.opts.Platform == Windows {
		q, ok := winPath(p, w.opts.Home)
		if !ok {
			return ""
		}
		p = q
	}
	return cleanAbs(p)
}

// placed is [walker.absPath] for a path that may already be in the
// classifier's spelling (a workspace root newWalker converted, a store
// member joined to one): on Windows such a path under [uncRoot] is not
// converted again, which would fail (`/unc` is no drive) and lose it.
// Only for the gate's own paths, never for words of the command, where
// `/unc/...` is a directory of MSYS's tree.
func (w *walker) placed(p string) string {
	if w.opts.Platform == Windows && strings.HasPrefix(p, uncRoot+"/") {
		return cleanAbs(p)
	}
	return w.absPath(p)
}

// display is p, in the classifier's spelling, as the platform spells it
// for a reason: `C:\Windows\x` for /c/Windows/x on Windows.
func (w *walker) display(p string) string {
	if w.opts.Platform != Windows || p == "" {
		return p
	}
	if n, ok := (winFS{}).native(p); ok {
		return strings.ReplaceAll(n, "/", `\`)
	}
	return p
}

// foldCase reports whether paths are matched case-insensitively.
func (w *walker) foldCase() bool { return w.opts.Platform != Linux }

// under is [under] with the platform's case matching.
func (w *walker) under(p, dir string) bool {
	if !w.foldCase() {
		return under(p, dir)
	}
	if dir == "/" {
		return true
	}
	return len(p) >= len(dir) && asciiEqualFold(p[:len(dir)], dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// same reports whether two paths in the classifier's spelling are one name,
// with the platform's case matching.
func (w *walker) same(a, b string) bool {
	if !w.foldCase() {
		return a == b
	}
	return len(a) == len(b) && asciiEqualFold(a, b)
}

// caseKey is p as the platform's case matching compares it: p, or p in
// lower case (ASCII) where matching folds case. Its length is p's.
func (w *walker) caseKey(p string) string {
	if w.foldCase() {
		return asciiLower(p)
	}
	return p
}

// asciiEqualFold is strings.EqualFold for ASCII letters only: NTFS and APFS
// fold more, but a name they would take as another's is then only missed
// as inside the workspace (stricter), never taken for a system or store path
// it is not (those names are ASCII).
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if x == y {
			continue
		}
		if x|0x20 != y|0x20 || !isASCIILetter(x) || !isASCIILetter(y) {
			return false
		}
	}
	return true
}

// asciiLower lowers ASCII letters, keeping the length (so that indexes into
// the result are indexes into s).
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] |= 0x20
				}
			}
			return string(b)
		}
	}
	return s
}

// windowsSystem reports whether p, in the classifier's spelling of a
// Windows path, is a system path: a drive root and what is directly in it
// (as `/` and `/x` on Linux), the pseudo-directories of UNC paths, or on any
// drive Windows, Program Files (and Program Files (x86)) or ProgramData and
// what is under them.
func windowsSystem(p string) bool {
	if p == "/" || dirOf(p) == "/" {
		return true // a drive root, or /unc
	}
	if !strings.HasPrefix(p, uncRoot+"/") && dirOf(dirOf(p)) == "/" {
		return true // C:\x.txt, C:\Users
	}
	if rest, ok := strings.CutPrefix(p, uncRoot+"/"); ok {
		return !strings.Contains(rest, "/") // //server alone
	}
	if len(p) < 3 || p[2] != '/' {
		return false
	}
	rest := p[3:] // after /c/
	top, _, _ := strings.Cut(rest, "/")
	top = asciiLower(top)
	return top == "windows" || top == "programdata" || strings.HasPrefix(top, "program files")
}

// winProgramDir reports whether d, in the classifier's spelling of a
// Windows path, is under a drive's Windows or Program Files directory, where
// only an administrator installs programs: a program there is the system's
// (Git's usr\bin, System32). A drive root is no such directory.
func winProgramDir(d string) bool {
	if len(d) < 3 || d[0] != '/' || d[2] != '/' || strings.HasPrefix(d, uncRoot+"/") {
		return false
	}
	top, _, _ := strings.Cut(d[3:], "/")
	top = asciiLower(top)
	return top == "windows" || strings.HasPrefix(top, "program files")
}

// winFS presents a Windows filesystem to the classifier in its own
// spelling of paths: `/c/x` is asked as `C:/x`, `/unc/srv/share/x` as
// `//srv/share/x`, and the answers come back the same way.
type winFS struct{ fs FS }

// native is p in Windows' spelling; ok is false for what names no Windows
// path (/unc and /unc/server, which winFS presents as directories).
func (winFS) native(p string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, uncRoot+"/"); ok {
		if strings.Count(rest, "/") < 1 {
			return "", false
		}
		return "//" + rest, true
	}
	if len(p) >= 2 && p[0] == '/' && p[1] >= 'a' && p[1] <= 'z' && (len(p) == 2 || p[2] == '/') {
		if len(p) == 2 {
			return string(p[1]-0x20) + ":/", true
		}
		return string(p[1]-0x20) + ":" + p[2:], true
	}
	return "", false
}

// back is a Windows path the filesystem answered, in the classifier's
// spelling.
func (winFS) back(p string) (string, error) {
	q, ok := winPath(p, "")
	if !ok || !strings.HasPrefix(q, "/") {
		return "", &fs.PathError{Op: "evalsymlinks", Path: p, Err: fs.ErrInvalid}
	}
	return path.Clean(q), nil
}

// pseudoDir reports whether p is a directory winFS makes up: /unc and
// /unc/SERVER.
func pseudoDir(p string) bool {
	return p == uncRoot || strings.HasPrefix(p, uncRoot+"/") && !strings.Contains(p[len(uncRoot)+1:], "/")
}

func (f winFS) EvalSymlinks(p string) (string, error) {
	if pseudoDir(p) {
		return p, nil
	}
	n, ok := f.native(p)
	if !ok {
		return "", &fs.PathError{Op: "evalsymlinks", Path: p, Err: fs.ErrNotExist}
	}
	r, err := f.fs.EvalSymlinks(n)
	if err != nil {
		return "", err
	}
	return f.back(r)
}

func (f winFS) IsFile(p string) bool {
	n, ok := f.native(p)
	return ok && f.fs.IsFile(n)
}

func (f winFS) Lstat(p string) (fs.FileInfo, error) {
	if pseudoDir(p) {
		return pseudoInfo(path.Base(p)), nil
	}
	l, ok := f.fs.(lstatFS)
	n, native := f.native(p)
	if !ok || !native {
		return nil, &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	return l.Lstat(n)
}

func (f winFS) Readlink(p string) (string, error) {
	rl, ok := f.fs.(readlinkFS)
	n, native := f.native(p)
	if !ok || !native {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: fs.ErrInvalid}
	}
	t, err := rl.Readlink(n)
	if err != nil {
		return "", err
	}
	t = strings.ReplaceAll(t, `\`, "/")
	if strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "//") {
		return "", errors.New("a link to a path on the current drive cannot be placed")
	}
	if len(t) >= 2 && t[1] == ':' || strings.HasPrefix(t, "//") {
		return f.back(t)
	}
	return t, nil // relative to the link's directory
}

// pseudoInfo is the FileInfo of a directory winFS makes up.
type pseudoInfo string

func (i pseudoInfo) Name() string     { return string(i) }
func (pseudoInfo) Size() int64        { return 0 }
func (pseudoInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (pseudoInfo) ModTime() time.Time { return time.Time{} }
func (pseudoInfo) IsDir() bool        { return true }
func (pseudoInfo) Sys() any           { return nil }

// winPlainFS is [winFS] for a filesystem that has neither Lstat nor
// Readlink: the classifier then resolves with EvalSymlinks alone.
type winPlainFS struct{ f winFS }

func (f winPlainFS) EvalSymlinks(p string) (string, error) { return f.f.EvalSymlinks(p) }
func (f winPlainFS) IsFile(p string) bool                  { return f.f.IsFile(p) }
