// Package pkgstate finds the functions that change package-level state:
// those that store into a package-level variable, into what one points
// to, or into a map one holds, outside package initialisation, directly
// or through the functions they call statically.
//
// cling's executor runs many tests in one process. A test that calls such
// a function (a registry's Register, a global option's setter) leaves
// state that changes what later tests in the process do, so the coverage
// the search credits to a later test would not be the coverage that test
// has on its own. Knowing these functions lets the executor give the next
// test a fresh process.
//
// Two idioms are not counted, because they leave behaviour as it was: lazy
// initialisation (a function that compares the variable it stores to,
// typically with nil) and memoisation (a function that looks up the map it
// stores into). Only functions with bodies in the program count: the
// packages loaded from source.
package pkgstate

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Writers returns the functions and methods, as their generic origins,
// that change package-level state, among the functions of pkgs and the
// functions they call.
func Writers(pkgs []*ssa.Package) map[*types.Func]bool {
	var fns []*ssa.Function
	seen := map[*ssa.Function]bool{}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		if fn == nil || seen[fn] {
			return
		}
		seen[fn] = true
		fns = append(fns, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, p := range pkgs {
		if p == nil {
			continue
		}
		for _, m := range p.Members {
			switch m := m.(type) {
			case *ssa.Function:
				add(m)
			case *ssa.Type:
				for _, t := range []types.Type{m.Type(), types.NewPointer(m.Type())} {
					ms := p.Prog.MethodSets.MethodSet(t)
					for i := 0; i < ms.Len(); i++ {
						if fn, ok := ms.At(i).Obj().(*types.Func); ok && fn.Pkg() == p.Pkg {
							add(p.Prog.FuncValue(fn))
						}
					}
				}
			}
		}
	}
	// Direct writers, and who calls whom.
	writes := map[*ssa.Function]bool{}
	callers := map[*ssa.Function][]*ssa.Function{}
	var work []*ssa.Function
	for _, fn := range fns {
		if inInit(fn) {
			continue
		}
		if writesDirectly(fn) {
			writes[fn] = true
			work = append(work, fn)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(ssa.CallInstruction); ok {
					if callee := origin(c.Common().StaticCallee()); callee != nil {
						callers[callee] = append(callers[callee], fn)
					}
				}
			}
		}
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range callers[fn] {
			if !writes[c] && !inInit(c) {
				writes[c] = true
				work = append(work, c)
			}
		}
	}
	out := map[*types.Func]bool{}
	for fn := range writes {
		if obj, ok := fn.Object().(*types.Func); ok {
			out[obj.Origin()] = true
		}
	}
	return out
}

// origin returns the generic function an instantiation comes from, or fn.
func origin(fn *ssa.Function) *ssa.Function {
	if fn != nil && fn.Origin() != nil {
		return fn.Origin()
	}
	return fn
}

// inInit reports whether fn is package initialisation: an init function,
// the initialiser of package-level variables, or a closure in one.
func inInit(fn *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		if fn.Synthetic == "package initializer" || (fn.Signature.Recv() == nil && isInitName(fn.Name())) {
			return true
		}
	}
	return false
}

// isInitName reports whether name is that of an init function: init, or
// init#N as SSA numbers them.
func isInitName(name string) bool {
	return name == "init" || len(name) > 5 && name[:5] == "init#"
}

// writesDirectly reports whether fn's own instructions store into
// package-level state, apart from lazy initialisation and memoisation.
func writesDirectly(fn *ssa.Function) bool {
	// The variables fn compares or looks up: lazy initialisation and
	// memoisation.
	consulted := map[*ssa.Global]bool{}
	var stored []*ssa.Global
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				if g := globalOf(in.Addr); g != nil {
					stored = append(stored, g)
				}
			case *ssa.MapUpdate:
				if g := globalOf(in.Map); g != nil {
					stored = append(stored, g)
				}
			case *ssa.Call:
				if bi, ok := in.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "delete" || bi.Name() == "clear") && len(in.Call.Args) > 0 {
					if g := globalOf(in.Call.Args[0]); g != nil {
						stored = append(stored, g)
					}
				}
			case *ssa.BinOp:
				if in.Op == token.EQL || in.Op == token.NEQ {
					for _, v := range []ssa.Value{in.X, in.Y} {
						if g := globalOf(v); g != nil {
							consulted[g] = true
						}
					}
				}
			case *ssa.Lookup:
				if g := globalOf(in.X); g != nil {
					consulted[g] = true
				}
			}
		}
	}
	for _, g := range stored {
		if !consulted[g] {
			return true
		}
	}
	return false
}

// globalOf returns the package-level variable v is an address within, or
// a value loaded from (a map, slice or pointer it holds), or nil.
func globalOf(v ssa.Value) *ssa.Global {
	for {
		switch x := v.(type) {
		case *ssa.Global:
			return x
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		default:
			return nil
		}
	}
}
