package couple

import (
	"math"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/probe/rt"
)

// Fitness selects the objective of a coupled branch.
type Fitness int

const (
	// Layered is cling's default, monotone objective:
	//
	//	d(c,t) = 2 + ν(D(r,t))   if r is not covered
	//	       = 1               if r is covered but s is not reached after r
	//	       = ν(D(e,t | s))   otherwise, over evaluations inside calls from s
	//
	// so a test that takes r always scores better than one that does not.
	Layered Fitness = iota
	// Paper is the form of paper 002: D(r,t)+1 if r is not covered, else
	// D(e,t | s). It is not monotone: an uncovered r with a near branch
	// distance can score better than a covered r with a far e.
	Paper
)

// nu normalises a distance into [0, 1): ν(x) = x/(x+1).
func nu(x float64) float64 {
	if math.IsInf(x, 1) || x >= math.MaxFloat64 {
		return 1
	}
	return x / (x + 1)
}

// minCalleeDistance is the objective of a goal whose callee branch was
// taken inside a call from s, but only in a call that began before r: the
// test is very close, yet not covering.
const minCalleeDistance = 0.001

// Objectives computes, from a test's trace, one objective value per
// coupled branch: 0 when covered, larger the farther the test is.
// D(b,t) is the approach level (the number of control dependences between
// b and the nearest branching node the test evaluated, counted on the
// CCFG across functions) plus the normalised branch distance at that node.
type Objectives struct {
	a    *Analysis
	ix   *Index
	kind Fitness
	anc  map[*ccfg.BranchNode][][]Branch

	// Per-trace scratch.
	callerEval []*rt.CallerEval
	touched    []int32
	siteEnter  []uint32
	slotOf     []map[int32]int32
	slotBase   []int32
	calleeEval []*rt.CalleeEval
	slotTouch  []int32
	covered    map[int32]bool
}

// NewObjectives prepares the objectives of an analysis.
func (a *Analysis) NewObjectives(kind Fitness) *Objectives {
	ix := a.Index()
	o := &Objectives{a: a, ix: ix, kind: kind, anc: map[*ccfg.BranchNode][][]Branch{}}
	o.callerEval = make([]*rt.CallerEval, len(ix.Nodes))
	o.siteEnter = make([]uint32, len(a.Sites))
	total := int32(0)
	for _, slots := range ix.SiteSlots {
		m := map[int32]int32{}
		for k, n := range slots {
			m[n] = int32(k)
		}
		o.slotOf = append(o.slotOf, m)
		o.slotBase = append(o.slotBase, total)
		total += int32(len(slots))
	}
	o.calleeEval = make([]*rt.CalleeEval, total)
	return o
}

