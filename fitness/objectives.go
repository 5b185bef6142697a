package fitness

import (
	"math"
	"slices"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/probe/rt"
)

// Objectives computes, from a test's trace, one objective value per
// coupled branch: 0 when covered, larger the farther the test is.
// D(b,t) is the approach level (the number of control dependences between
// b and the nearest branching node the test evaluated, counted on the
// CCFG across functions) plus the normalised branch distance at that node.
//
// Objectives are evaluated for every test of the search, so everything is
// numbered in advance and looked up in slices.
type Objectives struct {
	a    *couple.Analysis
	ix   *couple.Index
	form Form

	goals []goalInfo
	// anc holds, per node number, its control-dependence ancestors by
	// level (computed on first use).
	anc     [][][]ancestor
	ancDone []bool
	// slotOf maps site*nodes+node to the node's slot in the site's context
	// (-1 if none); slotBase is each site's first global slot.
	slotOf   []int32
	slotBase []int32
	nodes    int32
	// nodeSites lists per node the sites that observe it (on first use).
	nodeSites [][]int32
	// plans holds, per global slot, the control-dependence ancestors of
	// the slot's node resolved to the slots of its site (on first use):
	// approach in the calls of a site without looking up slotOf.
	plans []*approachPlan

	// Per-trace state, reset through the touched lists.
	callerEval []*rt.CallerEval
	touched    []int32
	siteEnter  []uint32
	// siteEntries counts the entries of each site, up to 2.
	siteEntries []uint8
	calleeEval  []*rt.CalleeEval
	slotTouch   []int32
	covered     []bool
	covTouch    []int32
	// loaded is the trace indexed now.
	loaded *rt.Trace
	// Caches of D(r) per caller outcome and D(e|s) per callee slot
	// outcome, valid for the trace whose stamp they carry.
	stamp  uint32
	rCache []float64
	rStamp []uint32
	eCache []float64
	eStamp []uint32
	// The approach part of D(e|s) per callee slot (it does not depend on
	// the outcome), for the trace whose stamp it carries.
	aCache []float64
	aStamp []uint32
	// BranchDistance's answers per outcome number, for the trace whose
	// stamp they carry: the line and mutant goals of several criteria
	// ask for the same guards.
	bCache   []float64
	bStamp   []uint32
	allGoals []int32
	// fork is the copy EvaluateFork hands out (made on first use).
	fork *Objectives
}

// goalInfo is a coupled branch in numbers.
type goalInfo struct {
	site       int32
	rOut       int32 // caller outcome number (entry pseudo-branches: 2*entry)
	r          couple.Branch
	eNode      int32 // callee node number
	eTrue      bool
	eSlotLocal int32 // slot of eNode in the site's context
}

// ancestor is a branch controlling a node: a node's outcome, or an entry
// pseudo-branch.
type ancestor struct {
	node    int32 // node number; for an entry, the entry pseudo-node number
	outcome bool
	entry   bool
}

// NewObjectives prepares the objectives, in the given form, of the coupled
// branches of an analysis.
func NewObjectives(a *couple.Analysis, form Form) *Objectives {
	ix := a.Index()
	n := int32(len(ix.Nodes))
	// The caches' stamps start at 0: no trace is stamped 0.
	o := &Objectives{a: a, ix: ix, form: form, nodes: n, stamp: 1}
	o.anc = make([][][]ancestor, n)
	o.ancDone = make([]bool, n)
	o.slotOf = make([]int32, len(a.Sites)*int(n))
	for i := range o.slotOf {
		o.slotOf[i] = -1
	}
	total := int32(0)
	for s, slots := range ix.SiteSlots {
		o.slotBase = append(o.slotBase, total)
		for k, node := range slots {
			o.slotOf[int32(s)*n+node] = int32(k)
		}
		total += int32(len(slots))
	}
	o.plans = make([]*approachPlan, total)
	o.allocTraceState()
	o.allGoals = make([]int32, len(a.Goals))
	for i, g := range a.Goals {
		o.allGoals[i] = int32(i)
		en := ix.NodeIndex(g.E.Node)
		o.goals = append(o.goals, goalInfo{
			site: int32(g.Site.Index), rOut: ix.Outcome(g.R), r: g.R,
			eNode: en, eTrue: g.E.Outcome, eSlotLocal: o.slotOf[int32(g.Site.Index)*n+en],
		})
	}
	return o
}

