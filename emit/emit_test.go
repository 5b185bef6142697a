package emit_test

import (
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/golden"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cluster loads a pair of a fixture and builds its cluster.
func cluster(t *testing.T, fix, caller, callee string) *testcase.Cluster {
	t.Helper()
	dir := fixture.Copy(t, fix)
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	return testcase.NewCluster(a, 4)
}

// cartTests are two tests of the shop's checkout package: one whose calls
// return values and errors, one that panics.
func cartTests(t *testing.T) (*testcase.Cluster, []emit.Test) {
	t.Helper()
	c := cluster(t, "shop", "./checkout", "./pricing")
	op := func(name string) *testcase.Op {
		for _, o := range c.Ops {
			if o.Name == name {
				return o
			}
		}
		t.Fatalf("no op %q", name)
		return nil
	}
	ref := func(stmt, result int) testcase.Ref { return testcase.Ref{Stmt: stmt, Result: result} }
	cart := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit string"), Value: "EUR"},
		{Op: op("checkout.NewCart"), Args: []testcase.Ref{ref(0, 0)}},
		{Op: op("lit string"), Value: `mug "blue"`},
		{Op: op("lit int"), Value: int64(2)},
		{Op: op("lit int64"), Value: int64(450)},
		{Op: op("(*checkout.Cart).AddItem"), Args: []testcase.Ref{ref(1, 0), ref(2, 0), ref(3, 0), ref(4, 0)}},
		{Op: op("(*checkout.Cart).ItemCount"), Args: []testcase.Ref{ref(1, 0)}},
		{Op: op("inventory.NewStock")},
		{Op: op("nil *pricing.Engine")},
		{Op: op("(*checkout.Cart).Checkout"), Args: []testcase.Ref{ref(1, 0), ref(7, 0), ref(8, 0)}},
	}}
	panics := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit string"), Value: "EUR"},
		{Op: op("checkout.NewCart"), Args: []testcase.Ref{ref(0, 0)}},
		{Op: op("nil *inventory.Stock")},
		{Op: op("nil *pricing.Engine")},
		{Op: op("(*checkout.Cart).Checkout"), Args: []testcase.Ref{ref(1, 0), ref(2, 0), ref(3, 0)}},
	}}
	for _, tc := range []*testcase.Test{cart, panics} {
		require.NoError(t, tc.Valid())
	}
	return c, []emit.Test{
		{Name: "TestCart", Test: cart, Comment: "TestCart adds an item and checks out without stock.", Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			{Ref: ref(1, 1), Kind: testcase.ObsNoError},
			{Ref: ref(5, 0), Kind: testcase.ObsNoError},
			{Ref: ref(6, 0), Kind: testcase.ObsInt, Text: "2"},
			{Ref: ref(9, 1), Kind: testcase.ObsError, Text: `checkout: reserve mug "blue": unknown sku`},
			// The other results of a failed call are not asserted ...
			{Ref: ref(9, 0), Path: ".Lines", Kind: testcase.ObsLen, Text: "0"},
			// ... but the test's values are, at its end.
			{Ref: ref(9, 0), Path: ".Total.String()", End: true, Kind: testcase.ObsString, Text: "EUR 0.00"},
			// A String text the executor saw is asserted only where the
			// variable's type has the method (a *checkout.Cart has not).
			{Ref: ref(1, 0), Path: "String()", End: true, Kind: testcase.ObsString, Text: "cart"},
		}}},
		{Name: "TestPanics", Test: panics, Outcome: &testcase.Outcome{
			Observations: []testcase.Observation{{Ref: ref(1, 1), Kind: testcase.ObsNoError}},
			Panicked:     true, PanicStmt: 4, PanicIsError: true,
			PanicText: "runtime error: invalid memory address or nil pointer dereference",
		}},
	}
}

