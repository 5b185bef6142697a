package ccfg

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// BranchKind says which source construct a branching node comes from. SSA
// lowers every construct below into one or more If instructions.
type BranchKind int

const (
	// KindCond is a boolean condition evaluated for control flow: the
	// condition of an if or for statement, a case of a tagless switch, or
	// one operand of && or || (each operand is its own node). A leading !
	// belongs to the node: the node's outcome is the value of the whole
	// negated expression.
	KindCond BranchKind = iota
	// KindCase is one value in the case list of a tagged switch: true when
	// the tag equals the value (and no earlier value matched).
	KindCase
	// KindTypeCase is one type (or nil) in the case list of a type switch:
	// true when the dynamic type matches.
	KindTypeCase
	// KindRange is a range loop: true when another iteration starts, false
	// when the range is exhausted. Leaving by break, return, goto or panic
	// takes neither.
	KindRange
	// KindSelect is one communication clause of a select statement: true
	// when that clause is chosen.
	KindSelect
)

var kindNames = [...]string{"cond", "case", "typecase", "range", "select"}

func (k BranchKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", int(k))
}

// BranchNode is a branching node: a source construct whose evaluation
// takes one of two branches, true or false. Its identity is the position of
// the construct (see ID).
type BranchNode struct {
	Pkg  *Package
	Func *Function
	Kind BranchKind
	// Pos is the node's anchor position: the start of the condition
	// expression, case value or case type, the `for` keyword of a range
	// statement, or the `case` keyword of a select clause.
	Pos token.Pos
	// Anchor is the AST of the node: an ast.Expr for KindCond, KindCase and
	// KindTypeCase, an *ast.RangeStmt, or an *ast.CommClause.
	Anchor ast.Node
	// Stmt is the enclosing statement for KindCase (*ast.SwitchStmt),
	// KindTypeCase (*ast.TypeSwitchStmt) and KindSelect (*ast.SelectStmt).
	Stmt ast.Node
	// Key orders nodes by source position.
	Key PosKey
	// Index is the node's position in its package's Nodes slice.
	Index int
	id    string
}

// ID is the node's name, file:line:col with the file relative to the module
// root (see Program.RelFile).
func (n *BranchNode) ID() string { return n.id }

// BranchID names one outcome of the node: file:line:col:true|false.
func (n *BranchNode) BranchID(outcome bool) string {
	if outcome {
		return n.id + ":true"
	}
	return n.id + ":false"
}

// ifInfo maps one SSA If to its branching node. Neg is true when the If's
// true successor corresponds to the node's false outcome (a leading !).
type ifInfo struct {
	node *BranchNode
	neg  bool
}

// astIndex holds the lookups needed to map SSA Ifs back to source.
type astIndex struct {
	parent     map[ast.Node]ast.Node
	caseExprAt map[token.Pos]ast.Expr        // tagged-switch case values, type-switch nil cases
	caseStmt   map[ast.Expr]ast.Node         // the switch statement of a case value
	typeClause map[token.Pos]*ast.CaseClause // type-switch clauses by `case` keyword
	typeSwitch map[*ast.CaseClause]*ast.TypeSwitchStmt
	rangeAt    map[token.Pos]*ast.RangeStmt  // by `for` keyword
	selectAt   map[token.Pos]*ast.SelectStmt // by `select` keyword
}

func buildASTIndex(files []*ast.File) *astIndex {
	ix := &astIndex{
		parent:     map[ast.Node]ast.Node{},
		caseExprAt: map[token.Pos]ast.Expr{},
		caseStmt:   map[ast.Expr]ast.Node{},
		typeClause: map[token.Pos]*ast.CaseClause{},
		typeSwitch: map[*ast.CaseClause]*ast.TypeSwitchStmt{},
		rangeAt:    map[token.Pos]*ast.RangeStmt{},
		selectAt:   map[token.Pos]*ast.SelectStmt{},
	}
	for _, f := range files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if len(stack) > 0 {
				ix.parent[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			switch s := n.(type) {
			case *ast.SwitchStmt:
				if s.Tag != nil {
					for _, c := range s.Body.List {
						for _, e := range c.(*ast.CaseClause).List {
							ix.caseExprAt[e.Pos()] = e
							ix.caseStmt[e] = s
						}
					}
				}
			case *ast.TypeSwitchStmt:
				for _, c := range s.Body.List {
					cc := c.(*ast.CaseClause)
					ix.typeClause[cc.Case] = cc
					ix.typeSwitch[cc] = s
					for _, e := range cc.List {
						ix.caseExprAt[e.Pos()] = e
						ix.caseStmt[e] = s
					}
				}
			case *ast.RangeStmt:
				ix.rangeAt[s.For] = s
			case *ast.SelectStmt:
				ix.selectAt[s.Select] = s
			}
			return true
		})
	}
	return ix
}