// allocTraceState makes the per-trace state and caches, for the
// analysis, nodes and slots o holds.
func (o *Objectives) allocTraceState() {
	n, total := o.nodes, int32(len(o.plans))
	o.callerEval = make([]*rt.CallerEval, n)
	o.siteEnter = make([]uint32, len(o.a.Sites))
	o.siteEntries = make([]uint8, len(o.a.Sites))
	o.calleeEval = make([]*rt.CalleeEval, total)
	o.covered = make([]bool, len(o.a.Goals))
	o.rCache = make([]float64, 2*n)
	o.rStamp = make([]uint32, 2*n)
	o.bCache = make([]float64, 2*n)
	o.bStamp = make([]uint32, 2*n)
	o.eCache = make([]float64, 2*total)
	o.eStamp = make([]uint32, 2*total)
	o.aCache = make([]float64, total)
	o.aStamp = make([]uint32, total)
}

// Fork returns objectives that evaluate as o does and may run on another
// goroutine while o runs: they share the analysis and what o worked out
// of it so far, and hold their own per-trace state and caches. o must not
// run while Fork does.
func (o *Objectives) Fork() *Objectives {
	f := &Objectives{
		a: o.a, ix: o.ix, form: o.form, goals: o.goals,
		anc: slices.Clone(o.anc), ancDone: slices.Clone(o.ancDone),
		slotOf: o.slotOf, slotBase: o.slotBase, nodes: o.nodes,
		// nodeSites is made whole on first use, then only read.
		nodeSites: o.nodeSites,
		plans:     slices.Clone(o.plans),
		stamp:     1,
		allGoals:  o.allGoals,
	}
	f.allocTraceState()
	return f
}

// EvaluateFork returns the Evaluate of a fork of o (Fork), made once: it
// may run on another goroutine while o runs (mosa.Forker).
func (o *Objectives) EvaluateFork() func(tr *rt.Trace, goals []int32, out []float64) {
	if o.fork == nil {
		o.fork = o.Fork()
	}
	return o.fork.Evaluate
}

// Join is told of the traces a fork evaluated; o learns nothing from
// them (mosa.Forker).
func (o *Objectives) Join(*rt.Trace) {}

// ancestors returns the branches controlling node number i, by level:
// level 0 are the branches it is directly control dependent on, level 1
// theirs, and so on up to entry pseudo-branches.
func (o *Objectives) ancestors(i int32) [][]ancestor {
	if o.ancDone[i] {
		return o.anc[i]
	}
	o.ancDone[i] = true
	n := o.ix.Nodes[i].Node
	seen := map[*ccfg.BranchNode]bool{n: true}
	var levels [][]ancestor
	frontier := []*ccfg.BranchNode{n}
	for len(frontier) > 0 && len(levels) < 64 {
		var level []ancestor
		var next []*ccfg.BranchNode
		for _, m := range frontier {
			for _, b := range o.a.Controlling(m) {
				if b.IsEntry() {
					e, _ := o.ix.EntryIndex(b.Entry)
					level = append(level, ancestor{node: e, entry: true})
					continue
				}
				level = append(level, ancestor{node: o.ix.NodeIndex(b.Node), outcome: b.Outcome})
				if !seen[b.Node] {
					seen[b.Node] = true
					next = append(next, b.Node)
				}
			}
		}
		if len(level) == 0 {
			break
		}
		levels = append(levels, level)
		frontier = next
	}
	o.anc[i] = levels
	return levels
}

