package testcase

import (
	"go/types"
	"slices"
)

// Calls of function values. A package often hands out its behaviour as a
// function: a middleware constructor returns func(http.Handler)
// http.Handler, a router returns a HandlerFunc, a builder returns a
// closure to run later. The body of such a function is R's code, and
// until the test calls the value, none of it runs. The cluster therefore
// offers, for every function type whose values come from R, a call of the
// value: an OpCall whose first input is the function (Invoke).

// invokeOp returns the op that calls a value of function type t, or nil
// when t is not a function type whose values run R's code (see
// invocable).
func (c *Cluster) invokeOp(t types.Type) *Op {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || !c.invocable(t) || sig.Results().Len() == 0 && c.takenByR(t) {
		// A function of no results that R's API takes back is an
		// option (expr.Option, a func(*conf.Config)): R applies it to
		// its own configuration, and a test that called it would only
		// fill one of its own.
		return nil
	}
	op := &Op{Kind: OpCall, Name: "func value " + typeString(t), Method: true, Invoke: true, Served: true, Variadic: sig.Variadic()}
	op.Params = append(op.Params, t)
	for i := 0; i < sig.Params().Len(); i++ {
		p := sig.Params().At(i).Type()
		if !nameable(WrittenType(p), c.Caller.Types) {
			return nil
		}
		op.Params = append(op.Params, p)
	}
	for i := 0; i < sig.Results().Len(); i++ {
		op.Results = append(op.Results, sig.Results().At(i).Type())
	}
	op.Releases = releases(op.Results)
	return c.register(op)
}

// invocable reports whether values of function type t run R's code when
// called: an exported function or method of R returns t, or a call of
// such a value does (the handler that a middleware, itself returned by
// R, wraps around the next one), transitively.
func (c *Cluster) invocable(t types.Type) bool {
	c.findHandedOut()
	return slices.ContainsFunc(c.rFuncs, func(f types.Type) bool { return types.Identical(f, t) })
}

// handedOutByR reports whether R hands out values of type t: an exported
// function or method of R returns t, or a call of a function value R
// hands out does (the http.Handler that the middleware hlog.NewHandler(l)
// returns makes of the next one).
func (c *Cluster) handedOutByR(t types.Type) bool {
	c.findHandedOut()
	return slices.ContainsFunc(c.rHanded, func(h types.Type) bool { return types.Identical(h, t) })
}

// findHandedOut finds, once, the types of the values R hands out
// (rHanded) and the function types among them (rFuncs): the results of
// R's exported functions and methods, and of the calls of the function
// values among them, transitively.
func (c *Cluster) findHandedOut() {
	if c.rHanded != nil {
		return
	}
	c.rHanded, c.rFuncs = []types.Type{}, []types.Type{}
	queue := slices.Clone(c.resultsOfR())
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		if slices.ContainsFunc(c.rHanded, func(h types.Type) bool { return types.Identical(h, r) }) {
			continue
		}
		c.rHanded = append(c.rHanded, r)
		sig, ok := r.Underlying().(*types.Signature)
		if !ok {
			continue
		}
		c.rFuncs = append(c.rFuncs, r)
		for i := 0; i < sig.Results().Len(); i++ {
			queue = append(queue, types.Unalias(sig.Results().At(i).Type()))
		}
	}
}

// callsHandedOut reports whether o calls a value that R hands out: a
// function value (Invoke), or a method of a standard-library interface R
// hands out (Served, such as ServeHTTP on the handler a middleware
// returns). R's code runs only on a value a call returned; on a literal,
// stub or nil of the test's own it would not.
func (o *Op) callsHandedOut() bool { return o.Served && o.Method }

// Signature is the signature an OpCall calls: its function's, or for a
// call of a function value (Invoke), the value's type's.
func (o *Op) Signature() *types.Signature {
	if o.Invoke {
		return Signature(o.Params[0])
	}
	return o.Func.Type().(*types.Signature)
}

// takenByR reports whether an exported function or method of R takes a
// value of type t, alone or as the elements of its variadic parameter.
func (c *Cluster) takenByR(t types.Type) bool {
	for _, sig := range exportedSignatures(c.Caller.Types) {
		for i := 0; i < sig.Params().Len(); i++ {
			p := types.Unalias(sig.Params().At(i).Type())
			if s, ok := p.(*types.Slice); ok && sig.Variadic() && i == sig.Params().Len()-1 {
				p = types.Unalias(s.Elem())
			}
			if types.Identical(p, t) {
				return true
			}
		}
	}
	return false
}
