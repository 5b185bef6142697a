package couple

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cling-go/cling/ccfg"
)

// controlCache memoises controlling-branch queries; they are asked once per
// call site and once per branching node, and callers share their lifts.
// The search may ask from two goroutines (fitness.Objectives.Fork).
type controlCache struct {
	mu   sync.Mutex
	memo map[string][]Branch
}

func newControlCache() *controlCache { return &controlCache{memo: map[string][]Branch{}} }

// controlling returns the branches of c on which reaching any of the given
// blocks of f is control dependent, over realizable paths of the CCFG:
//
//   - a branch n→m inside a function g is returned when every path from m
//     to g's exit passes through the set S_g of blocks that lead
//     unavoidably to the target, and some path from n avoids S_g
//     (Definition 3.1 of the Coupled Branches Criterion in Derakhshanfar
//     et al. 2022, generalised from one node to a set so that a helper
//     called on both arms of an if does not make either arm a target);
//   - when g's entry leads unavoidably to the target, the target is lifted
//     to g's callers: every same-package block that calls or references g
//     joins S of its function, and if g is externally callable the
//     pseudo-branch entry:g is returned.
//
// Per-function post-dominance with this lifting is post-dominance on the
// CCFG restricted to realizable paths: a callee returns to the caller that
// called it. Post-dominance on the merged graph with context-insensitive
// return edges would wrongly deny that a call site after a shared helper
// post-dominates the branches before it.
func (cc *controlCache) controlling(c *ccfg.CCFG, f *ccfg.Function, blocks []int) []Branch {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	key := memoKey(f, blocks)
	if v, ok := cc.memo[key]; ok {
		return v
	}
	sets := map[*ccfg.Function][]bool{}
	var order []*ccfg.Function
	addBlock := func(g *ccfg.Function, b int) bool {
		s := sets[g]
		if s == nil {
			s = make([]bool, len(g.Graph.Succs))
			sets[g] = s
			order = append(order, g)
		}
		if s[b] {
			return false
		}
		s[b] = true
		return true
	}
	queue := []*ccfg.Function{f}
	for _, b := range blocks {
		addBlock(f, b)
	}
	queued := map[*ccfg.Function]bool{f: true}
	entries := map[*ccfg.Function]bool{}
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		queued[g] = false
		reach := g.PD.AvoidReach(g.Graph, sets[g])
		if reach[0] {
			continue // g's entry can avoid the target: nothing to lift
		}
		if g.External {
			entries[g] = true
		}
		for _, ref := range c.Callers[g] {
			if addBlock(ref.From, ref.Block) && !queued[ref.From] {
				queued[ref.From] = true
				queue = append(queue, ref.From)
			}
		}
	}
	var out []Branch
	for g := range entries {
		out = append(out, Branch{Entry: g})
	}
	for _, g := range order {
		reach := g.PD.AvoidReach(g.Graph, sets[g])
		for b := range g.SSA.Blocks {
			if !reach[b] {
				continue
			}
			for i, succ := range g.Graph.Succs[b] {
				if reach[succ] {
					continue
				}
				if node, outcome, ok := g.Outcome(b, i); ok {
					out = append(out, Branch{Node: node, Outcome: outcome})
				}
			}
		}
	}
	out = dedupe(out)
	cc.memo[key] = out
	return out
}

// Controlling returns the branches on which reaching branching node n is
// control dependent, over realizable paths of the CCFG of n's package (R
// or E): the branches of n's function and of its callers, lifted as
// described at controlling, and entry pseudo-branches of externally
// callable functions whose entry leads unavoidably to n. The result is
// sorted and memoised; callers must not modify it.
func (a *Analysis) Controlling(n *ccfg.BranchNode) []Branch {
	return a.ctl.controlling(a.packageOf(n.Pkg), n.Func, n.Func.BlocksOf(n))
}

func memoKey(f *ccfg.Function, blocks []int) string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(int(f.Pos())))
	sb.WriteString(f.Name)
	bs := append([]int(nil), blocks...)
	sort.Ints(bs)
	for _, b := range bs {
		sb.WriteByte(',')
		sb.WriteString(strconv.Itoa(b))
	}
	return sb.String()
}

func dedupe(bs []Branch) []Branch {
	sort.Slice(bs, func(i, j int) bool { return branchLess(bs[i], bs[j]) })
	out := bs[:0]
	for i, b := range bs {
		if i > 0 && b.ID() == out[len(out)-1].ID() {
			continue
		}
		out = append(out, b)
	}
	return out
}

// ControllingEntry returns the branches on which reaching the entry of
// function f (of R or E) is control dependent: the branches of its
// callers that lead unavoidably to a call of f, and entry:f if f is
// externally callable, lifted as described at controlling. The result is
// sorted and memoised; callers must not modify it.
func (a *Analysis) ControllingEntry(f *ccfg.Function) []Branch {
	return a.ctl.controlling(a.packageOf(f.Pkg), f, []int{0})
}

// packageOf returns the CCFG of pkg among the analysis's callees, or R's.
func (a *Analysis) packageOf(pkg *ccfg.Package) *ccfg.CCFG {
	for _, c := range a.Callees() {
		if c.Pkg == pkg {
			return c
		}
	}
	return a.Caller
}
