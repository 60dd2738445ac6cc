package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// MaxInput is the largest hook payload read from stdin; a larger one is denied.
const MaxInput = 1 << 20

// RuleInvalidInput is the rule of the verdicts made here rather than by the
// classifier: the hook payload was empty, oversized or not JSON, had no
// command, or named an agent that has no adapter.
const RuleInvalidInput = "invalid-hook-input"

// Output is what the hook process prints and how it exits.
type Output struct {
	Stdout []byte // the agent's JSON answer, or nothing
	Stderr string // human-readable notes; for exit code 2 the reason the agent shows
	Code   int    // the process exit code
}

// Config is what [Run] needs from its caller. The zero value denies nothing
// wrongly: every field has a safe default.
type Config struct {
	// Policy returns the policy for the given workspace roots (settings are
	// per workspace) and the decision logs those settings name, which join
	// the rule store. nil means [gate.DefaultPolicy].
	Policy func(workspaces []string) (policy gate.Policy, logs []string)
	// Record writes a verdict to the decision log with the agent's session id
	// and returns it as it stands (audit.Record: with its log id, or on error
	// downgraded from allow to prompt). nil means no log: every allow becomes
	// a prompt, since nothing runs unattended without a record.
	// w says who waits on a prompt's answer (ignored for allow and refuse).
	Record func(ctx context.Context, v gate.Verdict, session string, w Waiting) (gate.Verdict, error)
	// Getenv reads the environment the agent gave the hook; nil is os.Getenv.
	Getenv func(string) string
	// Home is the user's home directory, passed to the classifier.
	Home string
	// Platform is the GOOS the commands run on (runtime.GOOS), passed to
	// the classifier: it decides how paths are spelled ([gate.Request]).
	Platform string
	// RuleStore is the installation's permission-rule store (SPEC §5.6), as
	// check and serve pass it; the agents' hook files under Home are added.
	RuleStore gate.Installation
	// GitRoot returns the nearest enclosing git work tree of dir, or "".
	// nil looks for a .git entry on the real filesystem.
	GitRoot func(dir string) string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Hold, when not nil, is hold mode (SPEC §10): a prompt verdict, once
	// recorded as pending, is passed to Hold, which waits for a human to
	// approve or reject it and returns the verdict to answer (allow or
	// refuse, never prompt). Allows and refusals never wait.
	Hold func(ctx context.Context, v gate.Verdict) gate.Verdict
	// Report, when not nil, tells the decision log what the agent's own
	// post-execution hooks say about a prompt it asked its user (SPEC §7):
	// the command ran, or the turn ended without it.
	Report func(ctx context.Context, agent string, r Report) error
	// Event is the agent event the hook was installed for (`--event`), for
	// agents whose payloads do not name it; "" when the payload does.
	Event string
	// BadArgs, when not empty, is a reason to deny whatever the input says
	// (unsupported flags on the hook command line).
	BadArgs string
	// GOOS is the platform the agent runs on, which says the shell of some
	// (Codex runs `/bin/zsh -lc` on macOS); "" is runtime.GOOS.
	GOOS string
}

// Report is what an agent's post-execution hook says (see [Config.Report]).
type Report struct {
	// Ran: the command ran (a post-tool event); else the agent's turn or
	// session ended, and the prompts still asked in it did not run.
	Ran     bool
	Event   string // the agent's event name, for the log's note
	Session string
	CallID  string // the agent's id of the tool call; "" when it has none
	Command string // the command that ran (Ran only)
}

// Waiting says who waits on the answer to a prompt, for the decision log's
// status (SPEC §7).
type Waiting int

const (
	// AgentAsks: the agent asks its own user (status asked).
	AgentAsks Waiting = iota
	// Held: hold mode; a human releases it (status held).
	Held
	// NobodyAsked: the agent cannot ask, so the prompt was answered with a
	// deny; nobody will answer it (the log records it rejected at once).
	NobodyAsked
)

// phase is when in a tool call the agent runs the hook.
type phase int

const (
	before phase = iota // before the command: the gate decides
	ran                 // after the command ran: a report for the log
	ended               // the agent's turn ended: a report for the log
)

// call is what an adapter read from a hook payload.
type call struct {
	phase      phase
	event      string // the agent's event name
	callID     string // the agent's id of the tool call, when it has one
	shell      bool   // false: not a shell command; the adapter has no opinion
	command    string
	cwd        string
	workspaces []string // roots named by the payload or the agent's environment
	session    string
	mode       string // gate mode: "" or "plan"
	// agent names the agent the payload shows when it is not the hook's
	// own (VS Code's agent running the claude-code hook: "vscode").
	agent string
	// terminal: the command runs in a terminal that keeps its directory
	// between commands (VS Code's): cwd is where it started, so only reads
	// and verification may run unattended.
	terminal bool
	// limit, when not "", caps the decision at a prompt and says why.
	limit string
	// unjudged, when not "", is why the call needs a human although it has
	// no command line to classify: it prompts, and command describes it.
	unjudged string
}

