package mosa

import (
	"cmp"
	"slices"
	"sort"

	"github.com/cling-go/cling/testcase"
)

// survive keeps n individuals by preference sorting over objectives, the
// uncovered goals that count in this generation (all of uncovered for
// MOSA): front 0 is the best test of each objective (ties to the
// smaller, see testcase.Size), further fronts come from non-dominated
// sorting; heuristic h (the crowding distance, for MOSA) scores the
// individuals of every front but front 0, which the crowding distance
// always scores (the best test of a hard goal is often a dear one), and
// the last front admitted is cut by that score, then by size. primary, aligned to objectives (nil:
// all), marks the primary goals. Front 0 keeps their best tests first
// when it must be cut, by their crowding on the primary goals (those of
// the other goals fill what is left, by their crowding on all goals), and
// while some primary goal is an objective on which the tests differ, the
// fronts after front 0 are sorted, and scored, by the primary goals
// alone: the other goals count through their best tests, and do not
// blunt the search for the primary ones by making nearly every test
// non-dominated. The individuals keep
// the objectives of every uncovered goal; one not evaluated for an
// uncovered goal scores worst on it.
func survive(all []*individual, uncovered, objectives []int32, primary []bool, n int, worst float64, h Heuristic) []*individual {
	objectives, primary, ranked := primaryFirst(objectives, primary)
	pos := positions(uncovered, objectives)
	for _, ind := range all {
		ind.align(uncovered, worst)
		ind.project(pos)
	}
	if ranked < len(objectives) && !varies(all, ranked) {
		// No test is nearer any primary goal than another: the primary
		// goals would rank nothing, and every goal ranks.
		ranked = len(objectives)
	}
	fronts, nPrimary := preferenceSort(all, len(objectives), ranked, n, primary)
	var next []*individual
	for r, f := range fronts {
		if r == 0 {
			// The best tests of the primary goals are scored against
			// each other on those goals, as they would be alone; the
			// other goals' best tests on every goal.
			CrowdingDistance.assign(f[:nPrimary], ranked)
			CrowdingDistance.assign(f[nPrimary:], len(objectives))
		} else {
			h.assign(f, ranked)
		}
		for _, ind := range f {
			ind.rank = r
		}
		if len(next)+len(f) <= n {
			next = append(next, f...)
			continue
		}
		if r == 0 && nPrimary < len(f) {
			if nPrimary >= n {
				return byScore(f[:nPrimary])[:n]
			}
			next = append(next, f[:nPrimary]...)
			f = f[nPrimary:]
		}
		next = append(next, byScore(f)[:n-len(next)]...)
		break
	}
	return next
}

// primaryFirst reorders objectives, and their marks, so that the primary
// goals come first, each group in its order, and returns how many of the
// first goals rank the fronts after front 0: the primary ones, or all
// goals when none or all are primary (primary nil: all are).
func primaryFirst(objectives []int32, primary []bool) ([]int32, []bool, int) {
	n := 0
	for _, p := range primary {
		if p {
			n++
		}
	}
	if primary == nil || n == 0 || n == len(objectives) {
		return objectives, primary, len(objectives)
	}
	objs := make([]int32, 0, len(objectives))
	marks := make([]bool, 0, len(objectives))
	for _, want := range []bool{true, false} {
		for i, g := range objectives {
			if primary[i] == want {
				objs = append(objs, g)
				marks = append(marks, want)
			}
		}
	}
	return objs, marks, n
}

// varies reports whether the individuals score differently on one of
// their first goals objectives.
func varies(all []*individual, goals int) bool {
	for g := 0; g < goals; g++ {
		for _, ind := range all[1:] {
			if ind.obj[g] != all[0].obj[g] {
				return true
			}
		}
	}
	return false
}

// byScore sorts a front for a cut: by the heuristic's score, highest
// first, then the smaller first (see testcase.Size).
func byScore(f []*individual) []*individual {
	sort.SliceStable(f, func(i, j int) bool {
		if f[i].crowding != f[j].crowding {
			return f[i].crowding > f[j].crowding
		}
		return f[i].testSize().Less(f[j].testSize())
	})
	return f
}

