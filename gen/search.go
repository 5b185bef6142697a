package gen

import (
	"context"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// search runs the search algorithm on the executor, within the budget,
// and returns its archive: for each coupled branch covered, the shortest
// test that covered it (and the tests it replaced).
//
// When looking for faults, the collector watches every execution; a
// search for faults alone keeps the goals of the call sites where it saw
// one objectives once covered, so that other inputs reach them too.
//
// With other criteria than the coupled branches, the engine's goals are
// those of the criteria's set: the coupled branches first, with the same
// numbers, so that DynaMOSA's goal graph stays theirs (the other goals are
// roots), then the other criteria's goals, then the panics as they are
// met; the set is the objectives (and the whole-suite distance).
func (j *job) search(ctx context.Context) (*mosa.Archive, *mosa.Stats, error) {
	engine := &mosa.Engine{
		Exec:       j.x,
		Gen:        testcase.NewGenerator(j.cluster, j.cfg.Test, j.cfg.Seed),
		Objectives: fitness.NewObjectives(j.a, j.cfg.Fitness),
		Goals:      len(j.a.Goals),
		Parents:    goalParents(j.a),
		Budget:     j.cfg.Budget,
		Progress:   j.cfg.Progress,
	}
	if j.col != nil {
		engine.Watch = j.col.Observe
		if j.cfg.FaultsOnly {
			engine.Open = j.col.Open
		}
	}
	if j.set != nil {
		engine.Objectives, engine.Goals = j.set, j.set.Goals()
	}
	return engine.Run(ctx, j.algorithm, j.cfg.Search)
}

// goalParents is the goal graph of the pair in the engine's numbers.
func goalParents(a *couple.Analysis) [][]int32 {
	var out [][]int32
	for _, ps := range a.GoalParents() {
		var g []int32
		for _, p := range ps {
			g = append(g, int32(p))
		}
		out = append(out, g)
	}
	return out
}
