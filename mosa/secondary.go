package mosa

import "fmt"

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
	// Next returns the heuristic of generation gen (0 for the first).
	// From the second generation on, stagnated reports whether the
	// offspring of gen improved on none of the goals that were uncovered
	// before it (see improved); it is computed only when called.
	Next(gen int, stagnated func() bool) Heuristic
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

// improved reports whether the offspring q improved on the previous
// offspring prev: a goal that was uncovered when prev was evaluated is
// covered now, or the best objective value q reached for a goal is lower
// than the best prev reached. Without improvement the search stagnates.
func improved(e *Engine, prev, q []*individual) bool {
	best := map[int32]float64{}
	for _, ind := range prev {
		for k, g := range ind.goals {
			if e.archive.Covered(g) {
				return true
			}
			if v, ok := best[g]; !ok || ind.fit[k] < v {
				best[g] = ind.fit[k]
			}
		}
	}
	for _, ind := range q {
		for k, g := range ind.goals {
			if v, ok := best[g]; ok && ind.fit[k] < v {
				return true
			}
		}
	}
	return false
}
