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

// A type parameter constrained by a type built from the others gets that
// type with their arguments in place, whatever it is built with; one
// constrained otherwise gets nothing.
func TestBuiltFromTypeParams(t *testing.T) {
	const src = `package p

type Pair[A, B any] struct{ a A; b B }

func Slice[T any, S ~[]T](S)                       {}
func Map[K comparable, V any, M ~map[K]V](M)       {}
func Seq[T any, I ~func(func(T) bool)](I)          {}
func Yield[T any, F ~func(T) (T, error)](F)        {}
func Chan[T any, C ~chan *T](C)                    {}
func Named[A, B any, P ~struct{ p Pair[A, B] }](P) {}
func Plain[T ~int | ~string](T)                    {}
func Two[T any, S ~[]T | ~[2]T](S)                 {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	for _, tc := range []struct {
		fn    string
		args  []types.Type // the arguments of the other type parameters
		built bool         // whether the last one's constraint is built from them
		want  string       // its argument; "" for none
	}{
		{"Slice", []types.Type{types.Typ[types.Int]}, true, "[]int"},
		{"Map", []types.Type{types.Typ[types.String], types.Typ[types.Bool]}, true, "map[string]bool"},
		{"Seq", []types.Type{types.Typ[types.Int]}, true, "func(func(int) bool)"},
		{"Yield", []types.Type{types.Typ[types.String]}, true, "func(string) (string, error)"},
		{"Chan", []types.Type{types.Typ[types.Int]}, true, "chan *int"},
		// A struct is not rebuilt.
		{"Named", []types.Type{types.Typ[types.Int], types.Typ[types.String]}, true, ""},
		{"Plain", nil, false, ""},
		{"Two", []types.Type{types.Typ[types.Int]}, false, ""},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			tps := pkg.Scope().Lookup(tc.fn).Type().(*types.Signature).TypeParams()
			last := tps.At(tps.Len() - 1)
			built := builtFromTypeParams(last)
			if !tc.built {
				assert.Nil(t, built)
				return
			}
			require.NotNil(t, built)
			got := substTypeParams(built, tps, append(tc.args, nil))
			if tc.want == "" {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.want, types.TypeString(got, nil))
			_, err := types.Instantiate(nil, pkg.Scope().Lookup(tc.fn).Type(), append(tc.args, got), true)
			assert.NoError(t, err, "the built type satisfies the constraint")
		})
	}
}
