package fault

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"testing"
	"time"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
)

// A struct is opaque when the test can set none of its fields: go-cmp's
// SliceIndex struct{ *sliceIndex } is; a struct with one exported field,
// an empty struct and a non-struct are not.
func TestOpaque(t *testing.T) {
	pkg := types.NewPackage("example.com/m/cmp", "cmp")
	named := func(name string, under types.Type) *types.Named {
		return types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), under, nil)
	}
	field := func(name string, typ types.Type, embedded bool) *types.Var {
		return types.NewField(token.NoPos, pkg, name, typ, embedded)
	}
	hidden := named("sliceIndex", types.NewStruct([]*types.Var{field("xkey", types.Typ[types.Int], false)}, nil))
	sliceIndex := named("SliceIndex", types.NewStruct([]*types.Var{field("sliceIndex", types.NewPointer(hidden), true)}, nil))
	counter := named("Counter", types.NewStruct([]*types.Var{field("n", types.Typ[types.Int], false)}, nil))
	catalog := named("Catalog", types.NewStruct([]*types.Var{field("Name", types.Typ[types.String], false), field("n", types.Typ[types.Int], false)}, nil))
	empty := named("Empty", types.NewStruct(nil, nil))
	for _, tc := range []struct {
		t    types.Type
		want bool
	}{
		{sliceIndex, true},
		{types.NewPointer(counter), true},
		{catalog, false},
		{empty, false},
		{types.Typ[types.Int], false},
	} {
		assert.Equal(t, tc.want, opaque(tc.t), types.TypeString(tc.t, nil))
	}
}

// holdsNil finds the nil or opaque zero value a value is built from,
// through literals and calls, and nothing in a value built from literals
// of other kinds.
func TestHoldsNil(t *testing.T) {
	pkg := types.NewPackage("example.com/m/cmp", "cmp")
	hidden := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "sliceIndex", nil),
		types.NewStruct([]*types.Var{types.NewField(token.NoPos, pkg, "xkey", types.Typ[types.Int], false)}, nil), nil)
	nilPtr := &testcase.Op{Kind: testcase.OpNil, Type: types.NewPointer(hidden)}
	zero := &testcase.Op{Kind: testcase.OpZero, Type: hidden}
	target := &testcase.Op{Kind: testcase.OpTarget, Type: types.NewPointer(hidden)}
	str := &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.String]}
	slice := &testcase.Op{Kind: testcase.OpComposite, Type: types.NewSlice(types.NewPointer(hidden))}
	call := &testcase.Op{Kind: testcase.OpCall, Name: "cmp.Wrap"}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: str, Value: "x"},      // 0
		{Op: call, Args: refs(0)},  // 1: built from a string
		{Op: nilPtr},               // 2
		{Op: slice, Args: refs(2)}, // 3: a slice that holds nil
		{Op: call, Args: refs(3)},  // 4: made from it
		{Op: zero},                 // 5
		{Op: call, Args: refs(5)},  // 6: made from an opaque zero value
		{Op: target},               // 7: var v cmp.sliceIndex, passed as &v
	}}
	for i, want := range map[int]string{1: "", 3: "nil *cmp.sliceIndex", 4: "nil *cmp.sliceIndex", 6: "the zero value of cmp.sliceIndex", 7: "the zero value of cmp.sliceIndex"} {
		assert.Equal(t, want, holdsNil(nil, test, i), "statement %d", i)
	}
}

// A callback of the test's that returns nil for a result the code may
// call or follow (grpc-middleware's reporter of a CommonReportableFunc
// literal returning nil, nil) is a nil the test gave; one whose nil
// results are only an error or an empty interface, or whose first result
// is a constant, is not.
func TestNilReturned(t *testing.T) {
	pkg := types.NewPackage("example.com/m/interceptors", "interceptors")
	reporter := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Reporter", nil), types.NewInterfaceType([]*types.Func{
		types.NewFunc(token.NoPos, pkg, "PostCall", types.NewSignatureType(nil, nil, nil, nil, nil, false)),
	}, nil), nil)
	errT, anyT, str := types.Universe.Lookup("error").Type(), types.NewInterfaceType(nil, nil), types.Typ[types.String]
	fn := func(results ...types.Type) *testcase.Op {
		var vars []*types.Var
		for _, r := range results {
			vars = append(vars, types.NewParam(token.NoPos, nil, "", r))
		}
		sig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(vars...), false)
		return &testcase.Op{Kind: testcase.OpFunc, Type: sig, Variants: testcase.FuncVariants(sig)}
	}
	call := &testcase.Op{Kind: testcase.OpCall, Name: "interceptors.UnaryServerInterceptor"}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: fn(reporter, errT), Value: testcase.FuncLit{Variant: 0}},  // 0: return nil, nil
		{Op: call, Args: refs(0)},                                      // 1: made from it
		{Op: fn(errT), Value: testcase.FuncLit{Variant: 0}},            // 2: return nil
		{Op: fn(anyT, errT), Value: testcase.FuncLit{Variant: 0}},      // 3: return nil, nil
		{Op: fn(str, reporter), Value: testcase.FuncLit{Variant: 1}},   // 4: return "c", nil
		{Op: fn(str), Value: testcase.FuncLit{Variant: 1, Const: "c"}}, // 5
		{Op: fn(reporter), Value: testcase.FuncLit{Variant: 0}},        // 6: return nil
	}}
	for i, want := range map[int]string{0: "interceptors.Reporter", 2: "", 3: "", 4: "interceptors.Reporter", 5: "", 6: "interceptors.Reporter"} {
		assert.Equal(t, want, nilReturned(test, i), "statement %d", i)
	}
	assert.Equal(t, "a function that returns nil interceptors.Reporter", holdsNil(nil, test, 1))
}

