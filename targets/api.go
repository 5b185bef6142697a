package targets

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/cling-go/cling/ccfg"
)

// Func is an externally callable function of R with a body: what a test
// calls directly.
type Func struct {
	Fn   *ccfg.Function
	Decl *ast.FuncDecl
	// Results are the function's result types.
	Results []types.Type
}

// Class is how the results of a type are partitioned for output
// coverage.
type Class uint8

// The classes, each with its partitions (Partitions).
const (
	// NoClass: the type has no partitions (structs, arrays, type
	// parameters).
	NoClass Class = iota
	// BoolClass: true, false.
	BoolClass
	// SignedClass: integers and floats, < 0, 0, > 0.
	SignedClass
	// UnsignedClass: 0, > 0.
	UnsignedClass
	// LenClass: strings, slices and maps, empty or not.
	LenClass
	// NilClass: pointers, interfaces, functions and channels, nil or not.
	NilClass
	// ErrorClass: errors, nil or not.
	ErrorClass
)

var partitions = [...][]string{
	NoClass:       nil,
	BoolClass:     {"true", "false"},
	SignedClass:   {"<0", "0", ">0"},
	UnsignedClass: {"0", ">0"},
	LenClass:      {"empty", "non-empty"},
	NilClass:      {"nil", "non-nil"},
	ErrorClass:    {"nil", "non-nil"},
}

// Partitions names the partitions of a class, in order.
func (c Class) Partitions() []string { return partitions[c] }

// ClassOf returns the class of a result type.
func ClassOf(t types.Type) Class {
	if _, isParam := t.(*types.TypeParam); isParam {
		return NoClass
	}
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return ErrorClass
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		info := u.Info()
		switch {
		case info&types.IsBoolean != 0:
			return BoolClass
		case info&types.IsUnsigned != 0:
			return UnsignedClass
		case info&(types.IsInteger|types.IsFloat) != 0:
			return SignedClass
		case info&types.IsString != 0:
			return LenClass
		case u.Kind() == types.UnsafePointer:
			return NilClass
		}
	case *types.Slice, *types.Map:
		return LenClass
	case *types.Pointer, *types.Interface, *types.Signature, *types.Chan:
		return NilClass
	}
	return NoClass
}

// Output is one partition of one result of a function of Funcs: a goal
// of output coverage.
type Output struct {
	// Func indexes Funcs; Result is the result's position.
	Func, Result int
	Class        Class
	// Part indexes Class.Partitions().
	Part int
	// Slot numbers the (function, result) pairs that have partitions, for
	// the probes.
	Slot int
}

// OutputName describes an output: "F <0", or "F result 2 nil" for a
// function with several results.
func (t *Targets) OutputName(o Output) string {
	f := t.Funcs[o.Func]
	name := f.Fn.Name
	if len(f.Results) > 1 {
		name += fmt.Sprintf(" result %d", o.Result+1)
	}
	return name + " " + o.Class.Partitions()[o.Part]
}

// api lists R's externally callable functions with a body and the
// partitions of their results.
func (t *Targets) api() ([]Func, []Output) {
	var funcs []Func
	var outs []Output
	slot := 0
	for _, fn := range t.A.Caller.External {
		decl, ok := fn.SSA.Syntax().(*ast.FuncDecl)
		if !ok || decl.Body == nil {
			continue
		}
		f := Func{Fn: fn, Decl: decl}
		if obj, ok := fn.Pkg.Info.Defs[decl.Name].(*types.Func); ok {
			res := obj.Type().(*types.Signature).Results()
			for k := 0; k < res.Len(); k++ {
				f.Results = append(f.Results, res.At(k).Type())
			}
		}
		for k, rt := range f.Results {
			c := ClassOf(rt)
			if c == NoClass {
				continue
			}
			for p := range c.Partitions() {
				outs = append(outs, Output{Func: len(funcs), Result: k, Class: c, Part: p, Slot: slot})
			}
			slot++
		}
		funcs = append(funcs, f)
	}
	return funcs, outs
}
