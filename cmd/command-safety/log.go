package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/journal"
	"github.com/ml-ai/command-safety/settings"
)

// Exit codes of `command-safety log`: 0 done, [exitUsage] (3) for a usage
// error, logExitError (4) for anything else (the log cannot be opened, an
// entry is not pending, ...).
const logExitError = 4

const logUsage = `usage:
  command-safety log [--log PATH] [--since 1h|2026-11-30|RFC3339] [--decision allow|prompt|refuse]
                     [--agent NAME] [--status auto|held|asked|advisory|pending|approved|rejected] [--effect EFFECT]
                     [--grep TEXT] [--limit N] [--json]
  command-safety log stats   [--log PATH] [same filters] [--json]
  command-safety log suggest [--log PATH] [--min N] [--json] [--rules]
  command-safety log resolve [--log PATH] ID approve|reject [--reviewer NAME]
  command-safety log note    [--log PATH] ID TEXT
  command-safety log export  [--log PATH] [--since T] [--until T] [--format jsonl|csv]
  command-safety log ship    [--log PATH] [--linger D] [--quiet]   (send new rows to the OpenTelemetry collector)

The log is --log, else the ml-ai.decisionLog user setting, else the platform
default. Queries list the newest first (default --limit 50; 0 is all).
Exit status: 0 done, 3 usage error, 4 any other error.
`

func runLog(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	verb := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		verb, args = args[0], args[1:]
	}
	switch verb {
	case "", "stats":
		return logQuery(verb, args, stdout, stderr)
	case "suggest":
		return logSuggest(args, stdout, stderr)
	case "resolve":
		return logResolve(args, stdout, stderr)
	case "note":
		return logNote(args, stdout, stderr)
	case "export":
		return logExport(args, stdout, stderr)
	case "ship":
		return logShip(args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, logUsage)
		return 0
	}
	fmt.Fprintf(stderr, "command-safety log: unknown subcommand %q\n%s", verb, logUsage)
	return exitUsage
}

// logFlags parses args with fs, allowing flags after positional arguments
// (`resolve 12 approve --reviewer bob`). It returns the positionals, or an
// exit code when parsing failed or help was asked.
func logFlags(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, int, bool) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stderr, logUsage)
				return nil, 0, false
			}
			fmt.Fprintf(stderr, "command-safety log: %v\n%s", err, logUsage)
			return nil, exitUsage, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, true
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), 0, true
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// logPath returns the decision log's path: the flag, else the user setting
// `ml-ai.decisionLog`, else the platform default.
func logPath(flagPath string) (string, error) {
	setting := ""
	if flagPath == "" {
		setting = settings.Load(settingsEnv(), nil).DecisionLog
	}
	return logPathFor(flagPath, setting)
}

// openLogFor opens the log for a subcommand. With mustExist, a missing file
// is reported as (nil, path, nil): reading must not create the log.
func openLogFor(flagPath string, mustExist bool) (*audit.Log, string, error) {
	path, err := logPath(flagPath)
	if err != nil {
		return nil, "", err
	}
	if mustExist {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && !journal.Pending(journal.Path(path)) {
			return nil, path, nil // (hooks' verdicts in the journal alone make the log)
		}
	}
	l, err := audit.Open(path)
	return l, path, err
}

func logFail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "command-safety log: %v\n", err)
	return logExitError
}

func logUsageError(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "command-safety log: "+format+"\n%s", append(a, logUsage)...)
	return exitUsage
}

