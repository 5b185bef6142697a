package emit_test

import (
	"math"
	"testing"

	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/internal/golden"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/require"
)

// opNamed returns the cluster's operation of the given name.
func opNamed(t *testing.T, c *testcase.Cluster, name string) *testcase.Op {
	t.Helper()
	for _, o := range c.Ops {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("no op %q in the cluster", name)
	return nil
}

// ref is the first result of statement i; res the k-th.
func ref(i int) testcase.Ref    { return testcase.Ref{Stmt: i} }
func res(i, k int) testcase.Ref { return testcase.Ref{Stmt: i, Result: k} }

// noErr observes that result k of statement i is a nil error.
func noErr(i, k int) testcase.Observation {
	return testcase.Observation{Ref: res(i, k), Kind: testcase.ObsNoError}
}

// shopTests are hand-built tests of checkout calling pricing, with the
// outcomes executing them gives (the emitted files, put in a copy of the
// fixture, pass): calls with literal, composite and variadic arguments, a
// field set, an error result, and two panics.
func shopTests(t *testing.T, c *testcase.Cluster) []emit.Test {
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	str := func(s string) testcase.Stmt { return testcase.Stmt{Op: op("lit string"), Value: s} }
	num := func(n int64) testcase.Stmt { return testcase.Stmt{Op: op("lit int"), Value: n} }
	cents := func(n int64) testcase.Stmt { return testcase.Stmt{Op: op("lit int64"), Value: n} }
	call := func(name string, args ...testcase.Ref) testcase.Stmt {
		return testcase.Stmt{Op: op(name), Args: args}
	}
	moneyText := func(i int, field, text string) testcase.Observation {
		return testcase.Observation{Ref: ref(i), Path: "." + field + ".String()", Kind: testcase.ObsString, Text: text}
	}
	nilDeref := "runtime error: invalid memory address or nil pointer dereference"
	return []emit.Test{{
		Name: "TestCheckoutPercentOff",
		Comment: "Ten percent off three apples at 2.50 EUR: the rule applies at the cart's only line, " +
			"so the checkout's quote carries a discount, and the default shipping policy charges its base price.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ str("EUR"),
			/* 1 */ call("checkout.NewCart", ref(0)),
			/* 2 */ str("apple"),
			/* 3 */ num(3),
			/* 4 */ cents(250),
			/* 5 */ call("(*checkout.Cart).AddItem", ref(1), ref(2), ref(3), ref(4)),
			/* 6 */ call("inventory.NewStock"),
			/* 7 */ num(10),
			/* 8 */ call("(*inventory.Stock).Add", ref(6), ref(2), ref(7)),
			/* 9 */ num(10),
			/* 10 */ call("{} pricing.PercentOff", ref(2), ref(9)),
			/* 11 */ call("slice []pricing.Rule", ref(10)),
			/* 12 */ call("pricing.NewEngine", ref(11)),
			/* 13 */ call("(*checkout.Cart).Checkout", ref(1), ref(6), ref(12)),
			/* 14 */ call("(*checkout.Cart).ItemCount", ref(1)),
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			{Ref: ref(1), Kind: testcase.ObsNotNil}, noErr(1, 1),
			noErr(5, 0),
			{Ref: ref(6), Kind: testcase.ObsNotNil},
			noErr(8, 0),
			{Ref: ref(12), Kind: testcase.ObsNotNil},
			{Ref: ref(13), Path: ".Lines", Kind: testcase.ObsLen, Text: "1"},
			moneyText(13, "Subtotal", "7.50 EUR"), moneyText(13, "Discount", "0.75 EUR"),
			moneyText(13, "Shipping", "4.95 EUR"), moneyText(13, "Total", "11.70 EUR"),
			noErr(13, 1),
			{Ref: ref(14), Kind: testcase.ObsInt, Text: "3"},
		}},
	}, {
		Name:    "TestNewCartUnknownCurrency",
		Comment: "An unknown currency is an error, and the nil cart it leaves panics when used.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ str("XYZ"),
			/* 1 */ call("checkout.NewCart", ref(0)),
			/* 2 */ str(`say "cheese"`),
			/* 3 */ num(1),
			/* 4 */ cents(math.MaxInt64),
			/* 5 */ call("(*checkout.Cart).AddItem", ref(1), ref(2), ref(3), ref(4)),
		}},
		Outcome: &testcase.Outcome{
			Observations: []testcase.Observation{
				{Ref: ref(1), Kind: testcase.ObsNil},
				{Ref: res(1, 1), Kind: testcase.ObsError, Text: `money: unknown currency: "XYZ"`},
			},
			Panicked: true, PanicStmt: 5, PanicText: nilDeref, PanicIsError: true,
		},
	}, {
		Name:    "TestShippingPolicyThenNegativeMoney",
		Comment: "A cart with its own shipping policy; a negative amount makes money.MustNew panic, so the checkout after it never runs.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ str("GBP"),
			/* 1 */ call("checkout.NewCart", ref(0)),
			/* 2 */ cents(300),
			/* 3 */ num(500),
			/* 4 */ cents(250),
			/* 5 */ call("{} checkout.ShippingPolicy", testcase.Omitted, ref(2), testcase.Omitted, testcase.Omitted, ref(3), ref(4)),
			/* 6 */ call("*checkout.Cart.Shipping =", ref(1), ref(5)),
			/* 7 */ str("pear"),
			/* 8 */ num(4),
			/* 9 */ cents(1000),
			/* 10 */ call("(*checkout.Cart).AddItem", ref(1), ref(7), ref(8), ref(9)),
			/* 11 */ call("(*checkout.Cart).Weight", ref(1)),
			/* 12 */ cents(-5),
			/* 13 */ call("money.MustNew", ref(12), ref(0)),
			/* 14 */ call("nil *inventory.Stock"),
			/* 15 */ call("nil *pricing.Engine"),
			/* 16 */ call("(*checkout.Cart).Checkout", ref(1), ref(14), ref(15)),
		}},
		Outcome: &testcase.Outcome{
			Observations: []testcase.Observation{
				{Ref: ref(1), Kind: testcase.ObsNotNil}, noErr(1, 1),
				noErr(10, 0),
				{Ref: ref(11), Kind: testcase.ObsInt, Text: "1000"},
			},
			Panicked: true, PanicStmt: 13, PanicText: "money: negative amount: -5", PanicIsError: true,
		},
	}}
}

