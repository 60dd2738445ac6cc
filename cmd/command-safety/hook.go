package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hooks"
	"github.com/ml-ai/command-safety/jsonrpc"
	"github.com/ml-ai/command-safety/settings"
)

// runHook serves `command-safety hook <agent>` (SPEC §8): the agent's hook
// payload on stdin, its answer on stdout, the exit code the agent expects.
// `hook install` and `hook uninstall` edit the agent's settings file.
//
// The whole run answers within [hooks.Deadline] of the agent's time limit
// for the hook: `--limit`, which `hook install` writes beside the limit it
// sets in the agent's settings, else the agent's default. An agent that
// stops a hook at its limit may run the tool (Gemini CLI does), so nothing
// here may outlive it: a hold waits at most until shortly before the
// deadline, and anything that blocks past it is answered with a deny.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	start := time.Now()
	if len(args) > 0 && (args[0] == "install" || args[0] == "uninstall") {
		return runHookInstall(args[0], args[1:], stdout, stderr)
	}
	agent := ""
	if len(args) > 0 {
		agent = args[0]
	}
	if agent == "-h" || agent == "--help" || agent == "help" {
		hookUsage(stderr)
		return 2 // not an answer: exit 2 is a block for every supported agent
	}
	flags, flagErr := parseHookFlags(args)
	h := newHookEnv(stderr)
	// The log is left after the answer is written. Every row is durable at
	// commit already (synchronous=FULL); what is left to decide is the WAL.
	// Closing the log checkpointed and deleted it at every run (five fsyncs
	// and two files made and removed per hook, issue 17); exiting without a
	// checkpoint at all let it grow without bound (~40 KiB per call, 10 MiB
	// after 250 calls, each opener reading all of it). audit.Log.Leave keeps
	// it under audit.WALLimit: past it, it checkpoints and truncates.
	defer h.close()
	cfg := hooks.Config{
		Policy:    h.policy,
		Record:    h.record,
		Report:    h.report,
		Home:      h.env.Home,
		Platform:  runtime.GOOS,
		RuleStore: installation(), // the log joins it from the settings (h.policy)
	}
	cfg.Event = flags.event
	if len(flags.rest) > 1 {
		cfg.BadArgs = fmt.Sprintf("unsupported arguments after the agent name: %q", flags.rest[1:])
	}
	if flagErr != nil {
		cfg.BadArgs = flagErr.Error()
	}
	limit := flags.limit
	if limit == 0 {
		limit = hooks.DefaultLimit(agent)
	}
	if limit == 0 {
		limit = hooks.RunLimit
	}
	deadline := start.Add(hooks.Deadline(limit))
	if !flags.hold {
		// A run that does not hold takes milliseconds; ten seconds is
		// generous and keeps a stuck run from stalling the agent.
		deadline = minTime(deadline, start.Add(hookRunTimeout))
	}
	ctx := context.Background()
	if flags.hold {
		cfg.Hold = h.hold(flags.holdFor, limit)
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
	h.kickExport() // answered: the export's network wait is a detached process's
	if out.Stderr != "" {
		fmt.Fprintln(stderr, out.Stderr)
	}
	return out.Code
}

// hookRunTimeout bounds a hook run that does not hold.
const hookRunTimeout = 10 * time.Second

// holdReserve is what a hold leaves of the run's deadline for resolving its
// row and answering.
const holdReserve = 3 * time.Second

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// hookFlags are the hook's options after the agent name.
type hookFlags struct {
	hold    bool
	holdFor time.Duration // --hold=D; 0: the ml-ai.holdTimeout setting
	limit   time.Duration // --limit=D: the agent's time limit for this hook
	event   string        // --event=NAME: the event the hook was installed for
	rest    []string      // the agent name and anything not understood
}

// parseHookFlags takes `--hold[=DURATION]` and `--limit=DURATION` out of the
// hook's arguments (anywhere after the agent name).
func parseHookFlags(args []string) (f hookFlags, err error) {
	for i, a := range args {
		switch {
		case i > 0 && a == "--hold":
			f.hold = true
		case i > 0 && strings.HasPrefix(a, "--hold="):
			f.hold = true
			v := strings.TrimPrefix(a, "--hold=")
			if f.holdFor, err = time.ParseDuration(v); err != nil || f.holdFor <= 0 {
				return f, fmt.Errorf("--hold=%s: want a positive duration such as 10m", v)
			}
		case i > 0 && strings.HasPrefix(a, "--event="):
			f.event = strings.TrimPrefix(a, "--event=")
		case i > 0 && strings.HasPrefix(a, "--limit="):
			v := strings.TrimPrefix(a, "--limit=")
			if f.limit, err = time.ParseDuration(v); err != nil || f.limit <= 0 {
				return f, fmt.Errorf("--limit=%s: want a positive duration such as 30s", v)
			}
		default:
			f.rest = append(f.rest, a)
		}
	}
	return f, nil
}

