// Package strictjson reads JSON the way a gate must read a request: exactly.
//
// Go's encoding/json matches object keys to struct fields without regard to
// case, keeps the last of two equal keys, turns invalid UTF-8 into U+FFFD and
// ignores what follows a value when asked to decode one. Each of those lets a
// payload say one thing to the gate and another to the agent that runs it:
// {"command": "rm -rf ~", "Command": "git status"} was judged as `git status`.
// [Parse] refuses all of them: a key that equals another under Unicode case
// folding (duplicates included), invalid UTF-8, data after the value, and
// nesting deeper than [MaxDepth]. The readers on [Object] ([Object.String],
// [Object.Object], ...) match keys exactly and fail on a value of the wrong
// type instead of ignoring it.
//
// The tree keeps keys in their order ([Object.Members]), so [Encode] writes a
// file back with its keys where the user had them.
//
// It imports the standard library only.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects.
const MaxDepth = 200

// Member is one key and its value. Values are *[Object], []any, string,
// [json.Number], bool or nil.
type Member struct {
	Key string
	Val any
}

// Object is a JSON object that remembers the order of its keys.
type Object struct{ Members []Member }

// Obj builds an object from alternating keys and values.
func Obj(kv ...any) *Object {
	o := &Object{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// Get returns the value of key (matched exactly) and whether it is present.
// A nil Object has no keys.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	for _, m := range o.Members {
		if m.Key == key {
			return m.Val, true
		}
	}
	return nil, false
}

// Set replaces the value of key, or appends it.
func (o *Object) Set(key string, val any) {
	for i, m := range o.Members {
		if m.Key == key {
			o.Members[i].Val = val
			return
		}
	}
	o.Members = append(o.Members, Member{key, val})
}

// Del removes key.
func (o *Object) Del(key string) {
	for i, m := range o.Members {
		if m.Key == key {
			o.Members = append(o.Members[:i], o.Members[i+1:]...)
			return
		}
	}
}

// Str returns the value of key when it is a string, else "".
func (o *Object) Str(key string) string {
	v, _ := o.Get(key)
	s, _ := v.(string)
	return s
}

// TypeError is a value of the wrong JSON type.
type TypeError struct {
	Key  string // the key, as given to the reader
	Want string // "a string", "an object", ...
	Got  string
}

func (e *TypeError) Error() string { return fmt.Sprintf("%s is %s, not %s", e.Key, e.Got, e.Want) }

// String returns the string value of key. Absent or null is ok == false and
// no error; any other type is a [*TypeError].
func (o *Object) String(key string) (s string, ok bool, err error) {
	v, present := o.Get(key)
	if !present || v == nil {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, &TypeError{key, "a string", TypeName(v)}
	}
	return s, true, nil
}

// Object returns the object value of key, like [Object.String].
func (o *Object) Object(key string) (*Object, bool, error) {
	v, present := o.Get(key)
	if !present || v == nil {
		return nil, false, nil
	}
	obj, isObj := v.(*Object)
	if !isObj {
		return nil, false, &TypeError{key, "an object", TypeName(v)}
	}
	return obj, true, nil
}

// Strings returns the value of key when it is an array of strings, like
// [Object.String].
func (o *Object) Strings(key string) ([]string, bool, error) {
	v, present := o.Get(key)
	if !present || v == nil {
		return nil, false, nil
	}
	arr, isArr := v.([]any)
	if !isArr {
		return nil, false, &TypeError{key, "an array of strings", TypeName(v)}
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, isStr := e.(string)
		if !isStr {
			return nil, false, &TypeError{fmt.Sprintf("%s[%d]", key, i), "a string", TypeName(e)}
		}
		out = append(out, s)
	}
	return out, true, nil
}

// Number returns the value of key when it is a number, like [Object.String].
func (o *Object) Number(key string) (json.Number, bool, error) {
	v, present := o.Get(key)
	if !present || v == nil {
		return "", false, nil
	}
	n, isNum := v.(json.Number)
	if !isNum {
		return "", false, &TypeError{key, "a number", TypeName(v)}
	}
	return n, true, nil
}

// TypeName names the JSON type of a tree value for messages.
func TypeName(v any) string {
	switch v.(type) {
	case *Object:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// Parse parses exactly one JSON value (surrounding whitespace allowed). It
// fails on invalid UTF-8, on two keys of one object that are equal or equal
// under case folding, on nesting deeper than [MaxDepth] and on any data
// after the value.
func Parse(data []byte) (any, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("no JSON value")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected end of JSON input")
	}
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the JSON value (at byte %d)", dec.InputOffset())
	}
	return v, nil
}

// ParseObject is [Parse] for input that must be one JSON object.
func ParseObject(data []byte) (*Object, error) {
	v, err := Parse(data)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("the JSON value is %s, not an object", TypeName(v))
	}
	return o, nil
}

func parseValue(dec *json.Decoder, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", MaxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, isDelim := tok.(json.Delim)
	if !isDelim {
		return tok, nil
	}
	switch d {
	case '{':
		o := &Object{}
		folded := map[string]string{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, ok := kt.(string)
			if !ok {
				return nil, fmt.Errorf("object key is %v, not a string", kt)
			}
			f := foldKey(key)
			if prev, dup := folded[f]; dup {
				if prev == key {
					return nil, fmt.Errorf("duplicate key %q", key)
				}
				return nil, fmt.Errorf("keys %q and %q differ only in case", prev, key)
			}
			folded[f] = key
			v, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			o.Members = append(o.Members, Member{key, v})
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return o, nil
	case '[':
		a := []any{}
		for dec.More() {
			v, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, fmt.Errorf("unexpected %v", d)
}

// foldKey maps every rune of key to the smallest rune of its Unicode
// simple-folding orbit, so that keys equal under strings.EqualFold (K, k and
// the Kelvin sign K included) map to the same string.
func foldKey(key string) string {
	var b strings.Builder
	for _, r := range key {
		min := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < min {
				min = f
			}
		}
		b.WriteRune(min)
	}
	return b.String()
}

// Encode writes v with two-space indentation and a final newline; <, > and &
// stay as they are.
func Encode(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, indent int) {
	pad := func(n int) { b.WriteString(strings.Repeat("  ", n)) }
	switch t := v.(type) {
	case *Object:
		if len(t.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, m := range t.Members {
			pad(indent + 1)
			writeString(b, m.Key)
			b.WriteString(": ")
			writeValue(b, m.Val, indent+1)
			if i < len(t.Members)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(indent)
		b.WriteByte('}')
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			pad(indent + 1)
			writeValue(b, e, indent+1)
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(indent)
		b.WriteByte(']')
	case string:
		writeString(b, t)
	case json.Number:
		b.WriteString(t.String())
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default:
		// nil, and anything else (only the types above are ever stored).
		b.WriteString("null")
	}
}

func writeString(b *bytes.Buffer, s string) {
	var sb bytes.Buffer
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimSuffix(sb.Bytes(), []byte("\n")))
}
