package classifier

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/ml-ai/command-safety/effects"
)

// frame is the source being walked: the whole command, or an `sh -c` string.
type frame struct {
	src   string
	base  int  // offset of src in the original command
	end   int  // when !exact, every span is [base, end)
	exact bool // offsets inside src map to base+offset
	// lang is the shell reading src: bash, zsh or POSIX sh.
	lang syntax.LangVariant
}

// zsh reports whether the source being walked is read as zsh.
func (w *walker) zsh() bool { return w.frame.lang == syntax.LangZsh }

// dialect is the dialect of the source being walked.
func (w *walker) dialect() Dialect { return dialectOf(w.frame.lang) }

// walker holds the state of one [Classify] call.
type walker struct {
	orig     string
	opts     Options
	frame    frame
	parts    []Part
	allKnown bool
	// ruleOptions: the entry being run is a user rule's, whose undeclared
	// options ruleUnknownOption reports.
	ruleOptions bool

	cwd      []string // candidate working directories (physical); "" is unknown
	dirStack [][]string
	// lcwd are the candidate working directories as bash's cd sees them
	// (logical, $PWD): `cd link && cd ..` goes back to where the link is,
	// not to the parent of its target. ldirStack is pushd's stack of them.
	lcwd []string
	// startCwd is the directory the agent runs the command in, as given:
	// a verifier there runs the project's own code (see emitClass).
	startCwd string
	// broadRoot is a workspace root given that is the filesystem root, the
	// home directory or a directory holding it: it is not taken as a root
	// (see init), and reasons about home and system paths say so.
	broadRoot string
	ldirStack [][]string
	// stackUncertain: a pushd may have failed, so the stack may lack what
	// the walker pushed and a popd may fail.
	stackUncertain bool
	cdpath         bool // CDPATH was assigned in this line
	// bins and manifests remember, for the command, which project
	// installations of programs exist and what package.json files say
	// (runners.go).
	bins      map[string]bool
	manifests map[string]manifest
	// requestEnv: the line sets or unsets a variable that moves an HTTP
	// client's requests (requestVar): no request of it is a local read.
	requestEnv bool

	funcs   map[string]*funcDef // functions the shell being walked has defined
	funcGen int                 // counts function definitions, to tell a stale walk
	calling map[*funcDef]bool   // functions being walked at a call
	vars    map[string]string   // literal values assigned in this line
	attrs   varAttrs            // attributes declared in this line (arith.go)
	// lits are the exact literal values of plain assignments, followed
	// into later words (substitute.go); a subset of vars.
	lits map[string]string
	// globVars are the variables whose values are a glob's file names
	// (`for f in *.go`), which are no options (mayBeOption).
	globVars map[string]bool
	// dashDirs are the directories listed for globs that may expand to
	// options, by path (globopts.go).
	dashDirs map[string]dashList
	// nameVisits counts the names the arithmetic checks looked up (arith.go).
	nameVisits int
	// env are the assignments of variables programs read (env.go), in
	// the order the walk met them.
	env []*envAssign
	// namerefs maps a nameref (`declare -n p=PATH`) to the variable it
	// names, "" when that is only known at run time (env.go).
	namerefs map[string]string

	// fail says where the statement walked last leaves the shell's
	// directory when it fails (its success leaves it in cwd): `X && Y` runs
	// Y from X's success, and what follows from either end.
	fail   failKind
	failSt cwdState // the state on failure, when fail is failAt

	// Facts for the line-wide rules of SPEC §5.5.
	credential *Part // first part that reads stored credentials
	// credentialNames: a find in the line prints names of files that may
	// hold stored credentials; an xargs or parallel given names runs its
	// command on them (`find . -name '.env*' | xargs curl -T`).
	credentialNames bool
	pendingNames    []func() bool // finds whose printed names are not judged yet
	// findNul are the names the find just walked prints NUL-separated and
	// nothing else (`find src -print0`): paths below its start, the set
	// `-exec CMD {} +` gets; nil for any other command. pipeNul is findNul
	// of the command on the left of the pipe being walked, which an
	// `xargs -0` there takes for its names ([invocation.xargs]).
	findNul, pipeNul []field
	// found are the values find puts for `{}` in the command it is
	// running: its expression decides whether they may be credentials,
	// not their glob.
	found []string
	// globWork counts the work of comparing globs with credential names
	// (see maxGlobWork).
	globWork int
	// printed: the credential is the output of a command that fetches it
	// (`vault kv get`): only another part reaching the network sends it on.
	printed  bool
	networks [][2]int // spans of the parts that reach the network
	deepDone bool
	// units counts the syntax of every source parsed (the command and the
	// `sh -c` strings in it) against MaxUnits.
	units     int
	largeDone bool
	// unitLimit is MaxUnits for each reading of the command: a command
	// read as bash and as zsh may have twice the units in all.
	unitLimit int

	physRoots []string // workspace roots with symlinks resolved, computed on first use
	rootsDone bool
	// hooksPaths are the hook directories the workspace roots' repositories
	// configure (core.hooksPath), read once per command; see configuredHooks.
	hooksPaths     []string
	hooksPathsDone bool
	expandCfg      *expand.Config
	evalCache      map[string]prefix // evalPrefix's results for this call
	// resolutions counts the prefixes resolved on the filesystem; past
	// maxResolutions further paths are left unresolved (unknown).
	resolutions int
	capped      bool   // a path was left unresolved by the cap
	pathBuf     []byte // physicalIn's scratch space
	linkHops    int    // dangling symlinks being followed (dangling)

	// store is the rule store's concrete members resolved on the
	// filesystem, built on the first write or deletion (store.go);
	// binaries are the gate's own, built on the first program run by path.
	store    *ruleStore
	binaries []storeMember
	binDone  bool
	// storeAlias names, for a path found to be a rule-store member through
	// an alias, the member it is (for the reason).
	storeAlias map[string]string

	// The links the command makes and what it writes, deletes and climbs
	// out of with `..`, for the check in links.go.
	links        []linkPath
	linksUnknown bool // a link whose path is only known at run time
	touched      []touch
	dotdots      []string
	noTouch      bool            // the write being classified makes a link
	seenCalls    map[string]bool // commands classified past the part cap
	kinds        []partKind      // the distinct kinds among parts
	kindsBuf     [8]partKind     // kinds' first storage: most commands have few
	// zshOpts, when set, says which `setopt` (or `emulate`, `options[..]=`)
	// made zsh read later words in ways the walker does not model: the
	// next statement is refused (zsh.go), once (zshOptsRefused).
	zshOpts        string
	zshOptsRefused bool
	// dedupe, once a source is read in several dialects, keeps each part
	// once: what the readings agree on is not repeated. Past dedupeScan
	// parts, seenParts holds them all.
	dedupe    bool
	seenParts map[partKey]bool
	// offered counts the parts given to add that it kept or found seen:
	// past MaxParts only parts of a new kind are kept, so that a second
	// reading's repeats do not cost the first's formatting again.
	offered int

	// hookContent is what the statement being walked writes through its
	// redirections, when it is known (`echo ls > .git/hooks/pre-commit`).
	hookContent *string
	hookAt      syntax.Node
	hookDepth   int
	// writtenCode maps the files the line writes with known content to
	// that content: a later part of the line that runs one as a script
	// runs that code (`echo 'rm -rf ~' > x.sh && sh x.sh`).
	writtenCode map[string]string
	// staged are the files the line writes with content it does not know,
	// and imports what it brings in from outside the workspace as it goes:
	// running a staged file runs code from elsewhere (staged.go).
	staged   []stagedWrite
	imports  []importMark
	copying  bool // the write being classified copies, moves or links sources
	fetching bool // the program writing now reaches the network: a tree (git clone URL dir)
	// copyInto are the names the sources of the copy being classified
	// take in a destination directory (nil: not known).
	copyInto []string
	fed      bool // the statement walked now reads a pipe or a here-document
	// tick orders imports and staged writes, in every reading; invAt is
	// its value when the program run now started (0: none): what that
	// program brings in counts for every file it writes.
	tick  int
	invAt int
	// hashed maps the names `hash -p PATH NAME` (zsh: `hash NAME=PATH`)
	// made run another file, for the rest of the line.
	hashed      map[string]string
	hookFromDoc bool    // hookContent is a here-document cat writes
	teeContent  *string // what tee, walked now, writes to its files
	// pipedText is the literal text the producer of the pipe walked now
	// prints (`echo CODE | tee x.sh`), or nil. pipedExact is that text
	// where it is known to the byte in every shell ([walker.exactPrinted]).
	pipedText, pipedExact *string
	// input is the stdin of the command whose statements are walked (a
	// group, a loop, a function call, a program running code), read by
	// each of them that does not redirect its own; nil for the caller's.
	input *redirInfo
	// execInput is the shell's stdin after `exec < FILE` in the line.
	execInput *redirInfo
	// gitWorkTree is the work tree a `git config core.worktree VALUE`
	// earlier in the line set: git's later commands work there.
	gitWorkTree *field

	// traceArgv, when set (by tests), sees every program invocation with
	// the context it runs in.
	traceArgv func(prog string, ctx callCtx)
}

func newWalker(src string, opts Options) *walker {
	w := new(walker)
	w.init(src, opts)
	return w
}

// walkers recycles the walkers of finished classifications ([Classify]):
// a walker is large, and one allocated per command is a fifth of what a
// typical command allocates, which the garbage collector pays for.
var walkers = sync.Pool{New: func() any { return new(walker) }}

