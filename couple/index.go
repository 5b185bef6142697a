package couple

import "github.com/cling-go/cling/ccfg"

// Index numbers what probes report for an analysed pair: the branching
// nodes and entry pseudo-nodes of R and E, and, per call site, the callee
// nodes observed in its context. Probe traces use these numbers; the
// objectives read them back.
type Index struct {
	// Nodes are in index order: R's branching nodes, R's entry
	// pseudo-nodes, E's branching nodes, E's entry pseudo-nodes (and
	// those of the next callee of a merged analysis, and so on).
	Nodes      []IndexNode
	nodeBase   map[*ccfg.Package]int32 // index of the package's first node
	entryIndex map[*ccfg.Function]int32
	// SiteSlots are, per call site, the callee nodes observed in its
	// context: the nodes of B_E(s) first (in goal order), then the entry
	// pseudo-nodes of the callee functions reachable from the site.
	SiteSlots [][]int32
	// SiteNBE is, per call site, how many slots are B_E(s) nodes.
	SiteNBE []int32
	// GoalBase is, per call site, the index of its first goal.
	GoalBase []int32
	// SiteSide is, per call site, the Side of its callee package.
	SiteSide []int32
}

// IndexNode is a numbered node: a branching node or an entry pseudo-node.
type IndexNode struct {
	Node  *ccfg.BranchNode // nil for an entry pseudo-node
	Entry *ccfg.Function   // the function of an entry pseudo-node
	// Side is 0 for nodes of R, k for nodes of the k-th callee package
	// (1 for E, 2 and more only in a merged analysis).
	Side int32
}

// InCallee reports whether the node belongs to a callee package.
func (n IndexNode) InCallee() bool { return n.Side > 0 }

func newIndex(a *Analysis) *Index {
	ix := &Index{nodeBase: map[*ccfg.Package]int32{}, entryIndex: map[*ccfg.Function]int32{}}
	side := map[*ccfg.Package]int32{}
	for k, c := range a.Packages() {
		sd := int32(k)
		side[c.Pkg] = sd
		ix.nodeBase[c.Pkg] = int32(len(ix.Nodes))
		for _, n := range c.Nodes {
			ix.Nodes = append(ix.Nodes, IndexNode{Node: n, Side: sd})
		}
		for _, f := range c.External {
			ix.entryIndex[f] = int32(len(ix.Nodes))
			ix.Nodes = append(ix.Nodes, IndexNode{Entry: f, Side: sd})
		}
	}
	g := int32(0)
	for _, s := range a.Sites {
		var slots []int32
		seen := map[int32]bool{}
		for _, b := range s.CalleeTargets {
			i := ix.NodeIndex(b.Node)
			if !seen[i] {
				seen[i] = true
				slots = append(slots, i)
			}
		}
		nbe := int32(len(slots))
		for _, f := range ReachableFunctions(s.Targets) {
			if i, ok := ix.entryIndex[f]; ok {
				slots = append(slots, i)
			}
		}
		sd := int32(1)
		if len(s.Targets) > 0 {
			sd = side[s.Targets[0].Pkg]
		}
		ix.SiteSide = append(ix.SiteSide, sd)
		ix.SiteSlots = append(ix.SiteSlots, slots)
		ix.SiteNBE = append(ix.SiteNBE, nbe)
		ix.GoalBase = append(ix.GoalBase, g)
		g += int32(len(s.CallerTargets) * len(s.CalleeTargets))
	}
	return ix
}

// Index returns the numbering of the analysis's probe nodes.
func (a *Analysis) Index() *Index {
	if a.index == nil {
		a.index = newIndex(a)
	}
	return a.index
}

// NodeIndex returns the number of a branching node.
func (ix *Index) NodeIndex(n *ccfg.BranchNode) int32 { return ix.nodeBase[n.Pkg] + int32(n.Index) }

// EntryIndex returns the number of a function's entry pseudo-node, and
// false if the function is not externally callable.
func (ix *Index) EntryIndex(f *ccfg.Function) (int32, bool) {
	i, ok := ix.entryIndex[f]
	return i, ok
}

// Outcome returns the outcome number of a branch: 2*node for the true
// outcome (and for entry pseudo-branches), 2*node+1 for false.
func (ix *Index) Outcome(b Branch) int32 {
	if b.IsEntry() {
		return 2 * ix.entryIndex[b.Entry]
	}
	o := 2 * ix.NodeIndex(b.Node)
	if !b.Outcome {
		o++
	}
	return o
}
