// Package mosa is cling's search engine and its search algorithms.
//
// The engine (Engine) holds what every algorithm shares: it executes the
// tests an algorithm proposes through a harness executor, confirms the
// goals a test covers by running it again (more often for flaky goals),
// keeps the archive of the shortest test per covered goal, counts the
// budget (and shares of it) and collects statistics.
//
// An algorithm (Algorithm) decides which tests to try. Each lives in one
// file that registers it by name (Register): mosa.go is the many-objective
// sorting algorithm tailored to coupled branches, the default;
// dynamosa.go is MOSA over the goals whose structural dependencies are
// covered; onegoal.go searches for one goal at a time; ws.go and wsa.go
// evolve whole suites, without and with an archive; random.go is random
// search with an archive, the baseline. What several algorithms share
// sits beside them: populations with objective vectors (population.go),
// preference sorting and survival (ranking.go), selection, crossover and
// mutation with repair (variation.go), and suites as chromosomes
// (suite.go). Crossover operators are registered by name too (Crossover;
// singlepoint.go holds single-point crossover, the default; hmx.go hybrid
// multi-level crossover), and so are the secondary objectives of the
// algorithms with fronts (Secondary, secondary.go): crowding.go, the
// crowding distance, the default; performance.go and adaptive.go, which
// prefer tests that are cheaper to run by their performance proxies
// (proxies.go).
package mosa

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/repair"
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

