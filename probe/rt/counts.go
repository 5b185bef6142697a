//go:build go1.21

package rt

// The probes count, per test, how often each outcome of every branching
// node was taken (outcomeCounts) and how often each function of R and E
// was entered (callCounts, through Call). The table says what those
// counts are worth (Table.Cost): from them the trace reports the cost of
// the test's execution, the dynamic performance proxies of the search.
// Counting is one increment per probe; the sums are taken once per test,
// when the trace is written.

var (
	// outcomeCounts is, per outcome (2*node true, 2*node+1 false), how
	// often it was taken in this test.
	outcomeCounts []uint32
	// callCounts is, per function of Table.Cost.FuncStmts, how often it
	// was entered in this test.
	callCounts []uint32
)

// CostTable says how the probes' counts make the cost of an execution.
// Weights are static: the statements and allocation sites of the source
// that run each time an outcome is taken, or each time a function is
// entered (those not under any branch of the function).
type CostTable struct {
	// FuncStmts and FuncAllocs are, per function counter, the statements
	// and allocation sites that run on every call.
	FuncStmts, FuncAllocs []int32
	// Outcomes lists the outcomes that carry statements or allocation
	// sites, with Stmts and Allocs, parallel to it, the weights of each.
	Outcomes, Stmts, Allocs []int32
	// Loops lists, per loop, the outcomes whose counts add up to its
	// iterations (the true outcome of a range loop; the outcomes that make
	// a for loop's condition true).
	Loops [][]int32
}

// Cost is the cost of one test execution, from the probes' counts: the
// dynamic performance proxies.
type Cost struct {
	// Loops counts the iterations of every loop of R and E beyond its
	// first in the test (a loop that iterated n > 0 times adds n-1).
	Loops uint64
	// Calls counts the calls of functions of R and E (methods and function
	// literals included, however they were called).
	Calls uint64
	// Allocs counts the allocation sites of R and E executed: new, make,
	// &T{…} and slice and map literals, each time it ran.
	Allocs uint64
	// Stmts counts the statements of R and E executed.
	Stmts uint64
}

// setupCounts sizes the counters for a table.
func setupCounts(t *Table) {
	outcomeCounts = make([]uint32, 2*len(t.Side))
	callCounts = make([]uint32, len(t.Cost.FuncStmts))
}

// resetCounts clears the counters for a new test.
func resetCounts() {
	clear(outcomeCounts)
	clear(callCounts)
	stepBlocks.Store(0)
}

// count records that outcome o was taken, and every StepBlock times
// counts a block of steps (see BoundSteps). It is small enough to be
// inlined into the probes.
func count(o int32) {
	if uint32(o) < uint32(len(outcomeCounts)) {
		outcomeCounts[o]++
		if outcomeCounts[o]&stepMask == 0 {
			stepped()
		}
	}
}

// Call records that function f of R or E was entered; it is inserted at
// the top of every function body, and small enough to be inlined there.
// Every checkEvery-th call of a function in a test also looks at the
// stack depth, to stop a runaway recursion (see BoundStack).
func Call(f int32) {
	if uint32(f) < uint32(len(callCounts)) && callCounts[f]&checkMask != checkMask {
		callCounts[f]++
	} else {
		callSlow(f)
	}
}

// callSlow is Call when it looks at the stack, or when f has no counter
// (then every checkEvery-th such call looks).
//
//go:noinline
func callSlow(f int32) {
	n := &uncounted
	if uint32(f) < uint32(len(callCounts)) {
		n = &callCounts[f]
	}
	*n++
	if *n&checkMask == 0 {
		checkStack()
	}
}

// currentCost sums the counters of the current test with the table's
// weights.
func currentCost() Cost {
	var c Cost
	ct := &tbl.Cost
	for f, n := range callCounts {
		c.Calls += uint64(n)
		c.Stmts += uint64(n) * uint64(ct.FuncStmts[f])
		c.Allocs += uint64(n) * uint64(ct.FuncAllocs[f])
	}
	for i, o := range ct.Outcomes {
		if uint32(o) < uint32(len(outcomeCounts)) {
			n := uint64(outcomeCounts[o])
			c.Stmts += n * uint64(ct.Stmts[i])
			c.Allocs += n * uint64(ct.Allocs[i])
		}
	}
	for _, loop := range ct.Loops {
		var n uint64
		for _, o := range loop {
			if uint32(o) < uint32(len(outcomeCounts)) {
				n += uint64(outcomeCounts[o])
			}
		}
		if n > 1 {
			c.Loops += n - 1
		}
	}
	return c
}
