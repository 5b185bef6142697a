package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cling-go/cling/gate"
	"github.com/cling-go/cling/gen"
	"github.com/cling-go/cling/mutate"
	"github.com/urfave/cli/v2"
)

// defaultBase is the base of cling ci without --base: the target branch
// of a GitHub pull request, else origin/main.
func defaultBase() string {
	if b := os.Getenv("GITHUB_BASE_REF"); b != "" {
		return b
	}
	return "origin/main"
}

func ciCommand() *cli.Command {
	return &cli.Command{
		Name:      "ci",
		Usage:     "a pre-merge gate: judge the tests of the pairs a change affects",
		UsageText: "cling ci [PATTERN...] [--base REF] [--min-diff-cbc F] [--min-diff-score F] [--gen BUDGET] [--json] [--sarif FILE]",
		Description: `Reads the change from git: the lines that differ between HEAD and the merge
base of REF and HEAD, plus uncommitted changes (staged, unstaged, and files git
does not track or ignore) unless --no-worktree. A deletion counts as a change
of the lines on both sides of it.

The affected pairs are the non-trivial pairs of cling pairs (callers among the
packages matching PATTERN, default ./...) whose caller R or callee E has a
changed non-test Go line, or whose R has changed test files. For each, the
existing tests are measured: R's tests under the probes for the coverage of
all coupled branches (CBC) and of the diff coupled branches (those whose call
site, caller branch or callee branch lies on a changed line; an entry:F
branch lies on F's signature), and the tests of R and E against the interface
mutants on changed lines (with --min-score, all mutants of the pair).

The thresholds apply to every affected pair; one that is not met, or a
failing test, makes cling exit with status 1. Without thresholds cling ci only
reports. --gen BUDGET runs cling gen, sharing BUDGET among the pairs whose
tests miss something in the diff, writes the files and reports what they add;
--gen-max-evals N also ends each of those searches after N evaluations,
so that with --seed they write the same files every run.
--budget bounds the whole run: pairs left without time are reported as
skipped and not judged.

With GITHUB_ACTIONS=true, findings become warning annotations (at most
--max-annotations, grouped per line, the rest counted), failures error
annotations, and a Markdown report is appended to $GITHUB_STEP_SUMMARY.
--sarif FILE writes the findings as SARIF 2.1.0 for code scanning.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "base", DefaultText: "$GITHUB_BASE_REF, else origin/main", Usage: "compare HEAD with the merge base of `REF` and HEAD (a branch only fetched as origin/REF is found there)"},
			&cli.BoolFlag{Name: "no-worktree", Usage: "ignore uncommitted changes"},
			&cli.Float64Flag{Name: "min-diff-cbc", Usage: "fail when a pair covers less than `F` (0 to 1) of its diff coupled branches"},
			&cli.Float64Flag{Name: "min-diff-score", Usage: "fail when the mutation score on changed lines of a pair is below `F`"},
			&cli.Float64Flag{Name: "min-cbc", Usage: "fail when a pair covers less than `F` of all its coupled branches"},
			&cli.Float64Flag{Name: "min-score", Usage: "fail when the mutation score of all mutants of a pair is below `F`"},
			&cli.DurationFlag{Name: "gen", Usage: "generate tests for the pairs that miss something, sharing a search time of `BUDGET`"},
			&cli.IntFlag{Name: "gen-max-evals", Usage: "with --gen, also end each pair's search after `N` evaluations (reproducible with --seed when the time does not run out first)"},
			&cli.DurationFlag{Name: "budget", Usage: "bound the whole run to `D`; pairs beyond it are skipped"},
			&cli.Int64Flag{Name: "seed", Value: gen.DefaultConfig().Seed, Usage: "random `SEED` of --gen"},
			&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, DefaultText: "number of CPUs", Usage: "evaluate mutants and run generated tests in `N` processes"},
			&cli.StringSliceFlag{Name: "operators", Aliases: []string{"o"}, Usage: "mutation operators `NAMES`, as for cling mutate (default: interface)"},
			&cli.IntFlag{Name: "max-annotations", Value: 20, Usage: "in GitHub Actions, annotate at most `N` lines"},
			&cli.StringFlag{Name: "sarif", Usage: "write the findings as SARIF 2.1.0 to `FILE`"},
			&cli.BoolFlag{Name: "json", Usage: "write the report as JSON to stdout"},
		},
		Action: runCI,
	}
}

func runCI(c *cli.Context) error {
	th := gate.Thresholds{
		MinDiffCBC: c.Float64("min-diff-cbc"), MinDiffScore: c.Float64("min-diff-score"),
		MinCBC: c.Float64("min-cbc"), MinScore: c.Float64("min-score"),
	}
	if err := th.Check(); err != nil {
		return usagef("%v", err)
	}
	if c.Duration("gen") < 0 || c.Duration("budget") < 0 || c.Int("max-annotations") < 0 || c.Int("gen-max-evals") < 0 {
		return usagef("--gen, --gen-max-evals, --budget and --max-annotations must not be negative")
	}
	if c.IsSet("gen-max-evals") && c.Duration("gen") <= 0 {
		return usagef("--gen-max-evals bounds the searches of --gen: give --gen BUDGET too")
	}
	ops, err := mutate.ParseOperators(c.StringSlice("operators"))
	if err != nil {
		return usagef("%v", err)
	}
	base := c.String("base")
	if base == "" {
		base = defaultBase()
	}
	lc := globalLoad(c)
	gcfg := gen.DefaultConfig()
	gcfg.Seed = c.Int64("seed")
	gcfg.Debug = debugWriter(c.App.ErrWriter)
	cfg := gate.Config{
		Dir: lc.Dir, Tags: lc.Tags, Patterns: c.Args().Slice(),
		Base: base, Worktree: !c.Bool("no-worktree"), Thresholds: th,
		Operators: ops, Workers: c.Int("workers"),
		Budget: c.Duration("budget"), Gen: c.Duration("gen"), GenMaxEvals: c.Int("gen-max-evals"), GenConfig: gcfg,
	}
	if writerIsTerminal(c.App.ErrWriter) {
		cfg.Progress = func(msg string) { fmt.Fprintf(c.App.ErrWriter, "\r\033[K%s", msg) }
	}
	rep, err := gate.Run(c.Context, cfg)
	if cfg.Progress != nil {
		fmt.Fprint(c.App.ErrWriter, "\r\033[K")
	}
	var ge *gate.Error
	if errors.As(err, &ge) {
		return &exitError{code: exitFailure, msg: ge.Msg}
	}
	if err != nil {
		return err
	}
	if path := c.String("sarif"); path != "" {
		if err := writeSARIF(path, rep); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		if err := writeJSON(c.App.Writer, rep); err != nil {
			return err
		}
	} else {
		gate.WriteText(c.App.Writer, rep)
	}
	if os.Getenv("GITHUB_ACTIONS") == "true" {
		// Workflow commands are read from stdout and stderr alike; with
		// --json, stdout holds one JSON document.
		w := c.App.Writer
		if c.Bool("json") {
			w = c.App.ErrWriter
		}
		gate.WriteAnnotations(w, rep, c.Int("max-annotations"))
		if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
			if err := appendSummary(path, rep); err != nil {
				return err
			}
		}
	}
	if !rep.Passed {
		msg := "the gate failed: " + rep.Failures[0]
		if n := len(rep.Failures) - 1; n > 0 {
			msg += fmt.Sprintf(" (and %d more)", n)
		}
		return &exitError{code: exitFailure, msg: msg}
	}
	return nil
}

// writeSARIF writes the report's findings to a SARIF file.
func writeSARIF(path string, rep *gate.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("writing the SARIF file: %w", err)
	}
	if err := gate.WriteSARIF(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("writing the SARIF file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing the SARIF file %s: %w", path, err)
	}
	return nil
}

// appendSummary appends the Markdown report to the job summary file.
func appendSummary(path string, rep *gate.Report) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("opening the job summary: %w", err)
	}
	var b strings.Builder
	gate.WriteMarkdown(&b, rep)
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the job summary %s: %w", path, err)
	}
	return nil
}
