package settings

import (
	"fmt"
	"strings"

	"github.com/ml-ai/command-safety/effects"
)

// KeyRules is `ml-ai.rules`: program rules in the effects table's
// vocabulary (user settings; a workspace rule can only add effects).
const KeyRules = "rules"

// maxRules bounds the number of rules one source gives.
const maxRules = 256

// Rule is one `ml-ai.rules` entry as written; its examples are checked when
// the gate compiles it (gate.CompileRules), which may still reject it.
type Rule struct {
	// Name is the rule's name: the verdict says "user:NAME"
	// ("workspace:NAME" for a workspace's rule).
	Name string
	// Workspace: the rule comes from a workspace's settings.
	Workspace bool
	// File, Line and Col locate the `ml-ai.rules` key that holds it.
	File      string
	Line, Col int
	// Entry is the program entry the rule describes.
	Entry effects.Program
}

// ID returns "user:NAME" or "workspace:NAME".
func (r Rule) ID() string {
	if r.Workspace {
		return "workspace:" + r.Name
	}
	return "user:" + r.Name
}

// ParseRules parses an `ml-ai.rules` value (what encoding/json decodes into
// an any): an array of rule objects
//
//	{"name": "acme-lint", "program": "acme-lint", "effects": ["verify"],
//	 "operands": "read", "flags": [{"names": ["--fix"], "effects": ["write-inside-workspace"], "replace": true}],
//	 "subcommands": [{"name": "get", "effects": ["read", "network"], "examples": ["acme-lint get x"]}],
//	 "other": ["opaque-medium"], "examples": ["acme-lint src"], "notExamples": ["acme-lint --fix src"]}
//
// "name" defaults to the program; "operands" is "read" (default), "write"
// or "delete"; a flag's "value" is true when it takes an argument. Unknown
// fields are errors. A bad rule is dropped with an error; the others stay.
func ParseRules(val any) ([]Rule, []error) {
	full := Section + "." + KeyRules
	arr, ok := val.([]any)
	if !ok {
		return nil, []error{fmt.Errorf("%s: want an array of rules, got %s", full, typeName(val))}
	}
	var out []Rule
	var errs []error
	names := map[string]bool{}
	for i, x := range arr {
		if i >= maxRules {
			errs = append(errs, fmt.Errorf("%s: more than %d rules; the rest ignored", full, maxRules))
			break
		}
		obj, ok := x.(map[string]any)
		if !ok {
			errs = append(errs, fmt.Errorf("%s[%d]: want an object, got %s; rule ignored", full, i, typeName(x)))
			continue
		}
		name, _ := obj["name"].(string)
		prog, _ := obj["program"].(string)
		if name == "" {
			name = prog
		}
		label := fmt.Sprintf("%s[%d]", full, i)
		if name != "" {
			label = fmt.Sprintf("%s[%d] %q", full, i, name)
		}
		if _, ok := obj["program"].(string); !ok || prog == "" {
			errs = append(errs, fmt.Errorf("%s: want \"program\": a program name; rule ignored", label))
			continue
		}
		if strings.ContainsAny(name, " \t\n:") {
			errs = append(errs, fmt.Errorf("%s: a name has no spaces or colons; rule ignored", label))
			continue
		}
		if names[name] {
			errs = append(errs, fmt.Errorf("%s: name used twice; rule ignored", label))
			continue
		}
		e, err := parseRuleEntry(obj, true)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w; rule ignored", label, err))
			continue
		}
		e.Name = prog
		names[name] = true
		out = append(out, Rule{Name: name, Entry: e})
	}
	return out, errs
}

// parseRuleEntry parses one level of a rule (the rule or a subcommand).
func parseRuleEntry(obj map[string]any, top bool) (effects.Program, error) {
	var e effects.Program
	e.Operands = effects.ReadPaths
	for _, k := range sortedKeys(obj) {
		v := obj[k]
		var err error
		switch k {
		case "name":
			if top {
				continue
			}
			s, ok := v.(string)
			if !ok || s == "" {
				return e, fmt.Errorf("a subcommand needs a \"name\"")
			}
			e.Name = s
		case "program":
			if !top {
				return e, fmt.Errorf("\"program\" only at the top of a rule")
			}
		case "effects":
			e.Effects, err = parseClasses(v)
		case "other":
			e.Other, err = parseClasses(v)
		case "operands":
			s, _ := v.(string)
			switch s {
			case "read":
				e.Operands = effects.ReadPaths
			case "write":
				e.Operands = effects.WritePaths
			case "delete":
				e.Operands = effects.DeletePaths
			default:
				return e, fmt.Errorf("\"operands\": want \"read\", \"write\" or \"delete\"")
			}
		case "examples":
			e.Examples, err = parseStrings(v, k)
		case "notExamples":
			e.NotExamples, err = parseStrings(v, k)
		case "flags":
			arr, ok := v.([]any)
			if !ok {
				return e, fmt.Errorf("\"flags\": want an array")
			}
			for _, fx := range arr {
				f, err := parseRuleFlag(fx)
				if err != nil {
					return e, err
				}
				e.Flags = append(e.Flags, f)
			}
		case "subcommands":
			arr, ok := v.([]any)
			if !ok {
				return e, fmt.Errorf("\"subcommands\": want an array")
			}
			for _, sx := range arr {
				so, ok := sx.(map[string]any)
				if !ok {
					return e, fmt.Errorf("\"subcommands\": want objects")
				}
				s, err := parseRuleEntry(so, false)
				if err != nil {
					return e, fmt.Errorf("subcommand %v: %w", so["name"], err)
				}
				e.Subcommands = append(e.Subcommands, s)
			}
		default:
			return e, fmt.Errorf("unknown field %q (want name, program, effects, operands, flags, subcommands, other, examples, notExamples)", k)
		}
		if err != nil {
			return e, err
		}
	}
	return e, nil
}

func parseRuleFlag(x any) (effects.Flag, error) {
	var f effects.Flag
	obj, ok := x.(map[string]any)
	if !ok {
		return f, fmt.Errorf("a flag: want an object {\"names\": [...], \"value\": bool, \"effects\": [...], \"replace\": bool}")
	}
	for _, k := range sortedKeys(obj) {
		v := obj[k]
		var err error
		switch k {
		case "names":
			f.Names, err = parseStrings(v, "names")
		case "value":
			b, ok := v.(bool)
			if !ok {
				return f, fmt.Errorf("flag \"value\": want a boolean")
			}
			if b {
				f.Value = effects.Arg
			}
		case "effects":
			f.Effects, err = parseClasses(v)
		case "replace":
			b, ok := v.(bool)
			if !ok {
				return f, fmt.Errorf("flag \"replace\": want a boolean")
			}
			f.Replace = b
		default:
			return f, fmt.Errorf("flag: unknown field %q (want names, value, effects, replace)", k)
		}
		if err != nil {
			return f, err
		}
	}
	if len(f.Names) == 0 {
		return f, fmt.Errorf("a flag needs \"names\"")
	}
	return f, nil
}

func parseClasses(v any) ([]effects.Class, error) {
	ss, err := parseStrings(v, "effects")
	if err != nil {
		return nil, err
	}
	var cs []effects.Class
	for _, s := range ss {
		c, err := effects.ParseClass(s)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func parseStrings(v any, what string) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%q: want an array of strings, got %s", what, typeName(v))
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("%q: want strings, got %s", what, typeName(x))
		}
		out = append(out, s)
	}
	return out, nil
}
