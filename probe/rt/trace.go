//go:build go1.21

package rt

import (
	"encoding/binary"
	"errors"
	"math"
)

// Trace is the record of one test execution, as the executor sends it to
// the search: what the caller evaluated, which call sites were entered, what
// the callee evaluated in the context of each call site, the goals
// covered, and what the execution cost.
type Trace struct {
	Caller  []CallerEval
	Sites   []SiteEval
	Callee  []CalleeEval
	Covered []int32
	Cost    Cost
	// StepBlocks counts the blocks of steps the test took (see
	// BoundSteps): what the executor learns its step cut from.
	StepBlocks uint32

	// What the probes of the other criteria recorded, when the code holds
	// them: the lines reached, the direct calls of R's API, the result
	// partitions of those calls, the outcomes of R's nodes taken in direct
	// calls of their function, the interface mutants reached, and the
	// panics (and errors) as "panic pkg.F type" ("error pkg.F type").
	Lines   []int32
	Calls   []CallEval
	Outputs []OutputEval
	Direct  []int32
	Mutants []MutantEval
	Panics  []string
}

// CallEval is a function of R's API called directly by the test: Func is
// its index, Returned tells whether a direct call returned without a
// panic.
type CallEval struct {
	Func     int32
	Returned bool
}

// OutputEval is an output slot (a result of a function of R's API) seen
// in direct calls: per partition, the smallest distance of a result to
// it, 0 for a partition a result fell in.
type OutputEval struct {
	Slot int32
	Dist [MaxParts]float64
}

// MutantEval is an interface mutant reached: its ID and state
// (MutantReached or MutantInfected).
type MutantEval struct {
	ID    int32
	State uint8
}

// CallerEval is one branching node of R (or an entry pseudo-node)
// evaluated during the test: the minimum distances to its true and false
// outcomes, the sequence numbers of the first time each was taken
// (0 if never), and how many times the node was evaluated, 2 standing for
// two or more.
type CallerEval struct {
	Node           int32
	DistT, DistF   float64
	FirstT, FirstF uint32
	Evals          uint8
}

// SiteEval is a call site entered during the test, with the sequence
// number of its last entry and the number of entries, 2 standing for two
// or more.
type SiteEval struct {
	Site      int32
	LastEnter uint32
	Entries   uint8
}

// CalleeEval is a node of E evaluated inside calls made at a call site:
// minimum distances, whether each outcome was taken, and how many times
// the node was evaluated in those calls, 2 standing for two or more.
type CalleeEval struct {
	Site, Node     int32
	DistT, DistF   float64
	TakenT, TakenF bool
	Evals          uint8
}

// AppendTrace appends the encoding of the current test's trace to buf.
func AppendTrace(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(rTouched)))
	for _, n := range rTouched {
		buf = binary.AppendUvarint(buf, uint64(n))
		buf = appendDist(buf, rDist[2*n])
		buf = appendDist(buf, rDist[2*n+1])
		buf = binary.AppendUvarint(buf, uint64(rFirst[2*n]))
		buf = binary.AppendUvarint(buf, uint64(rFirst[2*n+1]))
		buf = append(buf, rEvals[n])
	}
	buf = binary.AppendUvarint(buf, uint64(len(siteTouched)))
	for _, s := range siteTouched {
		buf = binary.AppendUvarint(buf, uint64(s))
		buf = binary.AppendUvarint(buf, uint64(siteEnter[s]))
		buf = append(buf, siteEnters[s])
	}
	buf = binary.AppendUvarint(buf, uint64(len(ctxTouch)))
	for _, k := range ctxTouch {
		s, n := slotOwner(k)
		buf = binary.AppendUvarint(buf, uint64(s))
		buf = binary.AppendUvarint(buf, uint64(n))
		buf = appendDist(buf, ctxDist[2*k])
		buf = appendDist(buf, ctxDist[2*k+1])
		// One byte: bit 0 true taken, bit 1 false taken, bits 2-3 the
		// evaluations.
		taken := ctxEvals[k] << 2
		if ctxLast[2*k] != 0 {
			taken |= 1
		}
		if ctxLast[2*k+1] != 0 {
			taken |= 2
		}
		buf = append(buf, taken)
	}
	buf = binary.AppendUvarint(buf, uint64(len(coveredList)))
	for _, g := range coveredList {
		buf = binary.AppendUvarint(buf, uint64(g))
	}
	c := currentCost()
	for _, v := range [...]uint64{c.Loops, c.Calls, c.Allocs, c.Stmts, uint64(stepBlocks.Load())} {
		buf = binary.AppendUvarint(buf, v)
	}
	if extras != 0 {
		buf = appendExtras(buf)
	}
	return buf
}