// adapter speaks one agent's hook protocol.
type adapter interface {
	// parse reads the payload. An error means the payload is malformed.
	parse(payload []byte, getenv func(string) string, event string) (call, error)
	// answer renders a decision with its reason in the agent's format.
	answer(d effects.Decision, reason string) Output
	// noOpinion is the answer for a tool or event the gate does not judge.
	noOpinion() Output
	// shell is the shell the agent runs the command in, as the agent
	// documents it (SPEC §1), from its environment and the platform
	// (runtime.GOOS); unknown when nothing says.
	shell(getenv func(string) string, goos string) gate.Shell
	// asks reports whether the agent asks its user when the answer is a
	// prompt (an adapter whose agent cannot denies instead, or the agent
	// itself denies an ask when nobody attends it), given the hook's
	// environment.
	asks(getenv func(string) string) bool
}

var adapters = map[string]adapter{
	"claude-code": claudeCode{},
	"codex":       codex{},
	"copilot-cli": copilotCLI{},
	"cursor":      cursor{},
	"gemini-cli":  geminiCLI{},
	"vscode":      vscode{},
}

// Agents lists the agent names that have an adapter, sorted.
func Agents() []string {
	names := make([]string, 0, len(adapters))
	for n := range adapters {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// loginShell is the shell $SHELL names (the user's login shell), or unknown.
func loginShell(getenv func(string) string) gate.Shell {
	return gate.ShellOf(getenv("SHELL"))
}

// RuleHostTool is the rule of the verdicts that prompt because the agent's
// tool runs something the classifier cannot judge whole: PowerShell, text
// sent to a program running in a terminal, a VS Code task from tasks.json
// or with arguments, a notebook cell. Such a call never runs unattended.
const RuleHostTool = "host-tool"

// RuleDeadline is the rule of the verdict made when a hook run did not
// decide before its deadline.
const RuleDeadline = "hook-deadline"

// lateWait is how long [Run] still waits for the decision after ctx ended,
// and recordWait how long it then tries to log the deadline's denial. The
// deadline ([Deadline]) leaves at least 2 s before the agent's own limit.
const (
	lateWait   = 250 * time.Millisecond
	recordWait = time.Second
)

// progress is what a run has learnt so far, for the verdict of a deadline.
type progress struct {
	mu sync.Mutex
	c  call
}

func (p *progress) set(c call) {
	p.mu.Lock()
	p.c = c
	p.mu.Unlock()
}

func (p *progress) get() call {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.c
}

// Run answers one hook invocation for agent: it reads at most [MaxInput]
// bytes of stdin, decides the command, records the verdict and returns what
// to print. It never fails: every problem is a deny with a reason.
//
// When ctx has a deadline, Run answers by then whatever blocks (stdin that
// never ends, a settings file that never reads, a decision log locked by
// another process): the decision runs with ctx's deadline brought forward
// a little, and if it has not returned when ctx ends, Run answers deny in
// the agent's format, saying why, and logs that denial if the log takes it
// within a second. An agent that stops a hook at its own time limit may run
// the tool, so the caller sets ctx's deadline inside that limit ([Deadline]).
func Run(ctx context.Context, agent string, stdin io.Reader, cfg Config) Output {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	ad, ok := adapters[agent]
	if !ok {
		reason := fmt.Sprintf("command-safety has no hook adapter for agent %q (known: %s); the command is denied",
			printable(agent, 64), strings.Join(Agents(), ", "))
		v := rejected(agent, "", reason, now)
		out := unknownAgent(reason)
		if _, err := record(ctx, cfg, v, "", AgentAsks); err != nil {
			out.Stderr += "; " + logFailure(err)
		}
		return out
	}
	deadline, bounded := ctx.Deadline()
	if !bounded {
		return run(ctx, ad, agent, stdin, cfg, now, &progress{})
	}
	start := time.Now()
	reserve := min(time.Until(deadline)/4, 1500*time.Millisecond)
	wctx, cancel := context.WithDeadline(ctx, deadline.Add(-reserve))
	defer cancel()
	prog := &progress{}
	done := make(chan Output, 1)
	go func() { done <- run(wctx, ad, agent, stdin, cfg, now, prog) }()
	select {
	case out := <-done:
		return out
	case <-ctx.Done():
	}
	late := time.NewTimer(lateWait)
	defer late.Stop()
	select {
	case out := <-done:
		return out
	case <-late.C:
	}
	c := prog.get()
	if c.agent != "" {
		agent = c.agent
	}
	why := fmt.Sprintf("command-safety did not decide within %s", time.Since(start).Round(time.Millisecond))
	if ctx.Err() == context.Canceled {
		why = "the hook was stopped before command-safety decided"
	}
	reason := why + " (something it reads blocked: stdin, a settings file or the decision log); the command is denied"
	v := rejected(agent, c.cwd, reason, now)
	v.Rule, v.Command, v.Mode = RuleDeadline, c.command, c.mode
	out := ad.answer(effects.Refuse, reason)
	logged := make(chan error, 1)
	go func() {
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), recordWait)
		defer rcancel()
		_, err := record(rctx, cfg, v, c.session, AgentAsks)
		logged <- err
	}()
	wait := time.NewTimer(recordWait)
	defer wait.Stop()
	select {
	case err := <-logged:
		if err != nil {
			out.Stderr = joinNote(out.Stderr, logFailure(err))
		}
	case <-wait.C:
		out.Stderr = joinNote(out.Stderr, logFailure(errors.New("the decision log did not answer in time; this denial is not recorded")))
	}
	return out
}

