package classifier

import "testing"

// TestScanAwk: what an awk program's tokens say, strings and regular
// expressions being data.
func TestScanAwk(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		prog     string
		runs     bool
		writes   []*string
		commands int
		lexFails bool
	}{
		{prog: `{print $1 " => " $2}`},
		{prog: `{print ($2 > 3)}`},
		{prog: `/a|b/ || $1 == "x|y"`},
		{prog: `# print > "x"` + "\n" + `{print}`},
		{prog: `{x = 6 / 2 > "f" / 1}`},
		{prog: `{print > "out"}`, writes: []*string{str("out")}},
		{prog: `{print $1 " > " $2 > "/etc/x"}`, writes: []*string{str("/etc/x")}},
		{prog: `{printf("%s", $0) >> "a\/b"}`, writes: []*string{str("a/b")}},
		{prog: `{print > $1}`, writes: []*string{nil}},
		{prog: `{print "x" > "out/" $1}`, writes: []*string{nil}},
		{prog: "{print \"a\",\n\"b\" > \"f\"}", writes: []*string{str("f")}},
		{prog: "{print \"a\" > \"f\"\nn = $1 > 3}", writes: []*string{str("f")}},
		{prog: `{print 6 / 2 > "f"}`, writes: []*string{str("f")}},
		{prog: `{print | "sort"}`, runs: true, commands: 1},
		{prog: `BEGIN{system("ls")}`, runs: true, commands: 1},
		{prog: `BEGIN{system("ls \x7e")}`, runs: true},
		{prog: `BEGIN{"date" | getline d}`, runs: true, commands: 1},
		{prog: `BEGIN{@f("x")}`, runs: true},
		{prog: `/[/]/ {print}`, lexFails: true},
		{prog: `{print "open}`, lexFails: true},
	} {
		toks, ok := lexAwk(c.prog)
		if ok == c.lexFails {
			t.Errorf("%q: lexAwk ok = %v", c.prog, ok)
			continue
		}
		if !ok {
			continue
		}
		f := scanAwk(toks)
		if f.runs != c.runs || len(f.commands) != c.commands || len(f.writes) != len(c.writes) {
			t.Errorf("%q: runs %v, %d commands, writes %d; want %v, %d, %d", c.prog, f.runs, len(f.commands), len(f.writes), c.runs, c.commands, len(c.writes))
			continue
		}
		for i, w := range c.writes {
			g := f.writes[i]
			if (w == nil) != (g == nil) || w != nil && *w != *g {
				t.Errorf("%q: write %d = %v, want %v", c.prog, i, g, w)
			}
		}
	}
	if s, exact := awkUnescape(`rm -rf \176\"\\`); s != `rm -rf ~"\` || !exact {
		t.Errorf("awkUnescape = %q, %v", s, exact)
	}
}
