package testcase

import (
	"fmt"
	"go/types"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
)

func stringTest(values ...any) *Test {
	lit := &Op{Kind: OpPrim, Name: "lit string", Type: types.Typ[types.String]}
	t := &Test{}
	for _, v := range values {
		t.Stmts = append(t.Stmts, Stmt{Op: lit, Value: v})
	}
	return t
}

// Learn keeps each non-empty string literal once, in the order the tests
// came, and only strings; once full, the oldest make room.
func TestLearn(t *testing.T) {
	g := &Generator{}
	g.Learn(stringTest("a: 1", "", "$.a"))
	g.Learn(stringTest("$.a", int64(3), "b: [x]"))
	assert.Equal(t, []string{"a: 1", "$.a", "b: [x]"}, g.Learned())

	g = &Generator{}
	for i := 0; i < maxLearned+2; i++ {
		g.Learn(stringTest(fmt.Sprint(i)))
	}
	got := g.Learned()
	assert.Len(t, got, maxLearned)
	assert.Equal(t, []string{fmt.Sprint(maxLearned), fmt.Sprint(maxLearned + 1), "2"}, got[:3])
	g.Learn(stringTest("0")) // forgotten, so learned again
	assert.Equal(t, "0", g.Learned()[2])
}

// A string drawn from the constants is a learned one with probability
// LearnedShare, a literal of R and E otherwise, and whichever pool is
// not empty when the other is.
func TestConstantStringDrawsLearned(t *testing.T) {
	cfg := DefaultConfig()
	g := &Generator{C: &Cluster{Constants: Constants{Strings: []string{"lit"}}}, Cfg: cfg, Rnd: rand.New(rand.NewSource(1))}
	s, ok := g.constantString()
	assert.True(t, ok)
	assert.Equal(t, "lit", s)

	g.Learn(stringTest("doc"))
	learned := 0
	for i := 0; i < 1000; i++ {
		s, _ := g.constantString()
		if s == "doc" {
			learned++
		}
	}
	assert.InDelta(t, 500, learned, 60)

	g.C.Constants.Strings = nil
	s, ok = g.constantString()
	assert.Equal(t, "doc", s)
	assert.True(t, ok)

	_, ok = (&Generator{C: &Cluster{}, Cfg: cfg, Rnd: rand.New(rand.NewSource(1))}).constantString()
	assert.False(t, ok)
}

// A splice inserts a whole learned string, at the end or elsewhere, and
// never makes a string longer than maxSpliced.
func TestSplice(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Splice = 1
	g := &Generator{Cfg: cfg, Rnd: rand.New(rand.NewSource(1))}
	_, ok := g.splice([]byte("ab"))
	assert.False(t, ok, "nothing learned")

	g.Learn(stringTest("XY"))
	seen := map[string]int{}
	for i := 0; i < 400; i++ {
		out, ok := g.splice([]byte("ab"))
		assert.True(t, ok)
		seen[string(out)]++
	}
	assert.ElementsMatch(t, []string{"XYab", "aXYb", "abXY"}, keys(seen))
	assert.Greater(t, seen["abXY"], 200, "the end half of the time, and sometimes by the random place")

	long := make([]byte, maxSpliced-1)
	_, ok = g.splice(long)
	assert.False(t, ok)

	cfg.Splice = 0
	g.Cfg = cfg
	_, ok = g.splice([]byte("ab"))
	assert.False(t, ok)
}

func keys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
