//go:build !tablesrc

package effects

// generatedTable: the tests run against the generated table (table_gen.go),
// which carries the option indexes the generator writes.
const generatedTable = true
