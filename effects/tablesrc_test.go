//go:build tablesrc

package effects

// generatedTable: the tests run against the table built from its sources
// (binaries_*.go), which has no option indexes.
const generatedTable = false
