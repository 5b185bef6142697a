package couple

import "github.com/cling-go/cling/ccfg"

// GoalParents returns the structural dependencies among the coupled
// branches, the goal graph of DynaMOSA carried to coupled branches: per
// goal (s, r, e), in the order of Goals, the indices of its parents, the
// goals (s, r, p) for every control-dependence parent p of e inside E
// along the calls made at s. A goal becomes worth searching for once one
// of its parents is covered: the same caller branch r taken, then p taken
// in a call made at s, which is what reaching e in that call context
// takes.
//
// The parents p of e are the branches that Controlling returns for e's
// node (lifted across E's functions) that are callee targets B_E(s) of
// the site, e's own node excepted. A goal has none, and is a root, when
// e's node is reached straight from the entry of a function s calls (an
// entry:g pseudo-branch with g among the site's targets is taken whenever
// s calls g), or when no branch of B_E(s) controls it.
func (a *Analysis) GoalParents() [][]int {
	type key struct {
		site    int
		r, e    string
		outcome bool
	}
	index := map[key]int{}
	for _, g := range a.Goals {
		index[key{g.Site.Index, g.R.ID(), g.E.Node.ID(), g.E.Outcome}] = g.Index
	}
	parents := make([][]int, len(a.Goals))
	for _, g := range a.Goals {
		s := g.Site
		targets := map[*ccfg.Function]bool{}
		for _, f := range s.Targets {
			targets[f] = true
		}
		var ps []int
		root := false
		for _, p := range a.Controlling(g.E.Node) {
			if p.IsEntry() {
				root = root || targets[p.Entry]
				continue
			}
			if p.Node == g.E.Node {
				continue
			}
			if i, ok := index[key{s.Index, g.R.ID(), p.Node.ID(), p.Outcome}]; ok {
				ps = append(ps, i)
			}
		}
		if !root {
			parents[g.Index] = ps
		}
	}
	return parents
}
