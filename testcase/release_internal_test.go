package testcase

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The release method of a type: one that takes nothing before one that
// takes a context, Close before Release, Stop and Shutdown, and only with
// no result or an error.
func TestReleaseMethod(t *testing.T) {
	const src = `package p

import "context"

type Pool struct{}
func (*Pool) Release() {}
func (*Pool) ReleaseContext(context.Context) error { return nil }

type Multi struct{}
func (*Multi) ReleaseTimeout(int) error { return nil }
func (*Multi) ReleaseContext(context.Context) error { return nil }

type File struct{}
func (*File) Stop() error { return nil }
func (*File) Close() error { return nil }

type Server struct{}
func (Server) Shutdown(context.Context) error { return nil }

type Counter struct{}
func (*Counter) Close() int { return 0 }
func (*Counter) Stop(int) {}

type Closer interface{ Close() error }

type Value struct{}
func (*Value) Close() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	named := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	for _, tc := range []struct {
		typ  types.Type
		want string
	}{
		{types.NewPointer(named("Pool")), "Release"},
		{types.NewPointer(named("Multi")), "ReleaseContext"},
		{types.NewPointer(named("File")), "Close"},
		{named("Server"), "Shutdown"},
		{types.NewPointer(named("Counter")), ""},
		{named("Closer"), "Close"},
		{named("Value"), ""}, // Close is a method of *Value only
		{types.Typ[types.Int], ""},
	} {
		got := ""
		if m := ReleaseMethod(tc.typ); m != nil {
			got = m.Name()
		}
		assert.Equal(t, tc.want, got, tc.typ.String())
	}
}
