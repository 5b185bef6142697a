package mosa

import "sort"

// survive keeps n individuals by preference sorting over objectives, the
// uncovered goals that count in this generation (all of uncovered for
// MOSA): front 0 is the best test of each objective (ties to the
// shorter), further fronts come from non-dominated sorting; heuristic h
// (the crowding distance, for MOSA) scores the individuals of every front,
// and the last front admitted is cut by that score, then by length. The
// individuals keep the objectives of every uncovered goal; one not
// evaluated for an uncovered goal scores worst on it.
func survive(all []*individual, uncovered, objectives []int32, n int, worst float64, h Heuristic) []*individual {
	pos := positions(uncovered, objectives)
	for _, ind := range all {
		ind.align(uncovered, worst)
		ind.project(pos)
	}
	fronts := preferenceSort(all, len(objectives), n)
	var next []*individual
	for r, f := range fronts {
		h.assign(f, len(objectives))
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
// same n goals, into fronts, as far as survival needs them: it stops after
// the first front that brings the fronts past keep individuals (the one
// survive cuts), and leaves the individuals after it unsorted (keep < 0:
// all fronts). Non-dominated sorting costs the square of the individuals
// left per front, and most of a generation's fronts lie past the cut.
func preferenceSort(all []*individual, n, keep int) [][]*individual {
	taken := make([]bool, len(all))
	var front0 []*individual
	if len(all) > 0 {
		// The best individual of each goal, ties to the shorter and then
		// to the first; individual by individual, which reads each one's
		// objectives in order.
		best := make([]int, n)
		for i, ind := range all[1:] {
			for g, v := range ind.obj[:n] {
				b := all[best[g]]
				if v < b.obj[g] || (v == b.obj[g] && ind.t.Len() < b.t.Len()) {
					best[g] = i + 1
				}
			}
		}
		for _, b := range best {
			if !taken[b] {
				taken[b] = true
				front0 = append(front0, all[b])
			}
		}
	}
	fronts := [][]*individual{front0}
	var rest []*individual
	for i, ind := range all {
		if !taken[i] {
			rest = append(rest, ind)
		}
	}
	sorted := len(front0)
	for len(rest) > 0 && (keep < 0 || sorted <= keep) {
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
		sorted += len(front)
		rest = remaining
	}
	return fronts
}

// dominates reports whether a is at least as good as b on every objective
// and better on one (their objectives aligned to the same goals).
func dominates(a, b *individual) bool {
	better := false
	for g := range a.obj {
		switch {
		case a.obj[g] > b.obj[g]:
			return false
		case a.obj[g] < b.obj[g]:
			better = true
		}
	}
	return better
}
