package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/settings"
	"github.com/ml-ai/command-safety/telemetry"
)

// serveExport ships the decision log to the OpenTelemetry collector while
// `serve` runs (package telemetry): its own verdicts as soon as each is
// recorded, and the rows hooks and other processes write within
// serveShipEvery. It never touches a verdict: it reads committed rows, on
// its own goroutine.
type serveExport struct {
	kick   chan struct{}
	done   chan struct{}
	cancel context.CancelFunc
}

// Bounds of the serve export: how often it looks for rows others wrote,
// how long its flush may hold up the exit, how often it tries again when
// another process ships the log.
const (
	serveShipEvery = 2 * time.Second
	serveFlush     = 2 * time.Second
	serveLockRetry = 5 * time.Second
)

// startServeExport starts the export when it is configured: `ml-ai.telemetry`
// from the user settings files or the managed policy (a user-scope setting,
// read from the files whatever the client sends), else the OTEL_* variables.
// It returns nil when export is off.
func startServeExport(logFlag string, logger *slog.Logger) *serveExport {
	snap := settings.Load(settingsEnv(), nil)
	cfg, on, warnings := telemetry.Resolve(snap.Telemetry, os.Getenv)
	for _, w := range warnings {
		logger.Warn("telemetry: " + w)
	}
	if !on {
		return nil
	}
	path, err := logPathFor(logFlag, snap.DecisionLog)
	if err != nil {
		logger.Error("telemetry: no decision log to export", "err", err)
		return nil
	}
	l, err := audit.Open(path)
	if err != nil {
		logger.Error("telemetry: cannot open the decision log; not exporting", "err", err)
		return nil
	}
	// Where a log never exported starts: after the rows before this
	// server, read now, so that its first verdicts are not taken for history.
	start := int64(-1)
	if es, err := l.Query(context.Background(), audit.Filter{Limit: 1}); err == nil {
		start = 0
		if len(es) > 0 {
			start = es[0].LogID
		}
	}
	e := &serveExport{kick: make(chan struct{}, 1), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	go e.run(ctx, l, start, cfg, logger)
	return e
}

// recorded is jsonrpc.Options.Recorded: ship now.
func (e *serveExport) recorded() {
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

func (e *serveExport) run(ctx context.Context, l *audit.Log, start int64, cfg telemetry.Config, logger *slog.Logger) {
	defer close(e.done)
	defer l.Close()
	opts := telemetry.ShipOptions{StartAfter: start, Warn: func(msg string) { logger.Warn(msg) },
		Exporter: telemetry.Options{Version: gate.ClassifierVersion}}
	var s *telemetry.Shipper
	var err error
	for s == nil {
		s, err = telemetry.OpenShipper(ctx, l, cfg, opts)
		switch {
		case errors.Is(err, telemetry.ErrLocked):
			logger.Debug("telemetry: another process ships the decision log; trying again later")
			select {
			case <-ctx.Done():
				return
			case <-time.After(serveLockRetry):
			}
		case err != nil:
			logger.Error("telemetry: not exporting", "err", err)
			return
		}
	}
	logger.Info("telemetry: exporting verdicts", "to", cfg.Source, "protocol", cfg.Protocol, "redactCommands", cfg.RedactCommands)
	s.Run(ctx, e.kick, serveShipEvery)
	fctx, fcancel := context.WithTimeout(context.Background(), serveFlush)
	defer fcancel()
	if err := s.Close(fctx); err != nil {
		logger.Warn("telemetry: " + err.Error())
	}
	st := s.Stats()
	logger.Info("telemetry: stopped", "exported", st.Exported, "failed", st.Failed, "dropped", st.Dropped)
}

// stop ends the export, flushing within serveFlush.
func (e *serveExport) stop() {
	if e == nil {
		return
	}
	e.cancel()
	select {
	case <-e.done:
	case <-time.After(serveFlush + time.Second): // defensive: Close is bounded already
	}
}