// init makes w, a zero walker (new, or recycled by [walker.release]) but
// for its scratch space, the walker for src with opts.
func (w *walker) init(src string, opts Options) {
	w.orig, w.opts, w.allKnown, w.unitLimit = src, opts, true, MaxUnits*len(opts.Shell.readings())
	w.kinds = w.kindsBuf[:0]
	w.opts.Home = ""
	w.opts.Home = w.absPath(opts.Home)
	w.cwd = []string{w.absPath(opts.Cwd)}
	w.lcwd = w.cwd
	w.startCwd = w.cwd[0]
	// A copy: the caller's slice may be shared by classifications running
	// at once (the rule checker's), and is never written.
	w.opts.Workspaces = make([]string, len(opts.Workspaces))
	w.broadRoot = ""
	for i, r := range opts.Workspaces {
		w.opts.Workspaces[i] = w.absPath(r)
		if a := w.opts.Workspaces[i]; a != "" && w.tooBroad(a, w.opts.Home) {
			// `/`, `~` or `/home` as a workspace would make every write to
			// the home directory or the system "inside" (SPEC §5.2 protects
			// them): such a root is skipped, as one that cannot be placed is.
			w.opts.Workspaces[i], w.broadRoot = "", a
		}
	}
	if opts.Platform == Windows && len(opts.RuleStore) > 0 {
		// The store as the classifier spells paths (the caller's slice
		// stays as it is).
		store := make([]string, 0, len(opts.RuleStore))
		for _, p := range opts.RuleStore {
			if q := w.absPath(p); q != "" {
				store = append(store, q)
			}
		}
		w.opts.RuleStore = store
	}
}

// tooBroad reports whether the workspace root r (absolute, in the
// classifier's spelling) is the filesystem root, a drive's root on
// Windows, a system root itself (`/etc`, `/usr`, a drive's Windows or
// Program Files folder: a project below one, as /opt/app, stays a
// workspace), the home directory or a directory that
// holds it: home is the home directory as given, or for a root whose
// links are resolved, as they resolve it.
func (w *walker) tooBroad(r, home string) bool {
	if r == "/" || w.opts.Platform == Windows && dirOf(r) == "/" {
		return true
	}
	if w.opts.Platform != Windows && slices.ContainsFunc(systemRoots, func(s string) bool { return w.same(r, s) }) {
		return true
	}
	if w.opts.Platform == Windows && dirOf(dirOf(r)) == "/" && windowsSystem(r+"/x") {
		return true // C:\Windows, C:\ProgramData, C:\Program Files themselves
	}
	return home != "" && (w.same(r, home) || w.under(home, r))
}

// release gives w back to [walkers], zero but for its scratch space, as
// [walker.init] expects it: it holds nothing of the classification it made
// (its parts are the caller's now).
func (w *walker) release() {
	*w = walker{pathBuf: w.pathBuf[:0]}
	walkers.Put(w)
}

func (w *walker) add(p Part) {
	switch {
	case p.Class == effects.Network:
		w.networks = append(w.networks, [2]int{p.Start, p.End})
		w.noteImport(p.Text, true)
	case p.Class == effects.OpaqueHigh && p.Refusal == "":
		p.Refusal = effects.UnidentifiableProgram // §5.7
	case p.Class == effects.Privilege && p.Refusal == "":
		p.Refusal = effects.PrivilegeEscalation // §5.3
	}
	if p.Class == effects.OpaqueMedium || p.Class == effects.OpaqueHigh {
		w.noteImport(p.Text, false)
	}
	if !w.keeps(p) {
		return
	}
	w.offered++
	if w.dedupe && w.seen(p) {
		return // several readings of one source make the same parts
	}
	k := partKind{p.Class, p.Refusal}
	if !slices.Contains(w.kinds, k) {
		w.kinds = append(w.kinds, k)
	}
	w.parts = append(w.parts, p)
}

// partKind is what past [MaxParts] makes a part worth keeping.
type partKind struct {
	class   effects.Class
	refusal effects.Rule
}

// keeps reports whether add would keep p (its Class and Refusal final):
// past [MaxParts] a part is kept only when it adds a class or a refusal not
// seen yet, so the decision is the same and the verdict stays small. Callers
// that build long reasons ask first.
func (w *walker) keeps(p Part) bool {
	return w.offered < MaxParts || !slices.Contains(w.kinds, partKind{p.Class, p.Refusal})
}

// span returns the original-command span and text of a node in the frame.
func (w *walker) span(n syntax.Node) (int, int, string) {
	return w.spanOf(int(n.Pos().Offset()), int(n.End().Offset()))
}

func (w *walker) spanOf(s, e int) (int, int, string) {
	f := w.frame
	if s < 0 || e > len(f.src) || s > e {
		s, e = 0, len(f.src)
	}
	text := f.src[s:e]
	if !f.exact {
		return f.base, f.end, text
	}
	return f.base + s, f.base + e, text
}

// part builds a part for node n.
func (w *walker) part(n syntax.Node, class effects.Class, program, reason string) Part {
	s, e, t := w.span(n)
	return Part{Class: class, Text: t, Start: s, End: e, Program: program, Reason: reason}
}

// tooDeep refuses the command, once, for nesting deeper than MaxDepth.
func (w *walker) tooDeep() {
	w.refuseWhole(&w.deepDone, effects.TooDeep, fmt.Sprintf("the command nests deeper than %d levels", MaxDepth))
}

// tooLarge refuses the command, once, for having more syntax than MaxUnits.
func (w *walker) tooLarge() {
	w.refuseWhole(&w.largeDone, effects.TooLarge, fmt.Sprintf("the command has more than %d words (brace expansions counted), operators, quotes and expansions, over the limit that keeps classification fast; split it", MaxUnits))
}

// refuseWhole refuses the whole command under rule, once (done records it).
func (w *walker) refuseWhole(done *bool, rule effects.Rule, reason string) {
	if *done {
		return
	}
	*done = true
	w.allKnown = false
	w.add(Part{Class: effects.Unknown, Text: w.orig, Start: 0, End: len(w.orig), Refusal: rule, Reason: reason})
}

func (w *walker) unsupported(n syntax.Node, what string) {
	p := w.part(n, effects.Unknown, "", "the command uses "+what+", which the classifier does not support")
	p.Refusal = effects.Unparseable
	w.allKnown = false
	w.add(p)
}

// stmts walks a statement list in order; cwd changes flow from one to the next.
func (w *walker) stmts(list []*syntax.Stmt, depth int) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	for _, s := range list {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
			// What follows a chain sees an assignment in it that may not
			// have run (arith.go).
			vars := w.saveVars()
			w.stmt(s, depth, stdinNone)
			w.joinVars(vars)
			continue
		}
		w.stmt(s, depth, stdinNone)
	}
}

// stdinKind says where a command's standard input comes from.
type stdinKind int

const (
	stdinNone stdinKind = iota // the terminal or whatever the caller gave
	stdinPipe                  // the previous command of a pipeline
)

func (w *walker) stmt(s *syntax.Stmt, depth int, in stdinKind) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	w.settle() // a statement starts where the previous one ended, however
	if w.zshOpts != "" {
		w.zshAfterOptions(s)
	}
	if s.Background || s.Coprocess || s.Disown {
		// A job in a child process: its cd and assignments stay there.
		saved, vars := w.saveCwd(), w.saveVars()
		w.stmtNow(s, depth, in)
		w.restoreCwd(saved)
		w.restoreVars(vars)
		return
	}
	w.stmtNow(s, depth, in)
	if s.Negated {
		w.negate()
	}
}

// stmtNow walks a statement that the shell runs itself.
func (w *walker) stmtNow(s *syntax.Stmt, depth int, in stdinKind) {
	w.hookContent = nil
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(s.Redirs) > 0 {
		w.hookContent, w.hookAt, w.hookDepth = w.echoed(c), c, depth
		if w.hookContent == nil {
			// Only for a script run later in the line: a git hook written
			// this way stays content that is not inspected.
			w.hookContent = w.catDoc(c, s.Redirs)
			w.hookFromDoc = w.hookContent != nil
		}
	}
	staged := len(w.staged)
	red := w.redirects(s.Redirs, depth)
	w.hookContent, w.hookFromDoc = nil, false
	switch {
	case red.hasInput() && in == stdinPipe && w.zsh():
		// zsh reads the pipe too, after the redirection (MULTIOS):
		// `echo 'rm -rf ~' | bash < /dev/null` runs the pipe.
		if red.stdinNull {
			red = redirInfo{stdin: stdinPipe, wrote: red.wrote}
		} else {
			red = red.atRunTime()
		}
	case red.hasInput():
		// a redirection overrides the pipe (bash, sh)
	case in == stdinPipe:
		red.stdin = in
	case w.input != nil:
		// What the enclosing command reads: a group's or loop's
		// redirection or pipe, a function call's, the stdin of a
		// program running this code (`echo .. | { bash; }`, `sh -c bash
		// < f`, `ssh host bash < f`).
		red = w.input.withWrote(red.wrote)
	case w.execInput != nil:
		red = w.execInput.withWrote(red.wrote) // after `exec < f`
	}
	if s.Cmd == nil {
		if len(s.Redirs) > 0 && !red.wrote {
			w.add(w.part(s, effects.Read, "", ""))
		}
		return
	}
	fed := w.fed
	if w.fed = red.stdin == stdinPipe || red.stdinDyn || red.script != nil || red.scriptDyn; w.fed {
		// What it prints is computed from input the line does not follow.
		for i := staged; i < len(w.staged); i++ {
			w.staged[i].fed = true
		}
	}
	defer func() { w.fed = fed }()
	piped, exact := w.pipedText, w.pipedExact
	w.pipedText, w.pipedExact = nil, nil
	if in == stdinPipe && red.stdin == stdinPipe && !red.stdinDyn && !red.scriptDyn && red.script == nil {
		red.pipeText = exact // `echo 'select 1' | sqlite3 app.db`
	}
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 1 {
		// `tee x.sh <<< CODE` writes its files with the document, and
		// `echo CODE | tee x.sh` with the text piped in: a script run
		// later in the line runs it (runWritten), nothing else.
		if e := w.lookup(c.Args[0].Lit()); e != nil && e.Name == "tee" {
			if len(s.Redirs) > 0 {
				w.teeContent = w.literalDoc(s.Redirs)
			}
			if w.teeContent == nil && in == stdinPipe && red.stdin == stdinPipe {
				w.teeContent = piped
			}
			defer func() { w.teeContent = nil }()
		}
	}
	w.command(s.Cmd, depth, red)
}

