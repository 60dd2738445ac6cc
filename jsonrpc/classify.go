package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/budgets"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

// ClassifyParams are the params of `commandSafety/classify`.
type ClassifyParams struct {
	// Command is the exact command text (required; "" is decided as empty).
	Command *string `json:"command"`
	// Cwd is the absolute directory the command starts in, or a file URI;
	// "" means unknown (required).
	Cwd *string `json:"cwd"`
	// Agent names the agent ("copilot", "claude-code"); default from
	// initializationOptions, else "default".
	Agent string `json:"agent,omitempty"`
	// Mode is "", "plan", "autopilot" or a budget name; absent means the
	// initializationOptions mode.
	Mode *string `json:"mode,omitempty"`
	// WorkspaceFolders, when present, replaces the initialize roots for this
	// request: absolute paths, file URIs or {uri, name} objects.
	WorkspaceFolders []folderRef `json:"workspaceFolders,omitempty"`
	// ID is the caller's id for the verdict, echoed in it.
	ID string `json:"id,omitempty"`
	// Shell is the shell that will run the command: "bash", "zsh", "sh" or
	// "unknown" (absent: unknown, classified as bash and as zsh).
	Shell string `json:"shell,omitempty"`
}

// folderRef is a workspace folder as a path, a file URI or an LSP WorkspaceFolder.
type folderRef string

func (f *folderRef) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = folderRef(s)
		return nil
	}
	var wf protocol.WorkspaceFolder
	if err := json.Unmarshal(b, &wf); err != nil || wf.URI == "" {
		return errors.New("a workspace folder is a path, a file URI or {\"uri\": ...}")
	}
	*f = folderRef(wf.URI)
	return nil
}

// call is one classify request in flight.
type call struct {
	id       jsonrpc2.ID
	answered atomic.Bool
	cancel   context.CancelFunc
	reply    jsonrpc2.Replier
}

// claim reports whether the caller is the one to answer the call.
func (c *call) claim() bool { return c.answered.CompareAndSwap(false, true) }

func (s *Server) classify(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var p ClassifyParams
	if err := unmarshalParams(req, &p); err != nil {
		return reply(ctx, nil, err)
	}
	r, err := s.request(p)
	if err != nil {
		return reply(ctx, nil, err)
	}
	c := &call{reply: reply}
	ctx, c.cancel = context.WithCancel(context.WithoutCancel(ctx))
	if jc, ok := req.(*jsonrpc2.Call); ok {
		c.id = jc.ID()
		s.mu.Lock()
		s.inflight[c.id] = c
		s.mu.Unlock()
	}
	s.work.Add(1)
	go s.decide(ctx, c, req, r)
	// Run the decision now, on this thread while it is awake, and let the
	// connection's read loop go on from the run queue (another thread
	// takes it up, or this one once the decision blocks): started with go
	// alone, the decision waited for the read loop to park and often ran on
	// a thread woken for it, and a round trip took about a third longer.
	runtime.Gosched()
	return nil
}

// request validates classify params into a gate request.
func (s *Server) request(p ClassifyParams) (classifyRequest, error) {
	if p.Command == nil {
		return classifyRequest{}, jsonrpc2.Errorf(codeInvalidParams, "invalid params: command is required")
	}
	if p.Cwd == nil {
		return classifyRequest{}, jsonrpc2.Errorf(codeInvalidParams, `invalid params: cwd is required (an absolute path, a file URI, or "" when unknown)`)
	}
	cwd := *p.Cwd
	if cwd != "" {
		c, err := uriToPath(cwd)
		if err != nil {
			return classifyRequest{}, jsonrpc2.Errorf(codeInvalidParams, "invalid params: cwd %q: must be absolute (%v)", cwd, err)
		}
		cwd = c
	}
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	agent, mode := s.agent, s.mode
	s.mu.Unlock()
	modeFrom := "initializationOptions"
	if p.Agent != "" {
		agent = p.Agent
	}
	if p.Mode != nil {
		mode, modeFrom = *p.Mode, "params"
	}
	var folders []string
	if p.WorkspaceFolders != nil {
		roots = roots[:0:0]
		for _, f := range p.WorkspaceFolders {
			r, err := uriToPath(string(f))
			if err != nil {
				return classifyRequest{}, jsonrpc2.Errorf(codeInvalidParams, "invalid params: workspace folder %q: %v", f, err)
			}
			roots = append(roots, r)
		}
		folders = roots
	}
	shell, err := gate.ParseShell(p.Shell)
	if err != nil {
		return classifyRequest{}, jsonrpc2.Errorf(codeInvalidParams, "invalid params: %v", err)
	}
	return classifyRequest{modeFrom: modeFrom, folders: folders, Request: gate.Request{
		ID: p.ID, Command: *p.Command, Cwd: cwd, Workspaces: roots,
		Home: s.opts.Home, Platform: s.opts.Platform, Agent: agent, Mode: mode, Shell: shell,
	}}, nil
}

