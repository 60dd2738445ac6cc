package gate_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/classifier"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// updateCorpus rewrites the .want files of the golden corpus from the actual
// verdicts. The expectations are written by hand from SPEC §2–§5: review
// every diff it makes like code.
var updateCorpus = flag.Bool("update", false, "rewrite testdata/commands/*.txtar .want files from actual verdicts")

// corpusDir holds the shared golden corpus (STYLE §6), at the repository root.
const corpusDir = "../testdata/commands"

// The fixed environment of every corpus case (testdata/commands/README.md).
const (
	corpusCwd  = "/home/u/ws"
	corpusHome = "/home/u"
)

var corpusWorkspaces = []string{"/home/u/ws", "/srv/other"}

// corpusFiles and corpusDirs are everything that exists in the fake
// filesystem, besides the symlinks of corpusLinks and the other names of
// corpusHardLinks and corpusBinds. Ancestors of existing paths exist, and so
// does /etc, the target of link-out.
var (
	corpusFiles = map[string]bool{
		"/home/u/ws/README.md":      true,
		"/home/u/ws/go.mod":         true,
		"/home/u/ws/main.go":        true,
		"/home/u/ws/existing.txt":   true,
		"/home/u/ws/scripts/gen.sh": true,
		"/home/u/ws/.env":           true,
		// The installation (corpusStore): the user settings live in a
		// dotfiles repository, the log was moved into the other root.
		"/home/u/ws/dotfiles/settings.json": true,
		"/home/u/ws/dotfiles/other.json":    true,
		"/srv/other/logs/gate.db":           true,
		"/srv/other/logs/gate.db-wal":       true,
		"/home/u/bin/command-safety":        true,
		"/home/u/.claude/settings.json":     true,
		// The project's installed programs (package runners, issue 14) and
		// its manifest (corpusContents).
		"/home/u/ws/package.json":                 true,
		"/home/u/ws/node_modules/.bin/tsc":        true,
		"/home/u/ws/node_modules/.bin/eslint":     true,
		"/home/u/ws/node_modules/.bin/jest":       true,
		"/home/u/ws/node_modules/.bin/vitest":     true,
		"/home/u/ws/node_modules/.bin/prettier":   true,
		"/home/u/ws/node_modules/.bin/playwright": true,
		"/home/u/ws/node_modules/.bin/prisma":     true,
		"/home/u/ws/node_modules/.bin/rm":         true,
		"/home/u/ws/.venv/bin/pytest":             true,
		"/home/u/ws/.venv/bin/mypy":               true,
		"/home/u/ws/.venv/bin/ruff":               true,
		"/home/u/ws/.venv/bin/python":             true,
		"/home/u/ws/bad/package.json":             true,
		"/home/u/ws/bad/node_modules/.bin/tsc":    true,
		// A cloned tree whose file names are options (options_dynamic).
		"/home/u/ws/cloned/-delete":    true,
		"/home/u/ws/cloned/--pre=x.sh": true,
		"/home/u/ws/cloned/main.go":    true,
		// The second root's repository configures its hooks (husky).
		"/srv/other/.git/config": true,
	}
	// corpusContents are what the files of corpusFiles that are read hold;
	// the others read as errors.
	corpusContents = map[string]string{
		"/home/u/ws/package.json":     `{"name": "ws", "scripts": {"lint": "eslint .", "dev": "vite", "tsc": "tsc -p .", "build": "tsc"}}`,
		"/home/u/ws/bad/package.json": `{"scripts": `,
		"/srv/other/.git/config":      "[core]\n\trepositoryformatversion = 0\n[Core]\n\thooksPath = \".husky/_\" ; husky\n",
	}
	corpusDirs = map[string]bool{
		"/": true, "/home": true, "/home/u": true, "/srv": true, "/etc": true,
		"/home/u/ws": true, "/home/u/ws/src": true, "/home/u/ws/scripts": true,
		"/home/u/ws/src/a": true, "/home/u/ws/src/a/b": true,
		"/srv/other": true, "/srv/other/.git": true, "/tmp": true,
		"/home/u/ws/dotfiles": true, "/srv/other/logs": true, "/home/u/bin": true, "/home/u/.claude": true,
		"/home/u/.config": true, "/home/u/.config/Code": true, "/home/u/.config/Code/User": true,
		"/home/u/.config/Cursor": true, "/home/u/.config/Cursor/User": true,
		"/home/u/.config/VSCodium": true, "/home/u/.config/VSCodium/User": true,
		"/srv/ext": true, "/srv/ext/ml-ai.command-safety-0.1.0": true,
		"/home/u/ws/node_modules": true, "/home/u/ws/node_modules/.bin": true, "/home/u/ws/.venv": true, "/home/u/ws/.venv/bin": true,
		"/home/u/ws/bad": true, "/home/u/ws/bad/node_modules": true, "/home/u/ws/bad/node_modules/.bin": true,
		"/home/u/ws/cloned": true,
	}
	corpusLinks = map[string]string{
		"/home/u/ws/link-out": "/etc",
		"/srv/home-link":      "/home/u", // a workspace root that is the home directory by another name
		"/home/u/ws/link-in":  "/home/u/ws/src",
		"/home/u/ws/deep-in":  "/home/u/ws/src/a/b",
		// The rule store's aliases.
		"/home/u/.config/Code/User/settings.json":   "/home/u/ws/dotfiles/settings.json",
		"/home/u/.config/Cursor/User/settings.json": "/home/u/ws/dotfiles/cursor.json", // dangling
		"/home/u/ws/settings-link":                  "/home/u/.config/Code/User/settings.json",
		"/home/u/ws/to-codium":                      "/home/u/.config/VSCodium/User/settings.json", // dangling
		"/home/u/logs":                              "/srv/other/logs",
		"/home/u/ws/logs-link":                      "/home/u/logs",
		"/home/u/ws/cs-link":                        "/home/u/bin/command-safety",
		"/home/u/ws/ext-link":                       "/srv/ext/ml-ai.command-safety-0.1.0",
	}
	// corpusHardLinks are second names of files: the same file identity.
	corpusHardLinks = map[string]string{
		"/home/u/ws/hard.db":  "/srv/other/logs/gate.db",
		"/home/u/ws/cs-hard":  "/home/u/bin/command-safety",
		"/home/u/ws/hard-set": "/home/u/.claude/settings.json",
	}
	// corpusBinds are bind mounts: the directory (and everything in it) is
	// the same as its source, and EvalSymlinks does not resolve it.
	corpusBinds = map[string]string{"/home/u/ws/bind-claude": "/home/u/.claude"}
)

