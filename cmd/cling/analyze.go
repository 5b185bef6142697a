package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/cling-go/cling/couple"
	"github.com/urfave/cli/v2"
)

func pairFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "caller", Aliases: []string{"r"}, Usage: "caller package `R` (import path or ./relative path)"},
		&cli.StringFlag{Name: "callee", Aliases: []string{"e"}, Usage: "callee package `E` (import path or ./relative path)"},
	}
}

func analyzeCommand() *cli.Command {
	return &cli.Command{
		Name:      "analyze",
		Usage:     "show the call sites and coupled branches of one caller/callee pair",
		UsageText: "cling analyze --caller R --callee E [--json]",
		Description: `Loads R and E from source and lists every call site in R that may call a
function or method of E, with its caller targets B_R(s) (branches of R after
which the call is unavoidable, or entry:<func> when the call runs whenever an
exported function runs) and its callee targets B_E(s) (both outcomes of every
branch of E reachable from the called functions). The coupled branches are
the products B_R(s) x B_E(s), summed over call sites.`,
		Flags: append(pairFlags(),
			&cli.BoolFlag{Name: "json", Usage: "write the result as JSON to stdout"},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("analyze takes no arguments (got %q); name packages with --caller and --callee", c.Args().First())
			}
			a, err := loadPair(c)
			if err != nil {
				return err
			}
			rep := newAnalyzeReport(a)
			if c.Bool("json") {
				return writeJSON(c.App.Writer, rep)
			}
			writeAnalyzeText(c.App.Writer, rep)
			return nil
		},
	}
}

// loadPair loads exactly the caller and callee packages and analyses them.
func loadPair(c *cli.Context) (*couple.Analysis, error) {
	cfg := globalLoad(c)
	callerPat, calleePat := c.String("caller"), c.String("callee")
	if callerPat == "" {
		return nil, usagef("missing --caller: name the caller package R")
	}
	if calleePat == "" {
		return nil, usagef("missing --callee: name the callee package E")
	}
	if callerPat == calleePat {
		return nil, usagef("caller and callee are the same package (%s)", callerPat)
	}
	return couple.LoadPair(cfg, callerPat, calleePat)
}

// analyzeReport is the JSON form of `cling analyze`.
type analyzeReport struct {
	Caller            string           `json:"caller"`
	Callee            string           `json:"callee"`
	CallSites         []callSiteReport `json:"callSites"`
	CoupledBranches   int              `json:"coupledBranches"`
	CoveringFunctions []string         `json:"coveringFunctions"`
}

type callSiteReport struct {
	Pos           string   `json:"pos"`
	Function      string   `json:"function"`
	Callee        string   `json:"callee"`
	Targets       []string `json:"targets"`
	Kind          string   `json:"kind"`
	CallerTargets []string `json:"callerTargets"`
	CalleeTargets []string `json:"calleeTargets"`
	Pairs         int      `json:"pairs"`
}

func newAnalyzeReport(a *couple.Analysis) *analyzeReport {
	rep := &analyzeReport{
		Caller:            a.Caller.Pkg.Path,
		Callee:            a.Callee.Pkg.Path,
		CallSites:         []callSiteReport{},
		CoupledBranches:   len(a.Goals),
		CoveringFunctions: []string{},
	}
	for _, s := range a.Sites {
		sr := callSiteReport{
			Pos:           a.Prog.Pos(s.Pos),
			Function:      s.Func.Name,
			Callee:        couple.CalleeName(s),
			Targets:       []string{},
			Kind:          [...]string{"call", "go", "defer"}[s.Kind],
			CallerTargets: branchIDs(s.CallerTargets),
			CalleeTargets: branchIDs(s.CalleeTargets),
			Pairs:         len(s.CallerTargets) * len(s.CalleeTargets),
		}
		for _, t := range s.Targets {
			sr.Targets = append(sr.Targets, t.Name)
		}
		rep.CallSites = append(rep.CallSites, sr)
	}
	for _, f := range a.Covering {
		rep.CoveringFunctions = append(rep.CoveringFunctions, f.Name)
	}
	return rep
}

func branchIDs(bs []couple.Branch) []string {
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		out = append(out, b.ID())
	}
	return out
}

func writeAnalyzeText(w io.Writer, rep *analyzeReport) {
	fmt.Fprintf(w, "caller %s\ncallee %s\n", rep.Caller, rep.Callee)
	fmt.Fprintf(w, "%d call sites, %d coupled branches\n", len(rep.CallSites), rep.CoupledBranches)
	fmt.Fprintf(w, "covering functions: %s\n", listOrNone(rep.CoveringFunctions))
	for _, s := range rep.CallSites {
		fmt.Fprintf(w, "\n%s  %s -> %s", s.Pos, s.Function, s.Callee)
		if s.Kind != "call" {
			fmt.Fprintf(w, " (%s)", s.Kind)
		}
		fmt.Fprintf(w, "  %d pairs\n", s.Pairs)
		if len(s.Targets) > 1 || (len(s.Targets) == 1 && s.Targets[0] != s.Callee) {
			fmt.Fprintf(w, "    targets:        %s\n", strings.Join(s.Targets, ", "))
		}
		fmt.Fprintf(w, "    caller targets: %s\n", wrapList(s.CallerTargets))
		fmt.Fprintf(w, "    callee targets: %s\n", wrapList(s.CalleeTargets))
	}
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	return strings.Join(xs, ", ")
}

// wrapList prints a list, a few items per line.
func wrapList(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	const perLine = 3
	var sb strings.Builder
	for i, x := range xs {
		if i > 0 {
			if i%perLine == 0 {
				sb.WriteString("\n                    ")
			} else {
				sb.WriteString("  ")
			}
		}
		sb.WriteString(x)
	}
	return sb.String()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