// personcarTests are hand-built tests of person calling car: an
// assertion on the state a call left behind, and a panic whose value the
// outcome does not keep (as when two executions panicked with different
// messages: Stable keeps the panic, not its text).
func personcarTests(t *testing.T, c *testcase.Cluster) []emit.Test {
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	return []emit.Test{{
		Name:    "TestDriveToHomeRefuels",
		Comment: "A diligent driver with 30 litres refuels the car to a full tank.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			{Op: op("lit int"), Value: int64(30)},
			{Op: op("&{} car.Car"), Args: []testcase.Ref{ref(0)}},
			{Op: op("lit bool"), Value: false},
			{Op: op("&{} person.Person"), Args: []testcase.Ref{ref(1), ref(2)}},
			{Op: op("(*person.Person).DriveToHome"), Args: []testcase.Ref{ref(3)}},
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			{Ref: ref(1), Path: ".FuelAmount", End: true, Kind: testcase.ObsInt, Text: "100"},
		}},
	}, {
		Name: "TestDriveToHomeWithoutCar",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			{Op: op("&{} person.Person"), Args: []testcase.Ref{testcase.Omitted, testcase.Omitted}},
			{Op: op("(*person.Person).DriveToHome"), Args: []testcase.Ref{ref(0)}},
		}},
		Outcome: &testcase.Outcome{Panicked: true, PanicStmt: 1},
	}}
}

