package batch

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/gen"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/shard"
)

// Run names the pairs of a run over several pairs.
type Run struct {
	Prog *ccfg.Program
	// Selected are all the pairs of the selection, or of the whole plan,
	// in the selection's order: budgets and output files are computed
	// over them.
	Selected []couple.Pair
	// Share are the indices into Selected of the pairs this run takes, in
	// order (all of them outside a plan).
	Share []int
}

// All is a run of every selected pair.
func All(prog *ccfg.Program, selected []couple.Pair) Run {
	r := Run{Prog: prog, Selected: selected}
	for i := range selected {
		r.Share = append(r.Share, i)
	}
	return r
}

// GenConfig configures cling gen over several pairs.
type GenConfig struct {
	// Gen is the configuration of every pair's run; its Seed is the
	// run's (each pair's is derived from it), its Budget.MaxEvals is each
	// pair's, and its Budget.Time each pair's unless Total is set. Out
	// and Generated are set per pair.
	Gen gen.Config
	// Total, if positive, is the search time of all selected pairs,
	// split by Budgets.
	Total time.Duration
	// Tests configure the runs of the existing tests before generating;
	// Dir, Packages and Hide are set per pair.
	Tests probe.TestOptions
	// Progress, if set, hears which pair searches; it is called from
	// one goroutine.
	Progress func(msg string)
}

// maxAhead bounds the pairs measured and prepared ahead of the search,
// and maxFinishing those whose files are verified at once, while a pair
// searches: more would take the search's cores and the machine's memory.
const (
	maxAhead     = 2
	maxFinishing = 2
)

// genPair is one pair of a gen run on its way through the stages.
type genPair struct {
	a      *couple.Analysis
	cfg    gen.Config
	res    shard.PairResult
	before []bool
	job    *gen.Job
	start  time.Time
	// prev is the pair of the same caller before this one, whose file
	// must be written first; done closes when this pair's is.
	prev *genPair
	done chan struct{}
}

// Gen runs cling gen on the pairs of the run's share and returns one
// result per pair, in order. A pair that fails has its error in its
// result; Gen itself fails only when ctx ends.
func Gen(ctx context.Context, run Run, cfg GenConfig) ([]shard.PairResult, error) {
	outs := Outputs(run.Selected)
	var budgets []time.Duration
	if cfg.Total > 0 {
		budgets = Budgets(cfg.Total, ShardPairs(run.Selected))
	}
	modRoot := run.Prog.MainModule.Dir
	// The pairs of a caller share the runs of its own tests alone.
	ownTests := &gen.OwnTestRuns{}
	pairs := make([]*genPair, len(run.Share))
	last := map[string]*genPair{} // caller -> its latest pair
	for k, i := range run.Share {
		p := run.Selected[i]
		gp := &genPair{a: p.Analysis, cfg: cfg.Gen, done: make(chan struct{})}
		gp.cfg.Seed = Seed(cfg.Gen.Seed, p.Caller.Pkg.Path, p.Callee.Pkg.Path)
		if budgets != nil {
			gp.cfg.Budget.Time = budgets[i]
		}
		gp.cfg.Out = outs[i]
		gp.cfg.Generated = outs
		gp.cfg.OwnTests = ownTests
		gp.res = pairResult(p)
		gp.res.Gen = &shard.GenResult{Seed: gp.cfg.Seed, BudgetSeconds: gp.cfg.Budget.Time.Seconds(), MaxEvals: gp.cfg.Budget.MaxEvals}
		gp.prev = last[p.Caller.Pkg.Path]
		last[p.Caller.Pkg.Path] = gp
		pairs[k] = gp
	}
	// The run's files in a caller's directory, whether they exist yet or
	// not, are left out of the measure of its existing tests.
	hide := map[string][]string{}
	for _, f := range outs {
		hide[filepath.Dir(f)] = append(hide[filepath.Dir(f)], f)
	}

	// While a pair searches, the next maxAhead pairs are measured and
	// prepared, and up to maxFinishing earlier ones are finished.
	ahead := make(chan struct{}, maxAhead)
	prepared := make([]chan struct{}, len(pairs))
	for k := range prepared {
		prepared[k] = make(chan struct{})
	}
	go func() {
		for k, gp := range pairs {
			ahead <- struct{}{}
			go func() {
				defer close(prepared[k])
				gp.start = time.Now()
				if ctx.Err() == nil {
					gp.prepare(ctx, cfg.Tests, hide[gp.a.Caller.Pkg.Dir])
				}
			}()
		}
	}()
	finishing := make(chan struct{}, maxFinishing)
	var wg sync.WaitGroup
	for k, gp := range pairs {
		<-prepared[k]
		<-ahead
		if gp.job != nil && ctx.Err() == nil {
			if cfg.Progress != nil {
				cfg.Progress(fmt.Sprintf("searching %s (%d of %d)", gp.res.Pair, k+1, len(pairs)))
			}
			t := time.Now()
			if err := gp.job.Search(ctx); err != nil {
				gp.fail(err)
			}
			gp.res.Gen.Stages.Search = time.Since(t).Seconds()
		}
		finishing <- struct{}{}
		wg.Add(1)
		go func(gp *genPair) {
			defer wg.Done()
			defer func() { <-finishing }()
			defer close(gp.done)
			if gp.prev != nil {
				<-gp.prev.done
			}
			gp.finish(ctx, modRoot)
		}(gp)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]shard.PairResult, len(pairs))
	for k, gp := range pairs {
		out[k] = gp.res
	}
	return out, nil
}

