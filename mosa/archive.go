package mosa

import (
	"iter"
	"maps"
	"slices"
	"sort"

	"github.com/cling-go/cling/testcase"
)

// Archive keeps one test per covered goal: the first test found to cover
// it, replaced only by a strictly shorter one, or, in an archive by
// performance (ByPerformance), only by one that is no longer and has a
// strictly lower performance score. It remembers the tests it replaced,
// as fallbacks for a goal whose test later proves flaky.
type Archive struct {
	// best holds the test of each covered goal, indexed by goal (nil:
	// not covered); a slice, since a test is checked against the archive
	// for every goal it covers, and goals are numbered from 0. n counts
	// the covered goals.
	best  []*testcase.Test
	n     int
	first map[int32]int // evaluation at which the goal was first covered
	// replaced holds per goal the tests that held it before, the most
	// recent first, at most maxFallbacks.
	replaced map[int32][]*testcase.Test
	// byScore selects the rule by performance; score holds the
	// performance score of every test that entered the archive.
	byScore bool
	score   map[*testcase.Test]float64
	// tests caches Tests until best changes (nil: not made yet).
	tests []ArchivedTest
}

// maxFallbacks bounds the replaced tests kept per goal.
const maxFallbacks = 3

// NewArchive returns an empty archive.
func NewArchive() *Archive {
	return &Archive{first: map[int32]int{}, replaced: map[int32][]*testcase.Test{},
		score: map[*testcase.Test]float64{}}
}

// ByPerformance makes the archive keep cheaper tests: a test replaces the
// one that holds a covered goal only if it is no longer (length comes
// first: the suite never grows) and its performance score (Proxies.Score)
// is strictly lower. It is called before the first Update.
func (a *Archive) ByPerformance() { a.byScore = true }

// KeepsCheaper reports whether the archive keeps cheaper tests
// (ByPerformance).
func (a *Archive) KeepsCheaper() bool { return a.byScore }

// replaces reports whether t, with performance score ps, replaces old as
// the test of a goal.
func (a *Archive) replaces(t *testcase.Test, ps float64, old *testcase.Test) bool {
	if !a.byScore {
		return t.Len() < old.Len()
	}
	return t.Len() <= old.Len() && ps < a.score[old]
}

// Update records that t, evaluated as evaluation number eval, covers
// goals; ps is its performance score, which only an archive by
// performance reads. It returns the goals newly covered.
func (a *Archive) Update(t *testcase.Test, ps float64, goals []int32, eval int) []int32 {
	var fresh []int32
	for _, g := range goals {
		old := a.held(g)
		if old == nil {
			if int(g) >= len(a.best) {
				a.best = append(a.best, make([]*testcase.Test, int(g)+1-len(a.best))...)
			}
			a.best[g], a.tests = t, nil
			a.n++
			a.first[g] = eval
			a.scored(t, ps)
			fresh = append(fresh, g)
			continue
		}
		if a.replaces(t, ps, old) {
			a.best[g], a.tests = t, nil
			a.scored(t, ps)
			prev := append([]*testcase.Test{old}, a.replaced[g]...)
			a.replaced[g] = prev[:min(len(prev), maxFallbacks)]
		}
	}
	return fresh
}

// scored records the performance score of a test that entered the
// archive by performance.
func (a *Archive) scored(t *testcase.Test, ps float64) {
	if a.byScore {
		a.score[t] = ps
	}
}

// Wants returns the goals among goals for which t, with performance score
// ps, would enter the archive: not yet covered, or covered by a test it
// replaces.
func (a *Archive) Wants(t *testcase.Test, ps float64, goals []int32) []int32 {
	var out []int32
	for _, g := range goals {
		if old := a.held(g); old == nil || a.replaces(t, ps, old) {
			out = append(out, g)
		}
	}
	return out
}

// held returns the test that holds goal g, or nil if g is not covered.
func (a *Archive) held(g int32) *testcase.Test {
	if g < 0 || int(g) >= len(a.best) {
		return nil
	}
	return a.best[g]
}

// Covered reports whether goal g is covered.
func (a *Archive) Covered(g int32) bool { return a.held(g) != nil }

// Len is the number of covered goals.
func (a *Archive) Len() int { return a.n }

// FirstCovered returns the evaluation at which each goal was covered.
func (a *Archive) FirstCovered() map[int32]int { return a.first }

// Tests returns the distinct tests of the archive, each with the goals it
// holds, ordered by their smallest goal. The goal lists are shared
// between calls until the archive changes: callers must not modify them.
// Algorithms ask for the tests every generation, and the archive changes
// in few of them.
func (a *Archive) Tests() []ArchivedTest {
	if a.tests == nil {
		a.tests = group(a.covered)
	}
	return slices.Clone(a.tests)
}

// Fallbacks returns, for each goal of goals, the test that held it before
// the level-th replacement (level 0: the test the current one replaced,
// level 1: the one before it), as archived tests grouped and ordered like
// Tests. A search confirms every test with a second run, but code that
// behaves differently from run to run (a select between two ready
// channels, map iteration order) can still leave a shorter, flaky test in
// the archive that the final checks then drop; a fallback is the longer
// test it displaced.
func (a *Archive) Fallbacks(goals []int32, level int) []ArchivedTest {
	held := map[int32]*testcase.Test{}
	for _, g := range goals {
		if r := a.replaced[g]; level < len(r) {
			held[g] = r[level]
		}
	}
	return group(maps.All(held))
}

// Holders returns the archived tests that hold goals, each with the goals
// of goals it holds.
func (a *Archive) Holders(goals []int32) []ArchivedTest {
	held := map[int32]*testcase.Test{}
	for _, g := range goals {
		if t := a.held(g); t != nil {
			held[g] = t
		}
	}
	return group(maps.All(held))
}

// Remove uncovers goals whose test proved flaky, and returns those that
// were covered.
func (a *Archive) Remove(goals []int32) []int32 {
	var uncovered []int32
	for _, g := range goals {
		if a.held(g) != nil {
			a.best[g], a.n = nil, a.n-1
			a.tests = nil
			delete(a.first, g)
			uncovered = append(uncovered, g)
		}
	}
	return uncovered
}

// covered yields each covered goal with the test that holds it, in
// increasing order of goals.
func (a *Archive) covered(yield func(int32, *testcase.Test) bool) {
	for g, t := range a.best {
		if t != nil && !yield(int32(g), t) {
			return
		}
	}
}

// group turns pairs of goal and test into archived tests ordered by their
// smallest goal.
func group(held iter.Seq2[int32, *testcase.Test]) []ArchivedTest {
	byTest := map[*testcase.Test][]int32{}
	for g, t := range held {
		byTest[t] = append(byTest[t], g)
	}
	var out []ArchivedTest
	for t, gs := range byTest {
		sort.Slice(gs, func(i, j int) bool { return gs[i] < gs[j] })
		out = append(out, ArchivedTest{Test: t, Goals: gs})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Goals[0] < out[j].Goals[0] })
	return out
}

// ArchivedTest is a test of the archive with the goals it holds.
type ArchivedTest struct {
	Test  *testcase.Test
	Goals []int32
}
