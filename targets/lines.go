package targets

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
)

// Line is a source line of R or E on which a statement of a function body
// begins, in a function R's exported API can reach: for R, the functions
// reachable from its externally callable ones; for E, those reachable from
// the functions R's call sites call. A line of E counts only when it runs
// during a call made at one of R's call sites.
type Line struct {
	// Func is the function whose body holds the statement.
	Func *ccfg.Function
	// Callee is true for a line of E.
	Callee bool
	// Stmt is the first statement that begins on the line, the one the
	// probe goes before (a labeled statement with its label).
	Stmt ast.Stmt
	// Rel is the file relative to the module root; Line the line number.
	Rel  string
	Line int
	// Guards are branches after which the line is reached, unless a panic
	// or an early exit intervenes: taking any one of them is enough. They
	// give the search its approach level.
	Guards []couple.Branch
	// BlockLines is the number of lines of the basic block the line
	// belongs to: a run of statements of one statement list that ends at
	// the first statement that branches (if, for, switch, select, return,
	// goto, break, continue, a block, a labeled statement, a panic call);
	// BlockLast marks the block's last line.
	BlockLines int
	BlockLast  bool
}

// ID names a line: file:line.
func (l *Line) ID() string { return fmt.Sprintf("%s:%d", l.Rel, l.Line) }

// stmtList is a statement list of a function body and its statements'
// function.
type stmtList struct {
	fn   *ccfg.Function
	list []ast.Stmt
}

// lines lists the lines of the functions R's API reaches.
func (t *Targets) lines() []Line {
	a := t.A
	type key struct {
		rel  string
		line int
	}
	chosen := map[key]*Line{}
	var lists []stmtList
	for _, fn := range t.Reachable {
		b := body(fn)
		if b == nil {
			continue
		}
		f := t.FileOf(b.Pos())
		if f == nil {
			continue
		}
		for _, l := range statementLists(b) {
			lists = append(lists, stmtList{fn: fn, list: l})
			for _, s := range l {
				k := key{f.Rel, a.Prog.Fset.Position(s.Pos()).Line}
				if old := chosen[k]; old == nil || s.Pos() < old.Stmt.Pos() {
					chosen[k] = &Line{Func: fn, Callee: fn.Pkg == a.Callee.Pkg, Stmt: s, Rel: k.rel, Line: k.line}
				}
			}
		}
	}
	byStmt := map[ast.Stmt]*Line{}
	for _, l := range chosen {
		byStmt[l.Stmt] = l
		l.Guards = t.guards(l.Func, l.Stmt)
	}
	for _, sl := range lists {
		markBlocks(sl.list, byStmt)
	}
	out := make([]Line, 0, len(chosen))
	for _, l := range chosen {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Rel != out[j].Rel {
			return out[i].Rel < out[j].Rel
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// reachable lists the functions R's API reaches: R's from its externally
// callable functions, E's from the functions R's call sites call.
func reachable(a *couple.Analysis) []*ccfg.Function {
	var roots []*ccfg.Function
	for _, s := range a.Sites {
		roots = append(roots, s.Targets...)
	}
	return append(couple.ReachableFunctions(a.Caller.External), couple.ReachableFunctions(roots)...)
}

// statementLists returns the statement lists of a function body, nested
// ones included, except those of function literals (functions of their
// own).
func statementLists(b *ast.BlockStmt) [][]ast.Stmt {
	var out [][]ast.Stmt
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			if len(x.List) > 0 && isClause(x.List[0]) {
				return true // the clauses of a switch or select
			}
			out = append(out, x.List)
		case *ast.CaseClause:
			out = append(out, x.Body)
		case *ast.CommClause:
			out = append(out, x.Body)
		}
		return true
	})
	return out
}

// isClause reports whether s is a case or communication clause.
func isClause(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.CaseClause, *ast.CommClause:
		return true
	}
	return false
}

// markBlocks splits a statement list into basic blocks and records each
// block's number of lines on its lines.
func markBlocks(list []ast.Stmt, byStmt map[ast.Stmt]*Line) {
	var block []*Line
	flush := func() {
		for i, l := range block {
			l.BlockLines = len(block)
			l.BlockLast = i == len(block)-1
		}
		block = block[:0]
	}
	for _, s := range list {
		if l := byStmt[s]; l != nil {
			block = append(block, l)
		}
		if branches(s) {
			flush()
		}
	}
	flush()
}

// branches reports whether a statement ends a basic block.
func branches(s ast.Stmt) bool {
	switch x := s.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.ReturnStmt, *ast.BranchStmt, *ast.BlockStmt, *ast.LabeledStmt:
		return true
	case *ast.ExprStmt:
		return isPanic(x.X)
	}
	return false
}

// isPanic reports whether e is a call of the panic builtin (by name).
func isPanic(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	return ok && id.Name == "panic"
}

