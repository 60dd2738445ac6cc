package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/jsonrpc"
)

// runServe is `command-safety serve`: JSON-RPC over stdin/stdout for editors
// (jsonrpc/PROTOCOL.md). Diagnostics go to stderr; stdout carries frames only.
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logPath := fs.String("log", "", "decision log `path` (default: the ml-ai.decisionLog setting, else the platform default)")
	fs.Bool("stdio", true, "speak over stdin/stdout (the only transport; accepted because LSP clients pass it)")
	verbose := fs.Bool("v", false, "verbose diagnostics on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: command-safety serve [--log PATH] [-v]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "command-safety serve: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return exitUsage
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	home, err := os.UserHomeDir()
	if err != nil {
		logger.Warn("home directory unknown: ~ and home paths cannot be resolved", "err", err)
	}
	defaultLog, err := audit.DefaultPath(audit.EnvFrom(runtime.GOOS, os.Getenv))
	if err != nil {
		logger.Warn("no default decision log", "err", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var closer io.Closer
	if c, ok := stdin.(io.Closer); ok {
		closer = c
	}
	export := startServeExport(*logPath, logger) // nil when off
	defer export.stop()
	var recorded func()
	if export != nil {
		recorded = export.recorded
	}
	code, err := jsonrpc.Serve(ctx, stdin, stdout, closer, jsonrpc.Options{
		Home:           home,
		Platform:       runtime.GOOS,
		SettingsEnv:    settingsEnv(),
		LogPath:        *logPath,
		DefaultLogPath: defaultLog,
		Session:        fmt.Sprintf("serve:%d", os.Getpid()),
		RuleStore:      installation(), // the log in use joins it per request
		Logger:         logger,
		Recorded:       recorded,
	})
	if err != nil {
		fmt.Fprintf(stderr, "command-safety serve: %v\n", err)
	}
	return code
}
