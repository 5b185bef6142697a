package mosa

import (
	"context"
	"testing"

	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scoredTest is a test of length n with objectives and progress for the
// goals 0, 1, ...
func scoredTest(n int, fit []float64, prog []fitness.Progress) *scored {
	t := &scored{t: testOfLen(n)}
	for g := range fit {
		t.terms = append(t.terms, fitness.Term(fit[g], prog[g]))
	}
	return t
}

// A suite's fitness is Σ d(T, g) over the goals of the fitness, its
// length the statements of its tests.
func TestRateSumsTheGoalDistances(t *testing.T) {
	e := &Engine{Goals: 3}
	w := &wholeSuite{e: e}
	twice := fitness.Progress{Layer: fitness.CalleeLayer, Reached: [3]uint8{2, 2, 2}}
	once := fitness.Progress{Layer: fitness.CalleeLayer, Reached: [3]uint8{1, 1, 1}}
	s := &suite{tests: []*scored{
		// covers goal 0; 0.25 from goal 1, reached once; nowhere near goal 2
		scoredTest(2, []float64{0, 0.25, 3}, []fitness.Progress{twice, once, {}}),
		// reaches goal 1's callee branch once more, at 0.5
		scoredTest(3, []float64{0.5, 0.5, 3}, []fitness.Progress{twice, once, {}}),
	}}
	w.rate(s, allGoals(3))
	nu := func(x float64) float64 { return x / (x + 1) }
	assert.InDelta(t, 0+nu(0.25)+1, s.fitness, 1e-6)
	assert.Equal(t, 5, s.length)
	w.rate(s, []int32{1, 2})
	assert.InDelta(t, nu(0.25)+1, s.fitness, 1e-6, "goal 0 left the fitness")
}

// Suites are ranked by fitness, then length, and the best survive.
func TestFittest(t *testing.T) {
	a := &suite{fitness: 1, length: 9}
	b := &suite{fitness: 0.5, length: 20}
	c := &suite{fitness: 1, length: 3}
	assert.Equal(t, []*suite{b, c}, fittest([]*suite{a, b, c}, 2))
}

// Crossover swaps the tails after the same relative position; mutation
// keeps a suite within maxSuiteTests and replaces the tests it mutates by
// clones.
func TestSuiteVariation(t *testing.T) {
	e := &Engine{Gen: generator(t), Goals: 1}
	e.begin("ws")
	w := &wholeSuite{e: e, cfg: DefaultConfig(), newTest: e.Gen.RandomTest}
	var a, b suite
	for i := 0; i < 4; i++ {
		a.tests = append(a.tests, &scored{t: testOfLen(1)})
	}
	for i := 0; i < 8; i++ {
		b.tests = append(b.tests, &scored{t: testOfLen(2)})
	}
	for k := 0; k < 20; k++ {
		c1, c2 := w.crossover(&a, &b)
		assert.Equal(t, 12, len(c1.tests)+len(c2.tests))
		ca := 0
		for ca < len(c1.tests) && c1.tests[ca] == a.tests[ca] {
			ca++
		}
		cb := len(c2.tests) - (len(a.tests) - ca)
		assert.Equal(t, b.tests[cb:], c1.tests[ca:], "c1 is a's head and b's tail")
		assert.Equal(t, b.tests[:cb], c2.tests[:cb], "c2 is b's head and a's tail")
		assert.InDelta(t, float64(ca)/4, float64(cb)/8, 0.125+1e-9, "the same relative cut")
	}
	big := &suite{}
	for i := 0; i < maxSuiteTests; i++ {
		big.tests = append(big.tests, &scored{t: e.Gen.RandomTest()})
	}
	original := append([]*scored(nil), big.tests...)
	for k := 0; k < 20; k++ {
		w.mutate(big)
		assert.Len(t, big.tests, maxSuiteTests)
	}
	changed := 0
	for i := range original {
		if big.tests[i] != original[i] {
			changed++
			assert.Nil(t, big.tests[i].terms, "a mutated test is evaluated anew")
		}
	}
	assert.Positive(t, changed)
}

// Suites lose the tests the budget leaves unexecuted, and a suite without
// tests is dropped.
func TestEvaluateStopsAtTheBudget(t *testing.T) {
	e := &Engine{Exec: &covering{}, Gen: generator(t), Objectives: flat{}, Goals: 2, Budget: Budget{MaxEvals: 3}}
	e.begin("ws")
	w, err := newWholeSuite(e, DefaultConfig(), nil)
	require.NoError(t, err)
	s1 := &suite{tests: []*scored{{t: testOfLen(1)}, {t: testOfLen(1)}}}
	s2 := &suite{tests: []*scored{s1.tests[0], {t: testOfLen(1)}}}
	s3 := &suite{tests: []*scored{{t: testOfLen(1)}}}
	out, err := w.evaluate(context.Background(), []*suite{s1, s2, s3}, allGoals(2))
	require.NoError(t, err)
	assert.Equal(t, []*suite{s1, s2}, out)
	assert.Len(t, s1.tests, 2)
	assert.Len(t, s2.tests, 2, "its first test is s1's, executed once")
	assert.Equal(t, 3, e.stats.Evaluations)
	assert.Equal(t, int64(30), e.stats.Statements, "the statements the three executed tests ran")
	missed := fitness.Term(1, fitness.Progress{})
	assert.Equal(t, []fitness.SuiteTerm{missed, missed}, s1.tests[0].terms)
	assert.Equal(t, 2.0, s1.fitness, "both goals missed, never reached")
}

// WSA inserts covering calls of the covering functions whose goals are not
// all covered.
func TestFocusOnFunctionsNotFullyCovered(t *testing.T) {
	e := &Engine{Gen: generator(t), Goals: 3}
	e.begin("wsa")
	c := e.Gen.C
	covering := c.Covering
	t.Cleanup(func() { c.Covering = covering })
	f, g := &testcase.Op{Goals: []int32{0, 1}}, &testcase.Op{Goals: []int32{2}}
	c.Covering = []*testcase.Op{f, g}
	focus(e)
	assert.Equal(t, []*testcase.Op{f, g}, e.Gen.Focus)
	e.archive.Update(testOfLen(1), 0, []int32{0, 2}, 1)
	focus(e)
	assert.Equal(t, []*testcase.Op{f}, e.Gen.Focus)
	e.archive.Update(testOfLen(1), 0, []int32{1}, 2)
	focus(e)
	assert.Empty(t, e.Gen.Focus, "everything covered: no focus")
}

// byLength covers goal Len() mod goals with every test, in every run.
type byLength struct{ goals int }

func (b byLength) Run(_ context.Context, tests []*testcase.Test, _ bool) ([]harness.Result, error) {
	out := make([]harness.Result, len(tests))
	for i, t := range tests {
		out[i] = harness.Result{Trace: &rt.Trace{Covered: []int32{int32(t.Len() % b.goals)}}}
	}
	return out, nil
}

// reachedTwice are flat objectives whose tests reached every goal's
// callee branch twice.
type reachedTwice struct{ flat }

func (reachedTwice) Progress(_ *rt.Trace, goals []int32, out []fitness.Progress) {
	for i := range goals {
		out[i] = fitness.Progress{Layer: fitness.CalleeLayer, Reached: [3]uint8{2, 2, 2}}
	}
}

// Both whole-suite algorithms find a suite that covers every goal; the
// result of ws is its best suite, which covers them all.
func TestWholeSuiteAlgorithmsCoverEveryGoal(t *testing.T) {
	for _, algorithm := range []string{"ws", "wsa"} {
		e := &Engine{Exec: byLength{goals: 3}, Gen: generator(t), Objectives: reachedTwice{}, Goals: 3, Budget: Budget{MaxEvals: 5000}}
		archive, st, err := e.Run(context.Background(), algorithm, DefaultConfig())
		require.NoError(t, err, algorithm)
		assert.Equal(t, 3, archive.Len(), algorithm)
		assert.Equal(t, 3, st.Covered, algorithm)
		assert.Less(t, st.Evaluations, 5000, algorithm)
	}
}

// allGoals returns the goals 0 to n-1.
func allGoals(n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(i)
	}
	return out
}
