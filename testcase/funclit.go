package testcase

import (
	"fmt"
	"go/types"
	"strings"
)

// FuncBody is the shape of the body of a function literal a test
// builds.
type FuncBody uint8

const (
	// BodyZero does nothing (no results) or returns the zero values.
	BodyZero FuncBody = iota
	// BodyConst returns a constant of the first result's basic type, or
	// errors.New of a constant for an error result.
	BodyConst
	// BodyParam returns parameter X (of the first result's type).
	BodyParam
	// BodyEqual returns X == Y; BodyLess X < Y.
	BodyEqual
	BodyLess
	// BodyLen returns len(X).
	BodyLen
	// BodyInc returns X + 1.
	BodyInc
	// BodyNot returns !X.
	BodyNot
	// BodyConcat returns X + the constant (strings).
	BodyConcat
)

// FuncVariant is one way to write a function literal of a signature: a
// body shape and the parameters it uses. The other results (after the
// first) are zero values.
type FuncVariant struct {
	Body FuncBody
	X, Y int
}

// FuncLit is the value of an OpFunc statement: which variant of the op's
// literal, and its constant (nil for variants without one).
type FuncLit struct {
	Variant int
	Const   any
}

// Signature is the signature of a function type (named or not).
func Signature(t types.Type) *types.Signature {
	sig, _ := t.Underlying().(*types.Signature)
	return sig
}

// FuncVariants lists the literal bodies a signature admits, in a fixed
// order: first the zero body, then a constant, then what the parameters
// allow.
func FuncVariants(sig *types.Signature) []FuncVariant {
	out := []FuncVariant{{Body: BodyZero}}
	res := sig.Results()
	if res.Len() == 0 {
		return out
	}
	r0 := res.At(0).Type()
	if constType(r0) != nil {
		out = append(out, FuncVariant{Body: BodyConst})
	}
	ps := sig.Params()
	for i := 0; i < ps.Len(); i++ {
		pi := paramType(sig, i)
		if types.Identical(pi, r0) {
			out = append(out, FuncVariant{Body: BodyParam, X: i})
		}
		b, basic := pi.Underlying().(*types.Basic)
		switch {
		case isBool(r0) && types.Identical(pi, r0):
			out = append(out, FuncVariant{Body: BodyNot, X: i})
		case isInt(r0) && HasLen(pi):
			out = append(out, FuncVariant{Body: BodyLen, X: i})
		}
		if basic && types.Identical(pi, r0) {
			switch {
			case b.Info()&types.IsString != 0:
				out = append(out, FuncVariant{Body: BodyConcat, X: i})
			case b.Info()&types.IsNumeric != 0 && b.Info()&types.IsComplex == 0:
				out = append(out, FuncVariant{Body: BodyInc, X: i})
			}
		}
		if !isBool(r0) {
			continue
		}
		for j := i + 1; j < ps.Len(); j++ {
			pj := paramType(sig, j)
			if !types.Identical(pi, pj) {
				continue
			}
			if types.Comparable(pi) {
				out = append(out, FuncVariant{Body: BodyEqual, X: i, Y: j})
			}
			if basic && b.Info()&types.IsOrdered != 0 {
				out = append(out, FuncVariant{Body: BodyLess, X: i, Y: j})
			}
		}
	}
	return out
}

