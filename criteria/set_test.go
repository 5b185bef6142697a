package criteria_test

import (
	"testing"

	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe/rt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The search's numbering of every criterion's goals on personcar, the
// goals a trace covers, a panic that joins, and objectives.
func TestSetOnPersonCar(t *testing.T) {
	p := pairOf(t, fixture.Copy(t, "personcar"), "./person", "./car")
	all, err := criteria.Parse("all")
	require.NoError(t, err)
	s := criteria.NewSet(p, all, criteria.AllGoals)
	// 2 coupled branches, 10 lines, 6 branches, 2 direct branches, 1
	// method, 1 method-no-panic, 2 mutants.
	require.Equal(t, 24, s.Goals())
	assert.True(t, s.CBC(1))
	assert.False(t, s.CBC(2))
	assert.Equal(t, "car/car.go:9", s.Goal(2).ID)
	assert.Equal(t, "(*Person).DriveToHome", s.Goal(21).ID)
	assert.Equal(t, "method-no-panic", s.Goal(21).Criterion.Name)

	tr := personCarTrace(t, p)
	assert.Equal(t, []int32{0, 3, 4, 6, 7, 9, 11, 12, 15, 16, 18, 20, 21, 24, 23}, s.Covered(tr))
	require.Equal(t, 25, s.Goals(), "the panic joined")
	assert.Equal(t, "person.(*Person).DriveToHome runtime.errorString", s.Goal(24).ID)
	assert.Equal(t, "PanicDriveToHomeRuntimeErrorString", s.Goal(24).Test)

	out := make([]float64, 25)
	s.Evaluate(tr, nil, out)
	for _, g := range s.Covered(tr) {
		assert.Equal(t, 0.0, out[g], "goal %d is covered", g)
	}
	nu := func(d float64) float64 { return d / (d + 1) }
	// Line car.go:9 (in Drive): its guard entry:Drive is not taken, and
	// the call site of Drive waits for fuel100:false, 71 away.
	assert.InDelta(t, 0.25+0.75*(0.5+nu(nu(71))/2), out[2], 1e-12)
	// The other outcome of Lazy, evaluated at distance 1.
	assert.InDelta(t, nu(nu(1)), out[14], 1e-12)
	// Its direct branch: DriveToHome was called directly.
	assert.InDelta(t, 0.1+0.4*nu(nu(71)), out[19], 1e-12)
	// Mutant #1 deletes the call of Drive, which runs on fuel100:false.
	assert.InDelta(t, 0.25+0.75*nu(nu(71)), out[22], 1e-12)

	// A test that timed out covers nothing and scores worst.
	assert.Empty(t, s.Covered(nil))
	s.Evaluate(nil, []int32{0, 2}, out[:2])
	assert.Equal(t, []float64{s.Worst(), s.Worst()}, out[:2])
}

// Smart selection numbers the chosen goals first: on personcar, the
// coupled branches, DriveToHome's method-no-panic goal and no line (no
// block has five lines), nor mutant (reaching a deleted call infects it).
// The goals it leaves out follow, no targets of the search, but covered
// all the same; a panic joins as a target.
func TestSmartSetOnPersonCar(t *testing.T) {
	p := pairOf(t, fixture.Copy(t, "personcar"), "./person", "./car")
	cs, err := criteria.Parse("line,branch,method-no-panic,weak-mutation,panic")
	require.NoError(t, err)
	s := criteria.NewSet(p, cs, criteria.Smart)
	// 3 targets, then 10 lines, 6 branches and 2 mutants set aside.
	require.Equal(t, 21, s.Goals())
	assert.Equal(t, "method-no-panic", s.Goal(2).Criterion.Name)
	assert.Equal(t, "car/car.go:9", s.Goal(3).ID)
	assert.Equal(t, "person/person.go:14:5:true", s.Goal(13).ID)
	assert.Equal(t, "weak-mutation", s.Goal(20).Criterion.Name)
	var targets []int32
	for g := int32(0); g < int32(s.Goals()); g++ {
		if s.Target(g) {
			targets = append(targets, g)
		}
	}
	assert.Equal(t, []int32{0, 1, 2}, targets)

	tr := personCarTrace(t, p)
	assert.Equal(t, []int32{0, 4, 5, 7, 8, 10, 12, 13, 16, 17, 2, 21, 20}, s.Covered(tr))
	require.Equal(t, 22, s.Goals(), "the panic joined")
	assert.True(t, s.Target(21), "a panic is a target")
	// The targets alone: the coupled branches, method-no-panic, the panic.
	out := make([]float64, 4)
	s.Evaluate(tr, nil, out)
	assert.Equal(t, []float64{0, 0, 0}, []float64{out[0], out[2], out[3]})
	assert.Positive(t, out[1], "the other coupled branch is not covered")
}

// personCarTrace is a test's trace on personcar: DriveToHome called by
// the test with fuel 30, not lazy: Refuel refills; it panics afterwards
// (in a made-up way).
func personCarTrace(t *testing.T, p *criteria.Pair) *rt.Trace {
	ix := p.A.Index()
	node := func(id string) int32 {
		for i, n := range ix.Nodes {
			if n.Node != nil && n.Node.ID() == id {
				return int32(i)
			}
			if n.Entry != nil && "entry:"+n.Entry.Name == id {
				return int32(i)
			}
		}
		t.Fatalf("no node %s", id)
		return -1
	}
	fuel100, lazy, fuel50 := node("person/person.go:14:5"), node("person/person.go:22:5"), node("car/car.go:14:5")
	return &rt.Trace{
		Caller: []rt.CallerEval{
			{Node: node("entry:(*Person).DriveToHome"), DistF: 1, FirstT: 1, Evals: 1},
			{Node: fuel100, DistF: 71, FirstT: 2, Evals: 1},
			{Node: lazy, DistT: 1, FirstF: 3, Evals: 1},
		},
		Sites:   []rt.SiteEval{{Site: 1, LastEnter: 4, Entries: 1}},
		Callee:  []rt.CalleeEval{{Site: 1, Node: fuel50, DistF: 21, TakenT: true, Evals: 1}},
		Covered: []int32{0},
		Lines:   []int32{1, 2, 4, 5, 7, 9},
		Calls:   []rt.CallEval{{Func: 0, Returned: true}},
		Direct:  []int32{2 * fuel100},
		Mutants: []rt.MutantEval{{ID: 2, State: rt.MutantInfected}},
		Panics:  []string{"panic person.(*Person).DriveToHome runtime.errorString"},
	}
}

// A fork of the set evaluates as the set does, on another goroutine at the
// same time as the set, and finds no goals: Join adds the ones met in the
// traces it evaluated.
func TestSetForkEvaluatesAsTheSet(t *testing.T) {
	p := pairOf(t, fixture.Copy(t, "personcar"), "./person", "./car")
	all, err := criteria.Parse("all")
	require.NoError(t, err)
	tr := personCarTrace(t, p)
	goals := make([]int32, 24)
	for i := range goals {
		goals[i] = int32(i)
	}
	want := make([]float64, len(goals))
	criteria.NewSet(p, all, criteria.AllGoals).Evaluate(tr, goals, want)

	s := criteria.NewSet(p, all, criteria.AllGoals)
	eval := s.EvaluateFork()
	forked, own := make([]float64, len(goals)), make([]float64, len(goals))
	done := make(chan struct{})
	go func() {
		defer close(done)
		eval(tr, goals, forked)
	}()
	s.Evaluate(tr, goals, own) // meets the panic, which joins the goals
	<-done
	assert.Equal(t, want, forked)
	assert.Equal(t, want, own)
	assert.Equal(t, 25, s.Goals())

	s = criteria.NewSet(p, all, criteria.AllGoals)
	s.EvaluateFork()(tr, goals, forked)
	assert.Equal(t, want, forked)
	assert.Equal(t, 24, s.Goals(), "the fork finds no goals")
	s.Join(tr)
	assert.Equal(t, 25, s.Goals())
	assert.Equal(t, "person.(*Person).DriveToHome runtime.errorString", s.Goal(24).ID)
}