// holdDuration is the `--hold[=DURATION]` flag of `hook install`.
type holdDuration struct {
	set bool
	d   time.Duration
}

func (h *holdDuration) String() string   { return h.d.String() }
func (h *holdDuration) IsBoolFlag() bool { return true }
func (h *holdDuration) Set(v string) error {
	h.set = true
	if v == "true" {
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration such as 10m")
	}
	h.d = d
	return nil
}

// holdTimeout is the hold's timeout: the flag, else ml-ai.holdTimeout.
func (h *hookEnv) holdTimeout(flag time.Duration) time.Duration {
	if flag > 0 {
		return flag
	}
	if h.snapHold > 0 {
		return h.snapHold
	}
	return settings.DefaultHoldTimeout
}

// hold returns hold mode's wait (SPEC §10): the prompt is pending in the
// decision log; a human releases it from the review page, VS Code or
// `command-safety log resolve`. Approved runs; rejected, timed out or any
// failure denies, with a reason that says which. The wait ends before the
// run's deadline (inside the agent's limit), whatever the hold's timeout.
func (h *hookEnv) hold(flag, limit time.Duration) func(ctx context.Context, v gate.Verdict) gate.Verdict {
	return func(ctx context.Context, v gate.Verdict) gate.Verdict {
		deny := func(why string) gate.Verdict { return gate.Released(v, false, why) }
		if h.log == nil || v.LogID == 0 {
			return deny("held for review, but the decision log is unavailable, so nobody can release it")
		}
		timeout := h.holdTimeout(flag)
		cut := ""
		if d, ok := ctx.Deadline(); ok {
			if left := time.Until(d) - holdReserve; left < timeout {
				timeout = max(left, 0)
				cut = fmt.Sprintf(" (cut to fit the agent's time limit for this hook, %s: reinstall with `command-safety hook install --hold` to raise it)", limit)
			}
		}
		if timeout <= 0 {
			return deny("held for review, but the agent's time limit for this hook (" + limit.String() + ") leaves no time to wait")
		}
		fmt.Fprintf(h.stderr, "command-safety: held for review (log id %d, up to %s%s): %s\n", v.LogID, timeout.Round(time.Second), cut, v.Reason)
		res, err := h.log.Hold(ctx, v.LogID, timeout, 0)
		switch {
		case err != nil && !res.Approved():
			return deny(fmt.Sprintf("held for review, and the hold failed (%v); denied", err))
		case res.Approved():
			return gate.Released(v, true, fmt.Sprintf("approved by %s after review", res.Entry.Reviewer))
		case res.TimedOut:
			return deny(fmt.Sprintf("held for review and timed out: nobody approved it within %s%s", res.Timeout.Round(time.Second), cut))
		case res.Cancelled:
			return deny("held for review, and the agent stopped the hook before anybody answered")
		}
		return deny(fmt.Sprintf("rejected by %s after review", res.Entry.Reviewer))
	}
}

func hookUsage(w io.Writer) {
	fmt.Fprintf(w, `usage: command-safety hook <agent> [--hold[=DURATION]] [--event=NAME] [--limit=DURATION]
                                        answer the agent's pre-command hook (stdin: its JSON)
       command-safety hook install <agent> [--project|--user] [--dir DIR] [--hold[=DURATION]]
       command-safety hook uninstall <agent> [--project|--user] [--dir DIR]
agents: %s
`, strings.Join(hooks.Agents(), ", "))
}

// hookEnv loads the settings and opens the decision log for one hook run.
type hookEnv struct {
	mu       sync.Mutex                        // record may be called again by a deadline while a first call blocks
	snapHold time.Duration                     // ml-ai.holdTimeout from the last settings read
	snap     atomic.Pointer[settings.Snapshot] // the last settings read: the managed policy's notes
	env      settings.Env
	stderr   io.Writer
	logPath  string // the log the settings name, or the default; "" when unknown
	pathErr  error
	log      *audit.Log
	first    int64 // the row this run wrote (0: none)
	changed  bool  // this run wrote or resolved a row
}

