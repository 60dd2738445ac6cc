package settings

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
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
	// Telemetry is `ml-ai.telemetry`: the managed policy's when it sets
	// one, else the user's; nil when neither does.
	Telemetry *Telemetry
	// Managed is the managed policy ([PolicyFile]) when one is installed,
	// else nil. Enabled and Budgets already include it.
	Managed *Managed
	// Files lists the settings files consulted, user files first, whether
	// they exist or not (nil for [FromSections]). The managed policy is not
	// among them ([Managed.File]).
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
	// invalid, for the managed policy only, says why it is not in force: it
	// has errors and no good version was read before.
	invalid string
}

// readFile returns one file's source: the last read's when a stat shows the
// file unchanged and force is false, else a new read. policy reads it as
// the managed policy. Call with l.mu held.
func (l *Loader) readFile(path string, force, policy bool) (source, bool) {
	if r, ok := l.files[path]; ok && !force {
		if info, err := os.Stat(path); r.current(info, err) {
			return r.src, r.present
		}
	}
	readAt := time.Now()
	src, info, present := l.read(path, policy)
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
// is the opened file's (nil when it could not be opened). The managed policy
// (policy) falls back to them on any error, not only one that stops it from
// parsing (see [Managed]).
func (l *Loader) read(path string, policy bool) (src source, info fs.FileInfo, present bool) {
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
		src.problems = append(src.problems, l.keepLastGood(path, &src, Problem{File: path, Message: msg}, policy))
		return src, info, true
	}
	sum := sha256.Sum256(data)
	src.hash = string(sum[:])
	vals, keyErrs, err := parseFile(path, data, policy)
	if err != nil {
		p := Problem{File: path, Message: err.Error()}
		var pe *parseError
		if errors.As(err, &pe) {
			p.Line, p.Col, p.Message = pe.Line, pe.Col, pe.Err.Error()
		}
		src.problems = append(src.problems, l.keepLastGood(path, &src, p, policy))
		return src, info, true
	}
	for _, ke := range keyErrs {
		p := Problem{File: path, Line: ke.line, Col: ke.col, Message: ke.err.Error()}
		if ke.warning {
			p.Severity = Warning
		}
		src.problems = append(src.problems, p)
	}
	if policy {
		if why := policyErrors(src.problems); why != "" {
			p := Problem{File: path, Message: "the managed policy has errors, so none of it applies"}
			src.problems = append(src.problems, l.keepLastGood(path, &src, p, policy))
			return src, info, true
		}
		if warnOwner := policyOwnerWarning(info); warnOwner != "" {
			src.problems = append(src.problems, Problem{Severity: Warning, File: path, Message: warnOwner})
		}
	}
	if l.lastGood == nil {
		l.lastGood = map[string]values{}
	}
	l.lastGood[path] = vals
	src.vals = vals
	return src, info, true
}

// keepLastGood puts path's last good values in src after problem p, and
// returns p saying so. A managed policy (policy) without them is invalid:
// src.invalid says why.
func (l *Loader) keepLastGood(path string, src *source, p Problem, policy bool) Problem {
	if last, ok := l.lastGood[path]; ok {
		src.vals = last
		p.Message += "; keeping this file's last good settings"
		return p
	}
	if policy {
		why := policyErrors(append(slices.Clone(src.problems), p))
		src.invalid = invalidPolicy(path, why)
		src.vals = values{policy: true}
		p.Message += "; no earlier version of it was read, so every command prompts until it is fixed"
		return p
	}
	p.Message += "; ignoring this file"
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
	var policy *source
	var user, ws, all []source
	var fp strings.Builder
	var names []string
	for _, f := range files {
		src, ok := l.readFile(f.path, force, f.scope == scopePolicy)
		fp.WriteString(f.path)
		if ok {
			fp.WriteString("\x00" + src.hash)
			switch f.scope {
			case scopePolicy:
				policy = &src
			case scopeUser:
				user = append(user, src)
			default:
				ws = append(ws, src)
			}
			all = append(all, src)
		}
		fp.WriteString("\x00\x00")
		names = append(names, f.path)
	}
	if unless != "" && fp.String() == unless {
		return Snapshot{}, unless
	}
	s = combine(policy, user, ws)
	s.Files = names[1:] // the policy is Managed.File
	l.markNew(&s, all, names)
	return s, fp.String()
}

