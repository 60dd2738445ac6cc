package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/ml-ai/command-safety/audit"
	"github.com/ml-ai/command-safety/effects"
	"github.com/ml-ai/command-safety/gate"
	"github.com/ml-ai/command-safety/settings"
)

const rulesUsage = `usage:
  command-safety rules list   [--file PATH] [--json]
  command-safety rules check  [--file PATH]
  command-safety rules add    [--file PATH] --program P [--subcommand S] --effect E... --example CMD... [--name N]
  command-safety rules remove [--file PATH] NAME

Edits ml-ai.rules in the user settings file (--file, else the first user
settings.json that exists, else VS Code's): comments and formatting are kept,
the new rule's examples are checked before anything is written, the write is
atomic (temp file and rename, mode kept), and the change is shown as a diff.
A file that does not parse is never written. Run by an agent, every rules
verb is refused as a rule-store modification.
Exit status: 0 done, 3 usage error, 4 any other error (a rejected rule included).
`

func runRules(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, rulesUsage)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	verb, args := args[0], args[1:]
	fl := flag.NewFlagSet("rules "+verb, flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	file := fl.String("file", "", "user settings file")
	asJSON := fl.Bool("json", false, "print JSON")
	program := fl.String("program", "", "program name")
	sub := fl.String("subcommand", "", "subcommand")
	name := fl.String("name", "", "rule name (default: the program)")
	var effs, examples stringList
	fl.Var(&effs, "effect", "effect (repeat)")
	fl.Var(&examples, "example", "example command (repeat)")
	if err := fl.Parse(args); err != nil {
		fmt.Fprintf(stderr, "command-safety rules: %v\n%s", err, rulesUsage)
		return exitUsage
	}
	path := *file
	if path == "" {
		path = defaultUserSettings()
		if path == "" {
			fmt.Fprintln(stderr, "command-safety rules: no user settings location (HOME unset)")
			return logExitError
		}
	}
	switch verb {
	case "list", "check":
		if fl.NArg() > 0 {
			fmt.Fprintf(stderr, "command-safety rules: unexpected argument %q\n", fl.Arg(0))
			return exitUsage
		}
		return rulesList(path, verb == "check", *asJSON, stdout, stderr)
	case "add":
		if fl.NArg() > 0 || *program == "" || len(effs) == 0 {
			fmt.Fprintf(stderr, "command-safety rules add: want --program and at least one --effect\n%s", rulesUsage)
			return exitUsage
		}
		var cs []effects.Class
		for _, e := range effs {
			for _, x := range strings.Split(e, ",") {
				c, err := effects.ParseClass(strings.TrimSpace(x))
				if err != nil {
					fmt.Fprintf(stderr, "command-safety rules add: %v\n", err)
					return exitUsage
				}
				cs = append(cs, c)
			}
		}
		n := *name
		if n == "" {
			n = *program
		}
		return rulesEdit(path, stdout, stderr, func(v *hujson.Value, rules []map[string]any) (string, error) {
			return addRule(v, rules, n, *program, *sub, cs, examples)
		})
	case "remove":
		if fl.NArg() != 1 {
			fmt.Fprintf(stderr, "command-safety rules remove: want one rule NAME\n%s", rulesUsage)
			return exitUsage
		}
		target := fl.Arg(0)
		return rulesEdit(path, stdout, stderr, func(v *hujson.Value, rules []map[string]any) (string, error) {
			for i, r := range rules {
				if ruleName(r) == target {
					return "", v.Patch(fmt.Appendf(nil, `[{"op":"remove","path":"/ml-ai.rules/%d"}]`, i))
				}
			}
			return "", fmt.Errorf("no rule named %q", target)
		})
	default:
		fmt.Fprintf(stderr, "command-safety rules: unknown verb %q\n%s", verb, rulesUsage)
		return exitUsage
	}
}

// defaultUserSettings is the first user settings file that exists, else
// the first candidate (VS Code's).
func defaultUserSettings() string {
	files := settings.UserFiles(settings.EnvFrom(runtime.GOOS, os.Getenv))
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	if len(files) > 0 {
		return files[0]
	}
	return ""
}

func ruleName(r map[string]any) string {
	if n, _ := r["name"].(string); n != "" {
		return n
	}
	p, _ := r["program"].(string)
	return p
}

