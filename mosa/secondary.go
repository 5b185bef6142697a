package mosa

import (
	"fmt"
	"math"
)

// Secondary is a secondary objective of the genetic algorithms with
// fronts, MOSA and DynaMOSA: what decides between tests that preference
// sorting ranks alike. Each generation it names the heuristic that
// orders the fronts (Heuristic); the last front admitted is cut by it, and
// binary tournaments break ties of rank with it. It also says how the
// archive judges a test that covers a goal already covered.
//
// Adding a secondary objective is one file that implements this interface
// and registers a constructor in an init function (RegisterSecondary).
type Secondary interface {
	// ByPerformance reports whether the archive keeps cheaper tests
	// (Archive.ByPerformance) rather than shorter ones.
	ByPerformance() bool
	// Next returns the heuristic of generation gen (0 for the first);
	// stagnated reports whether the generation's offspring improved on
	// nothing the search had reached before (see progress).
	Next(gen int, stagnated bool) Heuristic
}

// Heuristic orders the tests of a front: it gives each a secondary score,
// higher better (individual.crowding).
type Heuristic struct {
	// Name names the heuristic in statistics.
	Name string
	// assign scores the individuals of a front whose objectives are
	// aligned to the same goals (objectives of them).
	assign func(front []*individual, objectives int)
}

// SecondaryConstructor builds a secondary objective for one search from
// the algorithm's configuration, or says what is wrong with it.
type SecondaryConstructor func(cfg Config) (Secondary, error)

// DefaultSecondary is the secondary objective of `cling gen`.
const DefaultSecondary = "crowding"

var secondaries = newRegistry[SecondaryConstructor]("secondary objective")

// RegisterSecondary makes a secondary objective available under name,
// with a one-line doc for help texts. It is called from init functions;
// registering a name twice panics.
func RegisterSecondary(name, doc string, c SecondaryConstructor) {
	secondaries.register(name, doc, c)
}

// Secondaries lists the registered secondary objectives, sorted by name.
func Secondaries() []Entry { return secondaries.list() }

// LookupSecondary returns the constructor of the secondary objective
// registered as name, or an error naming the registered ones.
func LookupSecondary(name string) (SecondaryConstructor, error) {
	return secondaries.lookup(name)
}

// newSecondary builds the secondary objective cfg names ("" is the
// default).
func newSecondary(cfg Config) (Secondary, error) {
	name := cfg.Secondary
	if name == "" {
		name = DefaultSecondary
	}
	c, err := LookupSecondary(name)
	if err != nil {
		return nil, err
	}
	s, err := c(cfg)
	if err != nil {
		return nil, fmt.Errorf("secondary objective %s: %w", name, err)
	}
	return s, nil
}

// progress tracks the best objective value the search reached for each
// goal, and tells whether a generation improved on it: it reached a
// better value for a goal still uncovered, or a goal that was uncovered
// before it is covered now. A generation that does neither stagnates.
type progress struct {
	best []float64 // per goal; +Inf when no test was evaluated for it
	// uncovered are the goals uncovered after the last generation.
	uncovered []int32
}

// newProgress starts tracking from the first population, evaluated for
// the goals uncovered.
func newProgress(e *Engine, pop []*individual, uncovered []int32) *progress {
	p := &progress{best: make([]float64, e.Goals)}
	for g := range p.best {
		p.best[g] = math.Inf(1)
	}
	p.improved(e, pop, uncovered)
	return p
}

// improved records the objective values of the offspring q of a
// generation, after which the goals uncovered are uncovered, and reports
// whether the generation improved.
func (p *progress) improved(e *Engine, q []*individual, uncovered []int32) bool {
	better := false
	for _, g := range p.uncovered {
		if e.archive.Covered(g) {
			better = true
		}
	}
	for _, ind := range q {
		for k, g := range ind.goals {
			if int(g) >= len(p.best) || ind.fit[k] >= p.best[g] {
				continue
			}
			if !math.IsInf(p.best[g], 1) {
				better = true
			}
			p.best[g] = ind.fit[k]
		}
	}
	p.uncovered = uncovered
	return better
}
