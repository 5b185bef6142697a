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
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/targets"
)

// Plan is what the instrumenter needs beyond the analysis: the analysis's
// probe numbering (see couple.Index) and the node lists of type switches
// and select statements.
type Plan struct {
	A *couple.Analysis
	*couple.Index
	// Mode says what the probes record.
	Mode Mode
	// Extras selects the probes of the other coverage criteria, of the
	// targets T (nil without extras).
	Extras Extras
	T      *targets.Targets
	// Lists are the node lists of type switches and select statements.
	Lists  [][]int32
	listOf map[ast.Node]int32
	// cost weighs the probes' counts into the cost of an execution (nil
	// in Coverage mode).
	cost *costPlan
	// funCals are the FunCalDel mutants of each call of R into E that has
	// some, a triple (mutant, argument, result) per mutant (rt.Table.FunCals),
	// and funCalOf numbers the calls.
	funCals  [][]int32
	funCalOf map[*ast.CallExpr]int32
}

// Mode selects what the probes record.
type Mode int

const (
	// Search records everything the search needs: outcomes, branch
	// distances, and the entry into the callee's functions.
	Search Mode = iota
	// Coverage records only what coverage needs: outcomes in context. It
	// is the cheaper mode, for cling cbc.
	Coverage
)

// Extras select the probes of the coverage criteria other than the
// coupled branches; each costs run time, so only the criteria asked for
// get theirs.
type Extras struct {
	// Lines: a probe before the first statement of every line of the
	// targets.
	Lines bool
	// API: R's externally callable functions report their direct calls,
	// returns, result partitions and panics; Errors adds the non-nil
	// errors they return.
	API, Errors bool
	// Direct: the branches of R's API taken in direct calls.
	Direct bool
	// Mutants: the infection of the interface mutants.
	Mutants bool
	// Outcomes: every branch outcome goes into the cumulative record of
	// a test run (the branch criterion under cling cbc).
	Outcomes bool
}

// Any reports whether any extra probe is selected.
func (x Extras) Any() bool { return x != Extras{} }

// bits encodes the selection for the runtime's table.
func (x Extras) bits() uint8 {
	var b uint8
	for _, f := range []struct {
		on  bool
		bit uint8
	}{{x.Lines, rt.ExtraLines}, {x.API, rt.ExtraAPI}, {x.Errors, rt.ExtraErrors}, {x.Direct, rt.ExtraDirect}, {x.Mutants, rt.ExtraMutants}, {x.Outcomes, rt.ExtraOutcomes}} {
		if f.on {
			b |= f.bit
		}
	}
	return b
}

// NewPlan prepares the instrumentation of an analysed pair.
func NewPlan(a *couple.Analysis, mode Mode) *Plan {
	return NewPlanWith(a, mode, nil, Extras{})
}

// NewPlanWith prepares the instrumentation of an analysed pair with the
// extra probes x of targets t (which may be nil when x selects none).
func NewPlanWith(a *couple.Analysis, mode Mode, t *targets.Targets, x Extras) *Plan {
	if t == nil || a.Merged() {
		x = Extras{} // the extra probes are per pair
	}
	p := &Plan{A: a, Index: a.Index(), Mode: mode, Extras: x, T: t, listOf: map[ast.Node]int32{}, funCalOf: map[*ast.CallExpr]int32{}}
	if x.Mutants {
		p.numberFunCals()
	}
	for _, c := range a.Packages() {
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
	if mode == Search {
		p.cost = newCostPlan(p)
	}
	return p
}

// numberFunCals numbers the calls with FunCalDel mutants, in mutant order,
// and lists their mutants: the deletion's argument is -1, its result -1
// when the call's results are unused and -2 when they are used.
func (p *Plan) numberFunCals() {
	for _, m := range p.T.Mutants {
		if m.Operator != targets.FunCalDel {
			continue
		}
		k, ok := p.funCalOf[m.Site.Call]
		if !ok {
			k = int32(len(p.funCals))
			p.funCalOf[m.Site.Call] = k
			p.funCals = append(p.funCals, nil)
		}
		res := int32(m.Result)
		if m.Arg < 0 {
			res = -1
			if m.ResultsUsed {
				res = -2
			}
		}
		p.funCals[k] = append(p.funCals[k], int32(m.ID), int32(m.Arg), res)
	}
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
					out = append(out, p.NodeIndex(n))
				} else {
					out = append(out, -1)
				}
			}
		case *ast.CommClause:
			if cc.Comm == nil {
				continue
			}
			if n := c.NodeAt(cc.Case); n != nil {
				out = append(out, p.NodeIndex(n))
			} else {
				out = append(out, -1)
			}
		}
	}
	return out
}