// redirInfo is what a statement's redirections say about its input.
type redirInfo struct {
	stdin     stdinKind
	stdinFile string  // absolute path read as stdin, "" if none or unknown
	stdinDyn  bool    // stdin comes from a file we cannot name, or a process substitution
	stdinNull bool    // stdin is /dev/null as written: an empty input
	script    *string // literal here-doc or here-string body
	pipeText  *string // stdin is the pipe, and this is what it carries, to the byte
	scriptDyn bool    // here-doc body with expansions
	scriptAt  syntax.Node
	wrote     bool
}

// atRunTime is r with its stdin only known at run time: several sources
// read in turn (zsh's MULTIOS), one of them dynamic.
func (r redirInfo) atRunTime() redirInfo {
	r.stdinDyn, r.scriptDyn = true, true
	r.script, r.stdinFile, r.stdinNull, r.pipeText = nil, "", false, nil
	return r
}

// hasInput reports whether the redirections or the pipe give stdin.
func (r redirInfo) hasInput() bool {
	return r.stdin != stdinNone || r.stdinFile != "" || r.stdinDyn || r.script != nil || r.scriptDyn
}

// input is what a command carried by the one with these redirections reads
// (`timeout 5 bash < f`): its stdin, not its writes.
func (r redirInfo) input() redirInfo {
	r.wrote = false
	return r
}

// shared is the stdin that the commands of a group, a loop, a function or
// a program's code read in turn: a literal document is consumed by whichever
// reads first, so what an interpreter among them gets of it is only known
// at run time (`{ head -c3; bash; } <<< CODE`).
func (r redirInfo) shared() redirInfo {
	r = r.input()
	if r.script != nil {
		r.script, r.scriptDyn = nil, true
	}
	r.pipeText = nil // a pipe's text too
	return r
}

// withWrote is r with the given wrote.
func (r redirInfo) withWrote(wrote bool) redirInfo {
	r.wrote = wrote
	return r
}

func (w *walker) redirects(rs []*syntax.Redirect, depth int) redirInfo {
	var info redirInfo
	for _, r := range rs {
		// Only a redirection of descriptor 0 is what the command reads as
		// stdin (`bash 3<<<ls` reads its pipe, not the here-string), and
		// the last one wins (`bash <<<ls </tmp/x` reads /tmp/x).
		prev := info
		if stdinRedirect(r) && !dupOfStdin(r) {
			info = redirInfo{wrote: info.wrote}
		}
		w.redirect(r, &info, depth)
		if !stdinRedirect(r) {
			// Another descriptor (`3<<<CODE`, `4</tmp/x`): read, its
			// substitutions walked, but not stdin.
			prev.wrote = info.wrote
			info = prev
		} else if w.zsh() && prev.hasInput() && !prev.stdinNull && !dupOfStdin(r) {
			// zsh reads every redirection of stdin in turn (MULTIOS, on
			// by default): `bash <<<ls </tmp/x` runs both.
			if !info.stdinNull {
				info = info.atRunTime()
			} else {
				prev.wrote = info.wrote
				info = prev
			}
		}
	}
	return info
}

// redirect classifies one redirection into info.
func (w *walker) redirect(r *syntax.Redirect, info *redirInfo, depth int) {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		// `{name}>f` assigns the descriptor to name, evaluating its subscript.
		w.nameField(field{value: strings.Trim(r.N.Value, "{}")}, r)
		if name := strings.Trim(r.N.Value, "{}"); isNameLit(name) {
			w.setVar(name, numberValue)
		}
	}
	if r.Word != nil {
		w.wordSubst(r.Word, depth)
		if w.zsh() && r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
			w.zshGlobs(r.Word, depth)
		}
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
		syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
		info.wrote = true
		w.redirectWrite(r)
		if r.Op == syntax.RdrInOut && stdinRedirect(r) {
			info.stdinDyn = true // `bash <>FILE` reads FILE as its script
		}
	case syntax.DplOut, syntax.DplIn:
		// `2>&1`, `>&-`: duplications are not writes. `>&file` is.
		if lit := r.Word.Lit(); lit != "" && (lit == "-" || isDigits(strings.TrimSuffix(lit, "-"))) {
			if stdinRedirect(r) && lit != "-" && strings.TrimSuffix(lit, "-") != "0" {
				// `<&3`, `0<&3`, `0>&3`: stdin is what descriptor 3
				// holds, opened earlier or inherited.
				info.stdinDyn = true
			}
			return
		}
		if r.Op == syntax.DplOut {
			info.wrote = true
			w.redirectWrite(r)
		}
	case syntax.RdrIn:
		if hasProcSubst(r.Word) {
			info.stdinDyn = true
			return
		}
		f := w.word(r.Word)
		if f.dynamic || len(f.fields) != 1 {
			w.noteDynamicRead(r, r.Word) // `< /proc/$$/environ`
			info.stdinDyn = true
			return
		}
		if ownInput(f.fields[0].value) {
			// `< /dev/stdin`, `< /dev/fd/0`: the command's own input,
			// which resolving here would take for the gate's.
			info.stdinDyn = true
			return
		}
		w.netRedirect(r, f.fields[0].value)
		p := w.resolve(f.fields[0].value, f.fields[0].glob)
		w.noteRead(r, f.fields[0].value, p)
		w.noteReadField(r, f.fields[0]) // a glob: `< ~/.env*`
		if len(p) == 1 && p[0] != "" {
			info.stdinFile = p[0]
			info.stdinNull = !f.fields[0].glob && path.Clean(f.fields[0].value) == "/dev/null"
		} else {
			info.stdinDyn = true
		}
	case syntax.Hdoc, syntax.DashHdoc:
		info.scriptAt = r
		if r.Hdoc == nil {
			s := ""
			info.script = &s
			return
		}
		if quotedDelimiter(r.Word) {
			// A quoted delimiter (even in part: E"O"F) makes the body
			// data. mvdan/sh parses `E"O"F` bodies as if unquoted, so
			// take the body's source text then.
			s := literalDoc(r.Hdoc)
			if !allLit(r.Hdoc) {
				_, _, s = w.spanOf(int(r.Hdoc.Pos().Offset()), int(r.Hdoc.Parts[len(r.Hdoc.Parts)-1].End().Offset()))
				if delim := w.word(r.Word).values(); len(delim) == 1 {
					s = strings.TrimSuffix(strings.TrimRight(s, "\n"), delim[0])
				}
			}
			info.script = &s
			return
		}
		w.wordSubst(r.Hdoc, depth)
		if isDynamicWord(r.Hdoc, w.opts.Home != "") {
			info.scriptDyn = true
			return
		}
		s := literalDoc(r.Hdoc)
		info.script = &s
	case syntax.WordHdoc:
		info.scriptAt = r
		f := w.word(r.Word)
		if f.dynamic {
			info.scriptDyn = true
			return
		}
		s := strings.Join(f.values(), " ") + "\n"
		info.script = &s
	default:
		w.unsupported(r, "the redirection "+r.Op.String())
	}
}

// ownInput reports whether v names a process's own descriptors (/dev/stdin,
// /dev/fd/N, /proc/self/fd/N): what it is depends on the process reading
// it, not on anything the gate can resolve.
func ownInput(v string) bool {
	v = path.Clean(v)
	switch {
	case v == "/dev/stdin", strings.HasPrefix(v, "/dev/fd/"), v == "/dev/fd",
		strings.HasPrefix(v, "/proc/self/"), strings.HasPrefix(v, "/proc/thread-self/"):
		return true
	}
	return false
}

// dupOfStdin reports whether r duplicates descriptor 0 onto itself
// (`<&0`), which changes nothing.
func dupOfStdin(r *syntax.Redirect) bool {
	if r.Op != syntax.DplIn && r.Op != syntax.DplOut {
		return false
	}
	lit := r.Word.Lit()
	return lit == "0" || lit == "0-" // `<&0-` moves descriptor 0 onto itself
}

// execOnly reports whether c is `exec` with no command: its redirections
// stay the shell's (`exec < /tmp/x; bash` runs /tmp/x).
func (w *walker) execOnly(c *syntax.CallExpr) bool {
	if len(c.Args) != 1 {
		return false
	}
	e := w.lookup(c.Args[0].Lit())
	return e != nil && e.Name == "exec"
}

// stdinRedirect reports whether r may change what descriptor 0 reads: an
// input redirection (`<`, `<>`, here-documents, `<&N`) of no descriptor or
// of 0, or `0>&N`. `{name}<f` opens a new descriptor.
func stdinRedirect(r *syntax.Redirect) bool {
	if r.N != nil && (r.N.Value == "" || strings.Trim(r.N.Value, "0") != "") {
		return false // `00<` is descriptor 0 too (bash; in zsh `00` is a word and `<` stdin)
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return true
	case syntax.DplOut:
		return r.N != nil // `0>&3`
	}
	return false
}

// echoed returns what an `echo` or `printf` of literal words prints, or nil.
func (w *walker) echoed(c *syntax.CallExpr) *string {
	if len(c.Args) == 0 {
		return nil
	}
	name := ""
	if e := w.lookup(c.Args[0].Lit()); e != nil {
		name = e.Name // keyed on the entry, like every behaviour
	}
	if name != "echo" && name != "printf" {
		return nil
	}
	var words []string
	for _, a := range c.Args[1:] {
		f := w.word(a)
		if f.dynamic {
			return nil
		}
		words = append(words, f.values()...)
	}
	if len(words) > 0 && (words[0] == "-e" || words[0] == "-n" || words[0] == "-E") {
		words = words[1:]
	}
	s := strings.Join(words, " ")
	if name == "printf" || strings.Contains(s, `\n`) {
		s = strings.ReplaceAll(s, `\n`, "\n")
	}
	return &s
}

