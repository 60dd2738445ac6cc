package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/jsonrpc"
	"github.com/ml-ai/command-safety/settings"
	"github.com/ml-ai/command-safety/strictjson"
)

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// boolFlag is a bool flag that remembers whether it was given.
type boolFlag struct {
	set, value bool
}

func (b *boolFlag) String() string   { return fmt.Sprint(b.value) }
func (b *boolFlag) IsBoolFlag() bool { return true }
func (b *boolFlag) Set(v string) error {
	switch v {
	case "true", "1", "on":
		b.value = true
	case "false", "0", "off":
		b.value = false
	default:
		return fmt.Errorf("want true or false, got %q", v)
	}
	b.set = true
	return nil
}

// checkRequest is one line of `check --jsonl` input.
type checkRequest struct {
	ID         json.RawMessage `json:"id"`
	Command    *string         `json:"command"`
	Cwd        string          `json:"cwd"`
	Workspace  string          `json:"workspace"`
	Workspaces []string        `json:"workspaces"`
	Agent      string          `json:"agent"`
	Mode       string          `json:"mode"`
	// Shell is the shell that runs the command: bash, zsh, sh or unknown
	// ("" is --shell's).
	Shell string `json:"shell"`
}

// checkRequestKeys are the keys of [checkRequest], spelled exactly.
var checkRequestKeys = map[string]bool{"id": true, "command": true, "cwd": true, "workspace": true,
	"workspaces": true, "agent": true, "mode": true, "shell": true}

// checkEnv is what every verdict of one check run shares.
type checkEnv struct {
	ruleProbs    map[string]bool // rejected-rule problems already reported
	policy       gate.Policy
	snap         settings.Snapshot // what policy came from
	settings     settings.Env
	loader       *settings.Loader
	safety       boolFlag
	safetyWarned bool
	home         string
	cwd          string
	workspaces   []string
	agent        string
	mode         string
	platform     string // runtime.GOOS: how the commands' paths are spelled
	shell        gate.Shell
	ruleStore    gate.Installation
	logger       *verdictLogger
	stderr       io.Writer
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	jsonl := fs.Bool("jsonl", false, "read JSON lines on stdin, write one verdict JSON per line")
	cwd := fs.String("cwd", "", "directory the command runs in (default: the current directory)")
	var workspaces stringList
	fs.Var(&workspaces, "workspace", "a workspace root (repeatable; default: the cwd)")
	agent := fs.String("agent", "", "agent name whose budget applies (default: default)")
	mode := fs.String("mode", "", "mode: plan, autopilot or a budget name")
	shell := fs.String("shell", "unknown", "the shell that runs the commands: bash, zsh, sh or unknown (classified as bash and as zsh, the worse winning)")
	var safety boolFlag
	fs.Var(&safety, "safety", "override ml-ai.commandSafety (true|false)")
	noLog := fs.Bool("no-log", false, "do not write verdicts to the decision log")
	logPath := fs.String("log", "", "decision log path (default: ml-ai.decisionLog or the platform default)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: command-safety check [flags] -- COMMAND")
		fmt.Fprintln(stderr, "       command-safety check [flags] < commands.txt")
		fmt.Fprintln(stderr, "       command-safety check --jsonl [flags] < requests.jsonl")
		fmt.Fprintln(stderr, "exit status: 0 allow, 1 prompt, 2 refuse, 3 usage error")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	env := checkEnv{home: os.Getenv("HOME"), platform: runtime.GOOS, agent: *agent, mode: *mode, stderr: stderr}
	var err error
	if env.shell, err = gate.ParseShell(*shell); err != nil {
		fmt.Fprintf(stderr, "command-safety check: --shell: %v\n", err)
		return exitUsage
	}
	if *cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "command-safety check: %v\n", err)
			return exitUsage
		}
		*cwd = wd
	}
	if env.cwd, err = filepath.Abs(*cwd); err != nil {
		fmt.Fprintf(stderr, "command-safety check: --cwd: %v\n", err)
		return exitUsage
	}
	for _, w := range workspaces {
		abs, err := filepath.Abs(w)
		if err != nil {
			fmt.Fprintf(stderr, "command-safety check: --workspace: %v\n", err)
			return exitUsage
		}
		env.workspaces = append(env.workspaces, abs)
	}
	if len(env.workspaces) == 0 {
		env.workspaces = []string{env.cwd}
	}

	env.settings, env.loader, env.safety = settingsEnv(), new(settings.Loader), safety
	snap := env.loader.Load(env.settings, env.workspaces)
	env.policy, env.snap = env.policyOf(snap), snap
	if _, err := env.policy.Budgets.Effective(env.agent, env.mode); err != nil && env.mode != "" {
		fmt.Fprintf(stderr, "command-safety check: --mode: %v\n", err)
		return exitUsage
	}
	if !*noLog {
		env.logger = openVerdictLogger(*logPath, snap.DecisionLog, stderr)
		defer env.logger.Close()
		defer env.logger.kickExport(&env.snap) // after the verdicts are out
	}
	// The log in use is the rule store even when this run does not write it.
	inUse, _ := logPathFor(*logPath, snap.DecisionLog)
	env.ruleStore = installation(inUse)

	if *jsonl {
		return env.jsonLines(stdin, stdout)
	}
	if fs.NArg() > 0 {
		v := env.decide(gate.Request{Command: strings.Join(fs.Args(), " "), Shell: env.shell})
		env.print(stdout, v, *asJSON)
		return exitCode(v.Decision)
	}
	// Commands on stdin, one per line.
	worst := effects.Allow
	n := 0
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		n++
		v := env.decide(gate.Request{Command: line, Shell: env.shell})
		env.print(stdout, v, *asJSON)
		worst = effects.Strictest(worst, v.Decision)
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "command-safety check: reading stdin: %v\n", err)
		return exitCode(effects.Refuse)
	}
	if n == 0 {
		fs.Usage()
		return exitUsage
	}
	return exitCode(worst)
}

