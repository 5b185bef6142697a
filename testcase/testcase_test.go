package testcase_test

import (
	"go/types"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func cluster(t *testing.T, fix, caller, callee string) *testcase.Cluster {
	t.Helper()
	dir := fixture.Copy(t, fix)
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	return testcase.NewCluster(a, 4)
}

func names(ops []*testcase.Op) []string {
	var out []string
	for _, op := range ops {
		out = append(out, op.Name)
	}
	sort.Strings(out)
	return out
}

func TestClusterShop(t *testing.T) {
	c := cluster(t, "shop", "./checkout", "./pricing")
	assert.Equal(t, []string{"(*checkout.Cart).Checkout"}, names(c.Covering))
	assert.Contains(t, names(c.API), "checkout.NewCart")
	assert.Contains(t, names(c.API), "(*checkout.Cart).AddItem")
	// Values of other packages' types come from their constructors ...
	stock := c.Producers(types.NewPointer(lookup(t, c, "example.com/shop/inventory", "Stock")))
	assert.Contains(t, names(stock), "inventory.NewStock")
	// ... an interface from its implementations ...
	rules := names(c.Producers(lookup(t, c, "example.com/shop/pricing", "Rule")))
	for _, want := range []string{"{} pricing.PercentOff", "{} pricing.BuyXGetY", "{} pricing.Threshold", "nil pricing.Rule"} {
		assert.Contains(t, rules, want)
	}
	// ... and a test may set up those values with their methods.
	assert.Contains(t, names(c.Methods(types.NewPointer(lookup(t, c, "example.com/shop/inventory", "Stock")))), "(*inventory.Stock).Add")
	// Literals of R and E seed values.
	assert.Contains(t, c.Constants.Strings, "checkout: cart is empty")
	// Every op the generator may use exists before the executor is built.
	n := len(c.Ops)
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	for i := 0; i < 300; i++ {
		tc := g.RandomTest()
		require.NoError(t, tc.Valid())
		g.Mutate(tc)
		require.NoError(t, tc.Valid())
	}
	assert.Equal(t, n, len(c.Ops), "generation registered new operations")
}

// Once the executor is built (Seal), a type first asked about during the
// search gets only ops the executor has: those made after are left out.
func TestSealedClusterOffersOnlyBuiltOps(t *testing.T) {
	stock := func(c *testcase.Cluster) types.Type {
		return lookup(t, c, "example.com/shop/inventory", "Stock")
	}
	c := cluster(t, "shop", "./checkout", "./pricing")
	fresh := types.NewSlice(types.NewSlice(types.NewPointer(stock(c))))
	assert.Equal(t, []string{"nil [][]*inventory.Stock", "slice [][]*inventory.Stock"}, names(c.Producers(fresh)), "unsealed, a new type gets new ops")

	c = cluster(t, "shop", "./checkout", "./pricing")
	c.Seal()
	n := len(c.Ops)
	fresh = types.NewSlice(types.NewSlice(types.NewPointer(stock(c))))
	assert.Empty(t, c.Producers(fresh))
	assert.Nil(t, c.Target(fresh))
	assert.Greater(t, len(c.Ops), n, "the ops were made, and stay out")
	// What the executor has is still offered.
	assert.Contains(t, names(c.Producers(types.NewPointer(stock(c)))), "inventory.NewStock")
}

// A named function type takes its package's constructors as producers,
// as functional options are built (WithFormat(f) Option), and so do a
// package's interface (NewGreeter(lang) Greeter, next to the types that
// implement it) and a named map type; function literals, composite
// literals and nil remain.
func TestConstructorsOfFuncAndMapTypes(t *testing.T) {
	c := cluster(t, "reflective", "./notify", "./hooks")
	assert.Equal(t, []string{"func notify.Option", "nil notify.Option", "notify.WithErrorHandler", "notify.WithFilter", "notify.WithFormat"},
		names(c.Producers(lookup(t, c, "example.com/reflective/notify", "Option"))))
	c = cluster(t, "constructs", "./caller", "./callee")
	assert.Equal(t, []string{"callee.NewGreeter", "nil callee.Greeter", "{} callee.English", "{} callee.French"},
		names(c.Producers(c.Analysis().Callee.Pkg.Types.Scope().Lookup("Greeter").Type())))
	c = cluster(t, "reflective", "./show", "./level")
	assert.Equal(t, []string{"level.Short", "map level.Names", "nil level.Names"},
		names(c.Producers(lookup(t, c, "example.com/reflective/level", "Names"))))
}

func lookup(t *testing.T, c *testcase.Cluster, path, name string) types.Type {
	t.Helper()
	for _, op := range c.Ops {
		for _, ty := range append(op.Outputs(), op.Params...) {
			ty = deref(ty)
			if n, ok := ty.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name {
				return n
			}
		}
	}
	t.Fatalf("type %s.%s not in the cluster", path, name)
	return nil
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// Generics are instantiated with types that satisfy their constraints.
func TestClusterGenerics(t *testing.T) {
	c := cluster(t, "constructs", "./caller", "./callee")
	all := strings.Join(names(c.API), " ")
	assert.Contains(t, all, "caller.Largest[int]")
	assert.Contains(t, all, "caller.Largest[string]")
	// Type parameters constrained by types built from the others.
	assert.Contains(t, all, "caller.Last[int, []int]")
	assert.Contains(t, all, "caller.Last[string, []string]")
	assert.Contains(t, all, "caller.Size[int, int, map[int]int]")
	assert.Contains(t, all, "caller.Size[string, string, map[string]string]")
	for _, s := range c.Skipped {
		assert.NotContains(t, s.What, "caller.Largest")
		assert.NotContains(t, s.What, "caller.Last")
		assert.NotContains(t, s.What, "caller.Size")
	}
}

// Where R or E reads struct tags, a type parameter that a declared
// struct satisfies is also instantiated with one (item1): settings.Parse
// decodes into a T, and decode.Into does little with an int or a string.
// Without tag reads in R and E (constructs), the declared types stay out.
func TestClusterDeclaredTypeArgument(t *testing.T) {
	c := cluster(t, "reflective", "./settings", "./decode")
	assert.Equal(t, []string{"settings.Parse[int]", "settings.Parse[item1]", "settings.Parse[string]"}, names(c.API))
	assert.NotContains(t, strings.Join(names(cluster(t, "constructs", "./caller", "./callee").API), " "), "item1")
}

// Skipped lists what of r a test outside r can call and the cluster
// cannot, with the value it cannot build and why. Not listed: Apply,
// whose inner no test outside r can build; the methods of types that no
// exported function, method, variable or field hands out (reporter,
// stats); english's Greet, which tests call through Greeter; counter's
// Add, whose counters come from NewCounter; and the methods of the
// unexported types that methods hand out, (*counter).Snapshot's state and
// Outer.Inner's hidden (Snapshot, whose result no interface can name, is
// called through reflection); and the methods of the generic Box, called
// on Box[int] and Box[string]. The methods of the unexported cache and
// names are called on the exported Cache and Labels that embed them, Go's
// promoted methods; (*cache).Merge, whose parameter no test can name, is
// listed. A Ring[int] comes from NewRing[int].
func TestClusterSkipped(t *testing.T) {
	c := cluster(t, "skips", "./r", "./e")
	assert.Equal(t, []testcase.Skip{
		{What: "r.Classify", Reason: "parameter 1 (l *r.level): r.level is unexported; cling passes only values of types it can name"},
		{What: "r.Phase", Reason: "parameter 1 (c complex128): cling does not generate complex numbers"},
		{What: "r.SetLevel", Reason: "parameter 1 (l r.level): r.level is unexported; cling passes only values of types it can name"},
		{What: "r.Sum", Reason: "type parameter T: no type cling tries (int, string, float64, bool, the exported types of r and e) satisfies its constraint interface{~complex64 | ~complex128}"},
		{What: "(*r.cache).Merge", Reason: "parameter 1 (o *r.cache): r.cache is unexported; cling passes only values of types it can name"},
		{What: "(*r.counter).Merge", Reason: "parameter 1 (o *r.counter): r.counter is unexported; cling passes only values of types it can name"},
	}, c.Skipped)
	assert.Equal(t, []string{"(*r.Box[int]).Held", "(*r.Box[int]).Put", "(*r.Box[string]).Held", "(*r.Box[string]).Put",
		"(*r.Cache).Set", "(*r.Labels).Count", "(*r.Ring[int]).Push", "(*r.Ring[string]).Push",
		"(*r.counter).Add", "(*r.counter).Snapshot", "(*r.hidden).Do", "(r.Greeter).Greet", "(r.Outer).Inner",
		"(r.state).Sign", "r.NewCache", "r.NewCounter", "r.NewGreeter", "r.NewRing[int]", "r.NewRing[string]", "r.Plain"}, names(c.API), "the methods of a generic type, on two instantiations")
	ring := c.API[slices.IndexFunc(c.API, func(op *testcase.Op) bool { return op.Name == "(*r.Ring[int]).Push" })].Params[0]
	assert.Equal(t, []string{"&{} r.Ring[int]", "nil *r.Ring[int]", "r.NewRing[int]"}, names(c.Producers(ring)),
		"the generic constructor, instantiated with the ring's type argument")
}

// Random tests always call a covering function; mutation keeps tests
// valid; the same seed gives the same tests.
func TestGeneratorInvariants(t *testing.T) {
	c := cluster(t, "constructs", "./caller", "./callee")
	gen := func(seed int64) []string {
		g := testcase.NewGenerator(c, testcase.DefaultConfig(), seed)
		var out []string
		for i := 0; i < 200; i++ {
			tc := g.RandomTest()
			require.NoError(t, tc.Valid())
			require.True(t, tc.HasCovering())
			require.LessOrEqual(t, tc.Len(), g.Cfg.MaxLen)
			out = append(out, tc.String())
			m := tc.Clone()
			g.Mutate(m)
			require.NoError(t, m.Valid(), "after mutation:\n%s", m)
		}
		return out
	}
	assert.Equal(t, gen(5), gen(5))
	assert.NotEqual(t, gen(5), gen(6))
}

func TestRemoveDropsDependents(t *testing.T) {
	c := cluster(t, "personcar", "./person", "./car")
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	for i := 0; i < 100; i++ {
		tc := g.RandomTest()
		for j := tc.Len() - 1; j >= 0; j-- {
			cp := tc.Clone()
			cp.Remove(j)
			require.NoError(t, cp.Valid())
			assert.Less(t, cp.Len(), tc.Len())
		}
		p := tc.Clone()
		p.Prune()
		require.NoError(t, p.Valid())
		uses := p.Uses()
		for k, s := range p.Stmts {
			if s.Op.Pure() {
				assert.True(t, uses[k], "pruned test keeps an unused literal")
			}
		}
	}
}

// personcar returns the cluster of the personcar fixture, a lookup of its
// operations by name, and a test that drives a person's car home: a car
// with 10 units of fuel, a person who is not lazy, the call.
func personcar(t *testing.T) (*testcase.Cluster, func(string) *testcase.Op, *testcase.Test) {
	c := cluster(t, "personcar", "./person", "./car")
	op := func(name string) *testcase.Op {
		for _, o := range c.Ops {
			if o.Name == name {
				return o
			}
		}
		t.Fatalf("no op %q", name)
		return nil
	}
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op("lit int"), Value: int64(10)},
		{Op: op("&{} car.Car"), Args: []testcase.Ref{{Stmt: 0}}},
		{Op: op("lit bool"), Value: true},
		{Op: op("&{} person.Person"), Args: []testcase.Ref{{Stmt: 1}, {Stmt: 2}}},
		{Op: op("(*person.Person).DriveToHome"), Args: []testcase.Ref{{Stmt: 3}}},
	}}
	require.NoError(t, tc.Valid())
	return c, op, tc
}