// A stack overflow or a hang after the test set a field to a value built
// from its own object (hcl's file.Node = file), or gave a method a value
// built from its receiver, is misuse; one without such a set, or a set of
// another value, is not.
func TestMadeCycle(t *testing.T) {
	pkg := types.NewPackage("example.com/m/ast", "ast")
	node := types.NewField(token.NoPos, pkg, "Node", types.NewInterfaceType(nil, nil), false)
	file := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "File", nil), types.NewStruct([]*types.Var{node}, nil), nil)
	parse := &testcase.Op{Kind: testcase.OpCall, Name: "parser.Parse", Type: types.NewPointer(file)}
	set := &testcase.Op{Kind: testcase.OpFieldSet, Fields: []*types.Var{node}}
	pos := &testcase.Op{Kind: testcase.OpCall, Name: "(*ast.File).Pos"}
	cycle := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: parse},
		{Op: set, Args: []testcase.Ref{{Stmt: 0}, {Stmt: 0}}},
		{Op: pos, Args: []testcase.Ref{{Stmt: 0}}},
	}}
	other := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: parse},
		{Op: parse},
		{Op: set, Args: []testcase.Ref{{Stmt: 0}, {Stmt: 1}}},
		{Op: pos, Args: []testcase.Ref{{Stmt: 0}}},
	}}
	assert.Equal(t, "the test made a cycle: field Node is set to a value built from the object that holds it", Misused(nil, cycle, 2, StackOverflow, "", "", nil))
	assert.Equal(t, "", Misused(nil, cycle, 0, StackOverflow, "", "", nil), "the set had not run")
	assert.Equal(t, "", Misused(nil, other, 3, StackOverflow, "", "", nil))
	assert.Equal(t, "the test made a cycle: field Node is set to a value built from the object that holds it", Misused(nil, cycle, 2, Hang, "", "", nil), "a walk that loops instead of recursing")
	assert.Equal(t, "", Misused(nil, cycle, 2, IndexOutOfRange, "", "", nil), "not a stack overflow or a hang")

	// A method given its own receiver (echo's SetInternal), or a value
	// built from it, makes one too; one given plain data built from it
	// (b.Write(b.Bytes())) does not.
	setInternal := &testcase.Op{Kind: testcase.OpCall, Method: true, Name: "(*ast.File).SetInternal", Params: []types.Type{types.NewPointer(file), types.Universe.Lookup("error").Type()}}
	write := &testcase.Op{Kind: testcase.OpCall, Method: true, Name: "(*ast.File).Write", Params: []types.Type{types.NewPointer(file), types.NewSlice(types.Typ[types.Byte])}}
	bytes := &testcase.Op{Kind: testcase.OpCall, Method: true, Name: "(*ast.File).Bytes", Params: []types.Type{types.NewPointer(file)}, Results: []types.Type{types.NewSlice(types.Typ[types.Byte])}}
	self := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: parse},
		{Op: setInternal, Args: []testcase.Ref{{Stmt: 0}, {Stmt: 0}}},
		{Op: pos, Args: []testcase.Ref{{Stmt: 0}}},
	}}
	plain := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: parse},
		{Op: bytes, Args: []testcase.Ref{{Stmt: 0}}},
		{Op: write, Args: []testcase.Ref{{Stmt: 0}, {Stmt: 1}}},
		{Op: pos, Args: []testcase.Ref{{Stmt: 0}}},
	}}
	assert.Equal(t, "the test made a cycle: (*ast.File).SetInternal is given a value built from its own receiver", Misused(nil, self, 2, StackOverflow, "", "", nil))
	assert.Equal(t, "", Misused(nil, plain, 3, StackOverflow, "", "", nil))
}

// A failed type assertion on a value the test passed as any, alone or in
// an ...any argument, is misuse (a typed nil too: it has a dynamic type);
// one with typed arguments only, or with a nil interface as the any, is
// not, unless the assertion failed on that nil ("X is nil, not Y"): an
// operation on a nil value the test passed.
func TestAnyArgument(t *testing.T) {
	anyT := types.NewInterfaceType(nil, nil)
	u16, str := types.Typ[types.Uint16], types.Typ[types.String]
	lit := func(typ types.Type) *testcase.Op { return &testcase.Op{Kind: testcase.OpPrim, Type: typ} }
	call := func(params ...types.Type) *testcase.Op {
		return &testcase.Op{Kind: testcase.OpCall, Name: "assert.Less", Params: params}
	}
	slice := &testcase.Op{Kind: testcase.OpSlice, Type: types.NewSlice(anyT)}
	nilAny := &testcase.Op{Kind: testcase.OpNil, Type: anyT}
	nilSlice := &testcase.Op{Kind: testcase.OpNil, Type: types.NewSlice(anyT)}
	cases := []struct {
		name  string
		stmts []testcase.Stmt
		want  string
	}{
		{"any", []testcase.Stmt{{Op: lit(u16), Value: uint64(3)}, {Op: call(anyT), Args: refs(0)}},
			"argument 1 of assert.Less is a uint16 passed as any"},
		{"...any", []testcase.Stmt{{Op: lit(str), Value: "a"}, {Op: lit(u16), Value: uint64(3)}, {Op: slice, Args: refs(1)}, {Op: call(str, types.NewSlice(anyT)), Args: refs(0, 2)}},
			"argument 2 of assert.Less holds a uint16 passed as any"},
		{"typed", []testcase.Stmt{{Op: lit(str), Value: "a"}, {Op: call(str), Args: refs(0)}}, ""},
		{"nil any", []testcase.Stmt{{Op: nilAny}, {Op: call(anyT), Args: refs(0)}}, ""},
		// A nil slice is not a nil interface: testify's msgAndArgs given a
		// nil []any, whose first element is then a []any, not a string.
		{"nil slice in ...any", []testcase.Stmt{{Op: nilSlice}, {Op: slice, Args: refs(0)}, {Op: call(types.NewSlice(anyT)), Args: refs(1)}},
			"argument 1 of assert.Less holds a []interface{} passed as any"},
		{"nil slice as any", []testcase.Stmt{{Op: nilSlice}, {Op: call(anyT), Args: refs(0)}},
			"argument 1 of assert.Less is a []interface{} passed as any"},
	}
	for _, tc := range cases {
		test := &testcase.Test{Stmts: tc.stmts}
		last := len(tc.stmts) - 1
		assert.Equal(t, tc.want, Misused(nil, test, last, TypeAssertion, "interface conversion: interface {} is string, not int", "", nil), tc.name)
		if tc.want != "" {
			assert.Equal(t, "", Misused(nil, test, last, IndexOutOfRange, "", "", nil), tc.name+", another kind")
		}
	}
	onNil := &testcase.Test{Stmts: []testcase.Stmt{{Op: nilAny}, {Op: call(anyT), Args: refs(0)}}}
	assert.Equal(t, "argument 1 of assert.Less is nil", Misused(nil, onNil, 1, TypeAssertion, "interface conversion: interface is nil, not string", "", nil))
	typed := &testcase.Test{Stmts: []testcase.Stmt{{Op: lit(str), Value: "a"}, {Op: call(str), Args: refs(0)}}}
	assert.Equal(t, "", Misused(nil, typed, 1, TypeAssertion, "interface conversion: interface is nil, not string", "", nil), "no nil argument")
}