func logQuery(verb string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	path := fs.String("log", "", "decision log path")
	since := fs.String("since", "", "only verdicts since: a duration (90m, 1h, 2d), a date or an RFC 3339 time")
	decision := fs.String("decision", "", "allow, prompt or refuse")
	agent := fs.String("agent", "", "agent name")
	status := fs.String("status", "", "auto, held, asked, advisory, pending (any of the three), approved or rejected")
	effect := fs.String("effect", "", "an effect class, e.g. network")
	grep := fs.String("grep", "", "text the command contains")
	limit := fs.Int("limit", 50, "at most N rows (0: all)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, code, ok := logFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return logUsageError(stderr, "unexpected argument %q", pos[0])
	}
	f := audit.Filter{Agent: *agent, Grep: *grep, Limit: *limit}
	if *limit < 0 {
		return logUsageError(stderr, "--limit %d: want 0 or more", *limit)
	}
	if *since != "" {
		t, err := parseSince(*since, time.Now())
		if err != nil {
			return logUsageError(stderr, "--since: %v", err)
		}
		f.Since = t
	}
	if *decision != "" {
		d, err := effects.ParseDecision(*decision)
		if err != nil {
			return logUsageError(stderr, "--decision: %v", err)
		}
		f.Decision = &d
	}
	if *status != "" {
		s, err := audit.ParseStatus(*status)
		if err != nil {
			return logUsageError(stderr, "--status: %v", err)
		}
		f.Status = s
	}
	if *effect != "" {
		c, err := effects.ParseClass(*effect)
		if err != nil {
			return logUsageError(stderr, "--effect: %v", err)
		}
		f.Effect = &c
	}
	l, p, err := openLogFor(*path, true)
	if err != nil {
		return logFail(stderr, err)
	}
	ctx := context.Background()
	if verb == "stats" {
		var st audit.Stats
		if l != nil {
			defer l.Close()
			if st, err = l.Stats(ctx, f); err != nil {
				return logFail(stderr, err)
			}
		} else {
			fmt.Fprintf(stderr, "command-safety log: no decision log at %s yet\n", p)
		}
		if *asJSON {
			return logJSON(stdout, stderr, st)
		}
		printStats(stdout, st)
		return 0
	}
	var es []audit.Entry
	if l != nil {
		defer l.Close()
		if es, err = l.Query(ctx, f); err != nil {
			return logFail(stderr, err)
		}
	} else {
		fmt.Fprintf(stderr, "command-safety log: no decision log at %s yet\n", p)
	}
	if *asJSON {
		if es == nil {
			es = []audit.Entry{}
		}
		return logJSON(stdout, stderr, es)
	}
	printEntries(stdout, es)
	return 0
}

func logJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return logFail(stderr, err)
	}
	return 0
}

// parseSince reads --since: a duration back from now (`90m`, `1h`, `2d`,
// `1w`), a local date (`2026-11-30`, from its midnight) or an RFC 3339 time.
func parseSince(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, now.Location()); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02T15:04", s, now.Location()); err == nil {
		return t, nil
	}
	if n := len(s); n > 1 && (s[n-1] == 'd' || s[n-1] == 'w') {
		if k, err := strconv.Atoi(s[:n-1]); err == nil && k >= 0 {
			days := k
			if s[n-1] == 'w' {
				days *= 7
			}
			return now.AddDate(0, 0, -days), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not a duration (90m, 1h, 2d, 1w), a date (2026-11-30) or an RFC 3339 time", s)
}

// logCommandWidth is how many characters of a command the table shows.
const logCommandWidth = 60

// printEntries prints the table of `log`; REVIEWER is who answered a
// prompt (a reviewer, or the agent and its user: "claude-code:ada"), "-"
// while nobody has.
func printEntries(w io.Writer, es []audit.Entry) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tID\tDECISION\tSTATUS\tREVIEWER\tAGENT\tRULE\tCOMMAND")
	for _, e := range es {
		reviewer := "-"
		if e.Reviewer != "" {
			reviewer = truncateCommand(e.Reviewer, 40)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Time.Local().Format(time.DateTime), e.LogID, e.Decision,
			e.Status, reviewer, e.Agent, e.Rule, truncateCommand(e.Command, logCommandWidth))
	}
	tw.Flush()
}

