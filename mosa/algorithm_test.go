package mosa

import (
	"context"
	"slices"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAlgorithmsAreListedByName(t *testing.T) {
	var names []string
	for _, a := range Algorithms() {
		names = append(names, a.Name)
		assert.NotEmpty(t, a.Doc, a.Name)
	}
	assert.Equal(t, []string{"dynamosa", "mosa", "onegoal", "random", "ws", "wsa"}, names)
	_, err := Lookup(DefaultAlgorithm)
	assert.NoError(t, err)
	_, err = New("hill-climbing", DefaultConfig())
	assert.EqualError(t, err, `unknown algorithm "hill-climbing": use dynamosa, mosa, onegoal, random, ws or wsa`)
	_, err = New("mosa", Config{Population: 1})
	assert.EqualError(t, err, "mosa: population 1 is below 2")
	cfg := DefaultConfig()
	cfg.Crossover = "uniform"
	_, err = New("mosa", cfg)
	assert.EqualError(t, err, `mosa: unknown crossover operator "uniform": use hmx or single-point`)
}

func TestRegistry(t *testing.T) {
	r := newRegistry[int]("operator")
	_, err := r.lookup("x")
	assert.EqualError(t, err, `unknown operator "x": none is registered`)
	r.register("b", "the second", 2)
	r.register("a", "the first", 1)
	r.register("c", "the third", 3)
	assert.Equal(t, []Entry{{"a", "the first"}, {"b", "the second"}, {"c", "the third"}}, r.list())
	v, err := r.lookup("b")
	require.NoError(t, err)
	assert.Equal(t, 2, v)
	_, err = r.lookup("d")
	assert.EqualError(t, err, `unknown operator "d": use a, b or c`)
	assert.PanicsWithValue(t, `mosa: operator "a" registered twice`, func() { r.register("a", "again", 4) })
	assert.Panics(t, func() { r.register("two words", "", 5) })
}

func TestOrList(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b"}, "a or b"},
		{[]string{"a", "b", "c"}, "a, b or c"},
	} {
		assert.Equal(t, tc.want, orList(tc.names))
	}
}

// covering is an evaluator whose tests cover the given goals in every run;
// it counts the tests it runs.
type covering struct {
	goals []int32
	runs  int
}

func (e *covering) Run(_ context.Context, tests []*testcase.Test, _ bool) ([]harness.Result, error) {
	out := make([]harness.Result, len(tests))
	for i := range tests {
		out[i] = harness.Result{Trace: &rt.Trace{Covered: e.goals, Cost: rt.Cost{Stmts: uint64(10 * tests[i].Len())}}}
	}
	e.runs += len(tests)
	return out, nil
}

// flat scores every goal a test does not cover the same.
type flat struct{}

func (flat) Evaluate(tr *rt.Trace, goals []int32, out []float64) {
	for i, g := range goals {
		out[i] = 1
		if tr != nil && slices.Contains(tr.Covered, g) {
			out[i] = 0
		}
	}
}

func (flat) Worst() float64 { return 3 }

// Progress reports that the test reached nothing.
func (flat) Progress(_ *rt.Trace, goals []int32, out []fitness.Progress) {
	clear(out[:len(goals)])
}

// generator returns a generator with seed 1 for the personcar fixture.
func generator(t *testing.T) *testcase.Generator {
	return generatorFor(t, "personcar", "./person", "./car", 1)
}

// generatorFor returns a generator with the given seed for a fixture pair.
func generatorFor(t testing.TB, fix, caller, callee string, seed int64) *testcase.Generator {
	dir := fixture.Copy(t, fix)
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	return testcase.NewGenerator(testcase.NewCluster(a, 4), testcase.DefaultConfig(), seed)
}

// An evaluation budget is spent exactly, in the algorithm's batches: MOSA
// evaluates a population of 50, then generations of 50 offspring, the
// last cut to what is left; random search batches of 64; the whole-suite
// algorithms' first population of 50 suites has more than 120 tests.
func TestAlgorithmsSpendTheBudget(t *testing.T) {
	g := generator(t)
	for _, tc := range []struct {
		algorithm   string
		generations int
	}{
		{"mosa", 2},
		{"dynamosa", 2},
		{"onegoal", 2}, // 60 evaluations per goal: 50, then 10
		{"random", 0},
		{"ws", 0},
		{"wsa", 0},
	} {
		ev := &covering{}
		e := &Engine{Exec: ev, Gen: g, Objectives: flat{}, Goals: 2, Budget: Budget{MaxEvals: 120}}
		archive, st, err := e.Run(context.Background(), tc.algorithm, DefaultConfig())
		require.NoError(t, err, tc.algorithm)
		assert.Equal(t, 0, archive.Len(), tc.algorithm)
		assert.Equal(t, tc.algorithm, st.Algorithm)
		assert.Equal(t, 120, st.Evaluations, tc.algorithm)
		if tc.algorithm == "ws" {
			assert.Greater(t, ev.runs, 120, "ws runs its best suite once more")
		} else {
			assert.Equal(t, 120, ev.runs, tc.algorithm)
		}
		assert.Equal(t, tc.generations, st.Generations, tc.algorithm)
		assert.Equal(t, 2, st.Goals, tc.algorithm)
	}
}

