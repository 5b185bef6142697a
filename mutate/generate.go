package mutate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/srcedit"
	"github.com/cling-go/cling/probe"
)

// rtName is the name mutated files import the probe runtime under.
const rtName = probe.RT

// Wrapper layers: wrappers of the same node nest in this order, outermost
// first.
const (
	layerRet   = 0
	layerCall  = 16
	layerCond  = 32
	layerCmp   = 33
	layerMath  = 34
	layerConst = 35
)

// srcFile is one non-test Go file of R or E.
type srcFile struct {
	path, rel string
	pkg       *ccfg.Package
	file      *ast.File
	tf        *token.File
	src       []byte
	tree      *srcedit.Tree
	sites     []*site
}

// site is one mutated place of a file: the edits that guard its mutants.
// The edits' texts hold placeholders for the IDs of the site's mutants, so
// that a mutant left out (not viable, or not selected) renders as -1, the
// ID of no mutant.
type site struct {
	file    *srcFile
	edits   []siteEdit
	mutants []*Mutant
	// disabled is set for the sites whose mutants are not viable.
	disabled bool
	reason   string
}

type siteEdit struct {
	kind         srcedit.Kind
	off, end     int
	tmpl         string
	depth, layer int
}

// ph is the placeholder of the k-th mutant of a site.
func ph(k int) string { return "\x00" + string(rune('0'+k)) }

// fill replaces the placeholders of tmpl by the IDs of the site's mutants.
func (s *site) fill(tmpl string, id func(*Mutant) int) string {
	if !strings.Contains(tmpl, "\x00") {
		return tmpl
	}
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] == 0 && i+1 < len(tmpl) {
			k := int(tmpl[i+1] - '0')
			b.WriteString(strconv.Itoa(id(s.mutants[k])))
			i++
			continue
		}
		b.WriteByte(tmpl[i])
	}
	return b.String()
}

// generator finds the mutants of a pair and renders the mutated sources.
type generator struct {
	a       *couple.Analysis
	ops     map[Operator]bool
	files   []*srcFile
	byTF    map[*token.File]*srcFile
	mutants []*Mutant
	errType types.Type
}

// newGenerator finds every mutant of the operators in R and E.
func newGenerator(a *couple.Analysis, ops []Operator) (*generator, error) {
	g := &generator{a: a, ops: map[Operator]bool{}, byTF: map[*token.File]*srcFile{}, errType: types.Universe.Lookup("error").Type()}
	for _, o := range ops {
		g.ops[o] = true
	}
	for _, c := range []*ccfg.CCFG{a.Caller, a.Callee} {
		if err := g.addFiles(c.Pkg); err != nil {
			return nil, err
		}
	}
	if g.ops[RetStaRep] {
		var roots []*ccfg.Function
		for _, s := range a.Sites {
			roots = append(roots, s.Targets...)
		}
		seen := map[ast.Node]bool{}
		for _, f := range couple.ReachableFunctions(roots) {
			if f.Pkg == a.Callee.Pkg {
				g.retStaRep(f, seen)
			}
		}
	}
	if g.ops[FunCalDel] {
		for _, s := range a.Sites {
			g.funCalDel(s)
		}
	}
	for _, o := range ConventionalOperators {
		if g.ops[o] {
			for _, f := range g.files {
				g.conventional(f)
			}
			break
		}
	}
	g.number()
	return g, nil
}

