package mosa

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
)

// individual is a test with its objective values.
type individual struct {
	t *testcase.Test
	// goals are the goals uncovered when the test was evaluated (or last
	// aligned), in increasing order, and fit the objective of each: covered
	// goals are never read again, so they take no room.
	goals []int32
	fit   []float64
	// obj are the objectives ranking reads: fit, or its values for the
	// goals that are objectives of the generation (see project).
	obj  []float64
	rank int
	// crowding is the individual's secondary score within its front,
	// higher better: the crowding distance, or the performance heuristic
	// (see Heuristic).
	crowding float64
	// proxies are the test's performance proxies; traced says that its
	// execution left a trace (the dynamic proxies are known).
	proxies Proxies
	traced  bool
	// size is the test's size, which breaks ties in ranking, once sized
	// (see testSize).
	size  testcase.Size
	sized bool
}

// testSize returns the size of the individual's test, computed on the
// first call: a test is not changed once evaluated.
func (ind *individual) testSize() testcase.Size {
	if !ind.sized {
		ind.size, ind.sized = ind.t.Size(), true
	}
	return ind.size
}

// align re-indexes the objectives to goals, in increasing order. Goals
// mostly only get covered, and the objectives are then compacted in
// place; a goal uncovered again (its test proved flaky) was not evaluated
// for this test and scores worst.
func (ind *individual) align(goals []int32, worst float64) {
	if slices.Equal(ind.goals, goals) {
		return
	}
	out := ind.fit[:0] // compacts in place: writes never pass reads
	if len(goals) > len(ind.goals) || !subset(goals, ind.goals) {
		out = make([]float64, 0, len(goals))
	}
	j := 0
	for _, g := range goals {
		for j < len(ind.goals) && ind.goals[j] < g {
			j++
		}
		if j < len(ind.goals) && ind.goals[j] == g {
			out = append(out, ind.fit[j])
		} else {
			out = append(out, worst)
		}
	}
	ind.goals, ind.fit = goals, out
}

// project sets the objectives ranking reads: those of fit at positions pos
// (the objectives' places among the aligned goals), or all of fit if pos
// is nil.
func (ind *individual) project(pos []int) {
	if pos == nil {
		ind.obj = ind.fit
		return
	}
	ind.obj = make([]float64, len(pos))
	for k, i := range pos {
		ind.obj[k] = ind.fit[i]
	}
}

// positions returns the places of sub's goals in goals (goals
// increasing, sub a subset of goals in any order), or nil if sub is all
// of goals in their order.
func positions(goals, sub []int32) []int {
	if slices.Equal(sub, goals) {
		return nil
	}
	out := make([]int, 0, len(sub))
	j := 0
	for _, g := range sub {
		if j >= len(goals) || goals[j] > g {
			j = 0 // sub went down: look again from the start
		}
		for goals[j] != g {
			j++
		}
		out = append(out, j)
	}
	return out
}

// subset reports whether every element of a (increasing) is in b
// (increasing).
func subset(a, b []int32) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// evaluatePopulation executes tests through the engine (which archives the
// covering ones) and computes, for each, the objectives of the goals that
// goals returns after the execution (the goals still uncovered, for MOSA).
func evaluatePopulation(ctx context.Context, e *Engine, tests []*testcase.Test, goals func() []int32) ([]*individual, error) {
	res, err := e.Evaluate(ctx, tests)
	if err != nil {
		return nil, err
	}
	gs := goals()
	out := make([]*individual, len(tests))
	for i, t := range tests {
		out[i] = &individual{t: t, goals: gs, fit: make([]float64, len(gs)), proxies: ProxiesOf(t, res[i].Trace), traced: res[i].Trace != nil}
	}
	if len(gs) > 0 {
		evaluateObjectives(e.Objectives, res, gs, out)
	}
	return out, nil
}

// minForked is the least number of tests whose objectives are evaluated
// on two goroutines.
const minForked = 8

// evaluateObjectives writes the objectives of goals gs of each test into
// its individual: on two goroutines, half each, when the objectives can
// fork (Forker) and the process may use two processors, since the
// workers wait meanwhile; the values are the same either way.
func evaluateObjectives(obj Objectives, res []harness.Result, gs []int32, out []*individual) {
	split := len(out)
	f, ok := obj.(Forker)
	if ok && len(out) >= minForked && runtime.GOMAXPROCS(0) > 1 {
		split = len(out) / 2
	}
	var wg sync.WaitGroup
	if split < len(out) {
		eval := f.EvaluateFork()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := split; i < len(out); i++ {
				eval(res[i].Trace, gs, out[i].fit)
			}
		}()
	}
	for i := 0; i < split; i++ {
		obj.Evaluate(res[i].Trace, gs, out[i].fit)
	}
	wg.Wait()
	for i := split; i < len(out); i++ {
		f.Join(res[i].Trace)
	}
}

// randomTests draws n random tests, each calling a covering function.
func randomTests(g *testcase.Generator, n int) []*testcase.Test {
	tests := make([]*testcase.Test, 0, n)
	for i := 0; i < n; i++ {
		tests = append(tests, g.RandomTest())
	}
	return tests
}
