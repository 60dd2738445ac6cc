package classifier

import (
	"slices"
	"testing"

	"github.com/ml-ai/command-safety/effects"
)

// TestEscapeHits: how a line of a client's language is matched against its
// escapes (effects.Escape): whole names, the prefixes a client takes, case
// where it folds, and backslash commands anywhere in the line.
func TestEscapeHits(t *testing.T) {
	escs := []effects.Escape{
		{Name: ".system", Abbrev: 3, Arg: effects.ShellCode},
		{Name: ".once", Abbrev: 2, Arg: effects.WritePath, Pipe: true},
		{Name: "pager", Fold: true, Arg: effects.ShellCode},
		{Name: "\\!", Arg: effects.ShellCode},
		{Name: "\\g", Arg: effects.WritePath, Pipe: true},
	}
	for _, tc := range []struct {
		line  string
		names []string // the escapes found, in order
		rests []string
	}{
		{".system rm x", []string{".system"}, []string{"rm x"}},
		{"  .sys rm x", []string{".system"}, []string{"rm x"}},
		{".s rm x", nil, nil}, // shorter than Abbrev
		{".systemx rm", nil, nil},
		{".o |sh", []string{".once"}, []string{"|sh"}},
		{"PAGER less", []string{"pager"}, []string{"less"}},
		{"pagers less", nil, nil},
		{"\\!rm x", []string{"\\!"}, []string{"rm x"}},
		{"select 1 \\g |sh x", []string{"\\g"}, []string{"|sh x"}},
		{"select 1 \\gset", nil, nil}, // \gset is another command
		{"select '.system x'", nil, nil},
		{"\\", nil, nil},
		{"", nil, nil},
	} {
		var names, rests []string
		for _, h := range escapeHits(escs, tc.line) {
			names, rests = append(names, h.esc.Name), append(rests, h.rest)
		}
		if !slices.Equal(names, tc.names) || !slices.Equal(rests, tc.rests) {
			t.Errorf("%q: %q %q, want %q %q", tc.line, names, rests, tc.names, tc.rests)
		}
	}
}

// TestReplWords: a client's arguments split at blanks with SQL's quoting.
func TestReplWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a b", []string{"a", "b"}},
		{`'|rm -rf x' t`, []string{"|rm -rf x", "t"}},
		{`"a b"c`, []string{"a bc"}},
		{`'it''s'`, []string{"it's"}},
		{`''`, []string{""}},
		{`'unterminated`, []string{"unterminated"}},
		{"", nil},
	} {
		if got := replWords(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("replWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s, word string
		want    int
	}{
		{"t from PROGRAM 'x'", "program", 7},
		{"t from programs", "program", -1},
		{"program", "program", 0},
		{"İ program", "program", 3},
	} {
		if got := indexWordFold(tc.s, tc.word); got != tc.want {
			t.Errorf("indexWordFold(%q, %q) = %d, want %d", tc.s, tc.word, got, tc.want)
		}
	}
}