// corpusStore is the installation's permission-rule store every case is
// decided with, as cmd/command-safety builds it on Linux for HOME=/home/u
// with `ml-ai.decisionLog: /home/u/logs/gate.db` in the user settings.
var corpusStore = gate.Installation{
	Binaries: []string{"/home/u/bin/command-safety"},
	UserSettings: []string{"/home/u/.config/Code/User/settings.json", "/home/u/.config/Code - Insiders/User/settings.json",
		"/home/u/.config/VSCodium/User/settings.json", "/home/u/.config/Cursor/User/settings.json",
		"/home/u/.local/share/code-server/User/settings.json"},
	AgentFiles: []string{"/home/u/.claude/settings.json", "/home/u/.claude/settings.local.json",
		"/home/u/.cursor/hooks.json", "/home/u/.gemini/settings.json"},
	Logs: []string{"/home/u/logs/gate.db"},
}

// corpusFS is the fake filesystem of the corpus. It implements
// classifier.FS with the semantics of path/filepath.EvalSymlinks: symlinks on
// every prefix are resolved before a following `..` is applied, and a path
// with a missing component is an error wrapping fs.ErrNotExist. Its Lstat
// gives file identities (classifier.FileID) that hard links and bind mounts
// share, and Readlink reads symlinks, dangling ones too.
type corpusFS struct{}

func (corpusFS) EvalSymlinks(p string) (string, error) { return evalSymlinks(p, 0) }

func (f corpusFS) IsFile(p string) bool {
	r, err := evalSymlinks(p, 0)
	return err == nil && corpusIsFile(bound(r))
}