func TestDropArg(t *testing.T) {
	_, _, tc := personcar(t)

	// Leaving out Lazy drops the literal that fed it.
	d, ok := tc.DropArg(3, 1)
	require.True(t, ok)
	require.NoError(t, d.Valid())
	assert.Equal(t, "0: lit int 10\n1: &{} car.Car v0.0\n2: &{} person.Person v1.0 _\n3: (*person.Person).DriveToHome v2.0\n", d.String())
	_, ok = d.DropArg(2, 1)
	assert.False(t, ok, "already omitted")
	_, ok = tc.DropArg(4, 0)
	assert.False(t, ok, "a receiver cannot be dropped")

	// On random tests of the shop, every drop leaves a valid, no longer
	// test.
	shop := cluster(t, "shop", "./checkout", "./pricing")
	drops := eachRandomEdit(t, shop, 3, 200, (*testcase.Test).DropArg, func(tc, d *testcase.Test, i, k int) {
		require.NoError(t, d.Valid(), "dropping argument %d of %d in\n%s", k, i, tc)
		assert.LessOrEqual(t, d.Len(), tc.Len())
	})
	assert.Positive(t, drops)
}

// eachRandomEdit applies edit to every argument of every statement of n
// random tests of c (generated with seed), calls check on each edit that
// succeeds, and returns how many did.
func eachRandomEdit(t *testing.T, c *testcase.Cluster, seed int64, n int, edit func(*testcase.Test, int, int) (*testcase.Test, bool), check func(tc, edited *testcase.Test, i, k int)) int {
	t.Helper()
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), seed)
	edits := 0
	for range n {
		tc := g.RandomTest()
		for i, s := range tc.Stmts {
			for k := range s.Args {
				if e, ok := edit(tc, i, k); ok {
					edits++
					check(tc, e, i, k)
				}
			}
		}
	}
	return edits
}

