package fitness

import (
	"math"

	"github.com/cling-go/cling/probe/rt"
)

// Layer is how far a test got towards a coupled branch (s, r, e), the
// three cases of the layered objective.
type Layer uint8

const (
	// CallerLayer: the test did not take r.
	CallerLayer Layer = iota
	// SiteLayer: the test took r but made no call at s after it.
	SiteLayer
	// CalleeLayer: the test made a call at s after taking r (and covers
	// the goal if e was taken in such a call).
	CalleeLayer
)

// Progress is what the whole-suite fitness needs to know of one test and
// one coupled branch (s, r, e) besides its objective: the layer the test
// reached, and for each layer how often the test reached that layer's
// decisive predicate, 2 standing for two or more:
//
//	CallerLayer  r's branching node evaluated (for an entry pseudo-branch,
//	             the function entered), anywhere in the test
//	SiteLayer    the call site s entered
//	CalleeLayer  e's branching node evaluated in calls made at s
//
// These are the predicates whose branch distance the objective reads at
// each layer (the site layer has none: reaching s after r is the whole
// question).
type Progress struct {
	Layer   Layer
	Reached [3]uint8
}

// Progress writes, for each goal in goals (all goals if nil), the progress
// of the test of trace tr into out, which must have one element per goal.
// A nil trace (a test that timed out or crashed) reached nothing.
func (o *Objectives) Progress(tr *rt.Trace, goals []int32, out []Progress) {
	if goals == nil {
		goals = o.allGoals
	}
	if tr == nil {
		clear(out[:len(goals)])
		return
	}
	o.load(tr)
	for i, gi := range goals {
		g := &o.goals[gi]
		var p Progress
		if ev := o.callerEval[g.rOut/2]; ev != nil {
			p.Reached[CallerLayer] = ev.Evals
		}
		p.Reached[SiteLayer] = o.siteEntries[g.site]
		if g.eSlotLocal >= 0 {
			if ev := o.calleeEval[o.slotBase[g.site]+g.eSlotLocal]; ev != nil {
				p.Reached[CalleeLayer] = ev.Evals
			}
		}
		switch first := o.first(g.rOut); {
		case o.covered[gi] || first != 0 && o.siteEnter[g.site] > first:
			p.Layer = CalleeLayer
		case first != 0:
			p.Layer = SiteLayer
		}
		out[i] = p
	}
}

// SuiteTerm is what one test did for one goal, packed for the
// whole-suite fitness, which adds up one per test and goal of every suite
// it rates: the layer reached and the objective, ordered so that the
// smaller term went further (a higher layer, then a smaller objective),
// and the Reached counts of the progress.
type SuiteTerm uint64

// The layout of a SuiteTerm: bits 62-63 hold CalleeLayer minus the layer,
// bits 30-61 the objective as a float32 (whose bits order as the numbers
// do for non-negative values), bits 0-5 the three Reached counts.
const termKeyShift = 30

// Term packs a test's objective for a goal and its progress.
func Term(objective float64, p Progress) SuiteTerm {
	k := uint64(CalleeLayer-p.Layer)<<62 | uint64(math.Float32bits(float32(objective)))<<termKeyShift
	for l, n := range p.Reached {
		k |= uint64(min(n, 2)) << (2 * l)
	}
	return SuiteTerm(k)
}

// SuiteGoal accumulates what the tests of a suite T do for one goal g, and
// gives the goal's whole-suite distance d(T, g), the rule of whole test
// suite generation carried to coupled branches:
//
//	d(T, g) = 0          if a test of T covers g
//	        = ν(best)    if T's tests reached the decisive predicate of
//	                     the highest layer any of them reached at least
//	                     twice in all
//	        = 1          otherwise
//
// where best is the smallest objective among the tests that reached that
// layer. A predicate reached only once cannot be steered towards its other
// outcome without losing the one it has; and ν(objective) keeps the layers
// apart (below 0.5 in the callee layer, 0.5 in the site layer, above 2/3
// in the caller layer), so a suite that goes further towards a goal is
// never worse on it. The zero value is a suite without tests.
type SuiteGoal struct {
	// best is the key (a SuiteTerm without its counts) of the test that
	// went furthest, plus one; 0 without tests.
	best    uint64
	reached [3]uint16
}

// Add accounts for one test of the suite.
func (s *SuiteGoal) Add(t SuiteTerm) {
	if k := uint64(t)>>termKeyShift + 1; s.best == 0 || k < s.best {
		s.best = k
	}
	s.reached[0] += uint16(t & 3)
	s.reached[1] += uint16(t >> 2 & 3)
	s.reached[2] += uint16(t >> 4 & 3)
}

// Distance is d(T, g), in [0, 1].
func (s *SuiteGoal) Distance() float64 {
	if s.best == 0 {
		return 1
	}
	k := s.best - 1
	best := float64(math.Float32frombits(uint32(k)))
	layer := CalleeLayer - Layer(k>>(62-termKeyShift))
	switch {
	case best == 0:
		return 0 // only a covering test scores 0
	case s.reached[layer] >= 2:
		return nu(best)
	}
	return 1
}
