package testcase

import (
	"go/importer"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A call that reads from one argument and writes into another is told
// apart when both are one stream: the same value, the two results of one
// call (the ends of an io.Pipe), or one built from the other.
func TestFeedingPair(t *testing.T) {
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	io, err := imp.Import("io")
	require.NoError(t, err)
	bytesPkg, err := imp.Import("bytes")
	require.NoError(t, err)
	reader := io.Scope().Lookup("Reader").Type()
	writer := io.Scope().Lookup("Writer").Type()
	buffer := types.NewPointer(bytesPkg.Scope().Lookup("Buffer").Type())
	str := types.Typ[types.String]
	writers := types.NewSlice(writer)
	call := func(pkg *types.Package, name string, results []types.Type, params ...types.Type) *Op {
		fn, _ := pkg.Scope().Lookup(name).(*types.Func)
		if fn == nil { // a function of the module
			fn = types.NewFunc(token.NoPos, pkg, name, types.NewSignatureType(nil, nil, nil, nil, nil, false))
		}
		return &Op{Kind: OpCall, Name: name, Func: fn, Params: params, Results: results}
	}
	newBuffer := call(bytesPkg, "NewBufferString", []types.Type{buffer}, str)
	multi := call(io, "MultiWriter", []types.Type{writer}, writers)
	pipe := call(io, "Pipe", []types.Type{reader, writer})
	tee := call(io, "TeeReader", []types.Type{reader}, reader, writer)
	format := call(types.NewPackage("example.com/fmtcmd", "fmtcmd"), "Run", nil, reader, writer)
	readFromFn, _, _ := types.LookupFieldOrMethod(buffer, true, nil, "ReadFrom")
	readFrom := &Op{Kind: OpCall, Name: "(*bytes.Buffer).ReadFrom", Func: readFromFn.(*types.Func), Params: []types.Type{buffer, reader}, Method: true}
	lit := &Op{Kind: OpPrim, Type: str}
	slice := &Op{Kind: OpSlice, Type: writers}
	base := []Stmt{
		{Op: lit, Value: "x"},                          // 0
		{Op: newBuffer, Args: []Ref{{Stmt: 0}}},        // 1
		{Op: newBuffer, Args: []Ref{{Stmt: 0}}},        // 2: another buffer of the same text
		{Op: slice, Args: []Ref{{Stmt: 2}, {Stmt: 1}}}, // 3
		{Op: multi, Args: []Ref{{Stmt: 3}}},            // 4: built from 1 and 2
		{Op: pipe},                                     // 5
		{Op: slice, Args: []Ref{{Stmt: 2}}},            // 6
		{Op: multi, Args: []Ref{{Stmt: 6}}},            // 7: built from 2 only
	}
	tests := []struct {
		name  string
		op    *Op
		args  []Ref
		feeds bool
		r, w  int
	}{
		{"one buffer both ways", tee, []Ref{{Stmt: 1}, {Stmt: 1}}, true, 0, 1},
		{"two buffers of one string", tee, []Ref{{Stmt: 1}, {Stmt: 2}}, false, 0, 0},
		{"a writer built from the reader", tee, []Ref{{Stmt: 1}, {Stmt: 4}}, true, 0, 1},
		{"a writer built from another buffer", tee, []Ref{{Stmt: 1}, {Stmt: 7}}, false, 0, 0},
		{"the two ends of a pipe", tee, []Ref{{Stmt: 5, Result: 0}, {Stmt: 5, Result: 1}}, true, 0, 1},
		{"a buffer reading itself", readFrom, []Ref{{Stmt: 1}, {Stmt: 1}}, true, 1, 0},
		{"a buffer reading another", readFrom, []Ref{{Stmt: 1}, {Stmt: 2}}, false, 0, 0},
		{"an omitted writer", tee, []Ref{{Stmt: 1}, Omitted}, false, 0, 0},
		{"a function of the module", format, []Ref{{Stmt: 1}, {Stmt: 1}}, false, 0, 0},
		{"not a call", slice, []Ref{{Stmt: 1}, {Stmt: 1}}, false, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			test := &Test{Stmts: base}
			r, w, ok := feedingPair(test, tc.op, tc.args)
			assert.Equal(t, tc.feeds, ok)
			assert.Equal(t, []int{tc.r, tc.w}, []int{r, w})
		})
	}
}