// catDoc is what `cat > f <<'EOF' ... EOF` (or `cat > f <<< 'CODE'`)
// writes when the document is literal: the text of the here-document or
// here-string; nil for anything else.
func (w *walker) catDoc(c *syntax.CallExpr, rs []*syntax.Redirect) *string {
	if len(c.Args) != 1 {
		return nil
	}
	if e := w.lookup(c.Args[0].Lit()); e == nil || e.Name != "cat" {
		return nil
	}
	return w.literalDoc(rs)
}

// literalDoc is the text of the literal here-document or here-string
// among rs, or nil.
func (w *walker) literalDoc(rs []*syntax.Redirect) *string {
	var doc *string
	for _, r := range rs {
		if !stdinRedirect(r) {
			continue // `cat 3<<<x` prints its stdin, not x
		}
		if r.Op == syntax.DplIn || r.Op == syntax.DplOut {
			if lit := r.Word.Lit(); lit == "0" || lit == "0-" {
				continue
			}
		}
		doc = nil // the last redirection of stdin wins
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil && allLit(r.Hdoc) {
				s := literalDoc(r.Hdoc)
				doc = &s
			}
		case syntax.WordHdoc:
			if f := w.word(r.Word); !f.dynamic {
				s := strings.Join(f.values(), " ") + "\n"
				doc = &s
			}
		}
	}
	return doc
}

func allLit(word *syntax.Word) bool {
	for _, p := range word.Parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return false
		}
	}
	return true
}

// quotedDelimiter reports whether a here-document delimiter has any quoting.
func quotedDelimiter(word *syntax.Word) bool {
	if word == nil {
		return false
	}
	for _, p := range word.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.Contains(x.Value, "\\") {
				return true
			}
		default:
			return true
		}
	}
	return false
}

func literalDoc(word *syntax.Word) string {
	var b strings.Builder
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		}
	}
	return b.String()
}

// redirectWrite classifies the target of an output redirection (SPEC §3 rule 4).
func (w *walker) redirectWrite(r *syntax.Redirect) {
	if hasProcSubst(r.Word) {
		return // `> >(cmd)`: the inner command was walked
	}
	f := w.word(r.Word)
	if f.dynamic || len(f.fields) != 1 {
		w.write(w.part(r, effects.WriteOutside, "", ""), "", true)
		return
	}
	target := f.fields[0].value
	if harmlessDevice(target) || w.netRedirect(r, target) {
		return
	}
	for _, p := range w.resolve(target, f.fields[0].glob) {
		w.write(w.part(r, effects.WriteOutside, "", ""), p, p == "")
	}
}

// netRedirect classifies a redirection to target that bash turns into a
// connection (`> /dev/tcp/HOST/PORT`, `< /dev/udp/HOST/PORT`, `3<>`): a
// part that reaches the network, not a file opened. Other shells open the
// file of that name, which does not exist. It reports whether it was one.
func (w *walker) netRedirect(r *syntax.Redirect, target string) bool {
	if w.frame.lang != syntax.LangBash {
		return false
	}
	rest, ok := strings.CutPrefix(target, "/dev/tcp/")
	if !ok {
		rest, ok = strings.CutPrefix(target, "/dev/udp/")
	}
	if !ok || !strings.Contains(rest, "/") {
		return false
	}
	w.add(w.part(r, effects.Network, "", fmt.Sprintf("`%s` opens a network connection (bash's %s)", w.textOf(r), target)))
	return true
}

func harmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero":
		return true
	}
	if rest, ok := strings.CutPrefix(p, "/dev/fd/"); ok && isDigits(rest) {
		return true
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (w *walker) command(cmd syntax.Command, depth int, red redirInfo) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	if red.hasInput() {
		// The statements inside (a group's, a loop's, a function's, the
		// code a program runs) read this stdin unless they redirect
		// their own.
		saved := w.input
		in := red.shared()
		w.input = &in
		defer func() { w.input = saved }()
	}
	switch c := cmd.(type) {
	case *syntax.CallExpr:
		if in := w.input; in != nil && red.hasInput() && w.execOnly(c) {
			// `exec < f`: the shell's own stdin, for the rest of the line.
			w.execInput = in
		}
		w.call(c, depth, red)
	case *syntax.BinaryCmd:
		// A chain of `&&`, `||` and `|` is a list, not nesting: the
		// parser nests each operator's left side (`a && b && c` is `(a && b)
		// && c`), so both sides stay at the chain's depth. Only real nesting
		// (substitutions, groups, bodies) counts toward MaxDepth; a chain's
		// length is bounded by MaxUnits.
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			// bash runs every element in a child process; zsh runs the
			// last one in the shell: it may or may not move the shell.
			before, vars := w.saveCwd(), w.saveVars()
			w.findNul = nil
			w.stmt(c.X, depth, red.stdin)
			var nul []field
			if _, simple := c.X.Cmd.(*syntax.CallExpr); simple && len(c.X.Redirs) == 0 && !c.X.Background && !c.X.Negated {
				nul = w.findNul
			}
			w.findNul = nil
			w.settle()
			w.restoreCwd(before)
			w.restoreVars(vars)
			outer := w.pipeNul
			w.pipeNul = nul
			w.pipedText, w.pipedExact = w.printedText(c.X), w.exactPrinted(c.X)
			w.stmt(c.Y, depth, stdinPipe)
			w.pipedText, w.pipedExact = nil, nil
			w.pipeNul = outer
			if !w.zsh() {
				w.restoreVars(vars)
			}
			w.settle()
			w.restoreCwd(unionState(before, w.saveCwd()))
		case syntax.AndStmt: // worst wins for effects; Y runs where X succeeded
			w.stmt(c.X, depth, red.stdin)
			xFailed, ok := w.takeFail()
			w.stmt(c.Y, depth, red.stdin)
			if ok {
				w.alsoFails(xFailed) // X && Y fails also where X failed
			}
		default: // ||: Y runs where X failed
			w.stmt(c.X, depth, red.stdin)
			xFailed, ok := w.takeFail()
			xOK := w.saveCwd()
			if ok {
				w.restoreCwd(xFailed)
			}
			w.stmt(c.Y, depth, red.stdin)
			if !ok { // X cannot fail: Y never runs
				w.restoreCwd(xOK)
				w.fail = failNever
				break
			}
			yFailed, yok := w.takeFail()
			w.restoreCwd(unionState(xOK, w.saveCwd())) // X || Y succeeds where either did
			w.fail = failNever
			if yok {
				w.alsoFails(yFailed)
			}
		}
	case *syntax.Subshell:
		saved, vars := w.saveCwd(), w.saveVars()
		w.stmts(c.Stmts, depth+1)
		w.restoreCwd(saved)
		w.restoreVars(vars)
	case *syntax.Block:
		w.stmts(c.Stmts, depth+1)
	case *syntax.IfClause:
		vars := w.saveVars() // a branch's assignments may not run
		w.ifClause(c, depth)
		w.joinVars(vars)
	case *syntax.WhileClause:
		vars := w.saveVars() // the body may run no time
		defer w.joinVars(vars)
		w.loop(c, depth, func() {
			w.stmts(c.Cond, depth+1)
			w.settle()
			w.stmts(c.Do, depth+1)
		})
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			for _, it := range l.Items {
				w.wordSubst(it, depth+1)
				if w.zsh() {
					w.zshGlobs(it, depth+1)
				}
			}
			w.loopVar(l)
			w.loopEnv(l, c, depth)
		case *syntax.CStyleLoop:
			w.arith(l.Init, depth+1)
			w.arith(l.Cond, depth+1)
			w.arith(l.Post, depth+1)
		default:
			w.unsupported(c, "a loop form")
		}
		vars := w.saveVars()
		w.loop(c, depth, func() { w.stmts(c.Do, depth+1) })
		w.joinVars(vars)
	case *syntax.CaseClause:
		w.wordSubst(c.Word, depth+1)
		vars := w.saveVars() // an item's assignments may not run
		defer w.joinVars(vars)
		start := w.saveCwd()
		end := start // no pattern matched
		from := start
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.wordSubst(p, depth+1)
			}
			w.restoreCwd(from)
			w.stmts(it.Stmts, depth+1)
			w.settle()
			end = unionState(end, w.saveCwd())
			from = start
			if it.Op != syntax.Break {
				// ;& and ;;& go on into the next item from here.
				from = unionState(start, w.saveCwd())
			}
		}
		w.restoreCwd(end)
	case *syntax.FuncDecl:
		w.funcDecl(c, depth)
	case *syntax.ArithmCmd:
		w.add(w.part(c, effects.Read, "", ""))
		w.arith(c.X, depth+1)
	case *syntax.TestClause:
		w.add(w.part(c, effects.Read, "", ""))
		w.test(c.X, depth+1)
	case *syntax.DeclClause:
		w.decl(c, depth)
	case *syntax.LetClause:
		w.add(w.part(c, effects.Read, "", ""))
		for _, x := range c.Exprs {
			w.letArg(x, depth+1)
		}
	case *syntax.TimeClause:
		if c.Stmt == nil {
			w.add(w.part(c, effects.Read, "time", ""))
			return
		}
		w.stmt(c.Stmt, depth+1, red.stdin)
	case *syntax.CoprocClause:
		if c.Name != nil {
			// bash expands the name, and its subscript, before it checks it.
			w.wordSubst(c.Name, depth+1)
			w.nameField(w.wordField(c.Name), c.Name)
		}
		w.stmt(c.Stmt, depth+1, stdinNone)
	default:
		w.unsupported(cmd, fmt.Sprintf("%T", cmd))
	}
}

// cwdState is the shell's tracked working directory and pushd stack, saved
// around subshells and substitutions (their cd does not leak out). Saving
// copies no slices: the walker never writes the elements of these slices in
// place, it replaces them (cd), appends to them (pushd) or reslices them
// (popd), so a saved state stays what it was.
type cwdState struct {
	cwd, lcwd           []string
	dirStack, ldirStack [][]string
	stackUncertain      bool
	// execInput is the shell's stdin set by `exec < FILE`: like the
	// directory, a subshell's, a pipeline element's or a job's stays there.
	execInput *redirInfo
}

