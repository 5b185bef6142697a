//go:build go1.21

// Package rt is the probe runtime that cling's instrumented copies of a
// caller package R and a callee package E call into. It records, per test
// execution, which branches were taken and how far each evaluation was from
// taking the other branch (branch distances), the call-site context of
// every evaluation in E, and which coupled branches (s, r, e) were covered:
// r taken, then e taken during a call made at s that started after r.
//
// cling copies this package's source into the module under test through
// go's -overlay, next to a generated table.go that describes the pair's
// branching nodes, call sites and goals. The package keeps its state in
// package variables: it is instrumentation, and the instrumented code has
// no other way to reach it. The state is safe to touch from several
// goroutines in the sense that it never corrupts memory; branch records of
// concurrent goroutines may interleave.
package rt

import (
	"os"
	"strconv"
)

// Table describes what the instrumented code reports: the branching nodes
// of R and E (entry pseudo-nodes included), the call sites, and the goals.
// cling generates the table for each pair.
type Table struct {
	// Side is, per node, 0 for a node of the caller R and 1 for the callee E
	// (k for the k-th callee when one build measures several pairs of R).
	Side []uint8
	// SiteSide is, when one build measures several pairs of R, the Side
	// of each call site's callee; empty for one pair. A callee node then
	// belongs to the innermost call at a site of its own package, as it
	// would with only that pair instrumented.
	SiteSide []int32
	// SiteBR lists per call site the caller targets B_R(s) as outcome
	// indices (2*node for true, 2*node+1 for false).
	SiteBR [][]int32
	// SiteSlots lists per call site the callee nodes observed in its
	// context: first the nodes of B_E(s) (in goal order), then others.
	SiteSlots [][]int32
	// SiteNBE is, per call site, how many of SiteSlots are B_E(s) nodes.
	SiteNBE []int32
	// GoalBase is, per call site, the index of its first goal; the goal of
	// (s, r_i, e_j) is GoalBase[s] + i*2*SiteNBE[s] + j.
	GoalBase []int32
	// Goals is the total number of goals.
	Goals int32
	// Lists are the node lists of type switches and select statements.
	Lists [][]int32
	// CoverageOnly turns off branch distances: measuring coverage needs
	// only outcomes.
	CoverageOnly bool
	// Cost weighs the probes' counts into the cost of an execution (empty
	// when only coverage is measured).
	Cost CostTable

	// Extras says which probes of the other coverage criteria the
	// instrumented code holds (Extra* bits); the fields below describe
	// them.
	Extras uint8
	// LineCallee is, per line probe, 1 for a line of E.
	LineCallee []uint8
	// NodeFunc is, per node, the index of the function of R's API it
	// belongs to, or -1.
	NodeFunc []int32
	// FuncSlots is, per function of R's API, per result, its output slot
	// or -1; FuncNames names the functions (package.Function).
	FuncSlots [][]int32
	FuncNames []string
	// SlotClass is, per output slot, the class of the result.
	SlotClass []uint8
	// Mutants is the number of interface mutants, numbered from 1;
	// FunCals lists, per call of R into E with FunCalDel mutants, a triple
	// (mutant, argument, result) per mutant (see FCD).
	Mutants int32
	FunCals [][]int32
	// Packages are the import paths of R and E, which name where a panic
	// was raised.
	Packages []string
}

const maxDepth = 256

type frame struct {
	site  int32
	start uint32
	// epoch is rEpoch when the call started.
	epoch uint32
	// ctx identifies the call for the fast path of the probes.
	ctx uint32
}