func TestBypass(t *testing.T) {
	_, _, tc := personcar(t)
	for i, s := range tc.Stmts {
		for k := range s.Args {
			_, ok := tc.Bypass(i, k)
			assert.False(t, ok, "statement %d (%s) is no set-up call", i, s.Op.Name)
		}
	}

	// On random tests of a module whose API takes readers, writers and
	// byte slices, every bypass leaves a valid, shorter test without the
	// bypassed call.
	c := cluster(t, "reflective", "./report", "./level")
	bypasses := eachRandomEdit(t, c, 5, 300, (*testcase.Test).Bypass, func(tc, b *testcase.Test, i, k int) {
		require.NoError(t, b.Valid(), "bypassing statement %d by argument %d in\n%s", i, k, tc)
		assert.Less(t, b.Len(), tc.Len())
		assert.True(t, tc.Stmts[i].Op.SetsUp())
	})
	assert.Positive(t, bypasses)
}

// Integer overflow is only reachable with the limits of a type; small
// random numbers never get there. With ExtremeInts at 1, every random
// integer is a limit of its type.
func TestExtremeIntegers(t *testing.T) {
	c := cluster(t, "shop", "./pricing", "./money")
	cfg := testcase.DefaultConfig()
	cfg.ConstantPool, cfg.ExtremeInts = 0, 1
	g := testcase.NewGenerator(c, cfg, 3)
	seen := map[int64]bool{}
	for i := 0; i < 100; i++ {
		for _, s := range g.RandomTest().Stmts {
			if v, ok := s.Value.(int64); ok {
				seen[v] = true
			}
		}
	}
	assert.Equal(t, map[int64]bool{math.MinInt64: true, math.MaxInt64: true}, seen)
}