func (w *walker) saveCwd() cwdState {
	return cwdState{w.cwd, w.lcwd, w.dirStack, w.ldirStack, w.stackUncertain, w.execInput}
}

// restoreCwd makes s the shell's state, as after a success.
func (w *walker) restoreCwd(s cwdState) {
	w.cwd, w.lcwd, w.dirStack, w.ldirStack, w.stackUncertain, w.execInput = s.cwd, s.lcwd, s.dirStack, s.ldirStack, s.stackUncertain, s.execInput
	w.fail = failAsOK
}

// failKind says where a statement that fails leaves the shell's directory.
type failKind uint8

const (
	failAsOK  failKind = iota // where its success leaves it: most commands change nothing
	failNever                 // it does not fail (a cd into a directory that exists)
	failAt                    // at walker.failSt (a cd that may fail stays where it was)
)

// settle makes the shell's state the union of where the statement walked
// last leaves it, failed or not: what follows a `;` runs after either.
func (w *walker) settle() {
	if w.fail == failAt {
		w.restoreCwd(unionState(w.saveCwd(), w.failSt))
	}
	w.fail = failAsOK
}

// takeFail returns the state the statement walked last leaves on failure,
// and false when it cannot fail; the shell's state stays its success.
func (w *walker) takeFail() (cwdState, bool) {
	k, st := w.fail, w.failSt
	w.fail = failAsOK
	switch k {
	case failNever:
		return cwdState{}, false
	case failAt:
		return st, true
	}
	return w.saveCwd(), true
}

// alsoFails adds st to where the statement walked last may leave the shell
// on failure.
func (w *walker) alsoFails(st cwdState) {
	switch w.fail {
	case failNever:
		w.fail, w.failSt = failAt, st
	case failAsOK:
		if !sameState(st, w.saveCwd()) {
			w.fail, w.failSt = failAt, unionState(w.saveCwd(), st)
		}
	default:
		w.failSt = unionState(w.failSt, st)
	}
}

// negate swaps success and failure (`! X`). A statement that cannot fail
// never succeeds negated; its success is kept as the (unreachable) one.
func (w *walker) negate() {
	if w.fail == failAt {
		ok, failed := w.saveCwd(), w.failSt
		w.restoreCwd(failed)
		w.fail, w.failSt = failAt, ok
		return
	}
	w.fail = failAsOK
}

// sameState reports whether a and b are the same state.
func sameState(a, b cwdState) bool {
	if a.stackUncertain != b.stackUncertain || a.execInput != b.execInput || !slices.Equal(a.cwd, b.cwd) || !slices.Equal(a.lcwd, b.lcwd) ||
		len(a.dirStack) != len(b.dirStack) || len(a.ldirStack) != len(b.ldirStack) {
		return false
	}
	for i := range a.dirStack {
		if !slices.Equal(a.dirStack[i], b.dirStack[i]) || !slices.Equal(a.ldirStack[i], b.ldirStack[i]) {
			return false
		}
	}
	return true
}

// unionState is a state in which a later command must be safe if the
// shell is in a or in b: the candidates of both, and a directory stack that
// holds both (uncertain where the stacks differ in depth).
func unionState(a, b cwdState) cwdState {
	if sameState(a, b) {
		return a
	}
	u := cwdState{cwd: unionDirs(a.cwd, b.cwd), lcwd: unionDirs(a.lcwd, b.lcwd),
		stackUncertain: a.stackUncertain || b.stackUncertain || len(a.dirStack) != len(b.dirStack),
		execInput:      unionInput(a.execInput, b.execInput)}
	n := max(len(a.dirStack), len(b.dirStack))
	u.dirStack, u.ldirStack = make([][]string, n), make([][]string, n)
	for i := range n {
		var x, y, lx, ly []string
		if i < len(a.dirStack) {
			x, lx = a.dirStack[i], a.ldirStack[i]
		}
		if i < len(b.dirStack) {
			y, ly = b.dirStack[i], b.ldirStack[i]
		}
		u.dirStack[i], u.ldirStack[i] = unionDirs(x, y), unionDirs(lx, ly)
	}
	return u
}

// unionInput is the shell's stdin after either of two paths set it (`if X;
// then exec < f; fi`): the same, the caller's where the other path made it
// empty (an interpreter then reads the terminal, the worse), else only
// known at run time.
func unionInput(a, b *redirInfo) *redirInfo {
	switch {
	case a == b:
		return a
	case a == nil && b.stdinNull, b == nil && a.stdinNull:
		return nil
	}
	var u redirInfo
	if a != nil {
		u = *a
	} else {
		u = *b
	}
	u = u.atRunTime()
	return &u
}

// subState reports whether every candidate of a is one of b's (the stacks
// compared as well).
func subState(a, b cwdState) bool {
	return sameState(unionState(a, b), b)
}

// ifClause walks if/elif/else: each branch runs where the conditions before
// it failed, its body where its condition succeeded; the shell ends where
// any branch ends, or where the last condition failed when there is no
// else.
func (w *walker) ifClause(c *syntax.IfClause, depth int) {
	var end *cwdState
	join := func() {
		w.settle()
		s := w.saveCwd()
		if end != nil {
			s = unionState(*end, s)
		}
		end = &s
	}
	for ic := c; ic != nil; ic = ic.Else {
		if !ic.ThenPos.IsValid() { // else
			w.stmts(ic.Then, depth+1)
			join()
			break
		}
		w.stmts(ic.Cond, depth+1)
		failed, ok := w.takeFail()
		if !ok {
			failed = w.saveCwd() // the later branches are walked anyway
		}
		w.stmts(ic.Then, depth+1)
		join()
		w.restoreCwd(failed)
		if ic.Else == nil {
			join()
		}
	}
	if end != nil {
		w.restoreCwd(*end)
	}
}

// loop walks a loop whose body (walk) runs any number of times: when one
// pass moves the shell, the body is walked again from every place it may
// start, and from an unknown directory when the places keep growing. Each
// walk past the first counts the loop's syntax against MaxUnits, which
// bounds nested loops.
func (w *walker) loop(n syntax.Node, depth int, walk func()) {
	start := w.saveCwd()
	envs := len(w.env)
	walk()
	w.settle()
	if sameState(w.saveCwd(), start) && len(w.env) == envs {
		return // a body that assigns a variable a program reads runs again after it
	}
	starts := unionState(start, w.saveCwd())
	for pass := 0; pass < 2; pass++ {
		if !w.charge(n) {
			return
		}
		if pass == 1 {
			starts = cwdState{cwd: unknownDirs, lcwd: unknownDirs, stackUncertain: true}
		}
		w.restoreCwd(starts)
		walk()
		w.settle()
		if subState(w.saveCwd(), starts) {
			break
		}
	}
	w.restoreCwd(unionState(starts, w.saveCwd()))
}

// charge counts the syntax of n, walked once more (a loop body, a function
// at its call), against MaxUnits. Past it, the command is refused as too
// large, the shell's directory becomes unknown, and charge returns false.
func (w *walker) charge(n syntax.Node) bool {
	if w.units += syntaxUnits(w.textOf(n), w.unitLimit-w.units+1); w.units > w.unitLimit {
		w.tooLarge()
		w.restoreCwd(cwdState{cwd: unknownDirs, lcwd: unknownDirs, stackUncertain: true})
		return false
	}
	return true
}

// unknownDirs is the one candidate directory "unknown".
var unknownDirs = []string{""}

// callCtx is what one invocation runs in, handed to it by value as mvdan/sh's
// interp.HandlerContext is: the directories it runs in, and whether the
// shell itself runs it. A wrapper hands the command it carries its own
// copy, changed by its directory options (`env -C d CMD`); nothing a
// wrapper or a process does reaches the commands after it. Only the shell's
// own builtins (cd, pushd, popd, eval) change the walker's shell state.
type callCtx struct {
	dirs  []string // candidate physical working directories; "" is unknown
	ldirs []string // the same as $PWD names them (bash's logical cd)
	// shell: the shell runs the invocation itself, not a process it
	// started, so cd changes the shell's directory.
	shell bool
	// dialect is the shell that runs code the invocation hands to a new
	// shell (`sh -c CODE`, a pager), or, for the shell's own commands, the
	// shell itself: the zero value, [UnknownDialect], reads it as bash and
	// as zsh.
	dialect Dialect
	// funcs: the shell's functions are called (not under `command`, not
	// in a process such as `timeout 5 f`).
	funcs bool
}

// shellCtx is the context of a command the shell runs directly.
func (w *walker) shellCtx() callCtx {
	return callCtx{dirs: w.cwd, ldirs: w.lcwd, shell: true, funcs: true, dialect: w.dialect()}
}

// processCtx is the context of a process started in dirs (logical ldirs).
func processCtx(dirs, ldirs []string) callCtx { return callCtx{dirs: dirs, ldirs: ldirs} }

// funcDef is a function the shell has defined. Its body is walked where it
// is defined (so that a function never called is classified too) and again
// where it is called, in the caller's directory, unless the walk at the
// definition holds there.
type funcDef struct {
	body       *syntax.Stmt
	frame      frame
	start, end cwdState // the walk at the definition: from where, to where
	gen        int      // walker.funcGen when that walk ended
	env        int      // len(walker.env) then: a variable a program reads set since needs a new walk
	// autoload: zsh loads the body from a file in $fpath when the
	// function is first called (`autoload -U zmv`).
	autoload bool
}

