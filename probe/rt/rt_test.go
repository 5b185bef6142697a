//go:build go1.21

package rt

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNumericDistances(t *testing.T) {
	cases := []struct {
		name         string
		op           uint8
		a, b         float64
		v            bool
		dTrue, dFals float64
	}{
		{"eq equal", OpEQ, 5, 5, true, 0, 1},
		{"eq apart", OpEQ, 3, 10, false, 7, 0},
		{"ne equal", OpNE, 4, 4, false, 1, 0},
		{"ne apart", OpNE, 4, 9, true, 0, 5},
		{"lt true", OpLT, 3, 10, true, 0, 7},
		{"lt equal", OpLT, 10, 10, false, 1, 0},
		{"lt false", OpLT, 12, 10, false, 3, 0},
		{"le equal", OpLE, 10, 10, true, 0, 1},
		{"le false", OpLE, 12, 10, false, 2, 0},
		{"le true", OpLE, 7, 10, true, 0, 4},
		{"gt true", OpGT, 12, 10, true, 0, 2},
		{"gt equal", OpGT, 10, 10, false, 1, 0},
		{"gt false", OpGT, 3, 10, false, 8, 0},
		{"ge equal", OpGE, 10, 10, true, 0, 1},
		{"ge false", OpGE, 3, 10, false, 7, 0},
		{"ge true", OpGE, 15, 10, true, 0, 6},
		{"fractions", OpLT, 0.25, 0.5, true, 0, 0.25},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, dT, dF := distances(tc.op, tc.a, tc.b)
			assert.Equal(t, tc.v, v)
			assert.Equal(t, tc.dTrue, dT, "distance to true")
			assert.Equal(t, tc.dFals, dF, "distance to false")
		})
	}
}

func TestNaNDistances(t *testing.T) {
	v, dT, dF := distances(OpLT, math.NaN(), 1)
	assert.False(t, v)
	assert.Equal(t, math.MaxFloat64, dT)
	assert.Equal(t, 0.0, dF)
}

func TestIntegerDistancesAreExact(t *testing.T) {
	// 2^53+1 and 2^53 differ, but not as float64: the outcome must still
	// be exact and the distance to the taken outcome zero.
	a, b := int64(1<<53+1), int64(1<<53)
	v, dT, dF := intDistances(OpEQ, a, b)
	assert.False(t, v)
	assert.Equal(t, 1.0, dT, "rounded to 0, but the outcome is false")
	assert.Equal(t, 0.0, dF)
	v, dT, dF = uintDistances(OpGT, math.MaxUint64, math.MaxUint64-1)
	assert.True(t, v)
	assert.Equal(t, 0.0, dT)
	assert.Equal(t, 1.0, dF)
}

func TestStringDistances(t *testing.T) {
	cases := []struct {
		name   string
		op     uint8
		a, b   string
		v      bool
		dT, dF float64
	}{
		{"eq same", OpEQ, "abc", "abc", true, 0, 1},
		{"eq one substitution", OpEQ, "abc", "abd", false, 1, 0},
		{"eq insertion", OpEQ, "ac", "abc", false, 1, 0},
		{"eq empty", OpEQ, "", "add", false, 3, 0},
		{"eq kitten", OpEQ, "kitten", "sitting", false, 3, 0},
		{"ne same", OpNE, "x", "x", false, 1, 0},
		{"ne different", OpNE, "x", "yy", true, 0, 2},
		{"lt true", OpLT, "apple", "banana", true, 0, 'b' - 'a'},
		{"lt false by first byte", OpLT, "pear", "apple", false, 'p' - 'a' + 1, 0},
		{"lt prefix", OpLT, "ab", "abc", true, 0, 1},
		{"lt equal", OpLT, "ab", "ab", false, 1, 0},
		{"ge equal", OpGE, "ab", "ab", true, 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, dT, dF := stringDistances(tc.op, tc.a, tc.b)
			assert.Equal(t, tc.v, v)
			assert.Equal(t, tc.dT, dT, "distance to true")
			assert.Equal(t, tc.dF, dF, "distance to false")
		})
	}
}

func TestLongStringsUseCharacterDifference(t *testing.T) {
	a := make([]byte, 100)
	b := make([]byte, 103)
	for i := range a {
		a[i], b[i] = 'x', 'x'
	}
	b[0], b[100], b[101], b[102] = 'y', 'z', 'z', 'z'
	_, dT, _ := stringDistances(OpEQ, string(a), string(b))
	assert.Equal(t, 4.0, dT, "one differing byte plus three extra")
}

func TestEditDistance(t *testing.T) {
	assert.Equal(t, 0, editDistance("", ""))
	assert.Equal(t, 3, editDistance("abc", ""))
	assert.Equal(t, 2, editDistance("flaw", "lawn"))
	assert.Equal(t, 3, editDistance("sitting", "kitten"))
}