// A hang of a call given a time.Duration of a second or more that the
// test wrote is misuse; a shorter wait, or another kind of fault, is not.
func TestLongWait(t *testing.T) {
	timePkg := types.NewPackage("time", "time")
	duration := types.NewNamed(types.NewTypeName(token.NoPos, timePkg, "Duration", nil), types.Typ[types.Int64], nil)
	lit := &testcase.Op{Kind: testcase.OpPrim, Type: duration}
	call := &testcase.Op{Kind: testcase.OpCall, Name: "assert.Eventually", Params: []types.Type{duration}}
	test := func(d int64) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{{Op: lit, Value: d}, {Op: call, Args: []testcase.Ref{{Stmt: 0}}}}}
	}
	assert.Equal(t, "argument 1 of assert.Eventually is a wait of 2562047h47m16.854775807s", Misused(nil, test(math.MaxInt64), 1, Hang, "", "", nil))
	assert.Equal(t, "", Misused(nil, test(int64(time.Millisecond)), 1, Hang, "", "", nil))
	assert.Equal(t, "", Misused(nil, test(math.MaxInt64), 1, NilDereference, "", "", nil))
}

// A failed type assertion on a value the test passed as an interface with
// methods is misuse when the value's type is the one the assertion failed
// on; another argument's type, or a value whose type the test does not
// know (an interface result), is not.
func TestAssertedArgument(t *testing.T) {
	pkg := types.NewPackage("example.com/m/ast", "ast")
	method := types.NewFunc(token.NoPos, pkg, "Kind", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	node := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Node", nil), types.NewInterfaceType([]*types.Func{method}, nil).Complete(), nil)
	link := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Link", nil), types.NewStruct(nil, nil), nil))
	list := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, pkg, "List", nil), types.NewStruct(nil, nil), nil))
	newNode := func(typ types.Type) *testcase.Op {
		return &testcase.Op{Kind: testcase.OpCall, Name: "ast.New", Results: []types.Type{typ}}
	}
	closeOp := &testcase.Op{Kind: testcase.OpCall, Name: "parser.Close", Params: []types.Type{node}}
	test := func(typ types.Type) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{{Op: newNode(typ)}, {Op: closeOp, Args: []testcase.Ref{{Stmt: 0}}}}}
	}
	const msg = "interface conversion: ast.Node is *ast.Link, not *ast.List"
	assert.Equal(t, "argument 1 of parser.Close is a *ast.Link passed as ast.Node, which the code asserted to be another type", Misused(nil, test(link), 1, TypeAssertion, msg, "", nil))
	assert.Equal(t, "", Misused(nil, test(list), 1, TypeAssertion, msg, "", nil), "the test passed the asserted type")
	assert.Equal(t, "", Misused(nil, test(node), 1, TypeAssertion, msg, "", nil), "a value whose type the test does not know")
	assert.Equal(t, "", Misused(nil, test(link), 1, IndexOutOfRange, "runtime error: index out of range [1] with length 1", "", nil))

	for msg, want := range map[string]string{
		msg: "*ast.Link",
		"interface conversion: *ast.Link is not ast.Block: missing method Lines": "*ast.Link",
		"interface conversion: interface {} is string, not int":                  "string",
		"interface conversion: ast.Node is nil, not *ast.List":                   "",
		"runtime error: index out of range [1] with length 1":                    "",
	} {
		assert.Equal(t, want, assertedType(msg), msg)
	}
}

// A crash does not say which statement failed; in a minimised reproducer
// it is the last one, and a panic in a goroutine the test's nil func
// argument started is misuse there like a nil dereference in the test's
// own goroutine.
func TestFailedAtCrash(t *testing.T) {
	cond := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Typ[types.Bool])), false)
	nilFunc := &testcase.Op{Kind: testcase.OpNil, Type: cond}
	eventually := &testcase.Op{Kind: testcase.OpCall, Name: "require.Eventually", Params: []types.Type{cond}}
	test := &testcase.Test{Stmts: []testcase.Stmt{{Op: nilFunc}, {Op: eventually, Args: []testcase.Ref{{Stmt: 0}}}}}
	kind := GoroutinePanic + ": " + NilDereference
	assert.True(t, kind.Nil())
	crash := &Fault{Kind: kind, Stmt: -1}
	assert.Equal(t, 1, FailedAt(crash, test))
	assert.Equal(t, -1, FailedAt(&Fault{Kind: Race, Stmt: -1}, test))
	assert.Equal(t, 0, FailedAt(&Fault{Kind: NilDereference, Stmt: 0}, test))
	assert.Equal(t, "argument 1 of require.Eventually is nil", Misused(nil, test, FailedAt(crash, test), kind, "panic: runtime error: invalid memory address or nil pointer dereference", "", nil))
	assert.Equal(t, "", Misused(nil, test, -1, kind, "", "", nil), "the statement not known")
	assert.False(t, (GoroutinePanic + ": " + IndexOutOfRange).Nil())
	zeroFunc := &testcase.Test{Stmts: []testcase.Stmt{{Op: &testcase.Op{Kind: testcase.OpZero, Type: cond}}, {Op: eventually, Args: []testcase.Ref{{Stmt: 0}}}}}
	assert.Equal(t, "argument 1 of require.Eventually is nil", Misused(nil, zeroFunc, 1, kind, "", "", nil), "the zero value of a func type is nil too")
}

// A negative or huge length built from an integer the test wrote,
// negative or at least 1<<32, is misuse, and so is a hang or an
// out-of-memory crash on an input built from a count of at least 1<<24;
// one built from a small count is not, nor is another kind of fault.
func TestSizeAskedFor(t *testing.T) {
	lit := &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.Int]}
	segment := &testcase.Op{Kind: testcase.OpCall, Name: "text.NewSegment", Results: []types.Type{types.Typ[types.Int]}}
	dump := &testcase.Op{Kind: testcase.OpCall, Name: "(*parser.Delimiter).Dump", Params: []types.Type{types.Typ[types.Int]}}
	test := func(v any) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{{Op: lit, Value: v}, {Op: segment, Args: []testcase.Ref{{Stmt: 0}}}, {Op: dump, Args: []testcase.Ref{{Stmt: 1}}}}}
	}
	assert.Equal(t, "argument 1 of (*parser.Delimiter).Dump is built from -2, a size the test asked for", Misused(nil, test(int64(-2)), 2, BadLength, "runtime error: makeslice: cap out of range", "", nil))
	assert.Equal(t, "argument 1 of (*parser.Delimiter).Dump is built from 55334318961979780, a size the test asked for", Misused(nil, test(int64(55334318961979780)), 2, BadLength, "", "", nil))
	assert.Equal(t, "argument 1 of (*parser.Delimiter).Dump is built from 4294967296, a size the test asked for", Misused(nil, test(uint64(1<<32)), 2, BadLength, "", "", nil))
	assert.Equal(t, "", Misused(nil, test(int64(4096)), 2, BadLength, "", "", nil))
	assert.Equal(t, "argument 1 of (*parser.Delimiter).Dump is built from -2, an index the test asked for", Misused(nil, test(int64(-2)), 2, IndexOutOfRange, "", "", nil))
	assert.Equal(t, "", Misused(nil, test(int64(-2)), 2, DivideByZero, "", "", nil), "another kind")
	assert.Equal(t, "", Misused(nil, test(int64(4096)), 2, SliceOutOfRange, "", "", nil))
	assert.Equal(t, "argument 1 of (*parser.Delimiter).Dump is built from 284758393, a size the test asked for", Misused(nil, test(int64(284758393)), 2, Hang, "", "", nil))
	assert.Equal(t, "", Misused(nil, test(int64(-2)), 2, Hang, "", "", nil), "a negative count is no work")
	assert.Equal(t, "", Misused(nil, test(int64(1000000)), 2, Hang, "", "", nil))
	assert.Equal(t, "argument 1 of (*parser.Delimiter).Dump is built from 4294967295, a size the test asked for", Misused(nil, test(uint64(math.MaxUint32)), 2, OutOfMemory, "fatal error: runtime: out of memory", "", nil))
	assert.Equal(t, "", Misused(nil, test(int64(1000000)), 2, OutOfMemory, "fatal error: runtime: out of memory", "", nil))
}

