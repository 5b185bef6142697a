package fitness_test

import (
	"testing"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/stretchr/testify/assert"
)

// The distance to single branches of R and E, on personcar: a branch of
// R from its own evaluation, a branch of E from its evaluation in the
// calls made at the site that reaches it, or, when the test made no such
// call, from the caller target that leads to the site.
func TestBranchDistance(t *testing.T) {
	p := newPersonCar(t)
	ix := p.a.Index()
	branch := func(node int32, outcome bool) couple.Branch {
		return couple.Branch{Node: ix.Nodes[node].Node, Outcome: outcome}
	}
	nu := func(d float64) float64 { return d / (d + 1) }
	o := fitness.NewObjectives(p.a, fitness.Layered)

	// Fuel 70, not lazy: Refuel evaluates 70 < 50 at the site.
	o.Load(&rt.Trace{
		Caller: []rt.CallerEval{
			{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1},
			{Node: p.fuel100, DistT: 0, DistF: 31, FirstT: 2},
			{Node: p.lazy, DistT: 1, DistF: 0, FirstF: 3},
		},
		Sites:  []rt.SiteEval{{Site: p.refuelSite, LastEnter: 4, Entries: 1}},
		Callee: []rt.CalleeEval{{Site: p.refuelSite, Node: p.fuel50, DistT: 21, DistF: 0, TakenF: true, Evals: 1}},
	})
	assert.True(t, o.Taken(branch(p.fuel100, true)))
	assert.Equal(t, 0.0, o.BranchDistance(branch(p.fuel100, true)))
	assert.InDelta(t, nu(nu(31)), o.BranchDistance(branch(p.fuel100, false)), 1e-12)
	assert.InDelta(t, nu(nu(1)), o.BranchDistance(branch(p.lazy, true)), 1e-12)
	assert.True(t, o.Taken(branch(p.fuel50, false)))
	assert.False(t, o.Taken(branch(p.fuel50, true)))
	assert.InDelta(t, nu(nu(21))/2, o.BranchDistance(branch(p.fuel50, true)), 1e-12)
	assert.True(t, o.Taken(couple.Branch{Entry: p.a.Caller.External[0]}), "DriveToHome entered")

	// A lazy person takes the bus: Refuel is never called, and the
	// distance to its branches is that of Lazy:false, past one half.
	o.Load(&rt.Trace{
		Caller: []rt.CallerEval{
			{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1},
			{Node: p.fuel100, DistT: 0, DistF: 31, FirstT: 2},
			{Node: p.lazy, DistT: 0, DistF: 1, FirstT: 3},
		},
	})
	assert.False(t, o.Taken(branch(p.fuel50, false)))
	assert.InDelta(t, 0.5+nu(nu(1))/2, o.BranchDistance(branch(p.fuel50, false)), 1e-12)
	assert.InDelta(t, 0.5+nu(nu(1))/2, o.BranchDistance(branch(p.fuel50, true)), 1e-12)

	// A test that timed out reached nothing: DriveToHome's branch is one
	// approach level away (its entry, which always runs, at ν(1)).
	o.Load(nil)
	assert.InDelta(t, nu(1+nu(1)), o.BranchDistance(branch(p.fuel100, true)), 1e-12)
}
