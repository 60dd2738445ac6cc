package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/ml-ai/command-safety/settings"
)

// configurationParams is LSP ConfigurationParams (protocol's uses a URI
// type from a package this one does not import).
type configurationParams struct {
	Items []configurationItem `json:"items"`
}

type configurationItem struct {
	ScopeURI string `json:"scopeUri,omitempty"`
	Section  string `json:"section"`
}

// fetchConfiguration asks the client for section "ml-ai": one item for user
// scope (no scopeUri), then one per workspace folder. Only the newest
// exchange's answer is applied.
func (s *Server) fetchConfiguration() {
	seq := s.fetchSeq.Add(1)
	s.fetchMu.Lock()
	defer s.fetchMu.Unlock()
	if seq != s.fetchSeq.Load() {
		return // a newer change will fetch
	}
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	s.mu.Unlock()
	items := []configurationItem{{Section: ConfigSection}}
	for _, r := range roots {
		items = append(items, configurationItem{ScopeURI: pathToURI(r), Section: ConfigSection})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var answers []json.RawMessage
	if _, err := s.conn.Call(ctx, MethodConfiguration, configurationParams{Items: items}, &answers); err != nil {
		s.log.Error("workspace/configuration failed; keeping the current settings", "err", err)
		s.logMessage(protocol.MessageTypeError, fmt.Sprintf("settings: workspace/configuration failed (%v); keeping the current settings", err))
		s.markReady()
		return
	}
	var user map[string]any
	var folders []map[string]any
	for i, a := range answers {
		var m map[string]any
		if err := json.Unmarshal(a, &m); err != nil {
			s.logMessage(protocol.MessageTypeError, fmt.Sprintf("settings: the client's %s section #%d is not an object: %v", ConfigSection, i, err))
			m = nil
		}
		if i == 0 {
			user = m
		} else {
			folders = append(folders, m)
		}
	}
	s.mu.Lock()
	s.client = clientSections{user: user, folders: folders, roots: roots}
	s.mu.Unlock()
	snap := s.loader.FromSections(user, folders)
	s.setSnapshot(&snap)
}

// clientSections are the client's last answer to workspace/configuration
// and the roots it answered for.
type clientSections struct {
	user    map[string]any
	folders []map[string]any
	roots   []string
}

// settingsFor returns the settings for one classify (issue 12 point 7).
// From files, they are the watcher's after a check that no file changed
// since it was read (a save applies to the next command, not when its event
// arrives). folders, the request's own workspace folders, add the
// `.vscode/settings.json` of each one that is not a session root, for this
// request: a workspace can only tighten, so the session roots' settings
// still apply too. With client settings, such a folder's file is read from
// disk on top of the client's answer, since the client was not asked about
// it. New problems of those files are reported here.
func (s *Server) settingsFor(folders []string) *settings.Snapshot {
	s.mu.Lock()
	w, clientConfig, client := s.watcher, s.clientConfig, s.client
	s.mu.Unlock()
	if w != nil {
		snap := w.Current(folders...)
		s.reportProblems(snap.New)
		return &snap
	}
	if clientConfig {
		var extra []string
		for _, f := range folders {
			if !slices.Contains(client.roots, f) {
				extra = append(extra, f)
			}
		}
		if len(extra) > 0 {
			snap := s.loader.FromSectionsWithFiles(s.opts.SettingsEnv, client.user, client.folders, extra)
			s.reportProblems(snap.New)
			return &snap
		}
	}
	return s.snapshot()
}

// reportProblems sends each settings problem as a logMessage.
func (s *Server) reportProblems(problems []settings.Problem) {
	for _, p := range problems {
		typ := protocol.MessageTypeError
		if p.Severity == settings.Warning {
			typ = protocol.MessageTypeWarning
		}
		s.log.Warn("settings problem", "problem", p.String())
		s.logMessage(typ, "settings: "+p.String())
	}
}

// startFiles reads the settings files for the current roots and watches
// them (clients without workspace/configuration).
func (s *Server) startFiles() {
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	s.mu.Unlock()
	opts := settings.WatchOptions{OnChange: func(snap settings.Snapshot) { s.setSnapshot(&snap) }}
	w, err := settings.NewWatcher(s.opts.SettingsEnv, roots, opts)
	if err != nil {
		s.log.Error("cannot watch the settings files", "err", err)
		s.logMessage(protocol.MessageTypeWarning, fmt.Sprintf("settings: cannot watch the settings files (%v); each classify checks them instead", err))
		opts.Source = settings.NewPollSource()
		if w, err = settings.NewWatcher(s.opts.SettingsEnv, roots, opts); err != nil { // cannot fail; defensive
			snap := s.loader.Load(s.opts.SettingsEnv, roots)
			s.setSnapshot(&snap)
			return
		}
	}
	s.mu.Lock()
	s.watcher = w
	s.mu.Unlock()
	snap := w.Snapshot()
	s.setSnapshot(&snap)
}

// reloadFiles re-reads the settings files after a change of roots or a
// didChangeConfiguration from a client that cannot answer for them.
func (s *Server) reloadFiles() {
	s.mu.Lock()
	roots := slices.Clone(s.roots)
	w := s.watcher
	s.mu.Unlock()
	if w != nil {
		w.SetWorkspaces(roots) // re-loads and calls OnChange
		return
	}
	snap := s.loader.Load(s.opts.SettingsEnv, roots)
	s.setSnapshot(&snap)
}

// setSnapshot puts settings in force and reports their new problems once.
func (s *Server) setSnapshot(snap *settings.Snapshot) {
	old := s.settings.Swap(snap)
	s.log.Info("settings", "commandSafety", snap.Enabled, "decisionLog", snap.DecisionLog, "problems", len(snap.Problems))
	if old != nil && old.Enabled != snap.Enabled {
		s.logMessage(protocol.MessageTypeInfo, fmt.Sprintf("settings: %s.%s is now %t", ConfigSection, settings.KeyCommandSafety, snap.Enabled))
	}
	if !s.opts.NoLog {
		go func() { _, _ = s.openLog(snap.DecisionLog) }() // open (or reopen) before the first verdict needs it
	}
	s.reportProblems(snap.New)
	if _, probs := PolicyOf(*snap); len(probs) > 0 {
		s.reportProblems(probs) // rules the gate rejected
	}
	s.markReady()
}

func (s *Server) markReady() { s.readyOnce.Do(func() { close(s.cfgReady) }) }

// waitSettings waits for the client's first configuration answer (bounded).
func (s *Server) waitSettings(ctx context.Context) {
	s.mu.Lock()
	clientConfig := s.clientConfig
	s.mu.Unlock()
	if !clientConfig {
		return
	}
	t := time.NewTimer(s.opts.ConfigTimeout)
	defer t.Stop()
	select {
	case <-s.cfgReady:
	case <-ctx.Done():
	case <-t.C:
		// Given up once, for every classify: a client that never answers
		// would otherwise delay each one by ConfigTimeout. A late answer
		// still applies when it comes.
		s.giveUpOnce.Do(func() {
			s.log.Warn("no settings from the client yet; deciding with the current settings")
			s.logMessage(protocol.MessageTypeWarning, fmt.Sprintf("settings: the client has not answered workspace/configuration within %v; deciding with the current settings (the defaults until it answers)", s.opts.ConfigTimeout))
		})
		s.markReady()
	}
}
