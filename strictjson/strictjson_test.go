package strictjson

import (
	"strings"
	"testing"
)

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"case variant", `{"command": "rm -rf ~", "Command": "git status"}`, "differ only in case"},
		{"case variant nested", `{"tool_input": {"command": "a", "COMMAND": "b"}}`, "differ only in case"},
		{"kelvin sign folds to k", "{\"k\": 1, \"\u212a\": 2}", "differ only in case"},
		{"duplicate", `{"command": "a", "command": "b"}`, "duplicate key"},
		{"trailing object", `{"command": "a"} {"command": "b"}`, "data after"},
		{"trailing garbage", `{"command": "a"}x`, "data after"},
		{"invalid utf-8", "{\"command\": \"a\xff\"}", "UTF-8"},
		{"empty", ``, "no JSON value"},
		{"truncated", `{"command": `, "unexpected end"},
		{"too deep", strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2), "nested more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Parse(%q) = %v, want an error containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestParseAccepts(t *testing.T) {
	for _, in := range []string{
		`{"command": "a", "cwd": "/x"}`,
		" \n{\"a\": [1, \"b\", null, true, {\"c\": {}}]}\n ",
		`{"a": 1, "ab": 2, "b": 3}`,
		`[]`,
	} {
		if _, err := Parse([]byte(in)); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

func TestReadersAreExactAndTyped(t *testing.T) {
	o, err := ParseObject([]byte(`{"command": "ls", "dir_path": 5, "roots": ["/a", 1], "input": {"x": "y"}, "none": null}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok, err := o.String("command"); s != "ls" || !ok || err != nil {
		t.Errorf(`String("command") = %q, %v, %v`, s, ok, err)
	}
	if _, ok, err := o.String("Command"); ok || err != nil {
		t.Errorf(`String("Command") matched: %v, %v`, ok, err)
	}
	if _, _, err := o.String("dir_path"); err == nil || err.Error() != "dir_path is a number, not a string" {
		t.Errorf(`String("dir_path") error = %v`, err)
	}
	if _, _, err := o.Strings("roots"); err == nil || !strings.Contains(err.Error(), "roots[1] is a number") {
		t.Errorf(`Strings("roots") error = %v`, err)
	}
	if _, ok, err := o.String("none"); ok || err != nil {
		t.Errorf(`String("none") = %v, %v; want absent`, ok, err)
	}
	if in, ok, err := o.Object("input"); !ok || err != nil || in.Str("x") != "y" {
		t.Errorf(`Object("input") = %v, %v, %v`, in, ok, err)
	}
	if _, _, err := o.Object("command"); err == nil {
		t.Error(`Object("command") accepted a string`)
	}
	if _, err := ParseObject([]byte(`[1]`)); err == nil {
		t.Error("ParseObject accepted an array")
	}
}

func TestEncodeKeepsOrder(t *testing.T) {
	in := `{"z": 1, "a": {"y": [true, null, "<&>"]}, "m": {}}`
	v, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"z\": 1,\n  \"a\": {\n    \"y\": [\n      true,\n      null,\n      \"<&>\"\n    ]\n  },\n  \"m\": {}\n}\n"
	if got := string(Encode(v)); got != want {
		t.Errorf("Encode = %q, want %q", got, want)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, `{"a": "b", "A": 1}`, `[[[]]]`, `{"tool_input": {"command": "ls"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		// What parses re-encodes to JSON that parses to the same tree.
		again, err := Parse(Encode(v))
		if err != nil {
			t.Fatalf("re-encoded value does not parse: %v", err)
		}
		if string(Encode(again)) != string(Encode(v)) {
			t.Fatalf("round trip changed the value")
		}
	})
}
