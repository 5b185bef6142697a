package testcase

import (
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The fields of a stub hold the results of its methods.
func TestStubResultFields(t *testing.T) {
	errT := types.Universe.Lookup("error").Type()
	str, byts := types.Typ[types.String], types.NewSlice(types.Universe.Lookup("byte").Type())
	tuple := func(ts ...types.Type) *types.Tuple {
		var vs []*types.Var
		for _, t := range ts {
			vs = append(vs, types.NewParam(0, nil, "", t))
		}
		return types.NewTuple(vs...)
	}
	cases := []struct {
		methods int
		results *types.Tuple
		want    []string
	}{
		{1, tuple(), nil},
		{1, tuple(byts, errT), []string{"Result", "Err"}},
		{1, tuple(str, str, errT, errT), []string{"Result", "Result2", "Err", "Err2"}},
		{2, tuple(byts, errT), []string{"MarshalTextResult", "MarshalTextErr"}},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, resultFields(tc.methods, "MarshalText", tc.results))
	}
	// A field may not take the name of the method: Err() error.
	assert.Equal(t, []string{"ErrErr"}, resultFields(1, "Err", tuple(errT)))
	assert.Equal(t, []string{"ResultResult"}, resultFields(1, "Result", tuple(str)))
	assert.Equal(t, []string{"Result"}, resultFields(1, "Error", tuple(str)))
}

// A stub's Read or Write returns a count within 0 <= n <= len(p), as
// io.Reader and io.Writer require, whatever its field holds; its other
// methods return their fields as they are.
func TestStubCountsWithinBuffer(t *testing.T) {
	pkg := types.NewPackage("example.com/x_test", "x_test")
	errT, intT := types.Universe.Lookup("error").Type(), types.Typ[types.Int]
	byts := types.NewSlice(types.Universe.Lookup("byte").Type())
	method := func(name string, params, results []types.Type) *types.Func {
		vars := func(ts []types.Type) *types.Tuple {
			var vs []*types.Var
			for _, t := range ts {
				vs = append(vs, types.NewParam(0, nil, "", t))
			}
			return types.NewTuple(vs...)
		}
		return types.NewFunc(0, nil, name, types.NewSignatureType(nil, nil, nil, vars(params), vars(results), false))
	}
	rc := types.NewInterfaceType([]*types.Func{
		method("Read", []types.Type{byts}, []types.Type{intT, errT}),
		method("ReadAt", []types.Type{byts, types.Typ[types.Int64]}, []types.Type{intT, errT}),
		method("Close", nil, []types.Type{errT}),
	}, nil).Complete()
	stubs := stubTypes(pkg, []types.Type{rc}, pkg)
	if !assert.Len(t, stubs, 1) {
		return
	}
	src := stubMethodsSource(stubs[0], func(t types.Type) string { return types.TypeString(t, nil) })
	name := stubs[0].Obj().Name()
	assert.Equal(t, `
func (s `+name+`) Close() error {
	return s.CloseErr
}

func (s `+name+`) Read(p []byte) (int, error) {
	n := s.ReadResult
	if n > len(p) {
		n = len(p)
	}
	if n < 0 {
		n = 0
	}
	return n, s.ReadErr
}

func (s `+name+`) ReadAt(p []byte, _ int64) (int, error) {
	n := s.ReadAtResult
	if n > len(p) {
		n = len(p)
	}
	if n < 0 {
		n = 0
	}
	return n, s.ReadAtErr
}
`, src)
}
