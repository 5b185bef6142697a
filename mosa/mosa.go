package mosa

import (
	"context"
	"errors"
	"fmt"
	"math"
)

func init() {
	Register("mosa", "MOSA for coupled branches: preference sorting, an archive, chromosome repair (the default)",
		frontSettings, frontAlgorithm("mosa", func(g genetic) Algorithm { return &manyObjective{g} }))
}

// manyObjective is MOSA, the many-objective sorting algorithm, tailored
// to coupled branches: one objective per goal, preference sorting of the
// goals not yet covered, an archive of the shortest test per covered goal
// (kept by the engine), covering functions in every new test, and repair
// of offspring that lose their covering call.
type manyObjective struct{ genetic }

// genetic is the configuration of a genetic algorithm and its crossover
// operator.
type genetic struct {
	cfg   Config
	cross Crossover
}

// geneticSettings are what the genetic algorithms read; frontSettings
// what those that rank tests in fronts read.
const (
	geneticSettings = ReadsPopulation | ReadsCrossover | ReadsRepair | ReadsObjectives
	frontSettings   = geneticSettings | ReadsSecondary
)

// geneticAlgorithm returns the constructor of the genetic algorithm name:
// it checks the configuration, looks up the crossover operator, and
// builds the algorithm with build.
func geneticAlgorithm(name string, build func(genetic) Algorithm) Constructor {
	return func(cfg Config) (Algorithm, error) {
		if cfg.Population < 2 {
			return nil, fmt.Errorf("%s: population %d is below 2", name, cfg.Population)
		}
		cross, err := NewCrossover(cfg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return build(genetic{cfg: cfg, cross: cross}), nil
	}
}

// frontAlgorithm is geneticAlgorithm for an algorithm with fronts, which
// also checks the secondary objective.
func frontAlgorithm(name string, build func(genetic) Algorithm) Constructor {
	c := geneticAlgorithm(name, build)
	return func(cfg Config) (Algorithm, error) {
		if _, err := newSecondary(cfg); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return c(cfg)
	}
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
//	    P ← the N best of P ∪ Q by preference sorting on U, then the
//	        secondary objective (crowding distance by default)
//
// Evaluating a test archives it for the goals it covers.
func (m *manyObjective) Search(ctx context.Context, e *Engine) error {
	return evolve(ctx, e, m.cfg, m.cross, e.Uncovered, allOf)
}

// allOf makes every goal an objective.
func allOf(goals []int32) []int32 { return goals }

// evolve runs MOSA's loop. goals returns the goals tests are evaluated for
// (the uncovered ones, for MOSA), objectives picks among them the ones
// preference sorting ranks by (DynaMOSA narrows them down); the loop ends
// with the budget or when goals returns none. The secondary objective of
// cfg chooses, each generation, the heuristic that orders the fronts, and
// how the archive keeps tests.
func evolve(ctx context.Context, e *Engine, cfg Config, cross Crossover, goals func() []int32, objectives func([]int32) []int32) error {
	if e.Objectives == nil {
		return errNoObjectives
	}
	sec, err := newSecondary(cfg)
	if err != nil {
		return err
	}
	if sec.ByPerformance() {
		e.archive.ByPerformance()
	}
	n := cfg.Population
	pop, err := evaluatePopulation(ctx, e, randomTests(e.Gen, e.Remaining(n)), goals)
	if err != nil {
		return err
	}
	nNew := int(math.Round(float64(n) * cfg.NewTests))
	prog := newProgress(e, pop, goals())
	for gen := 0; !e.Done(ctx); gen++ {
		offspring := breed(e, pop, cfg, cross, nNew)
		q, err := evaluatePopulation(ctx, e, offspring[:e.Remaining(len(offspring))], goals)
		if err != nil {
			return err
		}
		e.CountGeneration()
		gs := goals()
		if len(gs) == 0 {
			break
		}
		h := sec.Next(gen, !prog.improved(e, q, gs))
		e.countHeuristic(h)
		objs := objectives(gs)
		pop = survive(append(pop, q...), gs, objs, e.primary(objs), n, e.Objectives.Worst(), h)
	}
	return nil
}
