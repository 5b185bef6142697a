package probe

import (
	"go/ast"
	"go/token"
)

// RuntimeSource returns the source of one file of the probe runtime
// (probe/rt), for instance table.go to install the runtime without branch
// probes, or mutant.go to type-check code that calls the mutant helpers.
func RuntimeSource(name string) ([]byte, error) {
	return runtimeFS.ReadFile("rt/" + name)
}

// RaiseVersion makes the rewritten source src of file f (positions in tf,
// path its name) compile as at least go1.21, the language version the
// generic runtime helpers need, keeping every position exact; fileVersion
// is the file's Go version. Files that are already newer are returned as
// they are.
func RaiseVersion(src []byte, f *ast.File, tf *token.File, fileVersion, path string) ([]byte, error) {
	return raiseVersion(src, f, tf, fileVersion, path)
}
