package mosa

import "context"

func init() {
	Register("dynamosa", "DynaMOSA: MOSA whose objectives are the goals whose structural dependencies are covered",
		frontSettings, frontAlgorithm("dynamosa", func(g genetic) Algorithm { return &dynaMOSA{g} }))
}

// dynaMOSA is DynaMOSA carried to coupled branches: MOSA whose objectives,
// in every generation, are only the uncovered goals that are roots of the
// goal graph (Engine.Parents) or have a covered parent. A goal (s, r, e)
// depends on the goals (s, r, p) for the control-dependence parents p of
// e inside E along the calls from s.
type dynaMOSA struct{ genetic }

// Search runs DynaMOSA:
//
//	P ← N random tests; evaluate P
//	while the budget lasts and a goal is uncovered:
//	    Q ← offspring of P (as MOSA's); evaluate Q
//	    U* ← the uncovered goals that are roots or have a covered parent
//	    P ← the N best of P ∪ Q by preference sorting on U*, then the
//	        secondary objective (crowding distance by default)
//
// Tests keep the objectives of every uncovered goal, so a goal that joins
// U* ranks the tests evaluated before it joined too.
func (d *dynaMOSA) Search(ctx context.Context, e *Engine) error {
	return evolve(ctx, e, d.cfg, d.cross, e.Uncovered, func(uncovered []int32) []int32 { return targets(e, uncovered) })
}

// targets returns the goals of uncovered that are roots of the goal graph
// or have a covered parent; all of uncovered if that leaves none (the
// rest unreachable in the graph), since preference sorting needs an
// objective.
func targets(e *Engine, uncovered []int32) []int32 {
	var out []int32
	for _, g := range uncovered {
		if int(g) >= len(e.Parents) || len(e.Parents[g]) == 0 || anyCovered(e, e.Parents[g]) {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return uncovered
	}
	return out
}

// anyCovered reports whether one of goals is covered.
func anyCovered(e *Engine, goals []int32) bool {
	for _, g := range goals {
		if e.archive.Covered(g) {
			return true
		}
	}
	return false
}