// readRules parses path (JSONC); a missing file is empty settings.
func readRules(path string) (data []byte, v hujson.Value, rules []map[string]any, err error) {
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = []byte("{\n}\n"), nil
	}
	if err != nil {
		return nil, v, nil, err
	}
	v, err = hujson.Parse(data)
	if err != nil {
		return nil, v, nil, fmt.Errorf("%s does not parse, so it is not changed: %w", path, err)
	}
	rules, err = rulesOf(v)
	if err != nil {
		return nil, v, nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, v, rules, nil
}

func rulesOf(v hujson.Value) ([]map[string]any, error) {
	std := v.Clone()
	std.Standardize()
	var top map[string]any
	if err := json.Unmarshal(std.Pack(), &top); err != nil {
		return nil, fmt.Errorf("not a settings object: %w", err)
	}
	raw, ok := top[settings.Section+"."+settings.KeyRules]
	if !ok || raw == nil {
		return nil, nil
	}
	arr, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.%s is not an array", settings.Section, settings.KeyRules)
	}
	var out []map[string]any
	for _, x := range arr {
		m, _ := x.(map[string]any)
		out = append(out, m)
	}
	return out, nil
}

// compileRules parses and compiles rules as the gate does; it returns the
// problems of each rule by index (nil when it is accepted).
func compileRules(rules []map[string]any) []string {
	probs := make([]string, len(rules))
	arr := make([]any, len(rules))
	for i, r := range rules {
		arr[i] = r
	}
	parsed, errs := settings.ParseRules(arr)
	for _, e := range errs {
		msg := e.Error()
		for i := range rules {
			if strings.Contains(msg, fmt.Sprintf("[%d]", i)) {
				probs[i] = msg
			}
		}
	}
	var grs []gate.Rule
	var idx []int
	for _, r := range parsed {
		for i := range rules {
			if ruleName(rules[i]) == r.Name {
				idx = append(idx, i)
			}
		}
		grs = append(grs, gate.Rule{ID: r.ID(), Entry: r.Entry})
	}
	_, cerrs := gate.CompileRules(grs)
	for _, e := range cerrs {
		if e.Index < len(idx) {
			probs[idx[e.Index]] = e.Error()
		}
	}
	return probs
}

func rulesList(path string, check, asJSON bool, stdout, stderr io.Writer) int {
	_, _, rules, err := readRules(path)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety rules: %v\n", err)
		return logExitError
	}
	probs := compileRules(rules)
	if asJSON {
		type row struct {
			Name    string         `json:"name"`
			Rule    map[string]any `json:"rule"`
			Problem string         `json:"problem,omitempty"`
		}
		rows := []row{}
		for i, r := range rules {
			rows = append(rows, row{ruleName(r), r, probs[i]})
		}
		return logJSON(stdout, stderr, rows)
	}
	bad := 0
	for i, r := range rules {
		status := "ok"
		if probs[i] != "" {
			status, bad = "rejected: "+probs[i], bad+1
		}
		prog, _ := r["program"].(string)
		fmt.Fprintf(stdout, "user:%s  program %s  %s\n", ruleName(r), prog, status)
	}
	if len(rules) == 0 {
		fmt.Fprintf(stdout, "no rules in %s\n", path)
	}
	if check && bad > 0 {
		return logExitError
	}
	return 0
}

