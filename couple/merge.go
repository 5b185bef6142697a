package couple

import (
	"fmt"
	"go/ast"

	"github.com/cling-go/cling/ccfg"
)

// MaxMerged is the most analyses Merge combines: the probes' table tells
// the callee packages apart in one byte per node.
const MaxMerged = 255

// Merge combines the analyses of one caller R with several callees into
// one analysis, so that a single instrumented build of R and all the
// callees measures the coverage of every pair: its call sites and goals
// are those of as, in the order given, renumbered, and goal i of as[k] is
// goal GoalOffset(as, k)+i of the result. A merged analysis has no single
// Callee (the field is nil); Callees lists them. Only coverage
// measurement (probe.Measure) accepts it.
//
// Merge fails when the analyses do not share their program and caller,
// when two name the same callee, or when a call expression of R is a call
// site of two of them (a call that may reach several callee packages):
// one call cannot carry two call-site probes.
func Merge(as []*Analysis) (*Analysis, error) {
	if len(as) == 0 {
		return nil, fmt.Errorf("merging analyses: none given")
	}
	if len(as) > MaxMerged {
		return nil, fmt.Errorf("merging analyses: %d callees, at most %d in one build", len(as), MaxMerged)
	}
	first := as[0]
	m := &Analysis{Prog: first.Prog, Caller: first.Caller, ctl: first.ctl}
	calls := map[*ast.CallExpr]bool{}
	callees := map[*ccfg.CCFG]bool{}
	for _, a := range as {
		switch {
		case a.callees != nil:
			return nil, fmt.Errorf("merging analyses: %s is merged already", a.Caller.Pkg.Path)
		case a.Prog != first.Prog || a.Caller != first.Caller:
			return nil, fmt.Errorf("merging analyses: callers %s and %s differ", first.Caller.Pkg.Path, a.Caller.Pkg.Path)
		case callees[a.Callee]:
			return nil, fmt.Errorf("merging analyses: callee %s twice", a.Callee.Pkg.Path)
		}
		callees[a.Callee] = true
		m.callees = append(m.callees, a.Callee)
		sites := map[*CallSite]*CallSite{}
		for _, s := range a.Sites {
			if calls[s.Call] {
				return nil, fmt.Errorf("merging analyses: the call at %s reaches more than one callee", a.Prog.Pos(s.Pos))
			}
			calls[s.Call] = true
			c := *s
			c.Index = len(m.Sites)
			sites[s] = &c
			m.Sites = append(m.Sites, &c)
		}
		for _, g := range a.Goals {
			g.Index = len(m.Goals)
			g.Site = sites[g.Site]
			m.Goals = append(m.Goals, g)
		}
	}
	m.Covering = CoveringFunctions(m.Caller, m.Sites)
	return m, nil
}

// GoalOffset is the index, in Merge(as), of the first goal of as[k].
func GoalOffset(as []*Analysis, k int) int {
	n := 0
	for _, a := range as[:k] {
		n += len(a.Goals)
	}
	return n
}

// Callees are the callee packages of the analysis: E alone, or those of
// the analyses a merged analysis combines, in order.
func (a *Analysis) Callees() []*ccfg.CCFG {
	if a.callees != nil {
		return a.callees
	}
	return []*ccfg.CCFG{a.Callee}
}

// Packages are R followed by the callee packages: the packages the probes
// instrument.
func (a *Analysis) Packages() []*ccfg.CCFG {
	return append([]*ccfg.CCFG{a.Caller}, a.Callees()...)
}

// Merged reports whether the analysis combines several callees (Merge).
func (a *Analysis) Merged() bool { return a.callees != nil }

// MergeGroups groups analyses for Merge, as indices into as: the analyses
// of one caller, in the order of their first members. An analysis one of
// whose calls is a call site of an analysis already in the group (a call
// that may reach several callee packages) goes to a later group of the
// same caller, since one call carries one call-site probe; so does one
// past MaxMerged members.
func MergeGroups(as []*Analysis) [][]int {
	type group struct {
		members []int
		calls   map[*ast.CallExpr]bool
	}
	var groups []*group
	fits := func(g *group, a *Analysis) bool {
		if as[g.members[0]].Caller != a.Caller || as[g.members[0]].Prog != a.Prog || len(g.members) == MaxMerged {
			return false
		}
		for _, s := range a.Sites {
			if g.calls[s.Call] {
				return false
			}
		}
		return true
	}
	for i, a := range as {
		var in *group
		for _, g := range groups {
			if fits(g, a) {
				in = g
				break
			}
		}
		if in == nil {
			in = &group{calls: map[*ast.CallExpr]bool{}}
			groups = append(groups, in)
		}
		in.members = append(in.members, i)
		for _, s := range a.Sites {
			in.calls[s.Call] = true
		}
	}
	out := make([][]int, len(groups))
	for i, g := range groups {
		out[i] = g.members
	}
	return out
}
