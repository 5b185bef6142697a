package ccfg

import (
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// Resolver resolves the possible targets of call instructions.
//
// Static calls resolve to their callee. Interface invokes are resolved by
// class hierarchy analysis (CHA) over the concrete types declared in the
// packages loaded from source, including instantiations of generic types
// that those packages use: a method is a target when its receiver type
// implements the invoked interface. CHA, rather than VTA, because cling
// analyses libraries: an exported function of the caller may receive any
// implementation from its clients (and from cling's own generated tests),
// so only a class-hierarchy view is sound for what a test can drive.
// VTA would need the whole program's value flow, which a library does not
// have.
//
// Calls through plain function values (not closures created and called in
// place) are not resolved: their targets are not bounded statically.
//
// Targets are canonical source functions: wrappers, thunks and bound
// methods (promoted methods of embedded types among them) are looked
// through to the declared method, and generic instances map to their
// generic origin.
type Resolver struct {
	prog  *Program
	types []types.Type             // candidate concrete types for invokes, deterministic order
	cache map[string]*typeutil.Map // method name -> interface type -> []*ssa.Function
}

// NewResolver prepares invoke resolution over the concrete types declared
// (or instantiated) in the program's source packages.
func NewResolver(prog *Program) *Resolver {
	r := &Resolver{prog: prog, cache: map[string]*typeutil.Map{}}
	seen := map[types.Type]bool{}
	add := func(t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		r.types = append(r.types, t)
	}
	for _, pkg := range prog.Packages {
		scope := pkg.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			if types.IsInterface(named) {
				continue
			}
			add(named)
		}
		// Instantiated generic types used by the package.
		var insts []*types.Named
		for _, inst := range pkg.Info.Instances {
			if n, ok := inst.Type.(*types.Named); ok && !types.IsInterface(n) && !hasTypeParams(n) {
				insts = append(insts, n)
			}
		}
		sort.Slice(insts, func(i, j int) bool { return insts[i].String() < insts[j].String() })
		for _, n := range insts {
			dup := false
			for _, t := range r.types {
				if types.Identical(t, n) {
					dup = true
					break
				}
			}
			if !dup {
				add(n)
			}
		}
	}
	return r
}

func hasTypeParams(n *types.Named) bool {
	for i := 0; i < n.TypeArgs().Len(); i++ {
		if _, ok := n.TypeArgs().At(i).(*types.TypeParam); ok {
			return true
		}
	}
	return false
}

// Callees returns the canonical source functions a call may invoke.
func (r *Resolver) Callees(c *ssa.CallCommon) []*ssa.Function {
	if c.IsInvoke() {
		return r.invoke(c.Value.Type(), c.Method)
	}
	if fn := c.StaticCallee(); fn != nil {
		if can := r.Canonical(fn); can != nil {
			return []*ssa.Function{can}
		}
	}
	return nil
}

func (r *Resolver) invoke(t types.Type, m *types.Func) []*ssa.Function {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	byIface := r.cache[m.Id()]
	if byIface == nil {
		byIface = &typeutil.Map{}
		r.cache[m.Id()] = byIface
	}
	if v := byIface.At(t); v != nil {
		return v.([]*ssa.Function)
	}
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{}
	for _, ct := range r.types {
		for _, recv := range []types.Type{ct, types.NewPointer(ct)} {
			if !types.Implements(recv, iface) {
				continue
			}
			sel := r.prog.SSA.MethodSets.MethodSet(recv).Lookup(m.Pkg(), m.Name())
			if sel == nil {
				continue
			}
			fn := r.Canonical(r.prog.SSA.MethodValue(sel))
			if fn != nil && !seen[fn] {
				seen[fn] = true
				out = append(out, fn)
			}
			break // T's methods are also *T's; one receiver per type
		}
	}
	byIface.Set(t, out)
	return out
}

// Canonical maps fn to the source function it stands for: a generic
// instance to its origin, a wrapper, thunk or bound method to the declared
// method it calls. It returns nil for functions with no source (package
// initializers, functions known only from export data).
func (r *Resolver) Canonical(fn *ssa.Function) *ssa.Function {
	for i := 0; fn != nil && i < 8; i++ {
		if o := fn.Origin(); o != nil && o != fn {
			fn = o
			continue
		}
		if fn.Synthetic == "" || fn.Synthetic == "range-over-func yield" {
			return fn
		}
		obj, ok := fn.Object().(*types.Func)
		if !ok {
			return nil
		}
		next := r.prog.SSA.FuncValue(obj.Origin())
		if next == nil || next == fn {
			return nil
		}
		fn = next
	}
	return fn
}
