//go:build tablesrc

package main

import (
	"bytes"
	"reflect"
	"regexp"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// TestEveryFieldWritten: the generator writes each field of a Program, a
// Flag, an EnvVar and an Escape by name, so a field added to the table's
// types and not to the generator would vanish from table_gen.go (and from
// every test that runs against it) without a word. Each exported field is set
// to a value other than its zero, and the literal must name it.
func TestEveryFieldWritten(t *testing.T) {
	for _, tc := range []struct {
		v     any
		write func(*bytes.Buffer, reflect.Value)
	}{
		{effects.Program{}, func(b *bytes.Buffer, v reflect.Value) { program(b, v.Interface().(effects.Program)) }},
		{effects.Flag{}, func(b *bytes.Buffer, v reflect.Value) { flagLit(b, v.Interface().(effects.Flag)) }},
		{effects.EnvVar{}, func(b *bytes.Buffer, v reflect.Value) { envLit(b, v.Interface().(effects.EnvVar)) }},
		{effects.Escape{}, func(b *bytes.Buffer, v reflect.Value) { escapeLit(b, v.Interface().(effects.Escape)) }},
	} {
		typ := reflect.TypeOf(tc.v)
		v := reflect.New(typ).Elem()
		for i := 0; i < typ.NumField(); i++ {
			if typ.Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
		var b bytes.Buffer
		tc.write(&b, v)
		for i := 0; i < typ.NumField(); i++ {
			// `\bShell:` is not found in `StartsShell:`.
			if f := typ.Field(i); f.IsExported() && !regexp.MustCompile(`\b`+f.Name+`:`).MatchString(b.String()) {
				t.Errorf("%s.%s is not written by the generator", typ.Name(), f.Name)
			}
		}
	}
}

// fill sets v to a value other than its zero.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.String:
		v.SetString("x")
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		if k := s.Index(0).Kind(); k != reflect.Struct {
			fill(s.Index(0))
		}
		v.Set(s)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	}
}