// PolicyChanged reports whether env's managed policy may have changed since
// this Loader last read it (one stat; true when it never read it). A client
// mode server calls it before each decision, as [Watcher.Current] checks
// the files, and builds a new snapshot when it says so.
func (l *Loader) PolicyChanged(env Env) bool {
	path := PolicyFile(env)
	l.mu.Lock()
	r, ok := l.files[path]
	l.mu.Unlock()
	if !ok {
		return true
	}
	info, err := os.Stat(path)
	return !r.current(info, err)
}

// readPolicy reads the managed policy of env for a snapshot built from
// client sections; nil when none is installed. Call with l.mu held.
func (l *Loader) readPolicy(env Env) (*source, string) {
	path := PolicyFile(env)
	if src, ok := l.readFile(path, false, true); ok {
		return &src, path
	}
	return nil, path
}

// fileSource is one settings file to read.
type fileSource struct {
	path  string
	scope scope
}

// scope is where a settings source sits: the managed policy, then user
// settings, then workspaces, each only tightening the one before.
type scope int

const (
	scopeWorkspace scope = iota
	scopeUser
	scopePolicy
)

// fileSources lists the managed policy of env, its user files, then each
// workspace root's file once (a root given twice is read once).
func (l *Loader) fileSources(env Env, workspaces []string) []fileSource {
	files := []fileSource{{PolicyFile(env), scopePolicy}}
	for _, path := range UserFiles(env) {
		files = append(files, fileSource{path, scopeUser})
	}
	seen := map[string]bool{}
	for _, root := range workspaces {
		path := WorkspaceFile(env, root)
		if !seen[path] {
			seen[path] = true
			files = append(files, fileSource{path, scopeWorkspace})
		}
	}
	return files
}

// FromSections is [FromSections] with this Loader's memory of reported
// problems. The managed policy is read from its system location; use
// [Loader.FromSectionsWithFiles] to give the [Env].
func (l *Loader) FromSections(user map[string]any, workspaces []map[string]any) Snapshot {
	return l.FromSectionsWithFiles(Env{}, user, workspaces, nil)
}

// FromSectionsWithFiles is [Loader.FromSections] plus the
// `.vscode/settings.json` of each of roots, read from disk as workspace
// sources after the sections' (so they can only tighten). It is for folders
// a request names that the client was not asked about; [Snapshot.Files]
// lists those files. The managed policy of env applies over all of them, as
// in [Load]: a client cannot loosen it either.
func (l *Loader) FromSectionsWithFiles(env Env, user map[string]any, workspaces []map[string]any, roots []string) Snapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	policy, policyPath := l.readPolicy(env)
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
		if src, ok := l.readFile(path, false, false); ok {
			ws = append(ws, src)
		}
	}
	s := combine(policy, us, ws)
	s.Files = files
	all := append(us, ws...)
	if policy != nil {
		all = append(all, *policy)
	}
	l.markNew(&s, all, append(append(names, policyPath), files...))
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

