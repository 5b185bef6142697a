package mosa

import (
	"fmt"

	"github.com/cling-go/cling/recombine"
	"github.com/cling-go/cling/testcase"
)

func init() {
	RegisterCrossover("hmx", "hybrid multi-level: single-point, then the literals passed to calls both children make are recombined (numbers by SBX, strings cut and swapped)", hybrid{dataRate: 1})
}

// hybrid is hybrid multi-level crossover (HMX, Olsthoorn et al. 2021):
// single-point crossover of the statements, then, with probability
// dataRate, recombination of the values the two children pass to the
// calls they have in common (recombine.Arguments).
type hybrid struct {
	dataRate float64
}

// configure takes the probability of data-level crossover from
// cfg.DataCrossoverRate.
func (hybrid) configure(cfg Config) (Crossover, error) {
	p := cfg.DataCrossoverRate
	if !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("data-level crossover probability %g is outside [0, 1]", p)
	}
	return hybrid{dataRate: p}, nil
}

// Cross crosses a and b at the statement level, then recombines the
// children's values. The probability is drawn only strictly between 0
// and 1, so that with probability 0 the operator draws exactly what
// single-point crossover does.
func (h hybrid) Cross(g *testcase.Generator, a, b *testcase.Test) (*testcase.Test, *testcase.Test) {
	c1, c2 := singlePoint{}.Cross(g, a, b)
	if h.dataRate >= 1 || h.dataRate > 0 && g.Rnd.Float64() < h.dataRate {
		recombine.Arguments(g.Rnd, c1, c2)
	}
	return c1, c2
}