// run is [Run] for a known adapter, without the deadline.
func run(ctx context.Context, ad adapter, agent string, stdin io.Reader, cfg Config, now func() time.Time, prog *progress) Output {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var c call
	payload, err := readBounded(stdin)
	if err == nil {
		c, err = ad.parse(payload, getenv, cfg.Event)
	}
	prog.set(c)
	if c.agent != "" {
		agent = c.agent
	}
	if err == nil && cfg.BadArgs != "" {
		err = errors.New(cfg.BadArgs)
	}
	if err != nil {
		reason := "command-safety denied this command because the hook input is invalid: " + err.Error()
		v := rejected(agent, c.cwd, reason, now)
		v.Command, v.Mode = c.command, c.mode
		out := ad.answer(effects.Refuse, reason)
		if _, lerr := record(ctx, cfg, v, c.session, AgentAsks); lerr != nil {
			out.Stderr = joinNote(out.Stderr, logFailure(lerr))
		}
		return out
	}
	if c.phase != before {
		return report(ctx, ad, agent, c, cfg)
	}
	if !c.shell {
		return ad.noOpinion()
	}

	workspaces := c.workspaces
	if len(workspaces) == 0 {
		workspaces = derivedWorkspace(c.cwd, cfg.Home, cfg.GitRoot)
	}
	policy := gate.DefaultPolicy()
	store := cfg.RuleStore
	store.AgentFiles = append(slices.Clone(store.AgentFiles), HookFiles(cfg.Home, getenv)...)
	if cfg.Policy != nil {
		var logs []string
		policy, logs = cfg.Policy(workspaces)
		store.Logs = append(slices.Clone(store.Logs), logs...)
	}
	var v gate.Verdict
	if c.unjudged != "" {
		v = rejected(agent, c.cwd, c.unjudged, now)
		v.Decision, v.Rule, v.Command, v.Mode = effects.Prompt, RuleHostTool, c.command, c.mode
		v.Workspaces = append([]string{}, workspaces...)
		v.ClassificationEnabled = policy.Enabled
	} else {
		goos := cfg.GOOS
		if goos == "" {
			goos = runtime.GOOS
		}
		v = gate.Decide(gate.Request{
			ID:         c.callID, // the decision log's request id: a later report matches it
			Command:    c.command,
			Cwd:        c.cwd,
			Workspaces: workspaces,
			Home:       cfg.Home,
			Platform:   cfg.Platform,
			Agent:      agent,
			Mode:       c.mode,
			Shell:      ad.shell(getenv, goos),
			RuleStore:  store,
		}, policy, now)
		switch {
		case c.limit != "":
			v = gate.AtMostPrompt(v, RuleHostTool, c.limit)
		case c.terminal && v.Decision == effects.Allow && !readsOnly(v):
			v = gate.AtMostPrompt(v, RuleHostTool, whyTerminal)
		}
	}
	var note string
	w := AgentAsks
	switch {
	case cfg.Hold != nil:
		w = Held
	case !ad.asks(getenv):
		w = NobodyAsked
	}
	v, err = record(ctx, cfg, v, c.session, w)
	if err != nil {
		note = logFailure(err)
	}
	if cfg.Hold != nil && v.Decision == effects.Prompt {
		if held := cfg.Hold(ctx, v); held.Decision == effects.Prompt {
			// A Hold must decide; never hand back ask.
			v = gate.Released(v, false, "held for review, and the hold did not decide")
		} else {
			v = held
		}
	}
	out := ad.answer(v.Decision, v.Reason)
	out.Stderr = joinNote(out.Stderr, note)
	return out
}

