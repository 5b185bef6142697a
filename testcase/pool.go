package testcase

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/cling-go/cling/ccfg"
)

// maxPool bounds the pool of types values of the empty interface are
// drawn from.
const maxPool = 64

// isEmptyInterface reports whether t is an interface every type
// satisfies (any, interface{}, or a named type of one).
func isEmptyInterface(t types.Type) bool {
	if _, tp := t.(*types.TypeParam); tp {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	return ok && iface.NumMethods() == 0 && !iface.IsComparable() && iface.IsMethodSet()
}

// reflection returns what R's and E's code does with reflection, read
// once.
func (c *Cluster) reflection() *reflection {
	if c.refl == nil {
		var funcs []*ccfg.Function
		if c.analysis != nil {
			funcs = append(append(funcs, c.analysis.Caller.Funcs...), c.analysis.Callee.Funcs...)
		}
		c.refl = scanReflection([]*types.Package{c.Caller.Types, c.Callee.Types}, funcs)
	}
	return c.refl
}

// paramUse says how the code treats parameter sigIdx of fn (input
// opIdx of its call op, receiver first): what the names say, and for a
// function of R or E what its SSA form does with the parameter.
func (c *Cluster) paramUse(fn *types.Func, sig *types.Signature, sigIdx, opIdx int) ParamUse {
	use := nameUse(fn, sig, sigIdx)
	if c.analysis == nil || fn.Pkg() == nil || (fn.Pkg() != c.Caller.Types && fn.Pkg() != c.Callee.Types) {
		return use
	}
	if sf := c.analysis.Prog.SSA.FuncValue(fn.Origin()); sf != nil {
		use |= c.reflection().paramUse(sf, opIdx)
	}
	return use
}

// poolBasics are the literals an empty interface always gets, before
// the pool exists and after.
var poolBasics = []types.BasicKind{types.Int, types.String, types.Bool, types.Int64, types.Float64}

// poolProducers are the producers of an empty interface t: literals of
// the common kinds, then the non-nil producers of every type of the
// pool, and a decode target (&v) for each type of the pool a pointer can
// point to.
func (c *Cluster) poolProducers(t types.Type) []*Op {
	var out []*Op
	for _, k := range poolBasics {
		out = append(out, c.prim(types.Typ[k]))
	}
	if c.poolBuilt {
		// A named empty interface, after any: the same pool.
	} else {
		// Building the pool asks for the heights of types whose fields
		// may be of t: the literals stand for t meanwhile.
		c.producers.Set(t, out)
		c.buildPool()
	}
	for _, pt := range c.Pool {
		for _, op := range c.PoolOps(pt) {
			if !slices.Contains(out, op) {
				out = append(out, op)
			}
		}
		if targetable(pt) {
			if op := c.Target(pt); op != nil && !slices.Contains(out, op) {
				out = append(out, op)
			}
		}
	}
	return out
}

// buildPool computes the pool, a deterministic list of at most maxPool
// types, in this order (types that cannot be built or named left out):
//
//  1. the basic types bool, int, int64, uint, float64, string, and
//     []byte;
//  2. composites of them: []int, []string, [3]int, map[string]int,
//     map[int]string, *int, []any, map[string]any;
//  3. the declared struct types (Declared) and pointers to them, then
//     the stubs of the interfaces R's and E's code asserts values to;
//  4. function types: func(int, int) bool, func(string, string) bool,
//     func(int) int, func(string) string, func(string) bool;
//  5. a type of each kind and shape left that code walking types by
//     reflection tells apart: channels of the three directions (chan
//     int, <-chan int, chan<- string), a variadic function and one with
//     two results (func(...string) int, func(int) (string, error)), a
//     slice of an interface with methods ([]error), a map of slices
//     (map[string][]int), maps whose keys are of other kinds than int
//     and string (map[any]int, whose keys are of the pool's types,
//     map[float64]bool, map[[2]int]string) and uintptr;
//  6. the receiver types of the methods of E that R calls through an
//     interface (see dispatchReceivers), then the types R's and E's
//     branches test (type switch cases, comma-ok assertions, reflect.Type
//     comparisons; see caseTypes), in source order;
//  7. the exported named types (not interfaces, not generic) of R, E and
//     the packages outside the standard library they import, by package
//     then name, with *T too for a struct T a constructor returns as *T.
func (c *Cluster) buildPool() {
	c.poolBuilt = true
	c.declared()
	var pool []types.Type
	add := func(t types.Type) {
		if len(pool) >= maxPool || slices.ContainsFunc(pool, func(p types.Type) bool { return types.Identical(p, t) }) {
			return
		}
		if c.poolable(t) {
			pool = append(pool, t)
		}
	}
	typ := types.Typ
	anyT := types.Universe.Lookup("any").Type()
	for _, k := range []types.BasicKind{types.Bool, types.Int, types.Int64, types.Uint, types.Float64, types.String} {
		add(typ[k])
	}
	add(types.NewSlice(types.Universe.Lookup("byte").Type()))
	for _, t := range []types.Type{
		types.NewSlice(typ[types.Int]), types.NewSlice(typ[types.String]), types.NewArray(typ[types.Int], 3),
		types.NewMap(typ[types.String], typ[types.Int]), types.NewMap(typ[types.Int], typ[types.String]),
		types.NewPointer(typ[types.Int]), types.NewSlice(anyT), types.NewMap(typ[types.String], anyT),
	} {
		add(t)
	}
	for _, d := range c.Declared {
		if !IsStub(d) {
			add(d)
		}
	}
	for _, d := range c.Declared {
		if !IsStub(d) {
			add(types.NewPointer(d))
		}
	}
	for _, d := range c.Declared {
		if IsStub(d) {
			add(d)
		}
	}
	fn := func(params []types.Type, result types.Type) types.Type {
		var vars []*types.Var
		for _, p := range params {
			vars = append(vars, types.NewParam(token.NoPos, nil, "", p))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(vars...), types.NewTuple(types.NewParam(token.NoPos, nil, "", result)), false)
	}
	in, str, b := typ[types.Int], typ[types.String], typ[types.Bool]
	for _, t := range []types.Type{fn([]types.Type{in, in}, b), fn([]types.Type{str, str}, b), fn([]types.Type{in}, in), fn([]types.Type{str}, str), fn([]types.Type{str}, b)} {
		add(t)
	}
	c.shapes = otherShapes()
	for _, t := range c.shapes {
		add(t)
	}
	for _, t := range c.dispatchReceivers() {
		add(t)
	}
	for _, t := range c.caseTypes() {
		add(t)
	}
	for _, p := range c.scan {
		if p != c.Caller.Types && p != c.Callee.Types && isStandard(p.Path()) {
			continue
		}
		if isInternalElsewhere(p.Path(), c.Caller.Types) || !callable(p.Path()) {
			continue
		}
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
				continue
			}
			add(named)
			if _, isStruct := named.Underlying().(*types.Struct); isStruct {
				ptr := types.NewPointer(named)
				if slices.ContainsFunc(c.Producers(ptr), func(op *Op) bool { return op.Kind == OpCall }) {
					add(ptr)
				}
			}
		}
	}
	c.Pool = pool
}

