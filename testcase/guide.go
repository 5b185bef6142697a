package testcase

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"slices"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
)

// Preference is what the search asks of the values it draws from the
// pool for an empty interface: one Ask per distinct set of kinds and
// types the uncovered goals need. The distance between two kinds means
// nothing to a comparison of kinds; the constant a branch compares with
// is turned into a choice of type instead.
type Preference struct {
	Asks []Ask
}

// Ask is what one goal asks: dynamic types of these reflect kinds, or
// these types (a type implementing an interface among them counts).
type Ask struct {
	Kinds []reflect.Kind
	Types []types.Type
}

// Matches reports whether a pool type t is of a kind or type the ask
// names.
func (a Ask) Matches(t types.Type) bool {
	if k := KindOf(t); k != reflect.Invalid && slices.Contains(a.Kinds, k) {
		return true
	}
	for _, want := range a.Types {
		if types.Identical(t, want) {
			return true
		}
		if iface, ok := want.Underlying().(*types.Interface); ok && !types.IsInterface(t) && types.Implements(t, iface) {
			return true
		}
	}
	return false
}

func (a *Ask) add(q typePref) {
	if q.typ != nil {
		if !slices.ContainsFunc(a.Types, func(t types.Type) bool { return types.Identical(t, q.typ) }) {
			a.Types = append(a.Types, q.typ)
		}
		return
	}
	if !slices.Contains(a.Kinds, q.kind) {
		a.Kinds = append(a.Kinds, q.kind)
	}
}

func (a Ask) equal(b Ask) bool {
	return slices.Equal(a.Kinds, b.Kinds) && slices.EqualFunc(a.Types, b.Types, types.Identical)
}

// KindOf is the reflect kind of the values of a concrete type; Invalid
// for interfaces, whose values have the kinds of their dynamic types.
func KindOf(t types.Type) reflect.Kind {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return basicKinds[u.Kind()]
	case *types.Pointer:
		return reflect.Pointer
	case *types.Slice:
		return reflect.Slice
	case *types.Array:
		return reflect.Array
	case *types.Map:
		return reflect.Map
	case *types.Chan:
		return reflect.Chan
	case *types.Signature:
		return reflect.Func
	case *types.Struct:
		return reflect.Struct
	}
	return reflect.Invalid
}

var basicKinds = map[types.BasicKind]reflect.Kind{
	types.Bool: reflect.Bool, types.Int: reflect.Int, types.Int8: reflect.Int8, types.Int16: reflect.Int16,
	types.Int32: reflect.Int32, types.Int64: reflect.Int64, types.Uint: reflect.Uint, types.Uint8: reflect.Uint8,
	types.Uint16: reflect.Uint16, types.Uint32: reflect.Uint32, types.Uint64: reflect.Uint64,
	types.Uintptr: reflect.Uintptr, types.Float32: reflect.Float32, types.Float64: reflect.Float64,
	types.Complex64: reflect.Complex64, types.Complex128: reflect.Complex128, types.String: reflect.String,
	types.UnsafePointer: reflect.UnsafePointer,
}

// typePref is one kind or one type a branch asks for.
type typePref struct {
	kind reflect.Kind
	typ  types.Type
}

// typeBranch is a branch that tests the dynamic type of a value: the
// outcome of its node that holds when the value has the kind or type.
type typeBranch struct {
	pref    typePref
	outcome bool
}

// guidance maps the goals to what their branches ask of types.
type guidance struct {
	a        *couple.Analysis
	branches map[*ccfg.BranchNode]typeBranch
	// order lists the nodes of branches in source order, R's first.
	order []*ccfg.BranchNode
	goals [][]typePref
	memo  map[*ccfg.BranchNode][]typePref
	busy  map[*ccfg.BranchNode]bool
	// askOf holds per goal the number of its ask in asks (noAsk: the
	// goal asks nothing; unasked: not worked out yet); asks are the
	// distinct asks, in the order goals first made them. A preference is
	// made every time the archive grows, for every uncovered goal.
	askOf []int32
	asks  []Ask
}

