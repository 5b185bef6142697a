package main

import (
	"fmt"

	"github.com/cling-go/cling/shard"
	"github.com/urfave/cli/v2"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "merge the results of the shards of a plan into one report",
		UsageText: "cling merge RESULTS.json... [--json] [--markdown] [--html DIR]",
		Description: `Reads the results files that cling gen, cbc and mutate wrote with --json-out
(the shards of one plan, of one or more of the commands, or one run outside a
plan) and reports per pair and in total: the coupled-branch coverage before and
after cling gen and the tests it wrote, the coverage cling cbc measured, the
mutants cling mutate found detected, and what failed. It refuses results of
different plans or modules and the same shard given twice (exit status 2);
it names the shards that are missing and then exits with status 1, as it does
when a pair failed.

--markdown prints the report as Markdown (for $GITHUB_STEP_SUMMARY or a pull
request), --json as JSON; --html DIR also writes DIR/index.html.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON"},
			&cli.BoolFlag{Name: "markdown", Usage: "print the report as Markdown"},
			&cli.StringFlag{Name: "html", Usage: "also write the report to `DIR`/index.html"},
		},
		Action: runMerge,
	}
}

func runMerge(c *cli.Context) error {
	if c.NArg() == 0 {
		return usagef("name the results files to merge (written by --json-out)")
	}
	if c.Bool("json") && c.Bool("markdown") {
		return usagef("give --json or --markdown, not both")
	}
	var files []shard.Named
	for _, path := range c.Args().Slice() {
		r, err := shard.ReadResults(path)
		if err != nil {
			return usageErr(err)
		}
		files = append(files, shard.Named{Name: path, Results: r})
	}
	rep, err := shard.Merge(files)
	if err != nil {
		return usageErr(err)
	}
	if dir := c.String("html"); dir != "" {
		if err := rep.WriteHTML(dir); err != nil {
			return err
		}
	}
	switch {
	case c.Bool("json"):
		if err := writeJSON(c.App.Writer, rep); err != nil {
			return err
		}
	case c.Bool("markdown"):
		rep.WriteMarkdown(c.App.Writer)
	default:
		rep.WriteText(c.App.Writer)
	}
	if m := rep.MissingText(); m != "" {
		return &exitError{code: exitFailure, msg: "results are missing: " + m}
	}
	if n := rep.Total.Failures; n > 0 {
		return &exitError{code: exitFailure, msg: fmt.Sprintf("%d of %d pairs failed", n, rep.Total.Pairs)}
	}
	return nil
}
