package agents

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The environment run.sh hands the tests.
var (
	// enabled is E2E_AGENTS=1: run the real CLIs; anything missing fails.
	enabled = os.Getenv("E2E_AGENTS") == "1"
	// csBin is the command-safety binary (E2E_CS_BIN; else TestMain builds one).
	csBin = os.Getenv("E2E_CS_BIN")
	// cliBin is the node_modules/.bin directory of the pinned CLIs (E2E_CLI_BIN).
	cliBin = os.Getenv("E2E_CLI_BIN")
	// straceMode is E2E_STRACE: "1" wraps every CLI in strace and fails
	// without it; "0" never; "" (default) when strace works here.
	straceMode = os.Getenv("E2E_STRACE")
	// keepDirs is E2E_KEEP=1: leave each test's temporary tree and say where.
	keepDirs = os.Getenv("E2E_KEEP") == "1"
)

var (
	useStrace bool
	// adapters are the agents `command-safety hook --help` lists.
	adapters = map[string]bool{}
)

func TestMain(m *testing.M) {
	if !enabled {
		os.Exit(m.Run()) // every test skips itself
	}
	var cleanup func()
	if err := setup(&cleanup); err != nil {
		fmt.Fprintf(os.Stderr, "e2e/agents: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	if cleanup != nil {
		cleanup()
	}
	os.Exit(code)
}

func setup(cleanup *func()) error {
	if runtime.GOOS != "linux" {
		return fmt.Errorf("E2E_AGENTS=1 needs Linux (the CLIs' native packages and strace); this is %s", runtime.GOOS)
	}
	if cliBin == "" {
		return errors.New("E2E_CLI_BIN is not set: run e2e/agents/run.sh, which installs the CLIs and sets it")
	}
	if csBin == "" {
		dir, err := os.MkdirTemp("", "e2e-agents-bin-")
		if err != nil {
			return err
		}
		*cleanup = func() { os.RemoveAll(dir) }
		csBin = filepath.Join(dir, "command-safety")
		cmd := exec.Command("go", "build", "-o", csBin, "../../cmd/command-safety")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building command-safety: %w", err)
		}
		// Beside it, as the .vsix ships it: `hook install` writes it for
		// the pre-command event.
		cmd = exec.Command("go", "build", "-o", filepath.Join(dir, "command-safety-hook"), "../../cmd/command-safety-hook")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building command-safety-hook: %w", err)
		}
	}
	if _, err := os.Stat(csBin); err != nil {
		return fmt.Errorf("E2E_CS_BIN: %w", err)
	}
	usage, _ := exec.Command(csBin, "hook", "--help").CombinedOutput()
	for _, line := range strings.Split(string(usage), "\n") {
		if list, ok := strings.CutPrefix(line, "agents: "); ok {
			for _, a := range strings.Split(list, ",") {
				adapters[strings.TrimSpace(a)] = true
			}
		}
	}
	if len(adapters) == 0 {
		return fmt.Errorf("`command-safety hook --help` lists no agents:\n%s", usage)
	}
	switch straceMode {
	case "0":
	case "1":
		if err := exec.Command("strace", "-f", "-qq", "-e", "trace=connect", "-o", "/dev/null", "true").Run(); err != nil {
			return fmt.Errorf("E2E_STRACE=1 but strace does not work here: %v", err)
		}
		useStrace = true
	default:
		useStrace = exec.Command("strace", "-f", "-qq", "-e", "trace=connect", "-o", "/dev/null", "true").Run() == nil
	}
	return nil
}

// requireE2E skips the test unless E2E_AGENTS=1.
func requireE2E(t *testing.T) {
	t.Helper()
	if !enabled {
		t.Skip("the real agent CLIs run only with E2E_AGENTS=1 (e2e/agents/run.sh)")
	}
}

// requireAdapter fails the test when the binary has no hook adapter for the
// agent, or skips it when the adapter is known to be pending.
func requireAdapter(t *testing.T, ag *agent) {
	t.Helper()
	if adapters[ag.hook] {
		return
	}
	if ag.pendingAdapter != "" {
		t.Skipf("command-safety has no %s adapter yet (%s); this case runs once it has", ag.hook, ag.pendingAdapter)
	}
	t.Fatalf("command-safety has no %s hook adapter", ag.hook)
}

