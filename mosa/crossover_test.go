package mosa

import (
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCrossoversAreListedByName(t *testing.T) {
	require.Len(t, Crossovers(), 1)
	assert.Equal(t, DefaultCrossover, Crossovers()[0].Name)
	c, err := LookupCrossover(DefaultConfig().Crossover)
	require.NoError(t, err)
	assert.Equal(t, singlePoint{}, c)
}

// Single-point crossover draws a cut in a, then one in b; the children are
// a's head with b's tail and b's head with a's tail. Literals reference
// nothing, so here the tails need no repair.
func TestSinglePointCutsEachParentOnce(t *testing.T) {
	g := generator(t)
	ops := map[string]*testcase.Op{}
	for _, op := range g.C.Ops {
		ops[op.Name] = op
	}
	lit := func(name string, v any) testcase.Stmt { return testcase.Stmt{Op: ops[name], Value: v} }
	a := &testcase.Test{Stmts: []testcase.Stmt{lit("lit int", int64(1)), lit("lit int", int64(2)), lit("lit int", int64(3))}}
	b := &testcase.Test{Stmts: []testcase.Stmt{lit("lit bool", true), lit("lit bool", false)}}
	join := func(head, tail []testcase.Stmt) string {
		return (&testcase.Test{Stmts: append(append([]testcase.Stmt(nil), head...), tail...)}).String()
	}
	cuts := map[[2]int]bool{}
	for seed := int64(0); seed < 40; seed++ {
		g.Rnd.Seed(seed)
		c1, c2 := singlePoint{}.Cross(g, a, b)
		g.Rnd.Seed(seed)
		ca, cb := g.Rnd.Intn(a.Len()+1), g.Rnd.Intn(b.Len()+1)
		cuts[[2]int{ca, cb}] = true
		assert.Equal(t, join(a.Stmts[:ca], b.Stmts[cb:]), c1.String(), "cuts %d, %d", ca, cb)
		assert.Equal(t, join(b.Stmts[:cb], a.Stmts[ca:]), c2.String(), "cuts %d, %d", ca, cb)
	}
	assert.Len(t, cuts, 12, "every pair of cuts occurs")
}

// Children are valid tests within MaxLen, whatever the parents: the
// references of each tail are repaired.
func TestSinglePointChildrenAreValid(t *testing.T) {
	g := generatorFor(t, "constructs", "./caller", "./callee", 7)
	for i := 0; i < 200; i++ {
		a, b := g.RandomTest(), g.RandomTest()
		g.Mutate(a)
		c1, c2 := singlePoint{}.Cross(g, a, b)
		for _, c := range []*testcase.Test{c1, c2} {
			require.NoError(t, c.Valid(), "child of\n%s\nand\n%s:\n%s", a, b, c)
			assert.LessOrEqual(t, c.Len(), g.Cfg.MaxLen)
		}
	}
}
