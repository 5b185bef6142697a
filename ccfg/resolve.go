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
// Calls through function values are resolved, in the same spirit, to the
// functions of the analysed package whose address is taken there (named
// functions and methods used as values, closures that escape) and whose
// signature is identical to the called value's: a state machine that
// calls l.state(l) reaches every state function it stores.
//
// Targets are canonical source functions: wrappers, thunks and bound
// methods (promoted methods of embedded types among them) are looked
// through to the declared method, and generic instances map to their
// generic origin.
type Resolver struct {
	prog  *Program
	types []types.Type             // candidate concrete types for invokes, deterministic order
	cache map[string]*typeutil.Map // method name -> interface type -> []*ssa.Function
	// taken maps a package to the functions whose address is taken in
	// it, by signature.
	taken map[*types.Package]*typeutil.Map
}

// NewResolver prepares invoke resolution over the concrete types declared
// (or instantiated) in the program's source packages.
func NewResolver(prog *Program) *Resolver {
	r := &Resolver{prog: prog, cache: map[string]*typeutil.Map{}, taken: map[*types.Package]*typeutil.Map{}}
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

// Callees returns the canonical source functions a call may invoke. A call
// through a function value resolves to the functions whose address is taken
// in package takenIn (see Resolver).
func (r *Resolver) Callees(c *ssa.CallCommon, takenIn *Package) []*ssa.Function {
	if c.IsInvoke() {
		return r.invoke(c.Value.Type(), c.Method)
	}
	if fn := c.StaticCallee(); fn != nil {
		if can := r.Canonical(fn); can != nil {
			return []*ssa.Function{can}
		}
		return nil
	}
	if _, isBuiltin := c.Value.(*ssa.Builtin); isBuiltin || takenIn == nil {
		return nil
	}
	sig, ok := c.Value.Type().Underlying().(*types.Signature)
	if !ok {
		return nil
	}
	if v := r.addressTaken(takenIn).At(sig); v != nil {
		return v.([]*ssa.Function)
	}
	return nil
}

// addressTaken indexes, by signature, the source functions whose address
// is taken in a package: referenced as a value rather than called.
func (r *Resolver) addressTaken(pkg *Package) *typeutil.Map {
	if m := r.taken[pkg.Types]; m != nil {
		return m
	}
	m := &typeutil.Map{}
	r.taken[pkg.Types] = m
	seen := map[*ssa.Function]bool{}
	add := func(v ssa.Value, fn *ssa.Function) {
		can := r.Canonical(fn)
		if can == nil || seen[can] {
			return
		}
		sig, ok := v.Type().Underlying().(*types.Signature)
		if !ok {
			return
		}
		seen[can] = true
		prev, _ := m.At(sig).([]*ssa.Function)
		m.Set(sig, append(prev, can))
	}
	for _, fn := range SourceFunctions(r.prog, pkg) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch in := instr.(type) {
				case *ssa.DebugRef:
					continue
				case *ssa.MakeClosure:
					if !onlyCalled(in) {
						add(in, in.Fn.(*ssa.Function))
					}
					continue
				}
				var callee ssa.Value
				if call, ok := instr.(ssa.CallInstruction); ok {
					callee = call.Common().Value
				}
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == nil || *op == callee {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok {
						add(f, f)
					}
				}
			}
		}
	}
	return m
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
