package mutate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/cling-go/cling/couple"
)

// FunCalDel deletes a call of R into E, or replaces its result.
const FunCalDel Operator = "FunCalDel"

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: FunCalDel, Group: InterfaceGroup,
			Doc: "deletes a call of R into E, or replaces its result by the zero value or by an argument of its type"},
		order: 20,
		pass: func(g *generator) {
			for _, s := range g.a.Sites {
				g.funCalDel(s)
			}
		},
	})
}

// funCalDel mutates a call site of R: the call is deleted (its results, if
// used, replaced by zero values), or its result replaced by an argument of
// the same type.
func (g *generator) funCalDel(cs *couple.CallSite) {
	f := g.fileOf(cs.Call.Pos())
	if f == nil {
		return
	}
	call := cs.Call
	info := f.info()
	if inferredGeneric(info, ast.Unparen(call.Fun)) {
		return
	}
	tv, ok := info.Types[call.Fun]
	if !ok || !tv.IsValue() {
		return
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok {
		return
	}
	name := couple.CalleeName(cs)
	nres := sig.Results().Len()
	used := nres > 0 && resultsUsed(f, call)
	s := g.newSite(f)
	s.wrap(call.Fun, fmt.Sprintf("%s.Del(%s, ", rtName, ph(0)), ")", layerCall)
	switch {
	case !used:
		g.add(s, FunCalDel, cs.Pos, 0, fmt.Sprintf("deletes the call to %s", name))
	case nres == 1:
		g.add(s, FunCalDel, cs.Pos, 0, fmt.Sprintf("replaces the result of %s with the zero value", name))
	default:
		g.add(s, FunCalDel, cs.Pos, 0, fmt.Sprintf("replaces the results of %s with zero values", name))
	}
	if !used {
		return
	}
	params := sig.Params()
	np := params.Len()
	if sig.Variadic() {
		np--
	}
	variant := 1
	for i := 0; i < np; i++ {
		pt := params.At(i).Type()
		for j := 0; j < nres; j++ {
			if !types.Identical(pt, sig.Results().At(j).Type()) {
				continue
			}
			arg := fmt.Sprintf("argument %d", i+1)
			if pn := params.At(i).Name(); pn != "" && pn != "_" {
				arg += " (" + pn + ")"
			}
			res := "the result"
			if nres > 1 {
				res = fmt.Sprintf("result %d", j+1)
			}
			ps := g.newSite(f)
			ps.wrap(call.Fun, fmt.Sprintf("%s.Prop(%s, %d, %d, ", rtName, ph(0), i, j), ")", layerCall+variant)
			g.add(ps, FunCalDel, cs.Pos, variant, fmt.Sprintf("replaces %s of %s with %s", res, name, arg))
			variant++
			break
		}
	}
}

// resultsUsed reports whether the results of a call are used: the call is
// not a statement of its own (or a go or defer statement, or an assignment
// to blanks only).
func resultsUsed(f *srcFile, call *ast.CallExpr) bool {
	_, parent := f.tree.Unparen(call)
	switch p := parent.(type) {
	case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
		return false
	case *ast.AssignStmt:
		if len(p.Rhs) != 1 {
			return true
		}
		for _, l := range p.Lhs {
			if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
				return true
			}
		}
		return false
	}
	return true
}
