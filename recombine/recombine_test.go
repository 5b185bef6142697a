package recombine_test

import (
	"go/types"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/recombine"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// β for η = 2.5: (2u)^(1/3.5) below one half, (0.5/(1−u))^(1/3.5) above.
func TestBeta(t *testing.T) {
	for _, tc := range []struct{ u, want float64 }{
		{0, 0},
		{0.25, 0.8203},
		{0.5, 1},
		{0.75, 1.2190},
		{0.875, 1.4860},
	} {
		assert.InDelta(t, tc.want, recombine.Beta(tc.u), 0.00005, "u = %g", tc.u)
	}
}

// With u = 0.5 (β = 1) the children are the parents' min (minus) and max
// (plus), whichever parent comes first.
func TestSBXAtOneHalfGivesTheParents(t *testing.T) {
	b := recombine.Beta(0.5)
	for _, p := range [][2]int64{{3, 10}, {10, 3}, {-7, 2}, {math.MinInt64, math.MaxInt64}, {math.MaxInt64 - 1, math.MaxInt64}} {
		lo, hi := min(p[0], p[1]), max(p[0], p[1])
		assert.Equal(t, lo, recombine.SBXInt(p[0], p[1], b, false, math.MinInt64, math.MaxInt64), "%v", p)
		assert.Equal(t, hi, recombine.SBXInt(p[0], p[1], b, true, math.MinInt64, math.MaxInt64), "%v", p)
	}
	for _, p := range [][2]uint64{{3, 10}, {10, 3}, {0, math.MaxUint64}, {math.MaxUint64 - 1, math.MaxUint64}} {
		lo, hi := min(p[0], p[1]), max(p[0], p[1])
		assert.Equal(t, lo, recombine.SBXUint(p[0], p[1], b, false, math.MaxUint64), "%v", p)
		assert.Equal(t, hi, recombine.SBXUint(p[0], p[1], b, true, math.MaxUint64), "%v", p)
	}
	for _, p := range [][2]float64{{1.5, -2.25}, {-2.25, 1.5}, {0, 1e300}, {0.1, 0.3}} {
		lo, hi := min(p[0], p[1]), max(p[0], p[1])
		assert.Equal(t, lo, recombine.SBXFloat(p[0], p[1], b, false, math.MaxFloat64), "%v", p)
		assert.Equal(t, hi, recombine.SBXFloat(p[0], p[1], b, true, math.MaxFloat64), "%v", p)
	}
}

// Equal parents have one child: themselves, whatever β.
func TestSBXOfEqualParentsIsTheParent(t *testing.T) {
	for _, u := range []float64{0, 0.1, 0.5, 0.9, 0.999999} {
		b := recombine.Beta(u)
		for _, plus := range []bool{false, true} {
			for _, v := range []int64{0, -7, math.MaxInt64, math.MinInt64, 1<<53 + 1} {
				assert.Equal(t, v, recombine.SBXInt(v, v, b, plus, math.MinInt64, math.MaxInt64))
			}
			for _, v := range []uint64{0, 9, math.MaxUint64} {
				assert.Equal(t, v, recombine.SBXUint(v, v, b, plus, math.MaxUint64))
			}
			for _, v := range []float64{0, -2.5, math.MaxFloat64, math.SmallestNonzeroFloat64} {
				assert.Equal(t, v, recombine.SBXFloat(v, v, b, plus, math.MaxFloat64))
			}
		}
	}
}

// Children are centred on the parents' mean, β times half the parents'
// distance away; integers are rounded to the nearest, halves up.
func TestSBXChildren(t *testing.T) {
	b25, b75 := recombine.Beta(0.25), recombine.Beta(0.75) // 0.8203, 1.2190
	for _, tc := range []struct {
		v1, v2 int64
		beta   float64
		plus   bool
		want   int64
	}{
		{2, 10, b25, false, 3},   // 6 − 0.8203·4 = 2.719
		{2, 10, b25, true, 9},    // 6 + 3.281 = 9.281
		{10, 2, b75, false, 1},   // 6 − 4.876 = 1.124
		{10, 2, b75, true, 11},   // 10.876
		{0, 1, 0, false, 1},      // the mean, 0.5, rounds up
		{-1, 0, 0, true, 0},      // −0.5 rounds up too
		{-10, 10, 3, false, -30}, // expansion below zero
	} {
		assert.Equal(t, tc.want, recombine.SBXInt(tc.v1, tc.v2, tc.beta, tc.plus, math.MinInt64, math.MaxInt64), "%+v", tc)
	}
	assert.InDelta(t, 6-b25*4, recombine.SBXFloat(2, 10, b25, false, math.MaxFloat64), 1e-12)
	assert.InDelta(t, 6+b75*4, recombine.SBXFloat(10, 2, b75, true, math.MaxFloat64), 1e-12)
}

// Integer children are clamped to their type's range, never wrapped
// around; floats to ±the greatest finite value of their type.
func TestSBXClampsToTheType(t *testing.T) {
	for _, tc := range []struct {
		v1, v2, lo, hi int64
		beta           float64
		plus           bool
		want           int64
	}{
		{100, 120, math.MinInt8, math.MaxInt8, 5, true, math.MaxInt8}, // 110 + 50
		{100, 120, math.MinInt8, math.MaxInt8, 5, false, 60},
		{-120, -100, math.MinInt8, math.MaxInt8, 5, false, math.MinInt8},
		{math.MinInt8, math.MaxInt8, math.MinInt8, math.MaxInt8, 1e9, true, math.MaxInt8},
		{math.MaxInt64 - 1, math.MaxInt64, math.MinInt64, math.MaxInt64, 50, true, math.MaxInt64},
		{math.MinInt64, math.MaxInt64, math.MinInt64, math.MaxInt64, 2, false, math.MinInt64},
		{math.MinInt64, math.MaxInt64, math.MinInt64, math.MaxInt64, 1e30, true, math.MaxInt64},
	} {
		assert.Equal(t, tc.want, recombine.SBXInt(tc.v1, tc.v2, tc.beta, tc.plus, tc.lo, tc.hi), "%+v", tc)
	}
	for _, tc := range []struct {
		v1, v2, hi uint64
		beta       float64
		plus       bool
		want       uint64
	}{
		{math.MaxUint64 - 10, math.MaxUint64, math.MaxUint64, 5, true, math.MaxUint64},
		{math.MaxUint64 - 10, math.MaxUint64, math.MaxUint64, 5, false, math.MaxUint64 - 30},
		{0, 10, math.MaxUint64, 5, false, 0},
		{0, math.MaxUint64, math.MaxUint64, 1e30, false, 0},
		{0, math.MaxUint64, math.MaxUint64, 1e30, true, math.MaxUint64},
		{250, 255, math.MaxUint8, 3, true, math.MaxUint8},
	} {
		assert.Equal(t, tc.want, recombine.SBXUint(tc.v1, tc.v2, tc.beta, tc.plus, tc.hi), "%+v", tc)
	}
	assert.Equal(t, math.MaxFloat32, recombine.SBXFloat(3e38, 3.4e38, 5, true, math.MaxFloat32))
	assert.Equal(t, -math.MaxFloat64, recombine.SBXFloat(-math.MaxFloat64, math.MaxFloat64, 2, false, math.MaxFloat64))
	assert.Equal(t, 1.0, recombine.SBXFloat(1, math.Inf(1), 1, true, math.MaxFloat64), "an infinite parent leaves the value")
}

func TestStrings(t *testing.T) {
	for _, tc := range []struct {
		x, y         string
		i, j         int
		wantX, wantY string
	}{
		{"lorem", "ipsum", 1, 3, "lum", "ipsorem"},
		{"lorem", "ipsum", 0, 0, "ipsum", "lorem"},
		{"lorem", "ipsum", 5, 5, "lorem", "ipsum"},
		{"", "ab", 0, 1, "b", "a"},
		{"ab", "", 2, 0, "ab", ""},
		{"", "", 0, 0, "", ""},
	} {
		x, y := recombine.Strings(tc.x, tc.y, tc.i, tc.j)
		assert.Equal(t, [2]string{tc.wantX, tc.wantY}, [2]string{x, y}, "%+v", tc)
	}
}

// Recombined strings keep the parents' total length and consist of their
// bytes; cuts fall between runes, so valid UTF-8 stays valid.
func TestStringChildrenKeepTheParentsBytes(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	var str types.Type = types.Typ[types.String]
	bytes := types.NewSlice(types.Typ[types.Byte])
	sorted := func(s string) string {
		b := []byte(s)
		slices.Sort(b)
		return string(b)
	}
	lengths := map[int]bool{}
	for i := 0; i < 500; i++ {
		x, y := "héllo wörld"[:rnd.Intn(12)], strings.Repeat("ab€", rnd.Intn(4))
		if !utf8.ValidString(x) {
			x = "héllo"
		}
		typ := str
		if i%2 == 1 {
			typ = bytes
		}
		c1, c2 := recombine.Values(rnd, typ, x, y)
		s1, s2 := c1.(string), c2.(string)
		assert.Equal(t, len(x)+len(y), len(s1)+len(s2))
		assert.Equal(t, sorted(x+y), sorted(s1+s2))
		assert.True(t, utf8.ValidString(s1) && utf8.ValidString(s2), "%q %q", s1, s2)
		lengths[len(s1)] = true
	}
	assert.Greater(t, len(lengths), 10, "cuts vary")
}

// Values recombines each kind of literal within its type; booleans are a
// fair draw between the parents per child.
func TestValuesByKind(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	named := types.NewNamed(types.NewTypeName(0, nil, "Level", nil), types.Typ[types.Int8], nil)
	bools := map[[2]bool]int{}
	for i := 0; i < 400; i++ {
		c1, c2 := recombine.Values(rnd, named, int64(100), int64(-120))
		for _, c := range []any{c1, c2} {
			v := c.(int64)
			assert.True(t, v >= math.MinInt8 && v <= math.MaxInt8, "%d", v)
		}
		c1, c2 = recombine.Values(rnd, types.Typ[types.Byte], uint64(250), uint64(3))
		for _, c := range []any{c1, c2} {
			assert.LessOrEqual(t, c.(uint64), uint64(math.MaxUint8))
		}
		c1, c2 = recombine.Values(rnd, types.Typ[types.Float32], 1e38, -3e38)
		for _, c := range []any{c1, c2} {
			assert.LessOrEqual(t, math.Abs(c.(float64)), float64(math.MaxFloat32))
		}
		c1, c2 = recombine.Values(rnd, types.Typ[types.Bool], true, false)
		bools[[2]bool{c1.(bool), c2.(bool)}]++
		c1, c2 = recombine.Values(rnd, types.Typ[types.Bool], true, true)
		assert.Equal(t, [2]any{true, true}, [2]any{c1, c2})
	}
	assert.Len(t, bools, 4, "each child draws either parent's value")
	for k, n := range bools {
		assert.InDelta(t, 100, n, 35, "%v", k)
	}
}

// Values leaves alone what it does not recombine: other types, and
// values of a kind the type does not have.
func TestValuesLeavesOtherKindsAlone(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	type opaque struct{ n int }
	for _, tc := range []struct {
		typ  types.Type
		x, y any
	}{
		{types.NewSlice(types.Typ[types.Int]), "ab", "cd"},
		{types.Typ[types.Int], "ab", "cd"},
		{types.Typ[types.String], int64(1), int64(2)},
		{types.Typ[types.Int], int64(1), uint64(2)},
		{types.Typ[types.Int], opaque{1}, opaque{2}},
		{types.NewPointer(types.Typ[types.Int]), int64(1), int64(2)},
	} {
		c1, c2 := recombine.Values(rnd, tc.typ, tc.x, tc.y)
		assert.Equal(t, [2]any{tc.x, tc.y}, [2]any{c1, c2}, "%s", tc.typ)
	}
}

// builder writes tests by op name for a fixture's cluster.
type builder struct {
	t   *testing.T
	ops map[string]*testcase.Op
}

func newBuilder(t *testing.T, fix, caller, callee string) *builder {
	dir := fixture.Copy(t, fix)
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	b := &builder{t: t, ops: map[string]*testcase.Op{}}
	for _, op := range testcase.NewCluster(a, 4).Ops {
		b.ops[op.Name] = op
	}
	return b
}

// stmt is a statement of op name with literal value v (nil for calls)
// and arguments args (statement indices, result 0; -1 leaves a field
// out).
func (b *builder) stmt(name string, v any, args ...int) testcase.Stmt {
	op, ok := b.ops[name]
	require.True(b.t, ok, "no op %q", name)
	s := testcase.Stmt{Op: op, Value: v}
	for _, a := range args {
		if a < 0 {
			s.Args = append(s.Args, testcase.Omitted)
			continue
		}
		s.Args = append(s.Args, testcase.Ref{Stmt: a})
	}
	return s
}

func (b *builder) test(stmts ...testcase.Stmt) *testcase.Test {
	t := &testcase.Test{Stmts: stmts}
	require.NoError(b.t, t.Valid())
	return t
}

// Two shop tests share four signatures: the constructors NewCart and
// NewStock come first, then the methods AddItem and Stock.Add, each group
// in the order of its first call in the first test; SetWeight is only in
// the second.
func TestMatchShop(t *testing.T) {
	s := newBuilder(t, "shop", "./checkout", "./pricing")
	a := s.test(
		s.stmt("lit string", "EUR"),
		s.stmt("checkout.NewCart", nil, 0),
		s.stmt("lit string", "tea"),
		s.stmt("lit int", int64(2)),
		s.stmt("lit int64", int64(450)),
		s.stmt("(*checkout.Cart).AddItem", nil, 1, 2, 3, 4),
		s.stmt("inventory.NewStock", nil),
		s.stmt("(*inventory.Stock).Add", nil, 6, 2, 3),
		s.stmt("(*checkout.Cart).AddItem", nil, 1, 2, 3, 4),
	)
	b := s.test(
		s.stmt("lit string", "USD"),
		s.stmt("lit int", int64(7)),
		s.stmt("inventory.NewStock", nil),
		s.stmt("(*inventory.Stock).Add", nil, 2, 0, 1),
		s.stmt("checkout.NewCart", nil, 0),
		s.stmt("lit int64", int64(99)),
		s.stmt("(*checkout.Cart).AddItem", nil, 4, 0, 1, 5),
		s.stmt("(*checkout.Cart).SetWeight", nil, 4, 0, 1),
	)
	ops := s.ops
	assert.Equal(t, []recombine.Pair{
		{Op: ops["checkout.NewCart"], Constructor: true, A: []int{1}, B: []int{4}},
		{Op: ops["inventory.NewStock"], Constructor: true, A: []int{6}, B: []int{2}},
		{Op: ops["(*checkout.Cart).AddItem"], A: []int{5, 8}, B: []int{6}},
		{Op: ops["(*inventory.Stock).Add"], A: []int{7}, B: []int{3}},
	}, recombine.Match(a, b))
	for name, want := range map[string]string{
		"checkout.NewCart":         "example.com/shop/checkout.NewCart(string) (*example.com/shop/checkout.Cart, error)",
		"inventory.NewStock":       "example.com/shop/inventory.NewStock() (*example.com/shop/inventory.Stock)",
		"(*checkout.Cart).AddItem": "example.com/shop/checkout.(*example.com/shop/checkout.Cart).AddItem(*example.com/shop/checkout.Cart, string, int, int64) (error)",
		"pricing.NewEngine":        "example.com/shop/pricing.NewEngine(...example.com/shop/pricing.Rule) (*example.com/shop/pricing.Engine)",
	} {
		assert.Equal(t, want, recombine.Signature(ops[name]), name)
	}
	assert.Empty(t, recombine.Match(a, s.test(s.stmt("lit string", "x"))))

	// Two ops with one signature match; methods of one name on two types
	// do not.
	twin := *ops["checkout.NewCart"]
	c := s.test(s.stmt("lit string", "GBP"), testcase.Stmt{Op: &twin, Args: []testcase.Ref{{Stmt: 0}}})
	assert.Equal(t, []recombine.Pair{{Op: ops["checkout.NewCart"], Constructor: true, A: []int{1}, B: []int{1}}}, recombine.Match(a, c))
	d := s.test(
		s.stmt("{} pricing.BuyXGetY", nil, -1, -1, -1),
		s.stmt("{} pricing.Line", nil, -1, -1, -1),
		s.stmt("(pricing.BuyXGetY).Apply", nil, 0, 1),
	)
	e := s.test(
		s.stmt("{} pricing.PercentOff", nil, -1, -1),
		s.stmt("{} pricing.Line", nil, -1, -1, -1),
		s.stmt("(pricing.PercentOff).Apply", nil, 0, 1),
	)
	assert.Empty(t, recombine.Match(d, e))
}

// Instantiations of a generic function, and a method on a value and on a
// pointer receiver, are different signatures.
func TestMatchGenericsAndReceivers(t *testing.T) {
	s := newBuilder(t, "constructs", "./caller", "./callee")
	a := s.test(
		s.stmt("slice []int", nil),
		s.stmt("caller.Largest[int]", nil, 0),
		s.stmt("{} callee.Engine", nil, -1),
		s.stmt("(callee.Engine).Rating", nil, 2),
	)
	b := s.test(
		s.stmt("slice []string", nil),
		s.stmt("caller.Largest[string]", nil, 0),
		s.stmt("&{} callee.Engine", nil, -1),
		s.stmt("(*callee.Engine).Rating", nil, 2),
		s.stmt("slice []int", nil),
		s.stmt("caller.Largest[int]", nil, 4),
	)
	assert.Equal(t, []recombine.Pair{{Op: s.ops["caller.Largest[int]"], A: []int{1}, B: []int{5}}}, recombine.Match(a, b))
	assert.Equal(t, "example.com/constructs/caller.Largest[int]([]int) (int, bool)", recombine.Signature(s.ops["caller.Largest[int]"]))
	assert.NotEqual(t, recombine.Signature(s.ops["caller.Largest[int]"]), recombine.Signature(s.ops["caller.Largest[string]"]))
	assert.NotEqual(t, recombine.Signature(s.ops["(callee.Engine).Rating"]), recombine.Signature(s.ops["(*callee.Engine).Rating"]))
	assert.False(t, recombine.IsConstructor(s.ops["caller.Largest[int]"]), "generic")
	assert.False(t, recombine.IsConstructor(s.ops["caller.Greeting"]), "a basic result")
	assert.True(t, recombine.IsConstructor(s.ops["caller.DefaultShapes"]))
	assert.True(t, recombine.IsConstructor(s.ops["errors.New as error"]))
}

// Arguments recombines the literals that feed the matched calls, in
// place, with the draws of Values after those of the instances; the
// literal statements change for all their uses, nothing is added, and
// literals of calls only one test makes keep their value.
func TestArgumentsRecombineTheLiteralsOfMatchedCalls(t *testing.T) {
	s := newBuilder(t, "shop", "./checkout", "./pricing")
	a := s.test(
		s.stmt("lit string", "tea"),
		s.stmt("lit int", int64(2)),
		s.stmt("inventory.NewStock", nil),
		s.stmt("(*inventory.Stock).Add", nil, 2, 0, 1),
		s.stmt("(*inventory.Stock).Reserve", nil, 2, 0, 1),
	)
	b := s.test(
		s.stmt("lit string", "coffee"),
		s.stmt("lit int", int64(40)),
		s.stmt("inventory.NewStock", nil),
		s.stmt("(*inventory.Stock).Add", nil, 2, 0, 1),
		s.stmt("lit int", int64(9)),
		s.stmt("(*inventory.Stock).Release", nil, 2, 0, 4),
	)
	wantA, wantB := a.Clone(), b.Clone()
	const seed = 5
	rnd := rand.New(rand.NewSource(seed))
	// The pick of one instance among one (NewStock, then Stock.Add, in
	// each test) still consumes a draw: Intn(1) is one Int31.
	for range 4 {
		rnd.Int31()
	}
	str := types.Typ[types.String]
	wantA.Stmts[0].Value, wantB.Stmts[0].Value = recombine.Values(rnd, str, "tea", "coffee")
	wantA.Stmts[1].Value, wantB.Stmts[1].Value = recombine.Values(rnd, types.Typ[types.Int], int64(2), int64(40))

	recombine.Arguments(rand.New(rand.NewSource(seed)), a, b)
	assert.Equal(t, wantA.String(), a.String())
	assert.Equal(t, wantB.String(), b.String())
	assert.NotEqual(t, "tea", a.Stmts[0].Value)
	assert.Equal(t, int64(9), b.Stmts[4].Value, "Release is not in both tests")
}

// A parameter of interface type takes literals of several types: only
// literals of the same type are recombined.
func TestArgumentsRecombineOnlyLiteralsOfOneType(t *testing.T) {
	s := newBuilder(t, "constructs", "./caller", "./callee")
	a := s.test(s.stmt("lit int", int64(1)), s.stmt("caller.TypeSwitch", nil, 0))
	b := s.test(s.stmt("lit string", "x"), s.stmt("caller.TypeSwitch", nil, 0))
	recombine.Arguments(rand.New(rand.NewSource(1)), a, b)
	assert.Equal(t, int64(1), a.Stmts[0].Value)
	assert.Equal(t, "x", b.Stmts[0].Value)
}

// SameSignature, which compares types, agrees with the equality of the
// written signatures on every pair of call ops of the fixtures' clusters;
// and no two ops of a cluster share a signature.
func TestSameSignatureAgreesWithSignature(t *testing.T) {
	for _, f := range [][3]string{{"shop", "./checkout", "./pricing"}, {"constructs", "./caller", "./callee"}, {"cpubound", "./calc", "./lexer"}} {
		s := newBuilder(t, f[0], f[1], f[2])
		var calls []*testcase.Op
		for _, op := range s.ops {
			if op.Kind == testcase.OpCall {
				calls = append(calls, op)
			}
		}
		require.NotEmpty(t, calls)
		for _, x := range calls {
			for _, y := range calls {
				same := recombine.Signature(x) == recombine.Signature(y)
				assert.Equal(t, same, recombine.SameSignature(x, y), "%s / %s", x.Name, y.Name)
				assert.Equal(t, x == y, same, "%s / %s", x.Name, y.Name)
			}
			twin := *x
			assert.True(t, recombine.SameSignature(x, &twin), x.Name)
		}
	}
}

// BenchmarkArguments times the data level of one crossover on pairs of
// random tests of the cpubound fixture (calc, a parser, calling lexer);
// a MOSA generation of 50 runs it about 17 times.
func BenchmarkArguments(b *testing.B) {
	dir := fixture.Copy(b, "cpubound")
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./calc", "./lexer")
	require.NoError(b, err)
	g := testcase.NewGenerator(testcase.NewCluster(a, 4), testcase.DefaultConfig(), 1)
	tests := make([]*testcase.Test, 512)
	for i := range tests {
		tests[i] = g.RandomTest()
		g.Mutate(tests[i])
	}
	batch := make([]*testcase.Test, len(tests))
	rnd := rand.New(rand.NewSource(1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := 2 * i % len(tests)
		if k == 0 {
			b.StopTimer()
			for j, t := range tests {
				batch[j] = t.Clone()
			}
			b.StartTimer()
		}
		recombine.Arguments(rnd, batch[k], batch[k+1])
	}
}
