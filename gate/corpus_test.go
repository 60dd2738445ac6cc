package gate_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
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
// filesystem, besides the symlinks of corpusLinks. Ancestors of existing
// paths exist, and so does /etc, the target of link-out.
var (
	corpusFiles = map[string]bool{
		"/home/u/ws/README.md":      true,
		"/home/u/ws/go.mod":         true,
		"/home/u/ws/main.go":        true,
		"/home/u/ws/existing.txt":   true,
		"/home/u/ws/scripts/gen.sh": true,
		"/home/u/ws/.env":           true,
	}
	corpusDirs = map[string]bool{
		"/": true, "/home": true, "/home/u": true, "/srv": true, "/etc": true,
		"/home/u/ws": true, "/home/u/ws/src": true, "/home/u/ws/scripts": true,
		"/home/u/ws/src/a": true, "/home/u/ws/src/a/b": true,
		"/srv/other": true, "/tmp": true,
	}
	corpusLinks = map[string]string{
		"/home/u/ws/link-out": "/etc",
		"/home/u/ws/link-in":  "/home/u/ws/src",
		"/home/u/ws/deep-in":  "/home/u/ws/src/a/b",
	}
)

// corpusFS is the fake filesystem of the corpus. It implements
// classifier.FS with the semantics of path/filepath.EvalSymlinks: symlinks on
// every prefix are resolved before a following `..` is applied, and a path
// with a missing component is an error wrapping fs.ErrNotExist.
type corpusFS struct{}

func (corpusFS) EvalSymlinks(p string) (string, error) { return evalSymlinks(p, 0) }

func (f corpusFS) IsFile(p string) bool {
	r, err := evalSymlinks(p, 0)
	return err == nil && corpusFiles[r]
}

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
		if target, ok := corpusLinks[next]; ok {
			if hops >= 40 {
				return "", &fs.PathError{Op: "lstat", Path: p, Err: syscall.ELOOP}
			}
			return evalSymlinks(target+"/"+strings.Join(parts[i+1:], "/"), hops+1)
		}
		switch {
		case corpusFiles[next]:
			for _, rest := range parts[i+1:] {
				if rest != "" && rest != "." {
					return "", &fs.PathError{Op: "lstat", Path: p, Err: syscall.ENOTDIR}
				}
			}
		case corpusDirs[next]:
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
}

func (o corpusOptions) key() string {
	b, _ := json.Marshal(o.Budgets) // map keys are sorted
	return fmt.Sprintf("mode=%q agent=%q safety=%v budgets=%s shell=%s", o.Mode, o.Agent, o.Safety, b, o.Shell)
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