// pairResult is the start of a pair's result: its names.
func pairResult(p couple.Pair) shard.PairResult {
	return shard.PairResult{PairOutcome: shard.PairOutcome{
		Pair: shard.PairName(p.Caller.Pkg.Path, p.Callee.Pkg.Path), Caller: p.Caller.Pkg.Path, Callee: p.Callee.Pkg.Path,
		CoupledBranches: p.CoupledBranches,
	}}
}

// prepare measures the coverage of R's existing tests, the run's files
// hidden, and prepares the generation.
func (gp *genPair) prepare(ctx context.Context, tests probe.TestOptions, hide []string) {
	a, g := gp.a, gp.res.Gen
	tests.Dir = a.Prog.Dir
	if len(tests.Packages) == 0 {
		tests.Packages = []probe.TestPackage{{Path: a.Caller.Pkg.Path, Dir: a.Caller.Pkg.Dir}}
	}
	tests.Hide = hide
	gp.before = make([]bool, len(a.Goals))
	t := time.Now()
	run, err := probe.Measure(ctx, a, tests)
	g.Stages.Before = time.Since(t).Seconds()
	var te *probe.TestError
	switch {
	case ctx.Err() != nil:
		return
	case errors.As(err, &te):
		g.BeforeError = te.Msg
	case err != nil:
		g.BeforeError = oneLine(err.Error())
	default:
		gp.before = run.Covered
		g.FailingTests = run.Failed
	}
	g.CoveredBefore = count(gp.before)
	t = time.Now()
	job, err := gen.Prepare(ctx, a, gp.cfg)
	g.Stages.Prepare = time.Since(t).Seconds()
	if err != nil {
		gp.fail(err)
		return
	}
	gp.job = job
}

// fail records why the pair has no file and drops its job.
func (gp *genPair) fail(err error) {
	var ge *gen.Error
	if errors.As(err, &ge) {
		gp.res.Error = ge.Msg
	} else {
		gp.res.Error = oneLine(err.Error())
	}
	if gp.job != nil {
		gp.job.Close()
		gp.job = nil
	}
}

// finish minimises, verifies and writes the pair's file, and completes
// its result.
func (gp *genPair) finish(ctx context.Context, modRoot string) {
	g := gp.res.Gen
	g.CoveredAfter = g.CoveredBefore
	defer func() { gp.res.Seconds = time.Since(gp.start).Seconds() }()
	if gp.job == nil || ctx.Err() != nil {
		return
	}
	t := time.Now()
	rep, err := gp.job.Finish(ctx)
	g.Stages.Finish = time.Since(t).Seconds()
	gp.job.Close()
	gp.job = nil
	if rep != nil {
		g.Evaluations = rep.Stats.Evaluations
		g.SearchSeconds = rep.SearchSeconds
		g.Dropped = rep.Dropped
		g.SuiteCost, g.SuiteCostError = rep.SuiteCost.Measured, rep.SuiteCost.MeasureError
	}
	if err != nil {
		gp.fail(err)
		return
	}
	g.Tests, g.Covered = rep.Tests, rep.Covered
	if rel, err := filepath.Rel(modRoot, rep.TestFile); err == nil {
		g.File = filepath.ToSlash(rel)
	} else {
		g.File = rep.TestFile
	}
	after := append([]bool(nil), gp.before...)
	for _, goals := range rep.Covers {
		for _, i := range goals {
			after[i] = true
		}
	}
	g.CoveredAfter = count(after)
}

func count(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// oneLine is the first line of s.
func oneLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
