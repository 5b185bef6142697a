package fault

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/packages"
)

// A statement takes a value R made when it is handed a structure that
// R's API returned, as R returned it: not a number R returned, and not a
// structure whose fields the test set since.
func TestMadeByCaller(t *testing.T) {
	pkg := types.NewPackage("example.com/m/ast", "ast")
	node := types.NewField(token.NoPos, pkg, "Node", types.NewInterfaceType(nil, nil), false)
	file := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, pkg, "File", nil), types.NewStruct([]*types.Var{node}, nil), nil))
	group := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, pkg, "CommentGroup", nil), types.NewStruct(nil, nil), nil))
	parse := &testcase.Op{Kind: testcase.OpCall, Name: "parser.Parse", API: true, Results: []types.Type{file}}
	count := &testcase.Op{Kind: testcase.OpCall, Name: "parser.Count", API: true, Results: []types.Type{types.Typ[types.Int]}}
	trigger := &testcase.Op{Kind: testcase.OpCall, Name: "(parser.BlockParser).Trigger", API: true, Results: []types.Type{types.NewSlice(types.Typ[types.Byte])}}
	literal := &testcase.Op{Kind: testcase.OpComposite, Ptr: true, Type: group}
	set := &testcase.Op{Kind: testcase.OpFieldSet, Fields: []*types.Var{node}}
	pos := &testcase.Op{Kind: testcase.OpCall, Name: "(*ast.File).Pos"}
	get := &testcase.Op{Kind: testcase.OpCall, Name: "(*ast.List).Get"}
	stringer := types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "String", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Typ[types.String])), false))}, nil).Complete()
	str := &testcase.Op{Kind: testcase.OpCall, Name: "(fmt.Stringer).String", API: true, Method: true, Params: []types.Type{stringer}, Results: []types.Type{types.Typ[types.String]}}
	kind := &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.Int]}
	cases := []struct {
		name   string
		stmts  []testcase.Stmt
		failed int
		want   bool
	}{
		{"R's file", []testcase.Stmt{{Op: parse}, {Op: pos, Args: refs(0)}}, 1, true},
		{"R's call", []testcase.Stmt{{Op: parse}}, 0, true},
		{"R's file, a field set by the test", []testcase.Stmt{{Op: parse}, {Op: literal}, {Op: set, Args: refs(0, 1)}, {Op: pos, Args: refs(0)}}, 3, false},
		{"a field set after the failure", []testcase.Stmt{{Op: parse}, {Op: pos, Args: refs(0)}, {Op: literal}, {Op: set, Args: refs(0, 2)}}, 1, true},
		{"R's number", []testcase.Stmt{{Op: count}, {Op: get, Args: refs(0)}}, 1, false},
		{"R's bytes", []testcase.Stmt{{Op: trigger}, {Op: get, Args: refs(0)}}, 1, false},
		{"the test's literal", []testcase.Stmt{{Op: literal}, {Op: pos, Args: refs(0)}}, 1, false},
		// String through fmt.Stringer is R's API because R's unexported
		// types implement it, but on the test's own value it is not R's.
		{"an interface method of R's API on the test's value", []testcase.Stmt{{Op: kind}, {Op: str, Args: refs(0)}}, 1, false},
		{"an interface method of R's API on R's value", []testcase.Stmt{{Op: parse}, {Op: str, Args: refs(0)}}, 1, true},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, madeByCaller(&testcase.Test{Stmts: tc.stmts}, tc.failed), tc.name)
	}
}

