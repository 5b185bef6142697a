package criteria

import (
	"fmt"

	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/probe/rt"
)

// partWords name the partitions in test names.
var partWords = map[string]string{
	"<0": "Negative", "0": "Zero", ">0": "Positive", "true": "True", "false": "False",
	"empty": "Empty", "non-empty": "NonEmpty", "nil": "Nil", "non-nil": "NonNil",
}

func init() {
	register(&Criterion{
		Name:  "output",
		Doc:   "partitions of the results of R's exported functions called by the test: true/false; <0, 0, >0; empty or not; nil or not",
		Group: "output", Rank: 0, Order: 60,
		Extras: probe.Extras{API: true},
		goals: func(p *Pair) []Goal {
			out := make([]Goal, len(p.T.Outputs))
			for i, o := range p.T.Outputs {
				f := p.T.Funcs[o.Func]
				res := ""
				if len(f.Results) > 1 {
					res = fmt.Sprintf("R%d", o.Result+1)
				}
				part := o.Class.Partitions()[o.Part]
				out[i] = Goal{Index: i, ID: p.T.OutputName(o), Test: ident("Output", shortName(f.Fn.Name), res, partWords[part]),
					About: "sees " + p.T.OutputName(o)}
			}
			return out
		},
		objective: func(x *Exec, g *Goal) float64 {
			o := x.p.T.Outputs[g.Index]
			if d := x.outputs[int32(o.Slot)]; d != nil {
				if d[o.Part] == 0 {
					return 0
				}
				return 0.25 + 0.25*nu(d[o.Part])
			}
			return 0.5 + 0.5*returnedObjective(x, o.Func)
		},
		coveredIn: func(x *Exec) []int {
			var out []int
			for _, ev := range x.Trace.Outputs {
				for part, d := range ev.Dist {
					if d == 0 {
						if i, ok := x.p.outputIndex(int(ev.Slot), part); ok {
							out = append(out, i)
						}
					}
				}
			}
			return out
		},
		inRun: func(p *Pair, r *probe.TestRun, g *Goal) bool {
			o := p.T.Outputs[g.Index]
			return r.Extras.Outputs[rt.MaxParts*o.Slot+o.Part]
		},
	})
}
