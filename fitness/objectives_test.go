package fitness_test

import (
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe/rt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// personcar is the analysis of the personcar fixture, the example of the
// Coupled Branches Criterion, with the numbers its traces use.
type personcar struct {
	a                       *couple.Analysis
	fuel100, lazy, fuel50   int32 // node indices
	entryDrive, entryRefuel int32
	refuelSite              int32
}

func newPersonCar(t *testing.T) personcar {
	dir := fixture.Copy(t, "personcar")
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./person", "./car")
	require.NoError(t, err)
	ix := a.Index()
	p := personcar{a: a, refuelSite: 1}
	for i, n := range ix.Nodes {
		switch {
		case n.Node != nil && n.Node.ID() == "person/person.go:14:5":
			p.fuel100 = int32(i)
		case n.Node != nil && n.Node.ID() == "person/person.go:22:5":
			p.lazy = int32(i)
		case n.Node != nil && n.Node.ID() == "car/car.go:14:5":
			p.fuel50 = int32(i)
		case n.Entry != nil && n.Entry.Name == "(*Person).DriveToHome":
			p.entryDrive = int32(i)
		case n.Entry != nil && n.Entry.Name == "(*Car).Refuel":
			p.entryRefuel = int32(i)
		}
	}
	require.Equal(t, "(*Car).Refuel", a.Sites[p.refuelSite].Targets[0].Name)
	return p
}

// lazyPerson is the trace of DriveToHome by a lazy person with fuel 70:
// Fuel<100 true, then Lazy true (1 from false), and Refuel never called.
func (p personcar) lazyPerson() *rt.Trace {
	return &rt.Trace{Caller: []rt.CallerEval{
		{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1},
		{Node: p.fuel100, DistT: 0, DistF: 31, FirstT: 2},
		{Node: p.lazy, DistT: 0, DistF: 1, FirstT: 3},
	}}
}

func eval(t *testing.T, a *couple.Analysis, form fitness.Form, tr *rt.Trace) []float64 {
	t.Helper()
	out := make([]float64, len(a.Goals))
	fitness.NewObjectives(a, form).Evaluate(tr, nil, out)
	return out
}

// The criterion's worked example: t' takes Entry -> 13 -> 16 -> b8 -> b10: the
// caller branch is covered, the callee's false branch too (goal 1 is
// covered), and for goal 0 only the branch distance at b8 remains.
func TestObjectivePaperExample(t *testing.T) {
	p := newPersonCar(t)
	// DriveToHome with fuel 70, not lazy: Fuel<100 true, Lazy false, then
	// Refuel (entered at site 1) evaluates 70 < 50: false, 21 from true.
	tr := &rt.Trace{
		Caller: []rt.CallerEval{
			{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1},
			{Node: p.fuel100, DistT: 0, DistF: 31, FirstT: 2},
			{Node: p.lazy, DistT: 1, DistF: 0, FirstF: 3},
		},
		Sites: []rt.SiteEval{{Site: p.refuelSite, LastEnter: 4}},
		Callee: []rt.CalleeEval{
			{Site: p.refuelSite, Node: p.entryRefuel, DistT: 0, DistF: 1, TakenT: true},
			{Site: p.refuelSite, Node: p.fuel50, DistT: 21, DistF: 0, TakenF: true},
		},
		Covered: []int32{1},
	}
	layered := eval(t, p.a, fitness.Layered, tr)
	paper := eval(t, p.a, fitness.Paper, tr)
	d := 21.0 / 22.0 // approach level 0 + ν(21)
	assert.InDelta(t, d/(d+1), layered[0], 1e-12)
	assert.InDelta(t, d, paper[0], 1e-12)
	assert.Equal(t, 0.0, layered[1])
	assert.Equal(t, 0.0, paper[1])
}

// A fork evaluates as the objectives it was made of, on another goroutine
// at the same time, and still does after a Join, which teaches the
// objectives nothing.
func TestObjectivesFork(t *testing.T) {
	p := newPersonCar(t)
	missed := p.lazyPerson()
	reached := &rt.Trace{Caller: []rt.CallerEval{{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1}, {Node: p.fuel100, DistT: 21, DistF: 0, FirstF: 2}}}
	o := fitness.NewObjectives(p.a, fitness.Layered)
	fork := o.EvaluateFork()
	for range 3 {
		forked, own := make([]float64, 2), make([]float64, 2)
		done := make(chan struct{})
		go func() {
			defer close(done)
			fork(missed, nil, forked)
		}()
		o.Evaluate(reached, nil, own)
		<-done
		assert.Equal(t, eval(t, p.a, fitness.Layered, missed), forked)
		assert.Equal(t, eval(t, p.a, fitness.Layered, reached), own)
	}
	fork(reached, nil, make([]float64, 2))
	o.Join(reached) // learns nothing
	assert.Equal(t, eval(t, p.a, fitness.Layered, reached), evalWith(o.EvaluateFork(), reached))
}

func evalWith(f func(*rt.Trace, []int32, []float64), tr *rt.Trace) []float64 {
	out := make([]float64, 2)
	f(tr, nil, out)
	return out
}

// The caller branch is evaluated but not taken: a lazy person. D(r) is the
// branch distance of p.Lazy to false, 1.
func TestObjectiveCallerBranchMissed(t *testing.T) {
	p := newPersonCar(t)
	tr := p.lazyPerson()
	dr := 0.5 // ν(1)
	assert.InDeltaSlice(t, []float64{2 + dr/(dr+1), 2 + dr/(dr+1)}, eval(t, p.a, fitness.Layered, tr), 1e-12)
	assert.InDeltaSlice(t, []float64{dr + 1, dr + 1}, eval(t, p.a, fitness.Paper, tr), 1e-12)
}

// The caller branch's node is not even reached: fuel 120 takes the else
// branch of Fuel<100. Approach level 1 (Lazy is control dependent on
// Fuel<100:true, through addEnergy's call) plus ν(120-100+1) at Fuel<100.
func TestObjectiveApproachLevelAcrossFunctions(t *testing.T) {
	p := newPersonCar(t)
	tr := &rt.Trace{Caller: []rt.CallerEval{
		{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1},
		{Node: p.fuel100, DistT: 21, DistF: 0, FirstF: 2},
	}}
	dr := 1 + 21.0/22.0
	want := 2 + dr/(dr+1)
	assert.InDeltaSlice(t, []float64{want, want}, eval(t, p.a, fitness.Layered, tr), 1e-12)
	// Nothing ran at all: the entry pseudo-branch of DriveToHome is two
	// levels up, with branch distance 1.
	none := &rt.Trace{}
	dr = 2 + 0.5
	want = 2 + dr/(dr+1)
	assert.InDeltaSlice(t, []float64{want, want}, eval(t, p.a, fitness.Layered, none), 1e-12)
}

// Refuel's branch taken by a direct call (no context) counts for nothing;
// taken in context but in a call that began before r: very close, not 0.
func TestObjectiveContext(t *testing.T) {
	p := newPersonCar(t)
	base := []rt.CallerEval{
		{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1},
		{Node: p.fuel100, DistT: 0, DistF: 31, FirstT: 2},
		{Node: p.lazy, DistT: 1, DistF: 0, FirstF: 5},
	}
	// The site was entered only before r was taken.
	before := &rt.Trace{Caller: base, Sites: []rt.SiteEval{{Site: p.refuelSite, LastEnter: 3}},
		Callee: []rt.CalleeEval{{Site: p.refuelSite, Node: p.fuel50, DistT: 0, DistF: 31, TakenT: true}}}
	assert.Equal(t, []float64{1, 1}, eval(t, p.a, fitness.Layered, before), "r covered, s not reached after r")
	// Entered after r, and the branch was taken, but the runtime did not
	// report the goal covered: the call began before r.
	after := &rt.Trace{Caller: base, Sites: []rt.SiteEval{{Site: p.refuelSite, LastEnter: 6}},
		Callee: []rt.CalleeEval{{Site: p.refuelSite, Node: p.fuel50, DistT: 0, DistF: 31, TakenT: true}}}
	got := eval(t, p.a, fitness.Layered, after)
	assert.Equal(t, 0.001, got[0])
	assert.Positive(t, got[1])
}

func TestObjectiveNilTraceIsWorst(t *testing.T) {
	p := newPersonCar(t)
	assert.Equal(t, []float64{3, 3}, eval(t, p.a, fitness.Layered, nil))
}

func TestParseForm(t *testing.T) {
	for _, f := range []fitness.Form{fitness.Layered, fitness.Paper} {
		got, err := fitness.ParseForm(f.String())
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	assert.Equal(t, "layered", fitness.Layered.String())
	assert.Equal(t, "paper", fitness.Paper.String())
	_, err := fitness.ParseForm("steep")
	assert.EqualError(t, err, `unknown fitness "steep": use layered or paper`)
}
