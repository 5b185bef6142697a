package mosa

import (
	"context"
	"testing"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scripted is an evaluator whose tests cover, on their k-th execution,
// what their script says.
type scripted struct {
	script map[*testcase.Test]func(k int) []int32
	runs   map[*testcase.Test]int
}

func (e *scripted) Run(_ context.Context, tests []*testcase.Test, _ bool) ([]harness.Result, error) {
	out := make([]harness.Result, len(tests))
	for i, t := range tests {
		out[i] = harness.Result{Trace: &rt.Trace{Covered: e.script[t](e.runs[t])}}
		e.runs[t]++
	}
	return out, nil
}

// A test that covered a goal twice by luck leaves the archive once the
// goal proves flaky; a test that covers it every time takes its place.
func TestFlakyGoalsNeedMoreConfirmations(t *testing.T) {
	always := func(gs ...int32) func(int) []int32 { return func(int) []int32 { return gs } }
	lucky := testOfLen(2)  // covers goal 0 on its first three runs only
	flaky := testOfLen(2)  // covers goal 0 on even runs
	stable := testOfLen(3) // covers goal 0 always
	ev := &scripted{runs: map[*testcase.Test]int{}, script: map[*testcase.Test]func(int) []int32{
		lucky: func(k int) []int32 {
			if k < 1+confirmRuns {
				return []int32{0, 1}
			}
			return []int32{1}
		},
		flaky: func(k int) []int32 {
			if k%2 == 0 {
				return []int32{0}
			}
			return nil
		},
		stable: always(0),
	}}
	s := &Engine{Exec: ev, Goals: 2}
	s.begin("test")
	ctx := context.Background()

	// The lucky test is confirmed by more runs and archived.
	ev.runs[lucky]++ // its first run was the search's
	got, err := s.confirm(ctx, []*testcase.Test{lucky}, [][]int32{{0, 1}})
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{0, 1}}, got)
	s.archive.Update(lucky, 0, got[0], 1)

	// The flaky test covers goal 0, then misses it: goal 0 is flaky, and
	// the lucky test, run again, misses it too and loses it.
	ev.runs[flaky]++
	got, err = s.confirm(ctx, []*testcase.Test{flaky}, [][]int32{{0}})
	require.NoError(t, err)
	assert.Equal(t, [][]int32{nil}, got)
	assert.True(t, s.flaky[0])
	assert.False(t, s.archive.Covered(0), "the lucky test no longer stands for goal 0")
	assert.True(t, s.archive.Covered(1), "goal 1 is not flaky")

	// The stable test covers goal 0 in every run and is confirmed.
	ev.runs[stable]++
	got, err = s.confirm(ctx, []*testcase.Test{stable}, [][]int32{{0}})
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{0}}, got)
	assert.Equal(t, 1+confirmRuns+flakyConfirmations, ev.runs[stable])
}

// A stage limits Done and Remaining to part of the budget; Left says what
// the whole budget has left.
func TestStageLimitsTheBudget(t *testing.T) {
	ev := &covering{}
	e := &Engine{Exec: ev, Goals: 2, Budget: Budget{MaxEvals: 100}}
	e.begin("test")
	ctx := context.Background()
	e.Stage(Budget{MaxEvals: 30})
	assert.Equal(t, 30, e.Remaining(50))
	_, err := e.Evaluate(ctx, tests(e.Remaining(50)))
	require.NoError(t, err)
	assert.True(t, e.Done(ctx), "the stage is spent")
	assert.Equal(t, 0, e.Remaining(50))
	assert.Equal(t, Budget{MaxEvals: 70}, e.Left())
	e.Stage(Budget{})
	assert.False(t, e.Done(ctx), "the budget is not")
	assert.Equal(t, 70, e.Remaining(100))
}

// Conclude rebuilds the archive from the given tests alone: their goals,
// confirmed, stay covered, with the time the search first covered them;
// the others are uncovered again.
func TestConcludeKeepsTheGoalsOfTheGivenTests(t *testing.T) {
	first, second := testOfLen(2), testOfLen(2)
	ev := &scripted{runs: map[*testcase.Test]int{}, script: map[*testcase.Test]func(int) []int32{
		first:  func(int) []int32 { return []int32{0} },
		second: func(int) []int32 { return []int32{1, 2} },
	}}
	e := &Engine{Exec: ev, Goals: 3}
	e.begin("test")
	ctx := context.Background()
	_, err := e.Evaluate(ctx, []*testcase.Test{first, second})
	require.NoError(t, err)
	require.Equal(t, 3, e.Archive().Len())
	e.stats.GoalSeconds[1] = 0.5
	require.NoError(t, e.Conclude(ctx, []*testcase.Test{second}))
	assert.Equal(t, []int32{0}, e.Uncovered())
	assert.Equal(t, map[int32]float64{1: 0.5, 2: e.stats.GoalSeconds[2]}, e.stats.GoalSeconds)
	a, st := e.finish()
	assert.Equal(t, 2, a.Len())
	assert.Equal(t, 2, st.Covered)
	assert.Equal(t, 2, st.Evaluations, "the runs of Conclude are no evaluations")
	assert.Equal(t, 1+confirmRuns+1+confirmRuns, ev.runs[second])
}