// sandbox is one test's world: a temporary tree that is HOME, every XDG_*
// directory, TMPDIR and the agent's own home, a git project inside it, a
// dummy directory for the refusal, the model server and the proxy trap.
type sandbox struct {
	t                                 *testing.T
	root, home, proj, tmp, state, cfg string
	dummy                             string // ~/dummy, which the refusal case must leave alone
	srv                               *modelServer
	trap                              *proxyTrap
	ag                                *agent
	envOverride                       []string // when set, the environment of cs (a captured hook's)
}

func newSandbox(t *testing.T, ag *agent, call toolCall) *sandbox {
	t.Helper()
	root, err := os.MkdirTemp("", "e2e-"+ag.hook+"-")
	if err != nil {
		t.Fatal(err)
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if keepDirs || (t.Failed() && os.Getenv("E2E_KEEP_FAILED") == "1") {
			t.Logf("kept %s", root)
			return
		}
		os.RemoveAll(root)
	})
	s := &sandbox{t: t, root: root, ag: ag,
		home:  filepath.Join(root, "home"),
		proj:  filepath.Join(root, "home", "proj"),
		tmp:   filepath.Join(root, "tmp"),
		state: filepath.Join(root, "state"),
		cfg:   filepath.Join(root, "config"),
	}
	s.dummy = filepath.Join(s.home, "dummy")
	for _, d := range []string{s.home, s.proj, s.tmp, s.state, s.cfg, s.dummy,
		filepath.Join(root, "cache"), filepath.Join(root, "data"), filepath.Join(root, "run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.dummy, "keep.txt"), []byte("the refusal case must leave this alone\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.proj, "README.md"), []byte("# e2e project\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	git := exec.Command("git", "init", "-q", s.proj)
	git.Env = s.env()
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	s.srv = newModelServer(t, call)
	s.trap = newProxyTrap(t)
	ag.configure(s)
	return s
}

// env is the environment every process of the test gets: nothing of the
// real user's, only the temporary tree, the loopback model and the trap.
func (s *sandbox) env() []string {
	node, _ := exec.LookPath("node")
	path := "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	if node != "" {
		path = filepath.Dir(node) + ":" + path
	}
	trap := "http://127.0.0.1:1" // before the trap exists (git init)
	if s.trap != nil {
		trap = s.trap.URL()
	}
	env := []string{
		"PATH=" + path,
		"HOME=" + s.home,
		"USER=e2e", "LOGNAME=e2e", "SHELL=/bin/bash",
		"LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1",
		"TMPDIR=" + s.tmp,
		"XDG_CONFIG_HOME=" + s.cfg,
		"XDG_STATE_HOME=" + s.state,
		"XDG_CACHE_HOME=" + filepath.Join(s.root, "cache"),
		"XDG_DATA_HOME=" + filepath.Join(s.root, "data"),
		"XDG_RUNTIME_DIR=" + filepath.Join(s.root, "run"),
		"GIT_CONFIG_NOSYSTEM=1",
		// Anything that honours a proxy and is not for loopback goes to the trap.
		"HTTP_PROXY=" + trap, "HTTPS_PROXY=" + trap, "ALL_PROXY=" + trap,
		"http_proxy=" + trap, "https_proxy=" + trap, "all_proxy=" + trap,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	if s.ag != nil && s.srv != nil {
		env = append(env, s.ag.env(s)...)
	}
	return env
}

// logPath is the decision log the hook writes (XDG_STATE_HOME/ml-ai/decisions.db).
func (s *sandbox) logPath() string { return filepath.Join(s.state, "ml-ai", "decisions.db") }

// cs runs the command-safety binary in the sandbox and returns its stdout.
func (s *sandbox) cs(stdin string, args ...string) (stdout, stderr string, code int) {
	s.t.Helper()
	cmd := exec.Command(csBin, args...)
	cmd.Dir = s.proj
	cmd.Env = s.env()
	if s.envOverride != nil {
		cmd.Env = s.envOverride
	}
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			s.t.Fatalf("command-safety %q: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return o.String(), e.String(), code
}

// install runs `command-safety hook install AGENT --project [extra...]` in
// the project and fails the test when it fails.
func (s *sandbox) install(extra ...string) string {
	s.t.Helper()
	out, errOut, code := s.cs("", append([]string{"hook", "install", s.ag.hook, "--project"}, extra...)...)
	if code != 0 {
		s.t.Fatalf("hook install %s --project %q: exit %d\n%s%s", s.ag.hook, extra, code, out, errOut)
	}
	return out
}

// logEntry is a row of `command-safety log --json`.
type logEntry struct {
	LogID      int64    `json:"logId"`
	Command    string   `json:"command"`
	Agent      string   `json:"agent"`
	Decision   string   `json:"decision"`
	Rule       string   `json:"rule"`
	Reason     string   `json:"reason"`
	Status     string   `json:"status"`
	Reviewer   string   `json:"reviewer"`
	Session    string   `json:"session"`
	Cwd        string   `json:"cwd"`
	Workspaces []string `json:"workspaces"`
	Note       string   `json:"note"`
}

// entries reads the decision log, oldest first; none when it does not exist
// yet. A hook writes the hooks' journal beside it (decisions.db.hooks),
// which `log` ingests: either makes a log to read.
func (s *sandbox) entries() []logEntry {
	s.t.Helper()
	if _, err := os.Stat(s.logPath()); err != nil {
		if _, err := os.Stat(s.logPath() + ".hooks"); err != nil {
			return nil
		}
	}
	out, errOut, code := s.cs("", "log", "--json", "--limit", "0")
	if code != 0 {
		s.t.Fatalf("log --json: exit %d: %s", code, errOut)
	}
	var es []logEntry
	if err := json.Unmarshal([]byte(out), &es); err != nil {
		s.t.Fatalf("log --json: %v\n%s", err, out)
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

// entriesFor keeps the rows of command written by the agent's hook.
func (s *sandbox) entriesFor(command string) []logEntry {
	var out []logEntry
	for _, e := range s.entries() {
		if e.Command == command && e.Agent == s.ag.hook {
			out = append(out, e)
		}
	}
	return out
}

// turn is one finished (or stopped) run of the CLI.
type turn struct {
	stdout, stderr string
	code           int
	killed         bool          // the test stopped it (its deadline, or stopWhen)
	took           time.Duration // wall time
	connects       []string      // non-loopback connect(2) calls, from strace
}

// runOpts says how long a turn may take and when the test stops it early.
type runOpts struct {
	timeout time.Duration
	// during, if set, runs while the CLI runs (polling the log, releasing
	// a hold); when it returns true the CLI is stopped.
	during func(ctx context.Context) (stop bool)
}

// run runs one turn of the CLI with prompt, in the project, under strace when
// it is on. It never fails the test by itself; check does.
func (s *sandbox) run(prompt string, o runOpts) turn {
	s.t.Helper()
	if o.timeout == 0 {
		o.timeout = 90 * time.Second
	}
	bin := filepath.Join(cliBin, s.ag.bin)
	if _, err := os.Stat(bin); err != nil {
		s.t.Fatalf("the %s CLI is not installed (%v): run e2e/agents/run.sh", s.ag.name, err)
	}
	args := s.ag.args(s, prompt)
	name := bin
	straceLog := filepath.Join(s.root, "strace.log")
	if useStrace {
		args = append([]string{"-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-e", "signal=none",
			"-o", straceLog, "--", bin}, args...)
		name = "strace"
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	cmd := exec.Command(name, args...)
	cmd.Dir = s.proj
	cmd.Env = s.env()
	cmd.Stdin = nil // /dev/null
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting %s: %v", s.ag.name, err)
	}
	pgid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stopped := make(chan struct{})
	var stopOnce sync.Once
	stop := func() { stopOnce.Do(func() { close(stopped) }) }
	if o.during != nil {
		go func() {
			if o.during(ctx) {
				stop()
			}
		}()
	}
	var err error
	killed := false
	select {
	case err = <-done:
	case <-ctx.Done():
		killed = true
	case <-stopped:
		killed = true
	}
	if killed {
		// Only the process group this test started: the CLI and its children.
		syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-pgid, syscall.SIGKILL)
			err = <-done
		}
	}
	cancel()
	tr := turn{stdout: stdout.String(), stderr: stderr.String(), killed: killed, took: time.Since(start)}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			tr.code = ee.ExitCode()
		} else {
			tr.code = -1
		}
	}
	if useStrace {
		tr.connects = foreignConnects(s.t, straceLog, s.srv.Port())
		os.Rename(straceLog, straceLog+"."+time.Now().Format("150405.000"))
	}
	s.t.Logf("%s turn: exit %d, killed %v, %s, %d model calls, %d tool calls",
		s.ag.name, tr.code, tr.killed, tr.took.Round(100*time.Millisecond), len(s.srv.Exchanges()), s.srv.ToolCalls())
	return tr
}

