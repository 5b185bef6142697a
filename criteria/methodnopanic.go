package criteria

import "github.com/cling-go/cling/probe"

func init() {
	register(&Criterion{
		Name:  "method-no-panic",
		Doc:   "every exported function and method of R, called by the test itself and returning without a panic",
		Group: "method", Rank: 0, Order: 50,
		Extras: probe.Extras{API: true},
		goals:  func(p *Pair) []Goal { return methodGoals(p, "Return", "calls, and returns from,") },
		objective: func(x *Exec, g *Goal) float64 {
			return returnedObjective(x, g.Index)
		},
		coveredIn: func(x *Exec) []int {
			var out []int
			for _, c := range x.Trace.Calls {
				if c.Returned {
					out = append(out, int(c.Func))
				}
			}
			return out
		},
		inRun: func(_ *Pair, r *probe.TestRun, g *Goal) bool { return r.Extras.Returned[g.Index] },
	})
}

// returnedObjective is how far a test is from calling function f of R's
// API and seeing it return: 0 when it did, 1/4 when the call panicked,
// then as enteredObjective.
func returnedObjective(x *Exec, f int) float64 {
	switch {
	case x.marked(x.returned, f):
		return 0
	case x.marked(x.called, f):
		return 0.25
	}
	return enteredObjective(x, f)
}
