// Package hookrun is `command-safety hook <agent>` as both binaries run it:
// read the settings, classify ([hooks.Run]), record the verdict and answer.
// A verdict is recorded in the hooks' journal (package journal: one write
// and one fsync), which every reader of the decision log ingests first; only
// hold mode, which needs the row's id to wait on, and the agents' reports,
// which match rows already in the log, use the log itself, through the
// [Backend] the binary gives.
//
// It must not import SQLite (package audit), jsonrpc or telemetry:
// cmd/command-safety-hook links it and nothing heavier, so that a hook
// starts and exits within a few times an empty Go program (issue 17).
package hookrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hooks"
	"github.com/ml-ai/command-safety/journal"
	"github.com/ml-ai/command-safety/policy"
	"github.com/ml-ai/command-safety/settings"
)

// Backend is what a binary adds to the hook: the decision log itself. The
// hook binary has none of it (it delegates hold mode and reports to the
// full binary); cmd/command-safety gives all of it.
type Backend struct {
	// RecordHeld records v in the log as held (it needs the row's id to
	// wait on) and returns it with its LogID, or downgraded with the error.
	RecordHeld func(ctx context.Context, e *Env, v gate.Verdict, session string) (gate.Verdict, error)
	// Record, when not nil, records every other verdict in the log itself
	// instead of the journal: platforms without the journal
	// ([journal.Supported]).
	Record func(ctx context.Context, e *Env, v gate.Verdict, session string, w hooks.Waiting) (gate.Verdict, error)
	// Hold is hold mode's wait for a recorded held verdict (see
	// [hooks.Config.Hold]); flag is `--hold=D`, limit the agent's limit.
	Hold func(e *Env, flag, limit time.Duration) func(ctx context.Context, v gate.Verdict) gate.Verdict
	// Report tells the log what an agent's post-execution hook says
	// ([hooks.Config.Report]).
	Report func(ctx context.Context, e *Env, agent string, r hooks.Report) error
	// Answered runs once the answer is written (the export's kick), with
	// e.Mu held; Close runs last, before the process exits.
	Answered, Close func(e *Env)
}

// Env is one hook run's settings and decision log.
type Env struct {
	// Mu is held while a record or report runs: a deadline may answer while
	// one blocks, and then Answered and Close are skipped.
	Mu       sync.Mutex
	Settings settings.Env
	Stderr   io.Writer
	// LogPath is the log the settings name, or the default, absolute; ""
	// when unknown (PathErr says why).
	LogPath string
	PathErr error
	// Changed: this run wrote or resolved a row (or a journal record).
	Changed bool
	// First is the first row this run wrote to the log itself (0: none).
	First int64
	// Start is when the run started: its journal records are at or after it.
	Start time.Time
	// IngestDue: the journal is past [IngestAbove] after this run's record.
	IngestDue bool

	snapHold time.Duration
	snap     atomic.Pointer[settings.Snapshot]
}

// Snapshot is the last settings read, or nil.
func (e *Env) Snapshot() *settings.Snapshot { return e.snap.Load() }

// HoldTimeout is the hold's timeout: the flag, else ml-ai.holdTimeout.
func (e *Env) HoldTimeout(flag time.Duration) time.Duration {
	if flag > 0 {
		return flag
	}
	if e.snapHold > 0 {
		return e.snapHold
	}
	return settings.DefaultHoldTimeout
}

// LogPathNow returns the log's path, reading the user's settings for it when
// the run has not read any (a report, or input that never reached them).
func (e *Env) LogPathNow() (string, error) {
	if e.LogPath == "" && e.PathErr == nil {
		e.policy(nil)
	}
	return e.LogPath, e.PathErr
}

// KickFrom are the arguments of `command-safety log ship` that start a log
// never exported at t: the rows a run that started at t wrote to the
// journal (they have no id until ingested).
func KickFrom(t time.Time) []string {
	return []string{"--after", "-1", "--from-time", t.Add(-time.Second).UTC().Format(time.RFC3339Nano)}
}

// RunTimeout bounds a hook run that does not hold.
const RunTimeout = 10 * time.Second