func addRule(v *hujson.Value, rules []map[string]any, name, program, sub string, cs []effects.Class, examples []string) (string, error) {
	key := "/" + settings.Section + "." + settings.KeyRules
	rule := audit.RuleJSON(name, program, sub, cs, examples)
	for i, r := range rules {
		if p, _ := r["program"].(string); p != program {
			if ruleName(r) == name {
				return "", fmt.Errorf("a rule named %q exists (for %q): choose another --name", name, p)
			}
			continue
		}
		if sub == "" {
			return "", fmt.Errorf("rule %q already teaches %s: remove it first", ruleName(r), program)
		}
		subs, _ := r["subcommands"].([]any)
		for _, s := range subs {
			if m, _ := s.(map[string]any); m != nil && m["name"] == sub {
				return "", fmt.Errorf("rule %q already has subcommand %s", ruleName(r), sub)
			}
		}
		if r["subcommands"] == nil {
			val, _ := json.Marshal(rule["subcommands"])
			op := fmt.Sprintf(`[{"op":"add","path":"%s/%d/subcommands","value":%s}]`, key, i, val)
			return ruleName(r), v.Patch([]byte(op))
		}
		val, _ := json.Marshal(rule["subcommands"].([]any)[0])
		op := fmt.Sprintf(`[{"op":"add","path":"%s/%d/subcommands/-","value":%s}]`, key, i, val)
		if err := v.Patch([]byte(op)); err != nil {
			return "", err
		}
		prettyElem(v, fmt.Sprintf("%s/%d/subcommands/%d", key, i, len(subs)), "        ")
		return ruleName(r), nil
	}
	val, err := json.Marshal(rule)
	if err != nil {
		return "", err
	}
	if v.Find(key) == nil {
		op := fmt.Sprintf(`[{"op":"add","path":"%s","value":[%s]}]`, key, val)
		if err := v.Patch([]byte(op)); err != nil {
			return "", err
		}
		if obj, ok := v.Value.(*hujson.Object); ok && len(obj.Members) > 0 {
			m := &obj.Members[len(obj.Members)-1]
			m.Name.BeforeExtra = hujson.Extra("\n  ")
			if nv, err := hujson.Parse(indentJSON([]any{rule}, "  ")); err == nil {
				nv.BeforeExtra = hujson.Extra(" ")
				m.Value = nv
			}
		}
		return name, nil
	}
	op := fmt.Sprintf(`[{"op":"add","path":"%s/-","value":%s}]`, key, val)
	if err := v.Patch([]byte(op)); err != nil {
		return "", err
	}
	prettyElem(v, fmt.Sprintf("%s/%d", key, len(rules)), "    ")
	return name, nil
}

// prettyElem re-renders the array element at ptr indented, on its own line.
func prettyElem(v *hujson.Value, ptr, indent string) {
	el := v.Find(ptr)
	if el == nil {
		return
	}
	var x any
	std := el.Clone()
	std.Standardize()
	if json.Unmarshal(std.Pack(), &x) != nil {
		return
	}
	nv, err := hujson.Parse(indentJSON(x, indent))
	if err != nil {
		return
	}
	nv.BeforeExtra = hujson.Extra("\n" + indent)
	nv.AfterExtra = el.AfterExtra
	*el = nv
}

func indentJSON(x any, prefix string) []byte {
	b, _ := json.MarshalIndent(x, prefix, "  ")
	return b
}

// rulesEdit applies edit to the settings file at path, checks the rule it
// names, shows the diff and writes the file atomically.
func rulesEdit(path string, stdout, stderr io.Writer, edit func(v *hujson.Value, rules []map[string]any) (string, error)) int {
	old, v, rules, err := readRules(path)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety rules: %v\n", err)
		return logExitError
	}
	changed, err := edit(&v, rules)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety rules: %v\n", err)
		return logExitError
	}
	newRules, err := rulesOf(v)
	if err != nil {
		fmt.Fprintf(stderr, "command-safety rules: %v\n", err)
		return logExitError
	}
	if changed != "" {
		probs := compileRules(newRules)
		for i, r := range newRules {
			if ruleName(r) == changed && probs[i] != "" {
				fmt.Fprintf(stderr, "command-safety rules: the rule is rejected, %s is not changed: %s\n", path, probs[i])
				return logExitError
			}
		}
	}
	data := v.Pack()
	fmt.Fprint(stdout, lineDiff(path, string(old), string(data)))
	if err := writeSettingsAtomic(path, data); err != nil {
		fmt.Fprintf(stderr, "command-safety rules: %v\n", err)
		return logExitError
	}
	return 0
}

// writeSettingsAtomic replaces path's target (symlinks followed) with data
// ([writeSettingsFile]), keeping the file's mode (0600 for a new file).
func writeSettingsAtomic(path string, data []byte) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return writeSettingsFile(path, data, mode)
}

// lineDiff renders a minimal diff of a and b: the changed middle, with
// the common first and last lines left out.
func lineDiff(name, a, b string) string {
	if a == b {
		return ""
	}
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	j := 0
	for j < len(al)-i && j < len(bl)-i && al[len(al)-1-j] == bl[len(bl)-1-j] {
		j++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n@@ line %d @@\n", name, name, i+1)
	for _, l := range al[i : len(al)-j] {
		sb.WriteString("-" + l + "\n")
	}
	for _, l := range bl[i : len(bl)-j] {
		sb.WriteString("+" + l + "\n")
	}
	return sb.String()
}
