package testcase

import (
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// reach is what a test outside R can get hold of through the exported API
// of the packages it may import (R's, E's and those the cluster scans):
// the types of the values it can write or be handed, including types it
// cannot name, such as an unexported type that an exported function
// returns. It tells which of R's functions and methods such a test can
// call at all: only those belong in the cluster's Skipped list.
type reach struct {
	from *types.Package
	// got holds the types of the values a test can get: results of the
	// exported functions, methods and function values it can call,
	// exported variables, constants and fields, and the zero values of
	// exported types, with their elements (through pointers, slices,
	// arrays, maps and channels). A generic type is held by its origin
	// too.
	got typeutil.Map
}

// newReach walks the exported API of the packages the cluster scans.
func newReach(c *Cluster) *reach {
	r := &reach{from: c.Caller.Types}
	for _, p := range c.scan {
		if isInternalElsewhere(p.Path(), r.from) {
			continue
		}
		scope := p.Scope()
		for _, name := range scope.Names() {
			switch obj := scope.Lookup(name).(type) {
			case *types.Func:
				if obj.Exported() {
					r.results(obj.Type().(*types.Signature))
				}
			case *types.Var, *types.Const, *types.TypeName:
				if obj.Exported() {
					r.add(obj.Type())
				}
			}
		}
	}
	return r
}

// add records that a test can get values of type t, and what it gets
// from them: their elements, exported fields, and the results of their
// exported methods.
func (r *reach) add(t types.Type) {
	if t == nil || r.got.At(t) != nil {
		return
	}
	r.got.Set(t, true)
	switch u := t.(type) {
	case *types.Alias:
		r.add(types.Unalias(u))
	case *types.Pointer:
		r.add(u.Elem())
	case *types.Slice:
		r.add(u.Elem())
	case *types.Array:
		r.add(u.Elem())
	case *types.Chan:
		r.add(u.Elem())
	case *types.Map:
		r.add(u.Key())
		r.add(u.Elem())
	case *types.Signature:
		r.results(u)
	case *types.Struct:
		r.fields(u)
	case *types.Interface:
		r.methods(types.NewMethodSet(u))
	case *types.Named:
		if u.Origin() != u {
			r.got.Set(u.Origin(), true)
		}
		switch under := u.Underlying().(type) {
		case *types.Struct:
			r.fields(under)
		case *types.Interface:
			r.methods(types.NewMethodSet(u))
			return
		}
		r.methods(types.NewMethodSet(types.NewPointer(u)))
	}
}

// fields adds the types of a struct's exported fields.
func (r *reach) fields(st *types.Struct) {
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Exported() {
			r.add(f.Type())
		}
	}
}

// methods adds the results of the exported methods of a method set.
func (r *reach) methods(ms *types.MethodSet) {
	for i := 0; i < ms.Len(); i++ {
		if fn, ok := ms.At(i).Obj().(*types.Func); ok && fn.Exported() {
			r.results(fn.Type().(*types.Signature))
		}
	}
}

// results adds the result types of a signature.
func (r *reach) results(sig *types.Signature) {
	for i := 0; i < sig.Results().Len(); i++ {
		r.add(sig.Results().At(i).Type())
	}
}

// canCall reports whether a test outside R can call fn: it can get a
// receiver (a value of an exported type, or one the API hands out) and
// pass every parameter but a variadic one, which can stay empty.
func (r *reach) canCall(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil && !r.canGetReceiver(recv.Type()) && !r.canGetPromoter(fn) {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			continue
		}
		if !r.canPass(sig.Params().At(i).Type()) {
			return false
		}
	}
	return true
}

// canGetPromoter reports whether a test can get a value of an exported
// type of fn's package that fn, a method, is promoted to.
func (r *reach) canGetPromoter(fn *types.Func) bool {
	if fn.Pkg() != r.from {
		return false
	}
	for _, outer := range promotedInto(fn) {
		if r.canGetReceiver(outer) {
			return true
		}
	}
	return false
}

// canGetReceiver reports whether a test can get a value to call a method
// on: of an exported type it can name (a zero value at least), or of a
// type the API hands out, as a value or a pointer.
func (r *reach) canGetReceiver(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nameable(t, r.from)
	}
	if o := n.Obj(); o.Exported() && (o.Pkg() == nil || !isInternalElsewhere(o.Pkg().Path(), r.from)) {
		return true
	}
	return r.got.At(n.Origin()) != nil || r.got.At(types.NewPointer(n.Origin())) != nil
}

// canPass reports whether a test can pass a value of type t: one it can
// write or get, an untyped constant of a basic type, or nil. A type
// parameter is the caller's choice.
func (r *reach) canPass(t types.Type) bool {
	if nameable(t, r.from) || r.got.At(t) != nil {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() != types.Invalid
	}
	return false
}
