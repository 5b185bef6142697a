package mosa

import (
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
)

// Proxies are the performance proxies of a test: what it costs to run,
// estimated from its one execution for the search (no extra runs) and
// from its statements. Four are dynamic, counted by the probes (see
// rt.Cost), three static.
type Proxies struct {
	// Loops (I1) counts the iterations of R's and E's loops beyond the
	// first of each loop.
	Loops int64 `json:"loops"`
	// Calls (I2) counts the calls of functions of R and E, through
	// interfaces and function values included.
	Calls int64 `json:"calls"`
	// TestCalls (I3) counts the call statements of the test.
	TestCalls int64 `json:"testCalls"`
	// Allocs (I4) counts the allocation sites of R and E executed (new,
	// make, &T{…}, slice and map literals), each time it ran.
	Allocs int64 `json:"allocations"`
	// Statements (I5) counts the statements of R and E executed.
	Statements int64 `json:"statements"`
	// TestStatements (I6) counts the statements of the test that are not
	// calls: literals, composite values, field assignments.
	TestStatements int64 `json:"testStatements"`
	// Length (I7) is the test's length in statements.
	Length int64 `json:"length"`
}

// ProxiesOf returns the proxies of test t, whose execution left trace tr;
// a nil trace (a test that timed out or crashed) leaves the dynamic ones
// zero.
func ProxiesOf(t *testcase.Test, tr *rt.Trace) Proxies {
	calls := int64(t.Calls())
	p := Proxies{TestCalls: calls, TestStatements: int64(t.Len()) - calls, Length: int64(t.Len())}
	if tr != nil {
		p.Loops, p.Calls, p.Allocs, p.Statements = int64(tr.Cost.Loops), int64(tr.Cost.Calls), int64(tr.Cost.Allocs), int64(tr.Cost.Stmts)
	}
	return p
}

// vector returns the proxies in the order I1 to I7.
func (p Proxies) vector() [7]float64 {
	return [7]float64{float64(p.Loops), float64(p.Calls), float64(p.TestCalls), float64(p.Allocs),
		float64(p.Statements), float64(p.TestStatements), float64(p.Length)}
}

// Score is the performance score ps = Σ I_k/(I_k+1) over the seven
// proxies: each normalised into [0, 1), so that no proxy's scale
// dominates, and their sum in [0, 7); lower is cheaper.
func (p Proxies) Score() float64 {
	s := 0.0
	for _, v := range p.vector() {
		s += v / (v + 1)
	}
	return s
}

// Add returns the proxies of p and q summed, those of a suite of two
// tests.
func (p Proxies) Add(q Proxies) Proxies {
	return Proxies{
		Loops: p.Loops + q.Loops, Calls: p.Calls + q.Calls, TestCalls: p.TestCalls + q.TestCalls,
		Allocs: p.Allocs + q.Allocs, Statements: p.Statements + q.Statements,
		TestStatements: p.TestStatements + q.TestStatements, Length: p.Length + q.Length,
	}
}
