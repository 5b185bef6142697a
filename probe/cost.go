package probe

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/cling-go/cling/ccfg"
)

// costPlan is what the search-mode probes need to report the cost of an
// execution (rt.CostTable): a counter per function of R and E, and the
// static weights of the counts. Every statement of a function body is
// attributed to a guard, the counts that say how often it runs: the
// function's calls for the statements outside any branch, and otherwise
// the outcomes that open the block it is in (the true outcome of an if
// condition for its body, the false one for its else branch, a case's
// match for the case's body, an iteration for a loop's body). A condition
// made of && and || opens its body through several outcomes: the body of
// if a || b runs once per true outcome of a and per true outcome of b.
// After an if statement whose body always leaves the block (return,
// break, continue, goto, panic), the statements that follow run only when
// the condition was false, and count with its false outcomes.
//
// What the counts cannot see is attributed to the enclosing guard, so it
// counts once where it may run several times or not at all: the body of a
// for loop without a condition, a condition without a probe (a constant),
// the clauses of a switch whose values have none.
type costPlan struct {
	// funcs are the functions of R and E in counter order; counter maps
	// them to it.
	funcs   []*ccfg.Function
	counter map[*ccfg.Function]int32
	// funcStmts and funcAllocs weigh each function's calls.
	funcStmts, funcAllocs []int32
	// outStmts and outAllocs weigh the outcomes.
	outStmts, outAllocs map[int32]int32
	// loops lists the outcomes that count each loop's iterations.
	loops [][]int32
}

// guard is what makes a statement run: the calls of function fn, or
// (fn < 0) the outcomes outs, each of which runs it once.
type guard struct {
	fn   int32
	outs []int32
}

// newCostPlan computes the weights for every function of R and E.
func newCostPlan(p *Plan) *costPlan {
	cp := &costPlan{counter: map[*ccfg.Function]int32{}, outStmts: map[int32]int32{}, outAllocs: map[int32]int32{}}
	for _, c := range p.A.Packages() {
		for _, f := range c.Funcs {
			body := funcBody(f)
			if body == nil {
				continue
			}
			id := int32(len(cp.funcs))
			cp.funcs = append(cp.funcs, f)
			cp.counter[f] = id
			cp.funcStmts = append(cp.funcStmts, 0)
			cp.funcAllocs = append(cp.funcAllocs, 0)
			w := &costWalker{p: p, c: c, info: f.Pkg.Info, cp: cp}
			w.list(body.List, guard{fn: id})
		}
	}
	return cp
}

// funcBody returns the body of a function declaration or literal, nil for
// a function without one.
func funcBody(f *ccfg.Function) *ast.BlockStmt {
	switch d := f.SSA.Syntax().(type) {
	case *ast.FuncDecl:
		return d.Body
	case *ast.FuncLit:
		return d.Body
	}
	return nil
}

// costWalker attributes the statements of one function to their guards.
type costWalker struct {
	p    *Plan
	c    *ccfg.CCFG
	info *types.Info
	cp   *costPlan
}

// add weighs guard g with stmts statements and allocs allocation sites.
func (w *costWalker) add(g guard, stmts, allocs int32) {
	if g.fn >= 0 {
		w.cp.funcStmts[g.fn] += stmts
		w.cp.funcAllocs[g.fn] += allocs
		return
	}
	for _, o := range g.outs {
		w.cp.outStmts[o] += stmts
		w.cp.outAllocs[o] += allocs
	}
}

// list attributes a statement list that runs under g.
func (w *costWalker) list(stmts []ast.Stmt, g guard) {
	for _, s := range stmts {
		g = w.stmt(s, g)
	}
}