// funcDecl classifies a function body where it is defined (SPEC §3 rule 11)
// and refuses a function that calls itself in a pipeline or in the
// background (§5.4).
func (w *walker) funcDecl(c *syntax.FuncDecl, depth int) {
	names := c.Names
	if c.Name != nil {
		names = append(names, c.Name)
	}
	if w.funcs == nil {
		w.funcs = map[string]*funcDef{}
	}
	def := &funcDef{body: c.Body, frame: w.frame, start: w.saveCwd()}
	w.funcGen++
	// A function without a name (a zsh anonymous function, or what the
	// parser makes of `()x`) runs its body now; the body is walked below.
	for _, n := range names {
		name := n.Value
		w.funcs[name] = def
		if selfSpawns(name, c.Body, false, 0) {
			p := w.part(c, effects.SystemChange, name, fmt.Sprintf("`%s` is a fork bomb: function %s starts copies of itself in a pipeline or in the background", brief(w.textOf(c)), name))
			p.Refusal = effects.ForkBomb
			w.add(p)
		}
	}
	if c.Body == nil {
		return
	}
	w.enter(def)
	vars := w.saveVars() // the body assigns when it is called
	input := w.input
	w.input = nil // the body reads its caller's stdin
	w.stmt(c.Body, depth+1, stdinNone)
	w.input = input
	w.restoreVars(vars)
	w.settle()
	w.leave(def)
	def.end, def.gen, def.env = w.saveCwd(), w.funcGen, len(w.env)
	w.restoreCwd(def.start)
	if w.zsh() {
		for _, n := range names {
			if zshHookFunction(n.Value) {
				w.zshLater(def, depth)
				break
			}
		}
	}
}

// callFunc classifies a call of a function by the shell: the function runs
// in the shell, from the caller's directory, and moves the caller with its
// cd (`f() { cd /; }; f; rm -rf x` deletes /x).
func (w *walker) callFunc(def *funcDef, at syntax.Node, name string, depth int, red redirInfo) {
	if def.autoload {
		w.allKnown = false
		w.add(w.part(at, effects.OpaqueMedium, name, fmt.Sprintf("`%s` runs the function %s, which zsh loads from a file in $fpath that is not inspected", brief(w.textOf(at)), name)))
		return
	}
	w.add(w.part(at, effects.Read, name, ""))
	switch {
	case def.body == nil:
	case w.calling[def]:
		// A recursive call: where it leaves the shell is not known.
		w.restoreCwd(cwdState{cwd: unknownDirs, lcwd: unknownDirs, stackUncertain: true})
	case def.gen == w.funcGen && sameState(w.saveCwd(), def.start) && len(w.env) == def.env && w.input == nil:
		w.restoreCwd(def.end) // the walk at the definition holds here
	default:
		saved := w.frame
		w.frame = def.frame
		if w.charge(def.body) {
			w.enter(def)
			w.stmt(def.body, depth+1, red.stdin)
			w.settle()
			w.leave(def)
		}
		w.frame = saved
	}
}

func (w *walker) enter(def *funcDef) {
	if w.calling == nil {
		w.calling = map[*funcDef]bool{}
	}
	w.calling[def] = true
}

func (w *walker) leave(def *funcDef) { delete(w.calling, def) }

func (w *walker) textOf(n syntax.Node) string {
	_, _, t := w.span(n)
	return t
}

// selfSpawns reports whether stmt calls name in a pipeline or in the background.
func selfSpawns(name string, s *syntax.Stmt, spawned bool, depth int) bool {
	if s == nil || depth > MaxDepth {
		return false
	}
	spawned = spawned || s.Background
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return spawned && len(c.Args) > 0 && c.Args[0].Lit() == name
	case *syntax.BinaryCmd:
		// A chain is flat (see walker.command): its elements keep the depth.
		pipe := c.Op == syntax.Pipe || c.Op == syntax.PipeAll
		return selfSpawns(name, c.X, spawned || pipe, depth) || selfSpawns(name, c.Y, spawned || pipe, depth)
	case *syntax.Block:
		for _, st := range c.Stmts {
			if selfSpawns(name, st, spawned, depth+1) {
				return true
			}
		}
	case *syntax.Subshell:
		for _, st := range c.Stmts {
			if selfSpawns(name, st, spawned, depth+1) {
				return true
			}
		}
	}
	return false
}

// decl classifies `export`, `declare`, `local`, `readonly`, `typeset`.
func (w *walker) decl(c *syntax.DeclClause, depth int) {
	w.add(w.part(c, effects.Read, c.Variant.Value, ""))
	w.declDump(c)
	if w.zsh() {
		// `typeset -fu NAME` (and -fU) is autoload: NAME runs a file from $fpath.
		autoload := false
		for _, a := range c.Args {
			if a.Naked && a.Name == nil {
				w.zshGlobs(a.Value, depth+1) // a word, not an assignment: zsh globs it
			}
			if a.Naked && a.Name == nil && a.Value != nil {
				if v := a.Value.Lit(); strings.HasPrefix(v, "-") && strings.Contains(v, "f") && strings.ContainsAny(v, "uU") {
					autoload = true
				}
			}
			if autoload && a.Naked && a.Name != nil {
				w.autoloaded(a.Name.Value)
			}
		}
	}
	var attrs string // the attribute letters of the options so far: -i, +i, -A, -n
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if v := a.Value.Lit(); len(v) > 1 && (v[0] == '-' || v[0] == '+') {
				attrs += v
			}
		}
		if a.Naked && a.Value == nil && a.Name != nil && (c.Variant.Value == "declare" || c.Variant.Value == "typeset") && strings.HasPrefix(attrs, "-") && strings.Contains(attrs, "p") {
			// `declare -p PATH` prints it; with -p, the other options are
			// ignored (declDump judges a secret printed).
			continue
		}
		if a.Name != nil && c.Variant.Value != "export" { // export -n unexports
			w.declAttrs(a, attrs)
			if strings.Contains(attrs, "n") && strings.HasPrefix(attrs, "-") || strings.Contains(attrs, "-n") {
				w.nameref(a, c)
				continue
			}
		}
		w.assign(a, depth, c)
	}
}

// splitsOnly reports whether the assignment a is in front of a builtin
// that only uses IFS to split what it reads into variables (`IFS= read -r
// line`, `IFS=, read -ra f`, `IFS= mapfile -t a`): bash and zsh give a
// regular builtin the assignment for that command alone, so no program and
// no word of the shell is split otherwise. A function of that name is not
// such a builtin.
func (w *walker) splitsOnly(a *syntax.Assign, at syntax.Node) bool {
	c, ok := at.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 || a.Naked || a.Append || a.Index != nil || a.Array != nil {
		return false
	}
	name, ok := literalText(c.Args[0], "")
	if !ok || w.funcs[name] != nil {
		return false
	}
	switch name {
	case "read", "mapfile", "readarray":
		return true
	}
	return false
}

// assign classifies one assignment (SPEC §3 rule 8).
func (w *walker) assign(a *syntax.Assign, depth int, at syntax.Node) {
	if a.Value != nil {
		w.wordSubst(a.Value, depth+1)
	}
	if a.Array != nil {
		for _, el := range a.Array.Elems {
			if el.Index != nil {
				w.subscript(a.Name, el.Index, depth+1)
			}
			if el.Value != nil {
				w.wordSubst(el.Value, depth+1)
			}
		}
	}
	if a.Index != nil {
		w.subscript(a.Name, a.Index, depth+1)
	}
	if a.Name == nil {
		if a.Naked && a.Value != nil && isDynamicWord(a.Value, false) {
			p := w.part(a, effects.OpaqueHigh, "", fmt.Sprintf("`%s` assigns a variable whose name is only known at run time", brief(w.textOf(a))))
			p.Refusal = effects.UnidentifiableProgram
			w.add(p)
		} else if a.Naked && a.Value != nil {
			w.nakedName(a.Value) // declare 'a[$(cmd)]=1'
			w.quotedAssign(a, depth, at)
		}
		return
	}
	name := a.Name.Value
	if w.zsh() {
		w.zshAssign(a, at, depth)
		if a.Array != nil {
			for _, el := range a.Array.Elems {
				w.zshGlobs(el.Value, depth+1) // a=(*(e:..:)) globs
			}
		}
	}
	val := ""
	literal := a.Value == nil
	if a.Value != nil && !isDynamicWord(a.Value, w.opts.Home != "") {
		f := w.word(a.Value)
		val, literal = strings.Join(f.values(), " "), true
	}
	_, known := w.vars[name]
	w.assignVar(a, name)
	w.promptVar(a, name, depth)
	if name == "CDPATH" {
		w.cdpath = true
	}
	if requestVar(name) {
		w.requestEnv = true
	}
	if name == "PROMPT_COMMAND" && a.Value != nil && literal {
		// Code that runs later is classified now (rule 11).
		w.nested(val, a.Value, depth)
	}
	if target, ok := w.namerefs[name]; ok {
		// An assignment to a nameref assigns the variable it names.
		if target == "" {
			w.allKnown = false
			w.add(w.part(at, effects.OpaqueMedium, "", fmt.Sprintf("`%s` assigns, through a nameref, a variable only known at run time, which may change what runs", brief(w.textOf(a)))))
			return
		}
		name = target
	}
	switch {
	case name == "IFS" && w.splitsOnly(a, at):
		// `while IFS= read -r line`: only read's splitting changes.
	case !(a.Naked && a.Value == nil):
		w.setEnv(name, val, !literal || a.Array != nil, a, at, depth)
	case !known:
		// `export X` of a value the line did not assign: the one X had
		// (read by `read X`, a for loop, or the environment's).
		w.exportEnv(name, a, at)
	}
}

// quotedAssign classifies a literal word of export, declare, local,
// readonly or typeset that bash reads as an assignment although it is
// quoted (`export "PATH=/tmp:$PATH"`, `declare 'X=1'`): NAME=VALUE, or
// NAME+=VALUE, with NAME an identifier.
func (w *walker) quotedAssign(a *syntax.Assign, depth int, at syntax.Node) {
	if isDynamicWord(a.Value, w.opts.Home != "") {
		return
	}
	lit := strings.Join(w.word(a.Value).values(), " ")
	name, val, ok := strings.Cut(lit, "=")
	name = strings.TrimSuffix(name, "+")
	if !ok || !isIdentifier(name) {
		return
	}
	w.setVar(name, val)
	if name == "CDPATH" {
		w.cdpath = true
	}
	if requestVar(name) {
		w.requestEnv = true
	}
	if name == "PROMPT_COMMAND" {
		w.nested(val, a.Value, depth)
	}
	w.setEnv(name, val, false, a, at, depth)
}

