package review

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ml-ai/command-safety/audit"
)

// ErrNotLoopback is wrapped by the error of [Listen] for a non-loopback
// address without allowRemote.
var ErrNotLoopback = errors.New("not a loopback address")

// DefaultAddr is where [Listen] binds when given no address: loopback, a
// port the system picks.
const DefaultAddr = "127.0.0.1:0"

// Listen binds a TCP listener for the review page on addr ("" is
// [DefaultAddr]). The host must be an IP address or a name that resolves to
// one; unless allowRemote, it must be a loopback address, and otherwise the
// error wraps [ErrNotLoopback] and nothing is bound. It also reports whether
// the bound address is loopback (false only with allowRemote), for the caller
// to log.
func Listen(addr string, allowRemote bool) (net.Listener, bool, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	tcp, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, false, fmt.Errorf("listen on %q: %w", addr, err)
	}
	loopback := tcp.IP != nil && tcp.IP.IsLoopback()
	if !loopback && !allowRemote {
		what := tcp.IP.String()
		if tcp.IP == nil || tcp.IP.IsUnspecified() {
			what = "every interface"
		}
		return nil, false, fmt.Errorf("listen on %q (%s): %w: anyone who can reach it could try the release button; pass --allow-remote to bind it anyway",
			addr, what, ErrNotLoopback)
	}
	ln, err := net.ListenTCP("tcp", tcp)
	if err != nil {
		return nil, false, fmt.Errorf("listen on %q: %w", addr, err)
	}
	return ln, loopback, nil
}

// Config is what a [Server] needs.
type Config struct {
	// Log is the decision log the page reads and resolves.
	Log *audit.Log
	// Reviewer is the name recorded with a release when the page sends none
	// (the --reviewer flag, default $USER). Empty: the page must send one.
	Reviewer string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Server is the review page for one bound address. Create it with [New].
type Server struct {
	cfg    Config
	hosts  []string // Host headers accepted: the bound address(es)
	origin string   // the origin of the printed URL

	mu       sync.Mutex
	token    string // the one-time login token; "" once spent
	sessions map[string]*session
}

// session is a logged-in browser.
type session struct {
	csrf string
}

// cookieName names the session cookie. (A __Host- prefix would need Secure,
// which a loopback http origin cannot have.)
const cookieName = "cs_review_session"

// New makes a server for the page served at addr (the listener's address).
// For an unspecified address (0.0.0.0, ::; only with allowRemote) every
// address of the machine's interfaces is accepted as Host, and the URL uses
// the first non-loopback one.
func New(addr net.Addr, cfg Config) (*Server, error) {
	if cfg.Log == nil {
		return nil, errors.New("review: no decision log")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return nil, fmt.Errorf("review: address %v is not TCP", addr)
	}
	hosts, err := hostsFor(tcp)
	if err != nil {
		return nil, err
	}
	token, err := randomString()
	if err != nil {
		return nil, err
	}
	return &Server{
		cfg: cfg, hosts: hosts, origin: "http://" + hosts[0],
		token: token, sessions: map[string]*session{},
	}, nil
}

func hostsFor(tcp *net.TCPAddr) ([]string, error) {
	port := fmt.Sprint(tcp.Port)
	if !tcp.IP.IsUnspecified() {
		return []string{net.JoinHostPort(tcp.IP.String(), port)}, nil
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil, fmt.Errorf("review: list interface addresses: %w", err)
	}
	var hosts, loop []string
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLinkLocalUnicast() {
			continue
		}
		if tcp.IP.To4() != nil && ipn.IP.To4() == nil {
			continue // 0.0.0.0 serves IPv4 only
		}
		h := net.JoinHostPort(ipn.IP.String(), port)
		if ipn.IP.IsLoopback() {
			loop = append(loop, h)
		} else {
			hosts = append(hosts, h)
		}
	}
	hosts = append(hosts, loop...)
	if len(hosts) == 0 {
		return nil, errors.New("review: no interface address to serve on")
	}
	return hosts, nil
}

// randomString is 32 bytes from crypto/rand, base64url without padding.
func randomString() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("review: random token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// URL is the one-time login URL to print. It works once.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.origin + "/login?token=" + url.QueryEscape(s.token)
}

// Origin is the page's origin (http://127.0.0.1:PORT).
func (s *Server) Origin() string { return s.origin }

// Serve serves the page on ln until ctx ends, then shuts down within a few
// seconds. It returns nil after a shutdown caused by ctx.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) && ctx.Err() != nil {
		<-done
		return nil
	}
	return err
}

// Handler returns the page and its API behind the checks described in the
// package documentation.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", s.login)
	mux.HandleFunc("GET /api/session", s.authed(s.apiSession))
	mux.HandleFunc("GET /api/pending", s.authed(s.apiPending))
	mux.HandleFunc("GET /api/decisions", s.authed(s.apiDecisions))
	mux.HandleFunc("POST /api/resolve", s.authed(s.apiResolve))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if s.sessionOf(r) == nil {
			writeError(w, http.StatusUnauthorized, "no session: open the one-time URL that command-safety review printed")
			return
		}
		writeError(w, http.StatusNotFound, "no such API route")
	})
	mux.HandleFunc("GET /{$}", staticFile("index.html"))
	mux.HandleFunc("GET /app.js", staticFile("app.js"))
	mux.HandleFunc("GET /style.css", staticFile("style.css"))
	mux.HandleFunc("GET /favicon.svg", staticFile("favicon.svg"))
	return s.guard(mux)
}

// guard sets the security headers on every response and checks the Host.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		if !slices.Contains(s.hosts, r.Host) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Sprintf("this server answers only to %s (Host %q refused)", s.hosts[0], r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// login spends the one-time token for a session cookie.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	given := r.URL.Query().Get("token")
	s.mu.Lock()
	ok := s.token != "" && given != "" && subtle.ConstantTimeCompare([]byte(given), []byte(s.token)) == 1
	var id string
	if ok {
		s.token = "" // spent, whatever happens next
		var err error
		if id, err = randomString(); err == nil {
			var csrf string
			if csrf, err = randomString(); err == nil {
				s.sessions[id] = &session{csrf: csrf}
			}
		}
		if err != nil {
			s.mu.Unlock()
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
	}
	s.mu.Unlock()
	if !ok {
		writeError(w, http.StatusForbidden, "this login link is wrong or was already used: restart command-safety review for a new one")
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: cookieName, Value: id, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode,
	})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// sessionOf returns the request's session, or nil.
func (s *Server) sessionOf(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[c.Value]
}

// authed requires a session, and for POST the Origin and CSRF token.
func (s *Server) authed(h func(http.ResponseWriter, *http.Request, *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess := s.sessionOf(r)
		if sess == nil {
			writeError(w, http.StatusUnauthorized, "no session: open the one-time URL that command-safety review printed")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if origin := r.Header.Get("Origin"); origin != "http://"+r.Host {
				writeError(w, http.StatusForbidden, fmt.Sprintf("origin %q is not this page's", origin))
				return
			}
			tok := r.Header.Get("X-CSRF-Token")
			if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(sess.csrf)) != 1 {
				writeError(w, http.StatusForbidden, "missing or wrong CSRF token")
				return
			}
		}
		h(w, r, sess)
	}
}

// cleanName trims a reviewer name and refuses control characters and
// overlong names.
func cleanName(s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) > 100 {
		return "", errors.New("the reviewer name is longer than 100 bytes")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return "", errors.New("the reviewer name has control characters")
		}
	}
	return s, nil
}