// load indexes a trace for lookups; the trace loaded last is indexed
// already (a trace is not changed once decoded), which spares the
// criteria a second pass over it after Evaluate.
func (o *Objectives) load(tr *rt.Trace) {
	if tr == o.loaded {
		return
	}
	o.loaded = tr
	for _, n := range o.touched {
		o.callerEval[n] = nil
	}
	o.touched = o.touched[:0]
	clear(o.siteEnter)
	clear(o.siteEntries)
	for _, k := range o.slotTouch {
		o.calleeEval[k] = nil
	}
	o.slotTouch = o.slotTouch[:0]
	for _, g := range o.covTouch {
		o.covered[g] = false
	}
	o.covTouch = o.covTouch[:0]
	o.stamp++
	for i := range tr.Caller {
		ev := &tr.Caller[i]
		if ev.Node >= 0 && ev.Node < o.nodes {
			o.callerEval[ev.Node] = ev
			o.touched = append(o.touched, ev.Node)
		}
	}
	for _, s := range tr.Sites {
		if int(s.Site) < len(o.siteEnter) {
			o.siteEnter[s.Site], o.siteEntries[s.Site] = s.LastEnter, s.Entries
		}
	}
	for i := range tr.Callee {
		ev := &tr.Callee[i]
		if int(ev.Site) >= len(o.slotBase) || ev.Node < 0 || ev.Node >= o.nodes {
			continue
		}
		if k := o.slotOf[ev.Site*o.nodes+ev.Node]; k >= 0 {
			g := o.slotBase[ev.Site] + k
			o.calleeEval[g] = ev
			o.slotTouch = append(o.slotTouch, g)
		}
	}
	for _, g := range tr.Covered {
		if int(g) < len(o.covered) && !o.covered[g] {
			o.covered[g] = true
			o.covTouch = append(o.covTouch, g)
		}
	}
}

// Evaluate writes the objective of each goal in goals (all goals if nil)
// for trace tr into out, which must have one element per goal evaluated.
// A nil trace (a test that timed out or crashed) scores worst.
func (o *Objectives) Evaluate(tr *rt.Trace, goals []int32, out []float64) {
	if goals == nil {
		goals = o.allGoals
	}
	if tr == nil {
		for i := range goals {
			out[i] = Worst
		}
		return
	}
	o.load(tr)
	for i, gi := range goals {
		if o.covered[gi] {
			out[i] = 0
			continue
		}
		g := &o.goals[gi]
		first := o.first(g.rOut)
		if first == 0 {
			d := o.callerDistanceCached(g)
			if o.form == Paper {
				out[i] = d + 1
			} else {
				out[i] = 2 + nu(d)
			}
			continue
		}
		if o.form == Layered && o.siteEnter[g.site] <= first {
			out[i] = 1
			continue
		}
		d := o.calleeDistanceCached(g)
		v := d
		if o.form == Layered {
			v = nu(d)
		}
		if v < minCalleeDistance {
			v = minCalleeDistance // math.Max(v, minCalleeDistance), NaN and -0 included
		}
		out[i] = v
	}
}

// Worst is the objective of a goal for a test that did not run, or was
// not evaluated for that goal: the constant Worst.
func (o *Objectives) Worst() float64 { return Worst }

// first returns the sequence number of the first time an outcome of R was
// taken, 0 if never.
func (o *Objectives) first(out int32) uint32 {
	ev := o.callerEval[out/2]
	if ev == nil {
		return 0
	}
	if out%2 == 0 {
		return ev.FirstT
	}
	return ev.FirstF
}

func (o *Objectives) callerDistanceCached(g *goalInfo) float64 {
	return o.callerDistance(g.rOut/2, g.rOut%2 == 0)
}

// callerDistance is D(b, t) of outcome outcome of node i in the caller,
// remembered for the loaded trace.
func (o *Objectives) callerDistance(i int32, outcome bool) float64 {
	k := outcomeNumber(i, outcome)
	if o.rStamp[k] != o.stamp {
		o.rStamp[k], o.rCache[k] = o.stamp, o.distance(i, outcome, -1)
	}
	return o.rCache[k]
}

func (o *Objectives) calleeDistanceCached(g *goalInfo) float64 {
	key := int32(-1)
	if g.eSlotLocal >= 0 {
		key = 2 * (o.slotBase[g.site] + g.eSlotLocal)
		if !g.eTrue {
			key++
		}
		if o.eStamp[key] == o.stamp {
			return o.eCache[key]
		}
	}
	if key < 0 {
		if raw, ok := o.evaluated(g.eNode, g.eTrue, int(g.site)); ok {
			return nu(raw)
		}
		return o.approach(g.eNode, int(g.site))
	}
	slot := key / 2
	var d float64
	if ev := o.calleeEval[slot]; ev != nil {
		if g.eTrue {
			d = nu(ev.DistT)
		} else {
			d = nu(ev.DistF)
		}
	} else {
		if o.aStamp[slot] != o.stamp {
			o.aStamp[slot], o.aCache[slot] = o.stamp, o.planned(slot, g.eNode, g.site)
		}
		d = o.aCache[slot]
	}
	o.eStamp[key], o.eCache[key] = o.stamp, d
	return d
}