// What the test handed a value before the statement that failed counts
// (rule 10): a negative index given to a setter of a reader that the
// failing call then reads, a nil callback given to a registration of
// package-level state. An ordinary value given earlier, a setter of
// another value, a setter that ran only after, or a negative number
// before an operation on nil do not count.
func TestGivenEarlier(t *testing.T) {
	intT, bytesT := types.Typ[types.Int], types.NewSlice(types.Typ[types.Byte])
	readerT := types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage("example.com/m/text", "text"), "reader", nil), types.NewStruct(nil, nil), nil))
	callback := types.NewSignatureType(nil, nil, nil, nil, nil, false)
	lit := func(typ types.Type) *testcase.Op { return &testcase.Op{Kind: testcase.OpPrim, Type: typ} }
	newReader := &testcase.Op{Kind: testcase.OpCall, Name: "text.NewReader", Params: []types.Type{bytesT}, Results: []types.Type{readerT}}
	setPadding := &testcase.Op{Kind: testcase.OpCall, Name: "(text.Reader).SetPadding", Method: true, Params: []types.Type{readerT, intT}}
	parse := &testcase.Op{Kind: testcase.OpCall, Name: "parser.Parse", Params: []types.Type{readerT}, API: true}
	register := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.RegisterMarshaler", Params: []types.Type{callback}, WritesState: true}
	marshal := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.Marshal", Params: []types.Type{bytesT}, API: true}
	reader := func(padding int64, order ...int) *testcase.Test {
		stmts := []testcase.Stmt{
			{Op: lit(bytesT), Value: []byte("a")},     // 0
			{Op: newReader, Args: refs(0)},            // 1
			{Op: newReader, Args: refs(0)},            // 2: another reader
			{Op: lit(intT), Value: padding},           // 3
			{Op: setPadding, Args: refs(order[0], 3)}, // 4
			{Op: parse, Args: refs(1)},                // 5
			{Op: setPadding, Args: refs(order[1], 3)}, // 6
		}
		return &testcase.Test{Stmts: stmts}
	}
	const why = "argument 1 of (text.Reader).SetPadding, which ran before, is built from -99, an index the test asked for"
	assert.Equal(t, why, Misused(nil, reader(-99, 1, 2), 5, IndexOutOfRange, "", "", nil))
	assert.Equal(t, why, Misused(nil, reader(-99, 1, 2), 5, SliceOutOfRange, "", "", nil))
	assert.Equal(t, "", Misused(nil, reader(3, 1, 2), 5, IndexOutOfRange, "", "", nil), "a padding in range")
	assert.Equal(t, "", Misused(nil, reader(-99, 2, 1), 5, IndexOutOfRange, "", "", nil), "another reader before, this one only after")
	assert.Equal(t, "", Misused(nil, reader(-99, 1, 2), 5, NilDereference, "", "", nil), "a number is no nil")
	bytesUsed := reader(-99, 1, 2)
	bytesUsed.Stmts[4] = testcase.Stmt{Op: &testcase.Op{Kind: testcase.OpCall, Name: "bytes.Repeat", Params: []types.Type{bytesT, intT}}, Args: refs(0, 3)}
	assert.Equal(t, "", Misused(nil, bytesUsed, 5, IndexOutOfRange, "", "", nil), "the reader's bytes given to another call keep nothing of it")

	registry := func(writes bool) *testcase.Test {
		reg := *register
		reg.WritesState = writes
		return &testcase.Test{Stmts: []testcase.Stmt{
			{Op: &testcase.Op{Kind: testcase.OpNil, Type: callback}}, // 0
			{Op: &reg, Args: refs(0)},                                // 1
			{Op: lit(bytesT), Value: []byte("a")},                    // 2
			{Op: marshal, Args: refs(2)},                             // 3
		}}
	}
	assert.Equal(t, "argument 1 of yaml.RegisterMarshaler, which ran before, is given nil func()", Misused(nil, registry(true), 3, NilDereference, "", "", nil))
	assert.Equal(t, "", Misused(nil, registry(true), 3, IndexOutOfRange, "", "", nil), "nil is no index")
	assert.Equal(t, "", Misused(nil, registry(false), 3, NilDereference, "", "", nil), "a call that keeps nothing")
}

// A named number type whose package declares exported constants of it
// has values the test may write; one without is handed out only.
func TestDeclaresConstant(t *testing.T) {
	pkg := types.NewPackage("example.com/m/parser", "parser")
	key := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "ContextKey", nil), types.Typ[types.Int], nil)
	kind := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Kind", nil), types.Typ[types.Int], nil)
	pkg.Scope().Insert(key.Obj())
	pkg.Scope().Insert(kind.Obj())
	pkg.Scope().Insert(types.NewConst(token.NoPos, pkg, "KindText", kind, constant.MakeInt64(1)))
	pkg.Scope().Insert(types.NewConst(token.NoPos, pkg, "maxKey", key, constant.MakeInt64(9)))
	assert.True(t, declaresConstant(kind))
	assert.False(t, declaresConstant(key), "an unexported constant does not count")
}

// refs refers to the first results of statements is.
func refs(is ...int) []testcase.Ref {
	out := make([]testcase.Ref, len(is))
	for k, i := range is {
		out[k] = testcase.Ref{Stmt: i}
	}
	return out
}

