package fitness

import "github.com/cling-go/cling/probe/rt"

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
	covered bool
	layer   Layer
	best    float64 // smallest objective in layer
	any     bool    // a test was added
	reached [3]uint8
}

// Add accounts for one test of the suite: its objective for the goal and
// its progress.
func (s *SuiteGoal) Add(objective float64, p Progress) {
	if objective == 0 {
		s.covered = true
	}
	switch {
	case !s.any || p.Layer > s.layer:
		s.layer, s.best, s.any = p.Layer, objective, true
	case p.Layer == s.layer && objective < s.best:
		s.best = objective
	}
	for k, n := range p.Reached {
		s.reached[k] = min(2, s.reached[k]+n)
	}
}

// Distance is d(T, g), in [0, 1].
func (s *SuiteGoal) Distance() float64 {
	switch {
	case s.covered:
		return 0
	case s.any && s.reached[s.layer] >= 2:
		return nu(s.best)
	}
	return 1
}
