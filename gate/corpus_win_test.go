package gate_test

import (
	"io/fs"
	"path"
	"strings"
	"syscall"
	"testing"

	"github.com/ml-ai/command-safety/gate"
)

// The Windows environment of corpus files with `platform: windows` (Git
// Bash on Windows, testdata/commands/README.md): the options are given in
// Windows' spelling, and winCorpusFS is a case-insensitive filesystem that
// answers in Windows' spelling (backslashes, the case it was created with),
// as the real one does.
const (
	winCwd  = `C:\Users\u\ws`
	winHome = `C:\Users\u`
)

var winWorkspaces = []string{`C:\Users\u\ws`, `D:\other`}

// winStore is the installation's rule store on Windows.
var winStore = gate.Installation{
	Binaries:     []string{`C:\Users\u\AppData\Local\Programs\command-safety\command-safety.exe`},
	UserSettings: []string{`C:\Users\u\AppData\Roaming\Code\User\settings.json`, `C:\Users\u\AppData\Roaming\Cursor\User\settings.json`},
	AgentFiles:   []string{`C:\Users\u\.claude\settings.json`},
	Logs:         []string{`C:\Users\u\AppData\Local\ml-ai\decisions.db`},
}

// winEntries are the files ("f"), directories ("d") and links (a target)
// of winCorpusFS, keyed by their path in forward slashes; ancestors of a
// path exist as directories.
var winEntries = map[string]string{
	"C:/Users/u/ws/README.md": "f", "C:/Users/u/ws/.env": "f", "C:/Users/u/ws/src/App.ts": "f",
	"C:/Users/u/ws/.vscode/settings.json": "f", "C:/Users/u/ws/.git/hooks": "d", "C:/Users/u/ws/build": "d",
	"C:/Users/u/.ssh/id_rsa": "f", "C:/Users/u/.claude/settings.json": "f",
	"C:/Users/u/AppData/Roaming/Code/User/settings.json": "f", "C:/Users/u/AppData/Local/ml-ai/decisions.db": "f",
	"C:/Users/u/AppData/Local/Temp": "d", "C:/Users/u/AppData/Local/Programs/command-safety/command-safety.exe": "f",
	"C:/Windows/System32/drivers/etc/hosts": "f", "C:/Program Files/Git/usr/bin": "d", "C:/ProgramData/app": "d",
	"C:/tools": "d", "D:/other/data.csv": "f", "//srv/share/proj/x.txt": "f",
	"C:/Users/u/ws/link-out": `C:\Windows`, "C:/Users/u/ws/home-link": `..`, "C:/Users/u/ws/share-link": `\\srv\share\proj`,
}

// winIndex maps the key (winKey) of every entry and ancestor to its entry,
// spelled as created (a UNC path as `unc:/server/share/...`).
var winIndex = func() map[string][2]string {
	m := map[string][2]string{}
	for p, kind := range winEntries {
		k := winKey(p)
		spelled := winSpelled(p)
		m[k] = [2]string{spelled, kind}
		for d, sd := path.Dir(k), path.Dir(spelled); d != "unc:"; d, sd = path.Dir(d), path.Dir(sd) {
			if _, ok := m[d]; !ok {
				m[d] = [2]string{sd, "d"}
			}
			if strings.HasSuffix(d, ":") {
				break // the drive
			}
		}
	}
	return m
}()

// winCorpusFS is the fake Windows filesystem of the corpus.
type winCorpusFS struct{}

// winSpelled is p with forward slashes, a UNC path as `unc:/server/...`.
func winSpelled(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if rest, ok := strings.CutPrefix(p, "//"); ok {
		return path.Clean("unc:/" + rest)
	}
	return path.Clean(p)
}

