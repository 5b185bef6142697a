package criteria

import (
	"fmt"

	"github.com/cling-go/cling/probe"
)

func init() {
	register(&Criterion{
		Name:  CBC,
		Doc:   "coupled branches: a branch of R, then a branch of E in a call made at a call site of R (always included)",
		Group: "branch", Rank: 0, Order: 0,
		goals: func(p *Pair) []Goal {
			out := make([]Goal, len(p.A.Goals))
			for i, g := range p.A.Goals {
				out[i] = Goal{Index: i, ID: fmt.Sprintf("%s %s -> %s", p.A.Prog.Pos(g.Site.Pos), g.R.ID(), g.E.ID())}
			}
			return out
		},
		objective: func(x *Exec, g *Goal) float64 {
			var out [1]float64
			x.p.Obj.Evaluate(x.Trace, []int32{int32(g.Index)}, out[:])
			x.p.Obj.Load(x.Trace) // Evaluate loaded the trace for itself
			return out[0]
		},
		coveredIn: func(x *Exec) []int { return ints(x.Trace.Covered) },
		inRun:     func(_ *Pair, r *probe.TestRun, g *Goal) bool { return r.Covered[g.Index] },
	})
}
