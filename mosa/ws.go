package mosa

import (
	"context"

	"github.com/cling-go/cling/testcase"
)

func init() {
	Register("ws", "whole suite: a genetic algorithm over suites of tests, minimising the sum of the coupled branches' distances",
		geneticSettings, geneticAlgorithm("ws", func(g genetic) Algorithm { return &wholeSuiteSearch{g} }))
}

// wholeSuiteSearch is whole test suite generation carried to coupled
// branches: the chromosome is a suite of tests (at most maxSuiteTests,
// each at most testcase.Config.MaxLen statements long), its fitness the
// sum over every coupled branch g of d(T, g) (fitness.SuiteGoal: 0 if
// covered, ν(best objective) if the goal's decisive predicate was reached
// at least twice, 1 otherwise), its length the secondary objective. Its
// result is its best suite.
type wholeSuiteSearch struct{ genetic }

// Search runs whole-suite generation with N = cfg.Population suites:
//
//	P ← N suites of 1 to 10 random tests; evaluate P
//	while the budget lasts and the best suite of P misses a goal:
//	    Q ← N offspring of P: tournament selection, crossover of suites,
//	        mutation of their tests and insertion of new ones
//	    evaluate Q
//	    P ← the N best of P ∪ Q: lowest Σ d(T, g) over all goals, then shortest
//	the result is the best suite of P
//
// Evaluating a test archives it, but the engine's archive is replaced by
// the best suite's goals at the end (Engine.Conclude), and the search goes
// on until the best suite covers every goal, whatever the archive holds.
func (a *wholeSuiteSearch) Search(ctx context.Context, e *Engine) error {
	w, err := newWholeSuite(e, a.cfg, a.cross)
	if err != nil {
		return err
	}
	all, known := e.Targets(), e.Goals
	pop, err := w.evaluate(ctx, w.randomSuites(a.cfg.Population), all)
	if err != nil {
		return err
	}
	pop = fittest(pop, a.cfg.Population)
	for !e.Spent(ctx) && pop[0].fitness > 0 {
		q, err := w.evaluate(ctx, w.offspring(pop, a.cfg.Population), all)
		if err != nil {
			return err
		}
		e.CountGeneration()
		pop = fittest(append(pop, q...), a.cfg.Population)
		if e.Goals > known {
			// Goals joined (a new panic): rate every suite on them too.
			all, known = e.Targets(), e.Goals
			for _, s := range pop {
				w.rate(s, all)
			}
			pop = fittest(pop, a.cfg.Population)
		}
	}
	if ctx.Err() != nil || len(pop) == 0 {
		return ctx.Err()
	}
	best := make([]*testcase.Test, len(pop[0].tests))
	for i, t := range pop[0].tests {
		best[i] = t.t
	}
	return e.Conclude(ctx, best)
}