var (
	tbl *Table

	nNodes   int32
	side     []uint8
	siteSide []int32 // nil for one pair

	// Caller-side state, per node and per outcome (2n true, 2n+1 false).
	// rEvals counts the node's evaluations in this test, up to 2 (0: not
	// evaluated): the whole-suite fitness asks whether a predicate was
	// evaluated at least twice.
	rEvals   []uint8
	rDist    []float64
	rFirst   []uint32
	rTouched []int32

	// Call sites: the sequence number of the last entry, and the entries
	// counted up to 2.
	siteEnter   []uint32
	siteEnters  []uint8
	siteTouched []int32

	// Callee-side state per call-site context: slot k of site s is
	// slotBase[s]+k, for node SiteSlots[s][k].
	slotOf   []int32 // site*nNodes+node -> local slot, -1 if none
	slotBase []int32
	slotSite []int32 // global slot -> site
	slotNode []int32 // global slot -> node
	ctxEvals []uint8 // evaluations per slot, up to 2, as rEvals
	ctxDist  []float64
	ctxLast  []uint32
	ctxTouch []int32
	// ctxScan is, per callee outcome slot, the epoch of the last check of
	// its goals; rEpoch counts the caller outcomes taken for the first
	// time (and tests), so an unchanged epoch means nothing new to check.
	ctxScan []uint32
	rEpoch  uint32 = 1

	// distancesOn is false when only coverage matters (cling cbc): the
	// probes then skip branch distances.
	distancesOn = true

	stack [maxDepth]frame
	depth int32
	seq   uint32

	covered     []bool // per goal, this test
	coveredList []int32
	cumulative  []byte // per goal, the whole process (cbc), may be nil

	rangeBreak []bool

	// The fast path. ctx identifies the current context: the call site of
	// the innermost call together with the caller outcomes taken before
	// that call started (rEpoch), or the code outside every call of the
	// current test. Two calls at one site with no new caller outcome in
	// between share a context: what the callee does in the second can
	// cover nothing the first did not. No context ID is used in two tests.
	// stamp holds, per node outcome, the context in which the outcome was
	// last recorded. A probe whose distances are constant (a bool
	// condition, a type-switch case, a range loop) and whose outcome was
	// recorded in the current context already has nothing new to record:
	// it returns at once.
	ctx, outside, lastCtx uint32
	stamp                 []uint32
	// siteCtx is the context of the calls at each site that start at
	// epoch siteCtxEpoch.
	siteCtx, siteCtxEpoch []uint32
)

func init() {
	t := generatedTable
	if t == nil {
		t = &Table{}
	}
	Setup(t)
}

// Setup (re)initialises the runtime for a table. Generated code calls it
// once at start-up; tests of this package call it directly.
func Setup(t *Table) {
	tbl = t
	nNodes = int32(len(t.Side))
	side = t.Side
	siteSide = nil
	if len(t.SiteSide) > 0 {
		siteSide = t.SiteSide
	}
	rEvals = make([]uint8, nNodes)
	rDist = make([]float64, 2*nNodes)
	rFirst = make([]uint32, 2*nNodes)
	rangeBreak = make([]bool, nNodes)
	sites := int32(len(t.SiteBR))
	siteEnter = make([]uint32, sites)
	siteEnters = make([]uint8, sites)
	slotOf = make([]int32, int(sites)*int(nNodes))
	for i := range slotOf {
		slotOf[i] = -1
	}
	slotBase = make([]int32, sites)
	total := int32(0)
	slotSite, slotNode = nil, nil
	for s, slots := range t.SiteSlots {
		slotBase[s] = total
		for k, n := range slots {
			slotOf[int32(s)*nNodes+n] = int32(k)
			slotSite = append(slotSite, int32(s))
			slotNode = append(slotNode, n)
		}
		total += int32(len(slots))
	}
	ctxEvals = make([]uint8, total)
	ctxDist = make([]float64, 2*total)
	ctxLast = make([]uint32, 2*total)
	ctxScan = make([]uint32, 2*total)
	covered = make([]bool, t.Goals)
	distancesOn = !t.CoverageOnly
	rTouched, siteTouched, ctxTouch, coveredList = nil, nil, nil, nil
	depth, seq = 0, 0
	stamp = make([]uint32, 2*nNodes)
	siteCtx, siteCtxEpoch = make([]uint32, sites), make([]uint32, sites)
	newOutside()
	setupExtras(t)
	cumulative = openCumulative(int(t.Goals) + extrasSize(t))
	if cumulative != nil {
		splitCumulative(t, cumulative[t.Goals:])
		cumulative = cumulative[:t.Goals]
	} else {
		splitCumulative(t, nil)
	}
	setupCounts(t)
}

// newContext returns a context ID never used before in this process.
func newContext() uint32 {
	lastCtx++
	return lastCtx
}

// newOutside starts a new context outside every call.
func newOutside() {
	outside = newContext()
	ctx = outside
}

// setContext makes ctx the context of the innermost call at the current
// depth.
func setContext() {
	switch {
	case depth <= 0:
		ctx = outside
	case depth <= maxDepth:
		ctx = stack[depth-1].ctx
	default:
		ctx = newContext() // probes beyond maxDepth record nothing
	}
}

// seen reports whether outcome o (2*node, +1 for false) was recorded in
// the current context already. It is small enough to be inlined into the
// probes.
func seen(o int32) bool {
	return uint32(o) < uint32(len(stamp)) && stamp[o] == ctx
}

