package mosa

import "context"

func init() {
	Register("random", "random search with an archive: random tests that call a covering function (the baseline)", 0, newRandom)
}

// randomSearch is random search with an archive: it generates random tests
// (each calling a covering function) and keeps, through the engine, every
// test that covers a goal not yet covered or covers one with fewer
// statements.
type randomSearch struct{}

func newRandom(Config) (Algorithm, error) { return randomSearch{}, nil }

// randomBatch is how many random tests are evaluated at once.
const randomBatch = 64

// Search runs random search:
//
//	while the budget lasts and a goal is uncovered:
//	    evaluate a batch of random tests
func (randomSearch) Search(ctx context.Context, e *Engine) error {
	for !e.Done(ctx) {
		if _, err := e.Evaluate(ctx, randomTests(e.Gen, e.Remaining(randomBatch))); err != nil {
			return err
		}
	}
	return nil
}
