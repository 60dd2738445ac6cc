package settings

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/effects"
)

//go:generate go tool stringer -type=Severity -linecomment

// Severity says how bad a [Problem] is. The zero value is [Error].
type Severity int

const (
	// Error is a file that does not parse or a bad key or value; what it
	// says was not applied.
	Error Severity = iota // error
	// Warning is a valid value that was ignored: a workspace trying to
	// loosen, a user-scope-only key in a workspace, a conflicting user file.
	Warning // warning
)

// Problem is one error or warning about the settings.
type Problem struct {
	Severity Severity
	// File is the settings file's path, or for client sections
	// [SourceClientUser] or [SourceClientWorkspace]/N.
	File      string
	Line, Col int    // of the key or parse error; 0 when unknown
	Message   string // lower case, no final period
}

// String renders `file:line:col: severity: message`.
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s: %s", p.File, p.Line, p.Col, p.Severity, p.Message)
	}
	return fmt.Sprintf("%s: %s: %s", p.File, p.Severity, p.Message)
}

// userSettingsSource names the user files together in a [Problem] about
// their merged budgets.
const userSettingsSource = "user settings"

// The names [FromSections] gives its sources in [Problem.File].
const (
	SourceClientUser      = "client settings"
	SourceClientWorkspace = "client workspace folder settings" // followed by "/N", N from 0
)

// Snapshot is the effective settings at one moment.
type Snapshot struct {
	// Enabled is `ml-ai.commandSafety` (default true).
	Enabled bool
	// Budgets is budgets.Builtin with the user's `ml-ai.agentBudgets` merged
	// in (budgets.Set.WithUser), then tightened by the workspaces'
	// (budgets.Set.WithWorkspace). Treat it as read-only: snapshots may
	// share it.
	Budgets budgets.Set
	// DecisionLog is `ml-ai.decisionLog` as written ("" is the default location).
	DecisionLog string
	// ServerPath is `ml-ai.serverPath` as written ("" is the bundled binary).
	ServerPath string
	// HoldTimeout is `ml-ai.holdTimeout` ([DefaultHoldTimeout] when unset).
	HoldTimeout time.Duration
	// Rules are the `ml-ai.rules` of the user files, then of the
	// workspaces (marked [Rule.Workspace]), as parsed: gate.CompileRules
	// checks them (names, examples) before they apply.
	Rules []Rule
	// Files lists the settings files consulted, user files first, whether
	// they exist or not (nil for [FromSections]).
	Files []string
	// Problems lists every current error and warning, in source order.
	Problems []Problem
	// New is the subset of Problems not reported by the same [Loader]
	// before: a problem is new once per change of its source's content. For
	// [Load] and [FromSections] it equals Problems.
	New []Problem
}

// Defaults returns the settings when nothing is set: gate on, built-in
// budgets, [DefaultHoldTimeout].
func Defaults() Snapshot {
	return Snapshot{Enabled: true, Budgets: budgets.Builtin(), HoldTimeout: DefaultHoldTimeout}
}

// Load reads the user settings files of env ([UserFiles]) and each
// workspace root's `.vscode/settings.json` ([WorkspaceFile]) and combines
// them. It never fails: problems are in [Snapshot.Problems]. A file that does
// not parse gives nothing (there is no last good value without a [Loader]).
func Load(env Env, workspaces []string) Snapshot {
	return new(Loader).Load(env, workspaces)
}

// FromSections combines sections a client returned for
// `workspace/configuration` section "ml-ai": user is the section object
// (keys without the "ml-ai." prefix, e.g. {"commandSafety": false}) taken as
// user scope; workspaces are sections known to come from workspace folders
// only, which can only tighten. nil sections contribute nothing.
func FromSections(user map[string]any, workspaces []map[string]any) Snapshot {
	return new(Loader).FromSections(user, workspaces)
}

// Loader builds snapshots like [Load] and [FromSections] and remembers, per
// file, the last values that parsed (a file that stops parsing keeps them)
// and which problems were already reported (see [Snapshot.New]). It also
// remembers what each file was when read (device, inode, size, times), so a
// later Load reads again only the files a stat shows changed, and a Load is
// cheap enough to run before every decision. The zero Loader is ready; it is
// safe for concurrent use.
type Loader struct {
	mu       sync.Mutex
	lastGood map[string]values
	reported map[string]string // problem key -> its source's name
	files    map[string]readResult
}

