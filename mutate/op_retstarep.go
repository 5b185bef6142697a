package mutate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
)

// RetStaRep replaces what a function of E returns.
const RetStaRep Operator = "RetStaRep"

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: RetStaRep, Group: InterfaceGroup,
			Doc: "replaces each result of a function of E that R's call sites reach: zero value, negated bool, 0->1 and x->0, nil<->error"},
		order: 10,
		pass:  retStaRepPass,
	})
}

// retStaRepPass mutates the return statements of the functions of E
// reachable from R's call sites.
func retStaRepPass(g *generator) {
	var roots []*ccfg.Function
	for _, s := range g.a.Sites {
		roots = append(roots, s.Targets...)
	}
	seen := map[ast.Node]bool{}
	for _, f := range couple.ReachableFunctions(roots) {
		if f.Pkg == g.a.Callee.Pkg {
			g.retStaRep(f, seen)
		}
	}
}

// retStaRep mutates every return statement of fn.
func (g *generator) retStaRep(fn *ccfg.Function, seen map[ast.Node]bool) {
	var body *ast.BlockStmt
	var sig *types.Signature
	info := fn.Pkg.Info
	switch d := fn.SSA.Syntax().(type) {
	case *ast.FuncDecl:
		body = d.Body
		if obj, ok := info.Defs[d.Name].(*types.Func); ok {
			sig, _ = obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		body = d.Body
		if tv, ok := info.Types[d]; ok {
			sig, _ = tv.Type.(*types.Signature)
		}
	}
	if body == nil || sig == nil || sig.Results().Len() == 0 || seen[body] {
		return
	}
	seen[body] = true
	f := g.fileOf(body.Pos())
	if f == nil {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			g.mutateReturn(f, fn.Name, sig, r)
		}
		return true
	})
}

// retAlt chooses the alternative of a returned value of type t: the
// runtime helper, whether it is generic, and what it returns.
func (g *generator) retAlt(t types.Type) (helper string, generic bool, what string, kind string) {
	switch {
	case types.Identical(t, g.errType):
		return "Err", false, "errors.New(\"cling: mutant\") for nil, nil for a non-nil error", "AltErr"
	case isBool(t):
		return "Not", true, "the negated bool", "AltNot"
	case isNumeric(t):
		return "Num", true, "1 for 0, 0 for any other number", "AltNum"
	}
	what = "the zero value"
	if _, isParam := t.(*types.TypeParam); !isParam {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if u.Info()&types.IsString != 0 {
				what = `""`
			} else if u.Kind() == types.UnsafePointer {
				what = "nil"
			}
		case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
			what = "nil"
		}
	}
	return "Zero", true, what, "AltZero"
}

func (g *generator) mutateReturn(f *srcFile, fnName string, sig *types.Signature, r *ast.ReturnStmt) {
	results := sig.Results()
	n := results.Len()
	where := func(k int) string {
		if n == 1 {
			return ""
		}
		return fmt.Sprintf(" (result %d of %d)", k+1, n)
	}
	info := f.info()
	switch {
	case len(r.Results) == 0:
		// A bare return of named results: return them explicitly, each
		// through its helper.
		var parts []string
		for k := 0; k < n; k++ {
			v := results.At(k)
			if v.Name() == "" || v.Name() == "_" {
				return
			}
			helper, _, _, _ := g.retAlt(v.Type())
			parts = append(parts, fmt.Sprintf("%s.%s(%s, %s)", rtName, helper, ph(k), v.Name()))
		}
		s := g.newSite(f)
		at := f.off(r.Return) + len("return")
		s.replace(at, at, " "+strings.Join(parts, ", "))
		for k := 0; k < n; k++ {
			_, _, what, _ := g.retAlt(results.At(k).Type())
			g.add(s, RetStaRep, r.Return, k, fmt.Sprintf("%s returns %s%s", fnName, what, where(k)))
		}
	case len(r.Results) == 1 && n > 1:
		// return f(...) with several results: alter the results of the
		// call through its function value.
		call, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr)
		if !ok || inferredGeneric(info, ast.Unparen(call.Fun)) {
			return
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsValue() {
			return
		}
		for k := 0; k < n; k++ {
			_, _, what, kind := g.retAlt(results.At(k).Type())
			s := g.newSite(f)
			s.wrap(call.Fun, fmt.Sprintf("%s.Ret(%s, %d, %s.%s, ", rtName, ph(0), k, rtName, kind), ")", layerRet+k)
			g.add(s, RetStaRep, r.Results[0].Pos(), k, fmt.Sprintf("%s returns %s%s", fnName, what, where(k)))
		}
	case len(r.Results) == n:
		for k, e := range r.Results {
			rt := results.At(k).Type()
			helper, generic, what, _ := g.retAlt(rt)
			if helper == "Zero" && isZeroExpr(info, e) {
				continue // an equivalent mutant
			}
			targs := ""
			// Constants may be untyped in the source even though the
			// checker records the type they take in the return, and nil
			// has no type: both need the type argument.
			if tv := info.Types[e]; generic && (tv.Value != nil || tv.IsNil() || isUntyped(tv.Type) || !types.Identical(tv.Type, rt)) {
				name, ok := f.typeText(rt)
				if !ok {
					continue
				}
				targs = "[" + name + "]"
			}
			s := g.newSite(f)
			s.wrap(e, fmt.Sprintf("%s.%s%s(%s, ", rtName, helper, targs, ph(0)), ")", layerRet)
			g.add(s, RetStaRep, e.Pos(), 0, fmt.Sprintf("%s returns %s%s", fnName, what, where(k)))
		}
	}
}

// isZeroExpr reports whether e is written as the zero value of its type:
// nil, a zero constant, or an empty composite literal of a struct or array
// type.
func isZeroExpr(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	tv := info.Types[e]
	switch {
	case tv.IsNil():
		return true
	case tv.Value != nil:
		switch tv.Value.Kind() {
		case constant.String:
			return constant.StringVal(tv.Value) == ""
		case constant.Bool:
			return !constant.BoolVal(tv.Value)
		case constant.Int, constant.Float:
			return constant.Sign(tv.Value) == 0
		}
		return false
	}
	if cl, ok := e.(*ast.CompositeLit); ok && len(cl.Elts) == 0 && tv.Type != nil {
		switch tv.Type.Underlying().(type) {
		case *types.Struct, *types.Array:
			return true
		}
	}
	return false
}
