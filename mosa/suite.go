package mosa

import (
	"context"
	"errors"
	"math"
	"sort"

	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/repair"
	"github.com/cling-go/cling/testcase"
)

// Whole-suite generation evolves suites of tests rather than tests: what
// the whole-suite algorithms (ws.go, wsa.go) share.

const (
	// initialTests bounds the tests of a random suite: 1 to initialTests.
	initialTests = 10
	// maxSuiteTests bounds the tests of a suite.
	maxSuiteTests = 50
	// insertTest is σ: a mutated suite gets a new test with probability
	// σ, a second one with σ², and so on.
	insertTest = 0.1
)

var errNoProgress = errors.New("whole-suite search: the objectives do not report a test's progress")

// scored is a test with what its execution told the whole-suite fitness:
// per goal (indexed by goal number) its objective and progress, packed
// (fitness.Term), for the goals it was evaluated for (Worst and no
// progress for the others). Variation clones tests, so a scored test never
// changes and suites share it.
type scored struct {
	t     *testcase.Test
	terms []fitness.SuiteTerm
}

// suite is a chromosome of whole-suite generation: its tests, its fitness
// Σ d(T, g) over the goals of the fitness, and its length in statements,
// the secondary objective.
type suite struct {
	tests   []*scored
	fitness float64
	length  int
}

// wholeSuite is the machinery of whole-suite generation for one run.
type wholeSuite struct {
	e     *Engine
	obj   SuiteObjectives
	cfg   Config
	cross Crossover
	// newTest makes the tests that mutation inserts.
	newTest func() *testcase.Test
	acc     []fitness.SuiteGoal
	fit     []float64
	prog    []fitness.Progress
}

func newWholeSuite(e *Engine, cfg Config, cross Crossover) (*wholeSuite, error) {
	obj, ok := e.Objectives.(SuiteObjectives)
	if !ok {
		return nil, errNoProgress
	}
	w := &wholeSuite{e: e, obj: obj, cfg: cfg, cross: cross}
	w.newTest = e.Gen.RandomTest
	return w, nil
}

// randomSuites draws n suites of 1 to initialTests random tests.
func (w *wholeSuite) randomSuites(n int) []*suite {
	out := make([]*suite, n)
	for i := range out {
		s := &suite{}
		for k := 1 + w.e.Gen.Rnd.Intn(initialTests); k > 0; k-- {
			s.tests = append(s.tests, &scored{t: w.e.Gen.RandomTest()})
		}
		out[i] = s
	}
	return out
}

// evaluate executes the tests of suites that were not executed yet (as
// many as the budget has left: suites lose the others, and a suite left
// without tests is dropped), scores them for goals (increasing), and
// rates the suites on goals.
func (w *wholeSuite) evaluate(ctx context.Context, suites []*suite, goals []int32) ([]*suite, error) {
	var pending []*scored
	seen := map[*scored]bool{}
	for _, s := range suites {
		for _, t := range s.tests {
			if t.terms == nil && !seen[t] {
				seen[t] = true
				pending = append(pending, t)
			}
		}
	}
	pending = pending[:w.e.Remaining(len(pending))]
	tests := make([]*testcase.Test, len(pending))
	for i, t := range pending {
		tests[i] = t.t
	}
	res, err := w.e.Evaluate(ctx, tests)
	if err != nil {
		return nil, err
	}
	w.fit, w.prog = grow(w.fit, len(goals)), grow(w.prog, len(goals))
	none := fitness.Term(w.obj.Worst(), fitness.Progress{})
	for i, t := range pending {
		w.obj.Evaluate(res[i].Trace, goals, w.fit)
		w.obj.Progress(res[i].Trace, goals, w.prog)
		t.terms = make([]fitness.SuiteTerm, w.e.Goals)
		for k := range t.terms {
			t.terms[k] = none
		}
		for k, g := range goals {
			t.terms[g] = fitness.Term(w.fit[k], w.prog[k])
		}
	}
	var out []*suite
	for _, s := range suites {
		s.tests = filterTests(s.tests, func(t *scored) bool { return t.terms != nil })
		if len(s.tests) > 0 {
			w.rate(s, goals)
			out = append(out, s)
		}
	}
	return out, nil
}

