//go:build ignore

// Command latency measures `command-safety hook <agent>` end to end as a
// fresh process per call (start, read settings, classify, append to the
// decision log, answer), the way an agent runs it: median and p99 over -n runs.
//
//	go build -o /tmp/cs/command-safety ./cmd/command-safety
//	go run bench/hook/latency.go -bin /tmp/cs/command-safety [-n 200] [-agent claude-code]
//
// or bench/hook/run.sh, which does both. HOME and XDG_* point into a temporary
// directory, so the log it writes is a fresh one, and nothing of the user's is
// touched.
//
// The floor is -empty, a Go program that does nothing built with the same
// toolchain, measured in the same run: each row's ratio is its median over
// the floor's (issue 17's target for a hook: at most 3×), for wall time and
// for CPU time (user+system, less sensitive to other load on a shared
// machine). The load average is printed before and after.
//
// With -hook, the hook rows run command-safety-hook (the binary `hook
// install` writes for the pre-command event) and the full binary's hook is
// measured after them.
//
// -parallel N then runs the first command from N processes at once, one
// after another in each, and compares the hooks finished per second with
// one process's (several agents' hooks writing one log: issue 17 point 3).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	bin := flag.String("bin", "", "the command-safety binary (required)")
	hookBin := flag.String("hook", "", "the command-safety-hook binary (beside -bin); its rows are the hook's figure, the full binary's hook is measured beside it")
	n := flag.Int("n", 200, "runs per command")
	agent := flag.String("agent", "claude-code", "the adapter to run")
	warm := flag.Int("warmup", 10, "runs before measuring (page cache, log creation)")
	empty := flag.String("empty", "", "a Go binary that does nothing, measured as the floor for Go programs")
	parallel := flag.Int("parallel", 0, "also run hooks from this many processes at once and report the throughput")
	designs := flag.String("designs", "", "a directory with bench/hook/designs built (journalclient, sockserve, sockclient, sqliteopen): measure each design's floor")
	flag.Parse()
	if *bin == "" {
		flag.Usage()
		os.Exit(2)
	}
	abs, err := filepath.Abs(*bin)
	check(err)

	tmp, err := os.MkdirTemp("", "hook-bench-")
	check(err)
	defer os.RemoveAll(tmp)
	home := filepath.Join(tmp, "home")
	work := filepath.Join(tmp, "work")
	check(os.MkdirAll(filepath.Join(work, ".git"), 0o755))
	check(os.MkdirAll(home, 0o755))
	env := []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"PATH=" + os.Getenv("PATH"),
		"CLAUDE_PROJECT_DIR=" + work,
		"GEMINI_PROJECT_DIR=" + work,
	}

	fmt.Printf("command-safety hook %s, fresh process per call, %d runs each (after %d warm-up); load average %s\n", *agent, *n, *warm, loadavg())
	fmt.Println("wall: start to exit as the agent sees it; cpu: user+system time of the process; ×: median over the empty Go program's")
	fmt.Printf("%-34s %9s %9s %9s %9s | %9s %9s | %6s %6s\n", "command", "median", "p90", "p99", "max", "cpu p50", "cpu p99", "×wall", "×cpu")
	var floorWall, floorCPU time.Duration
	measure := func(label string, args []string, payload []byte, wantOut bool) (wall, cpu time.Duration) {
		for i := 0; i < *warm; i++ {
			once(args, work, env, payload, wantOut)
		}
		d := make([]time.Duration, *n)
		c := make([]time.Duration, *n)
		for i := range d {
			d[i], c[i] = once(args, work, env, payload, wantOut)
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
		ratio := func(x, floor time.Duration) string {
			if floor == 0 {
				return "-"
			}
			return fmt.Sprintf("%.2f", float64(x)/float64(floor))
		}
		fmt.Printf("%-34s %9s %9s %9s %9s | %9s %9s | %6s %6s\n", label, ms(pct(d, 50)), ms(pct(d, 90)), ms(pct(d, 99)), ms(d[len(d)-1]),
			ms(pct(c, 50)), ms(pct(c, 99)), ratio(pct(d, 50), floorWall), ratio(pct(c, 50), floorCPU))
		return pct(d, 50), pct(c, 50)
	}
	// Baselines on the same machine at the same moment: a process that does
	// nothing, and this binary starting and printing its usage.
	if t, err := exec.LookPath("true"); err == nil {
		measure("(baseline) "+t, []string{t}, nil, false)
	}
	if *empty != "" {
		floorWall, floorCPU = measure("(floor) empty Go program", []string{*empty}, nil, false)
	}
	measure("(baseline) command-safety help", []string{abs, "help"}, nil, false)
	commands := []string{"ls", "git status && go test ./...", "npm install x", "rm -rf ~"}
	hookArgs := []string{abs, "hook", *agent}
	if *hookBin != "" {
		h, err := filepath.Abs(*hookBin)
		check(err)
		hookArgs = []string{h, "hook", *agent}
		measure("(baseline) command-safety-hook usage", []string{h}, nil, false)
	}
	for _, command := range commands {
		label := command
		if *hookBin != "" {
			label = "hook: " + command
		}
		measure(label, hookArgs, stdin(*agent, work, command), true)
	}
	if *hookBin != "" {
		// The same through the full binary (it writes the journal the same
		// way, but starts with SQLite, serve and the OpenTelemetry SDK linked).
		for _, command := range commands {
			measure("full: "+command, []string{abs, "hook", *agent}, stdin(*agent, work, command), true)
		}
		// A reader after a burst: `log` ingests what the hooks journalled.
		measure("(reader) log --limit 1", []string{abs, "log", "--limit", "1"}, nil, false)
	}
	if *designs != "" {
		// The floors of the three designs of issue 17 point 1, each the least
		// its hook could do (no settings, no classifier): design 1 appends to
		// a journal (one write, one fsync), design 2 hands the record to a
		// resident writer over a unix socket and waits for its fsync,
		// design 3 links SQLite and inserts the row itself with the cheapest
		// open (no schema check, no checkpoint).
		d := func(name string) string { return filepath.Join(*designs, name) }
		once([]string{abs, "check", "--cwd", work, "--", "ls"}, work, env, nil, false) // the log, for design 3
		logPath := filepath.Join(home, ".local", "state", "ml-ai", "decisions.db")
		sock := filepath.Join(tmp, "w.sock")
		srv := exec.Command(d("sockserve"), sock, filepath.Join(tmp, "served"))
		check(srv.Start())
		defer srv.Process.Kill()
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(sock); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		measure("(design 1 floor) journal fsync", []string{d("journalclient"), filepath.Join(tmp, "journal")}, nil, false)
		measure("(design 2 floor) socket+fsync", []string{d("sockclient"), sock}, nil, false)
		measure("(design 3 floor) sqlite insert", []string{d("sqliteopen"), logPath}, nil, false)
	}
	if *parallel > 1 {
		payload := stdin(*agent, work, commands[0])
		rate := func(procs int) float64 {
			total := *n // as many hooks in each run
			var wg sync.WaitGroup
			start := time.Now()
			for p := range procs {
				wg.Go(func() {
					for i := p; i < total; i += procs {
						once(hookArgs, work, env, payload, true)
					}
				})
			}
			wg.Wait()
			return float64(total) / time.Since(start).Seconds()
		}
		one := rate(1)
		many := rate(*parallel)
		fmt.Printf("%s from 1 process: %.0f hooks/s; from %d at once: %.0f hooks/s (%.2f×); load average %s\n",
			commands[0], one, *parallel, many, many/one, loadavg())
	}
	fmt.Printf("load average %s\n", loadavg())
}