func (g *generator) addFiles(pkg *ccfg.Package) error {
	sources, err := g.a.Prog.SourceFiles(pkg)
	if err != nil {
		return err
	}
	var files []*srcFile
	for _, f := range sources {
		sf := &srcFile{path: f.Path, rel: g.a.Prog.RelFile(f.Path), pkg: pkg, file: f.AST, tf: f.TF, src: f.Src, tree: srcedit.NewTree(f.AST)}
		files = append(files, sf)
		g.byTF[f.TF] = sf
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	g.files = append(g.files, files...)
	return nil
}

// fileOf returns the file containing pos, or nil for a test file.
func (g *generator) fileOf(pos token.Pos) *srcFile { return g.byTF[g.a.Prog.Fset.File(pos)] }

// filesOf returns the files of a package.
func (g *generator) filesOf(pkg *ccfg.Package) []*srcFile {
	var out []*srcFile
	for _, f := range g.files {
		if f.pkg == pkg {
			out = append(out, f)
		}
	}
	return out
}

// number sorts the mutants into source order and assigns their IDs.
func (g *generator) number() {
	sort.SliceStable(g.mutants, func(i, j int) bool {
		a, b := g.mutants[i], g.mutants[j]
		if a.Rel != b.Rel {
			return a.Rel < b.Rel
		}
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		if a.Operator != b.Operator {
			return a.Operator.rank() < b.Operator.rank()
		}
		return a.variant < b.variant
	})
	for i, m := range g.mutants {
		m.ID = i + 1
	}
}

func (f *srcFile) off(p token.Pos) int { return f.tf.Offset(p) }

func (f *srcFile) text(n ast.Node) string { return string(f.src[f.off(n.Pos()):f.off(n.End())]) }

func (f *srcFile) info() *types.Info { return f.pkg.Info }

// newSite starts a site in f.
func (g *generator) newSite(f *srcFile) *site {
	s := &site{file: f}
	f.sites = append(f.sites, s)
	return s
}

// wrap surrounds node n with open and close.
func (s *site) wrap(n ast.Node, open, close string, layer int) {
	f := s.file
	d := f.tree.Depth(n)
	s.edits = append(s.edits,
		siteEdit{kind: srcedit.Open, off: f.off(n.Pos()), tmpl: open, depth: d, layer: layer},
		siteEdit{kind: srcedit.Close, off: f.off(n.End()), tmpl: close, depth: d, layer: layer})
}

// replace replaces the source between two offsets (an insertion if they
// are equal).
func (s *site) replace(off, end int, text string) {
	s.edits = append(s.edits, siteEdit{kind: srcedit.Replace, off: off, end: end, tmpl: text})
}

// closeAt inserts a closing text at off, for a wrapper opened by a
// replacement.
func (s *site) closeAt(off int, text string, depth, layer int) {
	s.edits = append(s.edits, siteEdit{kind: srcedit.Close, off: off, tmpl: text, depth: depth, layer: layer})
}

// add records the k-th mutant of site s (its placeholder is ph(k)).
func (g *generator) add(s *site, op Operator, pos token.Pos, variant int, desc string) {
	f := s.file
	p := g.a.Prog.Fset.PositionFor(pos, false)
	m := &Mutant{
		Operator: op, Package: f.pkg.Path, File: f.path, Rel: f.rel,
		Line: p.Line, Col: p.Column, Offset: p.Offset,
		Description: desc, site: s, variant: variant,
	}
	s.mutants = append(s.mutants, m)
	g.mutants = append(g.mutants, m)
}

// typeText names t in file f, with the file's import names, and false if
// it cannot be named there.
func (f *srcFile) typeText(t types.Type) (string, bool) {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == f.pkg.Types {
			return ""
		}
		for _, spec := range f.file.Imports {
			if pn := f.info().PkgNameOf(spec); pn != nil && pn.Imported() == p {
				if pn.Name() == "." {
					return ""
				}
				if pn.Name() != "_" {
					return pn.Name()
				}
			}
		}
		ok = false
		return p.Name()
	})
	if strings.Contains(s, "untyped") || strings.Contains(s, "invalid type") || strings.ContainsAny(s, "\n\r") {
		return "", false
	}
	return s, ok
}

// isUntyped reports whether t is an untyped basic type (or nil).
func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return t == nil || (ok && b.Info()&types.IsUntyped != 0)
}

// basicInfo returns the basic-type information of t's underlying type, 0
// for non-basic types and type parameters.
func basicInfo(t types.Type) types.BasicInfo {
	if t == nil {
		return 0
	}
	if _, isParam := t.(*types.TypeParam); isParam {
		return 0
	}
	if b, ok := t.Underlying().(*types.Basic); ok {
		return b.Info()
	}
	return 0
}

func isNumeric(t types.Type) bool {
	i := basicInfo(t)
	return i&(types.IsInteger|types.IsFloat) != 0 && i&types.IsComplex == 0
}

func isInteger(t types.Type) bool { return basicInfo(t)&types.IsInteger != 0 }

func isBool(t types.Type) bool { return basicInfo(t)&types.IsBoolean != 0 }

