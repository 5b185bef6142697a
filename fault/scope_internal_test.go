package fault

import (
	"go/token"
	"go/types"
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
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
