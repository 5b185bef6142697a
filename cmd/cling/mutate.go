package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cling-go/cling/batch"
	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/mutate/report"
	"github.com/cling-go/cling/shard"
	"github.com/urfave/cli/v2"
)

func mutateCommand() *cli.Command {
	return &cli.Command{
		Name:  "mutate",
		Usage: "interface mutation analysis of a test suite",
		UsageText: "cling mutate --caller R --callee E [--operators interface|all|NAME,...] [--tests PATTERN...] [--run REGEX]\n" +
			"       [--workers N] [--json] [--html DIR] [--compare FILE] [--min-score S]\n" +
			"cling mutate [PATTERN...] [--min-coupled N] [--max-pairs N] [--pair R:E...] [--operators ...] [--min-score S] [--json] [--json-out FILE]\n" +
			"cling mutate --plan FILE --shard I [--json-out FILE]",
		Description: `Judges a test suite by the interface faults it detects. The interface
operators (the default) mutate where R and E meet: the functions of E that
R's call sites reach, and those calls. The conventional ones, named as in
PIT, mutate all of R and E. --operators takes operator names and the groups
interface, conventional and all:

` + operatorHelp() + `
All mutants are compiled once into one test binary per tested package
(mutant schemata) in a temporary overlay; the module is never written.
Mutants that do not type-check are not-viable. A baseline run, which must
pass, records which tests reach which mutant; a mutant no test reaches is
not-covered, the others run against the tests that reach them, in parallel,
each with a timeout of (baseline time x --timeout-factor + --timeout-floor).
A mutant is killed when a selected test fails or panics.

Score = (killed + timeout) / (all - not-viable). By default the tests of R
and E run; --tests names other packages. --compare FILE reports which
mutants only the tests of FILE (for example a cling gen suite) detect and
which only the other tests do; a FILE outside the tested packages joins R's
package for the run. --min-score makes cling exit with status 1 when the
score is lower, for use as a pre-merge gate.

` + multiPairHelp + ` A few pairs are analysed at a time; --min-score applies
to each pair, and --html, --compare report on one pair only (cling merge
--html reports on all).`,
		Flags: append(append(append(pairFlags(), selectionFlags()...), planFlags()...),
			&cli.StringSliceFlag{Name: "operators", Aliases: []string{"o"}, Usage: "operators to apply: interface (default), conventional, all, or operator `NAMES`"},
			&cli.StringSliceFlag{Name: "tests", Usage: "run the tests of the packages matching `PATTERN` instead of R's and E's (repeatable)"},
			&cli.StringFlag{Name: "run", Usage: "use only the top-level tests matching `REGEX` (go test -run)"},
			&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, DefaultText: "number of CPUs", Usage: "evaluate `N` mutants in parallel"},
			&cli.BoolFlag{Name: "json", Usage: "write the result as JSON to stdout"},
			&cli.StringFlag{Name: "html", Usage: "write an HTML report to `DIR`/index.html"},
			&cli.StringFlag{Name: "compare", Usage: "compare the mutants killed by the tests of generated test `FILE` with those killed by the others"},
			&cli.Float64Flag{Name: "min-score", Usage: "exit with status 1 if the mutation score is below `S` (0 to 1)"},
			&cli.Float64Flag{Name: "timeout-factor", Value: 5, Usage: "a mutant run may take `F` times the baseline time of its tests"},
			&cli.DurationFlag{Name: "timeout-floor", Value: 2 * time.Second, Usage: "plus `D` (see --timeout-factor)"},
			&cli.BoolFlag{Name: "naive", Hidden: true, Usage: "also evaluate every executed mutant with a build of its own and compare (benchmarks)"},
			&cli.BoolFlag{Name: "timing", Hidden: true, Usage: "include the time of each phase in the JSON output"},
		),
		Action: runMutate,
	}
}