// paramType is the type of parameter i as the body sees it: a slice for
// a variadic parameter.
func paramType(sig *types.Signature, i int) types.Type {
	return sig.Params().At(i).Type()
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

func isInt(t types.Type) bool { return types.Identical(t, types.Typ[types.Int]) }

// HasLen reports whether values of type t have a length: slices, maps,
// arrays, channels and strings.
func HasLen(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Array, *types.Chan:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

// constType is the type of a constant a body returns for a result of
// type t: t itself for basic types, string for an error (the message of
// errors.New); nil if t takes no constant.
func constType(t types.Type) types.Type {
	if IsError(t) {
		return types.Typ[types.String]
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&(types.IsBoolean|types.IsString|types.IsInteger|types.IsFloat) != 0 && b.Kind() != types.UnsafePointer {
		return t
	}
	return nil
}

// ConstType is the type of the constant of variant v of the op's
// literal, nil if the variant takes none.
func (o *Op) ConstType(v int) types.Type {
	if o.Kind != OpFunc || v < 0 || v >= len(o.Variants) {
		return nil
	}
	sig := Signature(o.Type)
	switch o.Variants[v].Body {
	case BodyConst:
		return constType(sig.Results().At(0).Type())
	case BodyConcat:
		return sig.Results().At(0).Type()
	}
	return nil
}

// FuncWriter renders a function literal as Go source. The executor and
// the emitted test both use it, with their own way of writing types,
// constants and packages, so that the literal a test was searched with
// is the literal it is written with.
type FuncWriter struct {
	// Type writes a type.
	Type func(types.Type) string
	// Const writes the constant as an expression of type t.
	Const func(t types.Type, v any) string
	// Errors is the name under which package errors is imported, asked
	// for only when a body needs it.
	Errors func() string
}

// paramNames are the names of a literal's parameters.
var paramNames = []string{"x", "y", "z", "w"}

func paramName(i int) string {
	if i < len(paramNames) {
		return paramNames[i]
	}
	return fmt.Sprintf("x%d", i)
}

// Literal renders variant lit of a function literal of the op's type
// (sig): func(x int, y int) bool { return x == y }. Parameters the body
// does not use are written _, all of them unnamed when none is used.
func (w FuncWriter) Literal(o *Op, lit FuncLit) string {
	sig := Signature(o.Type)
	v := FuncVariant{Body: BodyZero}
	if lit.Variant >= 0 && lit.Variant < len(o.Variants) {
		v = o.Variants[lit.Variant]
	}
	used := map[int]bool{}
	switch v.Body {
	case BodyParam, BodyLen, BodyInc, BodyNot, BodyConcat:
		used[v.X] = true
	case BodyEqual, BodyLess:
		used[v.X], used[v.Y] = true, true
	}
	var params []string
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		ts := w.Type(t)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			ts = "..." + w.Type(t.(*types.Slice).Elem())
		}
		switch {
		case len(used) == 0:
			params = append(params, ts)
		case used[i]:
			params = append(params, paramName(i)+" "+ts)
		default:
			params = append(params, "_ "+ts)
		}
	}
	var results []string
	for i := 0; i < sig.Results().Len(); i++ {
		results = append(results, w.Type(sig.Results().At(i).Type()))
	}
	head := "func(" + strings.Join(params, ", ") + ")"
	switch len(results) {
	case 0:
	case 1:
		head += " " + results[0]
	default:
		head += " (" + strings.Join(results, ", ") + ")"
	}
	if len(results) == 0 {
		return head + " {}"
	}
	var rets []string
	for i := 0; i < sig.Results().Len(); i++ {
		rt := sig.Results().At(i).Type()
		if i > 0 {
			rets = append(rets, w.zero(rt))
			continue
		}
		rets = append(rets, w.first(v, rt, lit.Const))
	}
	return head + " { return " + strings.Join(rets, ", ") + " }"
}

// first renders the first result of a body.
func (w FuncWriter) first(v FuncVariant, rt types.Type, c any) string {
	x, y := paramName(v.X), paramName(v.Y)
	switch v.Body {
	case BodyConst:
		if IsError(rt) {
			return w.Errors() + ".New(" + w.Const(types.Typ[types.String], c) + ")"
		}
		return w.Const(rt, c)
	case BodyParam:
		return x
	case BodyEqual:
		return x + " == " + y
	case BodyLess:
		return x + " < " + y
	case BodyLen:
		return "len(" + x + ")"
	case BodyInc:
		return x + " + 1"
	case BodyNot:
		return "!" + x
	case BodyConcat:
		return x + " + " + w.Const(rt, c)
	}
	return w.zero(rt)
}

// zero renders the zero value of t.
func (w FuncWriter) zero(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Kind() == types.UnsafePointer:
			return "nil"
		}
		return "0"
	case *types.Struct, *types.Array:
		return w.Type(t) + "{}"
	}
	return "nil"
}
