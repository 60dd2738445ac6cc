package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ml-ai/command-safety/effects"
)

// Section is the settings section this package owns; keys are `ml-ai.<name>`.
const Section = "ml-ai"

// The keys of [Section], without the section prefix.
const (
	KeyCommandSafety = "commandSafety" // bool, default true
	KeyAgentBudgets  = "agentBudgets"  // {"<agent>": {"<effect>": "allow|prompt|refuse"}}
	KeyDecisionLog   = "decisionLog"   // path (user scope only)
	KeyServerPath    = "serverPath"    // path (user scope only)
	KeyHoldTimeout   = "holdTimeout"   // "10m" or seconds (user scope only)
)

// Keys lists every setting this package reads, with the section prefix
// (`ml-ai.commandSafety`, ...), sorted. Any other `ml-ai.*` key is an error.
func Keys() []string {
	keys := []string{KeyCommandSafety, KeyAgentBudgets, KeyDecisionLog, KeyServerPath, KeyHoldTimeout, KeyRules}
	for i, k := range keys {
		keys[i] = Section + "." + k
	}
	sort.Strings(keys)
	return keys
}

// DefaultHoldTimeout is `ml-ai.holdTimeout` when unset.
const DefaultHoldTimeout = 10 * time.Minute

// values are the settings one source (file or section) sets; nil is unset.
type values struct {
	enabled     *bool
	budgets     map[string]map[string]string // validated entries only
	decisionLog *string
	serverPath  *string
	holdTimeout *time.Duration
	rules       []Rule            // parsed, not yet compiled; nil is unset
	pos         map[string][2]int // key (without prefix) -> line, col in its file
}

// set applies key (without the section prefix) = val, where val is what
// encoding/json decodes into an any (or a client section holds). A JSON
// null unsets nothing and is not an error. It returns every problem with the
// value; a bad key is left as it was, except that a budget object drops only
// its bad agents.
func (v *values) set(key string, val any) []error {
	if val == nil {
		return nil
	}
	full := Section + "." + key
	switch key {
	case KeyCommandSafety:
		b, ok := val.(bool)
		if !ok {
			return []error{fmt.Errorf("%s: want a boolean, got %s", full, typeName(val))}
		}
		v.enabled = &b
	case KeyDecisionLog, KeyServerPath:
		s, ok := val.(string)
		if !ok {
			return []error{fmt.Errorf("%s: want a path string, got %s", full, typeName(val))}
		}
		if key == KeyDecisionLog {
			v.decisionLog = &s
		} else {
			v.serverPath = &s
		}
	case KeyHoldTimeout:
		d, err := parseDuration(val)
		if err != nil {
			return []error{fmt.Errorf("%s: %w", full, err)}
		}
		v.holdTimeout = &d
	case KeyRules:
		rs, errs := ParseRules(val)
		if rs == nil {
			rs = []Rule{}
		}
		v.rules = rs
		return errs
	case KeyAgentBudgets:
		b, errs := parseBudgets(val)
		if b != nil {
			v.budgets = b
		}
		return errs
	default:
		return []error{fmt.Errorf("unknown setting %s (want one of %s)", full, strings.Join(Keys(), ", "))}
	}
	return nil
}

// maxHoldTimeout bounds `ml-ai.holdTimeout`.
const maxHoldTimeout = 7 * 24 * time.Hour

func parseDuration(val any) (time.Duration, error) {
	var d time.Duration
	switch x := val.(type) {
	case string:
		x = strings.TrimSpace(x)
		if f, err := strconv.ParseFloat(x, 64); err == nil {
			return parseDuration(f) // "600": seconds
		}
		var err error
		d, err = time.ParseDuration(x)
		if err != nil {
			return 0, fmt.Errorf("want a duration such as \"10m\" or a number of seconds: %w", err)
		}
	default:
		f, ok := number(val)
		if !ok {
			return 0, fmt.Errorf("want a duration such as \"10m\" or a number of seconds, got %s", typeName(val))
		}
		if math.IsNaN(f) || f > maxHoldTimeout.Seconds() {
			return 0, fmt.Errorf("%v seconds is more than %v", f, maxHoldTimeout)
		}
		d = time.Duration(f * float64(time.Second))
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration %v is not positive", d)
	}
	if d > maxHoldTimeout {
		return 0, fmt.Errorf("duration %v is more than %v", d, maxHoldTimeout)
	}
	return d, nil
}

func number(val any) (float64, bool) {
	switch x := val.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// parseBudgets validates an `ml-ai.agentBudgets` object. An agent with any
// bad entry is dropped whole (it keeps its previous budget, as
// budgets.Set.WithUser does); the good agents are returned.
func parseBudgets(val any) (map[string]map[string]string, []error) {
	full := Section + "." + KeyAgentBudgets
	obj, ok := val.(map[string]any)
	if !ok {
		return nil, []error{fmt.Errorf("%s: want an object {\"<agent>\": {\"<effect>\": \"allow|prompt|refuse\"}}, got %s", full, typeName(val))}
	}
	out := map[string]map[string]string{}
	var errs []error
	for _, agent := range sortedKeys(obj) {
		inner, ok := obj[agent].(map[string]any)
		if !ok {
			errs = append(errs, fmt.Errorf("%s[%q]: want an object {\"<effect>\": \"allow|prompt|refuse\"}, got %s; agent ignored", full, agent, typeName(obj[agent])))
			continue
		}
		if agent == "" {
			errs = append(errs, fmt.Errorf("%s: empty agent name; agent ignored", full))
			continue
		}
		entries := map[string]string{}
		bad := false
		for _, effect := range sortedKeys(inner) {
			s, ok := inner[effect].(string)
			if !ok {
				errs = append(errs, fmt.Errorf("%s[%q][%q]: want \"allow\", \"prompt\" or \"refuse\", got %s; agent ignored", full, agent, effect, typeName(inner[effect])))
				bad = true
				continue
			}
			if _, err := effects.ParseClass(effect); err != nil {
				errs = append(errs, fmt.Errorf("%s[%q]: %w; agent ignored", full, agent, err))
				bad = true
				continue
			}
			if _, err := effects.ParseDecision(s); err != nil {
				errs = append(errs, fmt.Errorf("%s[%q][%q]: %w; agent ignored", full, agent, effect, err))
				bad = true
				continue
			}
			entries[effect] = s
		}
		if !bad {
			out[agent] = entries
		}
	}
	return out, errs
}

func typeName(val any) string {
	switch x := val.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case float64, float32, int, int64, json.Number:
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	default:
		return fmt.Sprintf("%T", x)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// setSection applies a section object (keys without the prefix), as a
// client returns it for `workspace/configuration` section "ml-ai".
func (v *values) setSection(section map[string]any) []error {
	var errs []error
	for _, k := range sortedKeys(section) {
		errs = append(errs, v.set(k, section[k])...)
	}
	return errs
}

var errNotObject = errors.New("top-level value is not an object")
