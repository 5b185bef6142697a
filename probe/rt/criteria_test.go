//go:build go1.21

package rt

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// extrasTable is pairTable with every extra probe: two lines (one of E),
// one function of R's API (node 0 is its) with a signed result and an
// error, and three mutants.
func extrasTable() *Table {
	t := pairTable()
	t.Extras = ExtraLines | ExtraAPI | ExtraErrors | ExtraDirect | ExtraMutants
	t.LineCallee = []uint8{0, 1}
	t.NodeFunc = []int32{0, -1, -1}
	t.FuncSlots = [][]int32{{0, 1}}
	t.FuncNames = []string{"r.F"}
	t.SlotClass = []uint8{classSigned, classError}
	t.Mutants = 3
	// Call 0: mutant 1 deletes it (results used), 2 returns argument 0,
	// 3 argument 1. Call 1: mutant 1 returns argument 0.
	t.FunCals = [][]int32{{1, -1, -2, 2, 0, 0, 3, 1, 0}, {1, 0, 0}}
	t.Packages = []string{"example.com/r", "github.com/cling-go/cling/probe/rt"}
	return t
}

func decoded(t *testing.T) *Trace {
	t.Helper()
	tr, rest, err := DecodeTrace(AppendTrace(nil))
	require.NoError(t, err)
	require.Empty(t, rest)
	return tr
}

func TestLinesOfTheCalleeCountInCallsOnly(t *testing.T) {
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	Ln(0) // before any test: not recorded
	Reset()
	Ln(1) // E's line outside a call from R
	assert.Empty(t, decoded(t).Lines)
	Ln(0)
	Enter(0)
	Ln(1)
	Ln(1)
	X0()
	assert.Equal(t, []int32{0, 1}, decoded(t).Lines)
	Reset()
	assert.Empty(t, decoded(t).Lines)
}

// f plays the instrumented function of R's API: a direct call records
// itself, its result partitions, an error, and the branches of its own
// node; a nested call is not direct.
func f(x int, fail bool) (n int, err error) {
	c := EnterAPI(0)
	defer func() {
		if Direct(c) {
			Left(c, recover(), n, err)
		}
	}()
	B(0, false, x > 0)
	if x > 100 {
		return f(x-100, fail)
	}
	if fail {
		panic(errors.New("boom"))
	}
	return x, nil
}

func TestDirectCallsOutputsAndPanics(t *testing.T) {
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	f(105, false)
	tr := decoded(t)
	assert.Equal(t, []CallEval{{Func: 0, Returned: true}}, tr.Calls)
	assert.Equal(t, []OutputEval{{Slot: 0, Dist: [MaxParts]float64{6, 5, 0}}, {Slot: 1, Dist: [MaxParts]float64{0, 1, 1}}}, tr.Outputs)
	assert.Equal(t, []int32{0}, tr.Direct, "node 0 true, in the direct call")
	f(-2, false)
	tr = decoded(t)
	assert.Equal(t, [MaxParts]float64{0, 2, 0}, tr.Outputs[0].Dist, "the smallest distances of both calls")
	assert.Equal(t, []int32{0, 1}, tr.Direct)

	Reset()
	assert.PanicsWithError(t, "boom", func() { f(1, true) })
	tr = decoded(t)
	assert.Equal(t, []CallEval{{Func: 0, Returned: false}}, tr.Calls)
	assert.Empty(t, tr.Outputs)
	assert.Equal(t, []string{"panic rt.f *errors.errorString"}, tr.Panics, "raised in f, as the runtime names it")
	assert.Equal(t, int32(0), apiDepth)
}

func TestErrorsReturned(t *testing.T) {
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	g := func() (n int, err error) {
		c := EnterAPI(0)
		defer func() {
			if Direct(c) {
				Left(c, recover(), n, err)
			}
		}()
		return 0, errors.New("no")
	}
	Reset()
	g()
	g()
	tr := decoded(t)
	assert.Equal(t, []string{"error r.F *errors.errorString"}, tr.Panics)
	assert.Equal(t, [MaxParts]float64{1, 0, 1}, tr.Outputs[1].Dist, "non-nil")
}

