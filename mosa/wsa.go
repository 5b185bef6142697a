package mosa

import (
	"context"

	"github.com/cling-go/cling/testcase"
)

func init() {
	Register("wsa", "whole suite with an archive: covered goals leave the fitness, new tests come from the archive, the archive is the result",
		geneticSettings, geneticAlgorithm("wsa", func(g genetic) Algorithm { return &wholeSuiteArchive{g} }))
}

// archiveTests is the probability that a test mutation inserts into a
// suite is a mutated test of the archive rather than a random one.
const archiveTests = 0.2

// wholeSuiteArchive is whole-suite generation with an archive: as ws,
// with the rules of the archive-based variant. A covered goal leaves the
// fitness, but only at the end of a generation, so that the suites of one
// generation are rated on the same goals; suites keep their tests (and
// with them the tests that cover the goals others depend on); a new test
// is, with probability 0.2, a mutated test of the archive; a covering
// call a test gets is one of a covering function whose coupled branches
// are not all covered yet; and the result is the archive.
type wholeSuiteArchive struct{ genetic }

// Search runs whole-suite generation with an archive, N = cfg.Population:
//
//	U ← the uncovered goals
//	P ← N suites of 1 to 10 random tests; evaluate P on U
//	while the budget lasts and a goal is uncovered:
//	    Q ← N offspring of P, as ws's, new tests from the archive
//	        with probability 0.2, covering calls to functions not yet
//	        fully covered
//	    evaluate Q on U
//	    P ← the N best of P ∪ Q: lowest Σ d(T, g) over U, then shortest
//	    U ← the uncovered goals; rate P again on U
//
// Evaluating a test archives it for the goals it covers; the archive is
// the result.
func (a *wholeSuiteArchive) Search(ctx context.Context, e *Engine) error {
	w, err := newWholeSuite(e, a.cfg, a.cross)
	if err != nil {
		return err
	}
	w.newTest = func() *testcase.Test {
		return newTest(e, e.Breeders(), archiveTests, 1, a.cfg.RepairAttempts)
	}
	defer func() { e.Gen.Focus = nil }()
	goals := e.Uncovered()
	focus(e)
	pop, err := w.evaluate(ctx, w.randomSuites(a.cfg.Population), goals)
	if err != nil {
		return err
	}
	pop = fittest(pop, a.cfg.Population)
	for !e.Done(ctx) {
		q, err := w.evaluate(ctx, w.offspring(pop, a.cfg.Population), goals)
		if err != nil {
			return err
		}
		e.CountGeneration()
		pop = fittest(append(pop, q...), a.cfg.Population)
		goals = e.Uncovered()
		for _, s := range pop {
			w.rate(s, goals)
		}
		pop = fittest(pop, a.cfg.Population)
		focus(e)
	}
	return nil
}

// focus narrows the covering calls tests get to those of covering
// functions with a coupled branch not covered yet (all of them, if the
// cluster does not say which goals a function reaches).
func focus(e *Engine) {
	var ops []*testcase.Op
	for _, op := range e.Gen.C.Covering {
		for _, g := range op.Goals {
			if !e.archive.Covered(g) {
				ops = append(ops, op)
				break
			}
		}
	}
	e.Gen.Focus = ops
}