// kickExport starts the detached exporter (kickExport) for what this run
// wrote, unless a record still blocks (the deadline answered): then the
// next process ships it.
func (h *hookEnv) kickExport() {
	if !h.mu.TryLock() {
		return
	}
	defer h.mu.Unlock()
	if h.changed {
		kickExport(h.snap.Load(), h.logPath, max(h.first-1, -1))
	}
}

func newHookEnv(stderr io.Writer) *hookEnv {
	return &hookEnv{env: settingsEnv(), stderr: stderr}
}

// policy reads the same settings files as check, for the hook's workspaces.
func (h *hookEnv) policy(workspaces []string) (gate.Policy, []string) {
	snap := settings.Load(h.env, workspaces)
	h.snapHold = snap.HoldTimeout
	h.snap.Store(&snap)
	policy, ruleProbs := jsonrpc.PolicyOf(snap)
	for _, p := range append(snap.Problems, ruleProbs...) {
		fmt.Fprintf(h.stderr, "command-safety: settings: %s\n", p)
	}
	h.logPath, h.pathErr = logPathFor("", snap.DecisionLog)
	var logs []string
	if h.logPath != "" {
		logs = append(logs, h.logPath)
	}
	return policy, logs
}

// close leaves the decision log if this run opened it ([audit.Log.Leave]:
// the process exits next).
func (h *hookEnv) close() {
	if !h.mu.TryLock() {
		return // a record still blocks (the deadline answered): exit without waiting
	}
	defer h.mu.Unlock()
	if h.log != nil {
		if err := h.log.Leave(); err != nil {
			fmt.Fprintf(h.stderr, "command-safety: decision log: %v\n", err)
		}
	}
}

// record writes v with the agent's session to the decision log
// ([audit.Record]: on failure an allow comes back as a prompt).
func (h *hookEnv) record(ctx context.Context, v gate.Verdict, session string, w hooks.Waiting) (gate.Verdict, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.openLog(); err != nil {
		err = fmt.Errorf("%w: %w", audit.ErrUnavailable, err)
		return audit.Downgrade(v, err), err
	}
	if snap := h.snap.Load(); snap != nil {
		v = withPolicyNote(v, *snap)
	}
	status := audit.StatusAsked
	switch w {
	case hooks.Held:
		status = audit.StatusHeld
	case hooks.NobodyAsked:
		status = audit.StatusAdvisory
	}
	v, err := audit.Record(ctx, h.log, v, session, status)
	if err == nil && h.first == 0 {
		h.first, h.changed = v.LogID, true
	}
	if err == nil && w == hooks.NobodyAsked && v.Decision == effects.Prompt {
		// Nobody can be asked (Codex hooks cannot ask; `claude -p` denies an
		// ask itself), so the prompt is denied: that is the answer, and the
		// row says so instead of waiting for one.
		if rerr := h.log.Resolve(ctx, v.LogID, audit.StatusRejected, v.Agent+" (nobody to ask: the prompt was denied)"); rerr != nil {
			fmt.Fprintf(h.stderr, "command-safety: decision log: %v\n", rerr)
		}
	}
	return v, err
}

// openLog opens the decision log the settings name, once; call with h.mu held.
func (h *hookEnv) openLog() error {
	if h.logPath == "" && h.pathErr == nil {
		// Bad input never reached the settings: use the user's log setting.
		h.policy(nil)
	}
	if h.log == nil && h.pathErr == nil {
		h.log, h.pathErr = audit.Open(h.logPath)
	}
	return h.pathErr
}

// answerWindow bounds how far back a report without a call id looks for
// the prompt it answers.
const answerWindow = 24 * time.Hour

