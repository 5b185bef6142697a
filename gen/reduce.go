package gen

import (
	"cmp"
	"context"
	"slices"

	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// reduceRuns is how often reduce runs each test: a goal counts as covered
// by a test only when every run covers it, so that a goal one test
// covers by chance is not taken from the test the archive confirmed.
const reduceRuns = 2

// reduce keeps, of the archive's tests, a subset that covers every goal
// they hold, and says which goals each kept test answers for. The archive
// keeps one test per goal, the shortest (or, keeping cheaper tests, the
// cheapest) that covers it; a test that covers many goals is often
// displaced from some of them by tests that cover only those, and the
// file then holds both. reduce runs each test (reduceRuns times), takes
// the goals it covers in every run (and those it holds, which the search
// confirmed), and picks tests greedily, as a weighted set cover: the test
// with the most goals not yet answered for per unit of cost, the first
// of the archive's order on a tie, until every goal is answered for. The
// cost is the test's length, or 1 plus its performance score when the
// archive keeps cheaper tests (cheap suites are then the aim). The tests
// left out stay in the archive, where finish finds them again when a
// kept test fails verification. The kept tests come in the archive's
// order, each with the goals it answers for.
func (j *job) reduce(ctx context.Context, archive *mosa.Archive, candidates []mosa.ArchivedTest) ([]mosa.ArchivedTest, error) {
	if len(candidates) < 2 {
		return candidates, nil
	}
	wanted := map[int32]bool{}
	for _, c := range candidates {
		for _, g := range c.Goals {
			wanted[g] = true
		}
	}
	tests := make([]*testcase.Test, len(candidates))
	for i, c := range candidates {
		tests[i] = c.Test
	}
	covers := make([]map[int32]int, len(candidates)) // goal → runs that covered it
	cost := make([]float64, len(candidates))
	for run := 0; run < reduceRuns; run++ {
		res, err := j.x.Run(ctx, tests, false)
		if err != nil {
			return nil, err
		}
		for i, r := range res {
			if covers[i] == nil {
				covers[i] = map[int32]int{}
				cost[i] = float64(tests[i].Len())
				if archive.KeepsCheaper() {
					cost[i] = 1 + mosa.ProxiesOf(tests[i], r.Trace).Score()
				}
			}
			if !r.Regression() {
				continue
			}
			for _, g := range j.coveredBy(r) {
				if wanted[g] {
					covers[i][g]++
				}
			}
		}
	}
	sets := make([][]int32, len(candidates))
	for i, c := range candidates {
		sets[i] = append(sets[i], c.Goals...)
		for g, n := range covers[i] {
			if n == reduceRuns && !slices.Contains(c.Goals, g) {
				sets[i] = append(sets[i], g)
			}
		}
		slices.Sort(sets[i])
	}
	assigned := setCover(sets, cost)
	var out []mosa.ArchivedTest
	for i, c := range candidates {
		if assigned[i] != nil {
			out = append(out, mosa.ArchivedTest{Test: c.Test, Goals: assigned[i]})
		}
	}
	return out, nil
}

// setCover picks sets greedily until every goal of sets is answered for:
// each step the set with the most goals not yet answered for per unit of
// its cost, the first on a tie. A set picked early can end up holding
// nothing the later picks do not hold too (picked for {1,2,3,4}, then
// {1,2,5} and {3,4,6}); so, the dearest first (the later pick on a tie),
// each picked set whose goals the other picked sets all hold is then
// dropped, and the goals are answered for again, in the order of the
// picks. It returns, per set, the goals it answers for, in the set's
// order; nil for a set not picked.
func setCover(sets [][]int32, cost []float64) [][]int32 {
	want := map[int32]bool{}
	for _, s := range sets {
		for _, g := range s {
			want[g] = true
		}
	}
	answered := map[int32]bool{}
	var picks []int
	picked := make([]bool, len(sets))
	for len(answered) < len(want) {
		best, bestGain := -1, 0.0
		for i, s := range sets {
			if picked[i] {
				continue
			}
			n := 0
			for _, g := range s {
				if !answered[g] {
					n++
				}
			}
			if gain := float64(n) / cost[i]; n > 0 && (best < 0 || gain > bestGain) {
				best, bestGain = i, gain
			}
		}
		picks, picked[best] = append(picks, best), true
		for _, g := range sets[best] {
			answered[g] = true
		}
	}
	held := map[int32]int{} // goal → picked sets that hold it
	for _, i := range picks {
		for _, g := range sets[i] {
			held[g]++
		}
	}
	// The dearest first, the later pick on a tie.
	byCost := slices.Clone(picks)
	slices.Reverse(byCost)
	slices.SortStableFunc(byCost, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	dropped := map[int]bool{}
	for _, i := range byCost {
		if !slices.ContainsFunc(sets[i], func(g int32) bool { return held[g] == 1 }) {
			dropped[i] = true
			for _, g := range sets[i] {
				held[g]--
			}
		}
	}
	answered = map[int32]bool{}
	assigned := make([][]int32, len(sets))
	for _, i := range picks {
		if dropped[i] {
			continue
		}
		for _, g := range sets[i] {
			if !answered[g] {
				answered[g] = true
				assigned[i] = append(assigned[i], g)
			}
		}
	}
	return assigned
}
