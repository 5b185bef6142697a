package fault_test

import (
	"context"
	"go/token"
	"go/types"
	"testing"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/fault"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/harness/harnesstest"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/testcase"
	"github.com/cling-go/cling/testcase/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pair is the faults fixture's catalog and store, analysed, with their
// cluster and a running executor.
type pair struct {
	a *couple.Analysis
	c *testcase.Cluster
	x *harness.Executor
}

func setup(t *testing.T) pair {
	t.Helper()
	p := harnesstest.Build(t, "faults", "./catalog", "./store")
	x := p.Executor(t, harness.Options{Workers: 1, Timeout: 300 * time.Millisecond, Reproducible: true})
	return pair{p.A, p.C, x}
}

// site finds the call site of the pair at line of the caller's file.
func (p pair) site(t *testing.T, line int) *couple.CallSite {
	for _, s := range p.a.Sites {
		if p.a.Prog.Fset.Position(s.Pos).Line == line {
			return s
		}
	}
	t.Fatalf("no call site on line %d", line)
	return nil
}

// The collector classifies what the executor reports for each seeded
// fault of the fixture exactly: the kind, the innermost frame of the
// module's code and the call site; the misuses and the explicit panic are
// counted apart, and a fault seen twice is one fault.
func TestCollectorOnSeededFaults(t *testing.T) {
	p := setup(t)
	s := testscript.New(t, p.c)
	cat := testscript.Result{}
	newCatalog := testscript.Call("catalog.New", "shop", 2)
	call := func(m string, args ...any) testscript.Step {
		return testscript.Call("(*catalog.Catalog)."+m, append([]any{cat}, args...)...)
	}
	tests := []*testcase.Test{
		s.Test(newCatalog, call("Pick", 0)),
		s.Test(newCatalog, call("Recent", 0)),
		s.Test(newCatalog, call("Feature", "new")),
		s.Test(testscript.Call("catalog.Difficulty", 0)),
		s.Test(newCatalog, call("Announce", 200)),
		s.Test(newCatalog, testscript.Call("nil *catalog.Catalog"), call("Merge", testscript.Result{Step: 1})),
		s.Test(testscript.Call("&{} catalog.Catalog", "x"), call("Add", "tea", "")),
		s.Test(newCatalog, call("Restock", "tea", "many")),
		s.Test(newCatalog, call("Add", "tea", ""), call("Pick", 1)),
		s.Test(newCatalog, call("Announce", 1), call("Merge", cat)),
	}
	res, err := p.x.Run(context.Background(), tests, false)
	require.NoError(t, err)
	col := fault.NewCollector(p.a, p.c)
	col.Observe(tests, res)

	type want struct {
		kind  fault.Kind
		where string
		site  int // the line of the call site in catalog/catalog.go
		seen  int
	}
	wants := []want{
		{fault.IndexOutOfRange, "store/store.go:47", 61, 2},
		{fault.IndexOutOfRange, "store/store.go:47", 53, 1},
		{fault.NilMapWrite, "store/store.go:74", 69, 1},
		{fault.Hang, "store/store.go", 83, 1},
		{fault.Leak, "store/store.go:100", 96, 1},
	}
	got := col.Faults()
	require.Len(t, got, len(wants))
	for i, w := range wants {
		f := got[i]
		assert.Equal(t, w.kind, f.Kind, "fault %d", i)
		assert.Contains(t, col.Locator().RelPos(f.Frame), w.where, "fault %d", i)
		require.NotNil(t, f.Site, "fault %d", i)
		assert.Equal(t, p.site(t, w.site), f.Site, "fault %d", i)
		assert.Equal(t, w.seen, f.Seen, "fault %d", i)
	}
	assert.Equal(t, "example.com/faults/store.Steps", got[3].Frame.Func)
	assert.Equal(t, tests[0], got[0].Test, "the shorter of the two tests")
	assert.Equal(t, 2, col.Misuse(), "Merge(nil), and Add on a literal that bypasses catalog.New")
	assert.Equal(t, 1, col.ExplicitPanics())
	assert.Empty(t, col.Slow())

	for _, g := range p.a.Goals {
		line := p.a.Prog.Fset.Position(g.Site.Pos).Line
		assert.Equal(t, line == 61 || line == 53 || line == 69 || line == 83 || line == 96, col.Open(int32(g.Index)), "goal %d at line %d", g.Index, line)
	}
}

// A crash in E that the test reached by calling E itself is no fault of
// the pair: it is counted apart. The same crash through R's call site, or
// in E called directly on a value R made, stays a fault.
func TestCollectorOutsidePair(t *testing.T) {
	p := setup(t)
	s := testscript.New(t, p.c)
	newCatalog := testscript.Call("catalog.New", "shop", 2)
	tests := []*testcase.Test{
		s.Test(testscript.Call("store.NewRing", 1), testscript.Call("(*store.Ring).Get", testscript.Result{}, 0)),
		s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Pick", testscript.Result{}, 0)),
		s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Tags", testscript.Result{}), testscript.Call("(*store.Index).Bump", testscript.Result{Step: 1}, "tea")),
		// The count Import returns is R's, but only a number: Get's
		// failure on it is still the test's direct call of E.
		s.Test(newCatalog, testscript.Call("store.NewRing", 1),
			testscript.Call("(*catalog.Catalog).Import", testscript.Result{}, testscript.Result{Step: 1}),
			testscript.Call("(*store.Ring).Get", testscript.Result{Step: 1}, testscript.Result{Step: 2})),
	}
	res, err := p.x.Run(context.Background(), tests, false)
	require.NoError(t, err)
	for i, r := range res {
		require.Equal(t, harness.Panicked, r.Status, "test %d: %s", i, r.Message)
	}
	col := fault.NewCollector(p.a, p.c)
	col.Observe(tests, res)
	faults := col.Faults()
	require.Len(t, faults, 2)
	assert.Equal(t, fault.IndexOutOfRange, faults[0].Kind)
	assert.Equal(t, p.site(t, 61), faults[0].Site)
	assert.Equal(t, fault.NilMapWrite, faults[1].Kind)
	assert.Same(t, tests[2], faults[1].Test)
	assert.Equal(t, 1, col.Outside(), "Get called by the test on its own ring, twice")
	assert.Zero(t, col.Misuse())

	direct := col.Describe(tests[0], res[0], fault.IndexOutOfRange)
	require.NotNil(t, direct)
	assert.Equal(t, "store.(*Ring).Get ran no code of catalog and was given no value it made", col.Locator().Outside(tests[0], direct))
}

// The misuse rule, case by case, on the statements the fixture's tests
// fail at.
func TestMisused(t *testing.T) {
	p := setup(t)
	s := testscript.New(t, p.c)
	cat := testscript.Result{}
	newCatalog := testscript.Call("catalog.New", "shop", 2)
	cases := []struct {
		name string
		test *testcase.Test
		step int
		kind fault.Kind
		out  *testcase.Outcome
		want string
	}{
		{"nil argument", s.Test(newCatalog, testscript.Call("nil *catalog.Catalog"), testscript.Call("(*catalog.Catalog).Merge", cat, testscript.Result{Step: 1})), 2, fault.NilDereference, nil,
			"argument 1 of (*catalog.Catalog).Merge is nil"},
		{"nil argument, not a nil fault", s.Test(newCatalog, testscript.Call("nil *catalog.Catalog"), testscript.Call("(*catalog.Catalog).Merge", cat, testscript.Result{Step: 1})), 2, fault.IndexOutOfRange, nil,
			""},
		{"literal receiver", s.Test(testscript.Call("&{} catalog.Catalog", "x"), testscript.Call("(*catalog.Catalog).Feature", cat, "a")), 1, fault.NilDereference, nil,
			"the receiver of (*catalog.Catalog).Feature is a catalog.Catalog literal, not made by a constructor"},
		{"valid use", s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Feature", cat, "a")), 1, fault.NilMapWrite, nil,
			""},
		{"literal of a type a method of another type makes", s.Test(testscript.Call("{} catalog.Snapshot"), testscript.Call("(catalog.Snapshot).First", testscript.Result{})), 1, fault.IndexOutOfRange, nil,
			"the receiver of (catalog.Snapshot).First is a catalog.Snapshot literal, not made by a constructor"},
		{"literal of a type handed out in a field of a result", s.Test(testscript.Call("{} catalog.Label", "x"), testscript.Call("(catalog.Label).Word", testscript.Result{})), 1, fault.IndexOutOfRange, nil,
			"the receiver of (catalog.Label).Word is a catalog.Label literal, not made by a constructor"},
		{"literal of a type that embeds one with unexported fields", s.Test(testscript.Call("&{} catalog.Label", "x"), testscript.Call("&{} catalog.Heading", testscript.Result{}, 1), testscript.Call("(*catalog.Heading).Lead", testscript.Result{Step: 1})), 2, fault.IndexOutOfRange, nil,
			"the receiver of (*catalog.Heading).Lead is a catalog.Heading literal, not made by a constructor"},
		{"a constructor's value with a field set to a literal", s.Test(testscript.Call("catalog.NewHeading", "a", 1), testscript.Call("&{} catalog.Label", "x"), testscript.Call("*catalog.Heading.Label =", testscript.Result{}, testscript.Result{Step: 1}), testscript.Call("(*catalog.Heading).Lead", testscript.Result{})), 3, fault.IndexOutOfRange, nil,
			"the receiver of (*catalog.Heading).Lead has its field Label set to a catalog.Label literal, not made by a constructor"},
		{"the heading NewHeading made", s.Test(testscript.Call("catalog.NewHeading", "a b", 1), testscript.Call("(*catalog.Heading).Lead", testscript.Result{})), 1, fault.IndexOutOfRange, nil,
			""},
		{"the snapshot the catalog made", s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Snapshot", cat), testscript.Call("(catalog.Snapshot).First", testscript.Result{Step: 1})), 2, fault.IndexOutOfRange, nil,
			""},
		{"nil result of a failed call", s.Test(testscript.Call("catalog.Open", "", 1), testscript.Call("(*catalog.Catalog).Feature", cat, "a")), 1, fault.NilDereference,
			&testcase.Outcome{Observations: []testcase.Observation{
				{Ref: testcase.Ref{Stmt: 2}, Kind: testcase.ObsNil},
				{Ref: testcase.Ref{Stmt: 2, Result: 1}, Kind: testcase.ObsError, Text: "catalog: no name"},
			}},
			"the receiver of (*catalog.Catalog).Feature is the nil result of catalog.Open, which returned an error"},
		{"nil result of a call that returned no error", s.Test(testscript.Call("catalog.Open", "", 1), testscript.Call("(*catalog.Catalog).Feature", cat, "a")), 1, fault.NilDereference,
			&testcase.Outcome{Observations: []testcase.Observation{{Ref: testcase.Ref{Stmt: 2}, Kind: testcase.ObsNil}}},
			"the receiver of (*catalog.Catalog).Feature is the nil result of catalog.Open"},
		{"a result of a call, not observed", s.Test(testscript.Call("catalog.Open", "", 1), testscript.Call("(*catalog.Catalog).Feature", cat, "a")), 1, fault.NilDereference, nil,
			""},
		{"leak, a feed closed at the end", s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Follow", cat)), -1, fault.Leak, nil,
			""},
		{"leak, a feed not closed", withoutReleases(s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Follow", cat))), -1, fault.Leak, nil,
			"the *store.Feed made by (*catalog.Catalog).Follow is never released (Close is not called)"},
		{"leak, a feed closed", s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Follow", cat), testscript.Call("(*store.Feed).Close", testscript.Result{Step: 1})), -1, fault.Leak, nil,
			""},
		{"leak, one of two feeds closed", withoutReleases(s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Follow", cat), testscript.Call("(*catalog.Catalog).Follow", cat), testscript.Call("(*store.Feed).Close", testscript.Result{Step: 1}))), -1, fault.Leak, nil,
			"the *store.Feed made by (*catalog.Catalog).Follow is never released (Close is not called)"},
		{"leak, the close never ran", withoutReleases(s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Follow", cat), testscript.Call("(*catalog.Catalog).Restock", cat, "tea", "many"), testscript.Call("(*store.Feed).Close", testscript.Result{Step: 1}))), 2, fault.Leak, nil,
			"the *store.Feed made by (*catalog.Catalog).Follow is never released (Close is not called)"},
		{"leak, nothing to release", s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Announce", cat, 200)), -1, fault.Leak, nil,
			""},
	}
	ops := len(p.c.Ops)
	for _, tc := range cases {
		stmt := tc.step
		if stmt >= 0 {
			stmt = testscript.Stmt(tc.test, tc.step)
		}
		assert.Equal(t, tc.want, fault.Misused(p.c, tc.test, stmt, tc.kind, "", "", tc.out), tc.name)
	}
	// The executor is built before the search with the cluster's
	// operations: classifying may not add any that a later test could
	// call.
	assert.Equal(t, ops, len(p.c.Ops), "operations added while classifying")
}

// withoutReleases returns a copy of t whose calls release nothing at the
// end, as if the types' release methods were not ones the executor calls
// (a Close that takes arguments, a Cancel).
func withoutReleases(t *testcase.Test) *testcase.Test {
	c := t.Clone()
	for i := range c.Stmts {
		op := *c.Stmts[i].Op
		op.Releases = nil
		c.Stmts[i].Op = &op
	}
	return c
}

// Rule 11 on a real cluster: constructs' caller calls Shape.Area itself, so
// a failure in a test's own call of it, or in a call that takes what such
// a call returned or was given, is misuse; the same statement without such
// a call before it is not.
func TestMisusedDrivenStep(t *testing.T) {
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: fixture.Copy(t, "constructs")}, "./caller", "./callee")
	require.NoError(t, err)
	c := testcase.NewCluster(a, 4)
	shape := c.Caller.Types.Scope().Lookup("Shape").Type()
	obj, _, _ := types.LookupFieldOrMethod(shape, true, nil, "Area")
	area := &testcase.Op{Kind: testcase.OpCall, Name: "(caller.Shape).Area", Method: true, Func: obj.(*types.Func), Params: []types.Type{shape}, Results: []types.Type{types.Typ[types.Int]}}
	shapes := &testcase.Op{Kind: testcase.OpCall, Name: "caller.DefaultShapes", API: true, Results: []types.Type{types.NewSlice(shape)}}
	index := &testcase.Op{Kind: testcase.OpCall, Name: "caller.Largest", API: true, Params: []types.Type{types.NewSlice(shape)}}
	first := &testcase.Op{Kind: testcase.OpCall, Name: "caller.First", API: true, Params: []types.Type{types.NewSlice(shape)}, Results: []types.Type{shape}}
	self := &testcase.Test{Stmts: []testcase.Stmt{{Op: shapes}, {Op: first, Args: []testcase.Ref{{Stmt: 0}}}, {Op: area, Args: []testcase.Ref{{Stmt: 1}}}}}
	assert.Equal(t, "the test called (caller.Shape).Area, which caller calls itself, in an order of its own", fault.Misused(c, self, 2, fault.IndexOutOfRange, "", "", nil))
	given := &testcase.Test{Stmts: []testcase.Stmt{{Op: shapes}, {Op: first, Args: []testcase.Ref{{Stmt: 0}}}, {Op: area, Args: []testcase.Ref{{Stmt: 1}}}, {Op: index, Args: []testcase.Ref{{Stmt: 0}}}}}
	assert.Equal(t, "", fault.Misused(c, given, 3, fault.IndexOutOfRange, "", "", nil), "Area took a shape, not the slice Largest takes")
	given.Stmts[3].Args[0] = testcase.Ref{Stmt: 1}
	index.Params[0] = shape
	assert.Equal(t, "it takes a value the test gave (caller.Shape).Area, a step of caller's own that the test took itself", fault.Misused(c, given, 3, fault.IndexOutOfRange, "", "", nil))
	result := &testcase.Test{Stmts: []testcase.Stmt{{Op: shapes}, {Op: first, Args: []testcase.Ref{{Stmt: 0}}}, {Op: area, Args: []testcase.Ref{{Stmt: 1}}}, {Op: index, Args: []testcase.Ref{{Stmt: 2}}}}}
	assert.Equal(t, "it takes what (caller.Shape).Area returned, a step of caller's own that the test took itself", fault.Misused(c, result, 3, fault.IndexOutOfRange, "", "", nil))
	none := &testcase.Test{Stmts: []testcase.Stmt{{Op: shapes}, {Op: first, Args: []testcase.Ref{{Stmt: 0}}}, {Op: index, Args: []testcase.Ref{{Stmt: 1}}}}}
	assert.Equal(t, "", fault.Misused(c, none, 2, fault.IndexOutOfRange, "", "", nil))
}

// A literal of another package's struct type that leaves one of its
// pointer, interface, func or map fields nil is no value that package
// would hand out: &io.LimitedReader{N: 8} without its R, read by the
// code under test. A literal of R's own type that does so is left to the
// other rules: R may be meant to check the field.
func TestMisusedLiteralOfAnotherPackage(t *testing.T) {
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: fixture.Copy(t, "constructs")}, "./caller", "./callee")
	require.NoError(t, err)
	c := testcase.NewCluster(a, 4)
	ioPkg := types.NewPackage("io", "io")
	readerT := types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, ioPkg, "Read", types.NewSignatureType(nil, nil, nil, nil, nil, false))}, nil)
	r := types.NewField(token.NoPos, ioPkg, "R", readerT, false)
	n := types.NewField(token.NoPos, ioPkg, "N", types.Typ[types.Int64], false)
	limited := types.NewNamed(types.NewTypeName(token.NoPos, ioPkg, "LimitedReader", nil), types.NewStruct([]*types.Var{r, n}, nil), nil)
	own := types.NewNamed(types.NewTypeName(token.NoPos, c.Caller.Types, "Source", nil), types.NewStruct([]*types.Var{r, n}, nil), nil)
	read := &testcase.Op{Kind: testcase.OpCall, Name: "caller.Read", API: true, Params: []types.Type{readerT}}
	test := func(typ types.Type) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{
			{Op: &testcase.Op{Kind: testcase.OpPrim, Type: types.Typ[types.Int64]}, Value: int64(8)},
			{Op: &testcase.Op{Kind: testcase.OpComposite, Type: types.NewPointer(typ), Ptr: true, Fields: []*types.Var{r, n}}, Args: []testcase.Ref{testcase.Omitted, {Stmt: 0}}},
			{Op: read, Args: []testcase.Ref{{Stmt: 1}}},
		}}
	}
	assert.Equal(t, "argument 1 of caller.Read is built from a value of io.LimitedReader whose field R the test left nil", fault.Misused(c, test(limited), 2, fault.NilDereference, "", "", nil))
	assert.Equal(t, "", fault.Misused(c, test(own), 2, fault.NilDereference, "", "", nil))
}

