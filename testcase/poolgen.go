package testcase

import (
	"go/types"
)

// opHeight is how deep the inputs of op go: what building op's value at
// a depth adds to it (composites, collections and variadic arguments can
// be left empty).
func (g *Generator) opHeight(op *Op) int {
	h := 0
	for i, p := range op.Inputs() {
		if op.Kind == OpComposite || op.Kind == OpSlice || op.Kind == OpMap || op.Kind == OpChan || (op.Variadic && i == len(op.Inputs())-1) {
			continue
		}
		h = max(h, g.C.Height(p)+1)
	}
	return h
}

// poolTypes are the types of the pool a value can be built of at depth.
func (g *Generator) poolTypes(depth int) *typeChoice {
	if ch, ok := g.poolAt[depth]; ok {
		return ch
	}
	var out []types.Type
	for _, t := range g.C.Pool {
		for _, op := range g.C.PoolOps(t) {
			if g.opHeight(op) <= g.C.MaxDepth-depth {
				out = append(out, t)
				break
			}
		}
	}
	if g.poolAt == nil {
		g.poolAt = map[int]*typeChoice{}
	}
	ch := g.newChoice(out)
	g.poolAt[depth] = ch
	return ch
}

// typeChoice is a list of types to draw from (drawType), with what a
// draw reads of it worked out once: the draws come for every value of an
// empty interface a test gets, and comparing types is dear.
type typeChoice struct {
	all []types.Type
	// shapes are the types of all that are of the other kinds and
	// shapes (Cluster.isOtherShape), rest the others.
	shapes, rest []types.Type
	// preferred holds, per ask of the preference prefer, the types of
	// all that the ask names, worked out on the ask's first draw (asked).
	prefer    *Preference
	preferred [][]types.Type
	asked     []bool
}

// newChoice prepares the draws from ts.
func (g *Generator) newChoice(ts []types.Type) *typeChoice {
	ch := &typeChoice{all: ts}
	for _, t := range ts {
		if g.C.isOtherShape(t) {
			ch.shapes = append(ch.shapes, t)
		} else {
			ch.rest = append(ch.rest, t)
		}
	}
	return ch
}

// preferredBy returns the types of the choice that ask number k of
// preference p names.
func (ch *typeChoice) preferredBy(p *Preference, k int) []types.Type {
	if ch.prefer != p {
		ch.prefer, ch.preferred, ch.asked = p, make([][]types.Type, len(p.Asks)), make([]bool, len(p.Asks))
	}
	if !ch.asked[k] {
		ch.asked[k] = true
		for _, t := range ch.all {
			if p.Asks[k].Matches(t) {
				ch.preferred[k] = append(ch.preferred[k], t)
			}
		}
	}
	return ch.preferred[k]
}

// drawType draws one of the choice's types: with probability PreferPool,
// one that an ask of the search's preference (drawn at random) names, if
// any does; otherwise one of the other kinds and shapes with probability
// ShapeShare, one of the rest else, uniformly among them.
func (g *Generator) drawType(ch *typeChoice) types.Type {
	if len(ch.all) == 0 {
		return nil
	}
	if g.Prefer != nil && len(g.Prefer.Asks) > 0 && g.Rnd.Float64() < g.Cfg.PreferPool {
		preferred := ch.preferredBy(g.Prefer, g.Rnd.Intn(len(g.Prefer.Asks)))
		if len(preferred) > 0 {
			return preferred[g.Rnd.Intn(len(preferred))]
		}
	}
	if len(ch.shapes) > 0 && len(ch.rest) > 0 {
		if g.Rnd.Float64() < g.Cfg.ShapeShare {
			return ch.shapes[g.Rnd.Intn(len(ch.shapes))]
		}
		return ch.rest[g.Rnd.Intn(len(ch.rest))]
	}
	return ch.all[g.Rnd.Intn(len(ch.all))]
}