// isIdentifier reports whether s is a shell variable name.
func isIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// test walks a `[[ ]]` expression for command substitutions.
func (w *walker) test(x syntax.TestExpr, depth int) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	switch t := x.(type) {
	case nil:
	case *syntax.Word:
		w.wordSubst(t, depth)
	case *syntax.BinaryTest:
		w.test(t.X, depth+1)
		w.test(t.Y, depth+1)
		if arithTest(t.Op) {
			// [[ a -eq b ]] evaluates both sides as arithmetic.
			for _, side := range []syntax.TestExpr{t.X, t.Y} {
				if word, ok := side.(*syntax.Word); ok {
					if why := w.arithWordRisk(word); why != "" {
						w.evalRefuse(word, why)
					}
				}
			}
		}
	case *syntax.UnaryTest:
		w.test(t.X, depth+1)
		if word, ok := t.X.(*syntax.Word); ok && t.Op == syntax.TsVarSet {
			w.nameField(w.wordField(word), word) // [[ -v 'a[$(cmd)]' ]]
		}
	case *syntax.ParenTest:
		w.test(t.X, depth+1)
	default:
		w.unsupported(x, fmt.Sprintf("%T", x))
	}
}

// arith walks an arithmetic expression. The shell evaluates the text of
// every word in it, and the values of the names in that text, as
// arithmetic, and `a[$(cmd)]` in such text runs cmd: a word whose text is
// not known to be harmless is opaque-high (arith.go).
func (w *walker) arith(x syntax.ArithmExpr, depth int) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	switch a := x.(type) {
	case nil:
	case *syntax.Word:
		w.wordSubst(a, depth)
		if why := w.arithWordRisk(a); why != "" {
			w.evalRefuse(a, why)
		}
	case *syntax.BinaryArithm:
		if assignOp(a.Op) {
			// `x = y` assigns x without reading it; `x += y` reads it too.
			w.arith(a.Y, depth+1)
			w.arithTarget(a.X, a.Op != syntax.Assgn, depth+1)
			break
		}
		w.arith(a.X, depth+1)
		w.arith(a.Y, depth+1)
	case *syntax.UnaryArithm:
		w.arith(a.X, depth+1)
		if a.Op == syntax.Inc || a.Op == syntax.Dec {
			w.arithTarget(a.X, false, depth+1) // read above; now a number
		}
	case *syntax.ParenArithm:
		w.arith(a.X, depth+1)
	case *syntax.FlagsArithm:
		// zsh's subscript flags, `${a[(r)PATTERN]}`: mvdan.cc/sh keeps the
		// pattern as literal text, in which zsh still expands $(...).
		if strings.ContainsAny(a.Flags.Value, "$`") || litHasSubst(a.X) {
			w.zshRefuse(a, fmt.Sprintf("`%s` has a substitution inside a zsh subscript, which the classifier cannot read", brief(w.textOf(a))))
		}
		if word, ok := a.X.(*syntax.Word); ok {
			w.wordSubst(word, depth+1) // a pattern or a string, not arithmetic
			break
		}
		w.arith(a.X, depth+1)
	default:
		w.unsupported(x, fmt.Sprintf("%T", x))
	}
}

// rawSubst reports whether literal text holds an unescaped `$(`, `${`,
// `$[` or backquote: a substitution the parser left as text.
func rawSubst(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '`':
			return true
		case '$':
			if i+1 < len(v) && (v[i+1] == '(' || v[i+1] == '{' || v[i+1] == '[') {
				return true
			}
		}
	}
	return false
}

// litHasSubst reports whether an arithmetic word has a literal part with
// `$` or a backquote: text the parser did not read as an expansion.
func litHasSubst(x syntax.ArithmExpr) bool {
	word, ok := x.(*syntax.Word)
	if !ok {
		return false
	}
	for _, p := range word.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(l.Value, "$`") {
			return true
		}
	}
	return false
}

// wordSubst walks the parts of a word that run commands: command and process
// substitutions, arithmetic, and the words inside parameter expansions.
func (w *walker) wordSubst(word *syntax.Word, depth int) {
	if word == nil {
		return
	}
	for _, p := range word.Parts {
		w.wordPart(p, depth)
	}
}

func (w *walker) wordPart(p syntax.WordPart, depth int) {
	if depth > MaxDepth {
		w.tooDeep()
		return
	}
	switch x := p.(type) {
	case *syntax.Lit:
		if w.zsh() && rawSubst(x.Value) {
			// mvdan.cc/sh keeps some zsh syntax as literal text (glob
			// groups, flags, subscripts), in which zsh still expands.
			w.zshRefuse(x, fmt.Sprintf("`%s` has a substitution the classifier cannot read inside zsh syntax", brief(x.Value)))
		}
	case *syntax.SglQuoted, *syntax.ExtGlob:
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			w.wordPart(q, depth+1)
		}
	case *syntax.CmdSubst:
		saved, vars := w.saveCwd(), w.saveVars()
		w.stmts(x.Stmts, depth+1)
		w.restoreCwd(saved)
		w.restoreVars(vars)
	case *syntax.ProcSubst:
		saved := w.saveCwd()
		in := stdinNone
		if x.Op == syntax.CmdOut { // >(cmd): fed by the outer command
			in = stdinPipe
		}
		vars := w.saveVars()
		for _, s := range x.Stmts {
			w.stmt(s, depth+1, in)
		}
		w.restoreCwd(saved)
		w.restoreVars(vars)
	case *syntax.ArithmExp:
		w.arith(x.X, depth+1)
	case *syntax.ParamExp:
		w.paramExp(x, depth+1)
	case *syntax.BraceExp:
		for _, e := range x.Elems {
			w.wordSubst(e, depth+1)
		}
	default:
		w.unsupported(p, fmt.Sprintf("%T", p))
	}
}

// secretVars are environment variables that hold credentials (SPEC §5.5).
func isSecretVar(name string) bool {
	switch name {
	case "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN",
		"NPM_TOKEN", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS",
		"AZURE_CLIENT_SECRET", "DOCKER_PASSWORD", "HF_TOKEN", "SLACK_TOKEN":
		return true
	}
	for _, s := range []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASSPHRASE", "API_KEY", "APIKEY", "PRIVATE_KEY", "CREDENTIAL",
		"ACCESS_KEY", "AUTH_KEY", "SIGNING_KEY", "ENCRYPTION_KEY", "MASTER_KEY", "DATABASE_URL", "CONNECTION_STRING", "WEBHOOK", "COOKIE"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	// A password by its short names (DB_PASS, MYSQL_PWD, PGPASS), not the
	// shell's directories (PWD, OLDPWD).
	return name == "PGPASS" || strings.HasSuffix(name, "_PASS") || strings.HasSuffix(name, "_PWD") && name != "OLDPWD"
}

func (w *walker) paramExp(x *syntax.ParamExp, depth int) {
	if w.zsh() {
		w.zshParamFlags(x)
	}
	if x.Param != nil && isSecretVar(x.Param.Value) {
		w.noteCredential(x, "$"+x.Param.Value)
	}
	if x.Excl && x.Param != nil {
		// ${!prefix*} names only; ${!x} is indirection: it can read any
		// variable, secrets included, and evaluates a subscript in the name.
		if x.Names == 0 && (x.Index == nil || !allIndex(x.Index)) {
			w.noteCredential(x, "${!"+x.Param.Value+"}")
			w.indirect(x)
		}
	}
	if x.Index != nil {
		w.subscript(x.Param, x.Index, depth+1)
	}
	if x.Slice != nil {
		w.arith(x.Slice.Offset, depth+1)
		w.arith(x.Slice.Length, depth+1)
	}
	if x.Repl != nil {
		w.wordSubst(x.Repl.Orig, depth+1)
		w.wordSubst(x.Repl.With, depth+1)
	}
	if x.Exp != nil {
		w.wordSubst(x.Exp.Word, depth+1)
		if x.Exp.Op == syntax.OtherParamOps && x.Exp.Word != nil && x.Exp.Word.Lit() == "P" {
			// ${x@P} expands the value like a prompt, which runs $(...).
			p := w.part(x, effects.OpaqueHigh, "", "`"+w.textOf(x)+"` expands a value as a prompt, which can run commands")
			p.Refusal = effects.UnidentifiableProgram
			w.add(p)
		}
	}
	if x.NestedParam != nil {
		w.wordPart(x.NestedParam, depth+1)
	}
}

func (w *walker) noteCredential(n syntax.Node, what string) {
	if w.credential != nil {
		return
	}
	p := w.part(n, effects.Read, "", "`"+what+"` reads stored credentials")
	w.credential = &p
}

// notePrinted records a command whose output is a stored credential.
func (w *walker) notePrinted(n syntax.Node, what string) {
	if w.credential != nil {
		return
	}
	w.noteCredential(n, what)
	w.credential.Reason = "`" + what + "` prints a stored credential"
	w.printed = true
}

// finish applies the line-wide rules after the walk.
func (w *walker) finish() {
	w.linkRefusals()
	if w.credential == nil {
		return
	}
	for _, n := range w.networks {
		if w.printed && n == [2]int{w.credential.Start, w.credential.End} {
			continue // the command that fetched the credential
		}
		c := *w.credential
		c.Refusal = effects.CredentialExfiltration
		c.Reason += " and another part of the line reaches the network"
		w.add(c)
		return
	}
}

