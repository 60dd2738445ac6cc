package main

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"
)

// The Windows environment: Git Bash in C:\Users\me\proj.
const (
	winWS   = `C:\Users\me\proj`
	winHome = `C:\Users\me`
)

// winEntries exist in winFS (with their ancestors): files "f", directories
// "d"; keys are lower case with forward slashes.
var winEntries = func() map[string]string {
	m := map[string]string{}
	add := func(p, kind string) {
		p = strings.ToLower(p)
		m[p] = kind
		for d := path.Dir(p); len(d) > 2; d = path.Dir(d) {
			if _, ok := m[d]; !ok {
				m[d] = "d"
			}
		}
		m[p[:3]] = "d"
	}
	for _, f := range []string{"package.json", "README.md", "src/index.ts", "node_modules/.bin/tsc", "node_modules/.bin/eslint", "node_modules/.bin/vitest"} {
		add("c:/users/me/proj/"+f, "f")
	}
	for _, d := range []string{"c:/users/me/proj/src", "c:/users/me/proj/dist", "c:/users/me/proj/tmp", "c:/users/me/.ssh", "c:/users/me/desktop",
		"c:/windows/system32/drivers/etc", "c:/program files/git/usr/bin"} {
		add(d, "d")
	}
	return m
}()

// winFS is a case-insensitive fake of Windows' filesystem, asked and
// answering in Windows' spelling.
type winFS struct{}

func winKey(p string) string {
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	if len(p) > 3 {
		p = strings.TrimSuffix(path.Clean(p), "/")
	}
	return p
}

func (winFS) EvalSymlinks(p string) (string, error) {
	if _, ok := winEntries[winKey(p)]; !ok {
		return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	return strings.ReplaceAll(p, "/", `\`), nil
}

func (winFS) IsFile(p string) bool { return winEntries[winKey(p)] == "f" }

func (winFS) Lstat(p string) (fs.FileInfo, error) {
	kind, ok := winEntries[winKey(p)]
	if !ok {
		return nil, &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	return info{name: path.Base(winKey(p)), dir: kind == "d"}, nil
}

func (winFS) ReadFile(p string) ([]byte, error) {
	if winKey(p) == "c:/users/me/proj/package.json" {
		return []byte(`{"scripts": {"dev": "vite", "build": "tsc", "lint": "eslint .", "typecheck": "tsc --noEmit", "test": "vitest run"}}`), nil
	}
	return nil, errors.New("not readable")
}

type info struct {
	name string
	dir  bool
}

func (i info) Name() string { return i.name }
func (info) Size() int64    { return 0 }
func (i info) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (info) ModTime() time.Time { return time.Time{} }
func (i info) IsDir() bool      { return i.dir }
func (info) Sys() any           { return nil }