// truncateCommand puts s on one line (line breaks and tabs shown as ⏎ and →)
// and cuts it to width runes, ending in … when cut.
func truncateCommand(s string, width int) string {
	s = strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎", "\t", "→").Replace(s)
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

func printStats(w io.Writer, s audit.Stats) {
	fmt.Fprintf(w, "verdicts: %d\n", s.Total)
	resolved := s.ByStatus[string(audit.StatusApproved)] + s.ByStatus[string(audit.StatusRejected)]
	fmt.Fprintf(w, "prompts: %d held, %d asked, %d advisory, %d approved, %d rejected",
		s.ByStatus[string(audit.StatusHeld)], s.ByStatus[string(audit.StatusAsked)], s.ByStatus[string(audit.StatusAdvisory)],
		s.ByStatus[string(audit.StatusApproved)], s.ByStatus[string(audit.StatusRejected)])
	if resolved > 0 {
		fmt.Fprintf(w, " (approval rate %.0f%%)", 100*s.ApprovalRate)
	}
	fmt.Fprintln(w)
	for _, g := range []struct {
		title string
		m     map[string]int
	}{{"by decision", s.ByDecision}, {"by effect", s.ByEffect}, {"by agent", s.ByAgent}, {"by rule", s.ByRule}} {
		if len(g.m) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", g.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, k := range sortedByCount(g.m) {
			name := k
			if name == "" {
				name = `""`
			}
			fmt.Fprintf(tw, "  %d\t %s\n", g.m[k], name)
		}
		tw.Flush()
	}
}

// sortedByCount returns m's keys, largest count first, then by name.
func sortedByCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(m[b], m[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return keys
}

func logSuggest(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log suggest", flag.ContinueOnError)
	path := fs.String("log", "", "decision log path")
	minN := fs.Int("min", 3, "propose only changes that would have freed at least N approved prompts")
	asJSON := fs.Bool("json", false, "print JSON")
	rulesOnly := fs.Bool("rules", false, "only program rule suggestions (with --json: a list of them)")
	pos, code, ok := logFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return logUsageError(stderr, "unexpected argument %q", pos[0])
	}
	if *minN < 1 {
		return logUsageError(stderr, "--min %d: want 1 or more", *minN)
	}
	if *rulesOnly {
		return logSuggestRules(*path, *minN, *asJSON, stdout, stderr)
	}
	l, p, err := openLogFor(*path, true)
	if err != nil {
		return logFail(stderr, err)
	}
	var ss []audit.Suggestion
	if l != nil {
		defer l.Close()
		if ss, err = l.Suggest(context.Background(), *minN); err != nil {
			return logFail(stderr, err)
		}
	} else {
		fmt.Fprintf(stderr, "command-safety log: no decision log at %s yet\n", p)
	}
	if *asJSON {
		if ss == nil {
			ss = []audit.Suggestion{}
		}
		return logJSON(stdout, stderr, ss)
	}
	if len(ss) == 0 {
		fmt.Fprintf(stdout, "no suggestions: no effect was approved at least %d times and never rejected for one agent\n", *minN)
	}
	defer func() {
		if l != nil {
			printRuleSuggestions(l, *minN, stdout, stderr)
		}
	}()
	for i, s := range ss {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		who := s.Agent
		if s.Mode != "" {
			who += " in " + s.Mode + " mode"
		}
		fmt.Fprintf(stdout, "%s: %d approved %s prompts, none rejected:\n", who, s.Approved, s.Effect)
		for _, pc := range s.Programs {
			name := pc.Program
			if pc.Subcommand != "" {
				name += " " + pc.Subcommand
			}
			if name == "" {
				name = "(redirection)"
			}
			fmt.Fprintf(stdout, "  %4d  %s  e.g. %s\n", pc.Count, name, truncateCommand(pc.Example, logCommandWidth))
		}
		fmt.Fprintf(stdout, "To let them run unattended, add to your user settings.json (%s):\n", s.Caveat)
		for _, line := range strings.Split(s.Setting, "\n") {
			fmt.Fprintln(stdout, "  "+line)
		}
	}
	return 0
}