// For an operation on a nil value, a struct the test made that leaves a
// map, pointer, channel, func or interface field nil is misuse when a
// constructor of the type exists (goldmark's parser.Config{}, whose
// Options map parser.NewConfig makes); with every such field set, without
// a constructor, or for another kind of fault, it is not.
func TestLeftNil(t *testing.T) {
	pkg := types.NewPackage("example.com/m/parser", "parser")
	options := types.NewField(token.NoPos, pkg, "Options", types.NewMap(types.Typ[types.String], types.Typ[types.Int]), false)
	names := types.NewField(token.NoPos, pkg, "Names", types.NewSlice(types.Typ[types.String]), false)
	config := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Config", nil), types.NewStruct([]*types.Var{names, options}, nil), nil)
	literal := &testcase.Op{Kind: testcase.OpComposite, Ptr: true, Type: types.NewPointer(config), Fields: []*types.Var{names, options}}
	makeMap := &testcase.Op{Kind: testcase.OpMap, Type: options.Type()}
	apply := &testcase.Op{Kind: testcase.OpCall, Name: "(parser.Option).SetParserOption", Method: true, Params: []types.Type{types.NewInterfaceType(nil, nil), types.NewPointer(config)}}
	newConfig := &testcase.Op{Kind: testcase.OpCall, Name: "parser.NewConfig", Results: []types.Type{types.NewPointer(config)}}
	withCtor := &testcase.Cluster{Ops: []*testcase.Op{newConfig}}
	test := func(setOptions bool) *testcase.Test {
		args := []testcase.Ref{{Stmt: -1}, {Stmt: -1}}
		if setOptions {
			args[1] = testcase.Ref{Stmt: 0}
		}
		return &testcase.Test{Stmts: []testcase.Stmt{
			{Op: makeMap},             // 0
			{Op: literal, Args: args}, // 1
			{Op: &testcase.Op{Kind: testcase.OpCall, Name: "parser.WithAttribute", Results: apply.Params[:1]}}, // 2
			{Op: apply, Args: refs(2, 1)}, // 3
		}}
	}
	assert.Equal(t, "Options", leftNil(test(false), 1))
	assert.Equal(t, "", leftNil(test(true), 1), "a nil slice is no nil the code writes through")
	assert.Equal(t, "argument 1 of (parser.Option).SetParserOption is a parser.Config the test made, whose field Options it left nil, not one a constructor made", Misused(withCtor, test(false), 3, NilMapWrite, "", "", nil))
	assert.Equal(t, "", Misused(withCtor, test(true), 3, NilMapWrite, "", "", nil))
	assert.Equal(t, "", Misused(&testcase.Cluster{}, test(false), 3, NilMapWrite, "", "", nil), "no constructor")
	assert.Equal(t, "", Misused(withCtor, test(false), 3, IndexOutOfRange, "", "", nil), "not on a nil value")
}

// An index out of range is the index the test asked for when the function
// the statement calls raised it itself and the runtime's message names an
// integer the statement passes, even one right at the end; an index
// computed inside (the message names another), or raised deeper in another
// function, is not.
func TestAskedIndex(t *testing.T) {
	textPkg := types.NewPackage("example.com/m/text", "text")
	at := &testcase.Op{Kind: testcase.OpCall, Name: "(*text.Segments).At", Method: true, Func: types.NewFunc(token.NoPos, textPkg, "At", nil)}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: &testcase.Op{Kind: testcase.OpCall, Name: "text.NewSegments"}},
		{Op: &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.Int]}, Value: int64(3)},
		{Op: at, Args: refs(0, 1)},
	}}
	const in = "example.com/m/text.(*Segments).At"
	assert.Equal(t, "argument 1 of (*text.Segments).At is 3, the index the test asked for", Misused(nil, test, 2, IndexOutOfRange, "runtime error: index out of range [3] with length 3", in, nil))
	assert.Equal(t, "", Misused(nil, test, 2, IndexOutOfRange, "runtime error: index out of range [2] with length 3", in, nil), "another index")
	assert.Equal(t, "", Misused(nil, test, 2, IndexOutOfRange, "runtime error: index out of range [3] with length 3", "example.com/m/store.(*Ring).Get", nil), "raised deeper")
	assert.Equal(t, "", Misused(nil, test, 2, IndexOutOfRange, "runtime error: index out of range [3] with length 3", "", nil), "not known where")
}

// An error result observed nil and passed on as an error is misuse on a
// nil value (rule 4): the call succeeded. Without observations, or for an
// error that was not nil, it is not.
func TestNoError(t *testing.T) {
	errT := types.Universe.Lookup("error").Type()
	convert := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.YAMLToJSON", Results: []types.Type{types.NewSlice(types.Typ[types.Byte]), errT}}
	format := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.FormatError", Params: []types.Type{errT}}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: &testcase.Op{Kind: testcase.OpPrim, Type: types.NewSlice(types.Typ[types.Byte])}, Value: []byte("a: 1")},
		{Op: convert, Args: refs(0)},
		{Op: format, Args: []testcase.Ref{{Stmt: 1, Result: 1}}},
	}}
	observed := func(k testcase.ObsKind) *testcase.Outcome {
		return &testcase.Outcome{Observations: []testcase.Observation{{Ref: testcase.Ref{Stmt: 1, Result: 1}, Kind: k}}}
	}
	assert.Equal(t, "argument 1 of yaml.FormatError is the nil error of yaml.YAMLToJSON, which succeeded", Misused(nil, test, 2, NilDereference, "", "", observed(testcase.ObsNoError)))
	assert.Equal(t, "", Misused(nil, test, 2, NilDereference, "", "", observed(testcase.ObsError)))
	assert.Equal(t, "", Misused(nil, test, 2, NilDereference, "", "", nil))
	assert.Equal(t, "", Misused(nil, test, 2, IndexOutOfRange, "", "", observed(testcase.ObsNoError)), "not on a nil value")
}