// combine applies the managed policy (nil: none), then merges user sources
// (in order), which can only tighten the policy, and then applies
// workspace sources, which can only tighten the user's.
func combine(policy *source, user, ws []source) Snapshot {
	s := Defaults()
	var probs []Problem
	warn := func(src source, key, format string, args ...any) {
		at := src.vals.pos[key]
		probs = append(probs, Problem{Severity: Warning, File: src.name, Line: at[0], Col: at[1], Message: fmt.Sprintf(format, args...)})
	}

	// The managed policy: what user and workspace settings start from.
	var pol values
	if policy != nil {
		probs = append(probs, policy.problems...)
		pol = policy.vals
		s.Managed = &Managed{File: policy.name, Invalid: policy.invalid, Enabled: pol.enabled, Refuse: pol.refuse}
		if pol.telemetry != nil {
			t := *pol.telemetry
			t.From, t.Managed = policy.name, true
			s.Telemetry = &t
		}
	}
	lockedOn := pol.enabled != nil && *pol.enabled
	base, capped := applyPolicyBudgets(budgets.Builtin(), pol.budgets)

	// User scope: several editors' files; none loosens another.
	userBudgets := map[string]map[string]string{}
	var logFrom, serverFrom, holdFrom, telemetryFrom string
	var userTelemetry *Telemetry
	userEnabled := true
	for _, src := range user {
		probs = append(probs, src.problems...)
		v := src.vals
		if v.enabled != nil && !*v.enabled {
			userEnabled = false
			if lockedOn {
				warn(src, KeyCommandSafety, "%s.%s false ignored: the managed policy (%s) locks it on", Section, KeyCommandSafety, policy.name)
			}
		}
		for agent, entries := range v.budgets {
			if !capped(agent) {
				continue
			}
			for _, w := range looserThan(base, agent, entries) {
				warn(src, KeyAgentBudgets, "%s.%s%s (%s)", Section, KeyAgentBudgets, w, policy.name)
			}
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
		if v.telemetry != nil {
			switch {
			case s.Telemetry != nil && s.Telemetry.Managed:
				if !v.telemetry.same(s.Telemetry) {
					warn(src, KeyTelemetry, "%s.%s ignored: the managed policy (%s) sets it", Section, KeyTelemetry, policy.name)
				}
			case telemetryFrom == "":
				t := *v.telemetry
				t.From, telemetryFrom = src.name, src.name
				userTelemetry, s.Telemetry = &t, &t
			case !v.telemetry.same(userTelemetry):
				warn(src, KeyTelemetry, "%s.%s ignored: already set by %s", Section, KeyTelemetry, telemetryFrom)
			}
		}
	}
	// The agents the policy caps start from its budgets and only tighten;
	// the others take the user's entries over the built-ins, as without one.
	free, tight := map[string]map[string]string{}, map[string]map[string]string{}
	for agent, entries := range userBudgets {
		if capped(agent) {
			tight[agent] = entries
		} else {
			free[agent] = entries
		}
	}
	set, err := base.WithUser(free)
	if err != nil { // entries are validated when read; defensive
		probs = append(probs, Problem{File: userSettingsSource, Message: err.Error()})
	}
	userSet, _ := set.WithWorkspace(tight) // only where stricter, as a workspace's; looser ones warned per file above
	s.Enabled = userEnabled || lockedOn
	if pol.enabled != nil && !*pol.enabled {
		s.Enabled = false
	}
	unmanagedUser, _ := budgets.Builtin().WithUser(userBudgets)

	// Workspace scope: only tightens.
	wsBudgets := map[string]map[string]string{}
	wsEnabled := true
	for _, src := range ws {
		probs = append(probs, src.problems...)
		v := src.vals
		if v.enabled != nil {
			switch {
			case !*v.enabled && lockedOn:
				warn(src, KeyCommandSafety, "%s.%s false ignored: the managed policy (%s) locks it on", Section, KeyCommandSafety, policy.name)
				wsEnabled = false
			case !*v.enabled:
				s.Enabled, wsEnabled = false, false
			case pol.enabled != nil && !*pol.enabled:
				warn(src, KeyCommandSafety, "%s.%s true ignored: the managed policy (%s) turns it off", Section, KeyCommandSafety, policy.name)
			case !userEnabled && !lockedOn:
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
		if v.telemetry != nil && !v.telemetry.same(s.Telemetry) {
			warn(src, KeyTelemetry, "%s.%s ignored: user settings only (a workspace cannot turn export on or point it elsewhere)", Section, KeyTelemetry)
		}
	}
	s.Budgets, _ = userSet.WithWorkspace(wsBudgets) // warnings reported per file above
	s.Budgets = refuseEverywhere(s.Budgets, pol.refuse)
	if s.Managed != nil {
		s.Managed.unmanagedBudgets, _ = unmanagedUser.WithWorkspace(wsBudgets)
		s.Managed.unmanagedEnabled = userEnabled && wsEnabled
		if s.Managed.Invalid != "" {
			s.Enabled = false // fail closed: every command prompts, and says why
		}
	}
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
