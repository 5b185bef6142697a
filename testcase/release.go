package testcase

import "go/types"

// Values that hold resources (a pool's goroutines, a connection, a file)
// are released at the end of a test, as a Go developer's test would
// (defer p.Release()): a test that leaves a pool's workers running leaks
// goroutines, which the executor cannot tell from a fault, and state
// that outlives it. Every result of a call, and every composite literal,
// whose type has a release method is released.

// releaseMethodNames are the names of release methods, preferred in this
// order.
var releaseMethodNames = []string{"Close", "Release", "Stop", "Shutdown", "CloseContext", "ReleaseContext", "StopContext", "ShutdownContext"}

// ReleaseMethod returns the method that releases a value of type t: a
// method of t's method set named Close, Release, Stop or Shutdown, or one
// of those followed by Context, that returns nothing or only an error and
// takes nothing, else only a context.Context (Shutdown(ctx),
// ReleaseContext(ctx)). It returns nil when t has none.
func ReleaseMethod(t types.Type) *types.Func {
	ms := types.NewMethodSet(t)
	for _, withContext := range []bool{false, true} {
		for _, name := range releaseMethodNames {
			sel := ms.Lookup(nil, name)
			if sel == nil {
				continue
			}
			fn, ok := sel.Obj().(*types.Func)
			if !ok {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if sig.Variadic() || !releaseResults(sig.Results()) {
				continue
			}
			switch {
			case !withContext && sig.Params().Len() == 0:
				return fn
			case withContext && sig.Params().Len() == 1 && isContext(sig.Params().At(0).Type()):
				return fn
			}
		}
	}
	return nil
}

// releaseResults reports whether a release method's results are nothing
// or an error.
func releaseResults(r *types.Tuple) bool {
	switch r.Len() {
	case 0:
		return true
	case 1:
		return types.Identical(r.At(0).Type(), types.Universe.Lookup("error").Type())
	}
	return false
}

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// releases returns the Releases of a call with these results.
func releases(results []types.Type) []string {
	var names []string
	for i, t := range results {
		if m := ReleaseMethod(t); m != nil {
			if names == nil {
				names = make([]string, len(results))
			}
			names[i] = m.Name()
		}
	}
	return names
}