// classifyRequest is a validated classify request; the mode is checked
// against the budgets once the settings are in (a mode can be a budget name
// from ml-ai.agentBudgets).
type classifyRequest struct {
	gate.Request
	modeFrom string   // "params" or "initializationOptions"
	folders  []string // the request's own workspaceFolders, nil when it named none
}

// checkMode returns an InvalidParams error for a mode that names no budget.
func checkMode(r classifyRequest, set budgets.Set) error {
	if r.Mode == "" {
		return nil
	}
	if _, ok := set[r.Mode]; ok {
		return nil
	}
	return jsonrpc2.Errorf(codeInvalidParams, "invalid params: unknown mode %q (from %s); want %s", r.Mode, r.modeFrom, modeNames(set))
}

func modeNames(set budgets.Set) string {
	names := make([]string, 0, len(set))
	for n := range set {
		if n != budgets.Default {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return `"" or one of ` + strings.Join(names, ", ")
}

// decide runs one classify to its reply; it owns the call from here.
func (s *Server) decide(ctx context.Context, c *call, req jsonrpc2.Request, cr classifyRequest) {
	defer s.work.Done()
	defer s.forget(c)
	defer func() {
		if rec := recover(); rec != nil && c.claim() {
			s.panicReply(req, c.reply, rec)
		}
	}()
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		return
	}
	s.waitSettings(ctx)
	if ctx.Err() != nil {
		return
	}
	snap := s.settingsFor(cr.folders)
	if err := checkMode(cr, snap.Budgets); err != nil {
		if c.claim() {
			_ = c.reply(ctx, nil, err)
		}
		return
	}
	r := cr.Request
	testHook(r.Command)
	policy, _ := PolicyOf(*snap) // rejected rules are reported with the settings' problems
	logDB, logErr := s.openLog(snap.DecisionLog)
	// The decision log in use is part of the permission-rule store (SPEC §5.6).
	r.RuleStore = s.opts.RuleStore
	r.RuleStore.Logs = slices.Clone(r.RuleStore.Logs)
	if path := s.decisionDB.pathFor(snap.DecisionLog); path != "" {
		r.RuleStore.Logs = append(r.RuleStore.Logs, absPath(path))
	}
	if logDB != nil && logDB.Path() != s.decisionDB.pathFor(snap.DecisionLog) {
		r.RuleStore.Logs = append(r.RuleStore.Logs, absPath(logDB.Path()))
	}
	v := gate.Decide(r, policy, s.opts.Now)
	v.Reason += snap.PolicyNote(v.Agent, v.Mode, v.Rule, v.Decision) // when the managed policy decided
	// Claim the reply before recording: a cancel that wins has answered
	// -32800 and the verdict gets no row; once claimed, a late cancel changes
	// nothing and the verdict is recorded and sent. So a row exists exactly
	// for the verdicts sent (PROTOCOL.md).
	if ctx.Err() != nil || !c.claim() {
		s.log.Info("verdict not sent: request cancelled", "command", clip([]byte(r.Command), 80))
		return
	}
	if !s.opts.NoLog {
		var err error
		if logErr != nil {
			err = fmt.Errorf("%w: %w", audit.ErrUnavailable, logErr)
			v = audit.Downgrade(v, err)
		} else {
			// The client (VS Code's tool confirmation) asks its user.
			v, err = audit.Record(context.WithoutCancel(ctx), logDB, v, s.opts.Session, audit.StatusAsked)
			if err == nil && s.opts.Recorded != nil {
				s.opts.Recorded()
			}
		}
		if err != nil {
			s.log.Error("decision log", "err", err)
			s.logMessage(protocol.MessageTypeError, "decision log: "+err.Error())
			s.decisionDB.retry()
		}
	}
	s.mu.Lock()
	inReply := s.verdictLine
	s.mu.Unlock()
	if inReply {
		_ = c.reply(context.WithoutCancel(ctx), lineVerdict{Verdict: v, Line: FormatLine(v)}, nil)
		return
	}
	s.logVerdict(v)
	_ = c.reply(context.WithoutCancel(ctx), v, nil)
}

// lineVerdict is a classify reply with the verdict's log line, for a client
// that asked for it ([InitializationOptions.VerdictLine]).
type lineVerdict struct {
	gate.Verdict
	Line string `json:"line"`
}

// logVerdict queues the verdict's logMessage to go out in the same write as
// the reply that follows it (PROTOCOL.md: just before the reply).
func (s *Server) logVerdict(v gate.Verdict) {
	params := protocol.LogMessageParams{Type: messageType(v.Decision), Message: FormatLine(v)}
	n, err := jsonrpc2.NewNotification(MethodLogMessage, params)
	if err == nil && s.st != nil {
		err = s.st.hold(n)
	}
	if err != nil || s.st == nil {
		s.notify(MethodLogMessage, params)
	}
}

// openLog returns the decision log in force, or why there is none.
func (s *Server) openLog(setting string) (*audit.Log, error) {
	if s.opts.NoLog {
		return nil, nil
	}
	return s.decisionDB.get(setting)
}

func (s *Server) forget(c *call) {
	c.cancel()
	s.mu.Lock()
	if s.inflight[c.id] == c {
		delete(s.inflight, c.id)
	}
	s.mu.Unlock()
}

// cancelParams is LSP CancelParams: the id is a number or a string.
type cancelParams struct {
	ID json.RawMessage `json:"id"`
}

func (s *Server) cancelRequest(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var p cancelParams
	if err := unmarshalParams(req, &p); err != nil {
		s.log.Warn("bad $/cancelRequest", "err", err)
		return reply(ctx, nil, err)
	}
	id, ok := parseID(p.ID)
	if !ok {
		s.log.Warn("bad $/cancelRequest id", "id", string(p.ID))
		return reply(ctx, nil, nil)
	}
	s.mu.Lock()
	c := s.inflight[id]
	s.mu.Unlock()
	if c != nil && c.claim() {
		c.cancel()
		s.log.Info("request cancelled", "id", fmt.Sprint(id))
		_ = c.reply(ctx, nil, jsonrpc2.Errorf(codeRequestCancelled, "request cancelled"))
	}
	return reply(ctx, nil, nil)
}

// parseID reads a request id as jsonrpc2 keys it: an integer (JSON numbers
// such as 7 or 7.0) or a string.
func parseID(raw json.RawMessage) (jsonrpc2.ID, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == 'n' {
		return jsonrpc2.ID{}, false
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		if f != float64(int32(f)) {
			return jsonrpc2.ID{}, false
		}
		return jsonrpc2.NewNumberID(int32(f)), true
	}
	var str string
	if err := json.Unmarshal(raw, &str); err == nil {
		return jsonrpc2.NewStringID(str), true
	}
	return jsonrpc2.ID{}, false
}

// ResolveParams are the params of `commandSafety/resolve`.
type ResolveParams struct {
	// ID is the verdict's logId.
	ID int64 `json:"id"`
	// Outcome is "approved" or "rejected".
	Outcome string `json:"outcome"`
	// Reviewer names the human who answered.
	Reviewer string `json:"reviewer"`
}

// ResolveResult is the result of `commandSafety/resolve`.
type ResolveResult struct {
	ID      int64  `json:"id"`
	Outcome string `json:"outcome"`
}

func (s *Server) resolve(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var p ResolveParams
	if err := unmarshalParams(req, &p); err != nil {
		return reply(ctx, nil, err)
	}
	outcome, err := audit.ParseStatus(p.Outcome)
	if err != nil || (outcome != audit.StatusApproved && outcome != audit.StatusRejected) {
		return reply(ctx, nil, jsonrpc2.Errorf(codeInvalidParams, `invalid params: outcome must be "approved" or "rejected", not %q`, p.Outcome))
	}
	if p.ID <= 0 {
		return reply(ctx, nil, jsonrpc2.Errorf(codeInvalidParams, "invalid params: id must be a decision log id (a positive integer)"))
	}
	if strings.TrimSpace(p.Reviewer) == "" {
		return reply(ctx, nil, jsonrpc2.Errorf(codeInvalidParams, "invalid params: reviewer is required"))
	}
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		defer func() {
			if rec := recover(); rec != nil {
				s.panicReply(req, reply, rec)
			}
		}()
		db, err := s.openLog(s.snapshot().DecisionLog)
		if err == nil && db == nil {
			err = errors.New("the decision log is off")
		}
		if err == nil {
			err = db.Resolve(context.WithoutCancel(ctx), p.ID, outcome, p.Reviewer)
		}
		if err != nil {
			s.log.Warn("resolve failed", "id", p.ID, "err", err)
			_ = reply(ctx, nil, jsonrpc2.Errorf(codeRequestFailed, "resolve %d: %v", p.ID, err))
			return
		}
		if s.opts.Recorded != nil {
			s.opts.Recorded()
		}
		_ = reply(ctx, ResolveResult{ID: p.ID, Outcome: string(outcome)}, nil)
	}()
	return nil
}

