package mosa

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/cling-go/cling/fitness"
	"github.com/stretchr/testify/assert"
)

// ind is a test of length n with objectives for the goals 0, 1, ...
func ind(n int, fit ...float64) *individual {
	goals := make([]int32, len(fit))
	for i := range goals {
		goals[i] = int32(i)
	}
	return &individual{t: testOfLen(n), goals: goals, fit: fit, obj: fit}
}

// five returns individuals for the uncovered goals 0 and 1: a is best for
// goal 0, c best for goal 1 (tie with d broken by length), b is dominated
// by a, e by everything.
func five() (a, b, c, d, e *individual) {
	return ind(4, 0.1, 0.9), ind(4, 0.2, 0.95), ind(5, 0.8, 0.3), ind(6, 0.8, 0.3), ind(2, 0.9, 0.99)
}

func TestPreferenceSort(t *testing.T) {
	a, b, c, d, e := five()
	fronts := first(preferenceSort([]*individual{a, b, c, d, e}, 2, 2, -1, nil))
	assert.Equal(t, [][]*individual{{a, c}, {b, d}, {e}}, fronts)
	// Survival of 2, 3 or 4 needs the fronts up to the one it cuts.
	assert.Equal(t, [][]*individual{{a, c}, {b, d}}, first(preferenceSort([]*individual{a, b, c, d, e}, 2, 2, 2, nil)))
	assert.Equal(t, [][]*individual{{a, c}, {b, d}}, first(preferenceSort([]*individual{a, b, c, d, e}, 2, 2, 3, nil)))
	assert.Equal(t, [][]*individual{{a, c}, {b, d}, {e}}, first(preferenceSort([]*individual{a, b, c, d, e}, 2, 2, 4, nil)))
}

// Between two tests equally near a goal and as long, the one with fewer
// bytes in its strings is the goal's best; between as many bytes, the
// first.
func TestPreferenceSortTiesToFewerStringBytes(t *testing.T) {
	withString := func(s string, fit ...float64) *individual {
		x := ind(2, fit...)
		x.t.Stmts[0].Value = s
		return x
	}
	long, short, same := withString("a long input", 0.5, 0.9), withString("short", 0.5, 0.8), withString("other", 0.5, 0.8)
	fronts := first(preferenceSort([]*individual{long, short, same}, 2, 2, -1, nil))
	assert.Equal(t, []*individual{short}, fronts[0])
	fronts = first(preferenceSort([]*individual{long, same, short}, 2, 2, -1, nil))
	assert.Equal(t, []*individual{same}, fronts[0])
	front := []*individual{long, short}
	assert.Equal(t, []*individual{short, long}, byScore(front), "a cut keeps the smaller of two equally crowded")
}

func TestDominates(t *testing.T) {
	assert.True(t, dominates(ind(1, 0.1, 0.2), ind(1, 0.2, 0.2)))
	assert.False(t, dominates(ind(1, 0.2, 0.2), ind(1, 0.2, 0.2)), "equal vectors")
	assert.False(t, dominates(ind(1, 0.1, 0.3), ind(1, 0.2, 0.2)), "incomparable")
	a, b := ind(1, 0.1, 5, 0.3), ind(1, 0.2, 0, 0.3)
	for _, x := range []*individual{a, b} {
		x.align([]int32{0, 2}, fitness.Worst)
		x.project(nil)
	}
	assert.True(t, dominates(a, b), "only uncovered goals count")
}

func TestAlignKeepsTheObjectivesOfUncoveredGoals(t *testing.T) {
	x := ind(1, 0.0, 0.1, 0.2, 0.3, 0.4)
	x.align([]int32{1, 3, 4}, fitness.Worst)
	assert.Equal(t, []float64{0.1, 0.3, 0.4}, x.fit)
	x.align([]int32{1, 3, 4}, fitness.Worst)
	assert.Equal(t, []float64{0.1, 0.3, 0.4}, x.fit, "aligning twice changes nothing")
	x.align([]int32{4}, fitness.Worst)
	assert.Equal(t, []int32{4}, x.goals)
	assert.Equal(t, []float64{0.4}, x.fit)

	// A goal uncovered again (same count of goals, another set) was not
	// evaluated for the test: it scores worst.
	y := ind(1, 0.0, 0.1, 0.2)
	y.align([]int32{0, 2}, fitness.Worst)
	y.align([]int32{0, 1}, fitness.Worst)
	assert.Equal(t, []int32{0, 1}, y.goals)
	assert.Equal(t, []float64{0.0, fitness.Worst}, y.fit)
	y.align([]int32{0, 1, 2}, fitness.Worst)
	assert.Equal(t, []float64{0.0, fitness.Worst, fitness.Worst}, y.fit)
}