// guards returns the branches after which statement s of fn is reached:
// an earlier if statement of its list that leaves the list when taken
// (s follows its other outcome), else the outcome that enters the
// construct holding the list (an if's body or else branch, a loop's body,
// a case clause), else, at the top of the body, what leads to fn's entry.
// Constructs without a branching node of their own (a block, a for loop
// without condition) pass the question to the statement holding them.
func (t *Targets) guards(fn *ccfg.Function, s ast.Stmt) []couple.Branch {
	f := t.FileOf(s.Pos())
	c := t.A.Caller
	if fn.Pkg == t.A.Callee.Pkg {
		c = t.A.Callee
	}
	for depth := 0; s != nil && depth < 64; depth++ {
		list, idx, owner := locate(f, s)
		for j := idx - 1; j >= 0; j-- {
			if ifs, ok := list[j].(*ast.IfStmt); ok && ifs.Else == nil && terminates(ifs.Body) {
				if g := condOutcomes(c, ifs.Cond, false); len(g) > 0 {
					return g
				}
			}
		}
		var g []couple.Branch
		var up ast.Node
		switch o := owner.(type) {
		case *ast.BlockStmt:
			switch p := f.Tree.Parent[o].(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				return t.A.ControllingEntry(fn)
			case *ast.IfStmt:
				g = condOutcomes(c, p.Cond, o == p.Body)
			case *ast.ForStmt:
				if p.Cond != nil && o == p.Body {
					g = condOutcomes(c, p.Cond, true)
				}
			case *ast.RangeStmt:
				if n := c.NodeAt(p.For); n != nil {
					g = []couple.Branch{{Node: n, Outcome: true}}
				}
			}
			up = f.Tree.Parent[o]
		case *ast.CaseClause:
			g = caseOutcomes(c, f, o)
			up = f.Tree.Parent[f.Tree.Parent[o]]
		case *ast.CommClause:
			if o.Comm != nil {
				if n := c.NodeAt(o.Case); n != nil {
					g = []couple.Branch{{Node: n, Outcome: true}}
				}
			}
			up = f.Tree.Parent[f.Tree.Parent[o]]
		}
		if len(g) > 0 {
			return g
		}
		s = enclosingStmt(f, up)
	}
	return t.A.ControllingEntry(fn)
}

// locate returns the statement list holding s, its index there and the
// list's owner (a block, a case clause or a communication clause).
func locate(f *File, s ast.Stmt) ([]ast.Stmt, int, ast.Node) {
	p := f.Tree.Parent[s]
	var list []ast.Stmt
	switch o := p.(type) {
	case *ast.BlockStmt:
		list = o.List
	case *ast.CaseClause:
		list = o.Body
	case *ast.CommClause:
		list = o.Body
	}
	for i, x := range list {
		if x == s {
			return list, i, p
		}
	}
	return nil, 0, p
}

// enclosingStmt returns the statement n is or belongs to (an if statement
// for its else branch), as it stands in a statement list.
func enclosingStmt(f *File, n ast.Node) ast.Stmt {
	for n != nil {
		if s, ok := n.(ast.Stmt); ok {
			switch f.Tree.Parent[s].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				return s
			}
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return nil
		}
		n = f.Tree.Parent[n]
	}
	return nil
}

// terminates reports whether a block always leaves the statement list
// holding the if statement it belongs to.
func terminates(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	switch x := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return x.Tok != token.FALLTHROUGH
	case *ast.ExprStmt:
		return isPanic(x.X)
	}
	return false
}

// condOutcomes returns the branches, any of which makes condition e
// evaluate to want: the node of e itself, or, for && and ||, the operands
// whose outcome decides.
func condOutcomes(c *ccfg.CCFG, e ast.Expr, want bool) []couple.Branch {
	if n := c.NodeAt(e.Pos()); n != nil && n.Anchor == e {
		return []couple.Branch{{Node: n, Outcome: want}}
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return condOutcomes(c, x.X, want)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return condOutcomes(c, x.X, !want)
		}
	case *ast.BinaryExpr:
		switch {
		case x.Op == token.LAND && want, x.Op == token.LOR && !want:
			// All operands must agree: the last one decides.
			return condOutcomes(c, x.Y, want)
		case x.Op == token.LAND, x.Op == token.LOR:
			// Any operand decides.
			return append(condOutcomes(c, x.X, want), condOutcomes(c, x.Y, want)...)
		}
	}
	return nil
}

// caseOutcomes returns the branches that enter a case clause: one of its
// values (types) matching, or, for the default clause, the last value of
// the switch not matching.
func caseOutcomes(c *ccfg.CCFG, f *File, cc *ast.CaseClause) []couple.Branch {
	sw := f.Tree.Parent[f.Tree.Parent[cc]]
	tagless := false
	if s, ok := sw.(*ast.SwitchStmt); ok && s.Tag == nil {
		tagless = true
	}
	outcome := func(e ast.Expr, want bool) []couple.Branch {
		if tagless {
			return condOutcomes(c, e, want)
		}
		if n := c.NodeAt(e.Pos()); n != nil {
			return []couple.Branch{{Node: n, Outcome: want}}
		}
		return nil
	}
	if len(cc.List) > 0 {
		var out []couple.Branch
		for _, e := range cc.List {
			out = append(out, outcome(e, true)...)
		}
		return out
	}
	var clauses []ast.Stmt
	switch s := sw.(type) {
	case *ast.SwitchStmt:
		clauses = s.Body.List
	case *ast.TypeSwitchStmt:
		clauses = s.Body.List
	}
	for i := len(clauses) - 1; i >= 0; i-- {
		if l := clauses[i].(*ast.CaseClause).List; len(l) > 0 {
			return outcome(l[len(l)-1], false)
		}
	}
	return nil
}