// inferredGeneric reports whether fun names a generic function whose type
// arguments are inferred at the call: such a function is no value.
func inferredGeneric(info *types.Info, fun ast.Expr) bool {
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	_, ok := info.Instances[id]
	return ok
}

// --- RetStaRep -------------------------------------------------------------

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

// --- FunCalDel -------------------------------------------------------------

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

// --- conventional operators --------------------------------------------------

var cmpHelpers = map[token.Token]struct {
	helper          string
	boundary, negat token.Token
}{
	token.LSS: {"LT", token.LEQ, token.GEQ},
	token.LEQ: {"LE", token.LSS, token.GTR},
	token.GTR: {"GT", token.GEQ, token.LEQ},
	token.GEQ: {"GE", token.GTR, token.LSS},
	token.EQL: {"EQ", token.ILLEGAL, token.NEQ},
	token.NEQ: {"NE", token.ILLEGAL, token.EQL},
}

var mathHelpers = map[token.Token]struct {
	helper  string
	to      token.Token
	integer bool
}{
	token.ADD:     {"Add", token.SUB, false},
	token.SUB:     {"Sub", token.ADD, false},
	token.MUL:     {"Mul", token.QUO, false},
	token.QUO:     {"Quo", token.MUL, false},
	token.REM:     {"Rem", token.MUL, true},
	token.AND:     {"And", token.OR, true},
	token.OR:      {"Or", token.AND, true},
	token.XOR:     {"Xor", token.AND, true},
	token.AND_NOT: {"AndNot", token.AND, true},
	token.SHL:     {"Shl", token.SHR, true},
	token.SHR:     {"Shr", token.SHL, true},
}

var assignOps = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
	token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.AND_NOT_ASSIGN: token.AND_NOT,
	token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR,
}

// conventional applies the conventional operators to the function bodies
// of f.
func (g *generator) conventional(f *srcFile) {
	for _, d := range f.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GenDecl:
				return x.Tok != token.CONST && x.Tok != token.TYPE
			case *ast.ArrayType, *ast.StructType, *ast.InterfaceType, *ast.FuncType, *ast.MapType, *ast.ChanType:
				return false
			case *ast.BinaryExpr:
				if _, ok := cmpHelpers[x.Op]; ok {
					g.comparison(f, x)
				} else if _, ok := mathHelpers[x.Op]; ok {
					g.arithmetic(f, x)
				}
			case *ast.AssignStmt:
				g.assignOp(f, x)
			case *ast.IncDecStmt:
				g.incDec(f, x)
			case *ast.IfStmt:
				g.removeCond(f, x)
			case *ast.BasicLit:
				g.inlineConst(f, x)
			case *ast.Ident:
				g.inlineConst(f, x)
			}
			return true
		})
	}
}

// operandType is the type of a binary operation's operands: the typed
// operand's type, or nil if both are untyped or the types differ.
func operandType(info *types.Info, x, y ast.Expr) types.Type {
	tx, ty := info.Types[x].Type, info.Types[y].Type
	switch {
	case isUntyped(tx) && isUntyped(ty):
		return nil
	case isUntyped(tx):
		return ty
	case isUntyped(ty):
		return tx
	case types.Identical(tx, ty):
		return tx
	}
	return nil
}

func (g *generator) comparison(f *srcFile, be *ast.BinaryExpr) {
	info := f.info()
	tv := info.Types[be]
	if tv.Value != nil || (tv.Type != nil && !isUntyped(tv.Type) && !types.Identical(tv.Type, types.Typ[types.Bool])) {
		return
	}
	h := cmpHelpers[be.Op]
	t := operandType(info, be.X, be.Y)
	if t == nil {
		return
	}
	if _, isParam := t.(*types.TypeParam); isParam {
		return
	}
	ordered := h.boundary != token.ILLEGAL
	if ordered {
		i := basicInfo(t)
		if i&(types.IsInteger|types.IsFloat|types.IsString) == 0 || i&types.IsComplex != 0 {
			return
		}
	} else if !types.Comparable(t) {
		return
	}
	doB := ordered && g.ops[ConditionalsBoundary]
	doN := g.ops[NegateConditionals]
	if !doB && !doN {
		return
	}
	s := g.newSite(f)
	ids := []string{}
	k := 0
	if ordered {
		if doB {
			ids = append(ids, ph(k))
			k++
		} else {
			ids = append(ids, "-1")
		}
	}
	if doN {
		ids = append(ids, ph(k))
	} else {
		ids = append(ids, "-1")
	}
	s.wrap(be, fmt.Sprintf("%s.%s(%s, ", rtName, h.helper, strings.Join(ids, ", ")), ")", layerCmp)
	opOff := f.off(be.OpPos)
	s.replace(opOff, opOff+len(be.Op.String()), ",")
	if doB {
		g.add(s, ConditionalsBoundary, be.OpPos, 0, fmt.Sprintf("replaces %s with %s", be.Op, h.boundary))
	}
	if doN {
		g.add(s, NegateConditionals, be.OpPos, 0, fmt.Sprintf("replaces %s with %s", be.Op, h.negat))
	}
}

