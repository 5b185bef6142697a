package mosa

import "fmt"

func init() {
	RegisterSecondary("adaptive", "performance proxies while the search progresses, crowding distance when it stagnates (aDynaMOSA); the archive keeps cheaper tests, and the minimiser makes integers small",
		func(cfg Config) (Secondary, error) {
			if cfg.Patience < 1 {
				return nil, fmt.Errorf("patience %d is below 1", cfg.Patience)
			}
			return &adaptiveSecondary{patience: cfg.Patience}, nil
		})
}

// adaptiveSecondary switches between the performance heuristic and the
// crowding distance on stagnation, as aDynaMOSA (Grano et al. 2021,
// section 3.2.2, Algorithm 2; see the README's References) does: the
// first generation uses the performance heuristic and
// both counters start at 0. After a generation that improves on what the
// search had reached (a better objective value for a goal still
// uncovered, or a goal covered; see progress), the heuristic in use stays
// and its counter returns to 0. After one that stagnates, the counter of
// the heuristic in use grows, and the next heuristic is the performance
// heuristic if
//
//	⌊performance counter / patience⌋ ≤ ⌊crowding counter / patience⌋
//
// and the crowding distance otherwise. With patience 1 that is the
// published rule, and a search that stagnates for ever alternates P, C,
// P, C; with patience 2 it alternates in pairs, P, P, C, C. The archive
// keeps cheaper tests throughout.
type adaptiveSecondary struct {
	patience                int
	current                 Heuristic
	perfStalls, crowdStalls int
}

func (*adaptiveSecondary) ByPerformance() bool { return true }

func (a *adaptiveSecondary) Next(gen int, stagnated bool) Heuristic {
	if gen == 0 {
		a.current, a.perfStalls, a.crowdStalls = PerformanceHeuristic, 0, 0
		return a.current
	}
	usingPerf := a.current.Name == PerformanceHeuristic.Name
	if !stagnated {
		if usingPerf {
			a.perfStalls = 0
		} else {
			a.crowdStalls = 0
		}
		return a.current
	}
	if usingPerf {
		a.perfStalls++
	} else {
		a.crowdStalls++
	}
	if a.perfStalls/a.patience <= a.crowdStalls/a.patience {
		a.current = PerformanceHeuristic
	} else {
		a.current = CrowdingDistance
	}
	return a.current
}
