//go:build tablesrc

package effects

import (
	"slices"
	"testing"
)

// TestSortedTable checks the helper that joins the families.
func TestSortedTable(t *testing.T) {
	got := sortedTable([]Program{{Name: "b"}, {Name: "a"}}, []Program{{Name: "c"}, {Name: "A"}})
	var ns []string
	for _, p := range got {
		ns = append(ns, p.Name)
	}
	if want := []string{"A", "a", "b", "c"}; !slices.Equal(ns, want) {
		t.Errorf("sortedTable = %v, want %v", ns, want)
	}
}

// TestPackaged checks the programs that packages install: every name is an
// entry's name (an alias would be ignored), and no ecosystem is unknown.
func TestPackaged(t *testing.T) {
	for name, ecos := range packaged {
		p := Lookup(name)
		if p == nil || p.Name != name {
			t.Errorf("packaged[%q] is not an entry's name", name)
			continue
		}
		for _, e := range ecos {
			if e != Node && e != Python {
				t.Errorf("packaged[%q] has ecosystem %d", name, e)
			}
		}
		if !slices.Equal(p.Packages, ecos) {
			t.Errorf("%s: Packages = %v, want %v (table_gen.go is stale: go generate)", name, p.Packages, ecos)
		}
	}
}
