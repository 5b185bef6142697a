package criteria

import (
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/probe"
)

func init() {
	register(&Criterion{
		Name:  "method",
		Doc:   "every exported function and method of R, called by the test itself",
		Group: "method", Rank: 1, Order: 40,
		Extras: probe.Extras{API: true},
		goals:  func(p *Pair) []Goal { return methodGoals(p, "Call", "calls") },
		objective: func(x *Exec, g *Goal) float64 {
			if x.marked(x.called, g.Index) {
				return 0
			}
			return enteredObjective(x, g.Index)
		},
		coveredIn: func(x *Exec) []int {
			var out []int
			for _, c := range x.Trace.Calls {
				out = append(out, int(c.Func))
			}
			return out
		},
		inRun: func(_ *Pair, r *probe.TestRun, g *Goal) bool { return r.Extras.Called[g.Index] },
	})
}

// methodGoals lists the functions of R's API.
func methodGoals(p *Pair, word, verb string) []Goal {
	out := make([]Goal, len(p.T.Funcs))
	for i, f := range p.T.Funcs {
		out[i] = Goal{Index: i, ID: f.Fn.Name, Test: ident(word, shortName(f.Fn.Name)), About: verb + " " + f.Fn.Name}
	}
	return out
}

// enteredObjective scores a test that did not call function f of R's API
// itself: 1/2 if the function ran (called by another one), 1 if not.
func enteredObjective(x *Exec, f int) float64 {
	if x.p.Obj.Taken(couple.Branch{Entry: x.p.T.Funcs[f].Fn}) {
		return 0.5
	}
	return 1
}