func TestCrowdingRewardsRareMinima(t *testing.T) {
	// Goal 0: a alone at the minimum -> (4-1)/4. Goal 1: a, b, c share the
	// minimum -> (4-3)/4. d is never at a minimum.
	a, b, c, d := ind(1, 0, 0), ind(1, 1, 0), ind(1, 1, 0), ind(1, 1, 1)
	crowding([]*individual{a, b, c, d}, 2)
	assert.Equal(t, 0.75, a.crowding)
	assert.Equal(t, 0.25, b.crowding)
	assert.Equal(t, 0.25, c.crowding)
	assert.Equal(t, 0.0, d.crowding)
	small := []*individual{ind(1, 0), ind(1, 1)}
	crowding(small, 1)
	assert.True(t, math.IsInf(small[0].crowding, 1), "fronts of two keep both")
}

func TestSurviveFillsByFrontThenCrowding(t *testing.T) {
	a, b, c, d, e := five()
	next := survive([]*individual{a, b, c, d, e}, []int32{0, 1}, []int32{0, 1}, nil, 3, fitness.Worst, CrowdingDistance)
	assert.Len(t, next, 3)
	assert.Equal(t, 0, a.rank)
	assert.Equal(t, 0, c.rank)
	assert.Equal(t, 1, b.rank)
	assert.Contains(t, next, a)
	assert.Contains(t, next, c)
}

// With fewer objectives than uncovered goals (DynaMOSA), ranking reads only
// the objectives, and the individuals keep the values of every uncovered
// goal for later generations.
func TestSurviveRanksByTheObjectivesOnly(t *testing.T) {
	a, b, c, d, e := five()
	next := survive([]*individual{a, b, c, d, e}, []int32{0, 1}, []int32{1}, nil, 2, fitness.Worst, CrowdingDistance)
	// On goal 1 alone: c (0.3, shorter than d), then d, then a (0.9),
	// one per front; goal 0 would have put a first.
	assert.Equal(t, []*individual{c, d}, next)
	assert.Equal(t, []int{0, 1, 2}, []int{c.rank, d.rank, a.rank})
	assert.Equal(t, []float64{0.8, 0.3}, c.fit, "both goals' objectives kept")
	assert.Equal(t, []float64{0.3}, c.obj)
}

func TestPositions(t *testing.T) {
	assert.Nil(t, positions([]int32{1, 4, 7}, []int32{1, 4, 7}))
	assert.Equal(t, []int{0, 2}, positions([]int32{1, 4, 7}, []int32{1, 7}))
	assert.Equal(t, []int{}, positions([]int32{1, 4, 7}, []int32{}))
}

// naiveFronts is non-dominated sorting as defined: each front holds the
// individuals left that no other individual left dominates, in order.
func naiveFronts(inds []*individual) [][]*individual {
	var fronts [][]*individual
	rest := inds
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
		if len(front) == 0 {
			front, remaining = remaining, nil
		}
		fronts = append(fronts, front)
		rest = remaining
	}
	return fronts
}

// The fronts after front 0 are those of plain non-dominated sorting,
// whatever the objectives hold: goals on which every individual scores
// the same, ties, duplicates, the worst score, NaN.
func TestPreferenceSortMatchesNonDominatedSorting(t *testing.T) {
	values := []float64{0, 0.25, 0.5, 0.5, 0.75, 1, fitness.Worst, math.Inf(1), math.NaN()}
	for seed := int64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewSource(seed))
		goals := 1 + r.Intn(12)
		constant := r.Intn(goals + 1) // goals 0..constant-1 score the same for all
		var inds []*individual
		for range 2 + r.Intn(40) {
			fit := make([]float64, goals)
			for g := range fit {
				if g < constant {
					fit[g] = 1
				} else if seed%3 != 0 || r.Intn(20) != 0 {
					fit[g] = values[r.Intn(len(values)-1)]
				} else {
					fit[g] = math.NaN()
				}
			}
			inds = append(inds, ind(1+r.Intn(5), fit...))
		}
		fronts, _ := preferenceSort(inds, goals, goals, -1, nil)
		var rest []*individual
		for _, x := range inds {
			if !slices.Contains(fronts[0], x) {
				rest = append(rest, x)
			}
		}
		want := naiveFronts(rest)
		if want == nil {
			want = [][]*individual{}
		}
		assert.Equal(t, want, fronts[1:], "seed %d", seed)
	}
}

