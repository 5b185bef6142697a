package gen

import (
	"context"

	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// search runs the search algorithm on the executor, within the budget,
// and returns its archive: for each coupled branch covered, the shortest
// test that covered it (and the tests it replaced).
func (j *job) search(ctx context.Context) (*mosa.Archive, *mosa.Stats, error) {
	engine := &mosa.Engine{
		Exec:       j.x,
		Gen:        testcase.NewGenerator(j.cluster, j.cfg.Test, j.cfg.Seed),
		Objectives: fitness.NewObjectives(j.a, j.cfg.Fitness),
		Goals:      len(j.a.Goals),
		Budget:     j.cfg.Budget,
		Progress:   j.cfg.Progress,
	}
	return engine.Run(ctx, j.algorithm, j.cfg.Search)
}