func (g *generator) arithmetic(f *srcFile, be *ast.BinaryExpr) {
	if !g.ops[Math] {
		return
	}
	info := f.info()
	tv := info.Types[be]
	if tv.Value != nil || isUntyped(tv.Type) {
		return
	}
	h := mathHelpers[be.Op]
	var t types.Type
	if be.Op == token.SHL || be.Op == token.SHR {
		t = info.Types[be.X].Type
		if isUntyped(t) || !isInteger(info.Types[be.Y].Type) {
			return
		}
	} else if t = operandType(info, be.X, be.Y); t == nil {
		return
	}
	if !isNumeric(t) || (h.integer && !isInteger(t)) {
		return
	}
	s := g.newSite(f)
	s.wrap(be, fmt.Sprintf("%s.%s(%s, ", rtName, h.helper, ph(0)), ")", layerMath)
	opOff := f.off(be.OpPos)
	s.replace(opOff, opOff+len(be.Op.String()), ",")
	g.add(s, Math, be.OpPos, 0, fmt.Sprintf("replaces %s with %s", be.Op, h.to))
}

// isPure reports whether evaluating e twice has no effect and yields the
// same value: names, selections, dereferences and indexing by names and
// literals.
func isPure(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return isPure(x.X)
	case *ast.SelectorExpr:
		return isPure(x.X)
	case *ast.StarExpr:
		return isPure(x.X)
	case *ast.IndexExpr:
		return isPure(x.X) && isPure(x.Index)
	}
	return false
}

func (g *generator) assignOp(f *srcFile, as *ast.AssignStmt) {
	op, ok := assignOps[as.Tok]
	if !ok || !g.ops[Math] || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isPure(as.Lhs[0]) {
		return
	}
	h := mathHelpers[op]
	info := f.info()
	t := info.Types[as.Lhs[0]].Type
	if !isNumeric(t) || (h.integer && !isInteger(t)) {
		return
	}
	if op == token.SHL || op == token.SHR {
		if !isInteger(info.Types[as.Rhs[0]].Type) {
			return
		}
	}
	lhs := f.text(as.Lhs[0])
	if strings.ContainsAny(lhs, "\n\r") {
		return
	}
	s := g.newSite(f)
	tok := f.off(as.TokPos)
	s.replace(tok, tok+len(as.Tok.String()), fmt.Sprintf("= %s.%s(%s, %s, ", rtName, h.helper, ph(0), lhs))
	s.closeAt(f.off(as.Rhs[0].End()), ")", f.tree.Depth(as), layerMath)
	g.add(s, Math, as.TokPos, 0, fmt.Sprintf("replaces %s with %s=", as.Tok, h.to))
}

func (g *generator) incDec(f *srcFile, st *ast.IncDecStmt) {
	if !g.ops[Increments] || !isPure(st.X) || !isNumeric(f.info().Types[st.X].Type) {
		return
	}
	x := f.text(st.X)
	if strings.ContainsAny(x, "\n\r") {
		return
	}
	helper, to := "Inc", "--"
	if st.Tok == token.DEC {
		helper, to = "Dec", "++"
	}
	s := g.newSite(f)
	tok := f.off(st.TokPos)
	s.replace(tok, tok+2, fmt.Sprintf(" += %s.%s(%s, %s)", rtName, helper, ph(0), x))
	g.add(s, Increments, st.TokPos, 0, fmt.Sprintf("replaces %s with %s", st.Tok, to))
}

