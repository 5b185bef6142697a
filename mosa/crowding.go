package mosa

import "math"

func init() {
	RegisterSecondary("crowding", "crowding distance: the most diverse tests of a front survive; the archive keeps the shortest test per goal (the default)",
		func(Config) (Secondary, error) { return crowdingSecondary{}, nil })
}

// CrowdingDistance is the heuristic of MOSA: the epsilon-dominance
// crowding distance within a front (see crowding).
var CrowdingDistance = Heuristic{Name: "crowding", assign: crowding}

// crowdingSecondary orders every front by crowding distance and keeps the
// shortest test per goal in the archive: MOSA as it was designed.
type crowdingSecondary struct{}

func (crowdingSecondary) ByPerformance() bool      { return false }
func (crowdingSecondary) Next(int, bool) Heuristic { return CrowdingDistance }

// crowding assigns epsilon-dominance crowding distances within a front:
// for every goal on which the front's values differ, the individuals at
// the minimum get credit for being few.
func crowding(f []*individual, goals int) {
	for _, ind := range f {
		ind.crowding = 0
	}
	if len(f) <= 2 {
		for _, ind := range f {
			ind.crowding = math.Inf(1)
		}
		return
	}
	// Individual by individual, which reads each one's objectives in
	// order: per goal its minimum and maximum over the front (a goal
	// with a NaN among its values credits no one), then how many
	// individuals are at the minimum.
	lo, hi := make([]float64, goals), make([]float64, goals)
	nan := make([]bool, goals)
	for g := range lo {
		lo[g], hi[g] = math.Inf(1), math.Inf(-1)
	}
	for _, ind := range f {
		for g, v := range ind.obj[:goals] {
			switch {
			case v != v:
				nan[g] = true
			case v < lo[g]:
				lo[g] = v
			}
			if v > hi[g] {
				hi[g] = v
			}
		}
	}
	atMin := make([]int, goals)
	for _, ind := range f {
		for g, v := range ind.obj[:goals] {
			if v == lo[g] {
				atMin[g]++
			}
		}
	}
	n := float64(len(f))
	for _, ind := range f {
		for g, v := range ind.obj[:goals] {
			if v == lo[g] && lo[g] != hi[g] && !nan[g] {
				if d := (n - float64(atMin[g])) / n; d > ind.crowding {
					ind.crowding = d
				}
			}
		}
	}
}