// A bound past the end that the test wrote into the arguments, or one
// next to it, is misuse wherever it was raised; one at the end (an
// off-by-one of the code's own), a bound the test did not write, or the
// low > high form is not.
func TestAskedBeyond(t *testing.T) {
	intT := types.Typ[types.Int]
	precision := types.NewField(token.NoPos, nil, "Precision", intT, false)
	literal := &testcase.Op{Kind: testcase.OpComposite, Name: "toml.LocalTime", Type: types.NewStruct([]*types.Var{precision}, nil), Fields: []*types.Var{precision}}
	marshal := &testcase.Op{Kind: testcase.OpCall, Name: "toml.Marshal", Params: []types.Type{types.NewInterfaceType(nil, nil)}}
	test := func(v int64) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{
			{Op: &testcase.Op{Kind: testcase.OpPrim, Type: intT}, Value: v},
			{Op: literal, Args: refs(0)},
			{Op: marshal, Args: refs(1)},
		}}
	}
	assert.Equal(t, "argument 1 of toml.Marshal is built from 672, and the code went to 672 of the 9 there are: the bound the test asked for", Misused(nil, test(672), 2, SliceOutOfRange, "runtime error: slice bounds out of range [:672] with capacity 9", "", nil))
	assert.Equal(t, "argument 1 of toml.Marshal is built from 672, and the code went to 672 of the 9 there are: the bound the test asked for", Misused(nil, test(672), 2, IndexOutOfRange, "runtime error: index out of range [672] with length 9", "", nil))
	assert.Equal(t, "argument 1 of toml.Marshal is built from 16, and the code went to 17 of the 10 there are: the bound the test asked for", Misused(nil, test(16), 2, SliceOutOfRange, "runtime error: slice bounds out of range [:17] with length 10", "", nil), "one past the test's")
	assert.Equal(t, "", Misused(nil, test(15), 2, SliceOutOfRange, "runtime error: slice bounds out of range [:17] with length 10", "", nil), "two from the test's")
	assert.Equal(t, "", Misused(nil, test(9), 2, IndexOutOfRange, "runtime error: index out of range [9] with length 9", "", nil), "at the end")
	assert.Equal(t, "", Misused(nil, test(5), 2, SliceOutOfRange, "runtime error: slice bounds out of range [:672] with capacity 9", "", nil), "not the test's")
	assert.Equal(t, "", Misused(nil, test(5), 2, SliceOutOfRange, "runtime error: slice bounds out of range [5:1]", "", nil), "low > high")

	// The same bound set into a field of the argument before (var v
	// item; v.Data = toml.LocalTime{Precision: 1552}; Marshal(&v)).
	data := types.NewField(token.NoPos, nil, "Data", types.NewInterfaceType(nil, nil), false)
	item := types.NewPointer(types.NewStruct([]*types.Var{data}, nil))
	set := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: &testcase.Op{Kind: testcase.OpTarget, Type: item}},
		{Op: &testcase.Op{Kind: testcase.OpPrim, Type: intT}, Value: int64(1552)},
		{Op: literal, Args: refs(1)},
		{Op: &testcase.Op{Kind: testcase.OpFieldSet, Fields: []*types.Var{data}, Params: []types.Type{item, data.Type()}}, Args: refs(0, 2)},
		{Op: marshal, Args: refs(0)},
	}}
	assert.Equal(t, "the value of field Data, which ran before, is built from 1552, and the code went to 1553 of the 10 there are: the bound the test asked for", Misused(nil, set, 4, SliceOutOfRange, "runtime error: slice bounds out of range [:1553] with length 10", "", nil))
}

// A nil result an argument is built from (an option made from the nil
// node a failed conversion returned) is misuse on a nil value (rule 4); a
// result that was not nil is not.
func TestNilResultWithin(t *testing.T) {
	errT := types.Universe.Lookup("error").Type()
	nodeT := types.NewPointer(types.NewStruct(nil, nil))
	toNode := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.ValueToNode", Results: []types.Type{nodeT, errT}}
	option := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.ReferenceReaders", Params: []types.Type{nodeT}, Results: []types.Type{types.Typ[types.Int]}}
	unmarshal := &testcase.Op{Kind: testcase.OpCall, Name: "yaml.Unmarshal", Params: []types.Type{types.Typ[types.Int]}}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: &testcase.Op{Kind: testcase.OpChan, Type: types.NewChan(types.SendRecv, types.Typ[types.Int])}},
		{Op: toNode, Args: refs(0)},
		{Op: option, Args: refs(1)},
		{Op: unmarshal, Args: refs(2)},
	}}
	failed := &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: testcase.Ref{Stmt: 1}, Kind: testcase.ObsNil},
		{Ref: testcase.Ref{Stmt: 1, Result: 1}, Kind: testcase.ObsError, Text: "unsupported"},
	}}
	assert.Equal(t, "argument 1 of yaml.Unmarshal is built from the nil result of yaml.ValueToNode, which returned an error", Misused(nil, test, 3, NilDereference, "", "", failed))
	worked := &testcase.Outcome{Observations: []testcase.Observation{{Ref: testcase.Ref{Stmt: 1}, Kind: testcase.ObsNotNil}}}
	assert.Equal(t, "", Misused(nil, test, 3, NilDereference, "", "", worked))
}

// An unhashable map key built from a slice the test put where any value
// is taken (go-yaml's MapItem{Key: MapSlice{}}) is misuse; a comparable
// value there is not.
func TestUnhashableAny(t *testing.T) {
	anyT := types.NewInterfaceType(nil, nil)
	key := types.NewField(token.NoPos, nil, "Key", anyT, false)
	item := &testcase.Op{Kind: testcase.OpComposite, Name: "yaml.MapItem", Type: types.NewStruct([]*types.Var{key}, nil), Fields: []*types.Var{key}}
	toMap := &testcase.Op{Kind: testcase.OpCall, Name: "(yaml.MapSlice).ToMap", Method: true, Params: []types.Type{types.NewSlice(item.Type)}}
	list := &testcase.Op{Kind: testcase.OpSlice, Type: types.NewSlice(item.Type)}
	test := func(keyOp *testcase.Op) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{{Op: keyOp}, {Op: item, Args: refs(0)}, {Op: list, Args: refs(1, 1)}, {Op: toMap, Args: refs(2)}}}
	}
	slice := &testcase.Op{Kind: testcase.OpSlice, Type: types.NewSlice(types.Typ[types.Int])}
	number := &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.Int]}
	assert.Equal(t, "the receiver of (yaml.MapSlice).ToMap is built from a []int the test passed as an interface value, which cannot be a map key", Misused(nil, test(slice), 3, Unhashable, "", "", nil))
	assert.Equal(t, "", Misused(nil, test(number), 3, Unhashable, "", "", nil))
	assert.Equal(t, "", Misused(nil, test(slice), 3, IndexOutOfRange, "", "", nil), "another kind")
}