// bound is p with a bind mount's mount point replaced by its source: the
// name under which the fake filesystem knows the entry.
func bound(p string) string {
	for m, src := range corpusBinds {
		if p == m || strings.HasPrefix(p, m+"/") {
			return src + p[len(m):]
		}
	}
	return p
}

func corpusIsFile(c string) bool { return corpusFiles[c] || corpusHardLinks[c] != "" }

// DirNames lists the names in the directory dir (resolved as a path to it
// is): the files, directories, links and second names whose parent it is.
func (corpusFS) DirNames(dir string, max int) ([]string, error) {
	r, err := evalSymlinks(dir, 0)
	if err != nil {
		return nil, err
	}
	d := bound(r)
	if !corpusDirs[d] {
		return nil, fs.ErrInvalid
	}
	var names []string
	for _, m := range []map[string]bool{corpusFiles, corpusDirs} {
		for p := range m {
			if path.Dir(p) == d && p != d {
				names = append(names, path.Base(p))
			}
		}
	}
	for _, m := range []map[string]string{corpusLinks, corpusHardLinks, corpusBinds} {
		for p := range m {
			if path.Dir(p) == d {
				names = append(names, path.Base(p))
			}
		}
	}
	slices.Sort(names)
	return names[:min(len(names), max)], nil
}

// parentResolved is p's directory with its symlinks resolved, joined with
// p's last component.
func parentResolved(p string) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrInvalid}
	}
	p = path.Clean(p)
	if p == "/" {
		return p, nil
	}
	dir, err := evalSymlinks(path.Dir(p), 0)
	if err != nil {
		return "", err
	}
	return path.Join(dir, path.Base(p)), nil
}

func (corpusFS) Lstat(p string) (fs.FileInfo, error) {
	q, err := parentResolved(p)
	if err != nil {
		return nil, err
	}
	c := bound(q)
	id := c
	if t := corpusHardLinks[c]; t != "" {
		id = t
	}
	fi := corpusInfo{name: path.Base(q), id: corpusID(id)}
	switch {
	case corpusLinks[c] != "":
		fi.mode = fs.ModeSymlink | 0o777
	case corpusIsFile(c):
		fi.mode = 0o644
	case corpusDirs[c]:
		fi.mode = fs.ModeDir | 0o755
	default:
		return nil, &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	return fi, nil
}

// ReadFile reads the files of corpusContents.
func (corpusFS) ReadFile(p string) ([]byte, error) {
	r, err := evalSymlinks(p, 0)
	if err != nil {
		return nil, err
	}
	c, ok := corpusContents[bound(r)]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrPermission}
	}
	return []byte(c), nil
}

func (corpusFS) Readlink(p string) (string, error) {
	q, err := parentResolved(p)
	if err != nil {
		return "", err
	}
	if t := corpusLinks[bound(q)]; t != "" {
		return t, nil
	}
	return "", &fs.PathError{Op: "readlink", Path: p, Err: syscall.EINVAL}
}

// corpusID is the identity of the file known as c.
func corpusID(c string) classifier.FileID {
	h := fnv.New64a()
	h.Write([]byte(c))
	return classifier.FileID{Dev: 1, Ino: h.Sum64()}
}

// corpusInfo is a FileInfo of the fake filesystem.
type corpusInfo struct {
	name string
	mode fs.FileMode
	id   classifier.FileID
}

func (i corpusInfo) Name() string       { return i.name }
func (i corpusInfo) Size() int64        { return 0 }
func (i corpusInfo) Mode() fs.FileMode  { return i.mode }
func (i corpusInfo) ModTime() time.Time { return time.Time{} }
func (i corpusInfo) IsDir() bool        { return i.mode.IsDir() }
func (i corpusInfo) Sys() any           { return i.id }

