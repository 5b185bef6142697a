package mosa

import (
	"context"
	"math"
	"slices"
	"sort"

	"github.com/cling-go/cling/repair"
	"github.com/cling-go/cling/testcase"
)

// Params are MOSA's parameters.
type Params struct {
	// Population is the number of tests per generation.
	Population int
	// Crossover is the probability of crossing two parents.
	Crossover float64
	// NewTests is the fraction of each generation made of new tests: fresh
	// random tests, or mutated tests of the archive.
	NewTests float64
	// RepairAttempts bounds the mutations that try to put a covering call
	// back into a broken offspring.
	RepairAttempts int
}

// DefaultParams are MOSA's defaults: population 50, crossover 0.75, 10%
// new tests, 50 repair attempts.
func DefaultParams() Params {
	return Params{Population: 50, Crossover: 0.75, NewTests: 0.1, RepairAttempts: 50}
}

// individual is a test with its objective values.
type individual struct {
	t *testcase.Test
	// goals are the goals uncovered when the test was evaluated (or last
	// aligned), in increasing order, and fit the objective of each: covered
	// goals are never read again, so they take no room.
	goals    []int32
	fit      []float64
	rank     int
	crowding float64
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

// MOSA runs the many-objective sorting algorithm tailored to coupled
// branches (paper 002, section 3.2): one objective per coupled branch,
// preference sorting of the goals not yet covered, an archive of the
// shortest test per covered goal, covering functions first in every new
// test, and repair of offspring that lose their covering call.
func (s *Search) MOSA(ctx context.Context, p Params) (*Archive, *Stats, error) {
	s.begin("mosa")
	obj := s.Objectives
	if obj == nil {
		return nil, nil, errNoObjectives
	}
	var counts repair.Counts
	// Initial population: random tests, each calling a covering function.
	var pop []*individual
	initial := make([]*testcase.Test, 0, p.Population)
	for i := 0; i < s.remaining(p.Population); i++ {
		initial = append(initial, s.Gen.RandomTest())
	}
	pop, err := s.evaluateAll(ctx, obj, initial)
	if err != nil {
		return s.stop(ctx, err)
	}
	nNew := int(math.Round(float64(p.Population) * p.NewTests))
	for !s.done(ctx) {
		offspring := s.breed(pop, p, nNew, &counts)
		offspring = offspring[:s.remaining(len(offspring))]
		q, err := s.evaluateAll(ctx, obj, offspring)
		if err != nil {
			return s.stop(ctx, err)
		}
		s.stats.Generations++
		uncovered := s.uncovered()
		if len(uncovered) == 0 {
			break
		}
		pop = s.survive(append(pop, q...), uncovered, p.Population, obj.Worst())
	}
	s.stats.Repairs = counts.Repaired + counts.Replaced
	s.stats.Drops = counts.Dropped
	a, st := s.finish()
	return a, st, nil
}

func (s *Search) stop(ctx context.Context, err error) (*Archive, *Stats, error) {
	if ctx.Err() != nil {
		a, st := s.finish()
		return a, st, nil
	}
	return nil, nil, err
}

// uncovered lists the goals the archive does not cover yet.
func (s *Search) uncovered() []int32 {
	var out []int32
	for g := 0; g < s.Goals; g++ {
		if !s.archive.Covered(int32(g)) {
			out = append(out, int32(g))
		}
	}
	return out
}

// evaluateAll executes tests, updates the archive, and computes the
// objectives of the goals still uncovered.
func (s *Search) evaluateAll(ctx context.Context, obj Objectives, tests []*testcase.Test) ([]*individual, error) {
	res, err := s.evaluate(ctx, tests)
	if err != nil {
		return nil, err
	}
	uncovered := s.uncovered()
	out := make([]*individual, len(tests))
	for i, t := range tests {
		ind := &individual{t: t, goals: uncovered, fit: make([]float64, len(uncovered))}
		if len(uncovered) > 0 {
			obj.Evaluate(res[i].Trace, uncovered, ind.fit)
		}
		out[i] = ind
	}
	return out, nil
}

// breed makes the next offspring: selection, crossover and mutation with
// repair, plus nNew new tests.
func (s *Search) breed(pop []*individual, p Params, nNew int, counts *repair.Counts) []*testcase.Test {
	g := s.Gen
	var out []*testcase.Test
	want := p.Population - nNew
	for tries := 0; len(out) < want && tries < 8*p.Population; tries++ {
		a, b := s.tournament(pop), s.tournament(pop)
		var c1, c2 *testcase.Test
		if g.Rnd.Float64() < p.Crossover {
			c1, c2 = g.Crossover(a.t, b.t)
			c1 = repair.Crossover(c1, a.t, counts)
			c2 = repair.Crossover(c2, b.t, counts)
		} else {
			c1, c2 = a.t.Clone(), b.t.Clone()
		}
		for _, c := range []*testcase.Test{c1, c2} {
			g.Mutate(c)
			if c.Len() == 0 || !repair.Mutation(g, c, p.RepairAttempts, counts) {
				continue
			}
			if len(out) < want {
				out = append(out, c)
			}
		}
	}
	archived := s.archive.Tests()
	for i := 0; i < nNew; i++ {
		if len(archived) > 0 && g.Rnd.Float64() < 0.5 {
			t := archived[g.Rnd.Intn(len(archived))].Test.Clone()
			g.Mutate(t)
			g.Mutate(t)
			if t.Len() > 0 && repair.Mutation(g, t, p.RepairAttempts, counts) {
				out = append(out, t)
				continue
			}
		}
		out = append(out, g.RandomTest())
	}
	return out
}

// tournament picks the better of two random individuals: lower rank, then
// larger crowding distance.
func (s *Search) tournament(pop []*individual) *individual {
	a := pop[s.Gen.Rnd.Intn(len(pop))]
	b := pop[s.Gen.Rnd.Intn(len(pop))]
	switch {
	case a.rank != b.rank:
		if a.rank < b.rank {
			return a
		}
		return b
	case a.crowding != b.crowding:
		if a.crowding > b.crowding {
			return a
		}
		return b
	}
	return a
}

// survive keeps n individuals by preference sorting over the uncovered
// goals: front 0 is the best test of each goal (ties to the shorter),
// further fronts come from non-dominated sorting; the last front admitted
// is cut by crowding distance. An individual not evaluated for an
// uncovered goal scores worst on it.
func (s *Search) survive(all []*individual, uncovered []int32, n int, worst float64) []*individual {
	for _, ind := range all {
		ind.align(uncovered, worst)
	}
	fronts := preferenceSort(all, len(uncovered))
	var next []*individual
	for r, f := range fronts {
		crowding(f, len(uncovered))
		for _, ind := range f {
			ind.rank = r
		}
		if len(next)+len(f) <= n {
			next = append(next, f...)
			continue
		}
		sort.SliceStable(f, func(i, j int) bool {
			if f[i].crowding != f[j].crowding {
				return f[i].crowding > f[j].crowding
			}
			return f[i].t.Len() < f[j].t.Len()
		})
		next = append(next, f[:n-len(next)]...)
		break
	}
	return next
}

// preferenceSort splits individuals, whose objectives are aligned to the
// same n uncovered goals, into fronts.
func preferenceSort(all []*individual, n int) [][]*individual {
	taken := make([]bool, len(all))
	var front0 []*individual
	for g := 0; g < n; g++ {
		best := -1
		for i, ind := range all {
			if best < 0 || ind.fit[g] < all[best].fit[g] ||
				(ind.fit[g] == all[best].fit[g] && ind.t.Len() < all[best].t.Len()) {
				best = i
			}
		}
		if best >= 0 && !taken[best] {
			taken[best] = true
			front0 = append(front0, all[best])
		}
	}
	fronts := [][]*individual{front0}
	var rest []*individual
	for i, ind := range all {
		if !taken[i] {
			rest = append(rest, ind)
		}
	}
	for len(rest) > 0 {
		var front, remaining []*individual
		for i, a := range rest {
			dominated := false
			for j, b := range rest {
				if i != j && dominates(b, a) {
					dominated = true
					break
				}
			}
			if dominated {
				remaining = append(remaining, a)
			} else {
				front = append(front, a)
			}
		}
		if len(front) == 0 { // only possible with NaNs; keep order
			front, remaining = remaining, nil
		}
		fronts = append(fronts, front)
		rest = remaining
	}
	return fronts
}

// dominates reports whether a is at least as good as b on every uncovered
// goal and better on one (their objectives aligned to the same goals).
func dominates(a, b *individual) bool {
	better := false
	for g := range a.fit {
		switch {
		case a.fit[g] > b.fit[g]:
			return false
		case a.fit[g] < b.fit[g]:
			better = true
		}
	}
	return better
}

// crowding assigns epsilon-dominance crowding distances within a front:
// for every goal on which the front's values differ, the individuals at
// the minimum get credit for being few.
func crowding(f []*individual, goals int) {
	for _, ind := range f {
		ind.crowding = 0
	}
	if len(f) <= 2 {
		for _, ind := range f {
			ind.crowding = math.Inf(1)
		}
		return
	}
	n := float64(len(f))
	for g := 0; g < goals; g++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, ind := range f {
			lo = math.Min(lo, ind.fit[g])
			hi = math.Max(hi, ind.fit[g])
		}
		if lo == hi {
			continue
		}
		atMin := 0
		for _, ind := range f {
			if ind.fit[g] == lo {
				atMin++
			}
		}
		d := (n - float64(atMin)) / n
		for _, ind := range f {
			if ind.fit[g] == lo && d > ind.crowding {
				ind.crowding = d
			}
		}
	}
}