// pairTable: node 0 is a caller node, node 1 a callee node, node 2 a
// callee node outside B_E; one call site with caller target "node 0 true"
// and B_E = {node 1}.
func pairTable() *Table {
	return &Table{
		Side:      []uint8{0, 1, 1},
		SiteBR:    [][]int32{{0}},
		SiteSlots: [][]int32{{1, 2}},
		SiteNBE:   []int32{1},
		GoalBase:  []int32{0},
		Goals:     2,
	}
}

func TestCoverageIsContextSensitive(t *testing.T) {
	Setup(pairTable())
	t.Cleanup(func() { Setup(&Table{}) })

	// The callee branch reached by a direct call: no context, no record.
	Reset()
	B(1, false, true)
	assert.Empty(t, Covered())

	// r taken, then a call at site 0 takes both callee outcomes.
	Reset()
	B(0, false, true)
	Enter(0)
	B(1, false, true)
	B(1, false, false)
	X0()
	assert.Equal(t, []int32{0, 1}, Covered())

	// The call starts before r is taken: not covered.
	Reset()
	Enter(0)
	B(0, false, true)
	B(1, false, true)
	X0()
	assert.Empty(t, Covered())

	// After the call returns, the callee branch is out of context.
	Reset()
	B(0, false, true)
	Enter(0)
	X0()
	B(1, false, true)
	assert.Empty(t, Covered())
}

func TestRestoreUndoesEnteredSites(t *testing.T) {
	Setup(pairTable())
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	B(0, false, true)
	func() {
		defer func() { _ = recover() }()
		d := Depth()
		defer Restore(d)
		Enter(0)
		panic("in the callee")
	}()
	assert.Equal(t, int32(0), Depth())
	B(1, false, true)
	assert.Empty(t, Covered(), "the panicking call no longer provides context")
}

func TestTraceRoundTrip(t *testing.T) {
	Setup(pairTable())
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	I(0, OpLT, 3, 10)
	Enter(0)
	I(1, OpEQ, 4, 6)
	I(2, OpGT, 1, 0)
	X0()
	tr, rest, err := DecodeTrace(AppendTrace(nil))
	require.NoError(t, err)
	assert.Empty(t, rest)
	assert.Equal(t, []CallerEval{{Node: 0, DistT: 0, DistF: 7, FirstT: 1, FirstF: 0, Evals: 1}}, tr.Caller)
	assert.Equal(t, []SiteEval{{Site: 0, LastEnter: 2, Entries: 1}}, tr.Sites)
	assert.Equal(t, []CalleeEval{
		{Site: 0, Node: 1, DistT: 2, DistF: 0, TakenT: false, TakenF: true, Evals: 1},
		{Site: 0, Node: 2, DistT: 0, DistF: 1, TakenT: true, TakenF: false, Evals: 1},
	}, tr.Callee)
	assert.Equal(t, []int32{1}, tr.Covered, "false outcome of node 1 after r: goal 1")
}

// A damaged record whose counts promise more elements than it has bytes
// is an error, and reserves no more than its bytes for them.
func TestDecodeTraceOfADamagedRecord(t *testing.T) {
	huge := binary.AppendUvarint(nil, 1<<60)
	for _, b := range [][]byte{
		huge,                                    // callers
		append([]byte{0}, huge...),              // sites
		append([]byte{0, 0}, huge...),           // callee evaluations
		append([]byte{0, 0, 0}, huge...),        // covered goals
		append([]byte{0, 0, 0, 0}, huge[:3]...), // a count cut short
	} {
		tr, _, err := DecodeTrace(b)
		require.ErrorIs(t, err, errTrace, "%x", b)
		assert.LessOrEqual(t, cap(tr.Caller)+cap(tr.Sites)+cap(tr.Callee)+cap(tr.Covered), len(b))
	}
}

func TestListAndRange(t *testing.T) {
	Setup(&Table{Side: []uint8{0, 0, 0, 0}, Lists: [][]int32{{0, 1, 2}}, SiteNBE: nil})
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	List(0, 1)
	assert.Equal(t, uint32(0), rFirst[0], "node 0 true not taken")
	assert.NotZero(t, rFirst[1], "node 0 false taken")
	assert.NotZero(t, rFirst[2], "node 1 true taken")
	assert.Zero(t, rEvals[2], "node 2 not evaluated")

	Reset()
	RangeIter(3)
	RangeBreak(3)
	RangeEnd(3)
	assert.NotZero(t, rFirst[6])
	assert.Zero(t, rFirst[7], "left by break: not exhausted")
	RangeEnd(3)
	assert.NotZero(t, rFirst[7], "exhausted")
}