// winKey is the lower-case key of an absolute Windows path (`c:/x`,
// `unc:/server/share/x`; a drive root is `c:`), or "" for any other path.
func winKey(p string) string {
	q := strings.ReplaceAll(p, `\`, "/")
	if !(len(q) >= 3 && q[1] == ':' && q[2] == '/') && !strings.HasPrefix(q, "//") {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(winSpelled(p)), "/")
}

// winNative is a spelling of the index back in Windows' own form.
func winNative(s string) string {
	if rest, ok := strings.CutPrefix(s, "unc:/"); ok {
		return `\\` + strings.ReplaceAll(rest, "/", `\`)
	}
	if len(s) == 2 {
		s += "/"
	}
	return strings.ReplaceAll(s, "/", `\`)
}

// winEval resolves p, following links on every prefix, and returns it as
// created, in Windows' spelling.
func winEval(p string, hops int) (string, error) {
	k := winKey(p)
	if k == "" {
		return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrInvalid}
	}
	parts := strings.Split(k, "/")
	cur, start := parts[0], 1 // c:
	if cur == "unc:" {
		if len(parts) < 3 {
			return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
		}
		cur, start = strings.Join(parts[:3], "/"), 3
		if _, ok := winIndex[cur]; !ok {
			return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
		}
	}
	for i := start; i < len(parts); i++ {
		next := cur + "/" + parts[i]
		e, ok := winIndex[next]
		if !ok {
			return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
		}
		switch e[1] {
		case "f":
			if i != len(parts)-1 {
				return "", &fs.PathError{Op: "lstat", Path: p, Err: syscall.ENOTDIR}
			}
		case "d":
		default:
			if hops > 40 {
				return "", &fs.PathError{Op: "lstat", Path: p, Err: syscall.ELOOP}
			}
			target := strings.ReplaceAll(e[1], `\`, "/")
			if !(len(target) > 1 && target[1] == ':') && !strings.HasPrefix(target, "//") {
				target = winNative(path.Dir(e[0])) + "/" + target
			}
			return winEval(target+"/"+strings.Join(parts[i+1:], "/"), hops+1)
		}
		cur = next
	}
	spelled := cur
	if e, ok := winIndex[cur]; ok {
		spelled = e[0]
	}
	return winNative(spelled), nil
}

func (winCorpusFS) EvalSymlinks(p string) (string, error) { return winEval(p, 0) }

func (winCorpusFS) IsFile(p string) bool {
	r, err := winEval(p, 0)
	return err == nil && winIndex[winKey(r)][1] == "f"
}

// winParent is the key of p with its directory resolved: what Lstat looks
// up.
func winParent(p string) (string, error) {
	k := winKey(p)
	if k == "" {
		return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrInvalid}
	}
	dir, base := path.Dir(k), path.Base(k)
	if strings.HasSuffix(dir, ":") || strings.HasPrefix(k, "unc:") && strings.Count(k, "/") <= 2 || !strings.Contains(k, "/") {
		return k, nil // a drive root or a share
	}
	r, err := winEval(winNative(dir), 0)
	if err != nil {
		return "", err
	}
	return winKey(r) + "/" + base, nil
}

func (winCorpusFS) Lstat(p string) (fs.FileInfo, error) {
	k, err := winParent(p)
	if err != nil {
		return nil, err
	}
	e, ok := winIndex[k]
	if !ok {
		return nil, &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	fi := corpusInfo{name: path.Base(e[0])}
	switch e[1] {
	case "f":
		fi.mode = 0o644
	case "d":
		fi.mode = fs.ModeDir | 0o755
	default:
		fi.mode = fs.ModeSymlink | 0o777
	}
	return winInfo{fi}, nil
}

func (winCorpusFS) Readlink(p string) (string, error) {
	k, err := winParent(p)
	if err != nil {
		return "", err
	}
	if e, ok := winIndex[k]; ok && e[1] != "f" && e[1] != "d" {
		return e[1], nil
	}
	return "", &fs.PathError{Op: "readlink", Path: p, Err: syscall.EINVAL}
}

// winInfo is a FileInfo without a file identity, as on Windows.
type winInfo struct{ corpusInfo }

func (winInfo) Sys() any { return nil }

// TestWinCorpusFS checks the fake Windows filesystem.
func TestWinCorpusFS(t *testing.T) {
	f := winCorpusFS{}
	for in, want := range map[string]string{
		"C:/Users/u/ws":                                     `C:\Users\u\ws`,
		"c:/users/U/WS/readme.md":                           `C:\Users\u\ws\README.md`,
		"C:/Users/u/ws/link-out":                            `C:\Windows`,
		"C:/Users/u/ws/link-out/System32/drivers/etc/hosts": `C:\Windows\System32\drivers\etc\hosts`,
		"C:/Users/u/ws/home-link":                           `C:\Users\u`,
		"C:/Users/u/ws/share-link/x.txt":                    `\\srv\share\proj\x.txt`,
		"C:/":                                               `C:\`,
		"//srv/share/proj":                                  `\\srv\share\proj`,
	} {
		if got, err := f.EvalSymlinks(in); err != nil || got != want {
			t.Errorf("EvalSymlinks(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, p := range []string{"C:/Users/u/ws/nope", "C:/Users/u/ws/README.md/x", "rel", "/c/Users"} {
		if got, err := f.EvalSymlinks(p); err == nil {
			t.Errorf("EvalSymlinks(%q) = %q, want an error", p, got)
		}
	}
	if fi, err := f.Lstat("C:/Users/u/ws/Link-Out"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(link-out) = %v, %v; want a symlink", fi, err)
	}
	if !f.IsFile("C:/USERS/u/ws/.ENV") || f.IsFile("C:/Users/u/ws/src") {
		t.Errorf("IsFile: .env must be a file and src not")
	}
}
