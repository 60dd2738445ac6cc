package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/settings"
)

// Options configure [Serve]. The zero value serves with the defaults, no
// decision log and no settings files.
type Options struct {
	// Home is the user's home directory (the server's $HOME); classify
	// resolves `~` against it.
	Home string
	// Platform is the GOOS the commands run on (runtime.GOOS): it decides
	// how paths are spelled ([gate.Request]).
	Platform string
	// SettingsEnv locates the settings files read when the client does not
	// answer `workspace/configuration`.
	SettingsEnv settings.Env
	// LogPath is the decision log from `--log`; it wins over the
	// `ml-ai.decisionLog` setting and DefaultLogPath.
	LogPath string
	// DefaultLogPath is the decision log when neither LogPath nor the setting
	// names one; "" means no default is known (the log is then unavailable).
	DefaultLogPath string
	// NoLog turns the decision log off (tests and benchmarks only): verdicts
	// are not recorded and not downgraded.
	NoLog bool
	// Session names this server in the decision log.
	Session string
	// RuleStore is the installation's permission-rule store (SPEC §5.6), as
	// check and hook pass it; the decision log in use is added per request.
	RuleStore gate.Installation
	// Logger receives diagnostics (stderr); nil discards them.
	Logger *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// MaxConcurrent bounds classify requests decided at once; 0 is
	// 4×GOMAXPROCS. Requests beyond it wait (and can be cancelled).
	MaxConcurrent int
	// ConfigTimeout bounds the wait of a classify for the client's first
	// `workspace/configuration` answer; 0 is 5 s.
	ConfigTimeout time.Duration
	// Recorded, when not nil, is called after each verdict or resolution
	// this server writes to the decision log (the OpenTelemetry export
	// ships it then). It must not block.
	Recorded func()
}

// lifecycle states of the LSP session.
const (
	stateNew         int32 = iota // before initialize
	stateInitialized              // initialize answered
	stateShutdown                 // shutdown answered
)

// Server is one `serve` session over one connection.
type Server struct {
	opts  Options
	log   *slog.Logger
	conn  jsonrpc2.Conn
	st    *stream
	state atomic.Int32
	exit  chan int

	mu           sync.Mutex
	roots        []string       // workspace roots from initialize (and folder changes)
	agent, mode  string         // initializationOptions defaults
	clientConfig bool           // the client answers workspace/configuration
	client       clientSections // its last answer
	wantHeld     bool           // the client asked for commandSafety/held
	verdictLine  bool           // the client asked for verdict lines in the replies
	inflight     map[jsonrpc2.ID]*call

	settings   atomic.Pointer[settings.Snapshot]
	loader     settings.Loader
	cfgReady   chan struct{} // closed once the first settings are in
	readyOnce  sync.Once
	giveUpOnce sync.Once  // the first classify that waited ConfigTimeout in vain
	fetchMu    sync.Mutex // one workspace/configuration exchange at a time
	fetchSeq   atomic.Int64
	watcher    *settings.Watcher // files mode
	sem        chan struct{}
	work       sync.WaitGroup // classify and resolve in flight
	decisionDB *logState

	tailCtx    context.Context // ends when the server stops
	tailCancel context.CancelFunc
	tailOnce   sync.Once
}

// Serve runs a server on in/out until the client sends exit, the input ends
// or ctx is done, and returns the process exit code: 0 after shutdown then
// exit (or end of input after shutdown), 1 otherwise. err says why the
// session ended when it was not a clean exit. closer, when not nil, is
// closed when the server stops so a blocked read returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer, closer io.Closer, opts Options) (code int, err error) {
	s := newServer(opts)
	defer s.close()
	s.st = newStream(in, out, closer, s.log)
	s.conn = jsonrpc2.NewConn(s.st)
	s.conn.Go(ctx, s.handle)
	select {
	case code := <-s.exit:
		return code, nil
	case <-s.conn.Done():
		err := s.conn.Err()
		if s.state.Load() == stateShutdown && errors.Is(err, io.EOF) {
			return 0, nil
		}
		if errors.Is(err, io.EOF) {
			return 1, errors.New("input closed before the exit notification")
		}
		return 1, fmt.Errorf("reading input: %w", err)
	case <-ctx.Done():
		_ = s.conn.Close()
		return 1, ctx.Err()
	}
}

func newServer(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = 4 * runtime.GOMAXPROCS(0)
	}
	if opts.ConfigTimeout <= 0 {
		opts.ConfigTimeout = 5 * time.Second
	}
	s := &Server{
		opts:     opts,
		log:      opts.Logger,
		exit:     make(chan int, 1),
		inflight: map[jsonrpc2.ID]*call{},
		cfgReady: make(chan struct{}),
		sem:      make(chan struct{}, opts.MaxConcurrent),
	}
	// Until the first settings arrive, the defaults under the managed
	// policy: a policy is never waited for.
	// (A Loader of its own: its problems are reported with the first
	// settings, by s.loader.)
	d := new(settings.Loader).FromSectionsWithFiles(opts.SettingsEnv, nil, nil, nil)
	s.settings.Store(&d)
	s.decisionDB = newLogState(opts, s.log)
	s.tailCtx, s.tailCancel = context.WithCancel(context.Background())
	return s
}

func (s *Server) close() {
	s.tailCancel()
	// Let verdicts being recorded finish (briefly) before the log closes.
	done := make(chan struct{})
	go func() { s.work.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeWait):
	}
	s.mu.Lock()
	w := s.watcher
	s.watcher = nil
	s.mu.Unlock()
	if w != nil {
		// Close waits for a running OnChange, which may be blocked writing
		// to a client that stopped reading: do not wait for it.
		go w.Close()
	}
	s.decisionDB.close()
}