// nested classifies literal shell code that this shell runs later (trap
// actions, alias values, PROMPT_COMMAND): as if it ran here, now, without
// changing the directory of what follows.
func (w *walker) nested(code string, at syntax.Node, depth int) {
	w.nestedIn(code, at, depth, w.dialect().readings())
}

// later classifies literal shell code that this shell runs later, at a
// time the line does not say (a trap action): as [walker.nested], from a
// directory that is not known, since it runs wherever the shell is then.
func (w *walker) later(code string, at syntax.Node, depth int) {
	saved, vars := w.saveCwd(), w.saveVars()
	w.restoreCwd(cwdState{cwd: unknownDirs, lcwd: unknownDirs, stackUncertain: true})
	w.here(code, at, depth)
	w.restoreCwd(saved)
	w.restoreVars(vars)
}

// nestedIn is [walker.nested] with the code read in langs.
func (w *walker) nestedIn(code string, at syntax.Node, depth int, langs []syntax.LangVariant) {
	saved := w.saveCwd()
	w.hereIn(code, at, depth, langs)
	w.restoreCwd(saved)
}

// here classifies literal shell code that this shell runs now (`eval`):
// its cd changes the directory of what follows. Spans of its parts point
// into the original command when the code is a plain '...' word, and at the
// whole word otherwise.
func (w *walker) here(code string, at syntax.Node, depth int) {
	w.hereIn(code, at, depth, w.dialect().readings())
}

// hereIn is [walker.here] with the code read in langs.
func (w *walker) hereIn(code string, at syntax.Node, depth int, langs []syntax.LangVariant) {
	savedFrame := w.frame
	if sq, ok := singleQuotedOnly(at); ok && w.frame.exact {
		s, e, _ := w.spanOf(int(sq.Pos().Offset())+1, int(sq.End().Offset())-1)
		w.classifySource(code, s, e, true, depth+1, langs)
	} else {
		s, e, _ := w.span(at)
		w.classifySource(code, s, e, false, depth+1, langs)
	}
	w.frame = savedFrame
}

// newShell classifies literal shell code that a new shell runs (`sh -c
// CODE`, `parallel CMD`, a git hook, a pager): the shell ctx.shell names,
// read in its dialect (both bash and zsh when it is not known). It starts
// in ctx's directories with an empty directory stack and none of this
// shell's functions (`rm() { :; }; sh -c 'rm -rf ~'` runs the program rm),
// and nothing it changes reaches what follows.
func (w *walker) newShell(code string, at syntax.Node, depth int, ctx callCtx) {
	saved, funcs, opts := w.saveCwd(), w.funcs, w.zshOpts
	w.restoreCwd(cwdState{cwd: ctx.dirs, lcwd: ctx.ldirs})
	w.funcs, w.zshOpts = nil, ""
	w.hereIn(code, at, depth, ctx.dialect.readings())
	w.funcs, w.zshOpts = funcs, opts
	w.restoreCwd(saved)
}

// shellState is what one reading of a source may change in the shell, and
// what the next reading starts from again.
type shellState struct {
	cwd     cwdState
	funcs   map[string]*funcDef
	vars    map[string]string
	lits    map[string]string
	attrs   varAttrs
	cdpath  bool
	zshOpts string
	env     int // len(walker.env): what a reading assigns, the next does not see first
	// len(walker.staged) and len(walker.imports): what a reading writes
	// and brings in, the next does not see.
	staged, imports int
}

func (w *walker) saveShell() shellState {
	return shellState{cwd: w.saveCwd(), funcs: maps.Clone(w.funcs), vars: maps.Clone(w.vars), lits: maps.Clone(w.lits), attrs: w.attrs.clone(), cdpath: w.cdpath, zshOpts: w.zshOpts, env: len(w.env), staged: len(w.staged), imports: len(w.imports)}
}

func (w *walker) restoreShell(s shellState) {
	w.restoreCwd(s.cwd)
	w.funcs, w.vars, w.cdpath, w.zshOpts = maps.Clone(s.funcs), maps.Clone(s.vars), s.cdpath, s.zshOpts
	w.lits = maps.Clone(s.lits)
	w.attrs = s.attrs.clone()
	if s.env <= len(w.env) {
		w.env = w.env[:s.env]
	}
	w.staged = w.staged[:min(s.staged, len(w.staged))]
	w.imports = w.imports[:min(s.imports, len(w.imports))]
}

// dedupeParts starts keeping each part once: the readings of a source in
// several dialects mostly agree.
func (w *walker) dedupeParts() { w.dedupe = true }

// dedupeScan is the number of parts up to which [walker.seen] compares
// them one by one: most commands have a handful, and hashing a part costs
// more than comparing it.
const dedupeScan = 32

// seen reports whether p was added already, and remembers it.
func (w *walker) seen(p Part) bool {
	if w.seenParts == nil && len(w.parts) < dedupeScan {
		return slices.Contains(w.parts, p)
	}
	if w.seenParts == nil {
		w.seenParts = make(map[partKey]bool, 2*len(w.parts))
		for _, q := range w.parts {
			w.seenParts[keyOf(q)] = true
		}
	}
	k := keyOf(p)
	if w.seenParts[k] {
		return true
	}
	w.seenParts[k] = true
	return false
}

// partKey is what tells parts apart for [walker.seen], without hashing a
// long Text whole (a part of a 64 KiB command quotes all of it): two parts
// with the same key have the same class, refusal and span, so keeping one
// of them changes no decision.
type partKey struct {
	class           effects.Class
	refusal         effects.Rule
	prompt          bool
	start, end, n   int
	program, reason string
	head, tail      string
}

func keyOf(p Part) partKey {
	const edge = 64
	k := partKey{class: p.Class, refusal: p.Refusal, prompt: p.Prompt, start: p.Start, end: p.End, n: len(p.Text),
		program: p.Program, reason: p.Reason, head: p.Text, tail: ""}
	if len(p.Text) > 2*edge {
		k.head, k.tail = p.Text[:edge], p.Text[len(p.Text)-edge:]
	}
	return k
}

// elsewhere runs classify where the shell's directories, home and workspace
// roots do not apply: on another machine, in a container, under another
// root (SPEC §3 rule 13). Every relative path there is unknown, and no
// absolute path is inside a workspace or the home directory.
func (w *walker) elsewhere(classify func(ctx callCtx)) {
	savedOpts, saved, funcs := w.opts, w.saveCwd(), w.funcs
	savedRoots, savedDone := w.physRoots, w.rootsDone
	w.opts.Workspaces, w.opts.Home = nil, ""
	w.physRoots, w.rootsDone = nil, true
	w.restoreCwd(cwdState{cwd: unknownDirs, lcwd: unknownDirs})
	w.funcs = nil
	classify(processCtx(unknownDirs, unknownDirs))
	w.opts, w.funcs = savedOpts, funcs
	w.restoreCwd(saved)
	w.physRoots, w.rootsDone = savedRoots, savedDone
}

// singleQuotedOnly returns the word's single part when it is '...' (not $'...').
func singleQuotedOnly(n syntax.Node) (*syntax.SglQuoted, bool) {
	word, ok := n.(*syntax.Word)
	if !ok || len(word.Parts) != 1 {
		return nil, false
	}
	sq, ok := word.Parts[0].(*syntax.SglQuoted)
	if !ok || sq.Dollar {
		return nil, false
	}
	return sq, true
}

// briefMax bounds the command text quoted in a reason.
const briefMax = 120

// brief returns text for quoting in a reason: whole when short, otherwise its
// start and end around an ellipsis, cut on rune boundaries. A reason names the
// offending part; quoting 64 KiB of it in each of thousands of parts made
// classification quadratic.
func brief(text string) string {
	if len(text) <= briefMax {
		return text
	}
	head, tail := briefMax*2/3, briefMax/3
	for head > 0 && !utf8.RuneStart(text[head]) {
		head--
	}
	cut := len(text) - tail
	for cut < len(text) && !utf8.RuneStart(text[cut]) {
		cut++
	}
	return text[:head] + " … " + text[cut:]
}

// exactPrinted is the text the statement prints to its standard output
// where every shell prints the same bytes: echo of literal words with no
// backslash (bash -e, zsh and dash decode escapes) after none or more -n,
// the first word after them not starting with `-` (zsh's `echo - x`), or
// printf of one literal format with no `%` and no escape but `\n`; nil
// otherwise (`echo $X`, a glob, a redirection, any other program).
func (w *walker) exactPrinted(s *syntax.Stmt) *string {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || len(s.Redirs) > 0 || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return nil
	}
	name := ""
	if e := w.lookup(c.Args[0].Lit()); e != nil {
		name = e.Name
	}
	var words []string
	for _, a := range c.Args[1:] {
		f := w.word(a)
		if f.dynamic {
			return nil
		}
		for _, x := range f.fields {
			if x.dynamic || x.glob {
				return nil
			}
			words = append(words, x.value)
		}
	}
	switch name {
	case "echo":
		end := "\n"
		for len(words) > 0 && words[0] == "-n" {
			words, end = words[1:], ""
		}
		if len(words) > 0 && strings.HasPrefix(words[0], "-") {
			return nil
		}
		text := strings.Join(words, " ")
		if strings.Contains(text, `\`) {
			return nil
		}
		text += end
		return &text
	case "printf":
		if len(words) != 1 || strings.Contains(words[0], "%") || strings.HasPrefix(words[0], "-") {
			return nil
		}
		text := strings.ReplaceAll(words[0], `\n`, "\n")
		if strings.Contains(text, `\`) {
			return nil
		}
		return &text
	}
	return nil
}

// printedText is the literal text the statement prints to its standard
// output: echo or printf of literal words, or cat of a literal
// here-document or here-string; nil otherwise (any other redirection,
// a word only known at run time, any other program).
func (w *walker) printedText(s *syntax.Stmt) *string {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background {
		return nil
	}
	if len(s.Redirs) == 0 {
		return w.echoed(c)
	}
	for _, r := range s.Redirs {
		if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
			return nil
		}
	}
	return w.catDoc(c, s.Redirs)
}
