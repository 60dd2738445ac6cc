package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hookrun"
	"github.com/ml-ai/command-safety/hooks"
	"github.com/ml-ai/command-safety/internal/atomicfile"
	"github.com/ml-ai/command-safety/settings"
)

// runHook serves `command-safety hook <agent>` (SPEC §8) through
// [hookrun.Run], which cmd/command-safety-hook runs too: the verdict goes to
// the hooks' journal, which every reader of the log ingests first. This
// binary adds the log itself ([fullBackend]): hold mode and the agents'
// reports. `hook install` and `hook uninstall` edit the agent's settings
// file.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "install" || args[0] == "uninstall") {
		return runHookInstall(args[0], args[1:], stdout, stderr)
	}
	return hookrun.Run(args, stdin, stdout, stderr, fullBackend())
}

// holdReserve is what a hold leaves of the run's deadline for resolving its
// row and answering.
const holdReserve = 3 * time.Second

// fullBackend is the decision log for [hookrun.Run]: opened on first use,
// left (not closed) at exit ([audit.Log.Leave]: every row is durable at
// commit already; Leave keeps the WAL under audit.WALLimit).
func fullBackend() hookrun.Backend {
	var log *audit.Log
	var openErr error
	open := func(e *hookrun.Env) error {
		if log == nil && openErr == nil {
			if path, err := e.LogPathNow(); err != nil {
				openErr = err
			} else {
				log, openErr = audit.Open(path) // ingests the journal first
			}
		}
		return openErr
	}
	record := func(ctx context.Context, e *hookrun.Env, v gate.Verdict, session string, st audit.Status) (gate.Verdict, error) {
		if err := open(e); err != nil {
			err = fmt.Errorf("%w: %w", audit.ErrUnavailable, err)
			return audit.Downgrade(v, err), err
		}
		v, err := audit.Record(ctx, log, v, session, st)
		if err == nil && e.First == 0 {
			e.First, e.Changed = v.LogID, true
		}
		return v, err
	}
	return hookrun.Backend{
		RecordHeld: func(ctx context.Context, e *hookrun.Env, v gate.Verdict, session string) (gate.Verdict, error) {
			return record(ctx, e, v, session, audit.StatusHeld)
		},
		Record: func(ctx context.Context, e *hookrun.Env, v gate.Verdict, session string, w hooks.Waiting) (gate.Verdict, error) {
			st := audit.StatusAsked
			if w == hooks.NobodyAsked {
				st = audit.StatusAdvisory
			}
			v, err := record(ctx, e, v, session, st)
			if err == nil && w == hooks.NobodyAsked && v.Decision == effects.Prompt {
				if rerr := log.Resolve(ctx, v.LogID, audit.StatusRejected, v.Agent+" (nobody to ask: the prompt was denied)"); rerr != nil {
					fmt.Fprintf(e.Stderr, "command-safety: decision log: %v\n", rerr)
				}
			}
			return v, err
		},
		Hold: func(e *hookrun.Env, flag, limit time.Duration) func(ctx context.Context, v gate.Verdict) gate.Verdict {
			return hold(e, func() *audit.Log { return log }, flag, limit)
		},
		Report: func(ctx context.Context, e *hookrun.Env, agent string, r hooks.Report) error {
			if err := open(e); err != nil {
				return err
			}
			return report(ctx, e, log, agent, r) // Open ingested the journal: its rows can be matched
		},
		Answered: func(e *hookrun.Env) {
			switch {
			case e.First > 0:
				kickExport(e.Snapshot(), e.LogPath, e.First-1)
			case e.Changed:
				kickExportFrom(e.Snapshot(), e.LogPath, e.Start)
			}
			if e.IngestDue {
				hookrun.IngestLater(e)
			}
		},
		Close: func(e *hookrun.Env) {
			if log != nil {
				if err := log.Leave(); err != nil {
					fmt.Fprintf(e.Stderr, "command-safety: decision log: %v\n", err)
				}
			}
		},
	}
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

// hold returns hold mode's wait (SPEC §10): the prompt is pending in the
// decision log; a human releases it from the review page, VS Code or
// `command-safety log resolve`. Approved runs; rejected, timed out or any
// failure denies, with a reason that says which. The wait ends before the
// run's deadline (inside the agent's limit), whatever the hold's timeout.
func hold(h *hookrun.Env, logOf func() *audit.Log, flag, limit time.Duration) func(ctx context.Context, v gate.Verdict) gate.Verdict {
	return func(ctx context.Context, v gate.Verdict) gate.Verdict {
		deny := func(why string) gate.Verdict { return gate.Released(v, false, why) }
		log := logOf()
		if log == nil || v.LogID == 0 {
			return deny("held for review, but the decision log is unavailable, so nobody can release it")
		}
		timeout := h.HoldTimeout(flag)
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
		fmt.Fprintf(h.Stderr, "command-safety: held for review (log id %d, up to %s%s): %s\n", v.LogID, timeout.Round(time.Second), cut, v.Reason)
		res, err := log.Hold(ctx, v.LogID, timeout, 0)
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

// answerWindow bounds how far back a report without a call id looks for
// the prompt it answers.
const answerWindow = 24 * time.Hour

// report records what the agent's post-execution hook says about a prompt
// it asked its user: the command ran (approved by the agent's user), or the
// turn ended without it (rejected). Nothing else is touched.
func report(ctx context.Context, h *hookrun.Env, log *audit.Log, agent string, r hooks.Report) error {
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
		id, err := log.Ran(ctx, a)
		h.Changed = h.Changed || id > 0
		return err
	}
	ended := "turn"
	if strings.EqualFold(r.Event, "SessionEnd") {
		ended = "session"
	}
	ids, err := log.NotRun(ctx, a, "the agent's "+ended+" ended (its "+r.Event+" hook ran)")
	h.Changed = h.Changed || len(ids) > 0
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
		spec := hooks.Spec{Binary: bin, Hold: hold.set, HoldFor: hold.d, HookBinary: hookBinaryBeside(bin)}
		if hold.set {
			spec.HoldLongest = hold.d
			if hold.d == 0 {
				spec.HoldLongest = settings.Load(hookrun.SettingsEnv(), nil).HoldTimeout
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

// hookBinaryBeside is command-safety-hook in bin's directory, "" when it is
// not there (a build of command-safety alone: its own hook answers the same).
func hookBinaryBeside(bin string) string {
	p := filepath.Join(filepath.Dir(bin), hookrun.HookName+filepath.Ext(bin))
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 && runtime.GOOS != "windows" {
		return ""
	}
	return p
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

// writeSettingsFile replaces path atomically ([atomicfile.Write]), making
// its directory first, keeping the permission bits given.
func writeSettingsFile(path string, data []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil { // a new directory of settings is the user's own
		return err
	}
	return atomicfile.Write(path, data, mode)
}