// configTests are hand-built tests of config decoding into values the
// test declares or points to: a tagged struct type of its own (the
// executor's item1), a map, and a struct built with a composite literal,
// each observed at the end.
func configTests(t *testing.T, c *testcase.Cluster) []emit.Test {
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	doc := func(s string) testcase.Stmt { return testcase.Stmt{Op: op("lit string"), Value: s} }
	load := func(doc, target int) testcase.Stmt {
		return testcase.Stmt{Op: op("config.Load"), Args: []testcase.Ref{ref(doc), ref(target)}}
	}
	end := func(i int, path string, kind testcase.ObsKind, text string) testcase.Observation {
		return testcase.Observation{Ref: ref(i), Path: path, End: true, Kind: kind, Text: text}
	}
	return []emit.Test{{
		Name:    "TestLoadTaggedStruct",
		Comment: "Three lines fill three fields of a tagged struct; the required attrs line is missing.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ doc("name=tea\ncount=3\nenabled=true"),
			/* 1 */ {Op: op("&var item1")},
			/* 2 */ load(0, 1),
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			{Ref: ref(2), Kind: testcase.ObsError, Text: "decode: missing attrs"},
			end(1, ".Name", testcase.ObsString, "tea"),
			end(1, ".Count", testcase.ObsInt, "3"),
			end(1, ".Enabled", testcase.ObsBool, "true"),
		}},
	}, {
		Name: "TestLoadMap",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ doc("a=1\nb=2"),
			/* 1 */ {Op: op("&var map[string]int")},
			/* 2 */ load(0, 1),
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			noErr(2, 0),
			end(1, "*", testcase.ObsLen, "2"),
		}},
	}, {
		Name: "TestLoadIntoComposite",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ {Op: op("lit int"), Value: int64(5)},
			/* 1 */ {Op: op("&{} item3"), Args: []testcase.Ref{ref(0), testcase.Omitted, testcase.Omitted, testcase.Omitted}},
			/* 2 */ doc("value=7"),
			/* 3 */ load(2, 1),
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			{Ref: ref(3), Kind: testcase.ObsError, Text: "decode: missing next"},
			end(1, ".Value", testcase.ObsInt, "7"),
		}},
	}}
}

// reportTests is a hand-built test of report writing levels into a
// strings.Builder the test passed in: what the builder holds at the end
// is asserted by its String method.
func reportTests(t *testing.T, c *testcase.Cluster) []emit.Test {
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	return []emit.Test{{
		Name:    "TestLinesWriteLevels",
		Comment: "One known level name and one unknown, one line each.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ {Op: op("&{} strings.Builder")},
			/* 1 */ {Op: op("lit string"), Value: "warn"},
			/* 2 */ {Op: op("lit string"), Value: "nope"},
			/* 3 */ {Op: op("slice []string"), Args: []testcase.Ref{ref(1), ref(2)}},
			/* 4 */ {Op: op("report.Lines"), Args: []testcase.Ref{ref(0), ref(3)}},
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			noErr(4, 1),
			{Ref: ref(4), Kind: testcase.ObsInt, Text: "1"},
			{Ref: ref(0), Path: "String()", End: true, Kind: testcase.ObsString, Text: "1 WARN\n2 unknown\n"},
		}},
	}}
}

// filterTests is a hand-built test of calls that return short slices,
// asserted by what they hold: a []string by its elements, a []byte as
// text, and not also by their lengths.
func filterTests(t *testing.T, c *testcase.Cluster) []emit.Test {
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	return []emit.Test{{
		Name:    "TestKeptAndMask",
		Comment: "Two names, of which the filter keeps one: the kept names are asserted element by element, the mask as text.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ {Op: op("lit string"), Value: "warn"},
			/* 1 */ {Op: op("&{} filter.Filter"), Args: []testcase.Ref{testcase.Omitted, testcase.Omitted, ref(0)}},
			/* 2 */ {Op: op("lit string"), Value: `a "b"`},
			/* 3 */ {Op: op("slice []string"), Args: []testcase.Ref{ref(0), ref(2)}},
			/* 4 */ {Op: op("(*filter.Filter).Kept"), Args: []testcase.Ref{ref(1), ref(3)}},
			/* 5 */ {Op: op("(*filter.Filter).Mask"), Args: []testcase.Ref{ref(1), ref(3)}},
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			// The length of a slice whose contents are asserted is left
			// out.
			{Ref: ref(4), Kind: testcase.ObsLen, Text: "1"},
			{Ref: ref(4), Kind: testcase.ObsElems, Text: "4:warn"},
			{Ref: ref(5), Kind: testcase.ObsLen, Text: "2"},
			{Ref: ref(5), Kind: testcase.ObsBytes, Text: "10"},
		}},
	}}
}