// Run serves `hook <agent> [flags]` (SPEC §8; args start at the agent): the
// agent's hook payload on stdin, its answer on stdout, the exit code the
// agent expects.
//
// The whole run answers within [hooks.Deadline] of the agent's time limit
// for the hook: `--limit`, which `hook install` writes beside the limit it
// sets in the agent's settings, else the agent's default. An agent that
// stops a hook at its limit may run the tool (Gemini CLI does), so nothing
// here may outlive it: a hold waits at most until shortly before the
// deadline, and anything that blocks past it is answered with a deny.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer, b Backend) int {
	start := time.Now()
	agent := ""
	if len(args) > 0 {
		agent = args[0]
	}
	if agent == "-h" || agent == "--help" || agent == "help" {
		Usage(stderr)
		return 2 // not an answer: exit 2 is a block for every supported agent
	}
	flags, flagErr := ParseFlags(args)
	e := &Env{Settings: SettingsEnv(), Stderr: stderr, Start: start}
	defer func() {
		if b.Close != nil && e.Mu.TryLock() { // a record still blocks (the deadline answered): exit without waiting
			b.Close(e)
			e.Mu.Unlock()
		}
	}()
	cfg := hooks.Config{
		Policy: e.policy,
		Record: func(ctx context.Context, v gate.Verdict, session string, w hooks.Waiting) (gate.Verdict, error) {
			return e.record(ctx, b, v, session, w)
		},
		Home:      e.Settings.Home,
		Platform:  runtime.GOOS,
		RuleStore: Installation(), // the log joins it from the settings (e.policy)
		Event:     flags.Event,
	}
	if b.Report != nil {
		cfg.Report = func(ctx context.Context, agent string, r hooks.Report) error {
			e.Mu.Lock()
			defer e.Mu.Unlock()
			return b.Report(ctx, e, agent, r)
		}
	}
	if len(flags.Rest) > 1 {
		cfg.BadArgs = fmt.Sprintf("unsupported arguments after the agent name: %q", flags.Rest[1:])
	}
	if flagErr != nil {
		cfg.BadArgs = flagErr.Error()
	}
	limit := flags.Limit
	if limit == 0 {
		limit = hooks.DefaultLimit(agent)
	}
	if limit == 0 {
		limit = hooks.RunLimit
	}
	deadline := start.Add(hooks.Deadline(limit))
	if !flags.Hold {
		// A run that does not hold takes milliseconds; ten seconds is
		// generous and keeps a stuck run from stalling the agent.
		deadline = minTime(deadline, start.Add(RunTimeout))
	}
	ctx := context.Background()
	if flags.Hold {
		if b.Hold == nil || b.RecordHeld == nil {
			cfg.BadArgs = "--hold needs the command-safety binary (this one cannot hold)"
		} else {
			cfg.Hold = b.Hold(e, flags.HoldFor, limit)
		}
		// A signal (the agent giving up on the hook, Ctrl-C) ends the wait:
		// audit.Log.Hold resolves the row as stopped (the command may have
		// run), so it does not stay pending on the review page.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer stop()
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	out := hooks.Run(ctx, agent, stdin, cfg)
	if _, err := stdout.Write(out.Stdout); err != nil {
		fmt.Fprintf(stderr, "command-safety hook: writing the answer: %v\n", err)
		return 2 // the agent reads exit code 2 as a block
	}
	if b.Answered != nil && e.Mu.TryLock() {
		b.Answered(e) // answered: the export's network wait is a detached process's
		e.Mu.Unlock()
	}
	if out.Stderr != "" {
		fmt.Fprintln(stderr, out.Stderr)
	}
	return out.Code
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Flags are the hook's options after the agent name.
type Flags struct {
	Hold    bool
	HoldFor time.Duration // --hold=D; 0: the ml-ai.holdTimeout setting
	Limit   time.Duration // --limit=D: the agent's time limit for this hook
	Event   string        // --event=NAME: the event the hook was installed for
	Rest    []string      // the agent name and anything not understood
}

// ParseFlags takes `--hold[=DURATION]`, `--event=NAME` and
// `--limit=DURATION` out of the hook's arguments (anywhere after the agent
// name).
func ParseFlags(args []string) (f Flags, err error) {
	for i, a := range args {
		switch {
		case i > 0 && a == "--hold":
			f.Hold = true
		case i > 0 && strings.HasPrefix(a, "--hold="):
			f.Hold = true
			v := strings.TrimPrefix(a, "--hold=")
			if f.HoldFor, err = time.ParseDuration(v); err != nil || f.HoldFor <= 0 {
				return f, fmt.Errorf("--hold=%s: want a positive duration such as 10m", v)
			}
		case i > 0 && strings.HasPrefix(a, "--event="):
			f.Event = strings.TrimPrefix(a, "--event=")
		case i > 0 && strings.HasPrefix(a, "--limit="):
			v := strings.TrimPrefix(a, "--limit=")
			if f.Limit, err = time.ParseDuration(v); err != nil || f.Limit <= 0 {
				return f, fmt.Errorf("--limit=%s: want a positive duration such as 30s", v)
			}
		default:
			f.Rest = append(f.Rest, a)
		}
	}
	return f, nil
}

// Usage prints the hook's usage.
func Usage(w io.Writer) {
	fmt.Fprintf(w, `usage: command-safety hook <agent> [--hold[=DURATION]] [--event=NAME] [--limit=DURATION]
                                        answer the agent's pre-command hook (stdin: its JSON)
       command-safety hook install <agent> [--project|--user] [--dir DIR] [--hold[=DURATION]]
       command-safety hook uninstall <agent> [--project|--user] [--dir DIR]
agents: %s
`, strings.Join(hooks.Agents(), ", "))
}

// policy reads the same settings files as check, for the hook's workspaces.
func (e *Env) policy(workspaces []string) (gate.Policy, []string) {
	snap := settings.Load(e.Settings, workspaces)
	e.snapHold = snap.HoldTimeout
	e.snap.Store(&snap)
	p, ruleProbs := policy.Of(snap)
	for _, pr := range append(snap.Problems, ruleProbs...) {
		fmt.Fprintf(e.Stderr, "command-safety: settings: %s\n", pr)
	}
	e.LogPath, e.PathErr = LogPathFor("", snap.DecisionLog)
	if e.PathErr == nil {
		e.LogPath, e.PathErr = filepath.Abs(e.LogPath)
	}
	var logs []string
	if e.LogPath != "" {
		logs = append(logs, e.LogPath)
	}
	return p, logs
}

// errUnavailable is audit.ErrUnavailable's text: every writer says the same.
const errUnavailable = "the decision log is unavailable"

// record writes v with the agent's session: to the journal, or for a held
// prompt to the log itself ([Backend.RecordHeld]). On failure an allow
// comes back as a prompt.
func (e *Env) record(ctx context.Context, b Backend, v gate.Verdict, session string, w hooks.Waiting) (gate.Verdict, error) {
	e.Mu.Lock()
	defer e.Mu.Unlock()
	// Bad input never reached the settings: use the user's log setting.
	e.LogPathNow()
	if snap := e.snap.Load(); snap != nil {
		v.Reason += snap.PolicyNote(v.Agent, v.Mode, v.Rule, v.Decision)
	}
	fail := func(err error) (gate.Verdict, error) {
		err = fmt.Errorf("%s: %w", errUnavailable, err)
		return gate.Unrecorded(v, err.Error()), err
	}
	if e.PathErr != nil {
		return fail(e.PathErr)
	}
	if w == hooks.Held {
		if b.RecordHeld == nil {
			return fail(errors.New("this binary cannot hold"))
		}
		return b.RecordHeld(ctx, e, v, session)
	}
	if b.Record != nil && !journal.Supported {
		return b.Record(ctx, e, v, session, w)
	}
	if err := regularOrMissing(e.LogPath); err != nil {
		return fail(err)
	}
	status := journal.StatusAsked
	if w == hooks.NobodyAsked {
		status = journal.StatusAdvisory
	}
	row, err := journal.NewRow(v, session, status)
	if err != nil {
		return fail(err)
	}
	rec := journal.Record{Row: row}
	if w == hooks.NobodyAsked && v.Decision == effects.Prompt {
		// Nobody can be asked (Codex hooks cannot ask; `claude -p` denies an
		// ask itself), so the prompt is denied: that is the answer, and the
		// row says so instead of waiting for one.
		rec.RejectedBy = v.Agent + " (nobody to ask: the prompt was denied)"
	}
	j := journal.Path(e.LogPath)
	if err := journal.Append(j, rec); err != nil {
		return fail(err)
	}
	e.Changed = true
	if st, err := os.Stat(j); err == nil && st.Size() > IngestAbove {
		e.IngestDue = true
	}
	return v, nil
}

// IngestAbove is the journal's size past which a hook, once it has
// answered, starts a detached `command-safety log` to ingest it
// ([IngestLater]). Every reader ingests, and so do the agents'
// post-execution hooks, which run command-safety after each command; this
// bounds the journal where nothing else opens the log (about a thousand
// verdicts).
const IngestAbove = 1 << 20

// IngestLater starts `command-safety log --limit 1 --log PATH` beside this
// binary, detached and silent: opening the log ingests the journal.
// Failures cost only the delay: the next reader ingests.
func IngestLater(e *Env) {
	bin := Sibling(FullName)
	if bin == "" || e.LogPath == "" {
		return
	}
	cmd := &exec.Cmd{Path: bin, Args: []string{FullName, "log", "--limit", "1", "--log", e.LogPath}, SysProcAttr: detached()}
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// regularOrMissing fails when path exists and is not a regular file (a FIFO
// or a link to a device where the log should be): nobody could ingest the
// journal into it.
func regularOrMissing(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s)", path, st.Mode().Type())
	}
	return nil
}