// tests returns n tests of length 1.
func tests(n int) []*testcase.Test {
	out := make([]*testcase.Test, n)
	for i := range out {
		out[i] = testOfLen(1)
	}
	return out
}

// exploring is an evaluator that can explore: it covers goal 0 and counts
// the tests each method ran.
type exploring struct{ explored, run int }

func (e *exploring) Run(_ context.Context, tests []*testcase.Test, _ bool) ([]harness.Result, error) {
	e.run += len(tests)
	return covered(len(tests)), nil
}

func (e *exploring) Explore(_ context.Context, tests []*testcase.Test) ([]harness.Result, error) {
	e.explored += len(tests)
	return covered(len(tests)), nil
}

func covered(n int) []harness.Result {
	out := make([]harness.Result, n)
	for i := range out {
		out[i] = harness.Result{Trace: &rt.Trace{Covered: []int32{0}}}
	}
	return out
}

// The first execution of a test only guides the search: the engine
// explores it (the executor may cut it short). The runs that confirm a
// test for the archive are full runs.
func TestEvaluateExploresAndConfirmsWithRun(t *testing.T) {
	ev := &exploring{}
	s := &Engine{Exec: ev, Goals: 2}
	s.begin("test")
	_, err := s.Evaluate(context.Background(), []*testcase.Test{testOfLen(2), testOfLen(3)})
	require.NoError(t, err)
	assert.Equal(t, 2, ev.explored)
	assert.Equal(t, confirmRuns*2, ev.run)
	assert.True(t, s.archive.Covered(0))
}

// leaky is an evaluator whose tests leave a goroutine at "pool.go:10":
// Explore judges it at the short grace, Run at the full one, where the
// goroutines of ends (and no other test's) finish in time.
type leaky struct {
	ends map[*testcase.Test]bool
	runs int
}

func (e *leaky) result(t *testcase.Test, cut bool) harness.Result {
	r := harness.Result{Trace: &rt.Trace{Covered: []int32{0}}}
	if cut || !e.ends[t] {
		r.Leak, r.LeakCut = "pool.(*Pool).worker pool.go:10\n", cut
	}
	return r
}

func (e *leaky) Explore(_ context.Context, tests []*testcase.Test) ([]harness.Result, error) {
	out := make([]harness.Result, len(tests))
	for i, t := range tests {
		out[i] = e.result(t, true)
	}
	return out, nil
}

func (e *leaky) Run(_ context.Context, tests []*testcase.Test, _ bool) ([]harness.Result, error) {
	out := make([]harness.Result, len(tests))
	for i, t := range tests {
		out[i] = e.result(t, false)
		e.runs++
	}
	return out, nil
}

// A test judged to leak at the search's shorter grace is run again at the
// full grace when the archive wants it: one whose goroutines end in time
// is archived; once a leak at a place is confirmed, later tests that leak
// there are not run again.
func TestLeakCutsAreRunAgainAtTheFullGrace(t *testing.T) {
	slow, leaking, other := testOfLen(2), testOfLen(2), testOfLen(2)
	ev := &leaky{ends: map[*testcase.Test]bool{slow: true}}
	e := &Engine{Exec: ev, Goals: 1}
	e.begin("test")
	ctx := context.Background()

	res, err := e.Evaluate(ctx, []*testcase.Test{leaking})
	require.NoError(t, err)
	assert.False(t, res[0].LeakCut, "the full grace's result stands in")
	assert.NotEmpty(t, res[0].Leak, "a leak the full grace confirms")
	assert.False(t, e.Archive().Covered(0))
	assert.Equal(t, 1, ev.runs)

	_, err = e.Evaluate(ctx, []*testcase.Test{other})
	require.NoError(t, err)
	assert.Equal(t, 1, ev.runs, "a leak at a confirmed place is not run again")

	e.leaks = map[string]bool{} // the slow test leaks nowhere at the full grace
	res, err = e.Evaluate(ctx, []*testcase.Test{slow})
	require.NoError(t, err)
	assert.Empty(t, res[0].Leak)
	assert.True(t, e.Archive().Covered(0), "archived after its confirmation runs")
	assert.Equal(t, 2+confirmRuns, ev.runs)
}