func TestInfection(t *testing.T) {
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	assert.Equal(t, "", InfZ(1, ""))
	var p *int
	assert.Nil(t, InfZ(2, p))
	tr := decoded(t)
	assert.Equal(t, []MutantEval{{ID: 1, State: MutantReached}, {ID: 2, State: MutantReached}}, tr.Mutants)
	InfZ(1, "x")
	Inf(3)
	assert.Equal(t, []MutantEval{{ID: 1, State: MutantInfected}, {ID: 2, State: MutantReached}, {ID: 3, State: MutantInfected}}, decoded(t).Mutants)
}

func TestFunCalDelInfection(t *testing.T) {
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	FCReach(2, func() {})()
	assert.Empty(t, decoded(t).Mutants, "call 2 has no mutant")
	Setup(extrasTable())
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	clamp := func(v, max int) int { return min(v, max) }
	Reset()
	// clamp(3, 5), probed as the instrumenter probes a call with used
	// results and plain arguments.
	assert.Equal(t, 3, FC1(0, clamp(FCA(0, 0, 3), FCA(0, 1, 5))))
	assert.Equal(t, []MutantEval{{ID: 1, State: MutantInfected}, {ID: 2, State: MutantReached}, {ID: 3, State: MutantInfected}}, decoded(t).Mutants)
	assert.Equal(t, 5, FCD(0, clamp)(7, 5), "the same through the function")
	assert.Equal(t, MutantInfected, decoded(t).Mutants[1].State)
	assert.Equal(t, testEpoch, funCalDoneIn[0], "every mutant of call 0 is infected: from now on the probes return at once")

	Reset()
	twice := func(x int) (int, int) { return x, 2 * x }
	a, b := FC2[int, int](1).R(twice(FCA(1, 0, 3)))
	assert.Equal(t, []int{3, 6}, []int{a, b})
	assert.Equal(t, []MutantEval{{ID: 1, State: MutantReached}}, decoded(t).Mutants, "call 1 returns its argument 3 as its first result")
	Reset()
	assert.Equal(t, 0, func() int { _, b := InfRet(1, 1, twice)(0); return b }())
	assert.Equal(t, []MutantEval{{ID: 1, State: MutantReached}}, decoded(t).Mutants)
	_, b = InfRet(1, 1, twice)(2)
	assert.Equal(t, 4, b)
	assert.Equal(t, []MutantEval{{ID: 1, State: MutantInfected}}, decoded(t).Mutants)
}

// After maxInfectionChecks executions a mutant is only counted as
// reached.
func TestInfectionChecksAreBounded(t *testing.T) {
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	id := func(x int) int { return x }
	Reset()
	for i := 0; i < maxInfectionChecks+5; i++ {
		FC1(1, id(FCA(1, 0, i)))
	}
	assert.Equal(t, uint8(maxInfectionChecks), mutChecks[1])
	assert.Equal(t, []MutantEval{{ID: 1, State: MutantReached}}, decoded(t).Mutants)
}

// Goroutines of R and E may panic, return errors and make the same probed
// call at once: the probes that keep maps must not end the process with
// a concurrent map write, and each panic is listed once.
func TestProbesOfConcurrentGoroutines(t *testing.T) {
	Setup(extrasTable())
	t.Cleanup(func() { Setup(&Table{}) })
	Reset()
	const goroutines, rounds = 8, 2000
	var wg sync.WaitGroup
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				recordPanic("panic", "r.F", fmt.Sprintf("T%d", i%4))
				FC1(0, FCA(0, 1, i))
			}
		}()
	}
	wg.Wait()
	tr := decoded(t)
	assert.ElementsMatch(t, []string{"panic r.F T0", "panic r.F T1", "panic r.F T2", "panic r.F T3"}, tr.Panics)
}