func runMutate(c *cli.Context) error {
	if severalPairs(c) {
		if err := checkSeveralPairsFlags(c, "html", "compare", "naive", "timing"); err != nil {
			return err
		}
	} else {
		if err := checkOnePairFlags(c); err != nil {
			return err
		}
		if c.NArg() > 0 {
			return usagef("mutate takes no arguments (got %q); name packages with --caller and --callee", c.Args().First())
		}
	}
	ops, err := mutate.ParseOperators(c.StringSlice("operators"))
	if err != nil {
		return usagef("%v", err)
	}
	if s := c.Float64("min-score"); s < 0 || s > 1 {
		return usagef("--min-score must be between 0 and 1 (got %g)", s)
	}
	if c.Float64("timeout-factor") <= 0 || c.Duration("timeout-floor") < 0 {
		return usagef("--timeout-factor must be positive and --timeout-floor not negative")
	}
	cfg := mutate.Config{
		Operators:     ops,
		Run:           c.String("run"),
		Tags:          globalLoad(c).Tags,
		Workers:       c.Int("workers"),
		TimeoutFactor: c.Float64("timeout-factor"),
		TimeoutFloor:  c.Duration("timeout-floor"),
		Compare:       c.String("compare"),
		Naive:         c.Bool("naive"),
	}
	if cfg.Compare != "" {
		if _, err := os.Stat(cfg.Compare); err != nil {
			return fmt.Errorf("--compare: %w", err)
		}
	}
	if pats := c.StringSlice("tests"); len(pats) > 0 {
		lc := globalLoad(c)
		for _, p := range pats {
			if isGoFile(lc.Dir, p) {
				// go list would take it for a file of a package of its own.
				return usagef("--tests takes package patterns, not files: %s (--compare FILE judges one test file against the others; --run chooses tests by name)", p)
			}
		}
		lc.Patterns = pats
		listed, err := ccfg.List(lc)
		if err != nil {
			return err
		}
		for _, l := range listed {
			cfg.Tests = append(cfg.Tests, mutate.TestPackage{Path: l.Path, Dir: l.Dir})
		}
	}
	if severalPairs(c) {
		return runMutatePairs(c, cfg)
	}
	a, err := loadPair(c)
	if err != nil {
		return err
	}
	cfg.Analysis = a
	if writerIsTerminal(c.App.ErrWriter) {
		cfg.Progress = progressPrinter(c.App.ErrWriter)
	}
	res, err := mutate.Run(c.Context, cfg)
	if cfg.Progress != nil {
		fmt.Fprint(c.App.ErrWriter, "\r\033[K")
	}
	if err != nil {
		var nt *mutate.NoTestsError
		var be *mutate.BaselineError
		switch {
		case errors.As(err, &nt):
			return &exitError{code: exitFailure, msg: nt.Msg}
		case errors.As(err, &be):
			return &exitError{code: exitFailure, msg: be.Error()}
		}
		return err
	}
	if dir := c.String("html"); dir != "" {
		if err := report.WriteHTML(dir, res); err != nil {
			return fmt.Errorf("writing the HTML report: %w", err)
		}
	}
	if c.Bool("json") {
		if err := writeJSON(c.App.Writer, report.NewJSON(res, c.Bool("timing") || cfg.Naive)); err != nil {
			return err
		}
	} else {
		report.WriteText(c.App.Writer, res)
	}
	if n := res.Naive; n != nil && len(n.Mismatches) > 0 {
		return &exitError{code: exitFailure, msg: fmt.Sprintf("%d mutants have another status when built one by one", len(n.Mismatches))}
	}
	if min := c.Float64("min-score"); min > 0 && res.Score() < min {
		return &exitError{code: exitFailure, msg: fmt.Sprintf("mutation score %.1f%% is below --min-score %.1f%%", 100*res.Score(), 100*min)}
	}
	return nil
}

// runMutatePairs runs the mutation analysis of several pairs, with cfg as
// every pair's configuration.
func runMutatePairs(c *cli.Context, cfg mutate.Config) error {
	start := time.Now()
	run, res, err := loadRun(c, shard.CommandMutate)
	if err != nil {
		return err
	}
	pairs, err := batch.Mutate(c.Context, run, cfg)
	if err != nil {
		return err
	}
	if min := c.Float64("min-score"); min > 0 {
		for i, p := range pairs {
			if m := p.Mutate; m != nil && p.Error == "" && m.Viable() > 0 && m.Score < min {
				pairs[i].Error = fmt.Sprintf("mutation score %.1f%% is below --min-score %.1f%%", 100*m.Score, 100*min)
			}
		}
	}
	return finishRun(c, res, pairs, start)
}

// helpWidth is the width of the lines of help texts.
const helpWidth = 77

// operatorHelp lists the mutation operators of each group with their
// docs, as registered in package mutate.
func operatorHelp() string {
	width := 0
	for _, o := range mutate.Operators() {
		width = max(width, len(o.Name))
	}
	var b strings.Builder
	for _, g := range mutate.Groups() {
		fmt.Fprintf(&b, "%s operators:\n", g)
		for _, o := range mutate.Operators() {
			if o.Group != g {
				continue
			}
			line := fmt.Sprintf("  %-*s  ", width, o.Name)
			words := 0
			for _, w := range strings.Fields(o.Doc) {
				if words > 0 && len(line)+1+len(w) > helpWidth {
					b.WriteString(line + "\n")
					line, words = strings.Repeat(" ", width+4), 0
				}
				if words > 0 {
					line += " "
				}
				line += w
				words++
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// progressPrinter shows the progress of a run on one terminal line.
func progressPrinter(w io.Writer) func(phase string, done, total int) {
	return func(phase string, done, total int) {
		fmt.Fprintf(w, "\r\033[K%s: %d/%d", phase, done, total)
	}
}

// isGoFile reports whether pattern names a Go source file: a name ending
// in _test.go, or in .go that is a file from dir (a module path may end
// in .go: github.com/nats-io/nats.go).
func isGoFile(dir, pattern string) bool {
	if strings.HasSuffix(pattern, "_test.go") {
		return true
	}
	if !strings.HasSuffix(pattern, ".go") {
		return false
	}
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(dir, pattern)
	}
	fi, err := os.Stat(pattern)
	return err == nil && fi.Mode().IsRegular()
}
