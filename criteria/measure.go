package criteria

import (
	"github.com/cling-go/cling/probe"
)

// Coverage is the coverage of one criterion by a test run.
type Coverage struct {
	Criterion string `json:"criterion"`
	// Covered of Total goals; for a dynamic criterion (panics) Total is
	// what was found, which is all there is to count.
	Covered int `json:"covered"`
	Total   int `json:"total"`
	// Found says the criterion counts what the tests met (panics).
	Found bool `json:"found,omitempty"`
	// Goals lists every goal with whether it is covered (for a dynamic
	// criterion, the ones found).
	Goals []GoalCoverage `json:"goals,omitempty"`
}

// GoalCoverage is one goal of a criterion and whether it is covered.
type GoalCoverage struct {
	ID      string `json:"id"`
	Covered bool   `json:"covered"`
}

// Ratio is Covered/Total, 0 without goals.
func (c Coverage) Ratio() float64 {
	if c.Total == 0 {
		return 0
	}
	return float64(c.Covered) / float64(c.Total)
}

// Measure reports the coverage of each criterion of cs by a test run
// under the probes MeasuredExtrasOf(cs) asks for, in the order of cs.
func Measure(p *Pair, cs []*Criterion, run *probe.TestRun) []Coverage {
	var out []Coverage
	for _, c := range cs {
		cov := Coverage{Criterion: c.Name, Goals: []GoalCoverage{}}
		if c.Dynamic {
			cov.Found = true
			for _, k := range c.foundInRun(run) {
				cov.Goals = append(cov.Goals, GoalCoverage{ID: panicGoal(c, k).ID, Covered: true})
			}
			cov.Covered, cov.Total = len(cov.Goals), len(cov.Goals)
			out = append(out, cov)
			continue
		}
		for _, g := range c.goals(p) {
			ok := c.inRun(p, run, &g)
			cov.Goals = append(cov.Goals, GoalCoverage{ID: g.ID, Covered: ok})
			if ok {
				cov.Covered++
			}
		}
		cov.Total = len(cov.Goals)
		out = append(out, cov)
	}
	return out
}