// The primitives that repair builds on: a deep copy of a prefix, an
// existing value before a position, a new value built at a position.
func TestPrefixValueBeforeBuildValue(t *testing.T) {
	c, op, tc := personcar(t)
	intType, personType := op("lit int").Outputs()[0], op("&{} person.Person").Outputs()[0]

	p := tc.Prefix(2)
	assert.Equal(t, "0: lit int 10\n1: &{} car.Car v0.0\n", p.String())
	p.Stmts[1].Args[0] = testcase.Omitted
	assert.Equal(t, testcase.Ref{Stmt: 0}, tc.Stmts[1].Args[0], "the prefix is a deep copy")
	assert.Equal(t, tc.String(), tc.Clone().String())

	cfg := testcase.DefaultConfig()
	cfg.PrimitiveReuse, cfg.ObjectReuse = 0, 0
	g := testcase.NewGenerator(c, cfg, 1)
	r, ok := g.ValueBefore(tc, 4, personType, personType)
	assert.True(t, ok)
	assert.Equal(t, testcase.Ref{Stmt: 3}, r)
	_, ok = g.ValueBefore(tc, 3, personType, personType)
	assert.False(t, ok, "the person is built at 3, not before")
	r, ok = g.ValueBefore(tc, 4, intType, intType)
	assert.True(t, ok)
	assert.Equal(t, testcase.Ref{Stmt: 0}, r)

	// Without reuse, an int is a new literal: the call at 4 moves to 5.
	r, moved := g.BuildValue(tc, 4, intType)
	assert.Equal(t, 1, moved)
	assert.Equal(t, testcase.Ref{Stmt: 4}, r)
	assert.Equal(t, "lit int", tc.Stmts[4].Op.Name)
	assert.Equal(t, "(*person.Person).DriveToHome", tc.Stmts[5].Op.Name)
	assert.Equal(t, []testcase.Ref{{Stmt: 3}}, tc.Stmts[5].Args)
	require.NoError(t, tc.Valid())
}

