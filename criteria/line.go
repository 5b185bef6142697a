package criteria

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cling-go/cling/probe"
)

// LineThreshold is the number of lines from which smart selection keeps
// the last line of a basic block (a run of statements without a branch):
// only there can a panic in the middle leave lines behind that the
// block's branches and the coupled branches do not see. Most basic blocks
// of Go code are short, split by error checks; five lines keep the long
// straight runs (set-up code, sequences of calls) without doubling the
// branches' goals.
const LineThreshold = 5

func init() {
	register(&Criterion{
		Name:  "line",
		Doc:   "lines of R and E on which a statement begins, reached through R's API (E's during calls made at R's call sites)",
		Group: "branch", Rank: 3, Order: 10,
		Extras: probe.Extras{Lines: true},
		goals: func(p *Pair) []Goal {
			out := make([]Goal, len(p.T.Lines))
			for i, l := range p.T.Lines {
				file := strings.TrimSuffix(filepath.Base(l.Rel), ".go")
				out[i] = Goal{Index: i, ID: l.ID(), Test: ident("Line", file, "L"+strconv.Itoa(l.Line)), About: "reaches line " + l.ID()}
			}
			return out
		},
		minimal: func(p *Pair, g *Goal) bool {
			l := p.T.Lines[g.Index]
			return l.BlockLast && l.BlockLines >= LineThreshold
		},
		objective: func(x *Exec, g *Goal) float64 {
			if x.marked(x.lines, g.Index) {
				return 0
			}
			return reachObjective(x, x.p.T.Lines[g.Index].Guards)
		},
		coveredIn: func(x *Exec) []int { return ints(x.Trace.Lines) },
		inRun:     func(_ *Pair, r *probe.TestRun, g *Goal) bool { return r.Extras.Lines[g.Index] },
	})
}
