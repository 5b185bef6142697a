package testcase

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/stretchr/testify/assert"
)

// whyUnnameable names the part of a type that a test outside from cannot
// write.
func TestWhyUnnameable(t *testing.T) {
	from := types.NewPackage("example.com/m/r", "r")
	other := types.NewPackage("example.com/m/e/internal/tok", "tok")
	named := func(pkg *types.Package, name string, under types.Type) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), under, nil)
	}
	hidden := named(from, "level", types.Typ[types.Int])
	internal := named(other, "Token", types.NewStruct(nil, nil))
	field := types.NewField(token.NoPos, from, "n", types.Typ[types.Int], false)
	method := types.NewFunc(token.NoPos, from, "m", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	tp := types.NewTypeParam(types.NewTypeName(token.NoPos, from, "T", nil), types.NewInterfaceType(nil, nil))
	for _, tc := range []struct {
		t    types.Type
		want string
	}{
		{hidden, "r.level is unexported"},
		{types.NewMap(types.Typ[types.String], types.NewSlice(types.NewPointer(hidden))), "r.level is unexported"},
		{internal, "tok.Token is declared in example.com/m/e/internal/tok, an internal package that example.com/m/r's tests cannot import"},
		{types.NewStruct([]*types.Var{field}, nil), "struct{n int} cannot be named outside its package (its field n is unexported)"},
		{types.NewInterfaceType([]*types.Func{method}, nil).Complete(), "interface{m()} cannot be named outside its package (its method m is unexported)"},
		{tp, "T is a type parameter"},
		{types.Typ[types.UnsafePointer], "cling does not write values of unsafe.Pointer"},
	} {
		assert.False(t, nameable(tc.t, from), tc.want)
		assert.Equal(t, tc.want, whyUnnameable(tc.t, from))
	}
}

// A test outside r can pass what it can name or get, a constant of a basic
// type, or nil; not a struct of an unexported type that nothing hands out.
func TestReachCanPass(t *testing.T) {
	from := types.NewPackage("example.com/m/r", "r")
	named := func(name string, under types.Type) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, from, name, nil), under, nil)
	}
	inner := named("inner", types.NewStruct(nil, nil))
	given := named("given", types.NewStruct(nil, nil))
	r := &reach{from: from}
	r.add(types.NewPointer(given))
	for _, tc := range []struct {
		t    types.Type
		want bool
	}{
		{types.Typ[types.String], true},
		{named("level", types.Typ[types.Int]), true},
		{types.NewPointer(inner), true},
		{types.NewSlice(inner), true},
		{inner, false},
		{given, true},
		{types.NewArray(inner, 2), false},
	} {
		assert.Equal(t, tc.want, r.canPass(tc.t), "%s", tc.t)
	}
}

// A function literal is written with its parameter and result types, so a
// named func type whose signature names an unexported type (the
// functional option type Option func(*parser)) gets no literal, while one
// of exported types does.
func TestFuncOpNeedsNameableSignature(t *testing.T) {
	e := types.NewPackage("example.com/m/e", "e")
	c := &Cluster{Caller: &ccfg.Package{Types: types.NewPackage("example.com/m/r", "r")}, seenOps: map[string]*Op{}}
	named := func(name string, under types.Type) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, e, name, nil), under, nil)
	}
	takes := func(p types.Type) *types.Signature {
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, e, "p", p)), nil, false)
	}
	parser := named("parser", types.NewStruct(nil, nil))
	config := named("Config", types.NewStruct(nil, nil))
	assert.Nil(t, c.funcOp(named("Option", takes(types.NewPointer(parser)))))
	if op := c.funcOp(named("Setting", takes(types.NewPointer(config)))); assert.NotNil(t, op) {
		assert.Equal(t, OpFunc, op.Kind)
	}
}