// Explorer is an Evaluator that may stop a slow test early when its
// result only guides the search (harness.Executor.Explore): the engine
// uses it for the first execution of each test, and Run for the
// confirmation runs of the tests it archives.
type Explorer interface {
	Explore(ctx context.Context, tests []*testcase.Test) ([]harness.Result, error)
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

// Coverage is implemented by objectives whose goals are not (only) the
// coupled branches a trace lists as covered, such as a combination of
// coverage criteria (package criteria): they tell which goals a trace
// covers, and how many goals there are, a number that may grow as the
// search discovers goals (a new panic). Without it, the goals a trace
// covers are its Covered coupled branches, and there are Engine.Goals.
type Coverage interface {
	// Covered returns the goals the test of trace tr covers.
	Covered(tr *rt.Trace) []int32
	// Goals returns the number of goals known so far.
	Goals() int
}

// Targets is implemented by objectives with goals the search keeps tests
// for without pursuing them, such as the goals smart goal selection
// leaves out of the search (package criteria): a test that covers one is
// archived for it, but it is no objective, and the search does not wait
// for it to end. Without it, every goal is a target.
type Targets interface {
	// Target reports whether goal is an objective of the search.
	Target(goal int32) bool
}

// Primaries is implemented by objectives some of whose goals matter more
// than the others, such as the coupled branches among the goals of other
// coverage criteria (package criteria): when MOSA's front 0, the best test
// of each goal, holds more tests than the population, the best tests of
// the primary goals survive first. Without it, every goal is primary.
type Primaries interface {
	// Primary reports whether goal is a primary goal.
	Primary(goal int32) bool
}

// Forker is implemented by objectives that can evaluate on two
// goroutines at once, such as fitness.Objectives and the criteria's set
// (package criteria): MOSA's population is then evaluated half on each,
// with the same values as on one.
type Forker interface {
	// EvaluateFork returns an Evaluate, for the goals known now, that may
	// run on another goroutine while the receiver's Evaluate runs. Each
	// call may return the same one, brought up to date; the one returned
	// before must have returned.
	EvaluateFork() func(tr *rt.Trace, goals []int32, out []float64)
	// Join tells the receiver, once the fork returned, of each trace the
	// fork evaluated, in order: the receiver learns from it what its own
	// Evaluate would have (the goals found in it).
	Join(tr *rt.Trace)
}

// SuiteObjectives are objectives that also tell how far a test got
// towards each goal, which the whole-suite fitness needs;
// fitness.Objectives is one.
type SuiteObjectives interface {
	Objectives
	// Progress writes the progress of the test of trace tr towards each
	// goal in goals (all goals if nil) into out.
	Progress(tr *rt.Trace, goals []int32, out []fitness.Progress)
}

// Stats describe a search run.
type Stats struct {
	Algorithm string `json:"algorithm"`
	// Goals and Covered count the target goals (Targets) and those
	// covered; the archive may also hold tests for goals set aside.
	Goals       int     `json:"goals"`
	Covered     int     `json:"covered"`
	Evaluations int     `json:"evaluations"`
	Generations int     `json:"generations"`
	Seconds     float64 `json:"searchSeconds"`
	// Statements counts the statements of R and E the evaluations
	// executed (the probes' count; nothing for a test that hung or
	// crashed): the work the tests did, which a count of evaluations
	// does not tell, since one test can parse a word and another a page.
	Statements int64 `json:"statementsExecuted"`
	// Timeline samples coverage once per second of search.
	Timeline []TimePoint `json:"timeline"`
	// GoalSeconds is, per covered goal, the search time at which it was
	// first covered.
	GoalSeconds map[int32]float64 `json:"goalSeconds"`
	// Repairs and Drops count the chromosome repairs of the algorithms
	// that repair offspring (MOSA): offspring repaired by further mutation
	// or replaced by a parent, and offspring dropped.
	Repairs int `json:"repairs"`
	Drops   int `json:"drops"`
	// Heuristics counts, per heuristic of the secondary objective, the
	// generations it ordered (algorithms with fronts only).
	Heuristics map[string]int `json:"heuristics,omitempty"`
}

// TimePoint is coverage at a second of the search.
type TimePoint struct {
	Second      int `json:"second"`
	Covered     int `json:"covered"`
	Evaluations int `json:"evaluations"`
}

// Engine holds what every algorithm needs: the executor, the test
// generator (with the run's one random source and the operators that
// build and mutate tests), the goals (numbered 0 to Goals-1) and their
// objectives, the budget, and an optional progress callback. An engine
// runs one search at a time.
type Engine struct {
	Exec Evaluator
	Gen  *testcase.Generator
	// Objectives computes the objective of each goal from a trace (MOSA
	// needs it; random search does not).
	Objectives Objectives
	// Goals is the number of goals, numbered from 0; with objectives that
	// implement Coverage, it follows their count as goals join.
	Goals int
	// Parents lists, per goal, the goals it structurally depends on
	// (couple.Analysis.GoalParents): DynaMOSA makes a goal an objective
	// once one of its parents is covered. Without it, every goal is a
	// root.
	Parents  [][]int32
	Budget   Budget
	Progress func(Stats)
	// Watch, if set, sees every test the search executes, with the result
	// of its first execution (package fault classifies them).
	Watch func(tests []*testcase.Test, res []harness.Result)
	// Open, if set, keeps covered goals objectives of the search: Uncovered
	// lists the goals it holds open too, and the search does not end for
	// covering every goal while one is open. A search for faults holds
	// open the goals of the call sites where it saw one, so that other
	// inputs that reach them are tried.
	Open func(goal int32) bool

	// stage is the part of the budget the search is limited to (Stage):
	// the evaluation count and the time at which it ends, zero for none.
	stageEvals int
	stageEnd   time.Time

	start   time.Time
	archive *Archive
	stats   Stats
	repairs repair.Counts
	nextSec int
	// flaky marks the goals seen covered by a test in one run and not in
	// the next.
	flaky map[int32]bool
	// leaks are the places (the innermost frame of the goroutine left
	// running) of leaks a run with the full grace confirmed: a test the
	// search's shorter grace judges to leak there is not run again.
	leaks map[string]bool
	// guidedAt is the archive size when the generator's preference was
	// last set (-1 before the first).
	guidedAt int
}

// Run searches with the registered algorithm name, configured by cfg,
// until the budget is spent, every goal is covered or ctx is done (which
// ends the search early but is no error). It returns the archive of
// covering tests and the statistics of the run.
func (e *Engine) Run(ctx context.Context, name string, cfg Config) (*Archive, *Stats, error) {
	alg, err := New(name, cfg)
	if err != nil {
		return nil, nil, err
	}
	return e.run(ctx, name, alg)
}

// run runs alg, recording name as the algorithm of the statistics.
func (e *Engine) run(ctx context.Context, name string, alg Algorithm) (*Archive, *Stats, error) {
	e.begin(name)
	if err := alg.Search(ctx, e); err != nil && ctx.Err() == nil {
		return nil, nil, err
	}
	a, st := e.finish()
	return a, st, nil
}

func (e *Engine) begin(algorithm string) {
	e.start = time.Now()
	e.archive = NewArchive()
	e.flaky = map[int32]bool{}
	e.leaks = map[string]bool{}
	e.stats = Stats{Algorithm: algorithm, GoalSeconds: map[int32]float64{}}
	e.count()
	e.repairs = repair.Counts{}
	e.nextSec = 1
	e.Stage(Budget{})
	e.guidedAt = -1
	e.guide()
}

// guide sets the generator's preference for the types of the values it
// draws for empty interfaces to what the uncovered goals ask for (see
// testcase.Cluster.Preference), when the covered goals changed.
func (e *Engine) guide() {
	if e.Gen == nil || e.Gen.C == nil || e.stats.Covered == e.guidedAt {
		return
	}
	e.guidedAt = e.stats.Covered
	e.Gen.Prefer = e.Gen.C.Preference(e.Uncovered())
}

// Done reports whether the search must stop: the budget (or the stage
// of it, see Stage) is spent, every target goal is covered, or ctx is
// done.
func (e *Engine) Done(ctx context.Context) bool {
	return e.stats.Covered >= e.stats.Goals && !e.anyOpen() || e.Spent(ctx)
}

// target reports whether goal is an objective of the search (Targets).
func (e *Engine) target(goal int32) bool {
	t, ok := e.Objectives.(Targets)
	return !ok || t.Target(goal)
}

// primary marks which of goals are primary (Primaries), or returns nil
// when all are.
func (e *Engine) primary(goals []int32) []bool {
	p, ok := e.Objectives.(Primaries)
	if !ok {
		return nil
	}
	marks := make([]bool, len(goals))
	all := true
	for i, g := range goals {
		marks[i] = p.Primary(g)
		all = all && marks[i]
	}
	if all {
		return nil
	}
	return marks
}

// Targets lists the goals the search pursues, covered or not, in
// increasing order: every goal unless the objectives set some aside
// (Targets).
func (e *Engine) Targets() []int32 {
	out := make([]int32, 0, e.Goals)
	for g := int32(0); g < int32(e.Goals); g++ {
		if e.target(g) {
			out = append(out, g)
		}
	}
	return out
}

// Breeders returns the archive's tests that new tests are made from: as
// Archive.Tests, but only those that hold a goal the search pursues,
// ordered by the smallest such goal. A test kept only for goals set aside
// (Targets) does not steer the search.
func (e *Engine) Breeders() []ArchivedTest {
	all := e.archive.Tests()
	if _, ok := e.Objectives.(Targets); !ok {
		return all
	}
	type held struct {
		t     ArchivedTest
		first int32
	}
	var hs []held
	for _, t := range all {
		for _, g := range t.Goals { // in increasing order
			if e.target(g) {
				hs = append(hs, held{t, g})
				break
			}
		}
	}
	slices.SortStableFunc(hs, func(a, b held) int { return cmp.Compare(a.first, b.first) })
	out := make([]ArchivedTest, len(hs))
	for i, h := range hs {
		out[i] = h.t
	}
	return out
}

// count sets the statistics' goals and covered goals to the target goals
// and those the archive covers.
func (e *Engine) count() {
	if _, ok := e.Objectives.(Targets); !ok {
		e.stats.Goals, e.stats.Covered = e.Goals, e.archive.Len()
		return
	}
	e.stats.Goals, e.stats.Covered = 0, 0
	for g := int32(0); g < int32(e.Goals); g++ {
		if e.target(g) {
			e.stats.Goals++
			if e.archive.Covered(g) {
				e.stats.Covered++
			}
		}
	}
}

// anyOpen reports whether Open holds a goal open.
func (e *Engine) anyOpen() bool {
	if e.Open == nil {
		return false
	}
	for g := 0; g < e.Goals; g++ {
		if e.Open(int32(g)) {
			return true
		}
	}
	return false
}

// Spent reports whether the budget (or the stage of it, see Stage) is
// spent or ctx is done: Done, whatever the archive covers, for an
// algorithm whose result is not the archive.
func (e *Engine) Spent(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	if e.Budget.MaxEvals > 0 && e.stats.Evaluations >= e.Budget.MaxEvals ||
		e.stageEvals > 0 && e.stats.Evaluations >= e.stageEvals {
		return true
	}
	if !e.stageEnd.IsZero() && !time.Now().Before(e.stageEnd) {
		return true
	}
	return e.Budget.Time > 0 && time.Since(e.start) >= e.Budget.Time
}

// Remaining bounds a batch of n tests by the evaluations left (in the
// stage, if there is one).
func (e *Engine) Remaining(n int) int {
	if e.Budget.MaxEvals > 0 {
		n = min(n, e.Budget.MaxEvals-e.stats.Evaluations)
	}
	if e.stageEvals > 0 {
		n = min(n, e.stageEvals-e.stats.Evaluations)
	}
	return max(n, 0)
}

// Left returns the part of the budget not spent yet: the evaluations and
// the time left, a zero field for a limit the budget does not set. It is
// meaningful while Done is false.
func (e *Engine) Left() Budget {
	var b Budget
	if e.Budget.MaxEvals > 0 {
		b.MaxEvals = e.Budget.MaxEvals - e.stats.Evaluations
	}
	if e.Budget.Time > 0 {
		b.Time = e.Budget.Time - time.Since(e.start)
	}
	return b
}

// Stage limits the search to b, a part of what is left of the budget,
// until the next call: Done and Remaining honour it besides the budget (a
// zero field sets no further limit), so Stage(Budget{}) lifts the limit.
// OneGoal gives each goal its share of the budget this way.
func (e *Engine) Stage(b Budget) {
	e.stageEvals, e.stageEnd = 0, time.Time{}
	if b.MaxEvals > 0 {
		e.stageEvals = e.stats.Evaluations + b.MaxEvals
	}
	if b.Time > 0 {
		e.stageEnd = time.Now().Add(b.Time)
	}
}

// Evaluate executes tests (explores them, if the evaluator is an
// Explorer), archives each for the goals it covers in every run of its
// confirmation (see confirm), updates the statistics, and returns the
// results of the first execution, whose traces give the objectives. The
// executor runs a batch in one round trip per worker: an algorithm should
// hand it all the tests it can at once (a generation, a batch of random
// tests).
func (e *Engine) Evaluate(ctx context.Context, tests []*testcase.Test) ([]harness.Result, error) {
	var res []harness.Result
	var err error
	if x, ok := e.Exec.(Explorer); ok {
		res, err = x.Explore(ctx, tests)
	} else {
		res, err = e.Exec.Run(ctx, tests, false)
	}
	if err != nil {
		return nil, err
	}
	if e.Watch != nil {
		e.Watch(tests, res)
	}
	e.stats.Evaluations += len(res)
	for _, r := range res {
		if r.Trace != nil {
			e.stats.Statements += int64(r.Trace.Cost.Stmts)
		}
	}
	if err := e.archiveCovering(ctx, tests, res, e.stats.Evaluations-len(res)); err != nil {
		return nil, err
	}
	if c, ok := e.Objectives.(Coverage); ok && c.Goals() > e.Goals {
		e.Goals = c.Goals()
	}
	e.count()
	e.guide()
	elapsed := time.Since(e.start).Seconds()
	for float64(e.nextSec) <= elapsed {
		e.stats.Timeline = append(e.stats.Timeline, TimePoint{Second: e.nextSec, Covered: e.stats.Covered, Evaluations: e.stats.Evaluations})
		e.nextSec++
	}
	if e.Progress != nil {
		e.Progress(e.stats)
	}
	return res, nil
}

// archiveCovering archives each of tests, whose first execution gave res,
// for the goals it covers and a second run confirms; the tests were
// evaluations base+1, base+2, ...
func (e *Engine) archiveCovering(ctx context.Context, tests []*testcase.Test, res []harness.Result, base int) error {
	if err := e.recheckLeakCuts(ctx, tests, res); err != nil {
		return err
	}
	// A test enters the archive only for the goals a second run confirms:
	// code that behaves differently from run to run (a select between two
	// ready channels) must not leave a flaky test behind.
	var again []*testcase.Test
	var wanted [][]int32
	var idx []int
	var scores []float64
	for i, r := range res {
		// A runtime error, a leak, a hang or a crash is a fault to report,
		// never behaviour a regression test pins.
		if !r.Regression() {
			continue
		}
		if w, ps := e.wants(tests[i], r); len(w) > 0 {
			again = append(again, tests[i])
			wanted = append(wanted, w)
			idx = append(idx, i)
			scores = append(scores, ps)
		}
	}
	if len(again) == 0 {
		return nil
	}
	confirmed, err := e.confirm(ctx, again, wanted)
	if err != nil {
		return err
	}
	elapsed := time.Since(e.start).Seconds()
	for j, both := range confirmed {
		for _, g := range e.archive.Update(again[j], scores[j], both, base+idx[j]+1) {
			e.stats.GoalSeconds[g] = elapsed
		}
	}
	return nil
}

// recheckLeakCuts runs again, with the executor's full grace, the tests
// judged to leak at the search's shorter one (harness.Result.LeakCut)
// that would otherwise enter the archive, and puts the new results in
// their place: a test whose goroutines take longer to end than most is no
// leak for that, and its goals are not lost. A leak at a place where a
// run with the full grace confirmed one before is taken as it is.
func (e *Engine) recheckLeakCuts(ctx context.Context, tests []*testcase.Test, res []harness.Result) error {
	var again []*testcase.Test
	var idx []int
	for i, r := range res {
		if !r.LeakCut || e.leaks[leakPlace(r.Leak)] {
			continue
		}
		clean := r
		clean.Leak, clean.LeakCut = "", false
		if !clean.Regression() {
			continue
		}
		if w, _ := e.wants(tests[i], r); len(w) > 0 {
			again = append(again, tests[i])
			idx = append(idx, i)
		}
	}
	if len(again) == 0 {
		return nil
	}
	rerun, err := e.Exec.Run(ctx, again, false)
	if err != nil {
		return err
	}
	for k, i := range idx {
		if rerun[k].Leak != "" {
			e.leaks[leakPlace(res[i].Leak)] = true
		}
		res[i] = rerun[k]
	}
	return nil
}

// wants returns the goals the archive would take test t for, whose
// execution gave r, and the test's performance score (0 unless the
// archive keeps tests by it).
func (e *Engine) wants(t *testcase.Test, r harness.Result) ([]int32, float64) {
	ps := 0.0
	if e.archive.byScore {
		ps = ProxiesOf(t, r.Trace).Score()
	}
	return e.archive.Wants(t, ps, e.covered(r.Trace)), ps
}

// leakPlace is the innermost frame of a leaked goroutine's stack (see
// harness.Result.Leak).
func leakPlace(stack string) string {
	first, _, _ := strings.Cut(stack, "\n")
	return first
}

// Conclude makes tests the result of the search in place of the archive,
// for an algorithm whose output is one suite (whole-suite generation
// without an archive). The tests run again, and the archive is rebuilt
// from them alone, each test archived for the goals it covers and its
// confirmation runs confirm; the goals they do not cover are uncovered.
// These runs are not evaluations of the search.
func (e *Engine) Conclude(ctx context.Context, tests []*testcase.Test) error {
	res, err := e.Exec.Run(ctx, tests, false)
	if err != nil {
		return err
	}
	first := e.stats.GoalSeconds
	byScore := e.archive.byScore
	e.archive = NewArchive()
	e.archive.byScore = byScore
	e.stats.GoalSeconds = map[int32]float64{}
	if err := e.archiveCovering(ctx, tests, res, e.stats.Evaluations); err != nil {
		return err
	}
	for g := range e.stats.GoalSeconds {
		if s, ok := first[g]; ok {
			e.stats.GoalSeconds[g] = s // when the search first covered it
		}
	}
	e.count()
	return nil
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
func (e *Engine) confirm(ctx context.Context, tests []*testcase.Test, wanted [][]int32) ([][]int32, error) {
	batch := make([]*testcase.Test, 0, len(tests)*confirmRuns)
	for k := 0; k < confirmRuns; k++ {
		batch = append(batch, tests...)
	}
	res, err := e.Exec.Run(ctx, batch, false)
	if err != nil {
		return nil, err
	}
	out := make([][]int32, len(tests))
	copy(out, wanted)
	for k, r := range res {
		j := k % len(tests)
		var covered []int32
		if r.Regression() {
			covered = e.covered(r.Trace)
		}
		out[j] = intersect(out[j], covered)
	}
	var fresh []int32
	for j := range tests {
		for _, g := range minus(wanted[j], out[j]) {
			if !e.flaky[g] {
				e.flaky[g] = true
				fresh = append(fresh, g)
			}
		}
	}
	// Tests that want a flaky goal run flakyConfirmations more times.
	var strict []*testcase.Test
	var owner []int
	for j := range tests {
		if e.wantsFlaky(out[j]) {
			for k := 0; k < flakyConfirmations; k++ {
				strict = append(strict, tests[j])
				owner = append(owner, j)
			}
		}
	}
	// So does the archived test of a goal just found flaky.
	held := e.archive.Holders(fresh)
	for _, h := range held {
		for k := 0; k < flakyConfirmations; k++ {
			strict = append(strict, h.Test)
			owner = append(owner, -1)
		}
	}
	if len(strict) == 0 {
		return out, nil
	}
	more, err := e.Exec.Run(ctx, strict, false)
	if err != nil {
		return nil, err
	}
	// seen counts, per archived test and goal, the runs that covered it.
	seen := map[*testcase.Test]map[int32]int{}
	for k, r := range more {
		var covered []int32
		if r.Regression() {
			covered = e.covered(r.Trace)
		}
		if j := owner[k]; j >= 0 {
			out[j] = keepStable(out[j], covered, e.flaky)
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
		for _, g := range e.archive.Remove(missed) {
			delete(e.stats.GoalSeconds, g)
		}
	}
	return out, nil
}

func (e *Engine) wantsFlaky(goals []int32) bool {
	for _, g := range goals {
		if e.flaky[g] {
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

// covered returns the goals the test of trace tr covers (none for a nil
// trace).
func (e *Engine) covered(tr *rt.Trace) []int32 {
	if tr == nil {
		return nil
	}
	if c, ok := e.Objectives.(Coverage); ok {
		return c.Covered(tr)
	}
	return tr.Covered
}

// Uncovered lists the target goals the archive does not cover yet, and
// those Open holds open, in increasing order.
func (e *Engine) Uncovered() []int32 {
	var out []int32
	for g := 0; g < e.Goals; g++ {
		if !e.target(int32(g)) {
			continue
		}
		if !e.archive.Covered(int32(g)) || e.Open != nil && e.Open(int32(g)) {
			out = append(out, int32(g))
		}
	}
	return out
}

// Archive is the archive of the search: the shortest test per covered
// goal.
func (e *Engine) Archive() *Archive { return e.archive }

// CountGeneration records that an algorithm completed a generation.
func (e *Engine) CountGeneration() { e.stats.Generations++ }

// countHeuristic records that h ordered a generation's fronts.
func (e *Engine) countHeuristic(h Heuristic) {
	if e.stats.Heuristics == nil {
		e.stats.Heuristics = map[string]int{}
	}
	e.stats.Heuristics[h.Name]++
}

// Repairs are the repair counts of the search, which the algorithms that
// repair offspring add to.
func (e *Engine) Repairs() *repair.Counts { return &e.repairs }

func (e *Engine) finish() (*Archive, *Stats) {
	e.stats.Seconds = time.Since(e.start).Seconds()
	e.count()
	e.stats.Repairs = e.repairs.Repaired + e.repairs.Replaced
	e.stats.Drops = e.repairs.Dropped
	st := e.stats
	return e.archive, &st
}
