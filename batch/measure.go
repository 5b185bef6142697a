package batch

import (
	"context"
	"errors"
	"time"

	"github.com/cling-go/cling/internal/parallel"
	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/shard"
)

// CBC measures, pair by pair of the run's share, a few at a time, the
// coupled branches the existing tests cover, as cling cbc does. tests
// configures the runs; Dir is set per pair, and Packages, when empty,
// are R's. A pair whose tests cannot run has its error in its result.
func CBC(ctx context.Context, run Run, tests probe.TestOptions) ([]shard.PairResult, error) {
	return each(ctx, run, func(i int, res *shard.PairResult) {
		a := run.Selected[i].Analysis
		opts := tests
		opts.Dir = a.Prog.Dir
		if len(opts.Packages) == 0 {
			opts.Packages = []probe.TestPackage{{Path: a.Caller.Pkg.Path, Dir: a.Caller.Pkg.Dir}}
		}
		tr, err := probe.Measure(ctx, a, opts)
		var te *probe.TestError
		switch {
		case errors.As(err, &te):
			res.Error = te.Msg
		case err != nil:
			res.Error = oneLine(err.Error())
		default:
			res.CBC = &shard.CBCResult{Covered: count(tr.Covered), Tests: tr.Tests, Failed: tr.Failed}
			if len(tr.Failed) > 0 {
				res.Error = "tests fail: " + joinMax(tr.Failed, 5)
			}
		}
	})
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
