package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/probe"
	"github.com/urfave/cli/v2"
)

func pairsCommand() *cli.Command {
	return &cli.Command{
		Name:      "pairs",
		Usage:     "list caller/callee package pairs, most coupled first",
		UsageText: "cling pairs [PATTERN...] [--json] [--min-coupled N] [--all] [--std]",
		Description: `Loads the packages matching the patterns (default ./...) and lists every
ordered pair (R, E) where R is a matched package that calls into E. E may be
another matched package or a direct import from another module; standard
library callees are left out unless --std is given, and even then those
that cling's probe runtime imports (fmt, reflect, strconv, time, ...),
since cbc, gen and mutate cannot instrument them; --all lists them too,
marked "(no probes)". Packages that do not
type-check (their own errors, or those of a package they import) are
skipped with a warning; the command fails only when none is left.

For each pair: the number of call sites, the cyclomatic complexity of R and E
(sum over functions of ifs + 1), and the number of coupled branches. Pairs
where R or E has no branches at all are trivial and hidden unless --all.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "write the result as JSON to stdout"},
			&cli.IntFlag{Name: "min-coupled", Usage: "hide pairs with fewer than `N` coupled branches"},
			&cli.BoolFlag{Name: "all", Usage: "also show trivial pairs (R or E without branches)"},
			&cli.BoolFlag{Name: "std", Usage: "also consider standard-library packages as callees"},
		},
		Action: func(c *cli.Context) error {
			cfg := globalLoad(c)
			cfg.Patterns = c.Args().Slice()
			if len(cfg.Patterns) == 0 {
				cfg.Patterns = []string{"./..."}
			}
			cfg.Std = c.Bool("std")
			cfg.SkipBroken = true
			prog, pairs, err := couple.LoadAllPairs(cfg)
			if err != nil {
				return err
			}
			warnSkipped(c, prog)
			var noProbes map[string]string
			if cfg.Std {
				if noProbes, err = probe.RuntimeDeps(c.Context, prog.Dir); err != nil {
					return err
				}
			}
			rep := pairsReport{Pairs: []pairReport{}, Skipped: skippedReports(prog)}
			var hidden []string
			for _, p := range pairs {
				if p.CoupledBranches < c.Int("min-coupled") || (p.Trivial && !c.Bool("all")) {
					continue
				}
				_, uninstrumentable := noProbes[p.Callee.Pkg.Path]
				if uninstrumentable && !c.Bool("all") {
					hidden = append(hidden, p.Callee.Pkg.Path)
					continue
				}
				rep.Pairs = append(rep.Pairs, pairReport{
					Caller: p.Caller.Pkg.Path, Callee: p.Callee.Pkg.Path,
					CallSites:        p.Sites,
					CallerComplexity: p.CallerComplexity, CalleeComplexity: p.CalleeComplexity,
					CallerFunctions: p.CallerFuncs, CalleeFunctions: p.CalleeFuncs,
					CoupledBranches: p.CoupledBranches, Trivial: p.Trivial,
					Uninstrumentable: uninstrumentable,
				})
			}
			if len(hidden) > 0 {
				slices.Sort(hidden)
				fmt.Fprintf(c.App.ErrWriter, "cling: note: %d pairs left out: cling's probe runtime imports their callees (%s), so it cannot instrument them (--all lists them)\n", len(hidden), strings.Join(slices.Compact(hidden), ", "))
			}
			if c.Bool("json") {
				return writeJSON(c.App.Writer, rep)
			}
			writePairsText(c.App.Writer, rep)
			return nil
		},
	}
}

// pairsReport is the JSON form of `cling pairs`.
type pairsReport struct {
	Pairs []pairReport `json:"pairs"`
	// Skipped are the packages left out because they do not type-check.
	Skipped []skippedReport `json:"skipped"`
}

// skippedReport is a package a command over many pairs left out.
type skippedReport struct {
	Package string `json:"package"`
	Reason  string `json:"reason"`
}

func skippedReports(prog *ccfg.Program) []skippedReport {
	out := []skippedReport{}
	for _, s := range prog.Skipped {
		out = append(out, skippedReport{Package: s.Path, Reason: skipReason(prog, s)})
	}
	return out
}

// warnSkipped prints a warning for each package left out of a command
// over many pairs because it does not type-check.
func warnSkipped(c *cli.Context, prog *ccfg.Program) {
	for _, s := range prog.Skipped {
		fmt.Fprintf(c.App.ErrWriter, "cling: warning: skipping %s: %s\n", s.Path, skipReason(prog, s))
	}
}

// skipReason says why a package was skipped, without repeating its path,
// and with the files under the patterns' directory named relative to it.
func skipReason(prog *ccfg.Program, s ccfg.SkippedPackage) string {
	reason := strings.TrimPrefix(s.Reason, "package "+s.Path+" ")
	return strings.ReplaceAll(reason, prog.Dir+string(filepath.Separator), "")
}

type pairReport struct {
	Caller           string `json:"caller"`
	Callee           string `json:"callee"`
	CallSites        int    `json:"callSites"`
	CallerComplexity int    `json:"callerComplexity"`
	CalleeComplexity int    `json:"calleeComplexity"`
	CallerFunctions  int    `json:"callerFunctions"`
	CalleeFunctions  int    `json:"calleeFunctions"`
	CoupledBranches  int    `json:"coupledBranches"`
	Trivial          bool   `json:"trivial"`
	// Uninstrumentable marks a standard-library callee that cling's probe
	// runtime imports: cbc, gen and mutate cannot put probes into it.
	// Such pairs are listed only with --all.
	Uninstrumentable bool `json:"uninstrumentable,omitempty"`
}

func writePairsText(w io.Writer, rep pairsReport) {
	if len(rep.Pairs) == 0 {
		fmt.Fprintln(w, "no package pairs (use --all to include pairs without branches)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CALLER\tCALLEE\tSITES\tCC(R)\tCC(E)\tCOUPLED")
	for _, p := range rep.Pairs {
		mark := ""
		if p.Trivial {
			mark = " (trivial)"
		}
		if p.Uninstrumentable {
			mark += " (no probes)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d%s\n", p.Caller, p.Callee, p.CallSites, p.CallerComplexity, p.CalleeComplexity, p.CoupledBranches, mark)
	}
	tw.Flush()
}