// preferenceSort splits individuals, whose objectives are aligned to the
// same n goals, into fronts, as far as survival needs them: it stops after
// the first front that brings the fronts past keep individuals (the one
// survive cuts), and leaves the individuals after it unsorted (keep < 0:
// all fronts). Non-dominated sorting costs the square of the individuals
// left per front, and most of a generation's fronts lie past the cut.
// Front 0 begins with the best individuals of the goals primary marks
// (nil: all goals), nPrimary of them; the fronts after it are sorted by
// the first ranked of the n goals.
func preferenceSort(all []*individual, n, ranked, keep int, primary []bool) (fronts [][]*individual, nPrimary int) {
	taken := make([]bool, len(all))
	var front0 []*individual
	if len(all) > 0 {
		// The best individual of each goal, ties to the smaller (see
		// testcase.Size) and then to the first; individual by
		// individual, which reads each one's objectives in order.
		best := make([]int, n)
		bestV := slices.Clone(all[0].obj[:n])
		bestSize := make([]testcase.Size, n)
		for g := range bestSize {
			bestSize[g] = all[0].testSize()
		}
		for i, ind := range all[1:] {
			size := ind.testSize()
			for g, v := range ind.obj[:n] {
				if v < bestV[g] || (v == bestV[g] && size.Less(bestSize[g])) {
					best[g], bestV[g], bestSize[g] = i+1, v, size
				}
			}
		}
		for pass := 0; pass < 2; pass++ {
			for g, b := range best {
				if !taken[b] && (primary == nil || primary[g] == (pass == 0)) {
					taken[b] = true
					front0 = append(front0, all[b])
				}
			}
			if pass == 0 {
				nPrimary = len(front0)
			}
		}
	}
	fronts = [][]*individual{front0}
	var rest []*individual
	for i, ind := range all {
		if !taken[i] {
			rest = append(rest, ind)
		}
	}
	sorted := len(front0)
	if len(rest) == 0 || (keep >= 0 && sorted > keep) {
		return fronts, nPrimary
	}
	// Dominance reads only the goals on which the individuals left
	// differ: a goal on which they all score the same (one that no test
	// approaches, most of them early on) decides nothing. Comparing the
	// compact vectors gives the same fronts for far fewer reads.
	vec, sum := compactObjectives(rest, ranked)
	// An individual can be dominated only by one whose objectives sum to
	// no more than its own (rounding keeps that order): the candidates
	// are tried from the smallest sum up, and the search for one stops
	// at the first larger sum. Which individuals are dominated, and so
	// the fronts, do not depend on the order they are tried in.
	idx := make([]int, len(rest))
	for i := range idx {
		idx[i] = i
	}
	for len(idx) > 0 && (keep < 0 || sorted <= keep) {
		bySum := slices.Clone(idx)
		slices.SortStableFunc(bySum, func(a, b int) int { return cmp.Compare(sum[a], sum[b]) })
		var front []*individual
		var remaining []int
		for _, i := range idx {
			dominated := false
			for _, j := range bySum {
				if sum[j] > sum[i] {
					break
				}
				if i != j && dominatesVec(vec[j], vec[i]) {
					dominated = true
					break
				}
			}
			if dominated {
				remaining = append(remaining, i)
			} else {
				front = append(front, rest[i])
			}
		}
		if len(front) == 0 { // only possible with NaNs; keep order
			for _, i := range remaining {
				front = append(front, rest[i])
			}
			remaining = nil
		}
		fronts = append(fronts, front)
		sorted += len(front)
		idx = remaining
	}
	return fronts, nPrimary
}

// compactObjectives returns, for each individual, its objectives on the
// first n goals restricted to the goals on which the individuals do not
// all score the same, and their sum.
func compactObjectives(inds []*individual, n int) (vec [][]float64, sum []float64) {
	var cols []int
	for g := 0; g < n; g++ {
		v := inds[0].obj[g]
		for _, ind := range inds[1:] {
			if ind.obj[g] != v {
				cols = append(cols, g)
				break
			}
		}
	}
	flat := make([]float64, len(inds)*len(cols))
	vec = make([][]float64, len(inds))
	sum = make([]float64, len(inds))
	for i, ind := range inds {
		row := flat[i*len(cols) : (i+1)*len(cols) : (i+1)*len(cols)]
		for k, g := range cols {
			row[k] = ind.obj[g]
			sum[i] += row[k]
		}
		vec[i] = row
	}
	return vec, sum
}

// dominatesVec is dominates on compact objective vectors.
func dominatesVec(a, b []float64) bool {
	better := false
	for g, v := range a {
		switch {
		case v > b[g]:
			return false
		case v < b[g]:
			better = true
		}
	}
	return better
}

// dominates reports whether a is at least as good as b on every objective
// and better on one (their objectives aligned to the same goals).
func dominates(a, b *individual) bool { return dominatesVec(a.obj, b.obj) }
