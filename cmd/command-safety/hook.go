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
	"syscall"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/hooks"
	"github.com/ml-ai/command-safety/settings"
)

// hookTimeout bounds one hook run (settings, classification, the log's busy
// wait). The agents wait 60 s by default before giving up on a hook.
const hookTimeout = 30 * time.Second

// runHook serves `command-safety hook <agent>` (SPEC §8): the agent's hook
// payload on stdin, its answer on stdout, the exit code the agent expects.
// `hook install` and `hook uninstall` edit the agent's settings file.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "install" || args[0] == "uninstall") {
		return runHookInstall(args[0], args[1:], stdout, stderr)
	}
	agent := ""
	if len(args) > 0 {
		agent = args[0]
	}
	hold, holdFlag, rest, holdErr := parseHold(args)
	args = rest
	if agent == "-h" || agent == "--help" || agent == "help" {
		hookUsage(stderr)
		return 2 // not an answer: exit 2 is a block for every supported agent
	}
	h := newHookEnv(stderr)
	// The log is closed after the answer is written. Every row is durable at
	// commit already (synchronous=FULL), but closing matters: when no other
	// process has the log open, the last connection's close checkpoints the
	// WAL into the database and removes it. A process that exits without
	// closing leaves its WAL behind, the next opener rebuilds the WAL index by
	// reading all of it, and with hooks as the only writers the WAL grew by
	// ~40 KiB per call (10 MiB after 250 calls) and every hook got slower.
	defer h.close()
	cfg := hooks.Config{
		Policy:    h.policy,
		Record:    h.record,
		Home:      h.env.Home,
		RuleStore: installation(), // the log joins it from the settings (h.policy)
	}
	if len(args) > 1 {
		cfg.BadArgs = fmt.Sprintf("unsupported arguments after the agent name: %q", args[1:])
	}
	if holdErr != nil {
		cfg.BadArgs = holdErr.Error()
	}
	timeout := hookTimeout
	if hold {
		cfg.Hold = h.hold(holdFlag)
		// The hold bounds its own wait (the flag or ml-ai.holdTimeout, at
		// most 7 days); the settings are read inside Run.
		timeout += 7 * 24 * time.Hour
	}
	ctx := context.Background()
	if hold {
		// A signal (the agent giving up on the hook, Ctrl-C) ends the wait:
		// audit.Log.Hold rejects the row as hold-cancelled, so it does not
		// stay pending on the review page, and the answer is deny.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out := hooks.Run(ctx, agent, stdin, cfg)
	if _, err := stdout.Write(out.Stdout); err != nil {
		fmt.Fprintf(stderr, "command-safety hook: writing the answer: %v\n", err)
		return 2 // the agent reads exit code 2 as a block
	}
	if out.Stderr != "" {
		fmt.Fprintln(stderr, out.Stderr)
	}
	return out.Code
}