// Reset clears the per-test state: a new test execution begins.
func Reset() {
	for _, n := range rTouched {
		rEvals[n] = 0
		rFirst[2*n], rFirst[2*n+1] = 0, 0
	}
	rTouched = rTouched[:0]
	for _, s := range siteTouched {
		siteEnter[s], siteEnters[s] = 0, 0
	}
	siteTouched = siteTouched[:0]
	for _, k := range ctxTouch {
		ctxEvals[k] = 0
		ctxLast[2*k], ctxLast[2*k+1] = 0, 0
	}
	ctxTouch = ctxTouch[:0]
	for _, g := range coveredList {
		covered[g] = false
	}
	coveredList = coveredList[:0]
	resetCounts()
	depth, seq = 0, 0
	rEpoch++
	newOutside()
	resetExtras()
}

// BeginTest marks the start of a test function of the suite under
// measurement; it is inserted at the top of every Test function.
func BeginTest(name string) {
	Reset()
	testStarted(name)
}

// hit records one evaluation of node n: the node's outcome and, when the
// table asks for distances, the branch distances to its true and false
// outcomes.
//
// It stamps the outcome with the current context (see seen) only from the
// node's second evaluation in the test on (its second in the call site's
// context for a callee node): the probes' fast path then skips later
// evaluations, and the first two still reach hit, which counts them.
func hit(n int32, outcome bool, dTrue, dFalse float64) {
	leave()
	if uint32(n) >= uint32(nNodes) {
		return
	}
	o := 2 * n
	if !outcome {
		o++
	}
	if side[n] == 0 {
		if extras != 0 {
			directHit(n, o)
		}
		if evaluated(rEvals, rDist, n, dTrue, dFalse) {
			rTouched = append(rTouched, n)
		} else {
			stamp[o] = ctx
		}
		if rFirst[o] == 0 {
			seq++
			rFirst[o] = seq
			rEpoch++
			if cumOutcomes != nil {
				cumOutcomes[o] = 1
			}
		}
		return
	}
	d := depth
	if d <= 0 || d > maxDepth {
		stamp[o] = ctx
		return // a callee branch outside any call from R: not counted
	}
	fr := &stack[d-1]
	if siteSide != nil {
		if fr = frameOf(int32(side[n]), d); fr == nil {
			stamp[o] = ctx
			return
		}
	}
	k := slotOf[int(fr.site)*int(nNodes)+int(n)]
	if k < 0 {
		stamp[o] = ctx
		return
	}
	slot := slotBase[fr.site] + k
	if evaluated(ctxEvals, ctxDist, slot, dTrue, dFalse) {
		ctxTouch = append(ctxTouch, slot)
	} else {
		stamp[o] = ctx
	}
	so := 2 * slot
	ei := 2 * k
	if !outcome {
		so++
		ei++
	}
	if ctxLast[so] == fr.start {
		return // already taken in this call
	}
	ctxLast[so] = fr.start
	if cumOutcomes != nil {
		cumOutcomes[o] = 1
	}
	if k >= tbl.SiteNBE[fr.site] || ctxScan[so] == fr.epoch {
		// Not a goal's callee branch; or no caller outcome was taken for
		// the first time since the last check: the same goals as then.
		return
	}
	ctxScan[so] = fr.epoch
	width := 2 * tbl.SiteNBE[fr.site]
	for i, r := range tbl.SiteBR[fr.site] {
		if f := rFirst[r]; f != 0 && f < fr.start {
			cover(tbl.GoalBase[fr.site] + int32(i)*width + ei)
		}
	}
}

// frameOf returns the innermost of the d frames of the stack whose call
// site calls into callee package sd, or nil.
func frameOf(sd int32, d int32) *frame {
	for i := d - 1; i >= 0; i-- {
		if s := stack[i].site; uint32(s) < uint32(len(siteSide)) && siteSide[s] == sd {
			return &stack[i]
		}
	}
	return nil
}

// evaluated counts one more evaluation of node or slot i in evals (up to
// 2) and records its distances in dist[2i] and dist[2i+1]: those of the
// first evaluation as they are, later ones as minima. It reports whether
// this was the first evaluation in the test.
func evaluated(evals []uint8, dist []float64, i int32, dTrue, dFalse float64) bool {
	switch evals[i] {
	case 0:
		evals[i] = 1
		dist[2*i], dist[2*i+1] = dTrue, dFalse
		return true
	case 1:
		evals[i] = 2
	}
	if distancesOn {
		if dTrue < dist[2*i] {
			dist[2*i] = dTrue
		}
		if dFalse < dist[2*i+1] {
			dist[2*i+1] = dFalse
		}
	}
	return false
}