// poolProducer chooses the producer of a value of an empty interface at
// depth: a type of the pool (see drawType), then a producer of it; a
// pointer is a decode target half of the time.
func (g *Generator) poolProducer(depth int) *Op {
	t := g.drawType(g.poolTypes(depth))
	if t == nil {
		return nil
	}
	if p, ok := t.(*types.Pointer); ok && targetable(p.Elem()) && g.Rnd.Intn(2) == 0 {
		return g.C.Target(p.Elem())
	}
	if op := g.producer(t, depth); op != nil {
		return op
	}
	return g.shallowest(t)
}

// hinted chooses, with probability UseHint, the producer the use of an
// empty-interface argument calls for: a decode target of a pool type, or
// a function literal of a function type of the pool. It returns nil
// otherwise.
func (g *Generator) hinted(use ParamUse, depth int) *Op {
	if use&UseTarget != 0 && g.Rnd.Float64() < g.Cfg.UseHint {
		targets := g.C.Targets()
		if g.targets == nil || len(g.targets.all) != len(targets) {
			var elems []types.Type
			for _, op := range targets {
				elems = append(elems, op.Type.(*types.Pointer).Elem())
			}
			g.targets = g.newChoice(elems)
		}
		if t := g.drawType(g.targets); t != nil {
			return g.C.Target(t)
		}
	}
	if use&UseFunc != 0 && g.Rnd.Float64() < g.Cfg.UseHint {
		if funcs := g.C.FuncPool(); g.funcs == nil || len(g.funcs.all) != len(funcs) {
			g.funcs = g.newChoice(funcs)
		}
		if t := g.drawType(g.funcs); t != nil {
			return g.C.funcOp(t)
		}
	}
	return nil
}

// funcLit draws a variant of a function literal and its constant.
func (g *Generator) funcLit(op *Op) FuncLit {
	v := g.Rnd.Intn(len(op.Variants))
	lit := FuncLit{Variant: v}
	if ct := op.ConstType(v); ct != nil {
		lit.Const = g.literal(ct)
	}
	return lit
}

// mutateFunc changes a function literal: half of the time its body (a
// new variant, keeping the constant when its type stays), otherwise its
// constant (a new body when it has none).
func (g *Generator) mutateFunc(op *Op, lit FuncLit) FuncLit {
	if ct := op.ConstType(lit.Variant); ct != nil && lit.Const != nil && g.Rnd.Intn(2) == 0 {
		lit.Const = g.mutateLiteral(ct, lit.Const)
		return lit
	}
	if len(op.Variants) < 2 {
		return lit
	}
	v := g.Rnd.Intn(len(op.Variants) - 1)
	if v >= lit.Variant {
		v++
	}
	old := op.ConstType(lit.Variant)
	ct := op.ConstType(v)
	switch {
	case ct == nil:
		lit.Const = nil
	case old == nil || !types.Identical(old, ct) || lit.Const == nil:
		lit.Const = g.literal(ct)
	}
	lit.Variant = v
	return lit
}

// feedsInterface reports whether the value of statement i, a pure
// statement, is used and only as arguments of empty-interface type; it
// returns that type.
func feedsInterface(t *Test, i int) (types.Type, bool) {
	s := t.Stmts[i]
	if !s.Op.Pure() || len(s.Op.Outputs()) != 1 {
		return nil, false
	}
	var want types.Type
	for j := i + 1; j < t.Len(); j++ {
		u := t.Stmts[j]
		for k, a := range u.Args {
			if a.IsOmitted() || a.Stmt != i {
				continue
			}
			at := u.Op.ArgType(k)
			if !isEmptyInterface(at) {
				return nil, false
			}
			if want == nil {
				want = at
			}
		}
	}
	return want, want != nil
}

// retype replaces the value of statement i, passed only as an empty
// interface, by a value of another type of the pool built in its place,
// and drops what built the old value. It reports whether it did.
func (g *Generator) retype(t *Test, i int) bool {
	want, ok := feedsInterface(t, i)
	if !ok || len(g.C.Pool) == 0 {
		return false
	}
	ref, moved := g.BuildValue(t, i, want)
	old := i + moved
	for j := old + 1; j < t.Len(); j++ {
		for k, a := range t.Stmts[j].Args {
			if !a.IsOmitted() && a.Stmt == old {
				t.Stmts[j].Args[k] = ref
			}
		}
	}
	t.Remove(old)
	t.Prune()
	return true
}
