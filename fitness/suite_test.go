package fitness_test

import (
	"testing"

	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/stretchr/testify/assert"
)

// Progress reports, per goal of personcar (goal 0: Refuel's Fuel<50 true
// after Lazy false; goal 1: its false outcome), the layer a test reached
// and how often it reached each layer's predicate: Lazy, the Refuel call
// site, Fuel<50 in calls from it.
func TestProgress(t *testing.T) {
	p := newPersonCar(t)
	drive := []rt.CallerEval{
		{Node: p.entryDrive, DistT: 0, DistF: 1, FirstT: 1, Evals: 1},
		{Node: p.fuel100, DistT: 0, DistF: 31, FirstT: 2, Evals: 1},
	}
	with := func(cs ...rt.CallerEval) []rt.CallerEval {
		return append(append([]rt.CallerEval(nil), drive...), cs...)
	}
	cases := []struct {
		name string
		tr   *rt.Trace
		want []fitness.Progress
	}{
		{"nothing ran", nil, []fitness.Progress{{}, {}}},
		{"Lazy not reached", &rt.Trace{Caller: drive}, []fitness.Progress{{}, {}}},
		{"Lazy true twice", &rt.Trace{Caller: with(rt.CallerEval{Node: p.lazy, DistT: 0, DistF: 1, FirstT: 3, Evals: 2})},
			[]fitness.Progress{{Reached: [3]uint8{2, 0, 0}}, {Reached: [3]uint8{2, 0, 0}}}},
		{"Refuel called before Lazy false", &rt.Trace{
			Caller: with(rt.CallerEval{Node: p.lazy, DistT: 1, DistF: 0, FirstF: 5, Evals: 1}),
			Sites:  []rt.SiteEval{{Site: p.refuelSite, LastEnter: 3, Entries: 1}},
			Callee: []rt.CalleeEval{{Site: p.refuelSite, Node: p.fuel50, DistT: 0, DistF: 31, TakenT: true, Evals: 1}},
		}, []fitness.Progress{
			{Layer: fitness.SiteLayer, Reached: [3]uint8{1, 1, 1}},
			{Layer: fitness.SiteLayer, Reached: [3]uint8{1, 1, 1}},
		}},
		{"Refuel called twice after Lazy false, Fuel<50 false", &rt.Trace{
			Caller:  with(rt.CallerEval{Node: p.lazy, DistT: 1, DistF: 0, FirstF: 3, Evals: 2}),
			Sites:   []rt.SiteEval{{Site: p.refuelSite, LastEnter: 6, Entries: 2}},
			Callee:  []rt.CalleeEval{{Site: p.refuelSite, Node: p.fuel50, DistT: 21, DistF: 0, TakenF: true, Evals: 2}},
			Covered: []int32{1},
		}, []fitness.Progress{
			{Layer: fitness.CalleeLayer, Reached: [3]uint8{2, 2, 2}},
			{Layer: fitness.CalleeLayer, Reached: [3]uint8{2, 2, 2}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]fitness.Progress, 2)
			fitness.NewObjectives(p.a, fitness.Layered).Progress(tc.tr, nil, out)
			assert.Equal(t, tc.want, out)
			one := make([]fitness.Progress, 1)
			fitness.NewObjectives(p.a, fitness.Layered).Progress(tc.tr, []int32{1}, one)
			assert.Equal(t, tc.want[1:], one, "goal 1 alone")
		})
	}
}

// d(T, g) is 0 when a test covers g, ν(best objective in the highest
// layer reached) when that layer's predicate was reached twice in all,
// and 1 otherwise.
func TestSuiteGoalDistance(t *testing.T) {
	type test struct {
		objective float64
		progress  fitness.Progress
	}
	nu := func(x float64) float64 { return x / (x + 1) }
	caller := func(n uint8) fitness.Progress { return fitness.Progress{Reached: [3]uint8{n, 0, 0}} }
	callee := func(r, s, e uint8) fitness.Progress {
		return fitness.Progress{Layer: fitness.CalleeLayer, Reached: [3]uint8{r, s, e}}
	}
	cases := []struct {
		name  string
		tests []test
		want  float64
	}{
		{"no test", nil, 1},
		{"covered", []test{{2.4, caller(2)}, {0, callee(1, 1, 1)}}, 0},
		{"caller predicate reached once", []test{{2.5, caller(1)}}, 1},
		{"caller predicate reached twice in one test", []test{{2.5, caller(2)}}, nu(2.5)},
		{"caller predicate reached once in each of two tests", []test{{2.5, caller(1)}, {2.25, caller(1)}}, nu(2.25)},
		{"site layer, entered twice in all", []test{
			{1, fitness.Progress{Layer: fitness.SiteLayer, Reached: [3]uint8{1, 1, 0}}},
			{2.5, fitness.Progress{Reached: [3]uint8{1, 1, 0}}},
		}, nu(1)},
		{"callee layer decides, a caller-layer test adds to its count", []test{
			{0.4, callee(1, 1, 1)},
			{2.5, fitness.Progress{Reached: [3]uint8{2, 1, 1}}},
		}, nu(0.4)},
		{"callee predicate reached once: 1, however close", []test{{0.01, callee(2, 2, 1)}}, 1},
		{"the best objective of the highest layer, not a lower layer's", []test{
			{0.9, callee(1, 1, 2)},
			{0.3, fitness.Progress{Layer: fitness.SiteLayer, Reached: [3]uint8{1, 1, 0}}},
		}, nu(0.9)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s fitness.SuiteGoal
			for _, x := range tc.tests {
				s.Add(fitness.Term(x.objective, x.progress))
			}
			assert.InDelta(t, tc.want, s.Distance(), 1e-6, "float32 objectives")
		})
	}
}