func cover(g int32) {
	if covered[g] {
		return
	}
	covered[g] = true
	coveredList = append(coveredList, g)
	if cumulative != nil {
		cumulative[g] = 1
	}
}

// comparison records one evaluation of comparison node id, whose value
// is v, and returns v. dist computes the branch distances; it is called
// only when they can still change what the test records: once both
// outcomes were recorded in the current context (see seen), both
// distances are zero wherever the node's evaluations are kept, and only
// the count is left to take.
func comparison(id int32, op uint8, v bool, dist func() (dTrue, dFalse float64)) bool {
	neg := op&NegBit != 0
	o := 2 * id
	if v == neg {
		o++
	}
	count(o)
	if !distancesOn {
		if !seen(o) {
			hit(id, v != neg, 0, 0)
		}
		return v
	}
	if seen(o) && seen(o^1) {
		return v
	}
	dTrue, dFalse := dist()
	if neg {
		hit(id, !v, dFalse, dTrue)
	} else {
		hit(id, v, dTrue, dFalse)
	}
	return v
}

// B records a boolean condition (or a comparison without a numeric
// distance, such as x == nil); neg says the node is the negation of v.
func B(id int32, neg bool, v bool) bool {
	o := 2 * id
	if v == neg {
		o++
	}
	count(o)
	if !seen(o) {
		bSlow(id, neg, v)
	}
	return v
}

// bSlow records a boolean condition not seen in the current context.
func bSlow(id int32, neg bool, v bool) {
	var dT, dF float64
	if v {
		dF = 1
	} else {
		dT = 1
	}
	if neg {
		hit(id, !v, dF, dT)
	} else {
		hit(id, v, dT, dF)
	}
}

// I records a comparison of signed integers.
func I(id int32, op uint8, a, b int64) bool {
	return comparison(id, op, compare(op, a, b), func() (float64, float64) {
		_, dT, dF := intDistances(op, a, b)
		return dT, dF
	})
}

// U records a comparison of unsigned integers.
func U(id int32, op uint8, a, b uint64) bool {
	return comparison(id, op, compare(op, a, b), func() (float64, float64) {
		_, dT, dF := uintDistances(op, a, b)
		return dT, dF
	})
}

// F records a comparison of floating-point numbers.
func F(id int32, op uint8, a, b float64) bool {
	return comparison(id, op, compare(op, a, b), func() (float64, float64) {
		_, dT, dF := distances(op, a, b)
		return dT, dF
	})
}

// S records a comparison of strings.
func S(id int32, op uint8, a, b string) bool {
	return comparison(id, op, compare(op, a, b), func() (float64, float64) {
		_, dT, dF := stringDistances(op, a, b)
		return dT, dF
	})
}

// compare evaluates a comparison operator.
func compare[T int64 | uint64 | float64 | string](op uint8, a, b T) bool {
	switch op &^ NegBit {
	case OpEQ:
		return a == b
	case OpNE:
		return a != b
	case OpLT:
		return a < b
	case OpLE:
		return a <= b
	case OpGT:
		return a > b
	}
	return a >= b
}

// Signed, Unsigned and Float are the numeric kinds switch probes accept.
type (
	Signed interface {
		~int | ~int8 | ~int16 | ~int32 | ~int64
	}
	Unsigned interface {
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
	}
	Float interface{ ~float32 | ~float64 }
)

// SwI records the test of one value of a tagged switch over signed
// integers and returns the value, for use as the case expression.
func SwI[T Signed](id int32, tag, v T) T {
	I(id, OpEQ, int64(tag), int64(v))
	return v
}

// SwU is SwI for unsigned integers.
func SwU[T Unsigned](id int32, tag, v T) T {
	U(id, OpEQ, uint64(tag), uint64(v))
	return v
}

// SwF is SwI for floating-point numbers.
func SwF[T Float](id int32, tag, v T) T {
	F(id, OpEQ, float64(tag), float64(v))
	return v
}

// SwS is SwI for strings.
func SwS[T ~string](id int32, tag, v T) T {
	S(id, OpEQ, string(tag), string(v))
	return v
}

// SwV is SwI for any other comparable type (distances 0/1).
func SwV[T comparable](id int32, tag, v T) T {
	B(id, false, tag == v)
	return v
}