// report records what the agent's post-execution hook says about a prompt
// it asked its user: the command ran (approved by the agent's user), or the
// turn ended without it (rejected). Nothing else is touched.
func (h *hookEnv) report(ctx context.Context, agent string, r hooks.Report) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.openLog(); err != nil {
		return err
	}
	user := os.Getenv("USER")
	if user == "" {
		user = os.Getenv("LOGNAME")
	}
	if user == "" {
		user = "user"
	}
	a := audit.Answer{Agent: agent, Session: r.Session, CallID: r.CallID, Command: r.Command,
		Reviewer: agent + ":" + user, Since: time.Now().Add(-answerWindow)}
	if r.Ran {
		id, err := h.log.Ran(ctx, a)
		h.changed = h.changed || id > 0
		return err
	}
	ended := "turn"
	if strings.EqualFold(r.Event, "SessionEnd") {
		ended = "session"
	}
	ids, err := h.log.NotRun(ctx, a, "the agent's "+ended+" ended (its "+r.Event+" hook ran)")
	h.changed = h.changed || len(ids) > 0
	return err
}

// runHookInstall serves `hook install|uninstall <agent> [--project|--user] [--dir DIR]`.
func runHookInstall(verb string, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("hook "+verb, flag.ContinueOnError)
	fset.SetOutput(stderr)
	user := fset.Bool("user", false, "use the agent's settings file in the home directory")
	project := fset.Bool("project", false, "use the agent's settings file in the project directory (the default)")
	dir := fset.String("dir", "", "the project directory (default: the current directory)")
	binary := fset.String("binary", "", "the command-safety binary the hook runs (default: this one)")
	var hold holdDuration
	fset.Var(&hold, "hold", "install the hook in hold mode: `--hold` (ml-ai.holdTimeout) or `--hold=DURATION`")
	fset.Usage = func() {
		fmt.Fprintf(stderr, "usage: command-safety hook %s <%s> [--project|--user] [--dir DIR]\n",
			verb, strings.Join(hooks.Agents(), "|"))
		fset.PrintDefaults()
	}
	// Accept the agent before or after the flags.
	var agent string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		agent, args = args[0], args[1:]
	}
	if err := fset.Parse(args); err != nil {
		return exitUsage
	}
	if agent == "" && fset.NArg() > 0 {
		agent = fset.Arg(0)
	} else if fset.NArg() > 0 {
		fmt.Fprintf(stderr, "command-safety hook %s: unexpected arguments %q\n", verb, fset.Args())
		return exitUsage
	}
	if agent == "" {
		fset.Usage()
		return exitUsage
	}
	if *user && *project {
		fmt.Fprintf(stderr, "command-safety hook %s: --user and --project exclude each other\n", verb)
		return exitUsage
	}
	scope := hooks.Project
	if *user {
		scope = hooks.User
	}
	projectDir := *dir
	if projectDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "command-safety hook %s: %v\n", verb, err)
			return 1
		}
		projectDir = wd
	}
	projectDir, err := filepath.Abs(projectDir)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety hook %s: --dir: %v\n", verb, err)
		return exitUsage
	}
	home := settings.EnvFrom(runtime.GOOS, os.Getenv).Home
	path, err := hooks.SettingsPath(agent, scope, projectDir, home, os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety hook %s: %v\n", verb, err)
		return exitUsage
	}

	data, mode, existed, err := readSettingsFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety hook %s: %v\n", verb, err)
		return 1
	}
	var edit hooks.Edit
	if verb == "install" {
		bin := *binary
		if bin == "" {
			if bin, err = selfPath(); err != nil {
				fmt.Fprintf(stderr, "command-safety hook install: cannot find this binary: %v (pass --binary)\n", err)
				return 1
			}
		}
		if bin, err = filepath.Abs(bin); err != nil {
			fmt.Fprintf(stderr, "command-safety hook install: --binary: %v\n", err)
			return exitUsage
		}
		spec := hooks.Spec{Binary: bin, Hold: hold.set, HoldFor: hold.d}
		if hold.set {
			spec.HoldLongest = hold.d
			if hold.d == 0 {
				spec.HoldLongest = settings.Load(settingsEnv(), nil).HoldTimeout
			}
		}
		edit, err = hooks.Install(agent, data, spec)
	} else {
		if !existed {
			fmt.Fprintf(stdout, "%s: no such file; nothing to remove\n", path)
			return 0
		}
		edit, err = hooks.Uninstall(agent, data)
	}
	if err != nil {
		fmt.Fprintf(stderr, "command-safety hook %s: %s: %v\n", verb, path, err)
		return 1
	}
	for _, n := range edit.Notes {
		fmt.Fprintf(stdout, "%s: note: %s\n", path, n)
	}
	if !edit.Changed() {
		if verb == "install" {
			fmt.Fprintf(stdout, "%s: the %s hook is already installed; nothing changed\n", path, agent)
		} else {
			fmt.Fprintf(stdout, "%s: no %s hook of command-safety; nothing changed\n", path, agent)
		}
		return 0
	}
	if err := writeSettingsFile(path, edit.Data, mode); err != nil {
		fmt.Fprintf(stderr, "command-safety hook %s: %v\n", verb, err)
		return 1
	}
	from := path
	if !existed {
		from = "/dev/null"
	}
	fmt.Fprintf(stdout, "--- %s\n+++ %s\n", from, path)
	for _, c := range edit.Changes {
		fmt.Fprintln(stdout, c)
	}
	if existed {
		fmt.Fprintln(stdout, "(the file was re-encoded as JSON with 2-space indentation; every other key was kept in its order)")
	}
	if verb == "install" {
		for _, n := range installNotes(agent, scope, hold.set) {
			fmt.Fprintln(stdout, n)
		}
	}
	return 0
}

