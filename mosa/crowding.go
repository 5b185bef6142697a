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
	n := float64(len(f))
	for g := 0; g < goals; g++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, ind := range f {
			lo = math.Min(lo, ind.obj[g])
			hi = math.Max(hi, ind.obj[g])
		}
		if lo == hi {
			continue
		}
		atMin := 0
		for _, ind := range f {
			if ind.obj[g] == lo {
				atMin++
			}
		}
		d := (n - float64(atMin)) / n
		for _, ind := range f {
			if ind.obj[g] == lo && d > ind.crowding {
				ind.crowding = d
			}
		}
	}
}