// loadavg is /proc/loadavg's first three fields, or "?".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func stdin(agent, work, command string) []byte {
	var v any
	switch agent {
	case "cursor":
		v = map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": "bench",
			"workspace_roots": []string{work}, "command": command, "cwd": work}
	case "gemini-cli":
		v = map[string]any{"session_id": "bench", "cwd": work, "hook_event_name": "BeforeTool",
			"tool_name": "run_shell_command", "tool_input": map[string]string{"command": command}}
	default:
		v = map[string]any{"session_id": "bench", "cwd": work, "permission_mode": "default",
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]string{"command": command}}
	}
	b, err := json.Marshal(v)
	check(err)
	return b
}

// once runs args and returns its wall time and CPU time; a failed hook run
// aborts.
func once(args []string, dir string, env []string, payload []byte, wantOut bool) (wall, cpu time.Duration) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start)
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if !wantOut {
		return wall, cpu
	}
	if err != nil || out.Len() == 0 || bytes.Contains(errb.Bytes(), []byte("decision log")) {
		fmt.Fprintf(os.Stderr, "hook failed: %v\nstdout: %s\nstderr: %s\n", err, out.Bytes(), errb.Bytes())
		os.Exit(1)
	}
	return wall, cpu
}

func pct(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	return sorted[i-1]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