// The same tests in both dialects; in the standard library's, the panic
// helper takes a name the package's other test files leave free.
func TestFileGolden(t *testing.T) {
	c, tests := cartTests(t)
	for _, tc := range []struct {
		name    string
		dialect emit.Dialect
	}{
		{"emit/cart.testify.go.golden", emit.Testify},
		{"emit/cart.std.go.golden", emit.Std},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := emit.File(c, tests, emit.Options{
				Package: "checkout_test", Header: "Written by the emit tests.", Dialect: tc.dialect,
				MaxEndAsserts: 4, GoVersion: "go1.22", Declared: map[string]bool{"mustPanic": true},
			})
			require.NoError(t, err)
			golden.File(t, tc.name, string(src))
		})
	}
}

// Render tells where each assertion of the file is: the lines of the
// statement, its test and what it asserts (an observation, or the panic).
// An observation the emitter leaves out (a result of a failed call) has
// no assertion.
func TestRenderPlacesAssertions(t *testing.T) {
	c, tests := cartTests(t)
	obs := tests[0].Outcome.Observations
	noErr := tests[1].Outcome.Observations[0]
	for _, tc := range []struct {
		dialect emit.Dialect
		want    []emit.Assertion
	}{
		{emit.Testify, []emit.Assertion{
			{Test: 0, From: 17, To: 17, Observation: obs[0]},
			{Test: 0, From: 19, To: 19, Observation: obs[1]},
			{Test: 0, From: 21, To: 21, Observation: obs[2]},
			{Test: 0, From: 24, To: 24, Observation: obs[3]},
			{Test: 0, From: 25, To: 25, Observation: obs[5]},
			{Test: 1, From: 30, To: 30, Observation: noErr},
			{Test: 1, From: 31, To: 31, Panic: true, PanicValue: true},
		}},
		{emit.Std, []emit.Assertion{
			{Test: 0, From: 15, To: 17, Observation: obs[0]},
			{Test: 0, From: 19, To: 21, Observation: obs[1]},
			{Test: 0, From: 23, To: 25, Observation: obs[2]},
			{Test: 0, From: 28, To: 30, Observation: obs[3]},
			{Test: 0, From: 31, To: 33, Observation: obs[5]},
			{Test: 1, From: 38, To: 40, Observation: noErr},
			{Test: 1, From: 41, To: 41, Panic: true},
		}},
	} {
		opts := emit.Options{
			Package: "checkout_test", Header: "Written by the emit tests.", Dialect: tc.dialect,
			MaxEndAsserts: 4, GoVersion: "go1.22", Declared: map[string]bool{"mustPanic": true},
		}
		r, err := emit.Render(c, tests, opts)
		require.NoError(t, err)
		src, err := emit.File(c, tests, opts)
		require.NoError(t, err)
		assert.Equal(t, string(src), string(r.Src))
		assert.Equal(t, tc.want, r.Assertions)
	}
}

// A nil receiver, or a nil object whose field is set, is written with its
// type: an untyped nil has no methods or fields.
func TestNilReceiver(t *testing.T) {
	c := cluster(t, "shop", "./checkout", "./pricing")
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	calls := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("nil *checkout.Cart")},
		{Op: op("(*checkout.Cart).ItemCount"), Args: []testcase.Ref{ref(0)}},
	}}
	sets := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("nil *checkout.Cart")},
		{Op: op("{} checkout.ShippingPolicy"), Args: []testcase.Ref{testcase.Omitted, testcase.Omitted, testcase.Omitted, testcase.Omitted, testcase.Omitted, testcase.Omitted}},
		{Op: op("*checkout.Cart.Shipping ="), Args: []testcase.Ref{ref(0), ref(1)}},
	}}
	for _, tc := range []*testcase.Test{calls, sets} {
		require.NoError(t, tc.Valid())
	}
	src, err := emit.File(c, []emit.Test{
		{Name: "TestCall", Test: calls, Outcome: &testcase.Outcome{Panicked: true, PanicStmt: 1}},
		{Name: "TestSet", Test: sets, Outcome: &testcase.Outcome{Panicked: true, PanicStmt: 2}},
		{Name: "TestCallNoPanic", Test: calls, Outcome: &testcase.Outcome{}},
	}, emit.Options{Package: "checkout_test", Dialect: emit.Testify, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.Contains(t, string(src), "\tassert.Panics(t, func() { _ = (*checkout.Cart)(nil).ItemCount() })\n")
	assert.Contains(t, string(src), "\tassert.Panics(t, func() { (*checkout.Cart)(nil).Shipping = checkout.ShippingPolicy{} })\n")
	assert.Contains(t, string(src), "\t(*checkout.Cart)(nil).ItemCount()\n")
}

// An error passed to a later call keeps a variable of its own: the err
// that checks the errors in between must not overwrite it.
func TestErrorArgumentKeepsItsVariable(t *testing.T) {
	c := cluster(t, "constructs", "./caller", "./callee")
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit string"), Value: "x"},
		{Op: op("caller.TwoResults"), Args: []testcase.Ref{ref(0)}},
		{Op: op("lit string"), Value: "1"},
		{Op: op("caller.TwoResults"), Args: []testcase.Ref{ref(2)}},
		{Op: op("caller.TypeSwitch"), Args: []testcase.Ref{res(1, 1)}},
	}}
	require.NoError(t, tc.Valid())
	src, err := emit.File(c, []emit.Test{{Name: "TestErr", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: res(1, 1), Kind: testcase.ObsError, Text: "bad"},
		noErr(3, 1),
	}}}}, emit.Options{Package: "caller_test", Dialect: emit.Testify, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.Contains(t, string(src), "\t_, err2 := caller.TwoResults(\"x\")\n\tassert.EqualError(t, err2, \"bad\")\n"+
		"\t_, err := caller.TwoResults(\"1\")\n\trequire.NoError(t, err)\n\tcaller.TypeSwitch(err2)\n")
}