// Markers of guidance.askOf.
const (
	unasked = -2
	noAsk   = -1
)

// ask returns the number of goal's ask among g.asks, or noAsk.
func (g *guidance) ask(goal int32) int32 {
	if g.askOf == nil {
		g.askOf = make([]int32, len(g.goals))
		for i := range g.askOf {
			g.askOf[i] = unasked
		}
	}
	if id := g.askOf[goal]; id != unasked {
		return id
	}
	id := int32(noAsk)
	if len(g.goals[goal]) > 0 {
		var ask Ask
		for _, q := range g.goals[goal] {
			ask.add(q)
		}
		id = int32(slices.IndexFunc(g.asks, ask.equal))
		if id < 0 {
			id = int32(len(g.asks))
			g.asks = append(g.asks, ask)
		}
	}
	g.askOf[goal] = id
	return id
}

// typeBranches finds, in R and E, the branches that test a type: a
// condition comparing a reflect.Kind with a constant (v.Kind() ==
// reflect.Struct, with != and ! read as the other outcome), the result of
// a comma-ok type assertion (`if m, ok := v.(Marshaler); ok`), a case of
// a switch on a reflect.Kind, and a case clause of a type switch.
func typeBranches(a *couple.Analysis) *guidance {
	g := &guidance{a: a, branches: map[*ccfg.BranchNode]typeBranch{}, memo: map[*ccfg.BranchNode][]typePref{}, busy: map[*ccfg.BranchNode]bool{}}
	for _, c := range []*ccfg.CCFG{a.Caller, a.Callee} {
		for _, n := range c.Nodes {
			if tb, ok := typeTest(n); ok {
				g.branches[n] = tb
				g.order = append(g.order, n)
			}
		}
	}
	return g
}

// typeTest reads what a branching node tests of a type, if anything.
func typeTest(n *ccfg.BranchNode) (typeBranch, bool) {
	info := n.Pkg.Info
	if info == nil {
		return typeBranch{}, false
	}
	switch n.Kind {
	case ccfg.KindCond:
		e, ok := n.Anchor.(ast.Expr)
		if !ok {
			return typeBranch{}, false
		}
		neg := false
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
				continue
			case *ast.UnaryExpr:
				if x.Op == token.NOT {
					e, neg = x.X, !neg
					continue
				}
			}
			break
		}
		if id, isIdent := e.(*ast.Ident); isIdent {
			if t := commaOkAssertion(n, id); t != nil {
				return typeBranch{pref: typePref{typ: t}, outcome: !neg}, true
			}
			return typeBranch{}, false
		}
		b, ok := e.(*ast.BinaryExpr)
		if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
			return typeBranch{}, false
		}
		k, ok := kindConst(info, b.X, b.Y)
		if !ok {
			k, ok = kindConst(info, b.Y, b.X)
		}
		if ok {
			return typeBranch{pref: typePref{kind: k}, outcome: (b.Op == token.EQL) != neg}, true
		}
		// t == reflect.TypeOf(time.Duration(0)): a decoder that converts
		// values of one type asks for it.
		t := reflectTypeOperand(n.Pkg, b.X)
		if t == nil {
			t = reflectTypeOperand(n.Pkg, b.Y)
		}
		if t == nil {
			return typeBranch{}, false
		}
		return typeBranch{pref: typePref{typ: t}, outcome: (b.Op == token.EQL) != neg}, true
	case ccfg.KindCase:
		sw, ok := n.Stmt.(*ast.SwitchStmt)
		e, isExpr := n.Anchor.(ast.Expr)
		if !ok || !isExpr || sw.Tag == nil {
			return typeBranch{}, false
		}
		if k, ok := kindConst(info, sw.Tag, e); ok {
			return typeBranch{pref: typePref{kind: k}, outcome: true}, true
		}
	case ccfg.KindTypeCase:
		e, ok := n.Anchor.(ast.Expr)
		if !ok {
			return typeBranch{}, false
		}
		tv, ok := info.Types[e]
		if !ok || !tv.IsType() || isEmptyInterface(tv.Type) {
			return typeBranch{}, false
		}
		return typeBranch{pref: typePref{typ: tv.Type}, outcome: true}, true
	}
	return typeBranch{}, false
}