// otherShapes are the types of group 5 of the pool: a kind or shape
// each that a reflect.Kind switch or a type printer tells apart and the
// groups before lack.
func otherShapes() []types.Type {
	in, str := types.Typ[types.Int], types.Typ[types.String]
	param := func(t types.Type) *types.Var { return types.NewParam(token.NoPos, nil, "", t) }
	errT := types.Universe.Lookup("error").Type()
	return []types.Type{
		types.NewChan(types.SendRecv, in),
		types.NewChan(types.RecvOnly, in),
		types.NewChan(types.SendOnly, str),
		types.NewSignatureType(nil, nil, nil, types.NewTuple(param(types.NewSlice(str))), types.NewTuple(param(in)), true),
		types.NewSignatureType(nil, nil, nil, types.NewTuple(param(in)), types.NewTuple(param(str), param(errT)), false),
		types.NewSlice(errT),
		types.NewMap(str, types.NewSlice(in)),
		types.NewMap(types.Universe.Lookup("any").Type(), in),
		types.NewMap(types.Typ[types.Float64], types.Typ[types.Bool]),
		types.NewMap(types.NewArray(in, 2), str),
		types.Typ[types.Uintptr],
	}
}

// declared builds the types tests declare, once: the struct types of
// the pool and the stubs of the interfaces R and E assert values to, the
// interfaces more coupled goals depend on first (see byGoalsAsking).
func (c *Cluster) declared() []*types.Named {
	if !c.declaredBuilt {
		c.declaredBuilt = true
		c.Declared = declaredTypes(c.reflection().tags)
		c.Declared = append(c.Declared, stubTypes(c.Declared[0].Obj().Pkg(), c.byGoalsAsking(c.reflection().asserted), c.Caller.Types)...)
	}
	return c.Declared
}