// TableSource renders the runtime's table.go for the pair.
func (p *Plan) TableSource(pkgName string) []byte {
	var b strings.Builder
	var callees []string
	for _, c := range p.A.Callees() {
		callees = append(callees, c.Pkg.Path)
	}
	fmt.Fprintf(&b, "//go:build go1.21\n\n// Code generated by cling for %s -> %s. DO NOT EDIT.\n\npackage %s\n\n",
		p.A.Caller.Pkg.Path, strings.Join(callees, ", "), pkgName)
	b.WriteString("var generatedTable = &Table{\n\tSide: []uint8{")
	for i, n := range p.Nodes {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%d", n.Side)
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
	if p.A.Merged() {
		b.WriteString("},\n\tSiteSide: ")
		writeInts(&b, p.SiteSide)
		b.WriteString(",\n\tSiteSlots: [][]int32{")
	} else {
		b.WriteString("},\n\tSiteSlots: [][]int32{")
	}
	for _, slots := range p.SiteSlots {
		writeInts(&b, slots)
		b.WriteString(",")
	}
	b.WriteString("},\n\tSiteNBE: ")
	writeInts(&b, p.SiteNBE)
	b.WriteString(",\n\tGoalBase: ")
	writeInts(&b, p.GoalBase)
	fmt.Fprintf(&b, ",\n\tGoals: %d,\n\tLists: [][]int32{", len(p.A.Goals))
	for _, l := range p.Lists {
		writeInts(&b, l)
		b.WriteString(",")
	}
	fmt.Fprintf(&b, "},\n\tCoverageOnly: %t,\n", p.Mode == Coverage)
	if p.cost != nil {
		fmt.Fprintf(&b, "\tCost: %s,\n", p.cost.tableSource())
	}
	if p.Extras.Any() {
		p.extrasTable(&b)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// extrasTable renders the table's fields of the extra probes.
func (p *Plan) extrasTable(b *strings.Builder) {
	fmt.Fprintf(b, "\tExtras: %d,\n\tLineCallee: []uint8{", p.Extras.bits())
	for i, l := range p.T.Lines {
		if i > 0 {
			b.WriteString(",")
		}
		if l.Callee {
			b.WriteString("1")
		} else {
			b.WriteString("0")
		}
	}
	b.WriteString("},\n\tNodeFunc: ")
	writeInts(b, p.nodeFuncs())
	b.WriteString(",\n\tFuncSlots: [][]int32{")
	for _, slots := range p.funcSlots() {
		writeInts(b, slots)
		b.WriteString(",")
	}
	b.WriteString("},\n\tFuncNames: []string{")
	for _, f := range p.T.Funcs {
		fmt.Fprintf(b, "%q,", f.Fn.Pkg.Name+"."+f.Fn.Name)
	}
	b.WriteString("},\n\tSlotClass: []uint8{")
	last := -1
	for _, o := range p.T.Outputs {
		if o.Slot != last {
			fmt.Fprintf(b, "%d,", o.Class)
			last = o.Slot
		}
	}
	fmt.Fprintf(b, "},\n\tMutants: %d,\n\tFunCals: [][]int32{", len(p.T.Mutants))
	for _, c := range p.funCals {
		writeInts(b, c)
		b.WriteString(",")
	}
	fmt.Fprintf(b, "},\n\tPackages: []string{%q, %q},\n", p.A.Caller.Pkg.Path, p.A.Callee.Pkg.Path)
}

// nodeFuncs maps every probe node to the index of the function of R's
// API it belongs to, -1 for others.
func (p *Plan) nodeFuncs() []int32 {
	index := map[*ccfg.Function]int32{}
	for i, f := range p.T.Funcs {
		index[f.Fn] = int32(i)
	}
	out := make([]int32, len(p.Nodes))
	for i, n := range p.Nodes {
		out[i] = -1
		if n.Node != nil && !n.InCallee() {
			if f, ok := index[n.Node.Func]; ok {
				out[i] = f
			}
		}
	}
	return out
}

// funcSlots lists, per function of R's API, per result, its output slot
// or -1.
func (p *Plan) funcSlots() [][]int32 {
	out := make([][]int32, len(p.T.Funcs))
	for i, f := range p.T.Funcs {
		out[i] = make([]int32, len(f.Results))
		for k := range out[i] {
			out[i][k] = -1
		}
	}
	for _, o := range p.T.Outputs {
		out[o.Func][o.Result] = int32(o.Slot)
	}
	return out
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
