package gate

import (
	"errors"
	"time"

	"github.com/cling-go/cling/gen"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/mutate"
)

// minGenBudget is the least search time worth starting cling gen for.
const minGenBudget = time.Second

// generate runs cling gen on every measured pair whose existing tests miss
// a diff coupled branch or a mutant on a changed line, splitting the --gen
// time among them: each gets an equal share of what is left when its turn
// comes. It writes the test files and records which of the missed diff
// coupled branches and mutants the generated tests cover and detect.
func (r *run) generate(pairs []*pair) error {
	var todo []*pair
	for _, p := range pairs {
		if p.measured && (len(p.uncovered()) > 0 || len(p.undetected()) > 0) {
			todo = append(todo, p)
		}
	}
	deadline := time.Now().Add(r.cfg.Gen)
	// The pairs of a caller share the runs of its own tests alone.
	ownTests := &gen.OwnTestRuns{}
	for i, p := range todo {
		p.gen = &GenReport{AddedMutants: []int{}}
		share := time.Until(deadline) / time.Duration(len(todo)-i)
		switch {
		case r.budget.Err() != nil:
			p.gen.Skipped = r.budgetReason()
			continue
		case share < minGenBudget:
			p.gen.Skipped = "the --gen time is spent"
			continue
		}
		r.progress("generating tests for %s (%s)", p.name(), share.Round(time.Second))
		if err := r.generatePair(p, share, ownTests); err != nil {
			switch {
			case !r.overBudget(err):
				return err
			case p.gen.TestFile == "":
				p.gen = &GenReport{AddedMutants: []int{}, Skipped: r.budgetReason()}
			default:
				p.gen.Error = "the mutants were not evaluated with the generated tests: " + r.budgetReason()
			}
		}
	}
	return nil
}

// generatePair runs cling gen on one pair with a search time of budget,
// sharing the runs of the own tests alone with the run's other pairs.
func (r *run) generatePair(p *pair, budget time.Duration, ownTests *gen.OwnTestRuns) error {
	cfg := r.cfg.GenConfig
	cfg.OwnTests = ownTests
	cfg.Budget = mosa.Budget{Time: budget, MaxEvals: r.cfg.GenMaxEvals}
	cfg.Tags = r.cfg.Tags
	cfg.Workers = r.cfg.Workers
	p.gen.BudgetSeconds = budget.Seconds()
	res, err := gen.Run(r.budget, p.a, cfg)
	if r.budget.Err() != nil {
		return r.budget.Err()
	}
	var ge *gen.Error
	if errors.As(err, &ge) {
		p.gen.Error = ge.Msg
		return nil
	}
	if err != nil {
		return err
	}
	p.gen.TestFile = r.repoRel(res.TestFile)
	p.gen.Tests = res.Tests
	p.genCovered = map[int]bool{}
	for _, goals := range res.Covers {
		for _, g := range goals {
			p.genCovered[g] = true
		}
	}
	p.genDetects = map[int]bool{}
	missed := map[int]bool{}
	for _, m := range p.undetected() {
		missed[m.ID] = true
	}
	if len(missed) == 0 {
		return nil
	}
	mres, err := mutate.Run(r.budget, mutate.Config{
		Analysis:  p.a,
		Operators: r.cfg.Operators,
		Tags:      r.cfg.Tags,
		Workers:   r.cfg.Workers,
		Select:    func(m *mutate.Mutant) bool { return missed[m.ID] },
		Compare:   res.TestFile,
	})
	if r.budget.Err() != nil {
		return r.budget.Err()
	}
	var nt *mutate.NoTestsError
	var be *mutate.BaselineError
	switch {
	case errors.As(err, &nt):
		p.gen.Error = "mutants not evaluated with the generated tests: " + nt.Msg
		return nil
	case errors.As(err, &be):
		p.gen.Error = "mutants not evaluated with the generated tests: " + be.Error()
		return nil
	case err != nil:
		return err
	}
	c := mres.Compare
	for _, ids := range [][]int{c.OnlyGenerated, c.Both} {
		for _, id := range ids {
			p.genDetects[id] = true
		}
	}
	return nil
}

// uncovered returns the diff coupled branches the existing tests miss.
func (p *pair) uncovered() []diffGoal {
	var out []diffGoal
	for _, d := range p.diff {
		if !p.covered[d.goal.Index] {
			out = append(out, d)
		}
	}
	return out
}

// undetected returns the viable mutants on changed lines the existing
// tests do not detect.
func (p *pair) undetected() []*mutate.Mutant {
	var out []*mutate.Mutant
	for _, m := range p.mutants {
		if missed(m.Status) {
			out = append(out, m)
		}
	}
	return out
}