// rate computes a suite's fitness on goals and its length.
func (w *wholeSuite) rate(s *suite, goals []int32) {
	w.acc = grow(w.acc, len(goals))
	clear(w.acc)
	s.length = 0
	for _, t := range s.tests {
		s.length += t.t.Len()
		for k, g := range goals {
			if int(g) < len(t.terms) {
				w.acc[k].Add(t.terms[g])
			} else {
				// A goal that joined after the test ran: it reached
				// nothing of it.
				w.acc[k].Add(fitness.Term(fitness.Worst, fitness.Progress{}))
			}
		}
	}
	s.fitness = 0
	for k := range w.acc {
		s.fitness += w.acc[k].Distance()
	}
}

// offspring breeds n suites from pop: binary tournament selection,
// crossover with probability cfg.CrossoverRate, mutation.
func (w *wholeSuite) offspring(pop []*suite, n int) []*suite {
	g := w.e.Gen
	var out []*suite
	for len(out) < n {
		a, b := w.tournament(pop), w.tournament(pop)
		c1, c2 := &suite{tests: a.tests}, &suite{tests: b.tests}
		if g.Rnd.Float64() < w.cfg.CrossoverRate {
			c1, c2 = w.crossover(a, b)
		}
		for _, c := range []*suite{c1, c2} {
			w.mutate(c)
			if len(out) < n {
				out = append(out, c)
			}
		}
	}
	return out
}

// tournament picks the better of two random suites: lower fitness, then
// shorter.
func (w *wholeSuite) tournament(pop []*suite) *suite {
	a := pop[w.e.Gen.Rnd.Intn(len(pop))]
	b := pop[w.e.Gen.Rnd.Intn(len(pop))]
	if better(b, a) {
		return b
	}
	return a
}

// crossover cuts both suites at the same relative position α and swaps
// their tails.
func (w *wholeSuite) crossover(a, b *suite) (*suite, *suite) {
	alpha := w.e.Gen.Rnd.Float64()
	ca := int(math.Round(alpha * float64(len(a.tests))))
	cb := int(math.Round(alpha * float64(len(b.tests))))
	join := func(head, tail []*scored) *suite {
		tests := append(append([]*scored(nil), head...), tail...)
		return &suite{tests: tests[:min(len(tests), maxSuiteTests)]}
	}
	return join(a.tests[:ca], b.tests[cb:]), join(b.tests[:cb], a.tests[ca:])
}

// mutate mutates each test of s with probability 1/|s| (a mutated clone
// replaces it, unless repair cannot restore a covering call), then inserts
// new tests: the first with probability σ, the next with σ², ...
func (w *wholeSuite) mutate(s *suite) {
	g := w.e.Gen
	tests := append([]*scored(nil), s.tests...)
	for i, t := range tests {
		if g.Rnd.Float64() >= 1/float64(len(tests)) {
			continue
		}
		c := t.t.Clone()
		g.Mutate(c)
		if c.Len() > 0 && repair.Mutation(g, c, w.cfg.RepairAttempts, w.e.Repairs()) {
			tests[i] = &scored{t: c}
		}
	}
	for k := 1.0; len(tests) < maxSuiteTests && g.Rnd.Float64() < math.Pow(insertTest, k); k++ {
		tests = append(tests, &scored{t: w.newTest()})
	}
	s.tests = tests
}

// fittest sorts suites best first (lower fitness, then shorter) and keeps
// n: the elitist survival of whole-suite generation.
func fittest(suites []*suite, n int) []*suite {
	sort.SliceStable(suites, func(i, j int) bool { return better(suites[i], suites[j]) })
	return suites[:min(n, len(suites))]
}

// better reports whether suite a is fitter than b: lower fitness, then
// shorter.
func better(a, b *suite) bool {
	if a.fitness != b.fitness {
		return a.fitness < b.fitness
	}
	return a.length < b.length
}

// grow returns s with length n, reusing its array when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// filterTests returns the tests keep accepts, in order.
func filterTests(ts []*scored, keep func(*scored) bool) []*scored {
	var out []*scored
	for _, t := range ts {
		if keep(t) {
			out = append(out, t)
		}
	}
	return out
}