// A covering call knows the coupled branches its function may reach, and
// a generator with a focus gives tests covering calls of the focus only.
func TestCoveringGoalsAndFocus(t *testing.T) {
	c := cluster(t, "shop", "./pricing", "./money")
	goals := map[string][]int32{}
	for _, op := range c.Covering {
		goals[op.Name] = op.Goals
	}
	assert.Equal(t, []int32{0, 1, 2, 3}, goals["(pricing.QuotedLine).Total"], "its call of Money.Sub")
	assert.Equal(t, []int32{42, 43}, goals["(pricing.BuyXGetY).Apply"], "its call of Money.Times")
	assert.Len(t, goals["(*pricing.Engine).Price"], 50, "Price reaches every site but QuotedLine.Total's")

	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	var focus *testcase.Op
	for _, op := range c.Covering {
		if op.Name == "(pricing.BuyXGetY).Apply" {
			focus = op
		}
	}
	require.NotNil(t, focus)
	g.Focus = []*testcase.Op{focus}
	for i := 0; i < 100; i++ {
		tc := g.RandomTest()
		g.Mutate(tc)
		for _, s := range tc.Stmts {
			if s.Op.Covering {
				assert.Same(t, focus, s.Op)
			}
		}
	}
}

// HTTP middleware takes and returns http.Handler values: a test calls
// ServeHTTP on the handler R returns (its implementation is R's code),
// with a recorder for the response and a request built from its fields.
// The methods of a standard-library interface that R does not return
// (the request's io.ReadCloser body) are not called.
func TestClusterMiddleware(t *testing.T) {
	c := cluster(t, "reflective", "./serve", "./route")
	handler := c.API[0].Results[0]
	require.Equal(t, "net/http.Handler", handler.String())
	serveHTTP := c.Methods(handler)
	require.Equal(t, []string{"(http.Handler).ServeHTTP"}, names(serveHTTP))
	writer, request := serveHTTP[0].Params[1], serveHTTP[0].Params[2]
	require.Equal(t, "net/http.ResponseWriter", writer.String())
	assert.Equal(t, []string{"net/http/httptest.NewRecorder as net/http.ResponseWriter", "nil http.ResponseWriter"}, names(c.Producers(writer)))
	assert.False(t, serveHTTP[0].SetsUp(), "ServeHTTP runs the middleware: what it writes is asserted")
	recorder := c.Producers(writer)[0]
	assert.True(t, recorder.SetsUp())
	// The recorder's variable in the written test is what NewRecorder
	// returns, with the fields the test asserts.
	require.NotNil(t, recorder.Concrete)
	assert.Equal(t, "*net/http/httptest.ResponseRecorder", recorder.Concrete.String())
	code, _, _ := types.LookupFieldOrMethod(recorder.Concrete, true, nil, "Code")
	assert.NotNil(t, code)
	require.Equal(t, "*net/http.Request", request.String())
	var body types.Type
	st := request.(*types.Pointer).Elem().Underlying().(*types.Struct)
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == "Body" {
			body = st.Field(i).Type()
		}
	}
	require.Equal(t, "io.ReadCloser", body.String())
	assert.Empty(t, c.Methods(body))
}

