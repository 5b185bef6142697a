package ccfg

import (
	"fmt"
	"slices"
)

// Graph is a directed graph over nodes 0..N-1, where N is len(Succs).
type Graph struct {
	// Succs[n] lists the successors of node n. A list may contain
	// duplicates; it is treated as a set. Every entry must lie in [0, N).
	Succs [][]int
}

// Edge is a directed edge From -> To of a Graph.
type Edge struct{ From, To int }

// PostDom is the post-dominator tree of a Graph with respect to an exit node.
//
// The tree is computed on the augmented graph described at NewPostDom, so
// every node of the graph has a post-dominator chain ending at the exit.
// Successors of the exit node are ignored throughout: the exit is treated as
// terminal.
type PostDom struct {
	exit    int
	ipdom   []int    // ipdom[n]; -1 for exit
	virtual [][2]int // augmenting edges, in the order they were added
	pre     []int    // preorder number of each node in the post-dominator tree
	post    []int    // postorder number of each node in the post-dominator tree
}

// NewPostDom computes post-dominators of g towards exit, which must be a node
// of g. Successors of exit are ignored.
//
// Nodes that cannot reach exit (infinite loops such as `for {}`, or blocks
// that end in a dead end) are handled by augmenting the graph with virtual
// edges to exit. A "sink region" is a strongly connected component of the
// nodes that cannot reach exit which has no edge to a node outside itself (a
// single node without successors, or with only a self loop, is a sink region
// too). The rule is:
//
//	while some node cannot reach exit:
//	    among all nodes that belong to a sink region, pick the one with the
//	    highest index, v, and add the virtual edge v -> exit.
//
// Each added edge makes exactly the nodes that reach v able to reach exit;
// it creates no new sink region and leaves the other ones unchanged. The
// procedure therefore adds one edge per sink region of the original graph,
// from the region's highest-index node, in decreasing order of that node;
// this is how it is implemented, in a single pass. The edges are reported,
// in that order, by VirtualEdges.
//
// The post-dominator tree is then computed with the iterative algorithm of
// Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm") on the
// reversed augmented graph, rooted at exit.
//
// NewPostDom panics if exit or a successor index lies outside the graph.
func NewPostDom(g *Graph, exit int) *PostDom {
	n := len(g.Succs)
	if exit < 0 || exit >= n {
		panic(fmt.Sprintf("ccfg: exit node %d out of range [0,%d)", exit, n))
	}
	succs := pdSuccSets(g, exit)
	preds := pdPreds(succs)

	// Augment the graph so that every node reaches exit.
	reach := pdReachExit(preds, exit, nil)
	virtual := pdSinkEdges(succs, reach, exit)
	for _, e := range virtual {
		succs[e[0]] = append(succs[e[0]], exit)
		preds[exit] = append(preds[exit], e[0])
	}

	// Postorder of the reversed graph from exit: the successors of a node in
	// the reversed graph are its predecessors in g.
	po := make([]int, n)
	for i := range po {
		po[i] = -1
	}
	order := make([]int, 0, n)
	type frame struct{ v, i int }
	stack := []frame{{exit, 0}}
	po[exit] = -2 // visited, not yet numbered
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(preds[top.v]) {
			w := preds[top.v][top.i]
			top.i++
			if po[w] == -1 {
				po[w] = -2
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		po[top.v] = len(order)
		order = append(order, top.v)
		stack = stack[:len(stack)-1]
	}
	if len(order) != n {
		panic("ccfg: internal error: augmented graph does not reach exit from every node")
	}

	// Cooper–Harvey–Kennedy. In the reversed graph the predecessors of v are
	// its successors in g; exit is the root and comes last in postorder.
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for po[a] < po[b] {
				a = idom[a]
			}
			for po[b] < po[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(order) - 2; i >= 0; i-- {
			v := order[i]
			nd := -1
			for _, s := range succs[v] {
				if idom[s] == -1 {
					continue
				}
				if nd == -1 {
					nd = s
				} else {
					nd = intersect(s, nd)
				}
			}
			if idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	idom[exit] = -1

	p := &PostDom{exit: exit, ipdom: idom, virtual: virtual}
	p.numberTree()
	return p
}

// numberTree assigns preorder and postorder numbers to the nodes of the
// post-dominator tree so that ancestry can be tested in constant time.
func (p *PostDom) numberTree() {
	n := len(p.ipdom)
	// Children lists in ascending node order, stored contiguously.
	start := make([]int, n+1)
	for _, d := range p.ipdom {
		if d >= 0 {
			start[d+1]++
		}
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	kids := make([]int, start[n])
	fill := slices.Clone(start[:n])
	for v, d := range p.ipdom {
		if d >= 0 {
			kids[fill[d]] = v
			fill[d]++
		}
	}

	p.pre = make([]int, n)
	p.post = make([]int, n)
	type frame struct{ v, i int }
	stack := []frame{{p.exit, start[p.exit]}}
	preN, postN := 0, 0
	p.pre[p.exit] = preN
	preN++
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < start[top.v+1] {
			c := kids[top.i]
			top.i++
			p.pre[c] = preN
			preN++
			stack = append(stack, frame{c, start[c]})
			continue
		}
		p.post[top.v] = postN
		postN++
		stack = stack[:len(stack)-1]
	}
}

// IPDom returns the immediate post-dominator of n, or -1 if n is the exit.
func (p *PostDom) IPDom(n int) int { return p.ipdom[n] }

// PostDominates reports whether a post-dominates b, that is whether every
// path from b to the exit in the augmented graph passes through a. The
// relation is reflexive: PostDominates(a, a) is true.
func (p *PostDom) PostDominates(a, b int) bool {
	return p.pre[a] <= p.pre[b] && p.post[b] <= p.post[a]
}

// VirtualEdges returns the augmenting edges (from, exit) added by NewPostDom,
// in the order they were added (see NewPostDom for the rule). The result is a
// fresh slice; it is empty when every node of the graph reaches the exit.
func (p *PostDom) VirtualEdges() [][2]int { return slices.Clone(p.virtual) }

// ControlDeps returns, for every node n, the list of edges (from, to) of g on
// which n is control dependent in the sense of Ferrante, Ottenstein and
// Warren: n is control dependent on edge a->b iff n post-dominates b and n
// does not strictly post-dominate a.
//
// g must be the graph p was computed from. Only real edges of g count, not the
// virtual augmenting edges; edges leaving the exit node are ignored, as they
// are for post-dominance. Each list is sorted by (From, To) and has no
// duplicates; it is nil when n is not control dependent on any edge.
func (p *PostDom) ControlDeps(g *Graph) [][]Edge {
	n := len(p.ipdom)
	if len(g.Succs) != n {
		panic(fmt.Sprintf("ccfg: ControlDeps: graph has %d nodes, post-dominator tree has %d", len(g.Succs), n))
	}
	succs := pdSuccSets(g, p.exit)
	deps := make([][]Edge, n)
	// Edges are visited in (from, to) order, so every list comes out sorted;
	// each edge adds a node at most once, so there are no duplicates.
	for a, ss := range succs {
		stop := p.ipdom[a]
		for _, b := range ss {
			// The nodes control dependent on a->b are those on the tree
			// path from b up to, but excluding, ipdom(a), which is an
			// ancestor of b.
			for v := b; v != stop && v != -1; v = p.ipdom[v] {
				deps[v] = append(deps[v], Edge{a, b})
			}
		}
	}
	return deps
}

// AvoidReach reports, for every node, whether the exit can be reached from it
// along edges of g (including the virtual edges of p) without passing through
// any node in the set avoid. A node in avoid itself gets false; the exit gets
// true unless it is in avoid. avoid is indexed by node; indexes beyond its
// length count as not avoided. g must be the graph p was computed from.
func (p *PostDom) AvoidReach(g *Graph, avoid []bool) []bool {
	n := len(p.ipdom)
	if len(g.Succs) != n {
		panic(fmt.Sprintf("ccfg: AvoidReach: graph has %d nodes, post-dominator tree has %d", len(g.Succs), n))
	}
	succs := pdSuccSets(g, p.exit)
	for _, e := range p.virtual {
		succs[e[0]] = append(succs[e[0]], e[1])
	}
	return pdReachExit(pdPreds(succs), p.exit, avoid)
}

// pdSuccSets returns the successor lists of g with duplicates removed, each
// sorted in ascending order, and with the successors of exit dropped.
func pdSuccSets(g *Graph, exit int) [][]int {
	n := len(g.Succs)
	out := make([][]int, n)
	seen := make([]int, n) // seen[s] == v+1 once s has been recorded for v
	for v, ss := range g.Succs {
		if v == exit {
			continue
		}
		var list []int
		for _, s := range ss {
			if s < 0 || s >= n {
				panic(fmt.Sprintf("ccfg: edge %d->%d out of range [0,%d)", v, s, n))
			}
			if seen[s] == v+1 {
				continue
			}
			seen[s] = v + 1
			list = append(list, s)
		}
		slices.Sort(list)
		out[v] = list
	}
	return out
}

// pdPreds inverts successor lists. Each predecessor list is in ascending
// order of the source node.
func pdPreds(succs [][]int) [][]int {
	n := len(succs)
	count := make([]int, n)
	for _, ss := range succs {
		for _, s := range ss {
			count[s]++
		}
	}
	preds := make([][]int, n)
	for v, c := range count {
		if c > 0 {
			preds[v] = make([]int, 0, c)
		}
	}
	for v, ss := range succs {
		for _, s := range ss {
			preds[s] = append(preds[s], v)
		}
	}
	return preds
}

// pdReachExit returns which nodes reach exit along edges whose reversal is
// given by preds, without passing through nodes marked in avoid (which may be
// nil or shorter than the graph; missing entries count as false).
func pdReachExit(preds [][]int, exit int, avoid []bool) []bool {
	avoided := func(v int) bool { return v < len(avoid) && avoid[v] }
	reach := make([]bool, len(preds))
	if avoided(exit) {
		return reach
	}
	reach[exit] = true
	work := []int{exit}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, u := range preds[v] {
			if !reach[u] && !avoided(u) {
				reach[u] = true
				work = append(work, u)
			}
		}
	}
	return reach
}

// pdSinkEdges returns the augmenting edges for the nodes that do not reach
// exit: one edge (max(R), exit) per sink region R (a strongly connected
// component of the non-reaching nodes with no edge leaving it), in decreasing
// order of the source node.
func pdSinkEdges(succs [][]int, reach []bool, exit int) [][2]int {
	n := len(succs)
	// Tarjan's algorithm, iteratively, restricted to the nodes that do not
	// reach exit. Their successors cannot reach exit either.
	index := make([]int, n) // 0: unvisited; otherwise visit number + 1
	low := make([]int, n)
	onStack := make([]bool, n)
	comp := make([]int, n)
	var stack []int
	var compMax []int
	counter := 0
	type frame struct{ v, i int }
	var call []frame
	visit := func(v int) {
		counter++
		index[v] = counter
		low[v] = counter
		stack = append(stack, v)
		onStack[v] = true
		call = append(call, frame{v, 0})
	}
	for root := 0; root < n; root++ {
		if reach[root] || index[root] != 0 {
			continue
		}
		visit(root)
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.i < len(succs[v]) {
				w := succs[v][f.i]
				f.i++
				if index[w] == 0 {
					visit(w)
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				c := len(compMax)
				m := v
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = c
					m = max(m, w)
					if w == v {
						break
					}
				}
				compMax = append(compMax, m)
			}
		}
	}
	if len(compMax) == 0 {
		return nil
	}

	sink := make([]bool, len(compMax))
	for i := range sink {
		sink[i] = true
	}
	for v := 0; v < n; v++ {
		if reach[v] {
			continue
		}
		for _, s := range succs[v] {
			if comp[s] != comp[v] {
				sink[comp[v]] = false
			}
		}
	}
	var edges [][2]int
	for c, ok := range sink {
		if ok {
			edges = append(edges, [2]int{compMax[c], exit})
		}
	}
	slices.SortFunc(edges, func(x, y [2]int) int { return y[0] - x[0] })
	return edges
}