func evalSymlinks(p string, hops int) (string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", &fs.PathError{Op: "lstat", Path: p, Err: fmt.Errorf("relative path in the corpus filesystem: %w", fs.ErrInvalid)}
	}
	cur := "/"
	parts := strings.Split(p, "/")
	for i, c := range parts {
		switch c {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, c)
		if target, ok := corpusLinks[bound(next)]; ok {
			if hops >= 40 {
				return "", &fs.PathError{Op: "lstat", Path: p, Err: syscall.ELOOP}
			}
			return evalSymlinks(target+"/"+strings.Join(parts[i+1:], "/"), hops+1)
		}
		switch {
		case corpusIsFile(bound(next)):
			for _, rest := range parts[i+1:] {
				if rest != "" && rest != "." {
					return "", &fs.PathError{Op: "lstat", Path: p, Err: syscall.ENOTDIR}
				}
			}
		case corpusDirs[bound(next)]:
		default:
			return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
		}
		cur = next
	}
	return cur, nil
}

// corpusOptions are the options a corpus file's comment may set for all its
// cases.
type corpusOptions struct {
	Mode    string
	Agent   string
	Safety  bool
	Budgets map[string]map[string]string
	// Shell is the shell that runs the cases: bash unless the file says
	// `shell: zsh`, `shell: sh` or `shell: unknown`.
	Shell classifier.Dialect
	// Platform is "windows" for the Windows environment of
	// corpus_win_test.go, "darwin" for the Linux one matched as macOS
	// matches paths; Cwd and Workspaces, when set, replace the
	// environment's (to spell them another way).
	Platform   string
	Cwd        string
	Workspaces []string
}

func (o corpusOptions) key() string {
	b, _ := json.Marshal(o.Budgets) // map keys are sorted
	return fmt.Sprintf("mode=%q agent=%q safety=%v budgets=%s shell=%s platform=%q cwd=%q workspaces=%q", o.Mode, o.Agent, o.Safety, b, o.Shell, o.Platform, o.Cwd, o.Workspaces)
}

// corpusWant is the expectation of one case.
type corpusWant struct {
	Decision string
	Rule     string
	HasRule  bool
	Effects  []string
	HasEff   bool
	Decided  string
	HasDec   bool
}

// corpusCase is one `-- name.sh --` / `-- name.want --` pair.
type corpusCase struct {
	File    string
	Name    string
	Command string
	Want    corpusWant
	wantIdx int // index of the .want file in the archive
}

type corpusFile struct {
	Path    string
	Archive *txtar.Archive
	Options corpusOptions
	Cases   []*corpusCase
}

func parseOptions(comment []byte) (corpusOptions, error) {
	o := corpusOptions{Safety: true, Shell: classifier.Bash}
	for _, line := range strings.Split(string(comment), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "mode":
			o.Mode = val
		case "agent":
			o.Agent = val
		case "safety":
			switch val {
			case "true":
				o.Safety = true
			case "false":
				o.Safety = false
			default:
				return o, fmt.Errorf("safety: want true or false, got %q", val)
			}
		case "shell":
			d, err := classifier.ParseDialect(val)
			if err != nil || val == "" {
				return o, fmt.Errorf("shell: %w", err)
			}
			o.Shell = d
		case "budgets":
			if err := json.Unmarshal([]byte(val), &o.Budgets); err != nil {
				return o, fmt.Errorf("budgets: %w", err)
			}
		case "platform":
			if val != "windows" && val != "darwin" {
				return o, fmt.Errorf("platform: want windows or darwin (the Linux environment, matched as macOS matches), got %q", val)
			}
			o.Platform = val
		case "cwd":
			o.Cwd = val
		case "workspaces":
			if err := json.Unmarshal([]byte(val), &o.Workspaces); err != nil {
				return o, fmt.Errorf("workspaces: %w", err)
			}
		}
	}
	return o, nil
}

func parseWant(data []byte) (corpusWant, error) {
	var w corpusWant
	for _, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			return w, fmt.Errorf("line %q is not `key: value`", line)
		}
		val = strings.TrimSpace(val)
		switch key {
		case "decision":
			if _, err := effects.ParseDecision(val); err != nil {
				return w, err
			}
			w.Decision = val
		case "rule":
			w.Rule, w.HasRule = val, true
		case "effects":
			w.HasEff = true
			for _, e := range strings.Fields(val) {
				if _, err := effects.ParseClass(e); err != nil && e != effects.Unknown.String() {
					return w, err
				}
				w.Effects = append(w.Effects, e)
			}
			w.Effects = sortedUnique(w.Effects)
		case "decided":
			w.Decided, w.HasDec = val, true
		default:
			return w, fmt.Errorf("unknown key %q (want decision, rule, effects or decided)", key)
		}
	}
	if w.Decision == "" {
		return w, fmt.Errorf("no decision line")
	}
	return w, nil
}

