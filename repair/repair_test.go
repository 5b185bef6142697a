package repair_test

import (
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/repair"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func generator(t *testing.T) *testcase.Generator {
	dir := fixture.Copy(t, "shop")
	prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./checkout", "./pricing"}})
	require.NoError(t, err)
	a, err := couple.Analyze(prog, "example.com/shop/checkout", "example.com/shop/pricing")
	require.NoError(t, err)
	return testcase.NewGenerator(testcase.NewCluster(a, 4), testcase.DefaultConfig(), 1)
}

// withoutCovering removes every covering call (and what depends on it).
func withoutCovering(tc *testcase.Test) *testcase.Test {
	t := tc.Clone()
	for i := t.Len() - 1; i >= 0; i-- {
		if i < t.Len() && t.Stmts[i].Op.Covering {
			t.Remove(i)
		}
	}
	return t
}

func TestMutationRepairInsertsCoveringCall(t *testing.T) {
	g := generator(t)
	var c repair.Counts
	repaired, dropped := 0, 0
	for i := 0; i < 50; i++ {
		broken := withoutCovering(g.RandomTest())
		require.False(t, broken.HasCovering())
		if repair.Mutation(g, broken, 50, &c) {
			repaired++
			assert.True(t, broken.HasCovering())
			require.NoError(t, broken.Valid())
		} else {
			dropped++
		}
	}
	assert.Equal(t, repaired, c.Repaired)
	assert.Equal(t, dropped, c.Dropped)
	assert.Positive(t, repaired)

	var none repair.Counts
	ok := g.RandomTest()
	assert.True(t, repair.Mutation(g, ok, 50, &none), "a test with a covering call needs no repair")
	assert.Equal(t, repair.Counts{}, none)
}

func TestMutationRepairGivesUp(t *testing.T) {
	g := generator(t)
	var c repair.Counts
	broken := withoutCovering(g.RandomTest())
	assert.False(t, repair.Mutation(g, broken, 0, &c), "no attempts left: dropped")
	assert.Equal(t, 1, c.Dropped)
}

func TestCrossoverRepairReplacesByParent(t *testing.T) {
	g := generator(t)
	var c repair.Counts
	parent := g.RandomTest()
	child := withoutCovering(parent)
	got := repair.Crossover(child, parent, &c)
	assert.Equal(t, parent.String(), got.String())
	assert.NotSame(t, parent, got)
	assert.Equal(t, 1, c.Replaced)
	assert.Same(t, parent, repair.Crossover(parent, child, &c), "a child with a covering call stays")
}
