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