// A failure raised in a third package of the module on a value the test
// made with that package's API, which R only handed on, lies outside the
// pair; one in R or E, one on a value of the third package that R made,
// or one on a value the test made with another package's API stays in it.
func TestThirdPartyValue(t *testing.T) {
	const mod = "example.com/yaml"
	astPkg := types.NewPackage(mod+"/ast", "ast")
	named := func(pkg *types.Package, name string) types.Type {
		return types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), types.NewStruct(nil, nil), nil))
	}
	alias, decoderT := named(astPkg, "AliasNode"), named(types.NewPackage(mod, "yaml"), "Decoder")
	newAlias := &testcase.Op{Kind: testcase.OpCall, Name: "ast.Alias", Func: types.NewFunc(token.NoPos, astPkg, "Alias", nil), Results: []types.Type{alias}}
	literal := &testcase.Op{Kind: testcase.OpComposite, Ptr: true, Name: "&ast.AliasNode{}", Type: alias}
	parse := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.Parse", API: true, Results: []types.Type{alias}}
	newDecoder := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.NewDecoder", API: true, Results: []types.Type{decoderT}}
	decode := &testcase.Op{Kind: testcase.OpCall, Name: "(*yaml.Decoder).Decode", API: true, Method: true}
	l := &Locator{a: &couple.Analysis{
		Caller: &ccfg.CCFG{Pkg: &ccfg.Package{Path: mod, Name: "yaml"}},
		Callee: &ccfg.CCFG{Pkg: &ccfg.Package{Path: mod + "/token", Name: "token"}},
	}}
	test := func(made *testcase.Op) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{{Op: made}, {Op: newDecoder, Args: refs(0)}, {Op: decode, Args: refs(1)}}}
	}
	in := func(fn string) *Fault { return &Fault{Frame: Frame{Func: fn}, Stmt: 2} }
	const aliasString = mod + "/ast.(*AliasNode).String"
	assert.Equal(t, "ast.(*AliasNode).String failed on a value the test made with ast (ast.Alias), not one yaml made", l.thirdPartyValue(test(newAlias), in(aliasString)))
	assert.Equal(t, "ast.(*AliasNode).String failed on a value the test made with ast (&ast.AliasNode{}), not one yaml made", l.thirdPartyValue(test(literal), in(aliasString)))
	assert.Equal(t, "", l.thirdPartyValue(test(parse), in(aliasString)), "R made the node")
	nodeT := types.NewNamed(types.NewTypeName(token.NoPos, astPkg, "Node", nil), types.NewInterfaceType(nil, nil), nil)
	valueToNode := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.ValueToNode", API: true, Results: []types.Type{nodeT}}
	decodeBoth := &testcase.Test{Stmts: []testcase.Stmt{{Op: newAlias}, {Op: newDecoder, Args: refs(0)}, {Op: valueToNode}, {Op: decode, Args: refs(1, 2)}}}
	assert.Equal(t, "ast.(*AliasNode).String failed on a value the test made with ast (ast.Alias), not one yaml made", l.thirdPartyValue(decodeBoth, &Fault{Frame: Frame{Func: aliasString}, Stmt: 3}), "R made an ast.Node, not an alias")
	assert.Equal(t, "", l.thirdPartyValue(decodeBoth, &Fault{Frame: Frame{Func: mod + "/ast.Walk"}, Stmt: 3}), "raised in a function of ast, and R made an ast value")
	assert.Equal(t, "", l.thirdPartyValue(test(newAlias), in(mod+".(*Decoder).decode")), "raised in R")
	assert.Equal(t, "", l.thirdPartyValue(test(newAlias), in(mod+"/token.New")), "raised in E")
	assert.Equal(t, "", l.thirdPartyValue(test(newAlias), in(mod+"/parser.Parse")), "raised in a package whose values the test did not make")
	assert.Equal(t, "", l.thirdPartyValue(test(newAlias), &Fault{Frame: Frame{Func: aliasString}, Stmt: -1}), "the statement not known")
	assert.Equal(t, "ast.(*AliasNode).String failed on a value the test made with ast (ast.Alias), not one yaml made", l.Outside(test(newAlias), in(aliasString)), "even though the stack would hold R's frames")

	// Rule 12: R failing on a nil in such a value is misuse.
	tokenPkg := types.NewPackage(mod+"/token", "token")
	newToken := &testcase.Op{Kind: testcase.OpCall, Name: "token.New", Func: types.NewFunc(token.NoPos, tokenPkg, "New", nil), Results: []types.Type{named(tokenPkg, "Token")}}
	c := &testcase.Cluster{
		Caller: &ccfg.Package{Path: mod, Name: "yaml", Module: &packages.Module{Path: mod}},
		Callee: &ccfg.Package{Path: mod + "/token", Name: "token"},
	}
	assert.Equal(t, "the arguments hold a value of ast that the test made with ast.Alias, not one yaml made", Misused(c, test(newAlias), 2, NilDereference, "", "", nil))
	assert.Equal(t, "", Misused(c, test(parse), 2, NilDereference, "", "", nil), "R made the node")
	assert.Equal(t, "", Misused(c, test(newToken), 2, NilDereference, "", "", nil), "E's value")
	assert.Equal(t, "", Misused(c, test(newAlias), 2, IndexOutOfRange, "", "", nil), "not on a nil value")
	const getValue = mod + "/ast.(*StringNode).GetValue"
	assert.Equal(t, "", l.thirdPartyValue(test(newAlias), in(getValue)), "the test made no StringNode")
	assert.Equal(t, "the arguments hold a value of ast that the test made with ast.Alias, not one yaml made", Misused(c, test(newAlias), 2, NilDereference, "", getValue, nil), "the nil StringNode may lie inside the alias")
	assert.True(t, c.ThirdPackage(mod+"/ast"))
	assert.False(t, c.ThirdPackage("example.com/other/ast"), "another module")
}

// receiverOf reads the receiver's type from a method's runtime name.
func TestReceiverOf(t *testing.T) {
	for fn, want := range map[string][2]string{
		"example.com/m/ast.(*AliasNode).String":       {"example.com/m/ast", "AliasNode"},
		"example.com/m/ast.Position.String":           {"example.com/m/ast", "Position"},
		"example.com/m/ast.(*List[...]).Get":          {"example.com/m/ast", "List"},
		"example.com/m/ast.(*AliasNode).String.func2": {"example.com/m/ast", "AliasNode"},
		"example.com/m/ast.Walk":                      {"", ""},
		"example.com/m/ast.Walk.func1":                {"", ""},
		"":                                            {"", ""},
	} {
		pkg, typ := receiverOf(fn)
		assert.Equal(t, want, [2]string{pkg, typ}, fn)
	}
}
