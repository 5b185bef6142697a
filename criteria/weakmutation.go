package criteria

import (
	"fmt"
	"strconv"

	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/probe/rt"
)

func init() {
	register(&Criterion{
		Name:  "weak-mutation",
		Doc:   "the interface mutants of cling mutate (RetStaRep, FunCalDel), each reached with a value the mutant would change",
		Group: "branch", Rank: 4, Order: 90,
		Extras: probe.Extras{Mutants: true},
		goals: func(p *Pair) []Goal {
			out := make([]Goal, len(p.T.Mutants))
			for i, m := range p.T.Mutants {
				pos := p.A.Prog.Fset.Position(m.Pos)
				id := fmt.Sprintf("#%d %s %s:%d:%d: %s", m.ID, m.Operator, m.Rel, pos.Line, pos.Column, m.Description)
				out[i] = Goal{Index: m.ID, ID: id, Test: ident("Mutant", strconv.Itoa(m.ID), m.Operator),
					About: fmt.Sprintf("infects mutant #%d (%s at %s:%d: %s)", m.ID, m.Operator, m.Rel, pos.Line, m.Description)}
			}
			return out
		},
		minimal: func(p *Pair, g *Goal) bool { return !p.T.Mutants[g.Index-1].AlwaysInfected() },
		objective: func(x *Exec, g *Goal) float64 {
			switch {
			case x.marked(x.muts, g.Index) && x.infected[g.Index]:
				return 0
			case x.marked(x.muts, g.Index):
				return 0.2
			}
			return reachObjective(x, x.p.T.Mutants[g.Index-1].Guards)
		},
		coveredIn: func(x *Exec) []int {
			var out []int
			for _, m := range x.Trace.Mutants {
				if m.State == rt.MutantInfected {
					out = append(out, int(m.ID))
				}
			}
			return out
		},
		inRun: func(_ *Pair, r *probe.TestRun, g *Goal) bool { return r.Extras.Mutants[g.Index] },
	})
}