// When front 0 must be cut, the best tests of the primary goals survive
// before those of the others, whatever their crowding distance.
func TestSurviveKeepsTheBestTestsOfPrimaryGoalsFirst(t *testing.T) {
	front := func() (p, x, y *individual) {
		// Each is alone best on one goal, so all three are as crowded,
		// and the cut takes the shortest: x, then y, then p.
		return ind(5, 0, 0.5, 0.5), ind(2, 0.9, 0, 0.1), ind(3, 0.9, 0.1, 0)
	}
	goals := []int32{0, 1, 2}
	p, x, y := front()
	assert.Equal(t, []*individual{x}, survive([]*individual{p, x, y}, goals, goals, nil, 1, fitness.Worst, CrowdingDistance))
	p, x, y = front()
	assert.Equal(t, []*individual{p}, survive([]*individual{p, x, y}, goals, goals, []bool{true, false, false}, 1, fitness.Worst, CrowdingDistance))
	p, x, y = front()
	assert.Equal(t, []*individual{p, x}, survive([]*individual{p, x, y}, goals, goals, []bool{true, false, false}, 2, fitness.Worst, CrowdingDistance),
		"the others fill what is left, by crowding")
	p, x, y = front()
	assert.Equal(t, []*individual{y}, survive([]*individual{p, x, y}, goals, goals, []bool{false, false, true}, 1, fitness.Worst, CrowdingDistance))
}

// first returns the first of two results.
func first[A, B any](a A, _ B) A { return a }

// While a primary goal is an objective, the fronts after front 0 are
// sorted by the primary goals alone; the other goals count through their
// best tests in front 0.
func TestSurviveRanksTheLaterFrontsByThePrimaryGoals(t *testing.T) {
	tests := func() (p0, p1, a, b *individual) {
		// p0 and p1 are the best tests of the two goals; a is better than
		// b on goal 0, b better on goal 1, and shorter.
		return ind(3, 0, 1), ind(3, 1, 0), ind(5, 0.5, 0.9), ind(2, 0.6, 0.1)
	}
	goals := []int32{0, 1}
	p0, p1, a, b := tests()
	assert.Equal(t, []*individual{p0, p1, b}, survive([]*individual{p0, p1, a, b}, goals, goals, nil, 3, fitness.Worst, CrowdingDistance),
		"over both goals a and b share front 1, and the shorter survives")
	p0, p1, a, b = tests()
	assert.Equal(t, []*individual{p0, p1, a}, survive([]*individual{p0, p1, a, b}, goals, goals, []bool{true, false}, 3, fitness.Worst, CrowdingDistance),
		"goal 0 alone puts a before b")
	p0, p1, a, b = tests()
	assert.Equal(t, []*individual{p1, p0, b}, survive([]*individual{p0, p1, a, b}, goals, goals, []bool{false, true}, 3, fitness.Worst, CrowdingDistance),
		"goal 1 alone puts b before a, and its best test first")
}

func TestPositionsFollowsTheOrderOfTheSubset(t *testing.T) {
	goals := []int32{2, 5, 7, 9}
	assert.Nil(t, positions(goals, []int32{2, 5, 7, 9}))
	assert.Equal(t, []int{1, 3}, positions(goals, []int32{5, 9}))
	assert.Equal(t, []int{3, 0, 2, 1}, positions(goals, []int32{9, 2, 7, 5}))
}

// When front 0 must be cut among the best tests of the primary goals,
// their crowding counts the primary goals alone.
func TestSurviveCutsThePrimaryBestsByTheirCrowdingOnPrimaryGoals(t *testing.T) {
	// a shares the best value of goal 0 with b (and is shorter), and is
	// alone best on goal 3; b and c are alone best on goals 1 and 2.
	a, b, c := ind(2, 0.5, 1, 1, 0), ind(3, 0.5, 0.2, 1, 1), ind(3, 1, 1, 0.2, 1)
	goals := []int32{0, 1, 2, 3}
	assert.Equal(t, []*individual{a}, survive([]*individual{a, b, c}, goals, goals, nil, 1, fitness.Worst, CrowdingDistance),
		"over every goal all three are as crowded, and the shortest survives")
	a, b, c = ind(2, 0.5, 1, 1, 0), ind(3, 0.5, 0.2, 1, 1), ind(3, 1, 1, 0.2, 1)
	assert.Equal(t, []*individual{b}, survive([]*individual{a, b, c}, goals, goals, []bool{true, true, true, false}, 1, fitness.Worst, CrowdingDistance),
		"on the primary goals a shares its best value, and b survives")
}

// When no test is nearer a primary goal than another, every goal ranks
// the fronts after front 0.
func TestSurviveRanksByEveryGoalWhenThePrimaryGoalsDecideNothing(t *testing.T) {
	// p0 is the best test of both goals (all tie on goal 0, and p0 is
	// the shortest); on goal 1, a is nearer than the shorter b.
	p0, a, b := ind(1, 1, 0), ind(5, 1, 0.6), ind(2, 1, 0.9)
	goals := []int32{0, 1}
	got := survive([]*individual{p0, a, b}, goals, goals, []bool{true, false}, 2, fitness.Worst, CrowdingDistance)
	assert.Equal(t, []*individual{p0, a}, got, "goal 1 puts a before b")
}