// A stack overflow is one fault per recursion, whatever function the
// stack ran out in: the function that recurs most (closures and range
// bodies counted as theirs) names it, the call site that entered it is
// its site, and two runs that ran out at different places are the same
// fault.
func TestStackOverflowIsTheRecursion(t *testing.T) {
	p := setup(t)
	s := testscript.New(t, p.c)
	test := s.Test(testscript.Call("catalog.Difficulty", 0))
	overflow := func(stack string) harness.Result {
		return harness.Result{Status: harness.Crashed, Message: "fatal error: stack overflow", Stmt: -1, Stack: stack}
	}
	const m = "example.com/faults/store."
	cycle := m + "(*Index).Add /m/store/store.go:60\n" +
		m + "(*Index).Bump.func1 /m/store/store.go:71\n" +
		m + "(*Index).Add /m/store/store.go:62\n" +
		m + "(*Index).Bump-range1 /m/store/store.go:72\n" +
		m + "(*Index).Add /m/store/store.go:62\n" +
		m + "(*Index).Bump /m/store/store.go:70\n" +
		"example.com/faults/catalog.(*Catalog).Feature " + p.a.Prog.Fset.Position(p.site(t, 69).Pos).Filename + ":69\n"
	col := fault.NewCollector(p.a, p.c)
	inLeaf := col.Describe(test, overflow(m+"NewIndex /m/store/store.go:56\n"+cycle), fault.StackOverflow)
	inCycle := col.Describe(test, overflow(cycle), fault.StackOverflow)
	require.NotNil(t, inLeaf)
	require.NotNil(t, inCycle)
	// Add and Bump recur three times each; Bump's innermost frame is
	// outermost, the cycle's entry.
	assert.Equal(t, fault.Frame{Func: m + "(*Index).Bump.func1", File: "/m/store/store.go", Line: 71}, inLeaf.Frame)
	assert.Equal(t, inLeaf.Key(), inCycle.Key())
	assert.Equal(t, m+"(*Index).Bump", inLeaf.Key().Where)
	// The call site is the one that entered the recursion, not one of
	// the calls inside it.
	assert.Equal(t, p.site(t, 69), inLeaf.Site)

	// Without a function that recurs it is the innermost frame, by line.
	once := col.Describe(test, overflow(m+"NewIndex /m/store/store.go:56\n"+m+"Steps /m/store/store.go:85\n"), fault.StackOverflow)
	require.NotNil(t, once)
	assert.Equal(t, m+"NewIndex", once.Frame.Func)
}
