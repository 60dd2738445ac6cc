package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/ml-ai/command-safety/gate"
)

// methodDidChangeFolders is the LSP notification that workspace folders changed.
const methodDidChangeFolders = "workspace/didChangeWorkspaceFolders"

// ServerName is the name in the initialize result's serverInfo.
const ServerName = "command-safety"

// InitializationOptions are the `initializationOptions` of initialize: the
// defaults for classify requests that do not name an agent or mode.
type InitializationOptions struct {
	Agent string `json:"agent,omitempty"`
	Mode  string `json:"mode,omitempty"`
	// Held asks for [MethodHeld] notifications: the commands that hooks in
	// hold mode are waiting on (SPEC §10).
	Held bool `json:"held,omitempty"`
	// VerdictLine asks for each classify verdict's log line in the reply's
	// `line` field instead of a `window/logMessage` before it: one message
	// per verdict instead of two, for the client to parse and dispatch
	// (bench/jsonrpc). Verdicts of other processes still come as
	// logMessages.
	VerdictLine bool `json:"verdictLine,omitempty"`
}

// initializeParams is the part of LSP InitializeParams the server reads;
// the rest (a client sends much) is ignored.
type initializeParams struct {
	RootURI               string                     `json:"rootUri"`
	RootPath              string                     `json:"rootPath"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	Capabilities          struct {
		Workspace *struct {
			Configuration bool `json:"configuration"`
		} `json:"workspace"`
	} `json:"capabilities"`
}

// initializeResult is the initialize result: LSP's, with the methods this
// server offers under capabilities.experimental.commandSafety.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo"`
}

type serverCapabilities struct {
	Workspace    *workspaceCapabilities `json:"workspace,omitempty"`
	Experimental experimental           `json:"experimental"`
}

type workspaceCapabilities struct {
	WorkspaceFolders protocol.ServerCapabilitiesWorkspaceFolders `json:"workspaceFolders"`
}

type experimental struct {
	CommandSafety commandSafetyCapabilities `json:"commandSafety"`
}

type commandSafetyCapabilities struct {
	// Methods lists the commandSafety/* requests served.
	Methods []string `json:"methods"`
	// ClassifierVersion is gate.ClassifierVersion.
	ClassifierVersion string `json:"classifierVersion"`
	// Settings is "client" (workspace/configuration) or "files".
	Settings string `json:"settings"`
	// MaxMessageBytes is the frame cap.
	MaxMessageBytes int `json:"maxMessageBytes"`
}

// unmarshalParams decodes params into v, or returns an InvalidParams error.
func unmarshalParams(req jsonrpc2.Request, v any) error {
	p := bytes.TrimSpace(req.Params())
	if len(p) == 0 || bytes.Equal(p, []byte("null")) {
		return jsonrpc2.Errorf(codeInvalidParams, "invalid params: %s needs params", req.Method())
	}
	if err := json.Unmarshal(p, v); err != nil {
		return jsonrpc2.Errorf(codeInvalidParams, "invalid params for %s: %v", req.Method(), err)
	}
	return nil
}

func (s *Server) initialize(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if s.state.Load() != stateNew {
		return reply(ctx, nil, jsonrpc2.Errorf(codeInvalidRequest, "invalid request: initialize sent twice"))
	}
	var p initializeParams
	if err := unmarshalParams(req, &p); err != nil {
		return reply(ctx, nil, err)
	}
	var io InitializationOptions
	if opt := bytes.TrimSpace(p.InitializationOptions); len(opt) > 0 && !bytes.Equal(opt, []byte("null")) {
		if err := json.Unmarshal(opt, &io); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(codeInvalidParams, "invalid params for initialize: initializationOptions: %v", err))
		}
	}
	var roots []string
	if len(p.WorkspaceFolders) > 0 {
		for _, f := range p.WorkspaceFolders {
			if r, err := uriToPath(f.URI); err != nil {
				s.log.Warn("workspace folder ignored", "uri", f.URI, "err", err)
			} else {
				roots = append(roots, r)
			}
		}
	} else if p.RootURI != "" {
		if r, err := uriToPath(p.RootURI); err != nil {
			s.log.Warn("rootUri ignored", "uri", p.RootURI, "err", err)
		} else {
			roots = append(roots, r)
		}
	} else if p.RootPath != "" && filepath.IsAbs(p.RootPath) {
		roots = append(roots, filepath.Clean(p.RootPath))
	}
	clientConfig := p.Capabilities.Workspace != nil && p.Capabilities.Workspace.Configuration

	s.mu.Lock()
	s.roots, s.agent, s.mode, s.clientConfig, s.wantHeld = roots, io.Agent, io.Mode, clientConfig, io.Held
	s.verdictLine = io.VerdictLine
	s.mu.Unlock()
	s.log.Info("initialize", "roots", roots, "agent", io.Agent, "mode", io.Mode, "clientConfiguration", clientConfig)

	source := "client"
	if !clientConfig {
		source = "files"
		s.startFiles()
	}
	s.state.Store(stateInitialized)
	return reply(ctx, initializeResult{
		Capabilities: serverCapabilities{
			Workspace: &workspaceCapabilities{WorkspaceFolders: protocol.ServerCapabilitiesWorkspaceFolders{
				Supported: true, ChangeNotifications: true,
			}},
			Experimental: experimental{CommandSafety: commandSafetyCapabilities{
				Methods:           []string{MethodClassify, MethodResolve},
				ClassifierVersion: gate.ClassifierVersion,
				Settings:          source,
				MaxMessageBytes:   MaxFrame,
			}},
		},
		ServerInfo: &protocol.ServerInfo{Name: ServerName, Version: gate.ClassifierVersion},
	}, nil)
}