// The executor observes the String method of a value's dynamic type; a
// result held as an interface without that method (callee.NewGreeter's
// Greeter) gets no String assertion, which would not compile.
func TestStringOfStaticTypeOnly(t *testing.T) {
	c := cluster(t, "constructs", "./caller", "./callee")
	c.Producers(c.Analysis().Callee.Pkg.Types.Scope().Lookup("Greeter").Type())
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit string"), Value: "en"},
		{Op: op("callee.NewGreeter"), Args: []testcase.Ref{ref(0)}},
	}}
	require.NoError(t, tc.Valid())
	src, err := emit.File(c, []emit.Test{{Name: "TestGreeter", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: ref(1), Kind: testcase.ObsNotNil},
		{Ref: ref(1), Path: "String()", Kind: testcase.ObsString, Text: "English"},
	}}}}, emit.Options{Package: "caller_test", Dialect: emit.Testify, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.Contains(t, string(src), "\tcallee.NewGreeter(\"en\")\n}\n")
}

// A nil func result is asserted without formatting the func, which vet
// rejects as a %v operand ("func value, not called") and which would fail
// the whole file under go test.
func TestNilFuncWithoutTestify(t *testing.T) {
	c := cluster(t, "constructs", "./caller", "./callee")
	pkg := c.Analysis().Callee.Pkg.Types
	hook := types.NewSignatureType(nil, nil, nil, nil, nil, false)
	sig := types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, pkg, "", hook)), false)
	op := &testcase.Op{Kind: testcase.OpCall, Name: "callee.Hook", Func: types.NewFunc(token.NoPos, pkg, "Hook", sig), Results: []types.Type{hook}, API: true}
	tc := &testcase.Test{Stmts: []testcase.Stmt{{Op: op}}}
	src, err := emit.File(c, []emit.Test{{Name: "TestHook", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: ref(0), Kind: testcase.ObsNil},
	}}}}, emit.Options{Package: "caller_test", Dialect: emit.Std, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.Contains(t, string(src), "\thook := callee.Hook()\n\tif hook != nil {\n\t\tt.Errorf(\"hook is not nil\")\n\t}\n", "a function value of no named type is named after its constructor")
}

