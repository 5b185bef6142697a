// Package probe instruments the source of a caller package R and a callee
// package E so that running them records what the Coupled Branches
// Criterion needs: the outcome of every branching node with its branch
// distances, the call-site context of every evaluation in E, and the entry
// into externally callable functions. The instrumented files never touch
// the user's tree: they are written to a private temporary directory and
// used through go's -overlay (see Workspace).
//
// Probe IDs are dense indices assigned by a Plan from the analysis of the
// pair, so the probes report exactly the branching nodes, call sites and
// coupled branches that `cling analyze` prints.
package probe

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
)

// Plan numbers what the probes report for one analysed pair: the branching
// nodes and entry pseudo-nodes of R and E, the call sites, the node lists of
// type switches and select statements, and the goals.
type Plan struct {
	A *couple.Analysis
	// Nodes are the probe nodes in index order: R's branching nodes, R's
	// entry pseudo-nodes, E's branching nodes, E's entry pseudo-nodes.
	Nodes      []PlanNode
	nodeIndex  map[*ccfg.BranchNode]int32
	entryIndex map[*ccfg.Function]int32
	// Lists are the node lists of type switches and select statements.
	Lists  [][]int32
	listOf map[ast.Node]int32
	// siteSlots are, per call site, the callee nodes observed in its
	// context, B_E(s) nodes first.
	siteSlots [][]int32
	siteNBE   []int32
}

// PlanNode is one probe node: a branching node or an entry pseudo-node.
type PlanNode struct {
	Node  *ccfg.BranchNode // nil for an entry pseudo-node
	Entry *ccfg.Function   // the function of an entry pseudo-node
	// Callee is true for nodes of E.
	Callee bool
}

// NewPlan numbers the probes of an analysed pair.
func NewPlan(a *couple.Analysis) *Plan {
	p := &Plan{A: a, nodeIndex: map[*ccfg.BranchNode]int32{}, entryIndex: map[*ccfg.Function]int32{}, listOf: map[ast.Node]int32{}}
	for _, c := range []*ccfg.CCFG{a.Caller, a.Callee} {
		callee := c == a.Callee
		for _, n := range c.Nodes {
			p.nodeIndex[n] = int32(len(p.Nodes))
			p.Nodes = append(p.Nodes, PlanNode{Node: n, Callee: callee})
		}
		for _, f := range c.External {
			p.entryIndex[f] = int32(len(p.Nodes))
			p.Nodes = append(p.Nodes, PlanNode{Entry: f, Callee: callee})
		}
		for _, n := range c.Nodes {
			if n.Kind != ccfg.KindTypeCase && n.Kind != ccfg.KindSelect {
				continue
			}
			if _, ok := p.listOf[n.Stmt]; ok {
				continue
			}
			p.listOf[n.Stmt] = int32(len(p.Lists))
			p.Lists = append(p.Lists, p.stmtList(c, n.Stmt))
		}
	}
	for _, s := range a.Sites {
		var slots []int32
		seen := map[int32]bool{}
		for _, b := range s.CalleeTargets {
			i := p.nodeIndex[b.Node]
			if !seen[i] {
				seen[i] = true
				slots = append(slots, i)
			}
		}
		nbe := int32(len(slots))
		for _, f := range couple.ReachableFunctions(s.Targets) {
			if i, ok := p.entryIndex[f]; ok {
				slots = append(slots, i)
			}
		}
		p.siteSlots = append(p.siteSlots, slots)
		p.siteNBE = append(p.siteNBE, nbe)
	}
	return p
}

// stmtList lists, in source order, the nodes of the cases of a type switch
// or the clauses of a select statement.
func (p *Plan) stmtList(c *ccfg.CCFG, stmt ast.Node) []int32 {
	var out []int32
	var body *ast.BlockStmt
	switch s := stmt.(type) {
	case *ast.TypeSwitchStmt:
		body = s.Body
	case *ast.SelectStmt:
		body = s.Body
	}
	for _, cl := range body.List {
		switch cc := cl.(type) {
		case *ast.CaseClause:
			for _, e := range cc.List {
				if n := c.NodeAt(e.Pos()); n != nil {
					out = append(out, p.nodeIndex[n])
				} else {
					out = append(out, -1)
				}
			}
		case *ast.CommClause:
			if cc.Comm == nil {
				continue
			}
			if n := c.NodeAt(cc.Case); n != nil {
				out = append(out, p.nodeIndex[n])
			} else {
				out = append(out, -1)
			}
		}
	}
	return out
}

// NodeIndex returns the probe index of a branching node.
func (p *Plan) NodeIndex(n *ccfg.BranchNode) int32 { return p.nodeIndex[n] }

// EntryIndex returns the probe index of a function's entry pseudo-node,
// and false if the function is not externally callable.
func (p *Plan) EntryIndex(f *ccfg.Function) (int32, bool) {
	i, ok := p.entryIndex[f]
	return i, ok
}

// Outcome returns the probe outcome index of a branch: 2*node for the true
// outcome (and for entry pseudo-branches), 2*node+1 for false.
func (p *Plan) Outcome(b couple.Branch) int32 {
	if b.IsEntry() {
		return 2 * p.entryIndex[b.Entry]
	}
	o := 2 * p.nodeIndex[b.Node]
	if !b.Outcome {
		o++
	}
	return o
}

// SiteSlots returns the callee nodes observed in the context of call site
// s, the nodes of B_E(s) first, and how many of them are B_E(s) nodes.
func (p *Plan) SiteSlots(s int) ([]int32, int32) { return p.siteSlots[s], p.siteNBE[s] }

// TableSource renders the runtime's table.go for the pair.
func (p *Plan) TableSource(pkgName string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "//go:build go1.21\n\n// Code generated by cling for %s -> %s. DO NOT EDIT.\n\npackage %s\n\n",
		p.A.Caller.Pkg.Path, p.A.Callee.Pkg.Path, pkgName)
	b.WriteString("var generatedTable = &Table{\n\tSide: []uint8{")
	for i, n := range p.Nodes {
		if i > 0 {
			b.WriteString(",")
		}
		if n.Callee {
			b.WriteString("1")
		} else {
			b.WriteString("0")
		}
	}
	b.WriteString("},\n\tSiteBR: [][]int32{")
	for _, s := range p.A.Sites {
		var outs []int32
		for _, r := range s.CallerTargets {
			outs = append(outs, p.Outcome(r))
		}
		writeInts(&b, outs)
		b.WriteString(",")
	}
	b.WriteString("},\n\tSiteSlots: [][]int32{")
	for _, slots := range p.siteSlots {
		writeInts(&b, slots)
		b.WriteString(",")
	}
	b.WriteString("},\n\tSiteNBE: ")
	writeInts(&b, p.siteNBE)
	b.WriteString(",\n\tGoalBase: ")
	var bases []int32
	g := int32(0)
	for _, s := range p.A.Sites {
		bases = append(bases, g)
		g += int32(len(s.CallerTargets) * len(s.CalleeTargets))
	}
	writeInts(&b, bases)
	fmt.Fprintf(&b, ",\n\tGoals: %d,\n\tLists: [][]int32{", g)
	for _, l := range p.Lists {
		writeInts(&b, l)
		b.WriteString(",")
	}
	b.WriteString("},\n}\n")
	return []byte(b.String())
}

func writeInts(b *strings.Builder, xs []int32) {
	b.WriteString("[]int32{")
	for i, x := range xs {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprint(b, x)
	}
	b.WriteString("}")
}
