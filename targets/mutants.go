package targets

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/typeinfo"
)

// The interface mutation operators (Delamaro et al.'s, as the Cling
// approach adapts them).
const (
	// RetStaRep replaces what a function of E returns.
	RetStaRep = "RetStaRep"
	// FunCalDel deletes a call of R into E, or replaces its result.
	FunCalDel = "FunCalDel"
)

// Shape says how a RetStaRep mutant's return statement gives its results.
type Shape uint8

// The shapes.
const (
	// ReturnExprs: one expression per result; the mutant replaces
	// Mutant.Expr.
	ReturnExprs Shape = iota
	// ReturnBare: a bare return of named results; the mutant replaces the
	// named result Mutant.Result.
	ReturnBare
	// ReturnCall: the results of one call with several results; the
	// mutant replaces result Mutant.Result of the call.
	ReturnCall
)

// Alt is the alternative value a RetStaRep mutant returns.
type Alt uint8

// The alternatives, numbered as the probe runtime's alteration kinds.
const (
	// AltZero: the zero value of the result type.
	AltZero Alt = iota
	// AltNot: the negated bool.
	AltNot
	// AltNum: 1 for 0, 0 for any other number.
	AltNum
	// AltErr: an error for nil, nil for an error.
	AltErr
)

// Mutant is an interface mutant: one change of R's or E's source at the
// interface between them.
type Mutant struct {
	// ID numbers the mutants from 1 in source order (file, offset,
	// operator, variant), as `cling mutate` does.
	ID       int
	Operator string
	// Pos is where the mutant is reported; Rel its file relative to the
	// module root, Offset its byte offset there.
	Pos    token.Pos
	Rel    string
	Offset int
	// Variant tells apart the mutants of one operator at one position.
	Variant     int
	Description string
	File        *File
	// Func is the function of E whose return statement a RetStaRep mutant
	// changes, or the function of R holding a FunCalDel mutant's call.
	Func *ccfg.Function

	// RetStaRep: the return statement, its shape, the result changed, the
	// expression returned for it (ReturnExprs), the alternative, the
	// result's type, and the type argument the runtime helper needs
	// ("" when it is inferred).
	Return     *ast.ReturnStmt
	Shape      Shape
	Result     int
	Expr       ast.Expr
	Alt        Alt
	ResultType types.Type
	TypeArg    string
	// ResultName is the name of the result (ReturnBare).
	ResultName string

	// FunCalDel: the call site, whether the call's results are used, and
	// for an argument propagation the argument put in place of result
	// Result (Arg < 0 for the deletion).
	Site        *couple.CallSite
	ResultsUsed bool
	Arg         int

	// Guards are the branches after which the mutant's statement is
	// reached (see Line.Guards).
	Guards []couple.Branch
}

// AlwaysInfected reports whether reaching the mutant is enough for its
// value to differ from the original's (weak mutation's infection): a
// negated bool, a changed number or error, the result of a constant that
// is not zero, a non-nil concrete value returned as an interface, a
// deleted call whose results are unused. The mutants left need a value
// that is not already the one they put in place.
func (m *Mutant) AlwaysInfected() bool {
	switch m.Operator {
	case RetStaRep:
		if m.Alt != AltZero {
			return true
		}
		if m.Shape != ReturnExprs {
			return false
		}
		tv := m.File.Pkg.Info.Types[m.Expr]
		if tv.Value != nil || tv.Type == nil || typeinfo.IsUntyped(tv.Type) {
			return true // isZeroExpr left out the zero constants
		}
		return types.IsInterface(m.ResultType) && !types.IsInterface(tv.Type)
	case FunCalDel:
		return m.Arg < 0 && !m.ResultsUsed
	}
	return false
}

// InterfaceMutants finds the interface mutants of an analysed pair, as
// Targets.Mutants lists them.
func InterfaceMutants(a *couple.Analysis) ([]*Mutant, error) {
	t, err := newTargets(a)
	if err != nil {
		return nil, err
	}
	return t.mutants(), nil
}

