// Command replay classifies a corpus of realistic agent commands with
// labels (commands.txt) through gate.Decide and prints how many are
// allowed, prompted and refused, and how many of the commands that only
// read or verify still prompt (issue 14, "Measure"). It is a benchmark-style
// script, not a test: the figures go in the README.
//
//	go run ./bench/replay [-v] [-agent NAME] [-mode MODE]
//
// The Linux commands run against a real temporary home with a workspace in
// it (a package.json with scripts, node_modules/.bin and .venv/bin
// installations); the Windows ones (labels ending in -win) against a small
// case-insensitive fake filesystem, as Git Bash sees C:\Users\me\proj.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
)

func main() {
	verbose := flag.Bool("v", false, "list the read/verify commands that do not run unattended, and the others that do")
	all := flag.Bool("all", false, "print every command's decision and rule (to compare two builds)")
	agent := flag.String("agent", "", "agent whose budget decides (default: default)")
	mode := flag.String("mode", "", "mode: plan, autopilot or a budget name")
	file := flag.String("f", filepath.Join("bench", "replay", "commands.txt"), "the labelled commands")
	flag.Parse()

	home, ws, err := makeTree()
	check(err)
	defer os.RemoveAll(filepath.Dir(home))

	f, err := os.Open(*file)
	check(err)
	defer f.Close()
	type row struct {
		label, section, cmd string
		decision            effects.Decision
		rule                string
	}
	var rows []row
	section := ""
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "## "); ok {
			section = name
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		label, cmd, ok := strings.Cut(line, "\t")
		if !ok {
			check(fmt.Errorf("line %q has no tab", line))
		}
		cmd = strings.ReplaceAll(cmd, `\n`, "\n")
		req := gate.Request{Agent: *agent, Mode: *mode}
		if base, win := strings.CutSuffix(label, "-win"); win {
			label = base
			req.Command = strings.ReplaceAll(cmd, "{WINWS}", winWS)
			req.Cwd, req.Workspaces, req.Home, req.FS = winWS, []string{winWS}, winHome, winFS{}
			onWindows(&req)
		} else {
			req.Command = strings.NewReplacer("{WS}", ws, "{HOME}", home).Replace(cmd)
			req.Cwd, req.Workspaces, req.Home = ws, []string{ws}, home
		}
		v := gate.Decide(req, gate.DefaultPolicy(), nil)
		rows = append(rows, row{label, section, cmd, v.Decision, v.Rule})
	}
	check(sc.Err())

	count := func(keep func(row) bool) (n int, by map[effects.Decision]int) {
		by = map[effects.Decision]int{}
		for _, r := range rows {
			if keep(r) {
				n++
				by[r.decision]++
			}
		}
		return n, by
	}
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%5.1f%%", 100*float64(a)/float64(b))
	}
	line := func(name string, keep func(row) bool) {
		n, by := count(keep)
		fmt.Printf("%-28s %4d   allow %s   prompt %s   refuse %s\n", name, n,
			pct(by[effects.Allow], n), pct(by[effects.Prompt], n), pct(by[effects.Refuse], n))
	}
	if *all {
		for _, r := range rows {
			fmt.Printf("%s\t%s\t%s\t%s\n", r.label, r.decision, r.rule, strings.ReplaceAll(r.cmd, "\n", `\n`))
		}
		return
	}
	fmt.Printf("replay of %s (agent %q, mode %q)\n\n", *file, *agent, *mode)
	line("all commands", func(row) bool { return true })
	line("read/verify (rv)", func(r row) bool { return r.label == "rv" })
	line("other", func(r row) bool { return r.label == "other" })
	fmt.Println()
	rvN, rvBy := count(func(r row) bool { return r.label == "rv" })
	fmt.Printf("read/verify commands that do not run unattended: %d of %d (%s)\n\n", rvN-rvBy[effects.Allow], rvN, pct(rvN-rvBy[effects.Allow], rvN))
	var sections []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.section] {
			seen[r.section] = true
			sections = append(sections, r.section)
		}
	}
	fmt.Println("read/verify commands that prompt or refuse, by section:")
	for _, s := range sections {
		n, by := count(func(r row) bool { return r.section == s && r.label == "rv" })
		if n == 0 {
			continue
		}
		fmt.Printf("  %-70s %3d of %3d\n", s, n-by[effects.Allow], n)
	}
	if *verbose {
		fmt.Println("\nread/verify commands that do not run unattended:")
		rules := map[string]int{}
		for _, r := range rows {
			if r.label == "rv" && r.decision != effects.Allow {
				rules[r.rule]++
				fmt.Printf("  %-7s %-24s %s\n", r.decision, r.rule, strings.ReplaceAll(r.cmd, "\n", `\n`))
			}
		}
		var rs []string
		for k := range rules {
			rs = append(rs, k)
		}
		sort.Strings(rs)
		fmt.Println("  by rule:")
		for _, k := range rs {
			fmt.Printf("    %-24s %d\n", k, rules[k])
		}
		fmt.Println("\nother commands that run unattended:")
		for _, r := range rows {
			if r.label == "other" && r.decision == effects.Allow {
				fmt.Printf("  %-24s %s\n", r.rule, strings.ReplaceAll(r.cmd, "\n", `\n`))
			}
		}
	}
}

// makeTree makes a home with the workspace proj in a temporary directory:
// what the commands read exists, the project's package.json has scripts,
// and its installed programs are in node_modules/.bin and .venv/bin.
func makeTree() (home, ws string, err error) {
	tmp, err := os.MkdirTemp("", "replay")
	if err != nil {
		return "", "", err
	}
	tmp, err = filepath.EvalSymlinks(tmp)
	if err != nil {
		return "", "", err
	}
	home = filepath.Join(tmp, "home")
	ws = filepath.Join(home, "proj")
	dirs := []string{"src/components", "src/utils", "tests", "app", "docs", ".github/workflows", "logs", "scripts", "node_modules/.bin", ".venv/bin"}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			return "", "", err
		}
	}
	files := map[string]string{
		"package.json": `{"name": "proj", "scripts": {"dev": "vite", "build": "tsc && vite build", "start": "node dist/server.js",
			"lint": "eslint .", "lint:fix": "eslint . --fix", "typecheck": "tsc --noEmit", "type-check": "tsc --noEmit",
			"test": "vitest run", "test:unit": "vitest run src", "test:e2e": "playwright test", "format": "prettier --write .",
			"db:migrate": "prisma migrate dev", "seed": "node scripts/seed.js", "check": "npm run lint && npm run typecheck"}}`,
		"README.md": "# proj\n", "tsconfig.json": "{}", "pyproject.toml": "", "go.mod": "module proj\n", "Makefile": "",
		"src/index.ts": "", "src/server.ts": "", "src/app.tsx": "", "tests/test_api.py": "", "app/main.py": "",
		".env.example": "", "scripts/run.sh": "", "scripts/setup.sh": "", "logs/app.log": "",
	}
	for _, b := range []string{"tsc", "eslint", "jest", "vitest", "prettier", "playwright", "next", "vite", "prisma"} {
		files["node_modules/.bin/"+b] = "#!/bin/sh\n"
	}
	for _, b := range []string{"pytest", "mypy", "ruff", "python", "black"} {
		files[".venv/bin/"+b] = "#!/bin/sh\n"
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(content), 0o644); err != nil {
			return "", "", err
		}
	}
	return home, ws, nil
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
}
