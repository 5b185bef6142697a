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