// commaOkAssertion returns the type that the boolean variable id of the
// condition of node n says a value has: T when the function of n sets
// id by `v, id := x.(T)` (or =), as in `if m, ok := v.(Marshaler); ok`;
// nil otherwise.
func commaOkAssertion(n *ccfg.BranchNode, id *ast.Ident) types.Type {
	info := n.Pkg.Info
	obj := info.Uses[id]
	if obj == nil || n.Func == nil || n.Func.SSA == nil || n.Func.SSA.Syntax() == nil {
		return nil
	}
	var found types.Type
	ast.Inspect(n.Func.SSA.Syntax(), func(x ast.Node) bool {
		as, ok := x.(*ast.AssignStmt)
		if found != nil || !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return found == nil
		}
		ta, ok := ast.Unparen(as.Rhs[0]).(*ast.TypeAssertExpr)
		lhs, isIdent := as.Lhs[1].(*ast.Ident)
		if !ok || ta.Type == nil || !isIdent || (info.Defs[lhs] != obj && info.Uses[lhs] != obj) {
			return true
		}
		if tv, ok := info.Types[ta.Type]; ok && tv.IsType() && !isEmptyInterface(tv.Type) {
			found = tv.Type
		}
		return false
	})
	return found
}

// reflectTypeOperand returns the type that e, an operand of a comparison
// of reflect.Type values, stands for: T of reflect.TypeOf(x) (x of the
// concrete type T), reflect.TypeFor[T](), reflect.TypeOf((*T)(nil)).Elem(),
// or a package-level variable of pkg initialised with one of those; nil
// for anything else and for interface types, whose values a test builds
// otherwise.
func reflectTypeOperand(pkg *ccfg.Package, e ast.Expr) types.Type {
	info := pkg.Info
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		v, isVar := info.Uses[id].(*types.Var)
		if !isVar || v.Pkg() != pkg.Types || v.Parent() != pkg.Types.Scope() {
			return nil
		}
		init := packageVarInit(pkg, v)
		if init == nil {
			return nil
		}
		if _, isIdent := ast.Unparen(init).(*ast.Ident); isIdent {
			return nil // no chains of variables
		}
		return reflectTypeOperand(pkg, init)
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	var t types.Type
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if fun.Sel.Name == "Elem" && len(call.Args) == 0 {
			// reflect.TypeOf((*T)(nil)).Elem()
			inner, ok := ast.Unparen(fun.X).(*ast.CallExpr)
			if !ok || !isReflectFunc(info, inner.Fun, "TypeOf") || len(inner.Args) != 1 {
				return nil
			}
			if p, ok := info.TypeOf(inner.Args[0]).(*types.Pointer); ok {
				t = p.Elem()
			}
		} else if isReflectFunc(info, fun, "TypeOf") && len(call.Args) == 1 {
			t = info.TypeOf(call.Args[0])
		}
	case *ast.IndexExpr:
		if isReflectFunc(info, fun.X, "TypeFor") {
			t = info.TypeOf(fun.Index)
		}
	}
	if t == nil || types.IsInterface(t) {
		return nil
	}
	return t
}

// isReflectFunc reports whether e names the function name of package
// reflect.
func isReflectFunc(info *types.Info, e ast.Expr, name string) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == "reflect"
}

// packageVarInit returns the expression that initialises v, a variable
// declared at package level in pkg alone (var v = e), or nil.
func packageVarInit(pkg *ccfg.Package, v *types.Var) ast.Expr {
	for _, f := range pkg.Files {
		if f.Pos() > v.Pos() || v.Pos() >= f.End() {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR || v.Pos() < gd.Pos() || v.Pos() >= gd.End() {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if name.Pos() == v.Pos() && len(vs.Values) == len(vs.Names) {
						return vs.Values[i]
					}
				}
			}
		}
	}
	return nil
}