// LogPathFor picks the decision log: the flag, else the user setting, else
// the platform default.
func LogPathFor(flagPath, setting string) (string, error) {
	if flagPath != "" {
		return flagPath, nil
	}
	if setting != "" {
		return setting, nil
	}
	return journal.DefaultPath(journal.EnvFrom(runtime.GOOS, os.Getenv))
}

// TestPolicyFile returns "" in a release binary. Test builds (the
// cstesthooks tag, and cmd/command-safety's test binary) set it to read
// CS_TEST_POLICY_FILE, so that process tests can install a policy without
// root; a release binary never reads that variable.
var TestPolicyFile = func() string { return "" }

// SettingsEnv is where this process finds the settings files and the
// managed policy. The policy is at its system location (settings.PolicyFile);
// only a test build moves it ([TestPolicyFile]).
func SettingsEnv() settings.Env {
	env := settings.EnvFrom(runtime.GOOS, os.Getenv)
	if !filepath.IsAbs(env.Home) {
		// An agent that starts its hooks without HOME (or with a relative
		// one): the account's home directory, as the shell's ~ would be
		// (nothing is derived as a workspace while it is unknown).
		env.Home = ""
		if u, err := user.Current(); err == nil && filepath.IsAbs(u.HomeDir) {
			env.Home = u.HomeDir
		}
	}
	env.PolicyFile = TestPolicyFile()
	return env
}

