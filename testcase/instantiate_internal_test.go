package testcase

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
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

// A generic constructor makes a value of an instantiated type with the
// type arguments the type has, wherever they stand in its result; a type
// parameter the result does not mention is derived from the others when
// its constraint is built from them, and leaves no instantiation
// otherwise. Only a generic named type, or a pointer to one, is made so.
func TestResultTypeArgs(t *testing.T) {
	const src = `package p

type Box[T any] struct{}
type Pair[A, B any] struct{}

func NewBox[T any]() *Box[T]                    { return nil }
func NewPair[A, B any]() (Pair[B, A], error)     { return Pair[B, A]{}, nil }
func Same[T any]() Pair[T, T]                     { return Pair[T, T]{} }
func Hidden[T, U any]() *Box[T]                   { return nil }
func Index[T any, S ~[]T]() *Pair[string, T]      { return nil }
func Elems[T any]() []T                           { return nil }
func Max[T int | string](a, b T) T                { return a }
func Unwrap[T any](b Box[Box[T]]) Box[T]          { return Box[T]{} }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
	require.NoError(t, err)
	inst := func(name string, args ...types.Type) types.Type {
		named, err := types.Instantiate(nil, pkg.Scope().Lookup(name).Type(), args, true)
		require.NoError(t, err)
		return named
	}
	integer, str := types.Typ[types.Int], types.Typ[types.String]
	for _, tc := range []struct {
		fn   string
		t    types.Type
		want string // the type arguments; "" for none
	}{
		{"NewBox", types.NewPointer(inst("Box", integer)), "[int]"},
		{"NewBox", inst("Box", integer), ""},
		{"NewBox", types.NewPointer(inst("Pair", integer, integer)), ""},
		{"NewPair", inst("Pair", str, integer), "[int string]"},
		{"Same", inst("Pair", integer, integer), "[int]"},
		{"Same", inst("Pair", integer, str), ""},
		{"Hidden", types.NewPointer(inst("Box", integer)), ""},
		{"Index", types.NewPointer(inst("Pair", str, integer)), "[int []int]"},
		{"Index", types.NewPointer(inst("Pair", integer, integer)), ""},
		{"Elems", types.NewSlice(types.Typ[types.Bool]), ""},
		{"Max", integer, ""},
	} {
		t.Run(tc.fn+" "+tc.t.String(), func(t *testing.T) {
			sig := pkg.Scope().Lookup(tc.fn).Type().(*types.Signature)
			targs := resultTypeArgs(sig, tc.t)
			if tc.want == "" {
				assert.Nil(t, targs)
				return
			}
			require.NotNil(t, targs)
			var got []string
			for _, a := range targs {
				got = append(got, types.TypeString(a, nil))
			}
			assert.Equal(t, tc.want, "["+strings.Join(got, " ")+"]")
		})
	}
	// Unwrap makes a Box[int] from a Box[Box[int]], which it would make
	// from a Box[Box[Box[int]]]: no way to make one.
	box := inst("Box", integer)
	unwrap := pkg.Scope().Lookup("Unwrap").Type()
	targs := resultTypeArgs(unwrap.(*types.Signature), box)
	require.Equal(t, []types.Type{integer}, targs)
	sig, err := types.Instantiate(nil, unwrap, targs, true)
	require.NoError(t, err)
	assert.True(t, needsItself(sig.(*types.Signature), box))
	newBox, err := types.Instantiate(nil, pkg.Scope().Lookup("NewBox").Type(), targs, true)
	require.NoError(t, err)
	assert.False(t, needsItself(newBox.(*types.Signature), types.NewPointer(box)))
}
