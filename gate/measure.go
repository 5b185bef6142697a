package gate

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/parallel"
	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/probe"
)

// measureAll measures the pairs, a few groups at a time: each measurement
// is mostly waiting for go commands, which overlap well. The pairs of one
// caller share one instrumented build for their coverage (byCaller).
func (r *run) measureAll(pairs []*pair) error {
	groups := byCaller(pairs)
	errs := make([]error, len(groups))
	parallel.Each(len(groups), parallel.CommandWidth(), func(i int) {
		r.progress("measuring %s (%d of %d)", groupName(groups[i]), i+1, len(groups))
		errs[i] = r.measure(groups[i])
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// byCaller groups the pairs as couple.MergeGroups does: those of one
// caller, unless a call of R reaches two of their callees.
func byCaller(pairs []*pair) [][]*pair {
	as := make([]*couple.Analysis, len(pairs))
	for i, p := range pairs {
		as[i] = p.a
	}
	var out [][]*pair
	for _, idx := range couple.MergeGroups(as) {
		g := make([]*pair, len(idx))
		for k, i := range idx {
			g[k] = pairs[i]
		}
		out = append(out, g)
	}
	return out
}

// groupName names a group of pairs of one caller: R -> E1, E2, ...
func groupName(g []*pair) string {
	var callees []string
	for _, p := range g {
		callees = append(callees, p.a.Callee.Pkg.Path)
	}
	return g[0].a.Caller.Pkg.Path + " -> " + strings.Join(callees, ", ")
}

// measure runs the existing tests of a group of affected pairs of one
// caller: under the probes for their coupled-branch coverage, and against
// each pair's mutants on changed lines (all its mutants when the whole
// score has a threshold). Pairs the budget leaves no time for are
// skipped.
func (r *run) measure(g []*pair) error {
	if r.budget.Err() != nil {
		for _, p := range g {
			p.skip(r.budgetReason())
		}
		return nil
	}
	cerr := r.measureCoverage(g)
	for _, p := range g {
		err := cerr
		if err == nil {
			err = r.measureMutants(p)
		}
		if err == nil && r.budget.Err() != nil {
			// Tests killed when the budget ran out fail, or leave a
			// baseline that fails: nothing measured counts.
			err = r.budget.Err()
		}
		if err != nil {
			if r.overBudget(err) {
				p.skip(r.budgetReason())
				continue
			}
			return err
		}
		p.measured = true
	}
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

// measureCoverage runs R's tests under the probes, as cling cbc does, for
// the coverage of a group of pairs of R: in one instrumented build of R and
// all their callees (probe.MeasureGroup), which records for each pair what
// a build of that pair alone would.
func (r *run) measureCoverage(g []*pair) error {
	as := make([]*couple.Analysis, len(g))
	for i, p := range g {
		as[i] = p.a
	}
	a := as[0]
	res := probe.MeasureGroup(r.budget, as, probe.TestOptions{
		Dir:      a.Prog.Dir,
		Packages: []probe.TestPackage{{Path: a.Caller.Pkg.Path, Dir: a.Caller.Pkg.Dir}},
		Tags:     r.cfg.Tags,
	})
	if r.budget.Err() != nil {
		return r.budget.Err()
	}
	for i, p := range g {
		var te *probe.TestError
		switch err := res[i].Err; {
		case errors.As(err, &te) && te.NoTests:
			p.covered = make([]bool, len(p.a.Goals))
			p.notes = append(p.notes, te.Msg)
		case errors.As(err, &te):
			return &Error{Msg: fmt.Sprintf("%s: %s", p.name(), te.Msg)}
		case err != nil:
			return fmt.Errorf("%s: %w", p.name(), err)
		default:
			p.tests, p.covered = res[i].Run.Tests, res[i].Run.Covered
			p.failed = append(p.failed, res[i].Run.Failed...)
		}
	}
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