// A String text asserted right after the call that returned the value is
// not asserted again at the end, where it is the same; a text that
// changed is.
func TestEndStringOnce(t *testing.T) {
	c := cluster(t, "cpubound", "./calc", "./lexer")
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit string"), Value: "1+2"},
		{Op: op("calc.Parse"), Args: []testcase.Ref{ref(0)}},
	}}
	require.NoError(t, tc.Valid())
	render := func(endText string) string {
		src, err := emit.File(c, []emit.Test{{Name: "TestParse", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			{Ref: res(1, 1), Kind: testcase.ObsNoError},
			{Ref: ref(1), Kind: testcase.ObsNotNil},
			{Ref: ref(1), Path: "String()", Kind: testcase.ObsString, Text: "1+2"},
			{Ref: ref(1), Path: "String()", End: true, Kind: testcase.ObsString, Text: endText},
		}}}}, emit.Options{Package: "calc_test", Dialect: emit.Testify, GoVersion: "go1.22", MaxEndAsserts: 4})
		require.NoError(t, err)
		return string(src)
	}
	assert.Equal(t, 1, strings.Count(render("1+2"), "expr.String()"))
	assert.Equal(t, 2, strings.Count(render("changed"), "expr.String()"))
}

// Deciding whether a slice can be asserted by its elements adds no
// import: a result of a failed call is not asserted, so the math its
// extreme elements would need is not imported either.
func TestSliceOfFailedCallImportsNothing(t *testing.T) {
	c := cluster(t, "reflective", "./filter", "./level")
	levels, lit, slice := opNamed(t, c, "filter.Levels"), opNamed(t, c, "lit string"), opNamed(t, c, "slice []string")
	ref := func(stmt, result int) testcase.Ref { return testcase.Ref{Stmt: stmt, Result: result} }
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: lit, Value: "nope"},
		{Op: slice, Args: []testcase.Ref{ref(0, 0)}},
		{Op: levels, Args: []testcase.Ref{ref(1, 0)}},
	}}
	require.NoError(t, tc.Valid())
	src, err := emit.File(c, []emit.Test{{Name: "TestLevels", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: ref(2, 1), Kind: testcase.ObsError, Text: "filter: unknown level nope"},
		{Ref: ref(2, 0), Kind: testcase.ObsLen, Text: "1"},
		{Ref: ref(2, 0), Kind: testcase.ObsElems, Text: "19:9223372036854775807"},
	}}}}, emit.Options{Package: "filter_test", Dialect: emit.Std, MaxEndAsserts: 4, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.NotContains(t, string(src), `"math"`)
	assert.NotContains(t, string(src), `"reflect"`)
	assert.NotContains(t, string(src), `"example.com/reflective/level"`)
	assert.Contains(t, string(src), `err.Error() != "filter: unknown level nope"`)
}

// What a standard-library call returns is asserted only when R's API has
// touched what it was made from: strconv.Quote of a literal says nothing
// of R; strconv.Quote of a string R's API was given (and could have
// changed, were it a byte slice) may.
func TestStandardSetUpAssertedOnlyAfterR(t *testing.T) {
	c := cluster(t, "cpubound", "./calc", "./lexer")
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	str := types.Typ[types.String]
	strconvPkg := types.NewPackage("strconv", "strconv")
	quoteSig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, strconvPkg, "s", str)),
		types.NewTuple(types.NewVar(token.NoPos, strconvPkg, "", str)), false)
	quote := &testcase.Op{Kind: testcase.OpCall, Name: "strconv.Quote", Func: types.NewFunc(token.NoPos, strconvPkg, "Quote", quoteSig),
		Params: []types.Type{str}, Results: []types.Type{str}}
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit string"), Value: "1+2"},
		{Op: quote, Args: []testcase.Ref{ref(0)}},
		{Op: op("lit string"), Value: "3"},
		{Op: op("calc.Parse"), Args: []testcase.Ref{ref(2)}},
		{Op: quote, Args: []testcase.Ref{ref(2)}},
	}}
	require.NoError(t, tc.Valid())
	src, err := emit.File(c, []emit.Test{{Name: "TestParse", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: ref(1), Kind: testcase.ObsString, Text: `"1+2"`},
		{Ref: res(3, 1), Kind: testcase.ObsNoError},
		{Ref: ref(4), Kind: testcase.ObsString, Text: `"3"`},
	}}}}, emit.Options{Package: "calc_test", Dialect: emit.Std, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.Contains(t, string(src), "\tstrconv.Quote(\"1+2\")\n\ts := \"3\"\n")
	assert.Contains(t, string(src), "\ts2 := strconv.Quote(s)\n\tif s2 != `\"3\"` {\n")
}

