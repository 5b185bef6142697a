package mosa

import (
	"fmt"
	"math"
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCrossoversAreListedByName(t *testing.T) {
	var names []string
	for _, e := range Crossovers() {
		names = append(names, e.Name)
	}
	assert.Equal(t, []string{"hmx", "single-point"}, names)
	assert.Equal(t, "hmx", DefaultConfig().Crossover, "the default")
	c, err := LookupCrossover("single-point")
	require.NoError(t, err)
	assert.Equal(t, singlePoint{}, c)
}

// NewCrossover configures the operator cfg names with the settings of cfg.
func TestNewCrossover(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Crossover = "single-point"
	c, err := NewCrossover(cfg)
	require.NoError(t, err)
	assert.Equal(t, singlePoint{}, c)
	cfg.Crossover = "hmx"
	c, err = NewCrossover(cfg)
	require.NoError(t, err)
	assert.Equal(t, hybrid{dataRate: 1}, c)
	cfg.DataCrossoverRate = 0.25
	c, err = NewCrossover(cfg)
	require.NoError(t, err)
	assert.Equal(t, hybrid{dataRate: 0.25}, c)
	for _, p := range []float64{-0.5, 1.01, math.NaN()} {
		cfg.DataCrossoverRate = p
		_, err = NewCrossover(cfg)
		assert.EqualError(t, err, fmt.Sprintf("data-level crossover probability %g is outside [0, 1]", p))
	}
	cfg.Crossover = "uniform"
	_, err = NewCrossover(cfg)
	assert.EqualError(t, err, `unknown crossover operator "uniform": use hmx or single-point`)
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

// HMX crosses statements as single-point crossover does and then changes
// only the values of literals: the children have single-point's
// statements and references. With data-level probability 0 it is
// single-point crossover, draw for draw.
func TestHybridRecombinesOnlyValues(t *testing.T) {
	g := generatorFor(t, "cpubound", "./calc", "./lexer", 3)
	changed := 0
	for i := 0; i < 200; i++ {
		a, b := g.RandomTest(), g.RandomTest()
		g.Mutate(a)
		seed := int64(i)
		g.Rnd.Seed(seed)
		s1, s2 := singlePoint{}.Cross(g, a, b)
		after := g.Rnd.Int63()
		g.Rnd.Seed(seed)
		o1, o2 := hybrid{dataRate: 0}.Cross(g, a, b)
		assert.Equal(t, [2]string{s1.String(), s2.String()}, [2]string{o1.String(), o2.String()})
		assert.Equal(t, after, g.Rnd.Int63(), "the same draws")

		g.Rnd.Seed(seed)
		h1, h2 := hybrid{dataRate: 1}.Cross(g, a, b)
		for _, p := range [][2]*testcase.Test{{s1, h1}, {s2, h2}} {
			require.NoError(t, p[1].Valid())
			require.Equal(t, p[0].Len(), p[1].Len())
			for k, s := range p[0].Stmts {
				h := p[1].Stmts[k]
				assert.Same(t, s.Op, h.Op)
				assert.Equal(t, s.Args, h.Args)
				if s.Value != h.Value {
					assert.Equal(t, testcase.OpPrim, s.Op.Kind)
					changed++
				}
			}
		}
	}
	assert.Positive(t, changed, "data-level crossover changed some literals")
}

// BenchmarkCrossover measures each operator on pairs of random tests of
// the cpubound fixture (calc, a parser, calling lexer): one iteration is
// one crossover of two parents, the unit a generation repeats about
// Population·CrossoverRate/2 times.
func BenchmarkCrossover(b *testing.B) {
	g := generatorFor(b, "cpubound", "./calc", "./lexer", 1)
	parents := make([]*testcase.Test, 256)
	for i := range parents {
		parents[i] = g.RandomTest()
		g.Mutate(parents[i])
	}
	for _, e := range Crossovers() {
		c, err := LookupCrossover(e.Name)
		require.NoError(b, err)
		b.Run(e.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c.Cross(g, parents[i%len(parents)], parents[(i*7+1)%len(parents)])
			}
		})
	}
}