// mutants finds the interface mutants of the pair.
func (t *Targets) mutants() []*Mutant {
	var out []*Mutant
	out = append(out, t.retStaRep()...)
	for _, s := range t.A.Sites {
		out = append(out, t.funCalDel(s)...)
	}
	rank := map[string]int{RetStaRep: 0, FunCalDel: 1}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Rel != b.Rel {
			return a.Rel < b.Rel
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		if a.Operator != b.Operator {
			return rank[a.Operator] < rank[b.Operator]
		}
		return a.Variant < b.Variant
	})
	for i, m := range out {
		m.ID = i + 1
		var stmt ast.Stmt = m.Return
		if m.Site != nil {
			stmt = enclosingStmt(m.File, m.Site.Call)
		}
		if stmt != nil {
			m.Guards = t.guards(m.Func, stmt)
		} else {
			m.Guards = t.A.ControllingEntry(m.Func)
		}
	}
	return out
}

// newMutant starts a mutant of op reported at pos.
func (t *Targets) newMutant(op string, pos token.Pos, variant int, desc string) *Mutant {
	p := t.A.Prog.Fset.PositionFor(pos, false)
	f := t.FileOf(pos)
	return &Mutant{Operator: op, Pos: pos, Rel: f.Rel, Offset: p.Offset, Variant: variant, Description: desc, File: f, Arg: -1}
}

// retStaRep mutates the return statements of the functions of E
// reachable from R's call sites.
func (t *Targets) retStaRep() []*Mutant {
	var roots []*ccfg.Function
	for _, s := range t.A.Sites {
		roots = append(roots, s.Targets...)
	}
	var out []*Mutant
	seen := map[ast.Node]bool{}
	for _, fn := range couple.ReachableFunctions(roots) {
		if fn.Pkg == t.A.Callee.Pkg {
			out = append(out, t.retStaRepOf(fn, seen)...)
		}
	}
	return out
}

// retStaRepOf mutates every return statement of fn.
func (t *Targets) retStaRepOf(fn *ccfg.Function, seen map[ast.Node]bool) []*Mutant {
	var sig *types.Signature
	info := fn.Pkg.Info
	switch d := fn.SSA.Syntax().(type) {
	case *ast.FuncDecl:
		if obj, ok := info.Defs[d.Name].(*types.Func); ok {
			sig, _ = obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		if tv, ok := info.Types[d]; ok {
			sig, _ = tv.Type.(*types.Signature)
		}
	}
	b := body(fn)
	if b == nil || sig == nil || sig.Results().Len() == 0 || seen[b] {
		return nil
	}
	seen[b] = true
	f := t.FileOf(b.Pos())
	if f == nil {
		return nil
	}
	var out []*Mutant
	ast.Inspect(b, func(n ast.Node) bool {
		switch r := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, t.mutateReturn(f, fn, sig, r)...)
		}
		return true
	})
	return out
}

// alternative chooses the alternative of a returned value of type t and
// describes it.
func alternative(t types.Type) (Alt, string) {
	switch {
	case types.Identical(t, types.Universe.Lookup("error").Type()):
		return AltErr, "errors.New(\"cling: mutant\") for nil, nil for a non-nil error"
	case typeinfo.IsBool(t):
		return AltNot, "the negated bool"
	case typeinfo.IsNumeric(t):
		return AltNum, "1 for 0, 0 for any other number"
	}
	what := "the zero value"
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
	return AltZero, what
}

