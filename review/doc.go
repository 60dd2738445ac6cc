// Package review serves the review page of `command-safety review` (SPEC
// §10): a small web page, embedded in the binary, that lists the decision
// log's pending prompts with Approve and Reject buttons and the recent
// decisions with filters. Releasing a prompt resolves its row in the decision
// log ([audit.Log.Resolve]) with the reviewer's name; a hook in hold mode that
// waits on the row ([audit.Log.Hold]) answers its agent at its next read.
//
// It imports audit, gate and effects (and may import settings and budgets);
// never hooks, jsonrpc or cmd. It never prints and never exits.
//
// # Security of the release button
//
// A gate with an open release button is not a gate, so every request passes
// these checks, in this order:
//
//  1. Host: the Host header must be the bound address (127.0.0.1:PORT), or
//     the answer is 421. A DNS-rebinding page reaches the server under its
//     own name and is turned away here.
//  2. Session: [Server.URL] holds a one-time token (32 bytes from crypto/rand,
//     base64url). Visiting it once sets an HttpOnly, SameSite=Strict session
//     cookie and redirects to the page without the token; the token is then
//     spent. Every /api/ route answers 401 without the session.
//  3. POST (the only state-changing method) also needs an Origin header equal
//     to the served origin and an X-CSRF-Token header equal to the session's
//     CSRF token, which the page reads from GET /api/session; else 403.
//
// Responses carry Content-Security-Policy `default-src 'self'` with
// `frame-ancestors 'none'` (no inline script or style, no framing),
// X-Content-Type-Options nosniff, Referrer-Policy no-referrer and
// Cache-Control no-store. Command text travels as JSON (with <, > and &
// escaped) and the page only ever sets it as textContent.
//
// [Listen] binds loopback unless told otherwise: a non-loopback address
// needs allowRemote, and the caller says so on stderr.
//
// # API
//
//	GET  /login?token=T      the one-time URL: sets the session, 303 to /
//	GET  /api/session        {csrf, reviewer}
//	GET  /api/pending        {now, count, entries}: pending rows, newest first
//	GET  /api/decisions      {now, entries}: ?decision= &agent= &status= &limit=
//	POST /api/resolve        {id, outcome: approve|reject, reviewer}: 200 {entry},
//	                         409 {error, status, reviewer, reviewedAt} when not pending
//
// An entry is an [audit.Entry] plus `held` and `holdUntil` when a process
// waits on it ([audit.HeldUntil]).
package review