// The fast path skips outcomes already recorded in the current context (a
// call site and the caller outcomes taken before the call); it must never
// skip one that can cover something new: in a later call at the same site
// after the caller took a new outcome, in a new test, back in the caller
// after a nested call returned, or below calls nested too deep to record.
func TestRepeatedOutcomesAcrossContexts(t *testing.T) {
	// Node 0 and 3 are caller nodes, 1 and 2 callee nodes; site 0 has the
	// caller targets "0 true" and "3 true" and B_E = {1}.
	Setup(&Table{
		Side:      []uint8{0, 1, 1, 0},
		SiteBR:    [][]int32{{0, 6}},
		SiteSlots: [][]int32{{1, 2}},
		SiteNBE:   []int32{1},
		GoalBase:  []int32{0},
		Goals:     4,
	})
	t.Cleanup(func() { Setup(&Table{}) })
	call := func(outcomes ...bool) {
		Enter(0)
		for _, v := range outcomes {
			B(1, false, v)
			B(1, false, v)
		}
		X0()
	}

	Reset()
	B(0, false, true)
	call(true, true)
	assert.Equal(t, []int32{0}, Covered(), "(s, 0 true, 1 true)")
	B(3, false, true)
	B(3, false, true)
	call(true)
	assert.Equal(t, []int32{0, 2}, Covered(), "the same callee outcome in a later call covers (s, 3 true, 1 true)")
	call(false)
	assert.Equal(t, []int32{0, 2, 1, 3}, Covered())

	// A new test starts from nothing: the same probes record again.
	Reset()
	call(true)
	B(0, false, true)
	assert.Empty(t, Covered())
	call(true)
	assert.Equal(t, []int32{0}, Covered())
	assert.NotZero(t, rFirst[0])

	// A caller outcome taken inside a call (a callback from E into R)
	// still counts for later calls; back outside, the caller context is
	// the one before the call.
	Reset()
	Enter(0)
	B(3, false, true)
	X0()
	B(3, false, true)
	call(false)
	assert.Equal(t, []int32{3}, Covered())

	// Probes beyond the maximum depth record nothing, and the context
	// below is intact afterwards.
	Reset()
	B(0, false, true)
	Enter(0)
	for i := 0; i < maxDepth+2; i++ {
		Enter(0)
	}
	B(1, false, true)
	for i := 0; i < maxDepth+2; i++ {
		X0()
	}
	assert.Empty(t, Covered())
	B(1, false, true)
	X0()
	assert.Equal(t, []int32{0}, Covered())
}

// Evaluations are counted up to two per caller node, per call site entry
// and per callee node in a site's context, through the fast path of
// repeated outcomes too, and start from zero in every test.
func TestEvaluationCounts(t *testing.T) {
	Setup(pairTable())
	t.Cleanup(func() { Setup(&Table{}) })
	trace := func() *Trace {
		tr, _, err := DecodeTrace(AppendTrace(nil))
		require.NoError(t, err)
		return tr
	}
	evals := func(tr *Trace) (caller, entries uint8, callee []uint8) {
		for _, c := range tr.Caller {
			caller = c.Evals
		}
		for _, s := range tr.Sites {
			entries = s.Entries
		}
		for _, c := range tr.Callee {
			callee = append(callee, c.Evals)
		}
		return caller, entries, callee
	}

	// Once each.
	Reset()
	B(0, false, true)
	Enter(0)
	B(1, false, false)
	B(2, false, true)
	X0()
	c, n, e := evals(trace())
	assert.Equal(t, uint8(1), c)
	assert.Equal(t, uint8(1), n)
	assert.Equal(t, []uint8{1, 1}, e)

	// The same outcomes again, in the same contexts (the fast path), and
	// more: counted up to two.
	Reset()
	for i := 0; i < 5; i++ {
		B(0, false, true)
	}
	for i := 0; i < 3; i++ {
		Enter(0)
		B(1, false, true)
		B(1, false, true)
		X0()
	}
	c, n, e = evals(trace())
	assert.Equal(t, uint8(2), c)
	assert.Equal(t, uint8(2), n)
	assert.Equal(t, []uint8{2}, e)
	assert.Equal(t, []int32{0}, Covered(), "counting changes no coverage")

	// A callee node evaluated twice across two calls of the site counts
	// twice; one evaluated outside any call is not counted.
	Reset()
	B(1, false, true)
	Enter(0)
	B(1, false, true)
	X0()
	Enter(0)
	B(1, false, true)
	X0()
	_, n, e = evals(trace())
	assert.Equal(t, uint8(2), n)
	assert.Equal(t, []uint8{2}, e)
}

