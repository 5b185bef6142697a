package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// alpha is the significance level of the verdicts.
const alpha = 0.05

// pairSummary holds the statistics of one pair.
type pairSummary struct {
	P            *pair
	Mosa, Random []float64 // covered coupled branches per successful run
	A12          float64
	MW           mwResult
	Verdict      string
	UnionAdded   []float64
	UnionCovered []float64
	FailedMosa   int
	FailedRandom int
	Coupled      int
}

func summarize(p *pair) pairSummary {
	s := pairSummary{P: p, Coupled: p.Coupled}
	for _, r := range p.Runs {
		if r.Status != "ok" {
			if r.Algorithm == "mosa" {
				s.FailedMosa++
			} else {
				s.FailedRandom++
			}
			continue
		}
		if r.Coupled > 0 {
			s.Coupled = r.Coupled
		}
		if r.Algorithm == "mosa" {
			s.Mosa = append(s.Mosa, float64(r.Covered))
			if r.UnionAdded != nil {
				s.UnionAdded = append(s.UnionAdded, float64(*r.UnionAdded))
				s.UnionCovered = append(s.UnionCovered, float64(*r.UnionCovered))
			}
		} else {
			s.Random = append(s.Random, float64(r.Covered))
		}
	}
	if s.Coupled == 0 && p.Hand != nil {
		s.Coupled = p.Hand.Coupled
	}
	s.A12 = a12(s.Mosa, s.Random)
	s.MW = mannWhitney(s.Mosa, s.Random)
	switch {
	case len(s.Mosa) == 0 || len(s.Random) == 0:
		s.Verdict = "no result"
	case s.MW.P < alpha && s.A12 > 0.5:
		s.Verdict = "MOSA wins"
	case s.MW.P < alpha && s.A12 < 0.5:
		s.Verdict = "**random wins**"
	default:
		s.Verdict = "tie"
	}
	return s
}

func pct(covered float64, total int) string {
	if total == 0 || math.IsNaN(covered) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*covered/float64(total))
}

func num(x float64, prec int) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.*f", prec, x)
}