// stmt attributes statement s, which runs under g, and returns the guard
// of the statements after it.
func (w *costWalker) stmt(s ast.Stmt, g guard) guard {
	switch s := s.(type) {
	case nil, *ast.EmptyStmt:
	case *ast.BlockStmt:
		w.list(s.List, g)
	case *ast.LabeledStmt:
		return w.stmt(s.Stmt, g)
	case *ast.IfStmt:
		w.add(g, 1, w.allocs(s.Cond))
		w.stmt(s.Init, g)
		t, f, ok := w.cond(s.Cond)
		if !ok {
			t, f = g, g
		}
		w.list(s.Body.List, t)
		w.stmt(s.Else, f)
		if ok {
			thenLeaves, elseLeaves := leaves(s.Body), s.Else != nil && leaves(s.Else)
			switch {
			case thenLeaves && !elseLeaves:
				return f
			case elseLeaves && !thenLeaves:
				return t
			}
		}
	case *ast.ForStmt:
		w.add(g, 1, w.allocs(s.Cond))
		w.stmt(s.Init, g)
		body := g
		if t, _, ok := w.cond(s.Cond); ok {
			body = t
			w.cp.loops = append(w.cp.loops, t.outs)
		}
		w.stmt(s.Post, body)
		w.list(s.Body.List, body)
	case *ast.RangeStmt:
		w.add(g, 1, w.allocs(s.X))
		body := g
		if n := w.c.NodeAt(s.For); n != nil && n.Kind == ccfg.KindRange {
			o := 2 * w.p.NodeIndex(n)
			body = guard{fn: -1, outs: []int32{o}}
			w.cp.loops = append(w.cp.loops, body.outs)
		}
		w.list(s.Body.List, body)
	case *ast.SwitchStmt:
		w.add(g, 1, w.allocs(s.Tag))
		w.stmt(s.Init, g)
		w.clauses(s.Body, g, func(cl ast.Stmt) (t, f guard, ok bool) {
			var ts []int32
			for _, e := range cl.(*ast.CaseClause).List {
				w.add(g, 0, w.allocs(e))
				var et, ef guard
				if s.Tag != nil {
					et, ef, ok = w.leaf(e, ccfg.KindCase, e.Pos())
				} else {
					et, ef, ok = w.cond(e)
				}
				if !ok {
					return g, g, false
				}
				ts, f = append(ts, et.outs...), ef
			}
			return guard{fn: -1, outs: ts}, f, true
		})
	case *ast.TypeSwitchStmt:
		w.add(g, 1, 0)
		w.stmt(s.Init, g)
		w.clauses(s.Body, g, func(cl ast.Stmt) (t, f guard, ok bool) {
			var ts []int32
			for _, e := range cl.(*ast.CaseClause).List {
				var et, ef guard
				if et, ef, ok = w.leaf(e, ccfg.KindTypeCase, e.Pos()); !ok {
					return g, g, false
				}
				ts, f = append(ts, et.outs...), ef
			}
			return guard{fn: -1, outs: ts}, f, true
		})
	case *ast.SelectStmt:
		w.add(g, 1, 0)
		w.clauses(s.Body, g, func(cl ast.Stmt) (t, f guard, ok bool) {
			cc := cl.(*ast.CommClause)
			return w.leaf(cc, ccfg.KindSelect, cc.Case)
		})
	default:
		w.add(g, 1, w.allocs(s))
	}
	return g
}

// clauses attributes the clauses of a switch, type switch or select
// statement that runs under g. match gives the guards of a clause with
// cases: t runs its body, f is the outcome after which the next case is
// tried, ok is false if a case has no node. The default clause runs when
// the last case's f does.
func (w *costWalker) clauses(body *ast.BlockStmt, g guard, match func(clause ast.Stmt) (t, f guard, ok bool)) {
	last, known := g, true
	var dflt []ast.Stmt
	for _, cl := range body.List {
		var stmts []ast.Stmt
		var comm ast.Stmt
		isDefault := false
		switch c := cl.(type) {
		case *ast.CaseClause:
			stmts, isDefault = c.Body, c.List == nil
		case *ast.CommClause:
			stmts, comm, isDefault = c.Body, c.Comm, c.Comm == nil
		}
		if isDefault {
			dflt = stmts
			continue
		}
		t, f, ok := match(cl)
		if !ok {
			t, known = g, false
		}
		w.stmt(comm, t)
		w.list(stmts, t)
		last = f
	}
	if !known {
		last = g
	}
	w.list(dflt, last)
}

// leaf returns the outcomes of the node of kind anchored at anchor
// (found at pos), if it has one.
func (w *costWalker) leaf(anchor ast.Node, kind ccfg.BranchKind, pos token.Pos) (t, f guard, ok bool) {
	n := w.c.NodeAt(pos)
	if n == nil || n.Kind != kind || n.Anchor != anchor {
		return guard{}, guard{}, false
	}
	o := 2 * w.p.NodeIndex(n)
	return guard{fn: -1, outs: []int32{o}}, guard{fn: -1, outs: []int32{o + 1}}, true
}

