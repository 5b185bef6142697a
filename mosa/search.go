package mosa

import (
	"context"
	"errors"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
)

// Budget says when a search stops: after Time, after MaxEvals test
// executions, or when every goal is covered, whichever comes first. A zero
// field is no limit.
type Budget struct {
	Time     time.Duration
	MaxEvals int
}

// Evaluator executes tests; harness.Executor is one.
type Evaluator interface {
	Run(ctx context.Context, tests []*testcase.Test, observe bool) ([]harness.Result, error)
}

// Objectives computes, from the trace of a test's execution, the objective
// value of goals: 0 for a covered goal, larger the farther the test is;
// fitness.Objectives is one.
type Objectives interface {
	// Evaluate writes the objective of each goal in goals (all goals if
	// nil) for trace tr into out; a nil trace (a test that timed out or
	// crashed) scores Worst.
	Evaluate(tr *rt.Trace, goals []int32, out []float64)
	// Worst is the objective of a goal for a test that was not evaluated
	// for it.
	Worst() float64
}

// Stats describe a search run.
type Stats struct {
	Algorithm   string  `json:"algorithm"`
	Goals       int     `json:"goals"`
	Covered     int     `json:"covered"`
	Evaluations int     `json:"evaluations"`
	Generations int     `json:"generations"`
	Seconds     float64 `json:"searchSeconds"`
	// Timeline samples coverage once per second of search.
	Timeline []TimePoint `json:"timeline"`
	// GoalSeconds is, per covered goal, the search time at which it was
	// first covered.
	GoalSeconds map[int32]float64 `json:"goalSeconds"`
	// Repairs and Drops count the chromosome repairs of MOSA: offspring
	// repaired by further mutation, and offspring dropped.
	Repairs int `json:"repairs"`
	Drops   int `json:"drops"`
}

// TimePoint is coverage at a second of the search.
type TimePoint struct {
	Second      int `json:"second"`
	Covered     int `json:"covered"`
	Evaluations int `json:"evaluations"`
}

// Search holds what every algorithm needs: the executor, the test
// generator (with the run's one random source), the number of goals, the
// budget, and an optional progress callback.
type Search struct {
	Exec Evaluator
	Gen  *testcase.Generator
	// Objectives computes the objective of each goal from a trace (MOSA
	// needs it; random search does not).
	Objectives Objectives
	Goals      int
	Budget     Budget
	Progress   func(Stats)

	start   time.Time
	archive *Archive
	stats   Stats
	nextSec int
	// flaky marks the goals seen covered by a test in one run and not in
	// the next.
	flaky map[int32]bool
}

func (s *Search) begin(algorithm string) {
	s.start = time.Now()
	s.archive = NewArchive()
	s.flaky = map[int32]bool{}
	s.stats = Stats{Algorithm: algorithm, Goals: s.Goals, GoalSeconds: map[int32]float64{}}
	s.nextSec = 1
}

// done reports whether the budget is spent or every goal covered.
func (s *Search) done(ctx context.Context) bool {
	if ctx.Err() != nil || s.archive.Len() >= s.Goals {
		return true
	}
	if s.Budget.MaxEvals > 0 && s.stats.Evaluations >= s.Budget.MaxEvals {
		return true
	}
	return s.Budget.Time > 0 && time.Since(s.start) >= s.Budget.Time
}

// remaining bounds a batch by the evaluations left.
func (s *Search) remaining(n int) int {
	if s.Budget.MaxEvals > 0 {
		return min(n, s.Budget.MaxEvals-s.stats.Evaluations)
	}
	return n
}

// evaluate runs tests, updates the archive and statistics, and returns
// the results.
func (s *Search) evaluate(ctx context.Context, tests []*testcase.Test) ([]harness.Result, error) {
	res, err := s.Exec.Run(ctx, tests, false)
	if err != nil {
		return nil, err
	}
	// A test enters the archive only for the goals a second run confirms:
	// code that behaves differently from run to run (a select between two
	// ready channels) must not leave a flaky test behind.
	var again []*testcase.Test
	var wanted [][]int32
	var idx []int
	for i, r := range res {
		s.stats.Evaluations++
		if r.Trace == nil || r.Status == harness.TimedOut || r.Status == harness.Crashed {
			continue
		}
		if w := s.archive.Wants(tests[i], r.Trace.Covered); len(w) > 0 {
			again = append(again, tests[i])
			wanted = append(wanted, w)
			idx = append(idx, i)
		}
	}
	if len(again) > 0 {
		confirmed, err := s.confirm(ctx, again, wanted)
		if err != nil {
			return nil, err
		}
		elapsed := time.Since(s.start).Seconds()
		for j, both := range confirmed {
			evals := s.stats.Evaluations - len(res) + idx[j] + 1
			for _, g := range s.archive.Update(again[j], both, evals) {
				s.stats.GoalSeconds[g] = elapsed
			}
		}
	}
	elapsed := time.Since(s.start).Seconds()
	s.stats.Covered = s.archive.Len()
	for float64(s.nextSec) <= elapsed {
		s.stats.Timeline = append(s.stats.Timeline, TimePoint{Second: s.nextSec, Covered: s.stats.Covered, Evaluations: s.stats.Evaluations})
		s.nextSec++
	}
	if s.Progress != nil {
		s.Progress(s.stats)
	}
	return res, nil
}