// policyOf reports snap's new problems on stderr and returns its policy,
// with --safety applied where the managed policy lets it: it cannot turn
// off a toggle the policy locks on, nor on one the policy (or a policy that
// is invalid) turns off.
func (env *checkEnv) policyOf(snap settings.Snapshot) gate.Policy {
	policy, ruleProbs := jsonrpc.PolicyOf(snap)
	for _, p := range snap.New {
		fmt.Fprintf(env.stderr, "command-safety: settings: %s\n", p)
	}
	for _, p := range ruleProbs {
		if env.ruleProbs == nil {
			env.ruleProbs = map[string]bool{}
		}
		if !env.ruleProbs[p.String()] {
			env.ruleProbs[p.String()] = true
			fmt.Fprintf(env.stderr, "command-safety: settings: %s\n", p)
		}
	}
	if env.safety.set {
		switch m := snap.Managed; {
		case m != nil && env.safety.value != snap.Enabled && (snap.LockedOn() || m.Invalid != "" || (m.Enabled != nil && !*m.Enabled)):
			if !env.safetyWarned {
				env.safetyWarned = true
				fmt.Fprintf(env.stderr, "command-safety check: --safety=%t ignored: the managed policy (%s) decides ml-ai.commandSafety\n", env.safety.value, m.File)
			}
		default:
			policy.Enabled = env.safety.value
		}
	}
	return policy
}

// policyFor returns the policy for a request with its own workspaces, and
// the settings it came from: the run's, tightened by the settings of each
// workspace that is not one of the run's (issue 12 point 7; a workspace can
// only tighten).
func (env *checkEnv) policyFor(workspaces []string) (gate.Policy, settings.Snapshot) {
	roots := slices.Clone(env.workspaces)
	more := false
	for _, w := range workspaces {
		if !slices.Contains(roots, w) {
			roots = append(roots, w)
			more = true
		}
	}
	if !more {
		return env.policy, env.snap
	}
	snap := env.loader.Load(env.settings, roots)
	return env.policyOf(snap), snap
}

func exitCode(d effects.Decision) int {
	switch d {
	case effects.Allow:
		return 0
	case effects.Prompt:
		return 1
	}
	return 2
}

func (env *checkEnv) decide(req gate.Request) gate.Verdict {
	if req.Cwd == "" {
		req.Cwd = env.cwd
	}
	if req.Workspaces == nil {
		req.Workspaces = env.workspaces
	}
	if req.Agent == "" {
		req.Agent = env.agent
	}
	if req.Mode == "" {
		req.Mode = env.mode
	}
	req.Home = env.home
	req.Platform = env.platform
	req.RuleStore = env.ruleStore
	policy, snap := env.policyFor(req.Workspaces)
	v := withPolicyNote(gate.Decide(req, policy, nil), snap)
	return env.logger.Record(v)
}