// isOtherShape reports whether t is one of the types of group 5 of the
// pool (otherShapes).
func (c *Cluster) isOtherShape(t types.Type) bool {
	return slices.ContainsFunc(c.shapes, func(s types.Type) bool { return types.Identical(s, t) })
}

// poolable reports whether a value of t can be built for the pool: t can
// be named in the test, and a producer other than nil builds it within
// the depth bound, one level below a call's argument.
func (c *Cluster) poolable(t types.Type) bool {
	if !nameable(t, c.Caller.Types) {
		return false
	}
	for _, op := range c.PoolOps(t) {
		h := 0
		for i, in := range op.Inputs() {
			if op.Variadic && i == len(op.Inputs())-1 || op.Kind == OpComposite {
				continue
			}
			h = max(h, c.Height(in)+1)
		}
		if h <= c.MaxDepth-2 {
			return true
		}
	}
	return false
}

// PoolOps are the ops that build a value of pool type t: its producers
// other than nil, and for a pointer the decode target &v.
func (c *Cluster) PoolOps(t types.Type) []*Op {
	var out []*Op
	for _, op := range c.Producers(t) {
		if op.Kind != OpNil {
			out = append(out, op)
		}
	}
	if p, ok := t.(*types.Pointer); ok && targetable(p.Elem()) {
		if op := c.Target(p.Elem()); op != nil {
			out = append(out, op)
		}
	}
	return out
}

// targetable reports whether a decode target of type *t is useful: t is
// a value type a decoder fills (not a pointer, interface, function or
// channel).
func targetable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Signature, *types.Chan:
		return false
	}
	return true
}

// Target returns the op that yields &v for a fresh variable v of type t;
// nil if the cluster is sealed and has none (see Seal).
func (c *Cluster) Target(t types.Type) *Op {
	if op, ok := c.targets.At(t).(*Op); ok {
		return op
	}
	op := c.register(&Op{Kind: OpTarget, Name: "&var " + typeName(t), Type: types.NewPointer(t)})
	if !c.runnable(op) {
		op = nil
	}
	c.targets.Set(t, op)
	return op
}

// Targets are the decode-target ops of the pool, in its order.
func (c *Cluster) Targets() []*Op {
	if c.poolTargets == nil {
		for _, t := range c.Pool {
			if !targetable(t) {
				continue
			}
			if op := c.Target(t); op != nil {
				c.poolTargets = append(c.poolTargets, op)
			}
		}
	}
	return c.poolTargets
}

// FuncPool lists the function types of the pool.
func (c *Cluster) FuncPool() []types.Type {
	if c.poolFuncs == nil {
		for _, t := range c.Pool {
			if Signature(t) != nil {
				c.poolFuncs = append(c.poolFuncs, t)
			}
		}
	}
	return c.poolFuncs
}

// funcOp is the function-literal op of a function type, nil if a
// literal cannot be written (or, the cluster sealed, was not built into
// the executor): the test names every parameter and result
// type of the literal, so a named func type whose signature mentions an
// unexported type (type Option func(*parser)) has none.
func (c *Cluster) funcOp(t types.Type) *Op {
	sig := Signature(t)
	if sig == nil || sig.TypeParams().Len() > 0 || sig.Recv() != nil || !nameable(sig, c.Caller.Types) {
		return nil
	}
	if op := c.register(&Op{Kind: OpFunc, Name: "func " + typeName(t), Type: t, Variants: FuncVariants(sig)}); c.runnable(op) {
		return op
	}
	return nil
}

// sentinels are the exported variables of type error of R and E (var
// ErrX = errors.New(...)), which callers compare errors with.
func (c *Cluster) sentinels() []*Op {
	var out []*Op
	for _, p := range []*types.Package{c.Caller.Types, c.Callee.Types} {
		if isInternalElsewhere(p.Path(), c.Caller.Types) {
			continue
		}
		for _, name := range p.Scope().Names() {
			v, ok := p.Scope().Lookup(name).(*types.Var)
			if ok && v.Exported() && IsError(v.Type()) {
				out = append(out, c.register(&Op{Kind: OpGlobal, Name: "var " + p.Path() + "." + name, Type: v.Type(), Var: v}))
			}
		}
	}
	return out
}