func minMax(xs []float64) string {
	if len(xs) == 0 {
		return "n/a"
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return fmt.Sprintf("%g–%g", lo, hi)
}

func pValue(r mwResult) string {
	if math.IsNaN(r.P) {
		return "n/a"
	}
	s := fmt.Sprintf("%.4f", r.P)
	if r.P < 0.0001 {
		s = fmt.Sprintf("%.1e", r.P)
	}
	if !r.Exact {
		s += " (normal)"
	}
	return s
}

// report renders the markdown report of the first done pairs.
func (b *bench) report(done int) string {
	var w strings.Builder
	n := b.opt.seeds
	fmt.Fprintf(&w, "## Effectiveness: MOSA against random search\n\n")
	if done < len(b.pairs) {
		fmt.Fprintf(&w, "**Partial report: %d of %d pairs measured.**\n\n", done, len(b.pairs))
	}
	version := b.opt.clingVersion
	if version == "" {
		version = "unknown version"
	}
	fmt.Fprintf(&w, "- run %s: %s; %s; %s; cling %s\n", b.stamp, b.started.UTC().Format("2006-01-02 15:04 UTC"), machine(), b.goVer, version)
	var mods []string
	for _, m := range b.mods {
		mods = append(mods, m.Path+"@"+m.Version)
	}
	fmt.Fprintf(&w, "- modules: %s (fetched from the module proxy, measured in copies)\n", strings.Join(mods, ", "))
	fmt.Fprintf(&w, "- per pair and algorithm: `cling gen --caller R --callee E --algorithm mosa|random --seed S --budget %s --workers %d` for S = 1..%d; the algorithms alternate (MOSA first on odd seeds, random first on even ones); %d runs in all, %s wall time\n",
		b.opt.budget, b.opt.workers, n, len(b.pairs)*n*2, time.Since(b.started).Round(time.Second))
	fmt.Fprintf(&w, "- command: `%s`\n\n", shellJoin(append([]string{"bench/effectiveness/run.sh"}, b.opt.args...)))

	sums := make([]pairSummary, done)
	for i, p := range b.pairs[:done] {
		sums[i] = summarize(p)
	}
	fmt.Fprintf(&w, "| pair | coupled branches | hand-written CBC | MOSA mean | MOSA median | random mean | random median | Â12 | p | result | union gain (MOSA) |\n")
	fmt.Fprintf(&w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n")
	wins, ties, losses := 0, 0, 0
	for _, s := range sums {
		hand := "n/a"
		if s.P.Hand != nil {
			hand = fmt.Sprintf("%s (%d)", pct(float64(s.P.Hand.Covered), s.P.Hand.Coupled), s.P.Hand.Covered)
		}
		union := "n/a"
		if len(s.UnionAdded) > 0 {
			union = fmt.Sprintf("+%s → %s", num(mean(s.UnionAdded), 1), pct(mean(s.UnionCovered), s.Coupled))
		}
		a := "n/a"
		if !math.IsNaN(s.A12) {
			a = fmt.Sprintf("%.2f (%s)", s.A12, a12Magnitude(s.A12))
		}
		fmt.Fprintf(&w, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			s.P.name(), s.Coupled, hand,
			pct(mean(s.Mosa), s.Coupled), pct(median(s.Mosa), s.Coupled),
			pct(mean(s.Random), s.Coupled), pct(median(s.Random), s.Coupled),
			a, pValue(s.MW), s.Verdict, union)
		switch s.Verdict {
		case "MOSA wins":
			wins++
		case "tie":
			ties++
		case "**random wins**":
			losses++
		}
	}
	fmt.Fprintf(&w, "\nMOSA wins on %d pairs, ties on %d, loses on %d (of %d).\n", wins, ties, losses, len(sums))
	fmt.Fprintf(&w, `
How to read it:

- **CBC** is the share of the pair's coupled branches covered by the search
  archive of a run (the `+"`covered`"+` of `+"`--stats`"+`). The means and
  medians are over the runs that succeeded (%d seeds per algorithm unless
  the details below say otherwise).
- **Â12** (Vargha-Delaney) is the probability that a MOSA run covers more
  coupled branches than a random run, ties counted half: 0.5 is no
  difference, 1 means MOSA always ahead. The label is Vargha and Delaney's
  (negligible < 0.56, small, medium ≥ 0.64, large ≥ 0.71, symmetric below 0.5).
- **p** is the two-sided Mann-Whitney U test of the covered counts, exact:
  the permutation distribution of the mid-rank sum over all C(2n, n)
  splits, so ties are handled exactly (for n = 5 the smallest possible p is
  2/252 ≈ 0.0079). **result**: MOSA wins (loses) when p < %.2f and Â12 > 0.5
  (< 0.5); tie otherwise.
- **hand-written CBC** is `+"`cling cbc`"+` of R's own tests (covered count in
  parentheses). **union gain** is the number of coupled branches that R's
  own tests plus one generated MOSA file cover beyond R's own tests alone,
  mean over the %d MOSA files (each file put into R's directory in turn and
  `+"`cling cbc`"+` run again), and the CBC of that union (mean).
`, n, alpha, n)

	// Details.
	fmt.Fprintf(&w, "\n### Runs in detail\n\n")
	fmt.Fprintf(&w, "Means over the successful runs; covered = search archive (min–max); file = coupled branches the written, verified file covers; evaluations = test executions in the search.\n\n")
	fmt.Fprintf(&w, "| pair | algorithm | runs ok | covered (min–max) | file covered | tests | tests dropped | evaluations | generations | wall time |\n")
	fmt.Fprintf(&w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range sums {
		for _, alg := range []string{"mosa", "random"} {
			var cov, file, tests, drops, evals, gens, wall []float64
			total := 0
			for _, r := range s.P.Runs {
				if r.Algorithm != alg {
					continue
				}
				total++
				if r.Status != "ok" {
					continue
				}
				cov = append(cov, float64(r.Covered))
				file = append(file, float64(r.FileCovered))
				tests = append(tests, float64(r.Tests))
				drops = append(drops, float64(len(r.Dropped)))
				evals = append(evals, float64(r.Evaluations))
				gens = append(gens, float64(r.Generations))
				wall = append(wall, r.WallSeconds)
			}
			fmt.Fprintf(&w, "| %s | %s | %d/%d | %s (%s) | %s | %s | %s | %s | %s | %ss |\n",
				s.P.name(), alg, len(cov), total, num(mean(cov), 1), minMax(cov), num(mean(file), 1),
				num(mean(tests), 1), num(mean(drops), 1), num(mean(evals), 0), num(mean(gens), 0), num(mean(wall), 0))
		}
	}
	fmt.Fprintf(&w, "\nThe same comparison on the coverage of the written files (what a user gets, after minimisation and verification):\n\n")
	fmt.Fprintf(&w, "| pair | MOSA mean | random mean | Â12 | p |\n|---|---:|---:|---:|---:|\n")
	for _, s := range sums {
		var fm, fr []float64
		for _, r := range s.P.Runs {
			if r.Status != "ok" {
				continue
			}
			if r.Algorithm == "mosa" {
				fm = append(fm, float64(r.FileCovered))
			} else {
				fr = append(fr, float64(r.FileCovered))
			}
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s |\n", s.P.name(), pct(mean(fm), s.Coupled), pct(mean(fr), s.Coupled),
			num(a12(fm, fr), 2), pValue(mannWhitney(fm, fr)))
	}

	// Losses and near-losses get the figures that usually explain them.
	var notes []string
	for _, s := range sums {
		if math.IsNaN(s.A12) || s.A12 >= 0.5 {
			continue
		}
		em, er := b.evalMean(s.P, "mosa"), b.evalMean(s.P, "random")
		notes = append(notes, fmt.Sprintf("- %s: %s, Â12 = %.2f. Random search executed %.2f× as many tests as MOSA (%.0f against %.0f per run). Explain before recording.",
			s.P.name(), strings.Trim(s.Verdict, "*"), s.A12, er/em, er, em))
	}
	if len(notes) > 0 {
		fmt.Fprintf(&w, "\n### Pairs where random search is ahead\n\n%s\n", strings.Join(notes, "\n"))
	}

	var checks []string
	for _, p := range b.pairs[:done] {
		for _, c := range p.Checks {
			checks = append(checks, fmt.Sprintf("- %s: %s", p.name(), c))
		}
	}
	fmt.Fprintf(&w, "\n### Consistency checks\n\n")
	fmt.Fprintf(&w, "The tests of seed 1 of each algorithm are also run alone under `cling cbc --run '^(<their names>)$'` and compared with what `cling gen` reported for its file; with each generated file added, R's own tests must still cover what they covered alone.\n\n")
	if len(checks) == 0 {
		fmt.Fprintf(&w, "All agree.\n")
	} else {
		fmt.Fprintf(&w, "%s\n", strings.Join(checks, "\n"))
	}
	fmt.Fprintf(&w, "\n### Problems\n\n")
	if len(b.problems) == 0 {
		fmt.Fprintf(&w, "None: every cling command succeeded, and the module copies were unchanged after every run.\n")
	} else {
		for _, pr := range b.problems {
			fmt.Fprintf(&w, "- %s\n", pr)
		}
	}
	w.WriteString("\n" + b.selectionMarkdown())
	fmt.Fprintf(&w, "\nRaw data: `runs.jsonl` (one line per run, with the `--stats` row), `runs.csv`, the generated files under `tests/`, every command in `commands.log`, all pairs considered in `selection.md` (in `%s`).\n", b.relOut())
	return w.String()
}

func (b *bench) relOut() string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, b.out); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return b.out
}

func (b *bench) evalMean(p *pair, alg string) float64 {
	var xs []float64
	for _, r := range p.Runs {
		if r.Algorithm == alg && r.Status == "ok" {
			xs = append(xs, float64(r.Evaluations))
		}
	}
	return mean(xs)
}

// reasonCategory groups ineligibility reasons for the summary.
func reasonCategory(reason string) string {
	for _, k := range []string{"trivial", "not in module", "third-party", "test-support", "fewer than", "more than", "no tests"} {
		if strings.Contains(reason, k) {
			switch k {
			case "fewer than", "more than":
				return "coupled branches " + k + " the limit"
			case "not in module":
				return "callee in another module"
			}
			return k
		}
	}
	return reason
}

// selectionMarkdown summarises the pair selection.
func (b *bench) selectionMarkdown() string {
	var w strings.Builder
	fmt.Fprintf(&w, "### Pair selection\n\n")
	if len(b.opt.pairs) > 0 {
		fmt.Fprintf(&w, "The pairs were given with `-pairs`; no selection rule was applied.\n\n")
		for _, p := range b.pairs {
			fmt.Fprintf(&w, "- %s (%d coupled branches)\n", p.name(), p.Coupled)
		}
		return w.String()
	}
	fmt.Fprintf(&w, "From `cling pairs --json ./...` of each module: non-trivial pairs with R and E in the module, neither a copied third-party library nor a test-support package, %d to %d coupled branches, and R with tests of its own; ranked by coupled branches, %d per module, preferring pairs that share neither R nor E with a chosen one; each probed with a %s MOSA `cling gen` (seed %d) that must cover at least %.0f%% of the coupled branches, and with `cling cbc` of R's tests (rule in bench/effectiveness/select.go).\n\n",
		b.opt.rules.MinCoupled, b.opt.rules.MaxCoupled, b.opt.rules.PerModule, b.opt.probeBudget, probeSeed, 100*b.opt.probeMin)
	for _, m := range b.mods {
		fmt.Fprintf(&w, "**%s** (%d pairs):\n\n", m.Short, len(m.pairs))
		counts := map[string]int{}
		for _, c := range m.selection {
			name := fmt.Sprintf("%s → %s (%d coupled branches)", relPath(c.Caller, m.Path), relPath(c.Callee, m.Path), c.CoupledBranches)
			switch c.Status {
			case "chosen":
				fmt.Fprintf(&w, "- chosen: %s — %s\n", name, c.Reason)
			case "probe failed":
				fmt.Fprintf(&w, "- **probe failed**: %s — %s\n", name, c.Reason)
			case "not needed":
				fmt.Fprintf(&w, "- eligible, not used: %s — %s\n", name, c.Reason)
			default:
				counts[reasonCategory(c.Reason)]++
			}
		}
		var keys []string
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s: %d", k, counts[k]))
		}
		if len(parts) > 0 {
			fmt.Fprintf(&w, "- ineligible: %s\n", strings.Join(parts, "; "))
		}
		w.WriteString("\n")
	}
	return w.String()
}

// writeSelection writes every pair considered, with its status and reason.
func (b *bench) writeSelection() error {
	var w strings.Builder
	fmt.Fprintf(&w, "# Pair selection, run %s\n\n", b.stamp)
	if len(b.opt.pairs) > 0 {
		fmt.Fprintf(&w, "Pairs given with -pairs.\n")
	}
	for _, m := range b.mods {
		if len(m.selection) == 0 {
			continue
		}
		fmt.Fprintf(&w, "## %s@%s\n\n| caller | callee | coupled | R test files | status | reason |\n|---|---|---:|---:|---|---|\n", m.Path, m.Version)
		for _, c := range m.selection {
			fmt.Fprintf(&w, "| %s | %s | %d | %d | %s | %s |\n", relPath(c.Caller, m.Path), relPath(c.Callee, m.Path),
				c.CoupledBranches, c.CallerTests, c.Status, strings.ReplaceAll(c.Reason, "|", `\|`))
		}
		w.WriteString("\n")
	}
	return os.WriteFile(filepath.Join(b.out, "selection.md"), []byte(w.String()), 0o644)
}