// A value nothing uses is not written, and neither are the values only it
// uses: a slice left over from a search would otherwise leave its
// elements declared and not used. The values a call uses stay.
func TestValueOnlyADeadValueUsesIsNotWritten(t *testing.T) {
	c := cluster(t, "reflective", "./filter", "./level")
	levels, lit, slice := opNamed(t, c, "filter.Levels"), opNamed(t, c, "lit string"), opNamed(t, c, "slice []string")
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: lit, Value: "dead"},
		{Op: slice, Args: []testcase.Ref{ref(0), ref(0)}},
		{Op: lit, Value: "info"},
		{Op: slice, Args: []testcase.Ref{ref(2), ref(2)}},
		{Op: levels, Args: []testcase.Ref{ref(3)}},
	}}
	require.NoError(t, tc.Valid())
	src, err := emit.File(c, []emit.Test{{Name: "TestLevels", Test: tc}}, emit.Options{Package: "filter_test", Dialect: emit.Std, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.NotContains(t, string(src), `"dead"`)
	assert.Contains(t, string(src), "\ts := \"info\"\n\tfilter.Levels([]string{s, s})\n}\n")
}

// A value the executor released at the end of the test is released by a
// deferred call right after the statement that made it and the
// assertions on it; a value it did not release gets no defer.
func TestReleasedValuesDeferTheirRelease(t *testing.T) {
	c := cluster(t, "faults", "./catalog", "./store")
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	follow := op("(*catalog.Catalog).Follow")
	require.Equal(t, []string{"Close"}, follow.Releases)
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit string"), Value: "shop"},
		{Op: op("lit int"), Value: int64(2)},
		{Op: op("catalog.New"), Args: []testcase.Ref{ref(0), ref(1)}},
		{Op: follow, Args: []testcase.Ref{ref(2)}},
		{Op: follow, Args: []testcase.Ref{ref(2)}},
		{Op: op("lit int"), Value: int64(1)},
		{Op: op("(*catalog.Catalog).Announce"), Args: []testcase.Ref{ref(2), ref(5)}},
	}}
	require.NoError(t, tc.Valid())
	src, err := emit.File(c, []emit.Test{{Name: "TestFollow", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: ref(3), Kind: testcase.ObsNotNil},
		{Ref: ref(3), End: true, Kind: testcase.ObsReleased},
	}}}}, emit.Options{Package: "catalog_test", Dialect: emit.Std, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.Contains(t, string(src), "\tc := catalog.New(\"shop\", 2)\n\tfeed := c.Follow()\n\tdefer feed.Close()\n\tc.Follow()\n\tc.Announce(1)\n}\n")
}

// A composite literal of a type with a release method is released like a
// call's result: &store.Feed{} is closed by a deferred call.
func TestReleasedLiteralsDeferTheirRelease(t *testing.T) {
	c := cluster(t, "faults", "./catalog", "./store")
	lit := c.Producers(types.NewPointer(opNamed(t, c, "store.NewFeed").Results[0].(*types.Pointer).Elem()))
	var feedLit *testcase.Op
	for _, op := range lit {
		if op.Kind == testcase.OpComposite {
			feedLit = op
		}
	}
	require.NotNil(t, feedLit)
	require.Equal(t, []string{"Close"}, feedLit.Releases)
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: feedLit},
		{Op: opNamed(t, c, "(*store.Feed).Close"), Args: []testcase.Ref{ref(0)}},
	}}
	require.NoError(t, tc.Valid())
	src, err := emit.File(c, []emit.Test{{Name: "TestFeed", Test: tc, Outcome: &testcase.Outcome{Observations: []testcase.Observation{
		{Ref: ref(0), End: true, Kind: testcase.ObsReleased},
	}}}}, emit.Options{Package: "catalog_test", Dialect: emit.Std, GoVersion: "go1.22"})
	require.NoError(t, err)
	assert.Contains(t, string(src), "\tfeed := &store.Feed{}\n\tdefer feed.Close()\n\tfeed.Close()\n}\n")
}