// An io.Writer parameter gets a buffer among its values, whose concrete
// type lets the written test read what the code wrote, and a
// strings.Builder literal (its zero value is documented ready to use),
// but no literal of io.PipeWriter or io.OffsetWriter, whose zero values
// block or panic.
func TestClusterWriterProvider(t *testing.T) {
	c := cluster(t, "reflective", "./report", "./level")
	lines := c.API[0]
	require.Equal(t, "report.Lines", lines.Name)
	writer := lines.Params[0]
	require.Equal(t, "io.Writer", writer.String())
	ps := c.Producers(writer)
	assert.Equal(t, []string{"&{} strings.Builder", "bytes.NewBufferString as io.Writer", "io.MultiWriter", "io.NewOffsetWriter", "nil io.Writer"}, names(ps))
	for _, p := range ps {
		if p.Name != "bytes.NewBufferString as io.Writer" {
			assert.Nil(t, p.Concrete, p.Name)
			continue
		}
		require.NotNil(t, p.Concrete)
		assert.Equal(t, "*bytes.Buffer", p.Concrete.String())
	}
}

// A field whose type no op builds (regexp.Regexp: another package's struct
// with no exported field, whose zero value is not documented as usable)
// gets no field set, so a mutation that sets a field never asks for a
// value nothing makes; the fields of plain types keep theirs.
func TestFieldSetsOnlyOfBuildableFields(t *testing.T) {
	c := cluster(t, "reflective", "./filter", "./level")
	filter := types.NewPointer(lookup(t, c, "example.com/reflective/filter", "Filter"))
	assert.Empty(t, c.Producers(lookup(t, c, "example.com/reflective/filter", "Filter").Underlying().(*types.Struct).Field(0).Type()))
	assert.Equal(t, []string{"*filter.Filter.Label =", "*filter.Filter.Min ="}, names(c.FieldSets(filter)))
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	for i := 0; i < 300; i++ {
		tc := g.RandomTest()
		g.Mutate(tc)
		require.NoError(t, tc.Valid())
	}
}

// The methods R's code calls through R's own interfaces are driven by R:
// constructs' caller calls Shape.Area and Rated.Rating itself. A method of
// a concrete type, one of an interface R does not declare, and a call that
// is no method call are not.
func TestDrivenByCaller(t *testing.T) {
	c := cluster(t, "constructs", "./caller", "./callee")
	method := func(recv types.Type, name string) *testcase.Op {
		obj, _, _ := types.LookupFieldOrMethod(recv, true, nil, name)
		require.NotNil(t, obj, name)
		return &testcase.Op{Kind: testcase.OpCall, Method: true, Func: obj.(*types.Func), Params: []types.Type{recv}}
	}
	shape := c.Caller.Types.Scope().Lookup("Shape").Type()
	rated := c.Caller.Types.Scope().Lookup("Rated").Type()
	square := types.NewPointer(c.Callee.Types.Scope().Lookup("Square").Type())
	errorT := types.Universe.Lookup("error").Type()
	assert.True(t, c.DrivenByCaller(method(shape, "Area")))
	assert.True(t, c.DrivenByCaller(method(rated, "Rating")))
	assert.False(t, c.DrivenByCaller(method(square, "Area")), "a concrete type's method")
	assert.False(t, c.DrivenByCaller(method(errorT, "Error")), "an interface R does not declare")
	area := method(shape, "Area")
	area.Method = false
	assert.False(t, c.DrivenByCaller(area), "no method call")
}