// jsonLines serves `check --jsonl`: one request per line, one verdict per
// line in input order. A malformed line gets a refusal; the stream goes on.
func (env *checkEnv) jsonLines(stdin io.Reader, stdout io.Writer) int {
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	rd := bufio.NewReaderSize(stdin, 64<<10)
	worst := effects.Allow
	for lineNo := 1; ; lineNo++ {
		line, err := readLine(rd, 1<<20)
		if len(strings.TrimSpace(string(line))) > 0 || err == errLineTooLong {
			v, id := env.jsonLine(line, lineNo, err)
			v.ID = id // the caller's id, never the log's: they are told apart by logId
			worst = effects.Strictest(worst, v.Decision)
			if err := enc.Encode(v); err != nil {
				fmt.Fprintf(env.stderr, "command-safety check: writing: %v\n", err)
				return exitCode(effects.Refuse)
			}
			out.Flush()
		}
		if err == io.EOF {
			break
		}
		if err != nil && err != errLineTooLong {
			fmt.Fprintf(env.stderr, "command-safety check: reading stdin: %v\n", err)
			return exitCode(effects.Refuse)
		}
	}
	return exitCode(worst)
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line of at most max bytes; a longer line is consumed
// and reported as errLineTooLong.
func readLine(rd *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		if len(buf)+len(chunk) <= max {
			buf = append(buf, chunk...)
		} else {
			for err == bufio.ErrBufferFull {
				_, err = rd.ReadSlice('\n')
			}
			if err == nil || err == io.EOF {
				return nil, errLineTooLong
			}
			return nil, err
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return buf, err
	}
}

// jsonLine decides one JSONL request and returns the verdict and the
// request's id ("" when the line has none or is not an object).
func (env *checkEnv) jsonLine(line []byte, lineNo int, readErr error) (gate.Verdict, string) {
	var req checkRequest
	bad := func(why string) (gate.Verdict, string) {
		v := gate.Rejected(gate.Verdict{Time: time.Now().UTC(), Cwd: env.cwd, Agent: orDefault(env.agent), Mode: env.mode,
			ClassificationEnabled: env.policy.Enabled}, gate.RuleBadRequest, fmt.Sprintf("line %d: %s", lineNo, why))
		return env.logger.Record(v), rawID(req.ID)
	}
	if readErr == errLineTooLong {
		return bad("the line is longer than 1 MiB")
	}
	// Exactly one object with exactly these keys: encoding/json alone would
	// match "Command" to command, keep the last of two equal keys and ignore
	// a second object after the first (strictjson refuses all three).
	obj, err := strictjson.ParseObject(line)
	if err != nil {
		return bad("not a valid request object: " + err.Error())
	}
	switch id, _ := obj.Get("id"); id := id.(type) {
	case string:
		req.ID, _ = json.Marshal(id)
	case json.Number:
		req.ID = json.RawMessage(id)
	}
	for _, m := range obj.Members {
		if !checkRequestKeys[m.Key] {
			return bad(fmt.Sprintf("not a valid request object: unknown key %q", m.Key))
		}
	}
	if err := json.Unmarshal(line, &req); err != nil {
		return bad("not a valid request object: " + err.Error())
	}
	if req.Command == nil {
		return bad(`the request has no "command"`)
	}
	ws := req.Workspaces
	if req.Workspace != "" {
		ws = append([]string{req.Workspace}, ws...)
	}
	for _, w := range ws {
		if !filepath.IsAbs(w) {
			return bad(fmt.Sprintf("workspace %q is not an absolute path", w))
		}
	}
	if req.Cwd != "" && !filepath.IsAbs(req.Cwd) {
		return bad(fmt.Sprintf("cwd %q is not an absolute path", req.Cwd))
	}
	if req.Cwd == "" && len(ws) > 0 {
		req.Cwd = ws[0]
	}
	if len(ws) == 0 && req.Cwd != "" {
		ws = []string{req.Cwd}
	}
	if req.Mode != "" {
		policy, _ := env.policyFor(ws)
		if _, err := policy.Budgets.Effective(orDefault(req.Agent), req.Mode); err != nil {
			return bad(err.Error())
		}
	}
	shell := env.shell
	if req.Shell != "" {
		var err error
		if shell, err = gate.ParseShell(req.Shell); err != nil {
			return bad(err.Error())
		}
	}
	v := env.decide(gate.Request{Command: *req.Command, Cwd: req.Cwd, Workspaces: ws, Agent: req.Agent, Mode: req.Mode, Shell: shell})
	return v, rawID(req.ID)
}

func orDefault(agent string) string {
	if agent == "" {
		return "default"
	}
	return agent
}

// rawID renders a JSON id (string or number) as the verdict's string id.
func rawID(id json.RawMessage) string {
	if len(id) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

// print writes a verdict: JSON, or a short human text.
func (env *checkEnv) print(w io.Writer, v gate.Verdict, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(v)
		return
	}
	fmt.Fprint(w, humanVerdict(v))
}

// humanVerdict renders a verdict for a terminal:
//
//	refuse  `rm -rf ~`  (delete-outside-workspace)
//	  `rm -rf ~` deletes the home directory
//	  effects: read `git status`; irreversible-deletion `rm -rf ~`
func humanVerdict(v gate.Verdict) string {
	var b strings.Builder
	decided := v.Command
	if v.DecidedBy != nil {
		decided = v.DecidedBy.Text
	}
	fmt.Fprintf(&b, "%-6s  `%s`  (%s)\n", v.Decision, oneLine(decided), v.Rule)
	fmt.Fprintf(&b, "  %s\n", v.Reason)
	if len(v.Effects) > 0 {
		seen := map[string]bool{}
		var parts []string
		for _, e := range v.Effects {
			s := fmt.Sprintf("%s `%s`", e.Effect, oneLine(e.Text))
			if !seen[s] {
				seen[s] = true
				parts = append(parts, s)
			}
		}
		fmt.Fprintf(&b, "  effects: %s\n", strings.Join(parts, "; "))
	}
	return b.String()
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