// parseHold takes `--hold` or `--hold=DURATION` out of the hook's arguments
// (anywhere after the agent name). A zero duration means the setting
// ml-ai.holdTimeout (default 10 minutes).
func parseHold(args []string) (hold bool, d time.Duration, rest []string, err error) {
	for i, a := range args {
		if i == 0 || (a != "--hold" && !strings.HasPrefix(a, "--hold=")) {
			rest = append(rest, a)
			continue
		}
		hold = true
		if v, ok := strings.CutPrefix(a, "--hold="); ok {
			if d, err = time.ParseDuration(v); err != nil || d <= 0 {
				return hold, 0, rest, fmt.Errorf("--hold=%s: want a positive duration such as 10m", v)
			}
		}
	}
	return hold, d, rest, nil
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
// failure denies, with a reason that says which.
func (h *hookEnv) hold(flag time.Duration) func(ctx context.Context, v gate.Verdict) gate.Verdict {
	return func(ctx context.Context, v gate.Verdict) gate.Verdict {
		deny := func(why string) gate.Verdict {
			v.Decision = effects.Refuse
			v.Reason = why
			return v
		}
		if h.log == nil || v.LogID == 0 {
			return deny("held for review, but the decision log is unavailable, so nobody can release it: " + v.Reason)
		}
		timeout := h.holdTimeout(flag)
		fmt.Fprintf(h.stderr, "command-safety: held for review (log id %d, up to %s): %s\n", v.LogID, timeout, v.Reason)
		res, err := h.log.Hold(ctx, v.LogID, timeout, 0)
		switch {
		case err != nil && !res.Approved():
			return deny(fmt.Sprintf("held for review, and the hold failed (%v); denied", err))
		case res.Approved():
			v.Decision = effects.Allow
			v.Reason = fmt.Sprintf("approved by %s after review: %s", res.Entry.Reviewer, v.Reason)
			return v
		case res.TimedOut:
			return deny(fmt.Sprintf("held for review and timed out: nobody approved it within %s; %s", res.Timeout, v.Reason))
		case res.Cancelled:
			return deny("held for review, and the hook was stopped before anybody answered; " + v.Reason)
		}
		return deny(fmt.Sprintf("rejected by %s after review: %s", res.Entry.Reviewer, v.Reason))
	}
}

func hookUsage(w io.Writer) {
	fmt.Fprintf(w, `usage: command-safety hook <agent> [--hold[=DURATION]]  answer the agent's pre-command hook (stdin: its JSON)
       command-safety hook install <agent> [--project|--user] [--dir DIR]
       command-safety hook uninstall <agent> [--project|--user] [--dir DIR]
agents: %s
`, strings.Join(hooks.Agents(), ", "))
}

// hookEnv loads the settings and opens the decision log for one hook run.
type hookEnv struct {
	snapHold time.Duration // ml-ai.holdTimeout from the last settings read
	env      settings.Env
	stderr   io.Writer
	logPath  string // the log the settings name, or the default; "" when unknown
	pathErr  error
	log      *audit.Log
}

func newHookEnv(stderr io.Writer) *hookEnv {
	return &hookEnv{env: settings.EnvFrom(runtime.GOOS, os.Getenv), stderr: stderr}
}

// policy reads the same settings files as check, for the hook's workspaces.
func (h *hookEnv) policy(workspaces []string) (gate.Policy, []string) {
	snap := settings.Load(h.env, workspaces)
	h.snapHold = snap.HoldTimeout
	for _, p := range snap.Problems {
		fmt.Fprintf(h.stderr, "command-safety: settings: %s\n", p)
	}
	h.logPath, h.pathErr = logPathFor("", snap.DecisionLog)
	var logs []string
	if h.logPath != "" {
		logs = append(logs, h.logPath)
	}
	return gate.Policy{Enabled: snap.Enabled, Budgets: snap.Budgets}, logs
}

// close closes the decision log if this run opened it.
func (h *hookEnv) close() {
	if h.log != nil {
		if err := h.log.Close(); err != nil {
			fmt.Fprintf(h.stderr, "command-safety: decision log: closing: %v\n", err)
		}
	}
}

// record writes v with the agent's session to the decision log
// ([audit.Record]: on failure an allow comes back as a prompt).
func (h *hookEnv) record(ctx context.Context, v gate.Verdict, session string) (gate.Verdict, error) {
	if h.logPath == "" && h.pathErr == nil {
		// Bad input never reached the settings: use the user's log setting.
		h.policy(nil)
	}
	if h.log == nil && h.pathErr == nil {
		h.log, h.pathErr = audit.Open(h.logPath)
	}
	if h.pathErr != nil {
		err := fmt.Errorf("%w: %w", audit.ErrUnavailable, h.pathErr)
		return audit.Downgrade(v, err), err
	}
	return audit.Record(ctx, h.log, v, session)
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
	path, err := hooks.SettingsPath(agent, scope, projectDir, home)
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
		command := hooks.HookCommand(bin, agent)
		wait := time.Duration(0)
		if hold.set {
			command += " --hold"
			wait = settings.Load(settings.EnvFrom(runtime.GOOS, os.Getenv), nil).HoldTimeout
			if hold.d > 0 {
				command += "=" + hold.d.String()
				wait = hold.d
			}
		}
		edit, err = hooks.InstallHold(agent, data, command, wait)
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
	if verb == "install" && agent == "gemini-cli" && scope == hooks.Project {
		fmt.Fprintln(stdout, "(Gemini CLI runs a project's hooks only when the folder is trusted)")
	}
	return 0
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

func readSettingsFile(path string) (data []byte, mode fs.FileMode, existed bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, false, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, false, fmt.Errorf("%s is not a regular file", path)
	}
	data, err = io.ReadAll(io.LimitReader(f, maxSettingsFile+1))
	if err != nil {
		return nil, 0, false, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > maxSettingsFile {
		return nil, 0, false, fmt.Errorf("%s is larger than %d bytes", path, maxSettingsFile)
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
