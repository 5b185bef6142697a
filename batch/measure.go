package batch

import (
	"context"
	"errors"
	"time"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/parallel"
	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/shard"
)

// CBC measures, for the pairs of the run's share, a few callers at a time,
// the coupled branches the existing tests cover, as cling cbc does. The
// pairs of one caller share one instrumented build (probe.MeasureGroup),
// and each pair's Seconds is its share of the group's time. tests
// configures the runs; Dir is set per caller, and Packages, when empty,
// are R's. A pair whose tests cannot run has its error in its result.
func CBC(ctx context.Context, run Run, tests probe.TestOptions) ([]shard.PairResult, error) {
	out := make([]shard.PairResult, len(run.Share))
	share := make([]*couple.Analysis, len(run.Share))
	for k, i := range run.Share {
		out[k] = pairResult(run.Selected[i])
		share[k] = run.Selected[i].Analysis
	}
	groups := couple.MergeGroups(share)
	parallel.Each(len(groups), parallel.CommandWidth(), func(gi int) {
		if ctx.Err() != nil {
			return
		}
		g := groups[gi]
		as := make([]*couple.Analysis, len(g))
		for j, k := range g {
			as[j] = share[k]
		}
		opts := tests
		opts.Dir = as[0].Prog.Dir
		if len(opts.Packages) == 0 {
			opts.Packages = []probe.TestPackage{{Path: as[0].Caller.Pkg.Path, Dir: as[0].Caller.Pkg.Dir}}
		}
		start := time.Now()
		measured := probe.MeasureGroup(ctx, as, opts)
		seconds := time.Since(start).Seconds() / float64(len(g))
		for j, k := range g {
			res := &out[k]
			res.Seconds = seconds
			var te *probe.TestError
			switch err := measured[j].Err; {
			case errors.As(err, &te):
				res.Error = te.Msg
			case err != nil:
				res.Error = oneLine(err.Error())
			default:
				tr := measured[j].Run
				res.CBC = &shard.CBCResult{Covered: count(tr.Covered), Tests: tr.Tests, Failed: tr.Failed}
				if len(tr.Failed) > 0 {
					res.Error = "tests fail: " + joinMax(tr.Failed, 5)
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Mutate runs, pair by pair of the run's share, a few at a time, the
// mutation analysis of cling mutate. cfg configures every pair's run; its
// Analysis is set per pair. A pair whose analysis fails has its error in
// its result.
func Mutate(ctx context.Context, run Run, cfg mutate.Config) ([]shard.PairResult, error) {
	return each(ctx, run, func(i int, res *shard.PairResult) {
		mc := cfg
		mc.Analysis = run.Selected[i].Analysis
		r, err := mutate.Run(ctx, mc)
		if err != nil {
			res.Error = oneLine(err.Error())
			return
		}
		c := r.Counts()
		res.Mutate = &shard.MutateResult{
			Mutants: len(r.Mutants), Killed: c[mutate.Killed], Survived: c[mutate.Survived],
			NotCovered: c[mutate.NotCovered], Timeout: c[mutate.Timeout], NotViable: c[mutate.NotViable],
			Score: r.Score(),
		}
	})
}

// each runs f on the pairs of the run's share, as many at a time as
// parallel.CommandWidth allows, and returns their results in order.
func each(ctx context.Context, run Run, f func(i int, res *shard.PairResult)) ([]shard.PairResult, error) {
	out := make([]shard.PairResult, len(run.Share))
	parallel.Each(len(run.Share), parallel.CommandWidth(), func(k int) {
		i := run.Share[k]
		out[k] = pairResult(run.Selected[i])
		if ctx.Err() != nil {
			return
		}
		start := time.Now()
		f(i, &out[k])
		out[k].Seconds = time.Since(start).Seconds()
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// joinMax joins up to n strings with commas, and says how many more
// there are.
func joinMax(xs []string, n int) string {
	s := ""
	for i, x := range xs {
		if i == n {
			return s + ", …"
		}
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}
