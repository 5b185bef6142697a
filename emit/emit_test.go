package emit_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// golden compares got with testdata/golden/name, or rewrites it with
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(fixture.Root(), "testdata", "golden", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./emit -run %s -update", t.Name())
	assert.Equal(t, string(want), string(got))
}

// shopTests are two tests of the shop's checkout package: one whose calls
// return values and errors, one that panics.
func shopTests(t *testing.T) (*testcase.Cluster, []emit.Test) {
	t.Helper()
	dir := fixture.Copy(t, "shop")
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./checkout", "./pricing")
	require.NoError(t, err)
	c := testcase.NewCluster(a, 4)
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
func TestFile(t *testing.T) {
	c, tests := shopTests(t)
	for _, tc := range []struct {
		name    string
		dialect emit.Dialect
	}{
		{"emit.shop.testify.golden", emit.Testify},
		{"emit.shop.std.golden", emit.Std},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := emit.File(c, tests, emit.Options{
				Package: "checkout_test", Header: "Written by the emit tests.", Dialect: tc.dialect,
				MaxEndAsserts: 4, GoVersion: "go1.22", Declared: map[string]bool{"mustPanic": true},
			})
			require.NoError(t, err)
			golden(t, tc.name, src)
		})
	}
}