// cond returns the outcomes after which condition e is true and those
// after which it is false: a condition node's own, or, for && and ||,
// those of its operands. ok is false if a part of e has no node.
func (w *costWalker) cond(e ast.Expr) (t, f guard, ok bool) {
	if e == nil {
		return guard{}, guard{}, false
	}
	if t, f, ok := w.leaf(e, ccfg.KindCond, e.Pos()); ok {
		return t, f, true
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return w.cond(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			t, f, ok := w.cond(x.X)
			return f, t, ok
		}
	case *ast.BinaryExpr:
		if x.Op != token.LAND && x.Op != token.LOR {
			break
		}
		xt, xf, okx := w.cond(x.X)
		yt, yf, oky := w.cond(x.Y)
		if !okx || !oky {
			return guard{}, guard{}, false
		}
		if x.Op == token.LAND {
			return yt, union(xf, yf), true
		}
		return union(xt, yt), yf, true
	}
	return guard{}, guard{}, false
}

func union(a, b guard) guard {
	return guard{fn: -1, outs: append(append([]int32(nil), a.outs...), b.outs...)}
}

// leaves reports whether a statement always leaves the enclosing block:
// it ends in a return, a break, continue or goto, or a call of panic, or
// is an if statement both of whose branches do.
func leaves(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return len(s.List) > 0 && leaves(s.List[len(s.List)-1])
	case *ast.LabeledStmt:
		return leaves(s.Stmt)
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok != token.FALLTHROUGH
	case *ast.IfStmt:
		return s.Else != nil && leaves(s.Body) && leaves(s.Else)
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// allocs counts the allocation sites in n outside nested blocks and
// function literals: calls of new and make, &T{…}, and composite literals
// of slice, map or (elided &T{…}) pointer type.
func (w *costWalker) allocs(n ast.Node) int32 {
	if n == nil {
		return 0
	}
	var k int32
	addressed := map[*ast.CompositeLit]bool{}
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.FuncLit, *ast.BlockStmt:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := w.info.Uses[id].(*types.Builtin); ok && (b.Name() == "new" || b.Name() == "make") {
					k++
				}
			}
		case *ast.UnaryExpr:
			if cl, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok && x.Op == token.AND {
				addressed[cl] = true
				k++
			}
		case *ast.CompositeLit:
			if addressed[x] {
				break
			}
			if tv, ok := w.info.Types[x]; ok && tv.Type != nil {
				switch tv.Type.Underlying().(type) {
				case *types.Slice, *types.Map, *types.Pointer:
					k++
				}
			}
		}
		return true
	})
	return k
}

// tableSource renders the cost table as the value of rt.Table's Cost
// field.
func (cp *costPlan) tableSource() string {
	var b strings.Builder
	b.WriteString("CostTable{\n\t\tFuncStmts: ")
	writeInts(&b, cp.funcStmts)
	b.WriteString(",\n\t\tFuncAllocs: ")
	writeInts(&b, cp.funcAllocs)
	outs := make([]int32, 0, len(cp.outStmts))
	for o, s := range cp.outStmts {
		if s != 0 || cp.outAllocs[o] != 0 {
			outs = append(outs, o)
		}
	}
	sort.Slice(outs, func(i, j int) bool { return outs[i] < outs[j] })
	stmts, allocs := make([]int32, len(outs)), make([]int32, len(outs))
	for i, o := range outs {
		stmts[i], allocs[i] = cp.outStmts[o], cp.outAllocs[o]
	}
	b.WriteString(",\n\t\tOutcomes: ")
	writeInts(&b, outs)
	b.WriteString(",\n\t\tStmts: ")
	writeInts(&b, stmts)
	b.WriteString(",\n\t\tAllocs: ")
	writeInts(&b, allocs)
	b.WriteString(",\n\t\tLoops: [][]int32{")
	for _, l := range cp.loops {
		writeInts(&b, l)
		b.WriteString(",")
	}
	b.WriteString("},\n\t}")
	return b.String()
}

// callProbe is the statement that counts a call of f, or "" if f has no
// counter.
func (cp *costPlan) callProbe(f *ccfg.Function) string {
	id, ok := cp.counter[f]
	if !ok {
		return ""
	}
	return fmt.Sprintf(" %s.Call(%d);", RT, id)
}