// messageType maps a decision to the logMessage type.
func messageType(d effects.Decision) protocol.MessageType {
	switch d {
	case effects.Allow:
		return protocol.MessageTypeInfo
	case effects.Prompt:
		return protocol.MessageTypeWarning
	}
	return protocol.MessageTypeError
}

// logMessage sends one window/logMessage.
func (s *Server) logMessage(typ protocol.MessageType, msg string) {
	s.notify(MethodLogMessage, protocol.LogMessageParams{Type: typ, Message: msg})
}

// FormatLine renders a verdict as the one output-channel line:
//
//	TIME DECISION agent=AGENT[ mode=MODE] rule=RULE[ log=ID] COMMAND — REASON
//
// TIME is the verdict time in UTC (RFC 3339, milliseconds); DECISION is ALLOW,
// PROMPT or REFUSE; RULE is the deciding effect (a budget decision) or the
// absolute-refusal rule id; COMMAND is the command text quoted as a Go string
// (one line whatever it contains); REASON is the verdict's sentence with line
// breaks folded.
func FormatLine(v gate.Verdict) string {
	var b strings.Builder
	b.WriteString(v.Time.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	b.WriteByte(' ')
	b.WriteString(strings.ToUpper(v.Decision.String()))
	b.WriteString(" agent=")
	b.WriteString(oneWord(v.Agent))
	if v.Mode != "" {
		b.WriteString(" mode=")
		b.WriteString(oneWord(v.Mode))
	}
	b.WriteString(" rule=")
	b.WriteString(oneWord(v.Rule))
	if v.LogID != 0 {
		fmt.Fprintf(&b, " log=%d", v.LogID)
	} else if v.ID != "" {
		// Answered through serve's ring: the row keeps this as its request id.
		b.WriteString(" id=")
		b.WriteString(oneWord(v.ID))
	}
	b.WriteByte(' ')
	b.WriteString(quote(v.Command))
	b.WriteString(" — ")
	b.WriteString(strings.Join(strings.Fields(v.Reason), " "))
	return b.String()
}

// oneWord makes s safe as a key=value value: no spaces, quoted if needed.
func oneWord(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == '"' || r == 0x7f }) {
		return quote(s)
	}
	return s
}

// quote renders s as a JSON string: one line, control characters escaped.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// absPath is p made absolute the way SQLite opens it (from the cwd), so
// that a relative ml-ai.decisionLog is still part of the rule store.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
