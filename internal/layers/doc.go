// Package layers holds the test that keeps cling's packages in one-way
// pipeline order: it lists the module's packages with go list and fails
// when a package imports one later in the pipeline, when a package of the
// pipeline before the gate imports the mutation branch beside it, or when
// a package appears that the order does not place. The order, one stage
// per line, is in layers_test.go; docs/architecture.md explains it. The
// package has no code of its own.
package layers
