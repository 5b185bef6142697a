package fitness

import (
	"math"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/probe/rt"
)

// Load indexes trace tr for BranchDistance and Taken (Evaluate and
// Progress load their trace themselves). A nil trace reached nothing.
func (o *Objectives) Load(tr *rt.Trace) {
	if tr == nil {
		tr = &rt.Trace{}
	}
	o.load(tr)
}

// Taken reports whether the test of the loaded trace took branch b: a
// branch of R anywhere, a branch of E during a call made at one of R's
// call sites (an entry:<func> pseudo-branch: the function entered).
func (o *Objectives) Taken(b couple.Branch) bool {
	return o.taken(o.branchNode(b))
}

// taken is Taken of outcome outcome of node i.
func (o *Objectives) taken(i int32, outcome bool) bool {
	if !o.ix.Nodes[i].InCallee() {
		return o.first(outcomeNumber(i, outcome)) != 0
	}
	for _, s := range o.sitesOf(i) {
		if ev := o.calleeEval[o.slotBase[s]+o.slotOf[s*o.nodes+i]]; ev != nil && (outcome && ev.TakenT || !outcome && ev.TakenF) {
			return true
		}
	}
	return false
}

// BranchDistance is how far the test of the loaded trace is from taking
// branch b, normalised to [0, 1): 0 when it took b; for a branch of R,
// ν(D(b, t)); for a branch of E, ν(D(b, t | s))/2 for the closest call
// site s whose calls can reach b if the test made a call there, and
// 1/2 + ν(D(r, t))/2 for the closest caller target r of such a site
// otherwise, so that entering the callee in context always counts as
// progress. D is the approach level plus the normalised branch distance.
func (o *Objectives) BranchDistance(b couple.Branch) float64 {
	i, outcome := o.branchNode(b)
	k := outcomeNumber(i, outcome)
	if o.bStamp[k] != o.stamp {
		o.bStamp[k], o.bCache[k] = o.stamp, o.branchDistance(i, outcome)
	}
	return o.bCache[k]
}

// branchDistance is BranchDistance of outcome outcome of node i, worked
// out.
func (o *Objectives) branchDistance(i int32, outcome bool) float64 {
	if o.taken(i, outcome) {
		return 0
	}
	if !o.ix.Nodes[i].InCallee() {
		return nu(o.callerDistance(i, outcome))
	}
	best, entered := math.Inf(1), false
	for _, s := range o.sitesOf(i) {
		if o.siteEnter[s] == 0 {
			continue
		}
		entered = true
		best = math.Min(best, o.distance(i, outcome, int(s)))
	}
	if entered {
		return nu(best) / 2
	}
	best = math.Inf(1)
	for _, s := range o.sitesOf(i) {
		for _, r := range o.a.Sites[s].CallerTargets {
			ri, rOutcome := o.branchNode(r)
			if o.first(outcomeNumber(ri, rOutcome)) != 0 {
				best = 0 // r taken, but s never entered
				break
			}
			best = math.Min(best, o.callerDistance(ri, rOutcome))
		}
	}
	if math.IsInf(best, 1) {
		return 1 - 1e-9
	}
	return 0.5 + nu(best)/2
}

// distance is D(b, t) for outcome outcome of node i, in the caller
// (site < 0) or in the calls made at a call site: the branch distance if
// the node was evaluated, else the approach level plus the distance at the
// nearest evaluated ancestor. An entry pseudo-node's distance is 0 when
// the function was entered and ν(1) when not.
func (o *Objectives) distance(i int32, outcome bool, site int) float64 {
	if o.ix.Nodes[i].Node == nil {
		return o.entryDist(i, site)
	}
	if raw, ok := o.evaluated(i, outcome, site); ok {
		return nu(raw)
	}
	return o.approach(i, site)
}

// branchNode returns the node number and outcome of a branch (an entry
// pseudo-branch is the true outcome of its pseudo-node).
func (o *Objectives) branchNode(b couple.Branch) (int32, bool) {
	if b.IsEntry() {
		i, _ := o.ix.EntryIndex(b.Entry)
		return i, true
	}
	return o.ix.NodeIndex(b.Node), b.Outcome
}

// sitesOf lists the call sites in whose calls node i is observed.
func (o *Objectives) sitesOf(i int32) []int32 {
	if o.nodeSites == nil {
		o.nodeSites = make([][]int32, o.nodes)
		for s := range o.slotBase {
			for n := int32(0); n < o.nodes; n++ {
				if o.slotOf[int32(s)*o.nodes+n] >= 0 {
					o.nodeSites[n] = append(o.nodeSites[n], int32(s))
				}
			}
		}
	}
	return o.nodeSites[i]
}

// outcomeNumber is 2*node for the true outcome, 2*node+1 for false.
func outcomeNumber(i int32, outcome bool) int32 {
	if outcome {
		return 2 * i
	}
	return 2*i + 1
}