// logSuggestRules prints only the program rule suggestions.
func logSuggestRules(path string, minN int, asJSON bool, stdout, stderr io.Writer) int {
	l, p, err := openLogFor(path, true)
	if err != nil {
		return logFail(stderr, err)
	}
	rs := []audit.RuleSuggestion{}
	if l != nil {
		defer l.Close()
		if rs, err = l.SuggestRules(context.Background(), minN); err != nil {
			return logFail(stderr, err)
		}
	} else {
		fmt.Fprintf(stderr, "command-safety log: no decision log at %s yet\n", p)
	}
	if asJSON {
		if rs == nil {
			rs = []audit.RuleSuggestion{}
		}
		return logJSON(stdout, stderr, rs)
	}
	if l != nil {
		printRuleSuggestions(l, minN, stdout, stderr)
	}
	return 0
}

// printRuleSuggestions prints the program rules the log proposes.
func printRuleSuggestions(l *audit.Log, minN int, stdout, stderr io.Writer) {
	rs, err := l.SuggestRules(context.Background(), minN)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety log: %v\n", err)
		return
	}
	for _, r := range rs {
		name := r.Program
		if r.Subcommand != "" {
			name += " " + r.Subcommand
		}
		fmt.Fprintf(stdout, "\n`%s` (not in the effects table): %d approved prompts for %s, none rejected.\n", name, r.Approved, strings.Join(r.Agents, ", "))
		fmt.Fprintf(stdout, "The log knows they were approved, not what %s does: check the effects (read proposed), then run\n  %s\nor add to your user settings.json:\n", r.Program, r.Add)
		for _, line := range strings.Split(r.Setting, "\n") {
			fmt.Fprintln(stdout, "  "+line)
		}
	}
}

// logEntryID parses an entry id argument.
func logEntryID(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("entry id %q: want a positive number", s)
	}
	return id, nil
}

func logResolve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log resolve", flag.ContinueOnError)
	path := fs.String("log", "", "decision log path")
	reviewer := fs.String("reviewer", "", "who decides (default: $USER)")
	pos, code, ok := logFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(pos) != 2 {
		return logUsageError(stderr, "resolve wants ID and approve or reject")
	}
	id, err := logEntryID(pos[0])
	if err != nil {
		return logUsageError(stderr, "%v", err)
	}
	var outcome audit.Status
	switch pos[1] {
	case "approve", "approved":
		outcome = audit.StatusApproved
	case "reject", "rejected":
		outcome = audit.StatusRejected
	default:
		return logUsageError(stderr, "resolve %d: %q is neither approve nor reject", id, pos[1])
	}
	who := *reviewer
	if who == "" {
		who = os.Getenv("USER")
		if who == "" {
			who = os.Getenv("USERNAME") // Windows
		}
	}
	if strings.TrimSpace(who) == "" {
		return logUsageError(stderr, "resolve %d: no reviewer: pass --reviewer NAME ($USER is not set)", id)
	}
	l, p, err := openLogFor(*path, true)
	if err != nil {
		return logFail(stderr, err)
	}
	if l == nil {
		return logFail(stderr, fmt.Errorf("no decision log at %s", p))
	}
	defer l.Close()
	if err := l.Resolve(context.Background(), id, outcome, who); err != nil {
		return logFail(stderr, err)
	}
	fmt.Fprintf(stdout, "entry %d %s by %s\n", id, outcome, who)
	snap := settings.Load(settingsEnv(), nil)
	kickExport(&snap, p, -1) // the answer goes to the collector too, when export is on
	return 0
}

func logNote(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log note", flag.ContinueOnError)
	path := fs.String("log", "", "decision log path")
	pos, code, ok := logFlags(fs, args, stderr)
	if !ok {
		return code
	}
	if len(pos) != 2 {
		return logUsageError(stderr, "note wants ID and TEXT")
	}
	id, err := logEntryID(pos[0])
	if err != nil {
		return logUsageError(stderr, "%v", err)
	}
	l, p, err := openLogFor(*path, true)
	if err != nil {
		return logFail(stderr, err)
	}
	if l == nil {
		return logFail(stderr, fmt.Errorf("no decision log at %s", p))
	}
	defer l.Close()
	if err := l.Annotate(context.Background(), id, pos[1]); err != nil {
		return logFail(stderr, err)
	}
	fmt.Fprintf(stdout, "entry %d noted\n", id)
	return 0
}