// confirmRuns is how many more runs confirm a test for the goals it
// would enter the archive for; flakyConfirmations how many more after
// those for a goal that has been seen covered in one run and missed in
// another. A test that covers a goal half of the time passes the first
// with probability 1/16, and both with 1/2^20.
const (
	confirmRuns        = 4
	flakyConfirmations = 16
)

// confirm runs tests confirmRuns more times and returns, per test, the
// goals of wanted[j] every run covered too. A goal that one run covered
// and another did not is flaky: from then on, a test must cover it in
// flakyConfirmations more runs, and the test the archive holds for it is
// held to the same standard (and removed if it fails), so that a test
// that was lucky a few times does not stand for the goal.
func (s *Search) confirm(ctx context.Context, tests []*testcase.Test, wanted [][]int32) ([][]int32, error) {
	batch := make([]*testcase.Test, 0, len(tests)*confirmRuns)
	for k := 0; k < confirmRuns; k++ {
		batch = append(batch, tests...)
	}
	res, err := s.Exec.Run(ctx, batch, false)
	if err != nil {
		return nil, err
	}
	out := make([][]int32, len(tests))
	copy(out, wanted)
	for k, r := range res {
		j := k % len(tests)
		var covered []int32
		if r.Trace != nil {
			covered = r.Trace.Covered
		}
		out[j] = intersect(out[j], covered)
	}
	var fresh []int32
	for j := range tests {
		for _, g := range minus(wanted[j], out[j]) {
			if !s.flaky[g] {
				s.flaky[g] = true
				fresh = append(fresh, g)
			}
		}
	}
	// Tests that want a flaky goal run flakyConfirmations more times.
	var strict []*testcase.Test
	var owner []int
	for j := range tests {
		if s.wantsFlaky(out[j]) {
			for k := 0; k < flakyConfirmations; k++ {
				strict = append(strict, tests[j])
				owner = append(owner, j)
			}
		}
	}
	// So does the archived test of a goal just found flaky.
	held := s.archive.Holders(fresh)
	for _, h := range held {
		for k := 0; k < flakyConfirmations; k++ {
			strict = append(strict, h.Test)
			owner = append(owner, -1)
		}
	}
	if len(strict) == 0 {
		return out, nil
	}
	more, err := s.Exec.Run(ctx, strict, false)
	if err != nil {
		return nil, err
	}
	// seen counts, per archived test and goal, the runs that covered it.
	seen := map[*testcase.Test]map[int32]int{}
	for k, r := range more {
		var covered []int32
		if r.Trace != nil {
			covered = r.Trace.Covered
		}
		if j := owner[k]; j >= 0 {
			out[j] = keepStable(out[j], covered, s.flaky)
			continue
		}
		if seen[strict[k]] == nil {
			seen[strict[k]] = map[int32]int{}
		}
		for _, g := range covered {
			seen[strict[k]][g]++
		}
	}
	for _, h := range held {
		var missed []int32
		for _, g := range h.Goals {
			if seen[h.Test][g] < flakyConfirmations {
				missed = append(missed, g)
			}
		}
		for _, g := range s.archive.Remove(missed) {
			delete(s.stats.GoalSeconds, g)
		}
	}
	return out, nil
}

func (s *Search) wantsFlaky(goals []int32) bool {
	for _, g := range goals {
		if s.flaky[g] {
			return true
		}
	}
	return false
}

// keepStable keeps the goals of goals that are not flaky or that covered
// covers.
func keepStable(goals, covered []int32, flaky map[int32]bool) []int32 {
	in := setOf(covered)
	return filter(goals, func(g int32) bool { return !flaky[g] || in[g] })
}

// minus returns the elements of a that are not in b.
func minus(a, b []int32) []int32 {
	in := setOf(b)
	return filter(a, func(x int32) bool { return !in[x] })
}

// intersect returns the elements of a that are in b.
func intersect(a, b []int32) []int32 {
	in := setOf(b)
	return filter(a, func(x int32) bool { return in[x] })
}

// setOf returns the elements of xs as a set.
func setOf(xs []int32) map[int32]bool {
	in := make(map[int32]bool, len(xs))
	for _, x := range xs {
		in[x] = true
	}
	return in
}

// filter returns, in order, the elements of xs that keep accepts.
func filter(xs []int32, keep func(int32) bool) []int32 {
	var out []int32
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func (s *Search) finish() (*Archive, *Stats) {
	s.stats.Seconds = time.Since(s.start).Seconds()
	s.stats.Covered = s.archive.Len()
	st := s.stats
	return s.archive, &st
}

var errNoObjectives = errors.New("mosa: no objectives to optimise")

// randomBatch is how many random tests are evaluated at once.
const randomBatch = 64

// Random is random search with an archive: it generates random tests (each
// calling a covering function) and keeps every test that covers a goal not
// yet covered, until the budget is spent.
func (s *Search) Random(ctx context.Context) (*Archive, *Stats, error) {
	s.begin("random")
	for !s.done(ctx) {
		n := s.remaining(randomBatch)
		tests := make([]*testcase.Test, 0, n)
		for i := 0; i < n; i++ {
			tests = append(tests, s.Gen.RandomTest())
		}
		if _, err := s.evaluate(ctx, tests); err != nil {
			if ctx.Err() != nil {
				break
			}
			return nil, nil, err
		}
	}
	a, st := s.finish()
	return a, st, nil
}
