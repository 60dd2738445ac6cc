package classifier

import (
	"path"
	"testing"
)

// TestIsCleanAbs checks the fast paths of cleanAbs, dirOf and joinPath
// against package path: on every absolute path of up to 8 bytes made of
// `/`, `.` and `a`, isCleanAbs says whether Clean leaves the path as it is,
// and cleanAbs, dirOf and joinPath return what Clean, Dir and Join return.
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
		if got, want := dirOf(s), path.Dir(s); got != want {
			t.Errorf("dirOf(%q) = %q, want %q", s, got, want)
		}
		for _, name := range []string{"a", ".a/b", "..", "/a", "a/", "."} {
			if got, want := joinPath(s, name), path.Join(s, name); got != want {
				t.Errorf("joinPath(%q, %q) = %q, want %q", s, name, got, want)
			}
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
		if dirOf(p) != path.Dir(p) || joinPath(p, "x") != path.Join(p, "x") || joinPath("/x", p) != path.Join("/x", p) {
			t.Errorf("dirOf or joinPath of %q differs from path's", p)
		}
	}
}

// TestShortOption checks that shortOption names every byte of a cluster as
// "-" + string(rune(c)) does.
func TestShortOption(t *testing.T) {
	for c := range 256 {
		if got, want := shortOption(byte(c)), "-"+string(rune(c)); got != want {
			t.Errorf("shortOption(%#x) = %q, want %q", c, got, want)
		}
	}
}
