package mosa

import (
	"github.com/cling-go/cling/repair"
	"github.com/cling-go/cling/testcase"
)

// breed makes the next offspring of a population of cfg.Population:
// binary tournament selection, crossover (with probability
// cfg.CrossoverRate) and mutation with repair, plus nNew new tests (fresh
// random tests, or mutated tests of the archive).
func breed(e *Engine, pop []*individual, cfg Config, cross Crossover, nNew int) []*testcase.Test {
	g, counts := e.Gen, e.Repairs()
	var out []*testcase.Test
	want := cfg.Population - nNew
	for tries := 0; len(out) < want && tries < 8*cfg.Population; tries++ {
		a, b := tournament(g, pop), tournament(g, pop)
		var c1, c2 *testcase.Test
		if g.Rnd.Float64() < cfg.CrossoverRate {
			c1, c2 = cross.Cross(g, a.t, b.t)
			c1 = repair.Crossover(c1, a.t, counts)
			c2 = repair.Crossover(c2, b.t, counts)
		} else {
			c1, c2 = a.t.Clone(), b.t.Clone()
		}
		for _, c := range []*testcase.Test{c1, c2} {
			g.Mutate(c)
			if c.Len() == 0 || !repair.Mutation(g, c, cfg.RepairAttempts, counts) {
				continue
			}
			if len(out) < want {
				out = append(out, c)
			}
		}
	}
	archived := e.Breeders()
	for i := 0; i < nNew; i++ {
		out = append(out, newTest(e, archived, 0.5, 2, cfg.RepairAttempts))
	}
	return out
}

// newTest returns a new test for a search: with probability fromArchive
// (if the archive holds tests) a test of archived mutated mutations times,
// unless repair cannot restore its covering call, otherwise a random test.
func newTest(e *Engine, archived []ArchivedTest, fromArchive float64, mutations, repairAttempts int) *testcase.Test {
	g := e.Gen
	if len(archived) > 0 && g.Rnd.Float64() < fromArchive {
		t := archived[g.Rnd.Intn(len(archived))].Test.Clone()
		for k := 0; k < mutations; k++ {
			g.Mutate(t)
		}
		if t.Len() > 0 && repair.Mutation(g, t, repairAttempts, e.Repairs()) {
			return t
		}
	}
	return g.RandomTest()
}

// tournament picks the better of two random individuals: lower rank, then
// larger crowding distance.
func tournament(g *testcase.Generator, pop []*individual) *individual {
	a := pop[g.Rnd.Intn(len(pop))]
	b := pop[g.Rnd.Intn(len(pop))]
	switch {
	case a.rank != b.rank:
		if a.rank < b.rank {
			return a
		}
		return b
	case a.crowding != b.crowding:
		if a.crowding > b.crowding {
			return a
		}
		return b
	}
	return a
}