// appendExtras appends the record of the extra probes.
func appendExtras(buf []byte) []byte {
	buf = appendInts(buf, lineTouched)
	buf = binary.AppendUvarint(buf, uint64(len(callTouch)))
	for _, f := range callTouch {
		buf = binary.AppendUvarint(buf, uint64(f))
		buf = append(buf, callFlags[f])
	}
	buf = binary.AppendUvarint(buf, uint64(len(outTouch)))
	for _, s := range outTouch {
		buf = binary.AppendUvarint(buf, uint64(s))
		for _, d := range outDist[s] {
			buf = appendDist(buf, d)
		}
	}
	buf = appendInts(buf, directList)
	buf = binary.AppendUvarint(buf, uint64(len(mutTouch)))
	for _, m := range mutTouch {
		buf = binary.AppendUvarint(buf, uint64(m))
		buf = append(buf, mutState[m])
	}
	// A goroutine the test left behind may record a panic meanwhile.
	panicMu.Lock()
	defer panicMu.Unlock()
	buf = binary.AppendUvarint(buf, uint64(len(panicKeys)))
	for _, k := range panicKeys {
		buf = binary.AppendUvarint(buf, uint64(len(k)))
		buf = append(buf, k...)
	}
	return buf
}

func appendInts(buf []byte, xs []int32) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(xs)))
	for _, x := range xs {
		buf = binary.AppendUvarint(buf, uint64(x))
	}
	return buf
}

// slotOwner maps a global callee slot back to its site and node.
func slotOwner(k int32) (site, node int32) { return slotSite[k], slotNode[k] }

func appendDist(buf []byte, d float64) []byte {
	return binary.LittleEndian.AppendUint64(buf, math.Float64bits(d))
}

var errTrace = errors.New("malformed trace")

// DecodeTrace decodes a trace produced by AppendTrace and returns the rest
// of the buffer.
func DecodeTrace(b []byte) (*Trace, []byte, error) {
	r := reader{b: b}
	t := &Trace{}
	n := r.uvarint()
	t.Caller = reserve[CallerEval](&r, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		t.Caller = append(t.Caller, CallerEval{
			Node: int32(r.uvarint()), DistT: r.dist(), DistF: r.dist(),
			FirstT: uint32(r.uvarint()), FirstF: uint32(r.uvarint()), Evals: r.byte(),
		})
	}
	n = r.uvarint()
	t.Sites = reserve[SiteEval](&r, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		t.Sites = append(t.Sites, SiteEval{Site: int32(r.uvarint()), LastEnter: uint32(r.uvarint()), Entries: r.byte()})
	}
	n = r.uvarint()
	t.Callee = reserve[CalleeEval](&r, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		e := CalleeEval{Site: int32(r.uvarint()), Node: int32(r.uvarint()), DistT: r.dist(), DistF: r.dist()}
		taken := r.byte()
		e.TakenT, e.TakenF, e.Evals = taken&1 != 0, taken&2 != 0, taken>>2
		t.Callee = append(t.Callee, e)
	}
	t.Covered = r.ints()
	t.Cost = Cost{Loops: r.uvarint(), Calls: r.uvarint(), Allocs: r.uvarint(), Stmts: r.uvarint()}
	t.StepBlocks = uint32(r.uvarint())
	if r.err == nil && len(r.b) > 0 {
		r.extras(t)
	}
	return t, r.b, r.err
}

// extras decodes the record of the extra probes.
func (r *reader) extras(t *Trace) {
	t.Lines = r.ints()
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		f := int32(r.uvarint())
		t.Calls = append(t.Calls, CallEval{Func: f, Returned: r.byte()&2 != 0})
	}
	n = r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		o := OutputEval{Slot: int32(r.uvarint())}
		for k := range o.Dist {
			o.Dist[k] = r.dist()
		}
		t.Outputs = append(t.Outputs, o)
	}
	t.Direct = r.ints()
	n = r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		t.Mutants = append(t.Mutants, MutantEval{ID: int32(r.uvarint()), State: r.byte()})
	}
	n = r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		k := int(r.uvarint())
		if r.err != nil || k > len(r.b) {
			r.err = errTrace
			break
		}
		t.Panics = append(t.Panics, string(r.b[:k]))
		r.b = r.b[k:]
	}
}

// ints decodes a list written by appendInts.
func (r *reader) ints() []int32 {
	n := r.uvarint()
	out := reserve[int32](r, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		out = append(out, int32(r.uvarint()))
	}
	return out
}

type reader struct {
	b   []byte
	err error
}

// reserve returns an empty slice with room for the n elements a count
// read from the record announces (nil for none), bounded by the bytes
// left in the record, each element taking at least one: a damaged record
// cannot make it huge.
func reserve[T any](r *reader, n uint64) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, min(n, uint64(len(r.b))))
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errTrace
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) dist() float64 {
	if r.err != nil || len(r.b) < 8 {
		r.err = errTrace
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) < 1 {
		r.err = errTrace
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}