// Tests use nothing deprecated outside R's API: strings.Title is known
// deprecated (from export data, as the loader reads the standard
// library), no literal of an http.Request sets Cancel, and the recorder's
// HeaderMap is known deprecated for the emitter to leave out.
func TestNothingDeprecated(t *testing.T) {
	c := cluster(t, "reflective", "./report", "./level")
	var str *types.Package
	for _, p := range c.Caller.Types.Imports() {
		if p.Path() == "strings" {
			str = p
		}
	}
	require.NotNil(t, str)
	fset := c.Analysis().Prog.Fset
	assert.True(t, testcase.Deprecated(fset, str.Scope().Lookup("Title")))
	assert.False(t, testcase.Deprecated(fset, str.Scope().Lookup("ToUpper")))

	c = cluster(t, "reflective", "./serve", "./route")
	handler := c.API[0].Results[0]
	request := c.Methods(handler)[0].Params[2]
	var fields []string
	for _, op := range c.Producers(request) {
		if op.Kind == testcase.OpComposite {
			for _, f := range op.Fields {
				fields = append(fields, f.Name())
			}
		}
	}
	assert.Contains(t, fields, "URL")
	assert.NotContains(t, fields, "Cancel")

	rec := c.Producers(c.Methods(handler)[0].Params[1])[0].Concrete
	require.NotNil(t, rec)
	st := rec.(*types.Pointer).Elem().Underlying().(*types.Struct)
	dep := map[string]bool{}
	for i := 0; i < st.NumFields(); i++ {
		dep[st.Field(i).Name()] = testcase.Deprecated(testcase.StdFileSet(), st.Field(i))
	}
	assert.Equal(t, map[string]bool{"Code": false, "HeaderMap": true, "Body": false, "Flushed": false,
		"result": false, "snapHeader": false, "wroteHeader": false}, dep)
}

// A test's size counts its statements first, then the bytes of its
// string literals; literals of other kinds add nothing.
func TestSize(t *testing.T) {
	test := &testcase.Test{Stmts: []testcase.Stmt{{Value: "abc"}, {Value: int64(12345)}, {Value: ""}, {Value: "de"}}}
	assert.Equal(t, testcase.Size{Stmts: 4, StringBytes: 5}, test.Size())
	for _, tc := range []struct {
		a, b testcase.Size
		less bool
	}{
		{testcase.Size{Stmts: 3, StringBytes: 90}, testcase.Size{Stmts: 4, StringBytes: 1}, true},
		{testcase.Size{Stmts: 4, StringBytes: 1}, testcase.Size{Stmts: 4, StringBytes: 2}, true},
		{testcase.Size{Stmts: 4, StringBytes: 2}, testcase.Size{Stmts: 4, StringBytes: 2}, false},
		{testcase.Size{Stmts: 5, StringBytes: 0}, testcase.Size{Stmts: 4, StringBytes: 9}, false},
	} {
		assert.Equal(t, tc.less, tc.a.Less(tc.b), "%v < %v", tc.a, tc.b)
	}
}

// No call of the standard library the generator writes reads what it
// writes (io.TeeReader(buffer, buffer), or a writer built from its
// reader), neither in random tests nor after mutations; a function of the
// module still gets one buffer as its input and output.
func TestNoStreamFeedsItself(t *testing.T) {
	c := cluster(t, "streams", "./format", "./norm")
	var tees, inPlace int
	for seed := int64(1); seed <= 5; seed++ {
		g := testcase.NewGenerator(c, testcase.DefaultConfig(), seed)
		for i := 0; i < 200; i++ {
			tc := g.RandomTest()
			for k := 0; k < 3; k++ {
				for _, s := range tc.Stmts {
					if s.Op.Name == "io.TeeReader" {
						tees++
					}
					if s.Op.Name == "format.Format" && s.Args[0].Stmt == s.Args[1].Stmt {
						inPlace++
					}
				}
				require.Equal(t, -1, testcase.FeedingCall(tc), "a call reads what it writes:\n%s", tc)
				g.Mutate(tc)
			}
		}
	}
	assert.Positive(t, tees, "io.TeeReader is drawn")
	assert.Positive(t, inPlace, "format.Format(buffer, buffer) is drawn")
}