// checkOffline fails the test when the CLI connected anywhere but the model
// server: through the proxy trap or, under strace, any connect(2) elsewhere.
func (s *sandbox) checkOffline(tr turn) {
	s.t.Helper()
	if hits := s.trap.Hits(); len(hits) > 0 {
		s.t.Errorf("%s tried to reach the network through the proxy: %q", s.ag.name, hits)
	}
	if len(tr.connects) > 0 {
		s.t.Errorf("%s connected to non-loopback addresses (strace):\n  %s", s.ag.name, strings.Join(tr.connects, "\n  "))
	}
	for _, e := range s.srv.Exchanges() {
		if e.Answer == "not-found" || e.Answer == "bad-request" {
			s.t.Errorf("%s made a call the model server does not serve: %s %s", s.ag.name, e.Method, e.Path)
		}
	}
}

// dump describes a turn for a failure message.
func (s *sandbox) dump(tr turn) string {
	var b strings.Builder
	fmt.Fprintf(&b, "exit %d killed %v after %s\n--- model calls\n%s", tr.code, tr.killed, tr.took, s.srv.Summary())
	fmt.Fprintf(&b, "--- decision log\n")
	for _, e := range s.entries() {
		fmt.Fprintf(&b, "  #%d %s %s %q %s in %s, workspaces %q (%s)\n", e.LogID, e.Agent, e.Decision, e.Command, e.Status, e.Cwd, e.Workspaces, clip(e.Reason, 200))
	}
	fmt.Fprintf(&b, "--- stdout\n%s\n--- stderr\n%s", clip(tr.stdout, 3000), clip(tr.stderr, 3000))
	return b.String()
}

