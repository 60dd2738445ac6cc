package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// This file holds a small order-preserving JSON tree, so that installing a
// hook into an agent's settings file keeps the user's keys in their order.
// Values are *object, []any, string, json.Number, bool or nil.

type member struct {
	key string
	val any
}

// object is a JSON object that remembers the order of its keys.
type object struct{ members []member }

func (o *object) get(key string) (any, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

func (o *object) set(key string, val any) {
	for i, m := range o.members {
		if m.key == key {
			o.members[i].val = val
			return
		}
	}
	o.members = append(o.members, member{key, val})
}

func (o *object) del(key string) {
	for i, m := range o.members {
		if m.key == key {
			o.members = append(o.members[:i], o.members[i+1:]...)
			return
		}
	}
}

// str returns the string value of key, or "".
func (o *object) str(key string) string {
	v, _ := o.get(key)
	s, _ := v.(string)
	return s
}

func obj(kv ...any) *object {
	o := &object{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// maxJSONDepth bounds nesting when parsing a settings file.
const maxJSONDepth = 200

// parseJSON parses one JSON value; whitespace-only input is an empty object.
func parseJSON(data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &object{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the top-level value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is %v, not a string", kt)
				}
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if _, dup := o.get(key); dup {
					return nil, fmt.Errorf("duplicate key %q", key)
				}
				o.members = append(o.members, member{key, v})
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
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// encodeJSON writes v with two-space indentation and a final newline.
func encodeJSON(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, indent int) {
	pad := func(n int) { b.WriteString(strings.Repeat("  ", n)) }
	switch t := v.(type) {
	case *object:
		if len(t.members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, m := range t.members {
			pad(indent + 1)
			writeString(b, m.key)
			b.WriteString(": ")
			writeValue(b, m.val, indent+1)
			if i < len(t.members)-1 {
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
	case nil:
		b.WriteString("null")
	default:
		// Only the types above are ever stored; keep the output valid anyway.
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
