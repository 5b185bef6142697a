package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cling-go/cling/batch"
	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/shard"
	"github.com/cling-go/cling/targets"
	"github.com/urfave/cli/v2"
)

func cbcCommand() *cli.Command {
	return &cli.Command{
		Name:  "cbc",
		Usage: "measure the coupled-branch coverage of a test suite",
		UsageText: "cling cbc --caller R --callee E [--criteria LIST] [--run REGEX] [--pkg PATTERN...] [--json] [-v] [-- go test flags]\n" +
			"cling cbc [PATTERN...] [--min-coupled N] [--max-pairs N] [--pair R:E...] [--json] [--json-out FILE]\n" +
			"cling cbc --plan FILE --shard I [--json-out FILE]",
		Description: `Runs the tests of R (or of the --pkg packages) with probes in R and E, in a
temporary overlay that leaves the module untouched, and reports which coupled
branches they cover. A coupled branch (s, r, e) is covered when, in one test,
branch r of R is taken and later branch e of E is taken during a call made at
call site s (a branch of E reached by calling E directly does not count).

--criteria measures other coverage criteria as well (a comma-separated list,
or all; see docs/criteria.md): their probes are compiled in only then.

Tests always run with -count=1. If the suite fails, the coverage is reported
anyway, the failing tests are listed, and cling exits with status 1.

` + multiPairHelp + ` The pairs of one caller are measured in one instrumented build, a few callers at a time; --criteria applies to one pair.

Coverage criteria (--criteria):
` + criteriaList(),
		Flags: append(append(append(pairFlags(), selectionFlags()...), planFlags()...),
			&cli.StringFlag{Name: "run", Usage: "run only the tests matching `REGEX` (go test -run)"},
			&cli.StringSliceFlag{Name: "pkg", Usage: "run the tests of the packages matching `PATTERN` instead of R's (repeatable)"},
			&cli.StringFlag{Name: "criteria", Value: "default", Usage: "also measure the criteria of `LIST` (comma-separated, listed above; all; default: the coupled branches alone)"},
			&cli.BoolFlag{Name: "json", Usage: "write the result as JSON to stdout"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "list every coupled branch (and goal of the other criteria) with its status"},
		),
		Action: runCBC,
	}
}

// cbcReport is the JSON form of `cling cbc`.
type cbcReport struct {
	Caller          string          `json:"caller"`
	Callee          string          `json:"callee"`
	CoupledBranches int             `json:"coupledBranches"`
	Covered         int             `json:"covered"`
	CBC             float64         `json:"cbc"`
	Tests           int             `json:"tests"`
	FailedTests     []string        `json:"failedTests"`
	CallSites       []cbcSiteReport `json:"callSites"`
	Pairs           []cbcPairReport `json:"pairs"`
	Unobservable    []string        `json:"unobservable,omitempty"`
	// Criteria is the coverage of the criteria --criteria asked for
	// besides the coupled branches.
	Criteria []criteria.Coverage `json:"criteria,omitempty"`
}

type cbcSiteReport struct {
	Pos      string `json:"pos"`
	Function string `json:"function"`
	Callee   string `json:"callee"`
	Pairs    int    `json:"pairs"`
	Covered  int    `json:"covered"`
}

type cbcPairReport struct {
	CallSite     string `json:"callSite"`
	CallerTarget string `json:"callerTarget"`
	CalleeTarget string `json:"calleeTarget"`
	Covered      bool   `json:"covered"`
}

func runCBC(c *cli.Context) error {
	cs, err := criteria.Parse(c.String("criteria"))
	if err != nil {
		return usagef("%v", err)
	}
	if severalPairs(c) {
		if len(cs) > 1 {
			return usagef("--criteria measures one pair: give --caller and --callee")
		}
		return runCBCPairs(c)
	}
	if err := checkOnePairFlags(c); err != nil {
		return err
	}
	a, err := loadPair(c)
	if err != nil {
		return err
	}
	pkgs := []probe.TestPackage{{Path: a.Caller.Pkg.Path, Dir: a.Caller.Pkg.Dir}}
	if listed, err := testPackages(c); err != nil {
		return err
	} else if len(listed) > 0 {
		pkgs = listed
	}
	plan := probe.NewPlan(a, probe.Coverage)
	var tg *targets.Targets
	if len(cs) > 1 {
		if tg, err = targets.Of(a); err != nil {
			return err
		}
		plan = probe.NewPlanWith(a, probe.Coverage, tg, criteria.MeasuredExtrasOf(cs))
	}
	sess, err := probe.NewSessionWith(plan)
	if err != nil {
		return err
	}
	defer sess.Close()
	run, err := sess.RunTests(c.Context, probe.TestOptions{
		Dir:      a.Prog.Dir,
		Packages: pkgs,
		Run:      c.String("run"),
		Tags:     globalLoad(c).Tags,
		Extra:    c.Args().Slice(),
	})
	if err != nil {
		var te *probe.TestError
		if errors.As(err, &te) {
			return &exitError{code: exitFailure, msg: te.Msg}
		}
		return err
	}
	rep := newCBCReport(a, run)
	if len(cs) > 1 {
		rep.Criteria = criteria.Measure(criteria.NewPair(a, tg, fitness.Layered), cs[1:], run)
	}
	if c.Bool("json") {
		if err := writeJSON(c.App.Writer, rep); err != nil {
			return err
		}
	} else {
		writeCBCText(c.App.Writer, rep, c.Bool("verbose"))
	}
	if len(run.Failed) > 0 {
		return &exitError{code: exitFailure, msg: fmt.Sprintf("%d tests failed: %s", len(run.Failed), strings.Join(run.Failed, ", "))}
	}
	return nil
}