// The search stops when every goal is covered: here by the first batch,
// whose tests the engine runs four more times each to confirm them (the
// whole-suite algorithms' first batch is their first population, and ws
// runs its best suite again at the end).
func TestAlgorithmsStopWhenEveryGoalIsCovered(t *testing.T) {
	g := generator(t)
	for _, algorithm := range []string{"mosa", "dynamosa", "onegoal", "random", "ws", "wsa"} {
		ev := &covering{goals: []int32{0, 1}}
		e := &Engine{Exec: ev, Gen: g, Objectives: flat{}, Goals: 2, Budget: Budget{MaxEvals: 1000}}
		archive, st, err := e.Run(context.Background(), algorithm, DefaultConfig())
		require.NoError(t, err, algorithm)
		assert.Equal(t, 2, archive.Len(), algorithm)
		assert.Equal(t, 2, st.Covered, algorithm)
		assert.Equal(t, 0, st.Generations, algorithm)
		if batch, ok := map[string]int{"mosa": 50, "dynamosa": 50, "onegoal": 50, "random": randomBatch}[algorithm]; ok {
			assert.Equal(t, batch, st.Evaluations, algorithm)
			assert.Equal(t, batch*(1+confirmRuns), ev.runs, algorithm)
		}
	}
}

// asideLast is flat with its last goal set aside (Targets).
type asideLast struct {
	flat
	goals int32
}

func (a asideLast) Target(g int32) bool { return g < a.goals-1 }

// A goal set aside does not hold the search: covering the two targets
// ends it, and the statistics count the targets alone. A test that covers
// it is archived for it all the same, and it is never an objective.
func TestGoalsSetAside(t *testing.T) {
	g := generator(t)
	for _, algorithm := range []string{"mosa", "dynamosa", "onegoal", "random", "ws", "wsa"} {
		e := &Engine{Exec: &covering{goals: []int32{0, 1}}, Gen: g, Objectives: asideLast{goals: 3}, Goals: 3, Budget: Budget{MaxEvals: 1000}}
		archive, st, err := e.Run(context.Background(), algorithm, DefaultConfig())
		require.NoError(t, err, algorithm)
		assert.Equal(t, 2, archive.Len(), algorithm)
		assert.Equal(t, 2, st.Goals, algorithm)
		assert.Equal(t, 2, st.Covered, algorithm)
		assert.Equal(t, 0, st.Generations, algorithm)

		e = &Engine{Exec: &covering{goals: []int32{0, 2}}, Gen: g, Objectives: asideLast{goals: 3}, Goals: 3, Budget: Budget{MaxEvals: 200}}
		archive, st, err = e.Run(context.Background(), algorithm, DefaultConfig())
		require.NoError(t, err, algorithm)
		assert.True(t, archive.Covered(2), algorithm)
		assert.Equal(t, 1, st.Covered, algorithm)
		assert.Equal(t, []int32{1}, e.Uncovered(), algorithm)
		assert.Equal(t, []int32{0, 1}, e.Targets(), algorithm)
		assert.Equal(t, 200, st.Evaluations, algorithm)
	}
}

// New tests are made from the archive's tests that hold a goal the
// search pursues, in the order of the first such goal: one kept only for
// a goal set aside is no breeder.
func TestBreedersHoldTargets(t *testing.T) {
	ts := tests(3)
	e := &Engine{Objectives: asideLast{goals: 4}, Goals: 4, archive: NewArchive()}
	e.archive.Update(ts[0], 0, []int32{3}, 1)    // goal 3, set aside
	e.archive.Update(ts[1], 0, []int32{1, 3}, 2) // holds 1: no shorter than ts[0] for 3
	e.archive.Update(ts[2], 0, []int32{0}, 3)
	var got []*testcase.Test
	for _, b := range e.Breeders() {
		got = append(got, b.Test)
	}
	assert.Equal(t, []*testcase.Test{ts[2], ts[1]}, got)
	assert.Len(t, e.archive.Tests(), 3)
}

func TestGeneticAlgorithmsNeedObjectives(t *testing.T) {
	for _, algorithm := range []string{"mosa", "dynamosa", "onegoal", "ws", "wsa"} {
		e := &Engine{Exec: &covering{}, Gen: generator(t), Goals: 1, Budget: Budget{MaxEvals: 10}}
		_, _, err := e.Run(context.Background(), algorithm, DefaultConfig())
		assert.Error(t, err, algorithm)
	}
	// The whole-suite algorithms need the tests' progress besides.
	for _, algorithm := range []string{"ws", "wsa"} {
		e := &Engine{Exec: &covering{}, Gen: generator(t), Objectives: scoresOnly{}, Goals: 1, Budget: Budget{MaxEvals: 10}}
		_, _, err := e.Run(context.Background(), algorithm, DefaultConfig())
		assert.ErrorIs(t, err, errNoProgress, algorithm)
	}
}

// scoresOnly are objectives without progress.
type scoresOnly struct{}

func (scoresOnly) Evaluate(_ *rt.Trace, goals []int32, out []float64) { clear(out[:len(goals)]) }

func (scoresOnly) Worst() float64 { return 3 }

// firstPrimary is flat with only its first goal primary (Primaries).
type firstPrimary struct{ flat }

func (firstPrimary) Primary(g int32) bool { return g == 0 }

// Survival learns which objectives are primary from the objectives: none
// marked when they do not tell, or when every one is primary.
func TestPrimaryMarksFollowTheObjectives(t *testing.T) {
	e := &Engine{Objectives: flat{}}
	assert.Nil(t, e.primary([]int32{0, 1, 2}))
	e.Objectives = firstPrimary{}
	assert.Equal(t, []bool{false, true, false}, e.primary([]int32{2, 0, 1}))
	assert.Nil(t, e.primary([]int32{0}), "all primary")
}