// A policy given the nil regexp of a failed regexp.Compile before it
// sanitizes fails on it later: rule 10 with a nil result of a failed call.
// A nil the compile returned without an error, or no observation of it,
// leaves the fault standing.
func TestGivenEarlierFailedResult(t *testing.T) {
	errT := types.Universe.Lookup("error").Type()
	policyT := types.NewPointer(types.NewStruct(nil, nil))
	regexpT := types.NewPointer(types.NewStruct(nil, nil))
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: &testcase.Op{Kind: testcase.OpCall, Name: "bluemonday.UGCPolicy", Results: []types.Type{policyT}}},
		{Op: &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.String]}, Value: "["},
		{Op: &testcase.Op{Kind: testcase.OpCall, Name: "regexp.Compile", Params: []types.Type{types.Typ[types.String]}, Results: []types.Type{regexpT, errT}}, Args: refs(1)},
		{Op: &testcase.Op{Kind: testcase.OpCall, Name: "(*bluemonday.Policy).AllowElementsMatching", Method: true, Params: []types.Type{policyT, regexpT}}, Args: refs(0, 2)},
		{Op: &testcase.Op{Kind: testcase.OpCall, Name: "(*bluemonday.Policy).Sanitize", Method: true, Params: []types.Type{policyT, types.Typ[types.String]}, API: true}, Args: refs(0, 1)},
	}}
	failed := &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: testcase.Ref{Stmt: 2}, Kind: testcase.ObsNil},
		{Ref: testcase.Ref{Stmt: 2, Result: 1}, Kind: testcase.ObsError, Text: "missing closing ]"},
	}}
	assert.Equal(t, "argument 1 of (*bluemonday.Policy).AllowElementsMatching, which ran before, is given the nil result of regexp.Compile, which returned an error",
		Misused(nil, test, 4, NilDereference, "", "", failed))
	assert.Equal(t, "", Misused(nil, test, 4, NilDereference, "", "", nil), "nothing observed")
	nilOnly := &testcase.Outcome{Observations: []testcase.Observation{{Ref: testcase.Ref{Stmt: 2}, Kind: testcase.ObsNil}}}
	assert.Equal(t, "", Misused(nil, test, 4, NilDereference, "", "", nilOnly), "a nil without an error may be a value to use")
}

// A hang in a call that takes one value twice, or a value and one built
// from it (bufio.NewReader(buffer), buffer), or whose argument a call
// that took one value twice built (io.TeeReader(buffer, buffer)), is the
// test's doing; the same value as two numbers, or two buffers, is not.
func TestPassedTwice(t *testing.T) {
	bufT := types.NewPointer(types.NewStruct(nil, nil))
	readerT := types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "Read", types.NewSignatureType(nil, nil, nil, nil, nil, false))}, nil)
	writerT := types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "Write", types.NewSignatureType(nil, nil, nil, nil, nil, false))}, nil)
	newBuffer := &testcase.Op{Kind: testcase.OpCall, Name: "bytes.NewBufferString", Params: []types.Type{types.Typ[types.String]}, Results: []types.Type{bufT}}
	tee := &testcase.Op{Kind: testcase.OpCall, Name: "io.TeeReader", Params: []types.Type{readerT, writerT}, Results: []types.Type{readerT}}
	sanitize := &testcase.Op{Kind: testcase.OpCall, Name: "(*bluemonday.Policy).SanitizeReaderToWriter", Method: true, Params: []types.Type{bufT, readerT, writerT}, API: true}
	repeat := &testcase.Op{Kind: testcase.OpCall, Name: "strings.Repeat", Params: []types.Type{types.Typ[types.String], types.Typ[types.Int]}, API: true}
	lit := func(typ types.Type, v any) testcase.Stmt {
		return testcase.Stmt{Op: &testcase.Op{Kind: testcase.OpPrim, Type: typ}, Value: v}
	}
	policy := &testcase.Op{Kind: testcase.OpCall, Name: "bluemonday.UGCPolicy", Results: []types.Type{bufT}}
	wrap := &testcase.Op{Kind: testcase.OpCall, Name: "bufio.NewReader", Params: []types.Type{readerT}, Results: []types.Type{readerT}}
	stmts := []testcase.Stmt{
		{Op: policy},                        // 0
		lit(types.Typ[types.String], "9"),   // 1
		{Op: newBuffer, Args: refs(1)},      // 2
		{Op: newBuffer, Args: refs(1)},      // 3
		{Op: tee, Args: refs(2, 2)},         // 4
		{Op: sanitize, Args: refs(0, 4, 3)}, // 5: the tee's input never ends
		{Op: sanitize, Args: refs(0, 2, 2)}, // 6: reads what it writes
		{Op: sanitize, Args: refs(0, 2, 3)}, // 7: two buffers
		{Op: repeat, Args: refs(1, 1)},      // 8: plain data
		{Op: wrap, Args: refs(2)},           // 9: reads buffer 2
		{Op: sanitize, Args: refs(0, 9, 2)}, // 10: writes what it reads
		{Op: sanitize, Args: refs(0, 9, 3)}, // 11: into another buffer
	}
	test := &testcase.Test{Stmts: stmts}
	assert.Equal(t, "io.TeeReader, which built an argument, takes the same value as argument 1 and argument 2, and may read what it writes",
		Misused(nil, test, 5, Hang, "", "", nil))
	assert.Equal(t, "the statement takes the same value as argument 1 and argument 2, and may read what it writes",
		Misused(nil, test, 6, Hang, "", "", nil))
	assert.Equal(t, "", Misused(nil, test, 7, Hang, "", "", nil), "two buffers")
	assert.Equal(t, "", Misused(nil, test, 8, Hang, "", "", nil), "a string twice")
	assert.Equal(t, "", Misused(nil, test, 6, NilDereference, "", "", nil), "only a hang")
	assert.Equal(t, "the statement takes as argument 1 a value built from its argument 2, and may read what it writes",
		Misused(nil, test, 10, Hang, "", "", nil))
	assert.Equal(t, "", Misused(nil, test, 11, Hang, "", "", nil), "a reader of one buffer, a writer of another")
}

// Any fault on a result of a call that returned an error beside it is
// misuse: golang-lru's New(-5) returns a cache with its error, and the
// cache's methods dereference the list it never made. Without the error
// observed, the fault stands.
func TestResultOfFailedCall(t *testing.T) {
	errT := types.Universe.Lookup("error").Type()
	cacheT := types.NewPointer(types.NewStruct(nil, nil))
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.Int]}, Value: int64(-5)},
		{Op: &testcase.Op{Kind: testcase.OpCall, Name: "lru.New[int, int]", Params: []types.Type{types.Typ[types.Int]}, Results: []types.Type{cacheT, errT}}, Args: refs(0)},
		{Op: &testcase.Op{Kind: testcase.OpCall, Name: "(*lru.Cache[int, int]).Purge", Method: true, Params: []types.Type{cacheT}, API: true}, Args: refs(1)},
	}}
	failed := &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: testcase.Ref{Stmt: 1}, Kind: testcase.ObsNotNil},
		{Ref: testcase.Ref{Stmt: 1, Result: 1}, Kind: testcase.ObsError, Text: "must provide a positive size"},
	}}
	assert.Equal(t, "the receiver of (*lru.Cache[int, int]).Purge is a result of lru.New[int, int], which returned an error", Misused(nil, test, 2, NilDereference, "", "", failed))
	assert.Equal(t, "the receiver of (*lru.Cache[int, int]).Purge is a result of lru.New[int, int], which returned an error", Misused(nil, test, 2, IndexOutOfRange, "", "", failed), "any fault")
	worked := &testcase.Outcome{Observations: []testcase.Observation{{Ref: testcase.Ref{Stmt: 1}, Kind: testcase.ObsNotNil}}}
	assert.Equal(t, "", Misused(nil, test, 2, NilDereference, "", "", worked))
}