func (t *Targets) mutateReturn(f *File, fn *ccfg.Function, sig *types.Signature, r *ast.ReturnStmt) []*Mutant {
	results := sig.Results()
	n := results.Len()
	where := func(k int) string {
		if n == 1 {
			return ""
		}
		return fmt.Sprintf(" (result %d of %d)", k+1, n)
	}
	info := f.Pkg.Info
	var out []*Mutant
	add := func(pos token.Pos, k int, shape Shape, e ast.Expr, targ string) {
		rt := results.At(k).Type()
		alt, what := alternative(rt)
		m := t.newMutant(RetStaRep, pos, k, fmt.Sprintf("%s returns %s%s", fn.Name, what, where(k)))
		m.Func, m.Return, m.Shape, m.Result, m.Expr, m.Alt, m.ResultType, m.TypeArg = fn, r, shape, k, e, alt, rt, targ
		m.ResultName = results.At(k).Name()
		if shape == ReturnExprs {
			m.Variant = 0
		}
		out = append(out, m)
	}
	switch {
	case len(r.Results) == 0:
		// A bare return of named results.
		for k := 0; k < n; k++ {
			if v := results.At(k); v.Name() == "" || v.Name() == "_" {
				return nil
			}
		}
		for k := 0; k < n; k++ {
			add(r.Return, k, ReturnBare, nil, "")
		}
	case len(r.Results) == 1 && n > 1:
		// return f(...) with several results.
		call, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr)
		if !ok || typeinfo.InferredGeneric(info, ast.Unparen(call.Fun)) {
			return nil
		}
		if tv, ok := info.Types[call.Fun]; !ok || !tv.IsValue() {
			return nil
		}
		for k := 0; k < n; k++ {
			add(r.Results[0].Pos(), k, ReturnCall, nil, "")
		}
	case len(r.Results) == n:
		for k, e := range r.Results {
			rt := results.At(k).Type()
			alt, _ := alternative(rt)
			if alt == AltZero && isZeroExpr(info, e) {
				continue // an equivalent mutant
			}
			targ := ""
			// Constants may be untyped in the source even though the
			// checker records the type they take in the return, and nil
			// has no type: both need the type argument.
			if tv := info.Types[e]; alt != AltErr && (tv.Value != nil || tv.IsNil() || typeinfo.IsUntyped(tv.Type) || !types.Identical(tv.Type, rt)) {
				name, ok := typeinfo.TypeText(f.Pkg.Types, info, f.AST, rt)
				if !ok {
					continue
				}
				targ = name
			}
			add(e.Pos(), k, ReturnExprs, e, targ)
		}
	}
	return out
}

// funCalDel mutates a call site of R: the call is deleted (its results,
// if used, replaced by zero values), or its result replaced by an
// argument of the same type.
func (t *Targets) funCalDel(cs *couple.CallSite) []*Mutant {
	f := t.FileOf(cs.Call.Pos())
	if f == nil {
		return nil
	}
	call := cs.Call
	info := f.Pkg.Info
	if typeinfo.InferredGeneric(info, ast.Unparen(call.Fun)) {
		return nil
	}
	tv, ok := info.Types[call.Fun]
	if !ok || !tv.IsValue() {
		return nil
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok {
		return nil
	}
	name := couple.CalleeName(cs)
	nres := sig.Results().Len()
	used := nres > 0 && resultsUsed(f, call)
	var desc string
	switch {
	case !used:
		desc = fmt.Sprintf("deletes the call to %s", name)
	case nres == 1:
		desc = fmt.Sprintf("replaces the result of %s with the zero value", name)
	default:
		desc = fmt.Sprintf("replaces the results of %s with zero values", name)
	}
	del := t.newMutant(FunCalDel, cs.Pos, 0, desc)
	del.Func, del.Site, del.ResultsUsed = cs.Func, cs, used
	out := []*Mutant{del}
	if !used {
		return out
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
			m := t.newMutant(FunCalDel, cs.Pos, variant, fmt.Sprintf("replaces %s of %s with %s", res, name, arg))
			m.Func, m.Site, m.ResultsUsed, m.Arg, m.Result = cs.Func, cs, used, i, j
			out = append(out, m)
			variant++
			break
		}
	}
	return out
}

// resultsUsed reports whether the results of a call are used: the call is
// not a statement of its own (or a go or defer statement, or an assignment
// to blanks only).
func resultsUsed(f *File, call *ast.CallExpr) bool {
	_, parent := f.Tree.Unparen(call)
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