// Names of the two binaries (without ".exe").
const (
	FullName = "command-safety"
	HookName = "command-safety-hook"
)

// Sibling is the path of the binary named name beside this one (symlinks
// resolved), "" when there is none.
func Sibling(name string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return siblingOf(exe, name)
}

func siblingOf(resolved, name string) string {
	p := filepath.Join(filepath.Dir(resolved), name+filepath.Ext(resolved))
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return p
}

// Installation is this installation's permission-rule store (SPEC §5.6)
// with the decision logs in use: both binaries (as started and resolved,
// and the other one beside it), every editor's user settings, the managed
// policy, the agents' hook files and the logs. check, serve and both hooks
// take the store from here, so that they agree on it (issue 12 point 8);
// serve adds the log per request, as its settings change.
func Installation(logs ...string) gate.Installation {
	env := SettingsEnv()
	in := gate.Installation{
		UserSettings:  settings.UserFiles(env),
		ManagedPolicy: []string{settings.PolicyFile(env)},
		AgentFiles:    hooks.HookFiles(env.Home, os.Getenv),
	}
	if exe, err := os.Executable(); err == nil {
		in.Binaries = append(in.Binaries, exe)
		resolved := exe
		if r, err := filepath.EvalSymlinks(exe); err == nil && r != exe {
			in.Binaries = append(in.Binaries, r)
			resolved = r
		}
		// The other binary of the installation, beside this one.
		other := HookName
		if strings.TrimSuffix(filepath.Base(resolved), filepath.Ext(resolved)) == HookName {
			other = FullName
		}
		if p := siblingOf(resolved, other); p != "" && !slicesContains(in.Binaries, p) {
			in.Binaries = append(in.Binaries, p)
		}
	}
	for _, l := range logs {
		if l == "" {
			continue
		}
		if abs, err := filepath.Abs(l); err == nil {
			l = abs // SQLite opens a relative path from the cwd, as Abs resolves it
		}
		in.Logs = append(in.Logs, l)
	}
	return in
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
