package criteria

import (
	"path/filepath"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/probe"
)

func init() {
	register(&Criterion{
		Name:  "branch",
		Doc:   "both outcomes of every branching node of R and E reached through R's API (E's during calls made at R's call sites)",
		Group: "branch", Rank: 2, Order: 20,
		Measured: &probe.Extras{Outcomes: true},
		goals:    func(p *Pair) []Goal { return branchGoals(p, "Branch", "takes", nil) },
		objective: func(x *Exec, g *Goal) float64 {
			return x.p.Obj.BranchDistance(g.branch)
		},
		coveredIn: takenOutcomes,
		inRun:     func(_ *Pair, r *probe.TestRun, g *Goal) bool { return r.Extras.Outcomes[g.Index] },
	})
}

// takenOutcomes lists the outcomes (2*node, +1 for false) an execution
// took: R's anywhere, E's in calls made at R's call sites.
func takenOutcomes(x *Exec) []int {
	var out []int
	for _, ev := range x.Trace.Caller {
		if ev.FirstT != 0 {
			out = append(out, 2*int(ev.Node))
		}
		if ev.FirstF != 0 {
			out = append(out, 2*int(ev.Node)+1)
		}
	}
	for _, ev := range x.Trace.Callee {
		if ev.TakenT {
			out = append(out, 2*int(ev.Node))
		}
		if ev.TakenF {
			out = append(out, 2*int(ev.Node)+1)
		}
	}
	return out
}

// branchGoals lists both outcomes of the branching nodes of the lines'
// functions (R's reachable from its API, E's from R's call sites) for
// which keep holds (nil: all), by node number.
func branchGoals(p *Pair, word, verb string, keep func(b couple.Branch) bool) []Goal {
	ix := p.A.Index()
	in := map[*ccfg.Function]bool{}
	for _, f := range p.T.Reachable {
		in[f] = true
	}
	var out []Goal
	for i, n := range ix.Nodes {
		if n.Node == nil || !in[n.Node.Func] {
			continue
		}
		for _, outcome := range []bool{true, false} {
			b := couple.Branch{Node: n.Node, Outcome: outcome}
			if keep != nil && !keep(b) {
				continue
			}
			o := 2 * i
			if !outcome {
				o++
			}
			out = append(out, Goal{Index: o, ID: b.ID(), branch: b, Test: ident(word, branchWords(b)), About: verb + " " + b.ID()})
		}
	}
	return out
}

// branchWords names a branch of a node in a test name: engine L61 true
// for pricing/engine.go:61:5:true.
func branchWords(b couple.Branch) string {
	parts := strings.Split(b.ID(), ":")
	if len(parts) < 4 {
		return b.ID()
	}
	n := len(parts)
	file := strings.TrimSuffix(filepath.Base(strings.Join(parts[:n-3], ":")), ".go")
	return file + " L" + parts[n-3] + " " + parts[n-1]
}
