package mosa

import (
	"context"
	"fmt"
	"time"
)

func init() {
	Register("onegoal", "one goal at a time: a genetic algorithm per coupled branch, in random order, each with an equal share of the budget left",
		geneticSettings, geneticAlgorithm("onegoal", func(g genetic) Algorithm { return &oneGoal{g} }))
}

// oneGoal searches for one goal at a time, the traditional approach of
// search-based testing: a single-objective genetic algorithm on one
// coupled branch's objective (selection, crossover, mutation and repair
// as MOSA's, survival of the best by that objective, then length), the
// goals in random order.
type oneGoal struct{ genetic }

// Search runs one goal at a time:
//
//	G ← the goals in random order
//	while the budget lasts:
//	    for each goal g of G not covered yet:
//	        share ← what is left of the budget / the uncovered goals of G from g on
//	        P ← N random tests; evaluate P
//	        while the share lasts and g is uncovered:
//	            Q ← offspring of P; evaluate Q
//	            P ← the N best of P ∪ Q on g's objective
//
// Evaluating a test archives it for every goal it covers, so a goal
// covered by the search for another one is skipped; and a goal covered
// before its share is spent leaves the rest to the goals after it. Time
// a pass leaves (the last goals covered early) goes to another pass over
// the goals still uncovered.
func (o *oneGoal) Search(ctx context.Context, e *Engine) error {
	if e.Objectives == nil {
		return errNoObjectives
	}
	order := e.Uncovered()
	e.Gen.Rnd.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for !e.Done(ctx) {
		for i, g := range order {
			if e.Done(ctx) {
				break
			}
			if e.archive.Covered(g) {
				continue
			}
			e.Stage(share(e.Left(), len(uncoveredOf(e, order[i:]))))
			only := func() []int32 {
				if e.archive.Covered(g) {
					return nil
				}
				return []int32{g}
			}
			err := evolve(ctx, e, o.cfg, o.cross, only, allOf)
			e.Stage(Budget{})
			if err != nil {
				return fmt.Errorf("searching for goal %d: %w", g, err)
			}
		}
	}
	return nil
}

// share divides what is left of the budget equally among n goals: at
// least one evaluation each.
func share(left Budget, n int) Budget {
	var b Budget
	if left.MaxEvals > 0 {
		b.MaxEvals = max(1, left.MaxEvals/n)
	}
	if left.Time > 0 {
		b.Time = left.Time / time.Duration(n)
	}
	return b
}

// uncoveredOf returns the goals of goals the archive does not cover.
func uncoveredOf(e *Engine, goals []int32) []int32 {
	return filter(goals, func(g int32) bool { return !e.archive.Covered(g) })
}