// mapIf finds the branching node of an SSA If. It returns ok=false for Ifs
// with no source construct of their own: constant conditions and the
// bookkeeping of range-over-func loops.
func (c *builderCtx) mapIf(fn *Function, b *ssa.BasicBlock, iff *ssa.If) (n *BranchNode, neg bool, ok bool) {
	cond := iff.Cond
	if _, isConst := cond.(*ssa.Const); isConst {
		return nil, false, false
	}
	// Conditions evaluated by the builder's cond/logicalBinop carry a
	// DebugRef naming their expression.
	for i := len(b.Instrs) - 2; i >= 0; i-- {
		ref, isRef := b.Instrs[i].(*ssa.DebugRef)
		if !isRef || ref.X != cond || ref.IsAddr {
			continue
		}
		anchor := ast.Expr(ref.Expr)
		for {
			p := c.ix.parent[anchor]
			if pe, isParen := p.(*ast.ParenExpr); isParen {
				anchor = pe
				continue
			}
			if ue, isUnary := p.(*ast.UnaryExpr); isUnary && ue.Op == token.NOT {
				anchor = ue
				neg = !neg
				continue
			}
			break
		}
		// A type-switch nil case or a tagged case never gets a DebugRef on
		// its comparison; anything found here is a condition.
		return c.node(fn, KindCond, anchor.Pos(), anchor, nil), neg, true
	}
	switch v := cond.(type) {
	case *ssa.BinOp:
		if v.Op == token.EQL && v.Pos().IsValid() {
			if e, found := c.ix.caseExprAt[v.Pos()]; found {
				stmt := c.ix.caseStmt[e]
				kind := KindCase
				if _, isTS := stmt.(*ast.TypeSwitchStmt); isTS {
					kind = KindTypeCase
				}
				return c.node(fn, kind, e.Pos(), e, stmt), false, true
			}
		}
		if v.Op == token.EQL && !v.Pos().IsValid() {
			if ex, isExtract := v.X.(*ssa.Extract); isExtract && ex.Index == 0 {
				if sel, isSel := ex.Tuple.(*ssa.Select); isSel {
					return c.selectNode(fn, sel, v.Y)
				}
			}
		}
		if v.Op == token.LSS && !v.Pos().IsValid() {
			if rs := c.indexedRange(b); rs != nil {
				return c.node(fn, KindRange, rs.For, rs, nil), false, true
			}
		}
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.TypeAssert:
			if v.Index == 1 && t.CommaOk {
				if cc, found := c.ix.typeClause[t.Pos()]; found {
					for _, e := range cc.List {
						if tv, has := fn.Pkg.Info.Types[e]; has && tv.Type != nil && types.Identical(tv.Type, t.AssertedType) {
							return c.node(fn, KindTypeCase, e.Pos(), e, c.ix.typeSwitch[cc]), false, true
						}
					}
				}
			}
		case *ssa.Next:
			if v.Index == 0 {
				if rng, isRange := t.Iter.(*ssa.Range); isRange {
					if rs, found := c.ix.rangeAt[rng.Pos()]; found {
						return c.node(fn, KindRange, rs.For, rs, nil), false, true
					}
				}
			}
		case *ssa.UnOp:
			if v.Index == 1 && t.Op == token.ARROW && t.CommaOk {
				if rs, found := c.ix.rangeAt[t.Pos()]; found {
					return c.node(fn, KindRange, rs.For, rs, nil), false, true
				}
			}
		}
	}
	return nil, false, false
}

// selectNode maps the If testing "select chose clause k".
func (c *builderCtx) selectNode(fn *Function, sel *ssa.Select, k ssa.Value) (*BranchNode, bool, bool) {
	kc, isConst := k.(*ssa.Const)
	if !isConst {
		return nil, false, false
	}
	ss, found := c.ix.selectAt[sel.Pos()]
	if !found {
		return nil, false, false
	}
	want := kc.Int64()
	i := int64(0)
	for _, cl := range ss.Body.List {
		cc := cl.(*ast.CommClause)
		if cc.Comm == nil {
			continue
		}
		if i == want {
			return c.node(fn, KindSelect, cc.Case, cc, ss), false, true
		}
		i++
	}
	return nil, false, false
}

// node returns the unique node at pos, creating it on first sight. Generic
// instantiations and repeated lowerings (a range over an int has two Ifs)
// share one node.
func (c *builderCtx) node(fn *Function, kind BranchKind, pos token.Pos, anchor ast.Node, stmt ast.Node) *BranchNode {
	if n, ok := c.nodes[pos]; ok {
		return n
	}
	n := &BranchNode{Pkg: fn.Pkg, Func: fn, Kind: kind, Pos: pos, Key: c.prog.Key(pos), Anchor: anchor, Stmt: stmt}
	n.id = c.prog.Pos(pos)
	c.nodes[pos] = n
	return n
}

// indexedRange finds the range statement of the loop test (index < length)
// ending block b, for ranges over slices, arrays and integers, whose SSA
// carries no position of its own. The range expression is evaluated just
// before the loop is entered, so its DebugRef is in b itself (the first test
// of a range over an int) or in a predecessor through which the loop is
// entered. Failing that, the body assigns the key or value variable.
func (c *builderCtx) indexedRange(b *ssa.BasicBlock) *ast.RangeStmt {
	isX := func(blk *ssa.BasicBlock, upto int) *ast.RangeStmt {
		for i := upto - 1; i >= 0; i-- {
			if ref, ok := blk.Instrs[i].(*ssa.DebugRef); ok {
				if rs, ok := c.ix.parent[ref.Expr].(*ast.RangeStmt); ok && rs.X == ref.Expr {
					return rs
				}
			}
		}
		return nil
	}
	if rs := isX(b, len(b.Instrs)-1); rs != nil {
		return rs
	}
	for _, p := range b.Preds {
		if b.Dominates(p) {
			continue // a back edge from the loop body
		}
		if rs := isX(p, len(p.Instrs)); rs != nil {
			return rs
		}
	}
	if len(b.Succs) > 0 {
		for _, instr := range b.Succs[0].Instrs {
			if ref, ok := instr.(*ssa.DebugRef); ok {
				if rs, ok := c.ix.parent[ref.Expr].(*ast.RangeStmt); ok && (rs.Key == ref.Expr || rs.Value == ref.Expr) {
					return rs
				}
			}
		}
	}
	return nil
}
