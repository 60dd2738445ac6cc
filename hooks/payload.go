package hooks

import (
	"errors"
	"fmt"

	"github.com/ml-ai/command-safety/strictjson"
)

// fields reads a hook payload exactly (SPEC §8: malformed input is denied).
// Keys match exactly; the payload as a whole was already refused by
// [strictjson.Parse] when two keys differ only in case, a key repeats,
// the UTF-8 is invalid or data follows the object. Every reader records the
// first value of the wrong type in err, with its path ("tool_input.dir_path
// is a number, not a string"), so an adapter reads all it needs and checks
// once.
type fields struct {
	obj    *strictjson.Object
	prefix string // "" or "tool_input." for messages
	err    *error // shared by the readers of nested objects
}

// readPayload parses a hook's stdin as one JSON object.
func readPayload(payload []byte) (fields, error) {
	v, err := strictjson.Parse(payload)
	if err != nil {
		return fields{}, fmt.Errorf("stdin is not valid JSON: %w", err)
	}
	o, ok := v.(*strictjson.Object)
	if !ok {
		return fields{}, fmt.Errorf("stdin is not a JSON object but %s", strictjson.TypeName(v))
	}
	var e error
	return fields{obj: o, err: &e}, nil
}

func (f fields) fail(err error) {
	if *f.err == nil {
		var te *strictjson.TypeError
		if errors.As(err, &te) {
			te.Key = f.prefix + te.Key
		}
		*f.err = err
	}
}

// str returns the string value of key, "" when absent or null.
func (f fields) str(key string) string {
	s, _ := f.strOK(key)
	return s
}

// strOK returns the string value of key and whether it is present.
func (f fields) strOK(key string) (string, bool) {
	s, ok, err := f.obj.String(key)
	if err != nil {
		f.fail(err)
	}
	return s, ok
}

// strs returns the array of strings at key.
func (f fields) strs(key string) []string {
	s, _, err := f.obj.Strings(key)
	if err != nil {
		f.fail(err)
	}
	return s
}

// object returns the object at key (present reports whether it is there).
func (f fields) object(key string) (sub fields, present bool) {
	o, ok, err := f.obj.Object(key)
	if err != nil {
		f.fail(err)
	}
	return fields{obj: o, prefix: f.prefix + key + ".", err: f.err}, ok
}

// error returns the first wrongly typed value read so far, or nil.
func (f fields) error() error { return *f.err }

// shellCommand reads the shell tool's input object at key (tool_input or
// toolArgs) and its string command property, which must not be empty.
func (f fields) shellCommand(key, property string) (string, fields, error) {
	in, ok := f.object(key)
	if err := f.error(); err != nil {
		return "", in, err
	}
	if !ok {
		return "", in, fmt.Errorf("%s%s is missing", f.prefix, key)
	}
	cmd, _ := in.strOK(property)
	if err := f.error(); err != nil {
		return "", in, err
	}
	if cmd == "" {
		return "", in, fmt.Errorf("%s%s.%s is missing", f.prefix, key, property)
	}
	return cmd, in, nil
}
