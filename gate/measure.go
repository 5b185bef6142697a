package gate

import (
	"errors"
	"fmt"
	"sort"

	"github.com/cling-go/cling/internal/parallel"
	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/probe"
)

// measureAll measures the pairs, a few at a time: each measurement is
// mostly waiting for go commands, which overlap well.
func (r *run) measureAll(pairs []*pair) error {
	errs := make([]error, len(pairs))
	parallel.Each(len(pairs), parallel.CommandWidth(), func(i int) {
		r.progress("measuring %s (%d of %d)", pairs[i].name(), i+1, len(pairs))
		errs[i] = r.measure(pairs[i])
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// measure runs the existing tests of an affected pair: under the probes for
// its coupled-branch coverage, and against its mutants on changed lines
// (all its mutants when the whole score has a threshold). A pair the
// budget leaves no time for is skipped.
func (r *run) measure(p *pair) error {
	if r.budget.Err() != nil {
		p.skip(r.budgetReason())
		return nil
	}
	err := r.measureCoverage(p)
	if err == nil {
		err = r.measureMutants(p)
	}
	if err == nil && r.budget.Err() != nil {
		// Tests killed when the budget ran out fail, or leave a baseline
		// that fails: nothing measured counts.
		err = r.budget.Err()
	}
	if err != nil {
		if r.overBudget(err) {
			p.skip(r.budgetReason())
			return nil
		}
		return err
	}
	p.measured = true
	return nil
}

// budgetReason says why pairs are skipped when the budget runs out.
func (r *run) budgetReason() string {
	return fmt.Sprintf("over the --budget of %s", r.cfg.Budget)
}

// skip drops what was measured of p and records why.
func (p *pair) skip(reason string) {
	*p = pair{a: p.a, changed: p.changed, diff: p.diff, skipped: reason}
}

// measureCoverage runs R's tests under the probes, as cling cbc does.
func (r *run) measureCoverage(p *pair) error {
	a := p.a
	res, err := probe.Measure(r.budget, a, probe.TestOptions{
		Dir:      a.Prog.Dir,
		Packages: []probe.TestPackage{{Path: a.Caller.Pkg.Path, Dir: a.Caller.Pkg.Dir}},
		Tags:     r.cfg.Tags,
	})
	if r.budget.Err() != nil {
		return r.budget.Err()
	}
	var te *probe.TestError
	switch {
	case errors.As(err, &te) && te.NoTests:
		p.covered = make([]bool, len(a.Goals))
		p.notes = append(p.notes, te.Msg)
		return nil
	case errors.As(err, &te):
		return &Error{Msg: fmt.Sprintf("%s: %s", p.name(), te.Msg)}
	case err != nil:
		return fmt.Errorf("%s: %w", p.name(), err)
	}
	p.tests, p.covered = res.Tests, res.Covered
	p.failed = append(p.failed, res.Failed...)
	return nil
}

// measureMutants evaluates the pair's mutants on changed lines.
func (r *run) measureMutants(p *pair) error {
	if len(p.failed) > 0 {
		p.mutantsErr = "not evaluated: the tests fail"
		return nil
	}
	cfg := mutate.Config{
		Analysis:  p.a,
		Operators: r.cfg.Operators,
		Tags:      r.cfg.Tags,
		Workers:   r.cfg.Workers,
		Select:    r.onChangedLine,
	}
	whole := r.cfg.Thresholds.MinScore > 0
	if whole {
		cfg.Select = nil
	}
	res, err := mutate.Run(r.budget, cfg)
	if r.budget.Err() != nil {
		return r.budget.Err()
	}
	var nt *mutate.NoTestsError
	var be *mutate.BaselineError
	switch {
	case errors.As(err, &nt):
		p.mutantsErr = "not evaluated: " + nt.Msg
		return nil
	case errors.As(err, &be):
		p.failed = addSorted(p.failed, be.Failed...)
		p.mutantsErr = "not evaluated: the tests fail"
		return nil
	case err != nil:
		return err
	}
	for _, m := range res.Mutants {
		if !whole || r.onChangedLine(m) {
			p.mutants = append(p.mutants, m)
		}
	}
	if whole {
		p.all = res.Mutants
	}
	return nil
}

// addSorted adds the strings that are not in list yet, and sorts.
func addSorted(list []string, add ...string) []string {
	have := map[string]bool{}
	for _, s := range list {
		have[s] = true
	}
	for _, s := range add {
		if !have[s] {
			have[s] = true
			list = append(list, s)
		}
	}
	sort.Strings(list)
	return list
}