// ancestors returns the branches controlling node n, by level: level 0 are
// the branches n is directly control dependent on, level 1 theirs, and so
// on up to entry pseudo-branches.
func (o *Objectives) ancestors(n *ccfg.BranchNode) [][]Branch {
	if lv, ok := o.anc[n]; ok {
		return lv
	}
	c := o.a.Caller
	if n.Pkg == o.a.Callee.Pkg {
		c = o.a.Callee
	}
	seen := map[*ccfg.BranchNode]bool{n: true}
	var levels [][]Branch
	frontier := []*ccfg.BranchNode{n}
	for len(frontier) > 0 && len(levels) < 64 {
		var level []Branch
		var next []*ccfg.BranchNode
		for _, m := range frontier {
			for _, b := range o.a.ctl.controlling(c, m.Func, m.Func.BlocksOf(m)) {
				level = append(level, b)
				if b.Node != nil && !seen[b.Node] {
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
	o.anc[n] = levels
	return levels
}

// load indexes a trace for lookups.
func (o *Objectives) load(tr *rt.Trace) {
	for _, n := range o.touched {
		o.callerEval[n] = nil
	}
	o.touched = o.touched[:0]
	for i := range o.siteEnter {
		o.siteEnter[i] = 0
	}
	for _, k := range o.slotTouch {
		o.calleeEval[k] = nil
	}
	o.slotTouch = o.slotTouch[:0]
	o.covered = map[int32]bool{}
	for i := range tr.Caller {
		ev := &tr.Caller[i]
		if int(ev.Node) < len(o.callerEval) {
			o.callerEval[ev.Node] = ev
			o.touched = append(o.touched, ev.Node)
		}
	}
	for _, s := range tr.Sites {
		if int(s.Site) < len(o.siteEnter) {
			o.siteEnter[s.Site] = s.LastEnter
		}
	}
	for i := range tr.Callee {
		ev := &tr.Callee[i]
		if int(ev.Site) >= len(o.slotOf) {
			continue
		}
		if k, ok := o.slotOf[ev.Site][ev.Node]; ok {
			g := o.slotBase[ev.Site] + k
			o.calleeEval[g] = ev
			o.slotTouch = append(o.slotTouch, g)
		}
	}
	for _, g := range tr.Covered {
		o.covered[g] = true
	}
}

// Evaluate writes the objective of each goal in goals (all goals if nil)
// for trace tr into out, which must have one element per goal evaluated.
// A nil trace (a test that timed out or crashed) scores worst.
func (o *Objectives) Evaluate(tr *rt.Trace, goals []int32, out []float64) {
	if goals == nil {
		goals = make([]int32, len(o.a.Goals))
		for i := range goals {
			goals[i] = int32(i)
		}
	}
	if tr == nil {
		for i := range goals {
			out[i] = 3
		}
		return
	}
	o.load(tr)
	rCache := map[int32]float64{}
	eCache := map[[2]int32]float64{}
	for i, gi := range goals {
		g := o.a.Goals[gi]
		if o.covered[gi] {
			out[i] = 0
			continue
		}
		rOut := o.ix.Outcome(g.R)
		first := o.first(rOut)
		if first == 0 {
			d, ok := rCache[rOut]
			if !ok {
				d = o.callerDistance(g.R)
				rCache[rOut] = d
			}
			if o.kind == Paper {
				out[i] = d + 1
			} else {
				out[i] = 2 + nu(d)
			}
			continue
		}
		if o.kind == Layered && o.siteEnter[g.Site.Index] <= first {
			out[i] = 1
			continue
		}
		key := [2]int32{int32(g.Site.Index), o.ix.Outcome(g.E)}
		d, ok := eCache[key]
		if !ok {
			d = o.calleeDistance(g.E, g.Site.Index)
			eCache[key] = d
		}
		v := d
		if o.kind == Layered {
			v = nu(d)
		}
		out[i] = math.Max(v, minCalleeDistance)
	}
}

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

// callerDistance is D(b,t) for a branch of R.
func (o *Objectives) callerDistance(b Branch) float64 {
	if b.IsEntry() {
		return o.entryDistance(b, -1)
	}
	if d, ok := o.evaluated(b, -1); ok {
		return nu(d)
	}
	return o.approach(b.Node, -1)
}

// calleeDistance is D(e,t | s) for a branch of E in the context of site s.
func (o *Objectives) calleeDistance(b Branch, site int) float64 {
	if d, ok := o.evaluated(b, site); ok {
		return nu(d)
	}
	return o.approach(b.Node, site)
}

// approach walks up the control dependences of node n to the nearest
// level with an evaluated node: approach level plus the normalised branch
// distance there.
func (o *Objectives) approach(n *ccfg.BranchNode, site int) float64 {
	levels := o.ancestors(n)
	for k, level := range levels {
		best := math.Inf(1)
		for _, p := range level {
			var d float64
			ok := true
			if p.IsEntry() {
				d = o.entryDistance(p, site)
			} else {
				var raw float64
				raw, ok = o.evaluated(p, site)
				d = nu(raw)
			}
			if ok && d < best {
				best = d
			}
		}
		if !math.IsInf(best, 1) {
			return float64(k+1) + best
		}
	}
	return float64(len(levels) + 1)
}

// evaluated returns the branch distance of an evaluated node to the
// outcome b, in the caller (site < 0) or in the context of a call site.
func (o *Objectives) evaluated(b Branch, site int) (float64, bool) {
	n := o.ix.NodeIndex(b.Node)
	if site < 0 {
		ev := o.callerEval[n]
		if ev == nil {
			return 0, false
		}
		if b.Outcome {
			return ev.DistT, true
		}
		return ev.DistF, true
	}
	k, ok := o.slotOf[site][n]
	if !ok {
		return 0, false
	}
	ev := o.calleeEval[o.slotBase[site]+k]
	if ev == nil {
		return 0, false
	}
	if b.Outcome {
		return ev.DistT, true
	}
	return ev.DistF, true
}

// entryDistance is the distance of an entry pseudo-branch: ENTRY always
// runs; the branch distance is 0 if the function was entered, 1 if not.
func (o *Objectives) entryDistance(b Branch, site int) float64 {
	i, ok := o.ix.EntryIndex(b.Entry)
	if !ok {
		return nu(1)
	}
	if site < 0 {
		if o.callerEval[i] != nil {
			return 0
		}
		return nu(1)
	}
	if k, ok := o.slotOf[site][i]; ok && o.calleeEval[o.slotBase[site]+k] != nil {
		return 0
	}
	return nu(1)
}