// kindConst reports whether x is a reflect.Kind value and k the constant
// kind it is compared with.
func kindConst(info *types.Info, x, k ast.Expr) (reflect.Kind, bool) {
	tx, ok := info.Types[x]
	if !ok || tx.Value != nil || !isReflectNamed(tx.Type, "Kind") {
		return 0, false
	}
	tk, ok := info.Types[k]
	if !ok || tk.Value == nil || tk.Value.Kind() != constant.Int {
		return 0, false
	}
	v, _ := constant.Int64Val(tk.Value)
	return reflect.Kind(v), true
}

// own is what branch b itself asks for, if it tests a type.
func (g *guidance) own(b couple.Branch) (typePref, bool) {
	if b.Node == nil {
		return typePref{}, false
	}
	tb, ok := g.branches[b.Node]
	if !ok || tb.outcome != b.Outcome {
		return typePref{}, false
	}
	return tb.pref, true
}

// on is what the branches that control reaching n ask for, transitively
// (the control-dependence path of n).
func (g *guidance) on(n *ccfg.BranchNode) []typePref {
	if v, ok := g.memo[n]; ok || g.busy[n] {
		return v
	}
	g.busy[n] = true
	var out []typePref
	for _, b := range g.a.Controlling(n) {
		if p, ok := g.own(b); ok {
			out = appendPref(out, p)
		}
		if b.Node != nil {
			for _, p := range g.on(b.Node) {
				out = appendPref(out, p)
			}
		}
	}
	delete(g.busy, n)
	g.memo[n] = out
	return out
}

func appendPref(ps []typePref, p typePref) []typePref {
	for _, q := range ps {
		if q.kind == p.kind && (q.typ == nil) == (p.typ == nil) && (q.typ == nil || types.Identical(q.typ, p.typ)) {
			return ps
		}
	}
	return append(ps, p)
}

// forGoals computes, per goal, what its caller and callee branches and
// the branches on their control-dependence paths ask for.
func (g *guidance) forGoals() {
	g.goals = make([][]typePref, len(g.a.Goals))
	if len(g.branches) == 0 {
		return
	}
	for i, goal := range g.a.Goals {
		var ps []typePref
		for _, b := range []couple.Branch{goal.E, goal.R} {
			if p, ok := g.own(b); ok {
				ps = appendPref(ps, p)
			}
			if b.Node != nil {
				for _, p := range g.on(b.Node) {
					ps = appendPref(ps, p)
				}
			}
		}
		g.goals[i] = dispatched(goal, ps)
	}
}

// dispatched narrows what goal asks, ps, when its call site calls a
// method of an interface: the call reaches E only when the dynamic type is
// the receiver of one of E's methods, so those receiver types are asked
// for (the one whose method holds the goal's E branch, if it is a target),
// and an interface they implement is no longer (a stub or any other type
// of it satisfies the branches before the call but never reaches E).
func dispatched(goal couple.Goal, ps []typePref) []typePref {
	recvs := dispatchTypes(goal)
	if len(recvs) == 0 {
		return ps
	}
	var out []typePref
	for _, p := range ps {
		if p.typ != nil {
			if iface, ok := p.typ.Underlying().(*types.Interface); ok && slices.ContainsFunc(recvs, func(r types.Type) bool {
				return types.Implements(r, iface)
			}) {
				continue
			}
		}
		out = appendPref(out, p)
	}
	for _, r := range recvs {
		out = appendPref(out, typePref{typ: r})
	}
	return out
}

