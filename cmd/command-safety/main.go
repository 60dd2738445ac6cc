// Command command-safety is the gate between coding agents and the shell: it
// classifies shell commands by effect and decides them per agent budget.
//
// Subcommands: check, serve, log, hook, review, rules. See README.md.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// subcommand runs one subcommand with its arguments and returns the exit code.
type subcommand func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// subcommands maps each subcommand name to its implementation (one file each).
var subcommands = map[string]subcommand{
	"check":  runCheck,
	"log":    runLog,
	"serve":  runServe,
	"hook":   runHook,
	"review": runReview,
	"rules":  runRules,
}

// exitUsage is the exit code of a usage error (SPEC: 0 allow, 1 prompt, 2 refuse).
const exitUsage = 3

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	sc, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "command-safety: unknown subcommand %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return sc(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "usage: command-safety <subcommand> [flags]")
	fmt.Fprintln(w, "subcommands:")
	for _, n := range names {
		fmt.Fprintln(w, "  "+n)
	}
}