// SwE is SwI for a tag of interface type: the case value is returned as
// an interface, which compares with the tag exactly as before.
func SwE(id int32, tag, v any) any {
	B(id, false, tag == v)
	return v
}

// List records the outcome of a type switch or select statement: the
// nodes of list before the chosen one were false, the chosen one (index k)
// true; k == len(list) means none was chosen (default).
func List(list int32, k int32) {
	l := tbl.Lists[list]
	for j, n := range l {
		switch {
		case int32(j) < k:
			count(2*n + 1)
			if !seen(2*n + 1) {
				hit(n, false, 1, 0)
			}
		case int32(j) == k:
			count(2 * n)
			if !seen(2 * n) {
				hit(n, true, 0, 1)
			}
			return
		}
	}
}

// RangeIter records that a range loop starts an iteration.
func RangeIter(id int32) {
	count(2 * id)
	if !seen(2 * id) {
		hit(id, true, 0, 1)
	}
}

// RangeBreak marks that a range loop is left by break: the statement after
// the loop is reached without the range being exhausted.
func RangeBreak(id int32) {
	if id >= 0 && id < nNodes {
		rangeBreak[id] = true
	}
}

// RangeEnd runs after a range loop: unless the loop was left by break, the
// range was exhausted (the false outcome).
func RangeEnd(id int32) {
	if id < 0 || id >= nNodes {
		return
	}
	if rangeBreak[id] {
		rangeBreak[id] = false
		return
	}
	count(2*id + 1)
	if !seen(2*id + 1) {
		hit(id, false, 1, 0)
	}
}

// Entry records that an externally callable function was entered (an
// entry:<func> pseudo-branch).
func Entry(id int32) { hit(id, true, 0, 1) }

// Token is returned by Enter so that it can be evaluated as an argument.
type Token struct{}

// Enter pushes call site s: the callee branches evaluated until the
// matching exit belong to a call made at s.
func Enter(s int32) Token {
	leave()
	seq++
	// With several callees, a nested call gets a context of its own: what
	// a callee node records depends on the calls below it (frameOf).
	if uint32(s) < uint32(len(siteCtx)) && depth < maxDepth && (siteSide == nil || depth == 0) {
		if siteCtxEpoch[s] != rEpoch {
			siteCtxEpoch[s] = rEpoch
			siteCtx[s] = newContext()
		}
		ctx = siteCtx[s]
	} else {
		ctx = newContext()
	}
	if depth < maxDepth {
		stack[depth] = frame{site: s, start: seq, epoch: rEpoch, ctx: ctx}
	}
	depth++
	if s >= 0 && int(s) < len(siteEnter) {
		if siteEnter[s] == 0 {
			siteTouched = append(siteTouched, s)
		}
		siteEnter[s] = seq
		if siteEnters[s] < 2 {
			siteEnters[s]++
		}
	}
	return Token{}
}

func exit() {
	if depth > 0 {
		depth--
	}
	setContext()
}

// Recv enters call site s while the receiver of a method call is
// evaluated, and returns the receiver.
func Recv[T any](s int32, recv T) T {
	Enter(s)
	return recv
}

// Fn returns f; its first argument is Enter(s), evaluated just before.
func Fn[F any](_ Token, f F) F { return f }

// Arg enters call site s while an argument is evaluated, and returns it.
func Arg[T any](s int32, v T) T {
	Enter(s)
	return v
}

// X0 leaves the current call site after a call whose results are unused.
func X0() { exit() }

// X1 leaves the current call site and returns the call's result.
func X1[A any](a A) A { exit(); return a }

// X2 is X1 for calls with two results.
func X2[A, B any](a A, b B) (A, B) { exit(); return a, b }

// X3 is X1 for calls with three results.
func X3[A, B, C any](a A, b B, c C) (A, B, C) { exit(); return a, b, c }

// X4 is X1 for calls with four results.
func X4[A, B, C, D any](a A, b B, c C, d D) (A, B, C, D) { exit(); return a, b, c, d }

// Depth returns the call-site depth; with Restore it undoes the call sites
// a panic left entered.
func Depth() int32 { return depth }

// Restore resets the call-site depth when a function returns or unwinds.
func Restore(d int32) {
	if d < depth {
		depth = d
		setContext()
	}
}

// Covered returns the goals covered in the current test, in the order they
// were covered.
func Covered() []int32 { return coveredList }

// envInt reads an integer environment variable.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}
