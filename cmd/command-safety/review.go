package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/review"
	"github.com/ml-ai/command-safety/settings"
)

const reviewUsage = `usage: command-safety review [--listen ADDR] [--log PATH] [--allow-remote] [--reviewer NAME]

Serves the review page (SPEC §10): pending prompts with Approve and Reject,
and recent decisions. It prints one URL holding a one-time token; open it in
a browser (it works once). Stop with Ctrl-C.

  --listen ADDR     where to listen (default 127.0.0.1 on a random port)
  --allow-remote    allow a non-loopback --listen address
  --log PATH        the decision log (default: ml-ai.decisionLog, else the platform default)
  --reviewer NAME   the name recorded with each release (default: $USER; the page can change it)
`

// runReview serves `command-safety review` until SIGINT or SIGTERM.
func runReview(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveReview(ctx, args, stdout, stderr)
}

// serveReview is runReview until ctx ends.
func serveReview(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	listen := fs.String("listen", review.DefaultAddr, "")
	allowRemote := fs.Bool("allow-remote", false, "")
	logFlag := fs.String("log", "", "")
	reviewer := fs.String("reviewer", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, reviewUsage)
			return 0
		}
		fmt.Fprintf(stderr, "command-safety review: %v\n%s", err, reviewUsage)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "command-safety review: unexpected arguments %q\n%s", fs.Args(), reviewUsage)
		return exitUsage
	}
	who := *reviewer
	if who == "" {
		who = os.Getenv("USER")
		if who == "" {
			who = os.Getenv("USERNAME") // Windows
		}
	}

	ln, loopback, err := review.Listen(*listen, *allowRemote)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety review: %v\n", err)
		if errors.Is(err, review.ErrNotLoopback) {
			return exitUsage
		}
		return 1
	}
	defer ln.Close()
	if !loopback {
		fmt.Fprintf(stderr, "command-safety review: WARNING: listening on %s, which is not loopback (--allow-remote): "+
			"anyone who can reach it and get the URL can release held commands; the traffic is not encrypted\n", ln.Addr())
	}

	snap := settings.Load(settingsEnv(), nil)
	for _, p := range snap.Problems {
		fmt.Fprintf(stderr, "command-safety: settings: %s\n", p)
	}
	path, err := logPathFor(*logFlag, snap.DecisionLog)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety review: %v\n", err)
		return 1
	}
	l, err := audit.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety review: %v\n", err)
		return 1
	}
	defer l.Close()

	srv, err := review.New(ln.Addr(), review.Config{Log: l, Reviewer: who})
	if err != nil {
		fmt.Fprintf(stderr, "command-safety review: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, srv.URL())
	fmt.Fprintf(stderr, "command-safety review: serving %s (decision log %s); the URL works once; Ctrl-C stops\n", srv.Origin(), path)
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "command-safety review: %v\n", err)
		return 1
	}
	return 0
}
