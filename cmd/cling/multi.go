package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/cling-go/cling/batch"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/shard"
	"github.com/urfave/cli/v2"
)

// multiPairHelp explains the form of gen, cbc and mutate that runs over
// several pairs.
const multiPairHelp = `Without --caller and --callee, the command runs over every non-trivial pair
with coupled branches whose caller is among the packages matching PATTERN
(default ./...) and whose caller and callee lie in the main module (--external:
in any module), most coupled first; --min-coupled, --max-pairs and --pair
R:E (repeatable) choose among them. It prints a table of the pairs, --json
their results (one entry per pair), and --json-out FILE writes the results
for cling merge. --plan FILE --shard I runs shard I of a plan of cling plan
instead. A pair that fails is reported and the command exits with status 1
when all pairs have run.`

// selectionFlags choose the pairs of a run over several pairs; planFlags
// take a share of a plan and write the results.
func selectionFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "min-coupled", Usage: "over several pairs: leave out pairs with fewer than `N` coupled branches"},
		&cli.IntFlag{Name: "max-pairs", Usage: "over several pairs: take the `N` most coupled pairs only"},
		&cli.StringSliceFlag{Name: "pair", Usage: "over several pairs: take only the pair `R:E` (import paths or ./dirs; repeatable)"},
		&cli.BoolFlag{Name: "external", Usage: "over several pairs: also pairs whose caller or callee lies outside the main module"},
	}
}

func planFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "plan", Usage: "run a shard of the plan `FILE` written by cling plan --json"},
		&cli.IntFlag{Name: "shard", Usage: "with --plan: run shard `I` (1 to the plan's shards)"},
		&cli.StringFlag{Name: "json-out", Usage: "over several pairs: write the results to `FILE` for cling merge"},
	}
}

// severalPairs reports whether the command runs over several pairs: it
// was given neither --caller nor --callee.
func severalPairs(c *cli.Context) bool { return !c.IsSet("caller") && !c.IsSet("callee") }

// checkOnePairFlags rejects, in the form for one pair, the flags of the
// form for several.
func checkOnePairFlags(c *cli.Context) error {
	for _, f := range []string{"min-coupled", "max-pairs", "pair", "external", "plan", "shard", "json-out"} {
		if c.IsSet(f) {
			return usagef("--%s works over several pairs: leave out --caller and --callee", f)
		}
	}
	return nil
}

// checkSeveralPairsFlags rejects, over several pairs, the flags that only
// make sense for one.
func checkSeveralPairsFlags(c *cli.Context, onePair ...string) error {
	for _, f := range onePair {
		if c.IsSet(f) {
			return usagef("--%s works for one pair (--caller and --callee)", f)
		}
	}
	return nil
}

// selection is the selection the flags and the patterns make.
func selection(c *cli.Context, patterns []string) shard.Selection {
	sel := shard.Selection{
		Patterns:   patterns,
		Tags:       globalLoad(c).Tags,
		MinCoupled: c.Int("min-coupled"),
		MaxPairs:   c.Int("max-pairs"),
		Pairs:      c.StringSlice("pair"),
		External:   c.Bool("external"),
	}
	if len(sel.Patterns) == 0 {
		sel.Patterns = []string{"./..."}
	}
	return sel
}

// loadSelection loads the packages of a selection and chooses its pairs.
func loadSelection(c *cli.Context, sel shard.Selection) (batch.Run, shard.Selection, error) {
	if sel.MinCoupled < 0 || sel.MaxPairs < 0 {
		return batch.Run{}, sel, usagef("--min-coupled and --max-pairs must not be negative")
	}
	cfg := globalLoad(c)
	cfg.Patterns, cfg.Tags = sel.Patterns, sel.Tags
	cfg.SkipBroken = true
	prog, all, err := couple.LoadAllPairs(cfg)
	if err != nil {
		return batch.Run{}, sel, err
	}
	warnSkipped(c, prog)
	if prog.MainModule == nil || prog.MainModule.Dir == "" {
		return batch.Run{}, sel, fmt.Errorf("cling needs a Go module: no go.mod found for %s", prog.Dir)
	}
	selected, sel, err := batch.Select(prog, all, sel)
	var be *batch.Error
	if errors.As(err, &be) {
		return batch.Run{}, sel, usagef("%s", be.Msg)
	}
	if err != nil {
		return batch.Run{}, sel, err
	}
	return batch.All(prog, selected), sel, nil
}

// loadRun loads the pairs of a run over several pairs: the selection of
// the flags and arguments, or the share of a plan. It returns the run and
// the start of its results.
func loadRun(c *cli.Context, command string) (batch.Run, *shard.Results, error) {
	return loadRunOf(c, command, c.Args().Slice())
}