// report hands a post-execution event to cfg.Report and answers with no
// opinion: the command already ran, or the turn is over.
func report(ctx context.Context, ad adapter, agent string, c call, cfg Config) Output {
	out := ad.noOpinion()
	if cfg.Report == nil || c.session == "" || (c.phase == ran && !c.shell) {
		return out // another tool, or nothing to match a prompt with
	}
	r := Report{Ran: c.phase == ran, Event: c.event, Session: c.session, CallID: c.callID, Command: c.command}
	if err := cfg.Report(ctx, agent, r); err != nil {
		out.Stderr = joinNote(out.Stderr, logFailure(err))
	}
	return out
}

// readsOnly reports whether every part of v reads or verifies.
func readsOnly(v gate.Verdict) bool {
	for _, e := range v.Effects {
		if e.Effect != effects.Read && e.Effect != effects.Verify {
			return false
		}
	}
	return true
}

// record logs v through cfg.Record. Whatever Record returns, an allow that
// was not logged is a prompt.
func record(ctx context.Context, cfg Config, v gate.Verdict, session string, w Waiting) (gate.Verdict, error) {
	var err error
	if cfg.Record == nil {
		err = errors.New("no decision log is configured")
	} else {
		v, err = cfg.Record(ctx, v, session, w)
	}
	if err != nil {
		v = gate.Unrecorded(v, "the decision log is unavailable ("+err.Error()+")")
	}
	return v, err
}

func logFailure(err error) string {
	return "command-safety: decision log: " + err.Error()
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// rejected is the verdict for input that never reached the classifier.
func rejected(agent, cwd, reason string, now func() time.Time) gate.Verdict {
	// The classification never ran; the toggle did not matter.
	return gate.Rejected(gate.Verdict{Time: now().UTC(), Cwd: cwd, Agent: printable(agent, 64), ClassificationEnabled: true},
		RuleInvalidInput, reason)
}

// unknownAgent is the answer when no adapter knows the agent: a generic deny
// that every supported agent also reads as a block through exit code 2.
func unknownAgent(reason string) Output {
	b, _ := json.Marshal(map[string]string{"decision": "deny", "permission": "deny", "reason": reason})
	return Output{Stdout: append(b, '\n'), Stderr: reason, Code: 2}
}

func readBounded(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errors.New("stdin is empty")
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if len(data) > MaxInput {
		return nil, fmt.Errorf("stdin is larger than %d bytes", MaxInput)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("stdin is empty")
	}
	return data, nil
}

// cleanAbs returns p cleaned when it is absolute, else "" (unknown).
func cleanAbs(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}

// cleanRoots keeps the absolute roots, cleaned, in order, without duplicates.
func cleanRoots(roots ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range roots {
		if c := cleanAbs(r); c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// derivedWorkspace is the workspace root when the agent named none: the
// nearest enclosing git work tree of cwd, else cwd. A root that is the home
// directory, holds it (a git repository at / or /tmp, a home directory kept
// in git) or is the filesystem root is never derived: every home write would
// then be "inside". Nor is anything derived when the home directory is
// unknown, since that cannot be checked.
func derivedWorkspace(cwd, home string, gitRoot func(string) string) []string {
	if cwd == "" || home == "" {
		return nil
	}
	if gitRoot == nil {
		gitRoot = findGitRoot
	}
	root := cleanAbs(gitRoot(cwd))
	if root == "" {
		root = cwd
	}
	if root == filepath.Dir(root) || within(filepath.Clean(home), root) {
		return nil
	}
	return []string{root}
}

// within reports whether path is dir or below it (both clean and absolute).
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// findGitRoot walks up from dir to the first directory holding a .git entry.
func findGitRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// printable shortens s to max runes and replaces control characters, for
// names that come from untrusted input and end up in messages.
func printable(s string, max int) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == max {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// modeFromPermission maps Claude Code's permission_mode to a gate mode: only
// plan selects a budget; the others use the agent's own budget (a mode can
// only tighten, and bypassPermissions never loosens the absolute refusals).
func modeFromPermission(pm string) string {
	if pm == "plan" {
		return "plan"
	}
	return ""
}