// closeWait bounds how long a stopping server waits for work in flight.
const closeWait = 500 * time.Millisecond

// handlerFunc is one method's handler. It must reply exactly once to a call.
type handlerFunc func(s *Server, ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error

// handlers maps each method to its handler; a method not here is -32601.
var handlers map[string]handlerFunc

func init() {
	handlers = map[string]handlerFunc{
		MethodInitialize:             (*Server).initialize,
		MethodInitialized:            (*Server).initialized,
		MethodShutdown:               (*Server).shutdown,
		MethodExit:                   (*Server).exitNotification,
		MethodCancelRequest:          (*Server).cancelRequest,
		MethodClassify:               (*Server).classify,
		MethodResolve:                (*Server).resolve,
		MethodDidChangeConfiguration: (*Server).didChangeConfiguration,
		methodDidChangeFolders:       (*Server).didChangeWorkspaceFolders,
	}
}

// handle is the connection's handler: lifecycle checks, dispatch, and
// panics turned into replies. It runs on the reading goroutine, so handlers
// that take time start their own goroutine.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	reply = s.safeReply(req, reply)
	_, isCall := req.(*jsonrpc2.Call)
	defer func() {
		if r := recover(); r != nil {
			s.panicReply(req, reply, r)
		}
	}()
	method := req.Method()
	if method != MethodExit {
		switch s.state.Load() {
		case stateNew:
			if method != MethodInitialize {
				if isCall {
					return reply(ctx, nil, jsonrpc2.Errorf(codeServerNotInitialized, "server not initialized: %s before initialize", method))
				}
				s.log.Debug("notification before initialize dropped", "method", method)
				return nil
			}
		case stateShutdown:
			if isCall {
				return reply(ctx, nil, jsonrpc2.Errorf(codeInvalidRequest, "invalid request: %s after shutdown", method))
			}
			return nil
		}
	}
	h, ok := handlers[method]
	if !ok {
		if isCall {
			return reply(ctx, nil, jsonrpc2.Errorf(codeMethodNotFound, "method not found: %s", method))
		}
		s.log.Debug("unknown notification ignored", "method", method)
		return nil
	}
	return h(s, ctx, reply, req)
}

// safeReply replies at most once, never with a cancelled context (the reply
// would be dropped), and logs write failures.
func (s *Server) safeReply(req jsonrpc2.Request, reply jsonrpc2.Replier) jsonrpc2.Replier {
	var once atomic.Bool
	return func(ctx context.Context, result any, err error) error {
		if !once.CompareAndSwap(false, true) {
			return nil
		}
		if werr := reply(context.WithoutCancel(ctx), result, err); werr != nil {
			s.log.Error("reply failed", "method", req.Method(), "err", werr)
		}
		return nil
	}
}

// panicReply logs a recovered panic and answers the request with an
// InternalError.
func (s *Server) panicReply(req jsonrpc2.Request, reply jsonrpc2.Replier, r any) {
	buf := make([]byte, 8<<10)
	buf = buf[:runtime.Stack(buf, false)]
	s.log.Error("handler panic", "method", req.Method(), "panic", fmt.Sprint(r), "stack", string(buf))
	_ = reply(context.Background(), nil, jsonrpc2.Errorf(codeInternalError, "internal error in %s: %v", req.Method(), r))
}

// notify sends a notification, logging a failure.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.log.Error("notification failed", "method", method, "err", err)
	}
}

func (s *Server) snapshot() *settings.Snapshot { return s.settings.Load() }

// logState is the decision log: opened lazily at the path in force, and
// reopened when the path changes (the ml-ai.decisionLog setting).
type logState struct {
	opts Options
	warn *slog.Logger
	mu   sync.Mutex
	path string
	log  *audit.Log
	err  error
}

func newLogState(opts Options, warn *slog.Logger) *logState {
	return &logState{opts: opts, warn: warn}
}

// pathFor returns the log path in force for the setting value.
func (l *logState) pathFor(setting string) string {
	switch {
	case l.opts.LogPath != "":
		return l.opts.LogPath
	case setting != "":
		return setting
	}
	return l.opts.DefaultLogPath
}

// get returns the open log for the setting (nil and the reason when it
// cannot be opened), and whether the path changed since the last call.
func (l *logState) get(setting string) (*audit.Log, error) {
	path := l.pathFor(setting)
	l.mu.Lock()
	defer l.mu.Unlock()
	if path == l.path && (l.log != nil || l.err != nil) {
		return l.log, l.err
	}
	if l.log != nil {
		_ = l.log.Close()
	}
	l.path, l.log, l.err = path, nil, nil
	if path == "" {
		l.err = errors.New("no decision log path: the home directory is unknown")
		return nil, l.err
	}
	l.log, l.err = audit.Open(path)
	if l.err == nil {
		// Allow and refuse verdicts are on record once the ring's one
		// fdatasync returns (audit.Log.UseRing); without a ring they go to
		// the log directly, as prompts always do.
		if err := l.log.UseRing(); err != nil && l.warn != nil {
			l.warn.Warn("decision log: every verdict is written to the log directly", "err", err)
		}
	}
	return l.log, l.err
}

// retry forgets a failed open so the next verdict tries again.
func (l *logState) retry() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.log == nil {
		l.err = nil
		l.path = ""
	}
}

func (l *logState) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.log != nil {
		_ = l.log.Close()
		l.log = nil
	}
}