// The probes count every outcome and every call, past the fast path that
// skips recording; the trace weighs the counts with the table's costs.
func TestCostCountsEveryOutcomeAndCall(t *testing.T) {
	// Node 0 is a for condition (a loop), node 1 a range loop, node 2 an
	// if condition. Function 0 runs 3 statements and 1 allocation site on
	// every call, function 1 one statement; the true outcome of node 0
	// runs 2 statements, the true outcome of node 2 1 statement and 1
	// allocation site.
	tb := &Table{Side: []uint8{0, 0, 0}, Cost: CostTable{
		FuncStmts: []int32{3, 1}, FuncAllocs: []int32{1, 0},
		Outcomes: []int32{0, 4}, Stmts: []int32{2, 1}, Allocs: []int32{0, 1},
		Loops: [][]int32{{0}, {2}},
	}}
	Setup(tb)
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	Call(0)
	for i := 0; i < 5; i++ {
		I(0, OpLT, int64(i), 4) // true 4 times, then false
		Call(1)
	}
	B(0, false, true) // a fifth true outcome through the fast path
	RangeIter(1)
	RangeEnd(1)
	B(2, false, true)
	B(2, false, true)
	B(2, false, false)
	tr, _, err := DecodeTrace(AppendTrace(nil))
	require.NoError(t, err)
	assert.Equal(t, Cost{
		Loops:  4,                 // node 0: 5 iterations; node 1: 1
		Calls:  6,                 // function 0 once, function 1 five times
		Allocs: 1 + 2,             // function 0, node 2 true twice
		Stmts:  3 + 5 + 2*5 + 2*1, // function 0, function 1 ×5, node 0 true ×5, node 2 true ×2
	}, tr.Cost)

	Reset()
	tr, _, err = DecodeTrace(AppendTrace(nil))
	require.NoError(t, err)
	assert.Equal(t, Cost{}, tr.Cost, "a new test counts from zero")
}

// A comparison keeps the least distance to the outcome it did not take
// over all its evaluations, until both outcomes were taken in the
// context; after that only its count moves.
func TestComparisonDistancesUntilBothOutcomes(t *testing.T) {
	Setup(&Table{Side: []uint8{0, 1}, SiteBR: [][]int32{{0}}, SiteSlots: [][]int32{{1}}, SiteNBE: []int32{1}, GoalBase: []int32{0}, Goals: 2,
		Cost: CostTable{Outcomes: []int32{0, 1, 2, 3}, Stmts: []int32{1, 1, 1, 1}, Allocs: []int32{0, 0, 0, 0}}})
	t.Cleanup(func() { Setup(&Table{}) })
	trace := func() *Trace {
		tr, _, err := DecodeTrace(AppendTrace(nil))
		require.NoError(t, err)
		return tr
	}
	for _, tc := range []struct {
		name  string
		probe func(a, b int64) bool
	}{
		{"signed", func(a, b int64) bool { return I(0, OpLT, a, b) }},
		{"unsigned", func(a, b int64) bool { return U(0, OpLT, uint64(a), uint64(b)) }},
		{"float", func(a, b int64) bool { return F(0, OpLT, float64(a), float64(b)) }},
		{"negated", func(a, b int64) bool { return !I(0, OpGE|NegBit, a, b) }}, // the node is !(a >= b)
	} {
		t.Run(tc.name, func(t *testing.T) {
			Reset()
			assert.True(t, tc.probe(5, 10))
			assert.True(t, tc.probe(8, 10)) // the true outcome is now recorded in this context
			assert.True(t, tc.probe(9, 10))
			tr := trace()
			require.Len(t, tr.Caller, 1)
			assert.Equal(t, 0.0, tr.Caller[0].DistT)
			assert.Equal(t, 1.0, tr.Caller[0].DistF, "the least distance to false, of the third evaluation")
			assert.False(t, tc.probe(12, 10))
			assert.False(t, tc.probe(11, 10))
			assert.True(t, tc.probe(1, 10))
			tr = trace()
			assert.Equal(t, 0.0, tr.Caller[0].DistT)
			assert.Equal(t, 0.0, tr.Caller[0].DistF)
			assert.Equal(t, uint64(6), tr.Cost.Stmts, "every evaluation counted")
		})
	}

	// In a call, the callee node's distances are those of its context:
	// a second call in the same context goes on from the first's.
	Reset()
	I(0, OpEQ, 1, 1)
	Enter(0)
	S(1, OpEQ, "ab", "ab")
	S(1, OpEQ, "ab", "ab")
	S(1, OpEQ, "ab", "xy")
	X0()
	Enter(0)
	assert.False(t, S(1, OpEQ, "ab", "abc"))
	X0()
	tr := trace()
	require.Len(t, tr.Callee, 1)
	assert.Equal(t, 0.0, tr.Callee[0].DistT)
	assert.Equal(t, 0.0, tr.Callee[0].DistF)
	assert.True(t, tr.Callee[0].TakenT && tr.Callee[0].TakenF)
	assert.Equal(t, []int32{0, 1}, Covered())
}
