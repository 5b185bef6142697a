package criteria

import (
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/probe"
)

func init() {
	register(&Criterion{
		Name:  "direct-branch",
		Doc:   "both outcomes of every branching node of R's exported functions, taken in a call the test makes itself",
		Group: "branch", Rank: 1, Order: 30,
		Extras: probe.Extras{API: true, Direct: true},
		goals: func(p *Pair) []Goal {
			return branchGoals(p, "Direct", "takes, in a direct call of its function,", func(b couple.Branch) bool {
				_, ok := p.funcIndex(b.Node.Func)
				return ok
			})
		},
		objective: func(x *Exec, g *Goal) float64 {
			if x.marked(x.direct, g.Index) {
				return 0
			}
			f, _ := x.p.funcIndex(g.branch.Node.Func)
			d := x.p.Obj.BranchDistance(g.branch)
			if x.marked(x.called, f) {
				return 0.1 + 0.4*d
			}
			return 0.5 + 0.5*d
		},
		coveredIn: func(x *Exec) []int { return ints(x.Trace.Direct) },
		inRun:     func(_ *Pair, r *probe.TestRun, g *Goal) bool { return r.Extras.Direct[g.Index] },
	})
}