var connectLine = regexp.MustCompile(`connect\(\d+, \{sa_family=(AF_INET6?), sin6?_port=htons\((\d+)\)[^}]*?(?:inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)")`)

// foreignConnects reads an strace log of connect(2) calls and returns those
// to an IP address other than the model server's, 127.0.0.1:port (AF_UNIX and
// AF_NETLINK sockets are local and not listed; a name lookup shows up as a
// connect to the resolver and is listed).
func foreignConnects(t *testing.T, path string, port int) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Errorf("strace log: %v", err)
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "connect(") || !strings.Contains(line, "sa_family=AF_INET") {
			continue
		}
		m := connectLine.FindStringSubmatch(line)
		if m == nil {
			out = append(out, "unparsed: "+line)
			continue
		}
		ip := net.ParseIP(m[3] + m[4])
		if ip != nil && ip.IsLoopback() && m[2] == strconv.Itoa(port) {
			continue
		}
		out = append(out, line)
	}
	return out
}

// proxyTrap is a loopback listener the proxy variables point at: every
// connection to it is a CLI trying to reach the network; it is recorded and
// refused.
type proxyTrap struct {
	ln   net.Listener
	mu   sync.Mutex
	hits []string
}

func newProxyTrap(t *testing.T) *proxyTrap {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxyTrap{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(5 * time.Second))
				line, _ := bufio.NewReader(c).ReadString('\n')
				p.mu.Lock()
				p.hits = append(p.hits, strings.TrimSpace(line))
				p.mu.Unlock()
				io.WriteString(c, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			}()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return p
}

func (p *proxyTrap) URL() string { return "http://" + p.ln.Addr().String() }

func (p *proxyTrap) Hits() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.hits...)
}

// lockedBuffer is a bytes.Buffer safe for the exec copier and a reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// readJSON reads a JSON file into a generic value.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
