package mosa

import (
	"context"
	"errors"
	"fmt"
	"math"
)

func init() {
	Register("mosa", "MOSA for coupled branches: preference sorting, an archive, chromosome repair (the default)", newMOSA)
}

// manyObjective is MOSA, the many-objective sorting algorithm, tailored
// to coupled branches: one objective per goal, preference sorting of the
// goals not yet covered, an archive of the shortest test per covered goal
// (kept by the engine), covering functions in every new test, and repair
// of offspring that lose their covering call.
type manyObjective struct {
	cfg   Config
	cross Crossover
}

func newMOSA(cfg Config) (Algorithm, error) {
	if cfg.Population < 2 {
		return nil, fmt.Errorf("mosa: population %d is below 2", cfg.Population)
	}
	cross, err := LookupCrossover(cfg.Crossover)
	if err != nil {
		return nil, fmt.Errorf("mosa: %w", err)
	}
	return &manyObjective{cfg: cfg, cross: cross}, nil
}

var errNoObjectives = errors.New("mosa: no objectives to optimise")

// Search runs MOSA with a population of N = cfg.Population:
//
//	P ← N random tests; evaluate P
//	while the budget lasts and a goal is uncovered:
//	    Q ← offspring of P: selection, crossover, mutation, repair,
//	        and a share of new tests
//	    evaluate Q
//	    U ← the uncovered goals
//	    P ← the N best of P ∪ Q by preference sorting on U, then crowding
//
// Evaluating a test archives it for the goals it covers.
func (m *manyObjective) Search(ctx context.Context, e *Engine) error {
	if e.Objectives == nil {
		return errNoObjectives
	}
	n := m.cfg.Population
	pop, err := evaluatePopulation(ctx, e, randomTests(e.Gen, e.Remaining(n)))
	if err != nil {
		return err
	}
	nNew := int(math.Round(float64(n) * m.cfg.NewTests))
	for !e.Done(ctx) {
		offspring := breed(e, pop, m.cfg, m.cross, nNew)
		q, err := evaluatePopulation(ctx, e, offspring[:e.Remaining(len(offspring))])
		if err != nil {
			return err
		}
		e.CountGeneration()
		uncovered := e.Uncovered()
		if len(uncovered) == 0 {
			break
		}
		pop = survive(append(pop, q...), uncovered, n, e.Objectives.Worst())
	}
	return nil
}