// installNotes are what the user must know after installing agent's hook:
// what the agent itself requires before the hook runs, and where an agent
// without anybody at its terminal needs hold mode.
func installNotes(agent string, scope hooks.Scope, hold bool) []string {
	var n []string
	switch agent {
	case "codex":
		n = append(n, "Codex runs a hook only after you trust it: start `codex`, open /hooks, review the command-safety entry and trust it (Codex keeps trust per hook hash; a changed entry must be trusted again).",
			"Automation: `codex exec` skips untrusted hooks silently; once the entry is trusted it runs, or pass --dangerously-bypass-hook-trust to `codex exec` for a run you have checked.")
		if hold {
			n = append(n, "Codex hooks cannot ask: a command that needs approval waits for a release, and is denied when nobody approves it.")
		} else {
			n = append(n, "Codex hooks cannot ask: a command that needs approval is denied with the reason (install with --hold to wait for a release instead).")
		}
		if scope == hooks.Project {
			n = append(n, "Codex loads a project's .codex/hooks.json only when the project is trusted.")
		}
	case "gemini-cli":
		if scope == hooks.Project {
			n = append(n, "Gemini CLI runs a project's hooks only when the folder is trusted.")
		}
		if !hold {
			n = append(n, "Headless `gemini -p` turns an ask into a confirmation nobody can give and waits for ever: for headless runs install with --hold, so prompts wait for a release from `command-safety review`, VS Code or `command-safety log resolve` and are denied when nobody answers.")
		}
	case "claude-code":
		if !hold {
			n = append(n, "In `claude -p` (headless) Claude Code denies an ask itself; install with --hold to have prompts wait for a release instead.")
		}
		n = append(n, "VS Code's agent also runs this entry, for every tool: command-safety judges Copilot's terminal tools there too (as agent vscode).")
	case "vscode", "copilot-cli":
		n = append(n, "VS Code's agent (agent hooks are Preview; an organization's policy may turn them off) and GitHub Copilot CLI both read this file: the one entry gates Copilot's terminal tool in VS Code and Copilot CLI's shell tool, and each verdict names the host it came from.",
			"If .claude/settings.json or ~/.claude/settings.json also holds the claude-code entry, VS Code runs both: each command is judged, and logged, twice.")
		if scope == hooks.Project {
			n = append(n, "Copilot CLI runs a repository's .github/hooks only in a folder you trusted (in `copilot -p`: COPILOT_ALLOW_ALL=true trusts the working directory).")
		}
		if !hold {
			n = append(n, "Copilot CLI denies an ask in -p and autopilot (nobody to ask); install with --hold to have prompts wait for a release instead.")
		}
	}
	return n
}

// selfPath is this binary's absolute path, symlinks resolved.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return exe, nil
}

// maxSettingsFile bounds the settings file install reads.
const maxSettingsFile = 16 << 20

// readSettingsFile reads the agent's settings file through
// [settings.ReadFile]: a project's file can be a FIFO or a link to a device.
func readSettingsFile(path string) (data []byte, mode fs.FileMode, existed bool, err error) {
	data, st, err := settings.ReadFile(path, maxSettingsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, false, nil
	}
	if err != nil {
		return nil, 0, false, fmt.Errorf("reading %s: %w", path, err)
	}
	return data, st.Mode().Perm(), true, nil
}

// writeSettingsFile replaces path atomically (a temporary file in the same
// directory, then rename), keeping its permission bits.
func writeSettingsFile(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename this fails harmlessly
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}