// readResult is a file's source as last read, and what the file was then.
type readResult struct {
	present bool
	st      stamp // when present
	src     source
}

// current reports whether a stat of the path (info, err) shows the file
// unchanged since r was read.
func (r readResult) current(info fs.FileInfo, err error) bool {
	if !r.present {
		return errors.Is(err, fs.ErrNotExist)
	}
	return err == nil && !r.st.racy() && r.st.matches(info)
}

// source is one settings source after reading.
type source struct {
	name     string
	hash     string // content hash: problems are new once per change
	vals     values
	problems []Problem
}

// readFile returns one file's source: the last read's when a stat shows the
// file unchanged and force is false, else a new read. Call with l.mu held.
func (l *Loader) readFile(path string, force bool) (source, bool) {
	if r, ok := l.files[path]; ok && !force {
		if info, err := os.Stat(path); r.current(info, err) {
			return r.src, r.present
		}
	}
	readAt := time.Now()
	src, info, present := l.read(path)
	if l.files == nil {
		l.files = map[string]readResult{}
	}
	switch {
	case !present:
		l.files[path] = readResult{src: src}
	case info != nil:
		l.files[path] = readResult{present: true, st: newStamp(info, readAt), src: src}
	default:
		delete(l.files, path) // nothing to compare a stat with: read it again next time
	}
	return src, present
}

// read reads and parses one file, falling back to its last good values. info
// is the opened file's (nil when it could not be opened).
func (l *Loader) read(path string) (src source, info fs.FileInfo, present bool) {
	src = source{name: path}
	data, info, err := ReadFile(path, MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		delete(l.lastGood, path)
		return src, nil, false
	}
	if err != nil {
		msg := err.Error()
		if !errors.Is(err, ErrNotRegular) {
			msg = "cannot read: " + msg
		}
		src.hash = "error:" + err.Error()
		src.problems = append(src.problems, l.keepLastGood(path, &src.vals, Problem{File: path, Message: msg}))
		return src, info, true
	}
	sum := sha256.Sum256(data)
	src.hash = string(sum[:])
	vals, keyErrs, err := parseFile(path, data)
	if err != nil {
		p := Problem{File: path, Message: err.Error()}
		var pe *parseError
		if errors.As(err, &pe) {
			p.Line, p.Col, p.Message = pe.Line, pe.Col, pe.Err.Error()
		}
		src.problems = append(src.problems, l.keepLastGood(path, &src.vals, p))
		return src, info, true
	}
	for _, ke := range keyErrs {
		p := Problem{File: path, Line: ke.line, Col: ke.col, Message: ke.err.Error()}
		if ke.warning {
			p.Severity = Warning
		}
		src.problems = append(src.problems, p)
	}
	if l.lastGood == nil {
		l.lastGood = map[string]values{}
	}
	l.lastGood[path] = vals
	src.vals = vals
	return src, info, true
}

func (l *Loader) keepLastGood(path string, v *values, p Problem) Problem {
	if last, ok := l.lastGood[path]; ok {
		*v = last
		p.Message += "; keeping this file's last good settings"
	} else {
		p.Message += "; ignoring this file"
	}
	return p
}

// Load is [Load] with this Loader's memory: files a stat shows unchanged
// since this Loader read them are not read again.
func (l *Loader) Load(env Env, workspaces []string) Snapshot {
	s, _ := l.load(env, workspaces, false, "")
	return s
}

// load is Load; force reads every file again (a watcher's event says one
// changed). fingerprint names every file and its content: equal
// fingerprints are equal snapshots, so when it equals unless, load returns
// only the fingerprint (and a zero Snapshot) without combining the sources.
func (l *Loader) load(env Env, workspaces []string, force bool, unless string) (s Snapshot, fingerprint string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	files := l.fileSources(env, workspaces)
	var user, ws, all []source
	var fp strings.Builder
	for _, f := range files {
		src, ok := l.readFile(f.path, force)
		fp.WriteString(f.path)
		if ok {
			fp.WriteString("\x00" + src.hash)
			if f.user {
				user = append(user, src)
			} else {
				ws = append(ws, src)
			}
			all = append(all, src)
		}
		fp.WriteString("\x00\x00")
	}
	if unless != "" && fp.String() == unless {
		return Snapshot{}, unless
	}
	s = combine(user, ws)
	for _, f := range files {
		s.Files = append(s.Files, f.path)
	}
	l.markNew(&s, all, s.Files)
	return s, fp.String()
}