// approachPlan is the control-dependence ancestry of a callee node in the
// calls of one site, level by level, with each ancestor's slot at that
// site worked out once: steps holds the levels one after another, and
// ends[k] is where level k ends.
type approachPlan struct {
	steps []planStep
	ends  []int32
}

// planStep is an ancestor resolved to its slot at the plan's site: a
// branch outcome (only those with a slot, which are the ones a trace can
// evaluate), or an entry pseudo-branch (slot -1 when the site's calls
// never observe the entry, whose distance is then always ν(1)).
type planStep struct {
	slot    int32
	outcome bool
	entry   bool
}

// planned is approach(node, site) for the node of a global slot: the same
// walk, over the slot's plan.
func (o *Objectives) planned(slot, node, site int32) float64 {
	p := o.plans[slot]
	if p == nil {
		p = o.plan(node, site)
		o.plans[slot] = p
	}
	start := int32(0)
	for k, end := range p.ends {
		best := math.Inf(1)
		for _, st := range p.steps[start:end] {
			var d float64
			if st.entry {
				if st.slot >= 0 && o.calleeEval[st.slot] != nil {
					d = 0
				} else {
					d = nu(1)
				}
			} else {
				ev := o.calleeEval[st.slot]
				if ev == nil {
					continue
				}
				if st.outcome {
					d = nu(ev.DistT)
				} else {
					d = nu(ev.DistF)
				}
			}
			if d < best {
				best = d
			}
		}
		if !math.IsInf(best, 1) {
			return float64(k+1) + best
		}
		start = end
	}
	return float64(len(p.ends) + 1)
}

// plan resolves the ancestors of node at site to the site's slots.
func (o *Objectives) plan(node, site int32) *approachPlan {
	p := &approachPlan{}
	for _, level := range o.ancestors(node) {
		for _, a := range level {
			k := o.slotOf[site*o.nodes+a.node]
			switch {
			case a.entry && k < 0:
				p.steps = append(p.steps, planStep{slot: -1, entry: true})
			case k >= 0:
				p.steps = append(p.steps, planStep{slot: o.slotBase[site] + k, outcome: a.outcome, entry: a.entry})
			}
		}
		p.ends = append(p.ends, int32(len(p.steps)))
	}
	return p
}

// approach walks up the control dependences of node i to the nearest
// level with an evaluated node: approach level plus the normalised branch
// distance there.
func (o *Objectives) approach(i int32, site int) float64 {
	levels := o.ancestors(i)
	for k, level := range levels {
		best := math.Inf(1)
		for _, p := range level {
			var d float64
			if p.entry {
				d = o.entryDist(p.node, site)
			} else {
				raw, ok := o.evaluated(p.node, p.outcome, site)
				if !ok {
					continue
				}
				d = nu(raw)
			}
			if d < best {
				best = d
			}
		}
		if !math.IsInf(best, 1) {
			return float64(k+1) + best
		}
	}
	return float64(len(levels) + 1)
}

// evaluated returns the branch distance of node i, if the test evaluated
// it, to its outcome, in the caller (site < 0) or in the context of a call
// site.
func (o *Objectives) evaluated(i int32, outcome bool, site int) (float64, bool) {
	if site < 0 {
		ev := o.callerEval[i]
		if ev == nil {
			return 0, false
		}
		if outcome {
			return ev.DistT, true
		}
		return ev.DistF, true
	}
	k := o.slotOf[int32(site)*o.nodes+i]
	if k < 0 {
		return 0, false
	}
	ev := o.calleeEval[o.slotBase[site]+k]
	if ev == nil {
		return 0, false
	}
	if outcome {
		return ev.DistT, true
	}
	return ev.DistF, true
}

// entryDist is the distance of an entry pseudo-branch (entry pseudo-node
// number e): ENTRY always runs; the branch distance is 0 if the function
// was entered, 1 if not.
func (o *Objectives) entryDist(e int32, site int) float64 {
	if site < 0 {
		if o.callerEval[e] != nil {
			return 0
		}
		return nu(1)
	}
	if k := o.slotOf[int32(site)*o.nodes+e]; k >= 0 && o.calleeEval[o.slotBase[site]+k] != nil {
		return 0
	}
	return nu(1)
}
