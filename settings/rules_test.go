package settings

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

func decodeAny(t testing.TB, s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestParseRules(t *testing.T) {
	rs, errs := ParseRules(decodeAny(t, `[
		{"name": "acme", "program": "acme-cli", "effects": ["read", "network"], "operands": "write",
		 "flags": [{"names": ["-o"], "value": true, "effects": ["network"]}],
		 "subcommands": [{"name": "get", "effects": ["read"], "examples": ["acme-cli get"]}],
		 "examples": ["acme-cli x"], "notExamples": ["acme-cli rm x"]},
		{"program": "zork", "effects": ["verify"]},
		{"program": "bad", "effects": ["nope"]},
		{"program": "bad2", "effects": ["read"], "special": "shell"},
		{"name": "acme", "program": "other", "effects": ["read"]},
		{"effects": ["read"]},
		{"program": "bad3", "effects": ["read"], "operands": "command"},
		"x"
	]`))
	if len(rs) != 2 || rs[0].Name != "acme" || rs[1].Name != "zork" {
		t.Fatalf("rules %+v", rs)
	}
	e := rs[0].Entry
	if e.Name != "acme-cli" || e.Operands != effects.WritePaths || len(e.Flags) != 1 || e.Flags[0].Value != effects.Arg ||
		len(e.Subcommands) != 1 || e.Subcommands[0].Name != "get" || len(e.Examples) != 1 || len(e.NotExamples) != 1 {
		t.Errorf("entry %+v", e)
	}
	if rs[1].Entry.Operands != effects.ReadPaths || rs[0].ID() != "user:acme" {
		t.Errorf("defaults: %+v %s", rs[1].Entry, rs[0].ID())
	}
	want := []string{`"bad"`, `unknown field "special"`, "name used twice", `want "program"`, `"operands"`, "want an object"}
	if len(errs) != len(want) {
		t.Fatalf("errors %v", errs)
	}
	for i, w := range want {
		if !strings.Contains(errs[i].Error(), w) {
			t.Errorf("error %d %q lacks %q", i, errs[i], w)
		}
	}
	if _, errs := ParseRules(map[string]any{}); len(errs) != 1 {
		t.Errorf("an object: %v", errs)
	}
}

// FuzzParseRules: ParseRules never panics, and every rule it returns has a
// program and a name.
func FuzzParseRules(f *testing.F) {
	f.Add(`[{"name":"acme","program":"acme","effects":["read"],"flags":[{"names":["-o"],"value":true}],"subcommands":[{"name":"get","effects":["network"]}],"examples":["acme x"]}]`)
	f.Add(`[{"program":"x","effects":["read"],"operands":"delete"}]`)
	f.Add(`[1, null, {}, []]`)
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		rs, _ := ParseRules(v)
		for _, r := range rs {
			if r.Name == "" || r.Entry.Name == "" {
				t.Fatalf("rule without a name: %+v", r)
			}
		}
	})
}
