package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cling-go/cling/batch"
	"github.com/cling-go/cling/gen"
	"github.com/cling-go/cling/shard"
	"github.com/urfave/cli/v2"
)

// pairOverhead is what a pair costs besides its search in a plan's
// estimate: measuring its existing tests, instrumenting it, building its
// executor and verifying its file take about this long on packages of
// expr's size on two cores (see BENCHMARKS.md), whatever the budget.
const pairOverhead = 10 * time.Second

func planCommand() *cli.Command {
	return &cli.Command{
		Name:      "plan",
		Usage:     "split the pairs of a module into shards for a CI matrix",
		UsageText: "cling plan [PATTERN...] --shards N [--min-coupled N] [--max-pairs N] [--pair R:E...] [--budget D] [--json]",
		Description: `Selects the pairs as cling gen, cbc and mutate do over several pairs (the
non-trivial pairs with coupled branches whose caller matches PATTERN, default
./..., and whose caller and callee lie in the main module) and splits them
into N shards of about equal estimated cost. The pairs of one caller stay in
one shard: they write files into the same directory, each seeing those written
before it. The same module, selection and N always give the same plan.

The estimate of a pair is ` + fmt.Sprint(pairOverhead.Seconds()) + `s (measuring, instrumenting, building,
verifying) plus its coupled branches times the module's rate, the search
seconds per coupled branch: --budget (the total search time of cling gen over
the plan, default 60s per pair) over the coupled branches of all pairs.
Callers go, most costly first, to the shard with the least estimate so far.

--json prints the plan as a GitHub Actions matrix,
{"include":[{"shard":1,"pairs":["R:E",...],...,"plan":{...}},...]}, for
strategy.matrix: ${{ fromJSON(...) }}; each entry carries the plan (its id, the
module, a digest of its sources, the selection). Save it as a file: cling gen,
cbc and mutate run shard I of it with --plan FILE --shard I, and refuse a plan
made for another module or for other sources. docs/scale.md has a complete
workflow.`,
		Flags: append(selectionFlags(),
			&cli.IntFlag{Name: "shards", Usage: "split into `N` shards"},
			&cli.DurationFlag{Name: "budget", DefaultText: "60s per pair", Usage: "the total search time `D` of cling gen over the plan, for the estimate"},
			&cli.BoolFlag{Name: "json", Usage: "print the plan as a GitHub Actions matrix"},
		),
		Action: runPlan,
	}
}

func runPlan(c *cli.Context) error {
	if !c.IsSet("shards") {
		return usagef("missing --shards: say into how many shards to split the pairs")
	}
	n := c.Int("shards")
	if n < 1 {
		return usagef("--shards must be at least 1 (got %d)", n)
	}
	if c.IsSet("budget") && c.Duration("budget") <= 0 {
		return usagef("--budget must be positive")
	}
	run, sel, err := loadSelection(c, selection(c, c.Args().Slice()))
	if err != nil {
		return err
	}
	digest, err := batch.SourceDigest(run.Prog)
	if err != nil {
		return err
	}
	pairs := batch.ShardPairs(run.Selected)
	budget := c.Duration("budget")
	if !c.IsSet("budget") {
		budget = time.Duration(len(pairs)) * gen.DefaultConfig().Budget.Time
	}
	est := shard.Estimate{BudgetSeconds: budget.Seconds(), OverheadSeconds: pairOverhead.Seconds()}
	sum := 0
	for _, p := range pairs {
		sum += p.CoupledBranches
	}
	if sum > 0 {
		est.Rate = budget.Seconds() / float64(sum)
	}
	plan, err := shard.NewPlan(run.Prog.MainModule.Path, digest, sel, pairs, n, est)
	if err != nil {
		return usageErr(err)
	}
	if c.Bool("json") {
		return writeJSON(c.App.Writer, plan)
	}
	writePlanText(c.App.Writer, plan)
	return nil
}

func writePlanText(w io.Writer, p *shard.Plan) {
	pairs := p.Pairs()
	shards := "shards"
	if len(p.Shares) == 1 {
		shards = "shard"
	}
	fmt.Fprintf(w, "plan %s of %s: %d pairs in %d %s (%.4fs of search per coupled branch, %gs per pair besides)\n",
		p.ID, p.Module, len(pairs), len(p.Shares), shards, p.Estimate.Rate, p.Estimate.OverheadSeconds)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SHARD\tPAIRS\tCOUPLED\tESTIMATE\tCALLERS")
	for i, s := range p.Shares {
		cb := 0
		var callers []string
		seen := map[string]bool{}
		for _, pr := range s.Pairs {
			cb += pr.CoupledBranches
			if !seen[pr.Caller] {
				seen[pr.Caller] = true
				callers = append(callers, shard.ShortPath(p.Module, pr.Caller))
			}
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\n", i+1, len(s.Pairs), cb, time.Duration(s.Seconds*float64(time.Second)).Round(time.Second).String(), strings.Join(callers, " "))
	}
	tw.Flush()
}