func sortedUnique(xs []string) []string {
	out := slices.Clone(xs)
	sort.Strings(out)
	return slices.Compact(out)
}

// loadCorpus reads and checks every corpus file: well-formed pairs, case
// names unique across the corpus, commands unique under the same options.
func loadCorpus(t *testing.T) []*corpusFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(corpusDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no corpus files in %s", corpusDir)
	}
	names := map[string]string{}    // case name -> file
	commands := map[string]string{} // options + command -> file/case
	var files []*corpusFile
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		opts, err := parseOptions(a.Comment)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cf := &corpusFile{Path: p, Archive: a, Options: opts}
		base := strings.TrimSuffix(filepath.Base(p), ".txtar")
		for i := 0; i < len(a.Files); i++ {
			f := a.Files[i]
			name, ok := strings.CutSuffix(f.Name, ".sh")
			if !ok {
				t.Fatalf("%s: file %q: want a NAME.sh followed by NAME.want", p, f.Name)
			}
			if i+1 >= len(a.Files) || a.Files[i+1].Name != name+".want" {
				t.Fatalf("%s: %s.sh is not followed by %s.want", p, name, name)
			}
			if prev, dup := names[name]; dup {
				t.Fatalf("%s: case name %q already used in %s", p, name, prev)
			}
			names[name] = base
			cmd := string(f.Data)
			cmd = strings.TrimSuffix(cmd, "\n")
			if strings.Contains(string(f.Data), "\r\n") {
				t.Fatalf("%s: %s.sh has a CR before a line end, which git's eol=lf rewrites; put the CR mid-line", p, name)
			}
			key := opts.key() + "\x00" + cmd
			if prev, dup := commands[key]; dup {
				t.Fatalf("%s: case %q repeats the command of %s under the same options", p, name, prev)
			}
			commands[key] = base + "/" + name
			want, err := parseWant(a.Files[i+1].Data)
			if err != nil {
				t.Fatalf("%s: %s.want: %v", p, name, err)
			}
			cf.Cases = append(cf.Cases, &corpusCase{File: base, Name: name, Command: cmd, Want: want, wantIdx: i + 1})
			i++
		}
		files = append(files, cf)
	}
	return files
}

func corpusDecide(t *testing.T, o corpusOptions, command string) gate.Verdict {
	t.Helper()
	set := budgets.Builtin()
	if o.Budgets != nil {
		var err error
		set, err = set.WithUser(o.Budgets)
		if err != nil {
			t.Fatalf("budgets: %v", err)
		}
	}
	req := gate.Request{
		Command:    command,
		Cwd:        corpusCwd,
		Workspaces: slices.Clone(corpusWorkspaces),
		Home:       corpusHome,
		Agent:      o.Agent,
		Mode:       o.Mode,
		Shell:      o.Shell,
		FS:         corpusFS{},
		RuleStore:  corpusStore,
	}
	if o.Platform == "darwin" {
		req.Platform = "darwin"
	}
	if o.Platform == "windows" {
		req.Platform, req.Cwd, req.Workspaces, req.Home = "windows", winCwd, slices.Clone(winWorkspaces), winHome
		req.FS, req.RuleStore = winCorpusFS{}, winStore
	}
	if o.Cwd != "" {
		req.Cwd = o.Cwd
	}
	if o.Workspaces != nil {
		req.Workspaces = slices.Clone(o.Workspaces)
	}
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	return gate.Decide(req, gate.Policy{Enabled: o.Safety, Budgets: set}, now)
}

func verdictEffects(v gate.Verdict) []string {
	var es []string
	for _, e := range v.Effects {
		es = append(es, e.Effect.String())
	}
	return sortedUnique(es)
}

