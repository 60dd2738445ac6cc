package review

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// prompt builds a prompted verdict whose deciding part is the whole command.
func prompt(cmd, agent string, d effects.Decision) gate.Verdict {
	p := gate.Effect{Effect: effects.Network, Text: cmd, Span: [2]int{0, len(cmd)}, Program: "curl", Outcome: d}
	return gate.Verdict{
		Time: time.Now().UTC(), Command: cmd, Cwd: "/work", Workspaces: []string{"/work"}, Agent: agent,
		Decision: d, Effects: []gate.Effect{p}, DecidedBy: &p, Rule: "network",
		Reason: "`" + cmd + "` is network", ClassificationEnabled: true,
	}
}

// fixture is a review server on loopback over a temporary decision log.
type fixture struct {
	t      *testing.T
	log    *audit.Log
	srv    *Server
	base   string // http://127.0.0.1:PORT
	host   string // 127.0.0.1:PORT
	client *http.Client
}

func newFixture(t *testing.T, reviewer string) *fixture {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	l, err := audit.Open(filepath.Join(t.TempDir(), "decisions.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ln, loopback, err := Listen("", false)
	if err != nil {
		t.Fatal(err)
	}
	if !loopback {
		t.Fatalf("default listener %v is not loopback", ln.Addr())
	}
	srv, err := New(ln.Addr(), Config{Log: l, Reviewer: reviewer})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &fixture{
		t: t, log: l, srv: srv, base: srv.Origin(), host: ln.Addr().String(),
		client: &http.Client{
			Timeout:       10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// add appends v; a prompt is held, as a hook in hold mode records it.
func (f *fixture) add(v gate.Verdict) int64 {
	f.t.Helper()
	id, err := f.log.Append(context.Background(), v, "test", audit.StatusHeld)
	if err != nil {
		f.t.Fatal(err)
	}
	return id
}

// req sends a request and returns the status and body.
func (f *fixture) req(method, path string, hdr map[string]string, body string) (int, http.Header, string) {
	f.t.Helper()
	r, err := http.NewRequest(method, f.base+path, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			r.Host = v
			continue
		}
		r.Header.Set(k, v)
	}
	res, err := f.client.Do(r)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

// login spends the token and returns the session cookie header value and
// the CSRF token.
func (f *fixture) login() (cookie, csrf string) {
	f.t.Helper()
	u, err := url.Parse(f.srv.URL())
	if err != nil {
		f.t.Fatal(err)
	}
	code, hdr, body := f.req("GET", u.RequestURI(), nil, "")
	if code != http.StatusSeeOther || hdr.Get("Location") != "/" {
		f.t.Fatalf("login: %d Location %q: %s", code, hdr.Get("Location"), body)
	}
	sc := hdr.Get("Set-Cookie")
	for _, want := range []string{cookieName + "=", "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(sc, want) {
			f.t.Errorf("Set-Cookie %q lacks %q", sc, want)
		}
	}
	cookie = strings.SplitN(sc, ";", 2)[0]
	code, _, body = f.req("GET", "/api/session", map[string]string{"Cookie": cookie}, "")
	if code != 200 {
		f.t.Fatalf("session: %d %s", code, body)
	}
	var s struct{ CSRF, Reviewer string }
	if err := json.Unmarshal([]byte(body), &s); err != nil || len(s.CSRF) < 40 {
		f.t.Fatalf("session body %s: %v", body, err)
	}
	return cookie, s.CSRF
}

// post resolves with every check passed unless hdr overrides.
func (f *fixture) post(cookie, csrf, body string, hdr map[string]string) (int, string) {
	f.t.Helper()
	h := map[string]string{"Cookie": cookie, "X-CSRF-Token": csrf, "Origin": f.base, "Content-Type": "application/json"}
	for k, v := range hdr {
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
	}
	code, _, b := f.req("POST", "/api/resolve", h, body)
	return code, b
}

func (f *fixture) status(id int64) audit.Entry {
	f.t.Helper()
	e, err := f.log.Get(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return e
}

func TestListen(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":0"} {
		if ln, _, err := Listen(addr, false); !errors.Is(err, ErrNotLoopback) {
			if ln != nil {
				ln.Close()
			}
			t.Errorf("Listen(%q, false): err %v, want ErrNotLoopback", addr, err)
		}
	}
	for _, addr := range []string{"", "127.0.0.1:0", "localhost:0"} {
		ln, loopback, err := Listen(addr, false)
		if err != nil {
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		if !loopback || !ln.Addr().(*net.TCPAddr).IP.IsLoopback() {
			t.Errorf("Listen(%q) bound %v", addr, ln.Addr())
		}
		ln.Close()
	}
	ln, loopback, err := Listen("0.0.0.0:0", true)
	if err != nil {
		t.Fatalf("Listen with allowRemote: %v", err)
	}
	defer ln.Close()
	if loopback {
		t.Errorf("0.0.0.0 reported as loopback")
	}
	l, err := audit.Open(filepath.Join(t.TempDir(), "d.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	srv, err := New(ln.Addr(), Config{Log: l})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(srv.Origin(), "0.0.0.0") {
		t.Errorf("origin %s names the unspecified address", srv.Origin())
	}
}

func TestLoginTokenSingleUse(t *testing.T) {
	f := newFixture(t, "alice")
	u, _ := url.Parse(f.srv.URL())
	tok := u.Query().Get("token")
	if raw, err := base64URLLen(tok); err != nil || raw != 32 {
		t.Errorf("token %q: %d bytes, %v; want 32 bytes base64url", tok, raw, err)
	}
	// A wrong token that differs from the real one in its last character:
	// always a different character (the last of 43 base64url characters
	// takes one of 16 values, so a fixed "A" was the real one 1 run in 16).
	last := "A"
	if strings.HasSuffix(tok, "A") {
		last = "B"
	}
	for _, bad := range []string{"/login", "/login?token=", "/login?token=" + tok[:len(tok)-1] + last} {
		if code, _, _ := f.req("GET", bad, nil, ""); code != http.StatusForbidden {
			t.Errorf("GET %s: %d, want 403", bad, code)
		}
	}
	cookie, _ := f.login() // the real token still works after wrong guesses
	code, hdr, _ := f.req("GET", u.RequestURI(), nil, "")
	if code != http.StatusForbidden || hdr.Get("Set-Cookie") != "" {
		t.Errorf("second use of the token: %d, Set-Cookie %q; want 403 and no cookie", code, hdr.Get("Set-Cookie"))
	}
	if code, _, _ := f.req("GET", "/api/pending", map[string]string{"Cookie": cookie}, ""); code != 200 {
		t.Errorf("the session from the first use: %d", code)
	}
}

func base64URLLen(s string) (int, error) {
	if !regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(s) {
		return 0, errors.New("not base64url")
	}
	return len(s) * 6 / 8, nil
}

func TestNoSession(t *testing.T) {
	f := newFixture(t, "alice")
	id := f.add(prompt("curl https://example.com", "claude-code", effects.Prompt))
	routes := []struct{ method, path, body string }{
		{"GET", "/api/session", ""},
		{"GET", "/api/pending", ""},
		{"GET", "/api/decisions", ""},
		{"GET", "/api/nonexistent", ""},
		{"POST", "/api/resolve", `{"id":1,"outcome":"approve"}`},
	}
	for _, cookie := range []string{"", cookieName + "=forged", "other=x"} {
		for _, r := range routes {
			code, _, body := f.req(r.method, r.path, map[string]string{"Cookie": cookie, "Origin": f.base}, r.body)
			if code != http.StatusUnauthorized {
				t.Errorf("%s %s with cookie %q: %d %s, want 401", r.method, r.path, cookie, code, body)
			}
		}
	}
	if e := f.status(id); !e.Status.Waiting() {
		t.Errorf("row %d is %s after unauthenticated requests", id, e.Status)
	}
}

func TestForeignHost(t *testing.T) {
	f := newFixture(t, "alice")
	cookie, csrf := f.login()
	id := f.add(prompt("curl https://example.com", "claude-code", effects.Prompt))
	_, port, _ := net.SplitHostPort(f.host)
	for _, host := range []string{"evil.example", "evil.example:" + port, "localhost:" + port, "127.0.0.1", "127.0.0.2:" + port, "[::1]:" + port} {
		for _, path := range []string{"/", "/app.js", "/api/pending", f.srv.URL()[len(f.base):]} {
			code, hdr, _ := f.req("GET", path, map[string]string{"Host": host, "Cookie": cookie}, "")
			if code != http.StatusMisdirectedRequest {
				t.Errorf("GET %s with Host %q: %d, want 421", path, host, code)
			}
			if hdr.Get("Content-Security-Policy") == "" {
				t.Errorf("GET %s with Host %q: no CSP on the refusal", path, host)
			}
		}
		code, _ := f.post(cookie, csrf, `{"id":`+itoa(id)+`,"outcome":"approve"}`, map[string]string{"Host": host, "Origin": "http://" + host})
		if code != http.StatusMisdirectedRequest {
			t.Errorf("POST with Host %q: %d, want 421", host, code)
		}
	}
	if e := f.status(id); !e.Status.Waiting() {
		t.Errorf("row %d is %s after foreign-Host requests", id, e.Status)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestOriginAndCSRF(t *testing.T) {
	f := newFixture(t, "alice")
	cookie, csrf := f.login()
	id := f.add(prompt("curl https://example.com", "claude-code", effects.Prompt))
	body := `{"id":` + itoa(id) + `,"outcome":"approve"}`
	_, port, _ := net.SplitHostPort(f.host)
	cases := []struct {
		name string
		hdr  map[string]string
	}{
		{"no origin", map[string]string{"Origin": ""}},
		{"foreign origin", map[string]string{"Origin": "http://evil.example"}},
		{"origin on another port", map[string]string{"Origin": "http://127.0.0.1:1"}},
		{"localhost origin", map[string]string{"Origin": "http://localhost:" + port}},
		{"https origin", map[string]string{"Origin": "https://" + f.host}},
		{"null origin", map[string]string{"Origin": "null"}},
		{"no csrf", map[string]string{"X-CSRF-Token": ""}},
		{"wrong csrf", map[string]string{"X-CSRF-Token": csrf[:len(csrf)-2] + "xx"}},
		{"csrf of the token", map[string]string{"X-CSRF-Token": "x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, b := f.post(cookie, csrf, body, c.hdr)
			if code != http.StatusForbidden {
				t.Errorf("%d %s, want 403", code, b)
			}
		})
	}
	if e := f.status(id); !e.Status.Waiting() {
		t.Fatalf("row %d is %s after refused requests", id, e.Status)
	}
	if code, b := f.post(cookie, csrf, body, nil); code != 200 {
		t.Errorf("with every check passed: %d %s", code, b)
	}
}

func TestResolve(t *testing.T) {
	f := newFixture(t, "alice")
	cookie, csrf := f.login()
	a := f.add(prompt("curl https://a.example", "claude-code", effects.Prompt))
	b := f.add(prompt("curl https://b.example", "cursor", effects.Prompt))
	auto := f.add(prompt("ls", "cursor", effects.Allow))

	code, body := f.post(cookie, csrf, `{"id":`+itoa(a)+`,"outcome":"approve","reviewer":""}`, nil)
	if code != 200 || !strings.Contains(body, `"status":"approved"`) {
		t.Errorf("approve: %d %s", code, body)
	}
	if e := f.status(a); e.Status != audit.StatusApproved || e.Reviewer != "alice" {
		t.Errorf("row a: %s by %q, want approved by the default reviewer alice", e.Status, e.Reviewer)
	}
	code, body = f.post(cookie, csrf, `{"id":`+itoa(b)+`,"outcome":"reject","reviewer":"  Bob B. "}`, nil)
	if code != 200 {
		t.Errorf("reject: %d %s", code, body)
	}
	if e := f.status(b); e.Status != audit.StatusRejected || e.Reviewer != "Bob B." {
		t.Errorf("row b: %s by %q, want rejected by the name the page sent", e.Status, e.Reviewer)
	}

	// Not pending: 409 with the state, and the row is unchanged.
	code, body = f.post(cookie, csrf, `{"id":`+itoa(a)+`,"outcome":"reject","reviewer":"mallory"}`, nil)
	var c conflict
	if code != http.StatusConflict || json.Unmarshal([]byte(body), &c) != nil ||
		c.Status != audit.StatusApproved || c.Reviewer != "alice" || c.ReviewedAt.IsZero() {
		t.Errorf("resolving an approved row: %d %s", code, body)
	}
	code, body = f.post(cookie, csrf, `{"id":`+itoa(auto)+`,"outcome":"approve"}`, nil)
	if code != http.StatusConflict || !strings.Contains(body, `"status":"auto"`) {
		t.Errorf("resolving an auto row: %d %s", code, body)
	}
	if e := f.status(a); e.Status != audit.StatusApproved || e.Reviewer != "alice" {
		t.Errorf("row a changed: %s by %q", e.Status, e.Reviewer)
	}

	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
		if code, body := f.post(cookie, csrf, `{"id":`+itoa(b)+`,"outcome":"approve"}`, map[string]string{"Content-Type": ct}); code != http.StatusUnsupportedMediaType {
			t.Errorf("Content-Type %q: %d %s, want 415", ct, code, body)
		}
	}
	for _, bad := range []struct {
		body string
		code int
	}{
		{`{"id":9999,"outcome":"approve"}`, 404},
		{`{"id":1,"outcome":"maybe"}`, 400},
		{`{"id":1,"outcome":"approve","extra":1}`, 400},
		{`{"id":1,"outcome":"approve"} {}`, 400},
		{`not json`, 400},
		{`{"id":1,"outcome":"approve","reviewer":"a\u0007b"}`, 400},
		{`{"id":1,"outcome":"approve","reviewer":"` + strings.Repeat("x", 101) + `"}`, 400},
	} {
		if code, body := f.post(cookie, csrf, bad.body, nil); code != bad.code {
			t.Errorf("body %s: %d %s, want %d", bad.body, code, body, bad.code)
		}
	}
}

func TestResolveNeedsAReviewer(t *testing.T) {
	f := newFixture(t, "") // no --reviewer, no $USER
	cookie, csrf := f.login()
	id := f.add(prompt("curl https://a.example", "claude-code", effects.Prompt))
	if code, body := f.post(cookie, csrf, `{"id":`+itoa(id)+`,"outcome":"approve"}`, nil); code != 400 {
		t.Errorf("no reviewer anywhere: %d %s, want 400", code, body)
	}
	if code, body := f.post(cookie, csrf, `{"id":`+itoa(id)+`,"outcome":"approve","reviewer":"zoe"}`, nil); code != 200 {
		t.Errorf("reviewer from the page: %d %s", code, body)
	}
}

func TestPendingAndDecisions(t *testing.T) {
	f := newFixture(t, "alice")
	cookie, _ := f.login()
	xss := `echo '<script>alert(1)</script>' > /tmp/x && curl "https://e.example/?a=1&b=2"`
	old := f.add(prompt("curl https://old.example", "cursor", effects.Prompt))
	f.add(prompt("ls", "cursor", effects.Allow))
	held := f.add(prompt("curl https://held.example", "claude-code", effects.Prompt))
	if err := f.log.Annotate(context.Background(), held, audit.HoldNote(time.Now().Add(time.Minute), os.Getpid(), hostname())); err != nil {
		t.Fatal(err)
	}
	newest := f.add(prompt(xss, "claude-code", effects.Prompt))

	code, hdr, body := f.req("GET", "/api/pending", map[string]string{"Cookie": cookie}, "")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
		t.Fatalf("pending: %d %s", code, hdr.Get("Content-Type"))
	}
	if strings.Contains(body, "<script>") || !strings.Contains(body, `\u003cscript\u003ealert(1)\u003c/script\u003e`) {
		t.Errorf("the command is not escaped JSON data: %s", body)
	}
	var p struct {
		Count   int
		Entries []Entry
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, e := range p.Entries {
		ids = append(ids, e.LogID)
	}
	if p.Count != 3 || len(ids) != 3 || ids[0] != newest || ids[1] != held || ids[2] != old {
		t.Errorf("pending: count %d ids %v, want 3 [%d %d %d] (newest first)", p.Count, ids, newest, held, old)
	}
	if len(p.Entries) == 3 {
		if p.Entries[0].Command != xss || p.Entries[0].DecidedBy == nil || p.Entries[0].Reason == "" {
			t.Errorf("entry lost its fields: %+v", p.Entries[0])
		}
		if !p.Entries[1].Held || p.Entries[1].HoldUntil.IsZero() || p.Entries[0].Held || p.Entries[2].Held {
			t.Errorf("held flags: %v %v %v", p.Entries[0].Held, p.Entries[1].Held, p.Entries[2].Held)
		}
	}

	for _, c := range []struct {
		query string
		want  int
	}{
		{"", 4},
		{"?decision=allow", 1},
		{"?decision=prompt&agent=claude-code", 2},
		{"?agent=cursor", 2},
		{"?status=auto", 1},
		{"?status=pending&agent=cursor", 1},
		{"?limit=2", 2},
	} {
		code, _, body := f.req("GET", "/api/decisions"+c.query, map[string]string{"Cookie": cookie}, "")
		var d struct{ Entries []Entry }
		if code != 200 || json.Unmarshal([]byte(body), &d) != nil || len(d.Entries) != c.want {
			t.Errorf("decisions%s: %d, %d entries, want %d", c.query, code, len(d.Entries), c.want)
		}
	}
	for _, q := range []string{"?decision=maybe", "?status=gone", "?limit=0", "?limit=100000", "?limit=x"} {
		if code, _, _ := f.req("GET", "/api/decisions"+q, map[string]string{"Cookie": cookie}, ""); code != 400 {
			t.Errorf("decisions%s: %d, want 400", q, code)
		}
	}
}

func TestHeaders(t *testing.T) {
	f := newFixture(t, "alice")
	cookie, _ := f.login()
	for _, path := range []string{"/", "/app.js", "/style.css", "/api/pending", "/api/session", "/nope"} {
		code, hdr, _ := f.req("GET", path, map[string]string{"Cookie": cookie}, "")
		if path != "/nope" && code != 200 {
			t.Errorf("GET %s: %d", path, code)
		}
		csp := hdr.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Errorf("GET %s: CSP %q allows unsafe sources", path, csp)
		}
		for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"} {
			if hdr.Get(k) != v {
				t.Errorf("GET %s: %s = %q, want %q", path, k, hdr.Get(k), v)
			}
		}
	}
	_, hdr, _ := f.req("GET", "/app.js", nil, "")
	if ct := hdr.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("app.js Content-Type %q", ct)
	}
}

// TestStaticFilesRenderText is the source half of "command text is always
// rendered as text": the page has no inline script or style, loads nothing
// from elsewhere, and its script never parses strings as HTML.
func TestStaticFilesRenderText(t *testing.T) {
	html, err := static.ReadFile("static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`<script[^>]*>`).FindAll(html, -1) {
		if !regexp.MustCompile(`src="/[^/]`).Match(m) {
			t.Errorf("index.html: %s is not a same-origin external script", m)
		}
	}
	for _, bad := range []string{"<style", "style=", "http://", "https://"} {
		if strings.Contains(strings.ToLower(string(html)), bad) {
			t.Errorf("index.html contains %q", bad)
		}
	}
	if regexp.MustCompile(`\son[a-z]+=`).Match(html) {
		t.Errorf("index.html has an inline event handler")
	}
	js, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute('style", "http://", "https://"} {
		if strings.Contains(string(js), bad) {
			t.Errorf("app.js uses %s", bad)
		}
	}
}

func hostname() string {
	h, _ := os.Hostname()
	return h
}

// TestPendingListsOnlyHeld: the page offers to approve only rows a hook
// holds; a prompt the agent asked its own user about, or one nobody will
// answer (check in a terminal), is not waiting for the page.
func TestPendingListsOnlyHeld(t *testing.T) {
	f := newFixture(t, "alice")
	cookie, _ := f.login()
	held := f.add(prompt("curl https://held.example", "claude-code", effects.Prompt))
	for _, st := range []audit.Status{audit.StatusAsked, audit.StatusAdvisory} {
		if _, err := f.log.Append(context.Background(), prompt("curl https://"+string(st)+".example", "claude-code", effects.Prompt), "x", st); err != nil {
			t.Fatal(err)
		}
	}
	code, _, body := f.req("GET", "/api/pending", map[string]string{"Cookie": cookie}, "")
	var got struct {
		Count   int
		Entries []struct{ LogID int64 }
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil || code != 200 {
		t.Fatalf("pending: %d %v %s", code, err, body)
	}
	if got.Count != 1 || len(got.Entries) != 1 || got.Entries[0].LogID != held {
		t.Errorf("pending: %s, want only the held row %d", body, held)
	}
}