// A literal that leaves an embedded interface or pointer nil hands its
// promoted methods on to nil: afero.Afero{} embeds the Fs it works on.
// One that sets it, or whose embedded field is a value, is no misuse.
func TestEmbeddedLeftNil(t *testing.T) {
	pkg := types.NewPackage("example.com/afero", "afero")
	fsT := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Fs", nil), types.NewInterfaceType([]*types.Func{
		types.NewFunc(token.NoPos, pkg, "Stat", types.NewSignatureType(nil, nil, nil, nil, nil, false))}, nil), nil)
	embedded := types.NewField(token.NoPos, pkg, "Fs", fsT, true)
	afero := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Afero", nil), types.NewStruct([]*types.Var{embedded}, nil), nil)
	named := types.NewField(token.NoPos, pkg, "Fs", fsT, false)
	holder := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "Holder", nil), types.NewStruct([]*types.Var{named}, nil), nil)
	lit := func(typ types.Type, f *types.Var) *testcase.Op {
		return &testcase.Op{Kind: testcase.OpComposite, Type: typ, Fields: []*types.Var{f}}
	}
	isDir := &testcase.Op{Kind: testcase.OpCall, Name: "(afero.Afero).IsDir", Method: true, Params: []types.Type{afero}, API: true}
	newFs := &testcase.Op{Kind: testcase.OpCall, Name: "afero.NewMemMapFs", Results: []types.Type{fsT}}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: lit(afero, embedded), Args: []testcase.Ref{testcase.Omitted}}, // 0
		{Op: isDir, Args: refs(0)},                // 1
		{Op: newFs},                               // 2
		{Op: lit(afero, embedded), Args: refs(2)}, // 3
		{Op: isDir, Args: refs(3)},                // 4
		{Op: lit(holder, named), Args: []testcase.Ref{testcase.Omitted}}, // 5
		{Op: isDir, Args: refs(5)},                                       // 6
	}}
	assert.Equal(t, "the receiver of (afero.Afero).IsDir is built from a value of afero.Afero whose embedded Fs the test left nil", Misused(nil, test, 1, NilDereference, "", "", nil))
	assert.Equal(t, "", Misused(nil, test, 4, NilDereference, "", "", nil), "the Fs is set")
	assert.Equal(t, "", Misused(nil, test, 6, NilDereference, "", "", nil), "a named field: the code may check it")
	assert.Equal(t, "", Misused(nil, test, 1, IndexOutOfRange, "", "", nil), "not an operation on nil")
}

// The Error of an error wrapper the test made without the error it wraps
// (echo's &ErrKeyAuthMissing{}) is misuse on a nil dereference; with the
// error set, or for a method other than Error and Unwrap, it is not.
func TestErrorWrapsNone(t *testing.T) {
	pkg := types.NewPackage("example.com/m/middleware", "middleware")
	errT := types.Universe.Lookup("error").Type()
	errField := types.NewField(token.NoPos, pkg, "Err", errT, false)
	wrapper := types.NewNamed(types.NewTypeName(token.NoPos, pkg, "ErrKeyAuthMissing", nil), types.NewStruct([]*types.Var{errField}, nil), nil)
	ptr := types.NewPointer(wrapper)
	strSig := types.NewSignatureType(types.NewVar(token.NoPos, pkg, "e", ptr), nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, nil, "", types.Typ[types.String])), false)
	errorFn := types.NewFunc(token.NoPos, pkg, "Error", strSig)
	wrapper.AddMethod(errorFn)
	codeFn := types.NewFunc(token.NoPos, pkg, "Code", strSig)
	wrapper.AddMethod(codeFn)
	literal := &testcase.Op{Kind: testcase.OpComposite, Ptr: true, Type: ptr, Fields: []*types.Var{errField}}
	newErr := &testcase.Op{Kind: testcase.OpCall, Name: "errors.New", Results: []types.Type{errT}}
	call := func(fn *types.Func) *testcase.Op {
		return &testcase.Op{Kind: testcase.OpCall, Name: "(*middleware.ErrKeyAuthMissing)." + fn.Name(), Method: true, Func: fn, Params: []types.Type{ptr}, Results: []types.Type{types.Typ[types.String]}}
	}
	test := func(fn *types.Func, set bool) *testcase.Test {
		args := []testcase.Ref{{Stmt: -1}}
		if set {
			args[0] = testcase.Ref{Stmt: 0}
		}
		return &testcase.Test{Stmts: []testcase.Stmt{
			{Op: newErr},
			{Op: literal, Args: args},
			{Op: call(fn), Args: refs(1)},
		}}
	}
	assert.Equal(t, "the receiver of (*middleware.ErrKeyAuthMissing).Error is a middleware.ErrKeyAuthMissing the test made, whose error field Err it left nil: an error that wraps none",
		Misused(&testcase.Cluster{}, test(errorFn, false), 2, NilDereference, "", "", nil))
	assert.Equal(t, "", Misused(&testcase.Cluster{}, test(errorFn, true), 2, NilDereference, "", "", nil))
	// Set to the nil error of a call that succeeded (url.Parse("")), it
	// wraps none either.
	succeeded := &testcase.Outcome{Observations: []testcase.Observation{{Ref: testcase.Ref{Stmt: 0}, Kind: testcase.ObsNoError}}}
	assert.Equal(t, "the receiver of (*middleware.ErrKeyAuthMissing).Error is a middleware.ErrKeyAuthMissing the test made, whose error field Err it left nil: an error that wraps none",
		Misused(&testcase.Cluster{}, test(errorFn, true), 2, NilDereference, "", "", succeeded))
	assert.Equal(t, "", Misused(&testcase.Cluster{}, test(codeFn, false), 2, NilDereference, "", "", nil), "not Error or Unwrap")
}
