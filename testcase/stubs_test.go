package testcase_test

import (
	"go/types"
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encode asserts its argument to its own Marshaler (comma-ok) and to
// fmt.Stringer (a type switch case): the test declares a stub of each,
// whose methods return its fields, and the stubs build values of the
// interfaces and of the pool.
func TestStubs(t *testing.T) {
	c := cluster(t, "reflective", "./encode", "./scan")
	_ = c.OpNamed("encode.Encode") // the pool is built with the cluster
	var stubs []*types.Named
	for _, d := range c.Declared {
		if testcase.IsStub(d) {
			stubs = append(stubs, d)
		}
	}
	require.Len(t, stubs, 2)
	assert.Equal(t, "type stubMarshaler struct {\n\tResult []byte\n\tErr error\n}\n\n"+
		"func (s stubMarshaler) MarshalDoc() ([]byte, error) {\n\treturn s.Result, s.Err\n}\n",
		testcase.DeclSource(stubs[0], typeText))
	assert.Equal(t, "type stubStringer struct {\n\tResult string\n}\n\n"+
		"func (s stubStringer) String() string {\n\treturn s.Result\n}\n",
		testcase.DeclSource(stubs[1], typeText))
	assert.False(t, testcase.IsStub(c.Declared[0]), "item1 has no methods")

	var pool []string
	for _, p := range c.Pool {
		pool = append(pool, typeText(p))
	}
	assert.Contains(t, pool, "stubMarshaler")
	assert.NotContains(t, pool, "*stubMarshaler", "a stub's pointer adds nothing to the pool")

	marshaler := c.Caller.Types.Scope().Lookup("Marshaler").Type()
	assert.Equal(t, []string{"nil encode.Marshaler", "{} stubMarshaler"}, names(c.Producers(marshaler)))

	// The goals behind `if m, ok := v.(Marshaler); ok` ask for a
	// Marshaler, those behind the type switch's case for a fmt.Stringer.
	var all []int32
	for g := int32(0); g < 44; g++ {
		all = append(all, g)
	}
	var asked []string
	for _, ask := range c.Preference(all).Asks {
		for _, typ := range ask.Types {
			asked = append(asked, typeText(typ))
		}
	}
	assert.ElementsMatch(t, []string{"encode.Marshaler", "fmt.Stringer"}, asked)
}