// fileSource is one settings file to read.
type fileSource struct {
	path string
	user bool // user scope; else a workspace's
}

// fileSources lists the user files of env, then each workspace root's file
// once (a root given twice is read once).
func (l *Loader) fileSources(env Env, workspaces []string) []fileSource {
	var files []fileSource
	for _, path := range UserFiles(env) {
		files = append(files, fileSource{path, true})
	}
	seen := map[string]bool{}
	for _, root := range workspaces {
		path := WorkspaceFile(env, root)
		if !seen[path] {
			seen[path] = true
			files = append(files, fileSource{path, false})
		}
	}
	return files
}

// FromSections is [FromSections] with this Loader's memory of reported problems.
func (l *Loader) FromSections(user map[string]any, workspaces []map[string]any) Snapshot {
	return l.FromSectionsWithFiles(Env{}, user, workspaces, nil)
}

// FromSectionsWithFiles is [Loader.FromSections] plus the
// `.vscode/settings.json` of each of roots, read from disk as workspace
// sources after the sections' (so they can only tighten). It is for folders
// a request names that the client was not asked about; [Snapshot.Files]
// lists those files.
func (l *Loader) FromSectionsWithFiles(env Env, user map[string]any, workspaces []map[string]any, roots []string) Snapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	section := func(name string, m map[string]any) source {
		src := source{name: name}
		b, _ := json.Marshal(m) // map keys sorted: a stable hash
		sum := sha256.Sum256(b)
		src.hash = string(sum[:])
		for _, err := range src.vals.setSection(m) {
			src.problems = append(src.problems, Problem{File: name, Message: err.Error()})
		}
		return src
	}
	var us, ws []source
	names := []string{SourceClientUser}
	if user != nil {
		us = append(us, section(SourceClientUser, user))
	}
	for i, m := range workspaces {
		name := fmt.Sprintf("%s/%d", SourceClientWorkspace, i)
		names = append(names, name)
		if m != nil {
			ws = append(ws, section(name, m))
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, root := range roots {
		path := WorkspaceFile(env, root)
		if seen[path] {
			continue
		}
		seen[path] = true
		files = append(files, path)
		if src, ok := l.readFile(path, false); ok {
			ws = append(ws, src)
		}
	}
	s := combine(us, ws)
	s.Files = files
	l.markNew(&s, append(us, ws...), append(names, files...))
	return s
}

// markNew fills s.New: problems whose (source, source content, text) this
// Loader has not reported yet. A problem reported before that is gone now is
// forgotten (so it is new again if it comes back) when its source is among
// names, the sources this snapshot consulted; problems of other sources stay
// reported, so snapshots over different sets of files do not repeat them.
func (l *Loader) markNew(s *Snapshot, srcs []source, names []string) {
	hash := map[string]string{}
	for _, src := range srcs {
		hash[src.name] = src.hash
	}
	consulted := map[string]bool{userSettingsSource: true}
	for _, n := range names {
		consulted[n] = true
	}
	now := map[string]string{}
	for _, p := range s.Problems {
		k := p.File + "\x00" + hash[p.File] + "\x00" + p.String()
		_, before := l.reported[k]
		if _, seen := now[k]; !before && !seen {
			s.New = append(s.New, p)
		}
		now[k] = p.File
	}
	for k, name := range l.reported {
		if _, ok := now[k]; !ok && !consulted[name] {
			now[k] = name
		}
	}
	l.reported = now
}

// combine merges user sources (in order) and then applies workspace sources,
// which can only tighten.
func combine(user, ws []source) Snapshot {
	s := Defaults()
	var probs []Problem
	warn := func(src source, key, format string, args ...any) {
		at := src.vals.pos[key]
		probs = append(probs, Problem{Severity: Warning, File: src.name, Line: at[0], Col: at[1], Message: fmt.Sprintf(format, args...)})
	}

	// User scope: several editors' files; none loosens another.
	userBudgets := map[string]map[string]string{}
	var logFrom, serverFrom, holdFrom string
	for _, src := range user {
		probs = append(probs, src.problems...)
		v := src.vals
		if v.enabled != nil && !*v.enabled {
			s.Enabled = false
		}
		mergeStrictest(userBudgets, v.budgets)
		if v.decisionLog != nil {
			if logFrom == "" {
				s.DecisionLog, logFrom = *v.decisionLog, src.name
			} else if *v.decisionLog != s.DecisionLog {
				warn(src, KeyDecisionLog, "%s.%s %q ignored: already set to %q by %s", Section, KeyDecisionLog, *v.decisionLog, s.DecisionLog, logFrom)
			}
		}
		if v.serverPath != nil {
			if serverFrom == "" {
				s.ServerPath, serverFrom = *v.serverPath, src.name
			} else if *v.serverPath != s.ServerPath {
				warn(src, KeyServerPath, "%s.%s %q ignored: already set to %q by %s", Section, KeyServerPath, *v.serverPath, s.ServerPath, serverFrom)
			}
		}
		for _, r := range v.rules {
			r.File, r.Line, r.Col = src.name, v.pos[KeyRules][0], v.pos[KeyRules][1]
			s.Rules = append(s.Rules, r)
		}
		if v.holdTimeout != nil {
			// The shortest wins: a held command is denied sooner.
			if holdFrom == "" || *v.holdTimeout < s.HoldTimeout {
				s.HoldTimeout, holdFrom = *v.holdTimeout, src.name
			}
		}
	}
	set, err := s.Budgets.WithUser(userBudgets)
	if err != nil { // entries are validated when read; defensive
		probs = append(probs, Problem{File: userSettingsSource, Message: err.Error()})
	}
	s.Budgets = set
	userSet := set
	userEnabled := s.Enabled

	// Workspace scope: only tightens.
	wsBudgets := map[string]map[string]string{}
	for _, src := range ws {
		probs = append(probs, src.problems...)
		v := src.vals
		if v.enabled != nil {
			if !*v.enabled {
				s.Enabled = false
			} else if !userEnabled {
				warn(src, KeyCommandSafety, "%s.%s true ignored: the user turned it off and a workspace can only tighten", Section, KeyCommandSafety)
			}
		}
		if len(v.budgets) > 0 {
			_, warnings := userSet.WithWorkspace(v.budgets)
			for _, w := range warnings {
				warn(src, KeyAgentBudgets, "%s", w)
			}
			mergeStrictest(wsBudgets, v.budgets)
		}
		// Workspace rules only add effects (gate.CompileRules enforces it).
		for _, r := range v.rules {
			r.Workspace = true
			r.File, r.Line, r.Col = src.name, v.pos[KeyRules][0], v.pos[KeyRules][1]
			s.Rules = append(s.Rules, r)
		}
		// User-scope-only keys: a value equal to the user's changes nothing
		// (clients send every key of the section, defaults included).
		if v.decisionLog != nil && *v.decisionLog != s.DecisionLog {
			warn(src, KeyDecisionLog, "%s.%s ignored: user settings only", Section, KeyDecisionLog)
		}
		if v.serverPath != nil && *v.serverPath != s.ServerPath {
			warn(src, KeyServerPath, "%s.%s ignored: user settings only", Section, KeyServerPath)
		}
		if v.holdTimeout != nil && *v.holdTimeout != s.HoldTimeout {
			warn(src, KeyHoldTimeout, "%s.%s ignored: user settings only", Section, KeyHoldTimeout)
		}
	}
	s.Budgets, _ = userSet.WithWorkspace(wsBudgets) // warnings reported per file above
	s.Problems = probs
	return s
}

// mergeStrictest merges src into dst; an entry both name keeps the stricter
// decision. Entries are validated (valid effect and decision spellings).
func mergeStrictest(dst, src map[string]map[string]string) {
	for agent, entries := range src {
		d := dst[agent]
		if d == nil {
			d = map[string]string{}
			dst[agent] = d
		}
		for effect, value := range entries {
			old, ok := d[effect]
			if !ok {
				d[effect] = value
				continue
			}
			a, _ := effects.ParseDecision(old)
			b, _ := effects.ParseDecision(value)
			d[effect] = effects.Strictest(a, b).String()
		}
	}
}