func (s *Server) initialized(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	s.mu.Lock()
	clientConfig := s.clientConfig
	s.mu.Unlock()
	if clientConfig {
		go s.fetchConfiguration()
	}
	if !s.opts.NoLog {
		s.tailOnce.Do(func() {
			go func() {
				s.waitSettings(s.tailCtx) // the log path may come from the settings
				s.tail(s.tailCtx)
			}()
		})
	}
	return reply(ctx, nil, nil)
}

// shutdown answers once the requests in flight are answered (at most
// shutdownWait); requests after it get InvalidRequest.
func (s *Server) shutdown(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	s.state.Store(stateShutdown)
	s.log.Info("shutdown")
	go func() {
		done := make(chan struct{})
		go func() { s.work.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(shutdownWait):
			s.log.Warn("shutdown: requests still in flight", "waited", shutdownWait)
		}
		_ = reply(ctx, nil, nil)
	}()
	return nil
}

// shutdownWait bounds how long shutdown waits for requests in flight.
const shutdownWait = 5 * time.Second

// exitNotification ends the session: exit code 0 after shutdown, else 1
// (LSP). The stdin reader may stay blocked; Serve returns regardless.
func (s *Server) exitNotification(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	code := 1
	if s.state.Load() == stateShutdown {
		code = 0
	}
	s.log.Info("exit", "code", code)
	select {
	case s.exit <- code:
	default:
	}
	return reply(ctx, nil, nil)
}

func (s *Server) didChangeConfiguration(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	s.mu.Lock()
	clientConfig := s.clientConfig
	s.mu.Unlock()
	if clientConfig {
		go s.fetchConfiguration()
	} else {
		s.reloadFiles()
	}
	return reply(ctx, nil, nil)
}

// didChangeFoldersParams is LSP DidChangeWorkspaceFoldersParams.
type didChangeFoldersParams struct {
	Event struct {
		Added   []protocol.WorkspaceFolder `json:"added"`
		Removed []protocol.WorkspaceFolder `json:"removed"`
	} `json:"event"`
}

func (s *Server) didChangeWorkspaceFolders(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	var p didChangeFoldersParams
	if err := unmarshalParams(req, &p); err != nil {
		s.log.Warn("bad workspace folder change", "err", err)
		return reply(ctx, nil, err)
	}
	s.mu.Lock()
	removed := map[string]bool{}
	for _, f := range p.Event.Removed {
		if r, err := uriToPath(f.URI); err == nil {
			removed[r] = true
		}
	}
	var roots []string
	for _, r := range s.roots {
		if !removed[r] {
			roots = append(roots, r)
		}
	}
	for _, f := range p.Event.Added {
		if r, err := uriToPath(f.URI); err == nil {
			roots = append(roots, r)
		}
	}
	s.roots = roots
	clientConfig := s.clientConfig
	s.mu.Unlock()
	s.log.Info("workspace folders changed", "roots", roots)
	if clientConfig {
		go s.fetchConfiguration()
	} else {
		s.reloadFiles()
	}
	return reply(ctx, nil, nil)
}

// uriToPath turns a file URI (or an absolute path) into a clean absolute path.
func uriToPath(u string) (string, error) {
	if filepath.IsAbs(u) {
		return filepath.Clean(u), nil
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("not a URI: %w", err)
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %q", u)
	}
	p := parsed.Path
	if runtime.GOOS == "windows" {
		// file:///c:/x -> c:/x; file://server/share -> //server/share
		if parsed.Host != "" {
			p = "//" + parsed.Host + p
		} else {
			p = strings.TrimPrefix(p, "/")
		}
		p = filepath.FromSlash(p)
	}
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("not an absolute file URI: %q", u)
	}
	return filepath.Clean(p), nil
}

// pathToURI is the inverse of [uriToPath].
func pathToURI(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