func (g *generator) removeCond(f *srcFile, is *ast.IfStmt) {
	if !g.ops[RemoveConditionals] {
		return
	}
	tv := f.info().Types[is.Cond]
	if tv.Value != nil || !isBool(tv.Type) {
		return
	}
	s := g.newSite(f)
	s.wrap(is.Cond, fmt.Sprintf("%s.Cond(%s, %s, ", rtName, ph(0), ph(1)), ")", layerCond)
	g.add(s, RemoveConditionals, is.Cond.Pos(), 0, "replaces the condition with true")
	g.add(s, RemoveConditionals, is.Cond.Pos(), 1, "replaces the condition with false")
}

// inlineConst mutates a numeric or boolean literal that is not part of a
// larger constant expression or of a context that needs a constant.
func (g *generator) inlineConst(f *srcFile, e ast.Expr) {
	if !g.ops[InlineConstant] {
		return
	}
	info := f.info()
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.INT && x.Kind != token.FLOAT {
			return
		}
	case *ast.Ident:
		c, ok := info.Uses[x].(*types.Const)
		if !ok || c.Parent() != types.Universe || (x.Name != "true" && x.Name != "false") {
			return
		}
	}
	tv := info.Types[e]
	if tv.Value == nil || isUntyped(tv.Type) || basicInfo(tv.Type) == 0 {
		return
	}
	n, p := f.tree.Unparen(e)
	if pe, ok := p.(ast.Expr); ok {
		if ptv, ok := info.Types[pe]; ok && ptv.Value != nil {
			return // part of a constant expression
		}
	}
	if kv, ok := p.(*ast.KeyValueExpr); ok && kv.Key == n {
		return
	}
	alt, ok := constAlt(tv.Value, tv.Type)
	if !ok {
		return
	}
	name, ok := f.typeText(tv.Type)
	if !ok {
		return
	}
	s := g.newSite(f)
	s.wrap(e, fmt.Sprintf("%s.Const[%s](%s, %s, ", rtName, name, ph(0), alt), ")", layerConst)
	g.add(s, InlineConstant, e.Pos(), 0, fmt.Sprintf("replaces %s with %s", f.text(e), alt))
}

// constAlt is the alternative of a constant (PIT's inline constant
// mutator): true <-> false; integers 0 -> 1, 1 -> 0, x -> x+1 (x-1 where
// x+1 overflows); floats 0 -> 1, x -> 0.
func constAlt(v constant.Value, t types.Type) (string, bool) {
	info := basicInfo(t)
	switch {
	case v.Kind() == constant.Bool:
		return strconv.FormatBool(!constant.BoolVal(v)), true
	case info&types.IsInteger != 0:
		if constant.Sign(v) == 0 {
			return "1", true
		}
		if c, ok := constant.Int64Val(v); ok && c == 1 {
			return "0", true
		}
		next := constant.BinaryOp(v, token.ADD, constant.MakeInt64(1))
		if !fits(next, t) {
			next = constant.BinaryOp(v, token.SUB, constant.MakeInt64(1))
		}
		return next.ExactString(), true
	case info&types.IsFloat != 0:
		if constant.Sign(v) == 0 {
			return "1", true
		}
		return "0", true
	}
	return "", false
}

// fits reports whether the integer constant v is representable in the
// integer type t.
func fits(v constant.Value, t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	var lo, hi int64
	var uhi uint64
	switch b.Kind() {
	case types.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case types.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case types.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case types.Int, types.Int64:
		lo, hi = math.MinInt64, math.MaxInt64
	case types.Uint8:
		uhi = math.MaxUint8
	case types.Uint16:
		uhi = math.MaxUint16
	case types.Uint32:
		uhi = math.MaxUint32
	case types.Uint, types.Uint64, types.Uintptr:
		uhi = math.MaxUint64
	default:
		return false
	}
	if uhi > 0 {
		u, exact := constant.Uint64Val(v)
		return exact && constant.Sign(v) >= 0 && u <= uhi
	}
	i, exact := constant.Int64Val(v)
	return exact && i >= lo && i <= hi
}