// notifyTests are hand-built tests of notify's callbacks: function
// literals inline and in a variable, a literal of a named function type
// among variadic options, and a sentinel error.
func notifyTests(t *testing.T, c *testcase.Cluster) []emit.Test {
	op := func(name string) *testcase.Op { return opNamed(t, c, name) }
	variant := func(o *testcase.Op, body testcase.FuncBody) int {
		for k, v := range o.Variants {
			if v.Body == body {
				return k
			}
		}
		t.Fatalf("%s has no body %d", o.Name, body)
		return 0
	}
	format := op("func func(msg string) string")
	handler := op("func func(err error) bool")
	option := op("func notify.Option")
	return []emit.Test{{
		Name:    "TestSendFormatted",
		Comment: "The formatter appends to every message; an empty option does nothing.",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ {Op: format, Value: testcase.FuncLit{Variant: variant(format, testcase.BodyConcat), Const: "!"}},
			/* 1 */ {Op: op("notify.WithFormat"), Args: []testcase.Ref{ref(0)}},
			/* 2 */ {Op: option, Value: testcase.FuncLit{}},
			/* 3 */ {Op: op("slice []notify.Option"), Args: []testcase.Ref{ref(1), ref(2)}},
			/* 4 */ {Op: op("notify.New"), Args: []testcase.Ref{ref(3)}},
			/* 5 */ {Op: op("lit int"), Value: int64(1)},
			/* 6 */ {Op: op("lit string"), Value: "hi"},
			/* 7 */ {Op: op("(*notify.Notifier).Send"), Args: []testcase.Ref{ref(4), ref(5), ref(6)}},
			/* 8 */ {Op: op("(*notify.Notifier).Sent"), Args: []testcase.Ref{ref(4)}},
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			noErr(7, 0),
			{Ref: ref(8), Kind: testcase.ObsLen, Text: "1"},
		}},
	}, {
		Name: "TestFailRetry",
		Test: &testcase.Test{Stmts: []testcase.Stmt{
			/* 0 */ {Op: handler, Value: testcase.FuncLit{Variant: variant(handler, testcase.BodyConst), Const: true}},
			/* 1 */ {Op: op("notify.WithErrorHandler"), Args: []testcase.Ref{ref(0)}},
			/* 2 */ {Op: op("notify.WithErrorHandler"), Args: []testcase.Ref{ref(0)}},
			/* 3 */ {Op: op("slice []notify.Option"), Args: []testcase.Ref{ref(1), ref(2)}},
			/* 4 */ {Op: op("notify.New"), Args: []testcase.Ref{ref(3)}},
			/* 5 */ {Op: op("var example.com/reflective/notify.ErrRetry")},
			/* 6 */ {Op: op("(*notify.Notifier).Fail"), Args: []testcase.Ref{ref(4), ref(5)}},
		}},
		Outcome: &testcase.Outcome{Observations: []testcase.Observation{
			{Ref: ref(6), Kind: testcase.ObsBool, Text: "true"},
		}},
	}}
}

// Emission of fixed tests with fixed outcomes, in both dialects, as golden
// files under testdata/golden/emit/: no search and no execution, so the
// file depends on the emitter alone. The std dialect's file declares
// mustPanic elsewhere, so its helper is renamed, and so is the type
// item1 where the tests declare it. Rewrite with
// go test ./emit -run Golden -update.
func TestEmitGolden(t *testing.T) {
	for _, fx := range []struct {
		name, fixture, caller, callee, pkg string
		tests                              func(*testing.T, *testcase.Cluster) []emit.Test
	}{
		{"shop", "shop", "./checkout", "./pricing", "checkout_test", shopTests},
		{"personcar", "personcar", "./person", "./car", "person_test", personcarTests},
		{"reflective-config", "reflective", "./config", "./decode", "config_test", configTests},
		{"reflective-notify", "reflective", "./notify", "./hooks", "notify_test", notifyTests},
		{"reflective-report", "reflective", "./report", "./level", "report_test", reportTests},
		{"reflective-filter", "reflective", "./filter", "./level", "filter_test", filterTests},
	} {
		c := cluster(t, fx.fixture, fx.caller, fx.callee)
		tests := fx.tests(t, c)
		for _, tc := range []struct {
			dialect  string
			d        emit.Dialect
			declared map[string]bool
		}{
			{"testify", emit.Testify, nil},
			{"std", emit.Std, map[string]bool{"mustPanic": true, "item1": true}},
		} {
			t.Run(fx.name+"."+tc.dialect, func(t *testing.T) {
				for _, et := range tests {
					require.NoError(t, et.Test.Valid(), et.Name)
				}
				src, err := emit.File(c, tests, emit.Options{
					Package:       fx.pkg,
					Header:        "Tests emitted from hand-built tests and outcomes.",
					Dialect:       tc.d,
					MaxEndAsserts: 4,
					GoVersion:     "go1.22",
					Declared:      tc.declared,
				})
				require.NoError(t, err)
				golden.File(t, "emit/"+fx.name+"."+tc.dialect+".go.golden", string(src))
			})
		}
	}
}