// dispatchTypes are the receiver types of the methods of E that goal's
// call site may reach, when it calls a method of an interface: the
// receiver of the target holding goal's E branch if there is one, of
// every target else. It is nil for a static call.
func dispatchTypes(goal couple.Goal) []types.Type {
	site := goal.Site
	if site == nil || site.Call == nil || site.Func == nil || site.Func.Pkg == nil || site.Func.Pkg.Info == nil {
		return nil
	}
	sel, ok := ast.Unparen(site.Call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := site.Func.Pkg.Info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
		return nil
	}
	home := goal.E.Entry
	if goal.E.Node != nil {
		home = goal.E.Node.Func
	}
	targets := site.Targets
	for _, t := range site.Targets {
		if t == home {
			targets = []*ccfg.Function{t}
			break
		}
	}
	var out []types.Type
	for _, t := range targets {
		if t.SSA == nil || t.SSA.Signature.Recv() == nil {
			continue
		}
		r := t.SSA.Signature.Recv().Type()
		if types.IsInterface(r) || slices.ContainsFunc(out, func(o types.Type) bool { return types.Identical(o, r) }) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// dispatchReceivers are the receiver types of the methods of E that R's
// call sites reach through an interface (see dispatchTypes), the types
// more coupled goals ask for first, at most maxDispatch of them.
func (c *Cluster) dispatchReceivers() []types.Type {
	if c.analysis == nil {
		return nil
	}
	var out []types.Type
	for _, site := range c.analysis.Sites {
		for _, r := range dispatchTypes(couple.Goal{Site: site}) {
			if !slices.ContainsFunc(out, func(o types.Type) bool { return types.Identical(o, r) }) {
				out = append(out, r)
			}
		}
	}
	out = c.byGoalsAsking(out)
	return out[:min(len(out), maxDispatch)]
}

// maxDispatch bounds the pool's receiver types of dynamically called
// methods of E.
const maxDispatch = 10

// byGoalsAsking orders types by the number of coupled goals whose
// branches, or the branches they depend on, test for the type (see
// Preference), most first, in their order among equals: an interface
// that the branches before many call sites assert is worth a stub more
// than one a single goal depends on.
func (c *Cluster) byGoalsAsking(ts []types.Type) []types.Type {
	if c.analysis == nil || len(ts) < 2 {
		return ts
	}
	g := c.guidance()
	if g.goals == nil {
		g.forGoals()
	}
	asking := make([]int, len(ts))
	for _, prefs := range g.goals {
		for _, p := range prefs {
			if p.typ == nil {
				continue
			}
			for i, t := range ts {
				if types.Identical(t, p.typ) {
					asking[i]++
				}
			}
		}
	}
	order := make([]int, len(ts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return asking[b] - asking[a] })
	out := make([]types.Type, len(ts))
	for i, k := range order {
		out[i] = ts[k]
	}
	return out
}

// caseTypes are the types R's and E's branches test (type switch cases,
// comma-ok assertions, reflect.Type comparisons), in source order.
func (c *Cluster) caseTypes() []types.Type {
	var out []types.Type
	for _, n := range c.guidance().order {
		if t := c.guide.branches[n].pref.typ; t != nil {
			out = append(out, t)
		}
	}
	return out
}

func (c *Cluster) guidance() *guidance {
	if c.guide == nil {
		if c.analysis == nil {
			c.guide = &guidance{branches: map[*ccfg.BranchNode]typeBranch{}}
		} else {
			c.guide = typeBranches(c.analysis)
		}
	}
	return c.guide
}

// Preference is what the uncovered goals ask of the types drawn for an
// empty interface: per goal, the kinds and types tested by its branches
// or by the branches those depend on, each distinct ask once, in goal
// order. It is nil when the cluster has no pool or nothing is asked.
func (c *Cluster) Preference(uncovered []int32) *Preference {
	if !c.poolBuilt || c.analysis == nil {
		return nil
	}
	g := c.guidance()
	if len(g.branches) == 0 {
		return nil
	}
	if g.goals == nil {
		g.forGoals()
	}
	p := &Preference{}
	var taken []bool // per ask of g.asks
	for _, goal := range uncovered {
		if goal < 0 || int(goal) >= len(g.goals) {
			continue
		}
		id := g.ask(goal)
		if id == noAsk {
			continue
		}
		if int(id) >= len(taken) {
			taken = append(taken, make([]bool, len(g.asks)-len(taken))...)
		}
		if !taken[id] {
			taken[id] = true
			p.Asks = append(p.Asks, g.asks[id])
		}
	}
	if len(p.Asks) == 0 {
		return nil
	}
	return p
}