// testPackages lists the packages --pkg names (none without it).
func testPackages(c *cli.Context) ([]probe.TestPackage, error) {
	pats := c.StringSlice("pkg")
	if len(pats) == 0 {
		return nil, nil
	}
	cfg := globalLoad(c)
	cfg.Patterns = pats
	listed, err := ccfg.List(cfg)
	if err != nil {
		return nil, err
	}
	var pkgs []probe.TestPackage
	for _, l := range listed {
		pkgs = append(pkgs, probe.TestPackage{Path: l.Path, Dir: l.Dir})
	}
	return pkgs, nil
}

// runCBCPairs measures the coverage of several pairs.
func runCBCPairs(c *cli.Context) error {
	start := time.Now()
	if err := checkSeveralPairsFlags(c, "verbose"); err != nil {
		return err
	}
	patterns, extra := splitTestFlags(c.Args().Slice())
	pkgs, err := testPackages(c)
	if err != nil {
		return err
	}
	run, res, err := loadRunOf(c, shard.CommandCBC, patterns)
	if err != nil {
		return err
	}
	pairs, err := batch.CBC(c.Context, run, probe.TestOptions{Packages: pkgs, Run: c.String("run"), Tags: globalLoad(c).Tags, Extra: extra})
	if err != nil {
		return err
	}
	return finishRun(c, res, pairs, start)
}

// splitTestFlags splits the arguments of cbc over several pairs into
// patterns and the go test flags after "--". The flag parser drops a
// "--" that comes first, so arguments that start with a flag are all go
// test flags.
func splitTestFlags(args []string) (patterns, extra []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	if len(args) > 0 && isFlag(args[0]) {
		return nil, args
	}
	return args, nil
}

func newCBCReport(a *couple.Analysis, run *probe.TestRun) *cbcReport {
	rep := &cbcReport{
		Caller:          a.Caller.Pkg.Path,
		Callee:          a.Callee.Pkg.Path,
		CoupledBranches: len(a.Goals),
		Tests:           run.Tests,
		FailedTests:     append([]string{}, run.Failed...),
		CallSites:       []cbcSiteReport{},
		Pairs:           []cbcPairReport{},
		Unobservable:    run.Unobservable,
	}
	perSite := make([]int, len(a.Sites))
	for _, g := range a.Goals {
		cov := run.Covered[g.Index]
		if cov {
			rep.Covered++
			perSite[g.Site.Index]++
		}
		rep.Pairs = append(rep.Pairs, cbcPairReport{
			CallSite: a.Prog.Pos(g.Site.Pos), CallerTarget: g.R.ID(), CalleeTarget: g.E.ID(), Covered: cov,
		})
	}
	for _, s := range a.Sites {
		rep.CallSites = append(rep.CallSites, cbcSiteReport{
			Pos: a.Prog.Pos(s.Pos), Function: s.Func.Name, Callee: couple.CalleeName(s),
			Pairs: len(s.CallerTargets) * len(s.CalleeTargets), Covered: perSite[s.Index],
		})
	}
	if rep.CoupledBranches > 0 {
		rep.CBC = float64(rep.Covered) / float64(rep.CoupledBranches)
	}
	return rep
}

// maxListed is how many uncovered coupled branches the text report lists
// without -v.
const maxListed = 20

func writeCBCText(w io.Writer, rep *cbcReport, verbose bool) {
	fmt.Fprintf(w, "caller %s\ncallee %s\n", rep.Caller, rep.Callee)
	fmt.Fprintf(w, "%d tests; coupled branches covered: %d of %d (%s)\n\n", rep.Tests, rep.Covered, rep.CoupledBranches, percent(rep.Covered, rep.CoupledBranches))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CALL SITE\tIN\tCALLS\tCOVERED")
	for _, s := range rep.CallSites {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\n", s.Pos, s.Function, s.Callee, s.Covered, s.Pairs)
	}
	tw.Flush()
	var uncovered []cbcPairReport
	for _, p := range rep.Pairs {
		if !p.Covered {
			uncovered = append(uncovered, p)
		}
	}
	switch {
	case verbose:
		fmt.Fprintln(w, "\ncoupled branches (call site, caller target -> callee target):")
		for _, p := range rep.Pairs {
			mark := "  "
			if p.Covered {
				mark = "✓ "
			}
			fmt.Fprintf(w, "  %s%s  %s -> %s\n", mark, p.CallSite, p.CallerTarget, p.CalleeTarget)
		}
	case len(uncovered) > 0 && len(uncovered) <= maxListed:
		fmt.Fprintln(w, "\nuncovered coupled branches (call site, caller target -> callee target):")
		for _, p := range uncovered {
			fmt.Fprintf(w, "  %s  %s -> %s\n", p.CallSite, p.CallerTarget, p.CalleeTarget)
		}
	case len(uncovered) > maxListed:
		fmt.Fprintf(w, "\n%d coupled branches uncovered (-v lists them)\n", len(uncovered))
	}
	if len(rep.Criteria) > 0 {
		fmt.Fprintln(w)
		writeCriteria(w, "other criteria", rep.Criteria)
		for _, cov := range rep.Criteria {
			writeGoals(w, cov, verbose)
		}
	}
	if len(rep.Unobservable) > 0 {
		fmt.Fprintf(w, "\n%d constructs cannot be observed by the probes:\n", len(rep.Unobservable))
		for _, u := range rep.Unobservable {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
}

func percent(k, n int) string {
	if n == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}
