package classifier

import (
	"path"
	"testing"
)

// TestIsCleanAbs checks cleanAbs's fast path against path.Clean: on every
// absolute path of up to 8 bytes made of `/`, `.` and `a`, isCleanAbs says
// whether Clean leaves the path as it is, so cleanAbs returns what Clean
// returns.
func TestIsCleanAbs(t *testing.T) {
	alphabet := []byte{'/', '.', 'a'}
	var gen func(p []byte)
	n := 0
	gen = func(p []byte) {
		s := string(p)
		n++
		if got, want := isCleanAbs(s), path.Clean(s) == s; got != want {
			t.Errorf("isCleanAbs(%q) = %v, path.Clean gives %q", s, got, path.Clean(s))
		}
		if got, want := cleanAbs(s), path.Clean(s); got != want {
			t.Errorf("cleanAbs(%q) = %q, want %q", s, got, want)
		}
		if len(p) == 8 {
			return
		}
		for _, c := range alphabet {
			gen(append(p, c))
		}
	}
	gen([]byte{'/'})
	if n < 3000 {
		t.Fatalf("only %d paths checked", n)
	}
	for _, p := range []string{"", "a/b", "."} {
		if cleanAbs(p) != "" {
			t.Errorf("cleanAbs(%q) = %q, want \"\" (not absolute)", p, cleanAbs(p))
		}
	}
}