// TestCorpus checks every case of testdata/commands/*.txtar against gate.Decide.
func TestCorpus(t *testing.T) {
	for _, cf := range loadCorpus(t) {
		t.Run(strings.TrimSuffix(filepath.Base(cf.Path), ".txtar"), func(t *testing.T) {
			changed := false
			for _, c := range cf.Cases {
				t.Run(c.Name, func(t *testing.T) {
					v := corpusDecide(t, cf.Options, c.Command)
					if *updateCorpus {
						nw := renderWant(v, c.Want)
						if !bytes.Equal(nw, cf.Archive.Files[c.wantIdx].Data) {
							cf.Archive.Files[c.wantIdx].Data = nw
							changed = true
						}
						return
					}
					checkCase(t, c, v)
				})
			}
			if changed {
				if err := os.WriteFile(cf.Path, txtar.Format(cf.Archive), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func checkCase(t *testing.T, c *corpusCase, v gate.Verdict) {
	t.Helper()
	ctx := func() string {
		decided := "<nil>"
		if v.DecidedBy != nil {
			decided = fmt.Sprintf("%.200q (%s)", v.DecidedBy.Text, v.DecidedBy.Effect)
		}
		return fmt.Sprintf("command %.200q\n  got decision %s rule %q effects %v decidedBy %s\n  reason: %s",
			c.Command, v.Decision, v.Rule, verdictEffects(v), decided, v.Reason)
	}
	if got := v.Decision.String(); got != c.Want.Decision {
		t.Errorf("decision = %s, want %s\n%s", got, c.Want.Decision, ctx())
		return
	}
	if c.Want.HasRule && v.Rule != c.Want.Rule {
		t.Errorf("rule = %q, want %q\n%s", v.Rule, c.Want.Rule, ctx())
	}
	if c.Want.HasEff {
		if got := verdictEffects(v); !slices.Equal(got, c.Want.Effects) {
			t.Errorf("effects = %v, want %v\n%s", got, c.Want.Effects, ctx())
		}
	}
	if c.Want.HasDec {
		got := "<nil>"
		if v.DecidedBy != nil {
			got = v.DecidedBy.Text
		}
		if got != c.Want.Decided {
			t.Errorf("decided = %q, want %q\n%s", got, c.Want.Decided, ctx())
		}
	}
}

// renderWant writes the .want of v, keeping the keys the old want had
// (decision always; rule and effects always; decided only if it was there).
func renderWant(v gate.Verdict, old corpusWant) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "decision: %s\n", v.Decision)
	if v.Rule != "" {
		fmt.Fprintf(&b, "rule: %s\n", v.Rule)
	}
	if es := verdictEffects(v); len(es) > 0 {
		var ordered []string
		for _, c := range append([]effects.Class{effects.Unknown}, effects.Classes...) {
			if slices.Contains(es, c.String()) {
				ordered = append(ordered, c.String())
			}
		}
		fmt.Fprintf(&b, "effects: %s\n", strings.Join(ordered, " "))
	}
	if old.HasDec && v.DecidedBy != nil {
		fmt.Fprintf(&b, "decided: %s\n", v.DecidedBy.Text)
	}
	return b.Bytes()
}

// TestCorpusCoverage checks that the corpus is large enough and that its
// expectations name every absolute-refusal rule and every effect class.
func TestCorpusCoverage(t *testing.T) {
	files := loadCorpus(t)
	n := 0
	rules := map[string]bool{}
	classes := map[string]bool{}
	decisions := map[string]bool{}
	for _, cf := range files {
		for _, c := range cf.Cases {
			n++
			decisions[c.Want.Decision] = true
			if c.Want.HasRule {
				rules[c.Want.Rule] = true
			}
			for _, e := range c.Want.Effects {
				classes[e] = true
			}
		}
	}
	if n < 600 {
		t.Errorf("corpus has %d cases, want at least 600", n)
	}
	for _, r := range effects.Rules {
		// internal-error is the recover path of Classify: no input reaches it
		// by construction, so no golden case can expect it.
		if r == effects.InternalError {
			continue
		}
		if !rules[string(r)] {
			t.Errorf("no corpus case expects rule %s", r)
		}
	}
	for _, c := range effects.Classes {
		if !classes[c.String()] {
			t.Errorf("no corpus case expects effect %s", c)
		}
	}
	for _, d := range effects.Decisions {
		if !decisions[d.String()] {
			t.Errorf("no corpus case expects decision %s", d)
		}
	}
	for _, r := range []string{"empty", "commandSafety-off"} {
		if !rules[r] {
			t.Errorf("no corpus case expects rule %s", r)
		}
	}
}

// TestCorpusFS checks the fake filesystem the corpus runs against.
func TestCorpusFS(t *testing.T) {
	fsys := corpusFS{}
	for _, tc := range []struct{ in, want string }{
		{"/home/u/ws", "/home/u/ws"},
		{"/home/u/ws/link-out", "/etc"},
		{"/home/u/ws/link-in", "/home/u/ws/src"},
		{"/home/u/ws/link-out/..", "/"},
		{"/home/u/ws/link-in/../main.go", "/home/u/ws/main.go"},
		{"/home/u/ws/src/../link-in", "/home/u/ws/src"},
		{"/home/u/ws/./scripts//gen.sh", "/home/u/ws/scripts/gen.sh"},
	} {
		got, err := fsys.EvalSymlinks(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("EvalSymlinks(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, p := range []string{"/home/u/ws/nope", "/home/u/ws/link-out/passwd", "/home/u/ws/main.go/x", "rel"} {
		if got, err := fsys.EvalSymlinks(p); err == nil {
			t.Errorf("EvalSymlinks(%q) = %q, want an error", p, got)
		}
	}
	// The rule store's aliases: a dangling symlink, a bind mount (not a
	// symlink, the same identity), hard links.
	if got, err := fsys.EvalSymlinks("/home/u/ws/settings-link"); err != nil || got != "/home/u/ws/dotfiles/settings.json" {
		t.Errorf("EvalSymlinks(settings-link) = %q, %v", got, err)
	}
	if got, err := fsys.Readlink("/home/u/.config/Cursor/User/settings.json"); err != nil || got != "/home/u/ws/dotfiles/cursor.json" {
		t.Errorf("Readlink of the dangling Cursor settings = %q, %v", got, err)
	}
	if _, err := fsys.EvalSymlinks("/home/u/.config/Cursor/User/settings.json"); !errorsIsNotExist(err) {
		t.Errorf("EvalSymlinks of a dangling symlink: %v, want fs.ErrNotExist", err)
	}
	if got, err := fsys.EvalSymlinks("/home/u/ws/bind-claude/settings.json"); err != nil || got != "/home/u/ws/bind-claude/settings.json" {
		t.Errorf("EvalSymlinks in a bind mount = %q, %v; want it unchanged", got, err)
	}
	same := func(a, b string) bool {
		fa, errA := fsys.Lstat(a)
		fb, errB := fsys.Lstat(b)
		return errA == nil && errB == nil && fa.Sys() == fb.Sys()
	}
	for _, pair := range [][2]string{
		{"/home/u/ws/bind-claude/settings.json", "/home/u/.claude/settings.json"},
		{"/home/u/ws/bind-claude", "/home/u/.claude"},
		{"/home/u/ws/hard.db", "/srv/other/logs/gate.db"},
		{"/home/u/ws/link-in/../hard.db", "/srv/other/logs/gate.db"},
	} {
		if !same(pair[0], pair[1]) {
			t.Errorf("%s and %s are not the same file", pair[0], pair[1])
		}
	}
	if same("/home/u/ws/dotfiles/other.json", "/home/u/ws/dotfiles/settings.json") {
		t.Errorf("two files share an identity")
	}
	if fi, err := fsys.Lstat("/home/u/ws/cs-link"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat(cs-link) = %v, %v; want a symlink", fi, err)
	}
	if _, err := fsys.EvalSymlinks("/home/u/ws/nope"); !errorsIsNotExist(err) {
		t.Errorf("EvalSymlinks of a missing path: %v, want fs.ErrNotExist", err)
	}
	for p, want := range map[string]bool{
		"/home/u/ws/.env": true, "/home/u/ws/link-in/../go.mod": true,
		"/home/u/ws/src": false, "/tmp": false, "/home/u/ws/nope": false,
	} {
		if got := fsys.IsFile(p); got != want {
			t.Errorf("IsFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
