package testcase_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/golden"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typeText writes a type with package names, declared types bare.
func typeText(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if testcase.IsDeclaredPkg(p) {
			return ""
		}
		return p.Name()
	})
}

// The pool of the decoder pair, in its documented order: basics,
// composites (not *int, which only nil builds), the declared types and
// pointers to them, then the exported types of R, E and their imports
// (decode's MissingError; config declares none).
func TestPool(t *testing.T) {
	c := cluster(t, "reflective", "./config", "./decode")
	var got []string
	for _, p := range c.Pool {
		got = append(got, typeText(p))
	}
	assert.Equal(t, []string{
		"bool", "int", "int64", "uint", "float64", "string", "[]byte",
		"[]int", "[]string", "[3]int", "map[string]int", "map[int]string", "[]any", "map[string]any",
		"item1", "item2", "item3", "item4", "*item1", "*item2", "*item3", "*item4",
		"decode.MissingError",
	}, got)
	// The tag names of the declared fields seed strings.
	assert.Subset(t, c.Constants.Strings, []string{"name", "count", "value", "extra"})
}

// The declared types of the decoder pair carry the tag key decode reads
// ("cfg"), its option word "required", and "-" on the field to skip, as
// the executor and the emitted tests declare them.
func TestDeclaredGolden(t *testing.T) {
	c := cluster(t, "reflective", "./config", "./decode")
	var b strings.Builder
	for _, d := range c.Declared {
		b.WriteString(testcase.DeclSource(d, typeText) + "\n")
	}
	golden.File(t, "testcase/declared.reflective-config.go.golden", b.String())

	// Without tag keys in R and E, the same types without tags.
	c = cluster(t, "reflective", "./compare", "./walk")
	assert.Equal(t, "type item1 struct {\n\tName string\n\tCount int\n\tRatio float64\n\tEnabled bool\n\tTags []string\n\tAttrs map[string]string\n}\n",
		testcase.DeclSource(c.Declared[0], typeText))
	assert.Equal(t, []*types.Named{c.Declared[0], c.Declared[2]}, c.DeclaredIn(types.NewSlice(c.Declared[2])), "item3 holds item1s")
}

// Random tests and mutation on a pair with empty interfaces keep tests
// valid, use only registered operations, and draw values of many types
// of the pool.
func TestGenerationWithPool(t *testing.T) {
	c := cluster(t, "reflective", "./config", "./decode")
	n := len(c.Ops)
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	kinds := map[testcase.OpKind]int{}
	for i := 0; i < 500; i++ {
		tc := g.RandomTest()
		require.NoError(t, tc.Valid())
		for j := 0; j < 5; j++ {
			g.Mutate(tc)
			require.NoError(t, tc.Valid())
		}
		for _, s := range tc.Stmts {
			kinds[s.Op.Kind]++
		}
	}
	assert.Equal(t, n, len(c.Ops), "generation registered new operations")
	for _, k := range []testcase.OpKind{testcase.OpComposite, testcase.OpSlice, testcase.OpMap, testcase.OpPrim} {
		assert.Positive(t, kinds[k], "op kind %d", k)
	}
}
