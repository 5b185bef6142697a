//go:build go1.21

package rt

// generatedTable is replaced, in instrumented builds, by a generated
// table.go that describes the pair under test. Without one the runtime
// records nothing.
var generatedTable *Table