// loadRunOf is loadRun with the patterns given.
func loadRunOf(c *cli.Context, command string, patterns []string) (batch.Run, *shard.Results, error) {
	if c.IsSet("shard") && !c.IsSet("plan") {
		return batch.Run{}, nil, usagef("--shard needs --plan")
	}
	if !c.IsSet("plan") {
		run, _, err := loadSelection(c, selection(c, patterns))
		if err != nil {
			return run, nil, err
		}
		return run, &shard.Results{Command: command, Module: run.Prog.MainModule.Path, Pairs: []shard.PairResult{}}, nil
	}
	if len(patterns) > 0 {
		return batch.Run{}, nil, usagef("--plan takes the packages from the plan: leave out %q", patterns[0])
	}
	for _, f := range []string{"min-coupled", "max-pairs", "pair", "external", "tags"} {
		if c.IsSet(f) {
			return batch.Run{}, nil, usagef("--plan takes the pairs from the plan: leave out --%s", f)
		}
	}
	plan, err := shard.ReadPlan(c.String("plan"))
	if err != nil {
		return batch.Run{}, nil, usageErr(err)
	}
	if !c.IsSet("shard") {
		return batch.Run{}, nil, usagef("--plan needs --shard I (1 to %d)", len(plan.Shares))
	}
	share, err := plan.Share(c.Int("shard"))
	if err != nil {
		return batch.Run{}, nil, usageErr(err)
	}
	run, sel, err := loadSelection(c, plan.Selection)
	if err != nil {
		return run, nil, err
	}
	if err := checkPlan(c.String("plan"), plan, run, sel); err != nil {
		return run, nil, err
	}
	index := map[string]int{}
	for i, p := range run.Selected {
		index[shard.PairName(p.Caller.Pkg.Path, p.Callee.Pkg.Path)] = i
	}
	run.Share = run.Share[:0]
	for _, p := range share.Pairs {
		run.Share = append(run.Share, index[p.Name()])
	}
	res := &shard.Results{Command: command, Plan: plan.ID, Shard: c.Int("shard"), Shards: len(plan.Shares), Module: plan.Module, Pairs: []shard.PairResult{}}
	return run, res, nil
}

// checkPlan checks that a plan was made for this module, at this
// version, and that its pairs are the selection's here.
func checkPlan(file string, plan *shard.Plan, run batch.Run, sel shard.Selection) error {
	mod := run.Prog.MainModule.Path
	if plan.Module != mod {
		return usagef("%s is a plan for module %s, not for %s", file, plan.Module, mod)
	}
	digest, err := batch.SourceDigest(run.Prog)
	if err != nil {
		return err
	}
	if digest != plan.Source {
		return usagef("%s was made for another version of %s (its Go files, go.mod or go.sum differ): make the plan again", file, mod)
	}
	want := map[string]int{}
	for _, p := range plan.Pairs() {
		want[p.Name()] = p.CoupledBranches
	}
	have := batch.ShardPairs(run.Selected)
	for _, p := range have {
		cb, ok := want[p.Name()]
		if !ok || cb != p.CoupledBranches {
			return usagef("%s does not match the pairs of %s here (%s): make the plan again with this cling", file, mod, p.Name())
		}
		delete(want, p.Name())
	}
	for name := range want {
		return usagef("%s does not match the pairs of %s here (%s): make the plan again with this cling", file, mod, name)
	}
	return nil
}

// usageErr turns a shard.Error into a usage error.
func usageErr(err error) error {
	var se *shard.Error
	if errors.As(err, &se) {
		return usagef("%s", se.Msg)
	}
	return err
}

// finishRun completes the results of a run over several pairs, writes
// them (--json-out), prints them (--json, else a table) and fails when a
// pair failed.
func finishRun(c *cli.Context, res *shard.Results, pairs []shard.PairResult, start time.Time) error {
	res.Pairs = pairs
	res.Seconds = time.Since(start).Seconds()
	if path := c.String("json-out"); path != "" {
		if err := shard.WriteResults(path, res); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		if err := writeJSON(c.App.Writer, res); err != nil {
			return err
		}
	} else {
		writeRunText(c.App.Writer, res)
	}
	failed := 0
	for _, p := range pairs {
		if p.Error != "" {
			failed++
		}
	}
	if failed > 0 {
		return &exitError{code: exitFailure, msg: fmt.Sprintf("%d of %d pairs failed", failed, len(pairs))}
	}
	return nil
}

// writeRunText prints the results of a run as the report of cling merge
// prints them, with the run's time.
func writeRunText(w io.Writer, res *shard.Results) {
	if len(res.Pairs) == 0 {
		fmt.Fprintln(w, "no pairs to run")
		return
	}
	rep, err := shard.Merge([]shard.Named{{Name: "run", Results: res}})
	if err != nil {
		fmt.Fprintln(w, err)
		return
	}
	rep.WriteText(w)
	what := "the run"
	if res.Plan != "" {
		what = fmt.Sprintf("shard %d of %d", res.Shard, res.Shards)
	}
	fmt.Fprintf(w, "%s took %.1fs\n", what, res.Seconds)
}
