package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// alpha is the significance level of the verdicts.
const alpha = 0.05

// algSummary holds the statistics of one algorithm on one pair.
type algSummary struct {
	Alg string
	// Covered and File are the coupled branches the search archive and
	// the written file covered, per successful run; Rate the evaluations
	// per second of search.
	Covered, File, Rate []float64
	Runs, Failed        int
	// A12 and MW compare the covered counts with MOSA's: Â12 is the
	// probability that a run of this algorithm covers more than a MOSA
	// run.
	A12     float64
	MW      mwResult
	Verdict string
}

// pairSummary holds the statistics of one pair: one algSummary per
// algorithm, in the order of the benchmark's algorithms.
type pairSummary struct {
	P            *pair
	Algs         []*algSummary
	UnionAdded   []float64
	UnionCovered []float64
	Coupled      int
}

// alg returns the summary of algorithm name, or nil.
func (s pairSummary) alg(name string) *algSummary {
	for _, a := range s.Algs {
		if a.Alg == name {
			return a
		}
	}
	return nil
}

func summarize(p *pair, algs []string) pairSummary {
	s := pairSummary{P: p, Coupled: p.Coupled}
	byAlg := map[string]*algSummary{}
	for _, name := range algs {
		a := &algSummary{Alg: name}
		byAlg[name] = a
		s.Algs = append(s.Algs, a)
	}
	for _, r := range p.Runs {
		a := byAlg[r.Algorithm]
		if a == nil {
			continue
		}
		a.Runs++
		if r.Status != "ok" {
			a.Failed++
			continue
		}
		if r.Coupled > 0 {
			s.Coupled = r.Coupled
		}
		a.Covered = append(a.Covered, float64(r.Covered))
		a.File = append(a.File, float64(r.FileCovered))
		if r.SearchSeconds > 0 {
			a.Rate = append(a.Rate, float64(r.Evaluations)/r.SearchSeconds)
		}
		if r.Algorithm == "mosa" && r.UnionAdded != nil {
			s.UnionAdded = append(s.UnionAdded, float64(*r.UnionAdded))
			s.UnionCovered = append(s.UnionCovered, float64(*r.UnionCovered))
		}
	}
	if s.Coupled == 0 && p.Hand != nil {
		s.Coupled = p.Hand.Coupled
	}
	mosa := byAlg["mosa"]
	for _, a := range s.Algs {
		a.A12, a.MW, a.Verdict = math.NaN(), mwResult{P: math.NaN()}, "—"
		if a == mosa || mosa == nil {
			continue
		}
		a.A12, a.MW = a12(a.Covered, mosa.Covered), mannWhitney(a.Covered, mosa.Covered)
		a.Verdict = verdict(a.Covered, mosa.Covered, a.A12, a.MW)
	}
	return s
}

// verdict compares the covered counts of x with those of y: better (x
// ahead) or worse when p < alpha, tie otherwise.
func verdict(x, y []float64, a float64, mw mwResult) string {
	switch {
	case len(x) == 0 || len(y) == 0:
		return "no result"
	case mw.P < alpha && a > 0.5:
		return "better"
	case mw.P < alpha && a < 0.5:
		return "worse"
	}
	return "tie"
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
	algs := b.opt.algorithms
	fmt.Fprintf(&w, "## Effectiveness: %s\n\n", title(algs))
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
	runs, stored := 0, 0
	for _, p := range b.pairs[:done] {
		for _, r := range p.Runs {
			runs++
			if r.stored {
				stored++
			}
		}
	}
	more := ""
	if b.opt.maxSeeds > n {
		more = fmt.Sprintf(", up to %d where an algorithm's comparison with MOSA was not significant", b.opt.maxSeeds)
	}
	fmt.Fprintf(&w, "- per pair and algorithm: `cling gen --caller R --callee E --algorithm %s --seed S --budget %s --workers %d` for S = 1..%d%s; the order of the algorithms rotates with the seed; %d runs in all (%d from the results file `%s`), %s wall time\n",
		strings.Join(algs, "|"), b.opt.budget, b.opt.workers, n, more, runs, stored, b.opt.store, time.Since(b.started).Round(time.Second))
	fmt.Fprintf(&w, "- command: `%s`\n\n", shellJoin(append([]string{"bench/effectiveness/run.sh"}, b.opt.args...)))

	sums := make([]pairSummary, done)
	for i, p := range b.pairs[:done] {
		sums[i] = summarize(p, algs)
	}
	w.WriteString(comparison(sums, algs))

	fmt.Fprintf(&w, "\n### Hand-written tests\n\n")
	fmt.Fprintf(&w, "| pair | coupled branches | hand-written CBC | union gain (MOSA) |\n|---|---:|---:|---:|\n")
	for _, s := range sums {
		hand := "n/a"
		if s.P.Hand != nil {
			hand = fmt.Sprintf("%s (%d)", pct(float64(s.P.Hand.Covered), s.P.Hand.Coupled), s.P.Hand.Covered)
		}
		union := "n/a"
		if len(s.UnionAdded) > 0 {
			union = fmt.Sprintf("+%s → %s", num(mean(s.UnionAdded), 1), pct(mean(s.UnionCovered), s.Coupled))
		}
		fmt.Fprintf(&w, "| %s | %d | %s | %s |\n", s.P.name(), s.Coupled, hand, union)
	}
	fmt.Fprintf(&w, `
**hand-written CBC** is `+"`cling cbc`"+` of R's own tests (covered count in
parentheses). **union gain** is the number of coupled branches that R's own
tests plus one generated MOSA file cover beyond R's own tests alone, mean over
the MOSA files of this benchmark (each file put into R's directory in turn and
`+"`cling cbc`"+` run again), and the CBC of that union (mean).
`)

	// Details.
	fmt.Fprintf(&w, "\n### Runs in detail\n\n")
	fmt.Fprintf(&w, "Means over the successful runs; covered = search archive (min–max); file = coupled branches the written, verified file covers; evaluations = test executions in the search.\n\n")
	fmt.Fprintf(&w, "| pair | algorithm | runs ok | covered (min–max) | file covered | tests | tests dropped | evaluations | generations | wall time |\n")
	fmt.Fprintf(&w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range sums {
		for _, alg := range algs {
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

	// Losses get the figures that usually explain them.
	var notes []string
	for _, s := range sums {
		mosa := s.alg("mosa")
		for _, a := range s.Algs {
			if a.Verdict != "better" || mosa == nil {
				continue
			}
			notes = append(notes, fmt.Sprintf("- %s: %s covers more than MOSA, Â12 = %.2f; it executed %s tests per second against MOSA's %s. Explain before recording.",
				s.P.name(), a.Alg, a.A12, num(mean(a.Rate), 0), num(mean(mosa.Rate), 0)))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(&w, "\n### Pairs where an algorithm is ahead of MOSA\n\n%s\n", strings.Join(notes, "\n"))
	}

	var checks []string
	for _, p := range b.pairs[:done] {
		for _, c := range p.Checks {
			checks = append(checks, fmt.Sprintf("- %s: %s", p.name(), c))
		}
	}
	fmt.Fprintf(&w, "\n### Consistency checks\n\n")
	fmt.Fprintf(&w, "The tests of seed 1 of each algorithm are also run alone under `cling cbc --run '^(<their names>)$'` and compared with what `cling gen` reported for its file; with each generated MOSA file added, R's own tests must still cover what they covered alone. Runs taken from the results file are not checked again.\n\n")
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
	fmt.Fprintf(&w, "\nRaw data: `runs.jsonl` (one line per run, with the `--stats` row), `runs.csv`, the generated files under `tests/`, every command in `commands.log`, all pairs considered in `selection.md` (in `%s`); every run is also in the results file `%s`.\n", b.relOut(), b.opt.store)
	return w.String()
}

// title names what a report compares.
func title(algs []string) string {
	if len(algs) == 2 && algs[0] == "mosa" && algs[1] == "random" {
		return "MOSA against random search"
	}
	return "search algorithms against MOSA"
}

// comparison renders the tables that compare the algorithms: coverage
// per algorithm, every algorithm against MOSA, the ordering the study of
// whole-suite generation found (WSA ≥ WS > OneGoal), the coverage of the
// written files, and the search speed.
func comparison(sums []pairSummary, algs []string) string {
	var w strings.Builder
	fmt.Fprintf(&w, "### Coupled-branch coverage\n\n")
	fmt.Fprintf(&w, "Mean CBC of the search archive per algorithm (successful runs in parentheses).\n\n")
	fmt.Fprintf(&w, "| pair | coupled branches | %s |\n|---|---:|%s\n", strings.Join(algs, " | "), strings.Repeat("---:|", len(algs)))
	overall := make([][]float64, len(algs))
	for _, s := range sums {
		var cells []string
		for i, a := range s.Algs {
			c := "n/a"
			if len(a.Covered) > 0 {
				c = fmt.Sprintf("%s (%d)", pct(mean(a.Covered), s.Coupled), len(a.Covered))
				overall[i] = append(overall[i], mean(a.Covered)/float64(s.Coupled))
			}
			cells = append(cells, c)
		}
		fmt.Fprintf(&w, "| %s | %d | %s |\n", s.P.name(), s.Coupled, strings.Join(cells, " | "))
	}
	var cells []string
	for i := range algs {
		cells = append(cells, pct(mean(overall[i]), 1))
	}
	fmt.Fprintf(&w, "| **mean over pairs** | | %s |\n", strings.Join(cells, " | "))

	fmt.Fprintf(&w, "\n### Against MOSA\n\n")
	fmt.Fprintf(&w, "Â12 is the probability that a run of the algorithm covers more coupled branches than a MOSA run (ties half; 0.5: no difference); p is the two-sided Mann-Whitney U test, exact; **result**: better (worse) than MOSA when p < %.2f and Â12 > 0.5 (< 0.5), tie otherwise.\n\n", alpha)
	fmt.Fprintf(&w, "| pair | algorithm | runs | Â12 | p | result |\n|---|---|---:|---:|---:|---|\n")
	tally := map[string][3]int{}
	for _, s := range sums {
		for _, a := range s.Algs {
			if a.Alg == "mosa" {
				continue
			}
			fmt.Fprintf(&w, "| %s | %s | %d | %s | %s | %s |\n", s.P.name(), a.Alg, len(a.Covered), effect(a.A12), pValue(a.MW), a.Verdict)
			t := tally[a.Alg]
			switch a.Verdict {
			case "better":
				t[0]++
			case "tie":
				t[1]++
			case "worse":
				t[2]++
			}
			tally[a.Alg] = t
		}
	}
	w.WriteString("\n")
	for _, alg := range algs {
		if alg == "mosa" {
			continue
		}
		t := tally[alg]
		fmt.Fprintf(&w, "- %s: better than MOSA on %d pairs, tie on %d, worse on %d (of %d).\n", alg, t[0], t[1], t[2], len(sums))
	}

	if slices.Contains(algs, "ws") && (slices.Contains(algs, "wsa") || slices.Contains(algs, "onegoal")) {
		fmt.Fprintf(&w, "\n### The whole-suite ordering: WSA ≥ WS > OneGoal?\n\n")
		fmt.Fprintf(&w, "| pair | WSA vs WS: Â12 | p | result | WS vs OneGoal: Â12 | p | result |\n|---|---:|---:|---|---:|---:|---|\n")
		for _, s := range sums {
			var cells []string
			for _, vs := range [][2]string{{"wsa", "ws"}, {"ws", "onegoal"}} {
				x, y := s.alg(vs[0]), s.alg(vs[1])
				if x == nil || y == nil {
					cells = append(cells, "n/a", "n/a", "n/a")
					continue
				}
				a, mw := a12(x.Covered, y.Covered), mannWhitney(x.Covered, y.Covered)
				cells = append(cells, effect(a), pValue(mw), verdict(x.Covered, y.Covered, a, mw))
			}
			fmt.Fprintf(&w, "| %s | %s |\n", s.P.name(), strings.Join(cells, " | "))
		}
	}

	fmt.Fprintf(&w, "\n### The written files\n\n")
	fmt.Fprintf(&w, "Mean CBC of the written files (after minimisation and verification: what a user gets), and Â12 and p of the file coverage against MOSA's.\n\n")
	fmt.Fprintf(&w, "| pair | algorithm | file CBC | Â12 | p |\n|---|---|---:|---:|---:|\n")
	for _, s := range sums {
		mosa := s.alg("mosa")
		for _, a := range s.Algs {
			e, p := "—", "—"
			if a.Alg != "mosa" && mosa != nil {
				e, p = effect(a12(a.File, mosa.File)), pValue(mannWhitney(a.File, mosa.File))
			}
			fmt.Fprintf(&w, "| %s | %s | %s | %s | %s |\n", s.P.name(), a.Alg, pct(mean(a.File), s.Coupled), e, p)
		}
	}

	fmt.Fprintf(&w, "\n### Search speed\n\n")
	fmt.Fprintf(&w, "Test executions per second of search (mean over runs), and in parentheses relative to random search on the same pair.\n\n")
	fmt.Fprintf(&w, "| pair | %s |\n|---|%s\n", strings.Join(algs, " | "), strings.Repeat("---:|", len(algs)))
	ratios := make([][]float64, len(algs))
	for _, s := range sums {
		random := s.alg("random")
		var cells []string
		for i, a := range s.Algs {
			c := num(mean(a.Rate), 0)
			if random != nil && len(random.Rate) > 0 && len(a.Rate) > 0 {
				r := mean(a.Rate) / mean(random.Rate)
				ratios[i] = append(ratios[i], r)
				c += fmt.Sprintf(" (%.2f×)", r)
			}
			cells = append(cells, c)
		}
		fmt.Fprintf(&w, "| %s | %s |\n", s.P.name(), strings.Join(cells, " | "))
	}
	cells = cells[:0]
	for i := range algs {
		cells = append(cells, num(mean(ratios[i]), 2)+"×")
	}
	fmt.Fprintf(&w, "| **mean relative to random** | %s |\n", strings.Join(cells, " | "))
	return w.String()
}

// effect formats an Â12 value with its magnitude.
func effect(a float64) string {
	if math.IsNaN(a) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f (%s)", a, a12Magnitude(a))
}

// storedReport renders the comparison tables from the results file alone:
// the runs of budget opt.budget by cling opt.clingVersion (by default the
// cling of the file's last run with that budget), grouped by pair.
func storedReport(out io.Writer, opt *options) error {
	st, err := openStore(opt.store)
	if err != nil {
		return err
	}
	cling := opt.clingVersion
	for _, r := range st.records() {
		if opt.clingVersion == "" && r.Budget == opt.budget.String() {
			cling = r.Cling
		}
	}
	var pairs []*pair
	byKey := map[string]*pair{}
	present := map[string]bool{}
	for _, r := range st.records() {
		if r.Budget != opt.budget.String() || r.Cling != cling {
			continue
		}
		k := r.Module + " " + r.Caller + " " + r.Callee
		p := byKey[k]
		if p == nil {
			path, version, _ := strings.Cut(r.Module, "@")
			m := &module{Path: path, Version: version, Short: path[strings.LastIndex(path, "/")+1:]}
			p = &pair{Mod: m, Caller: r.Caller, Callee: r.Callee}
			byKey[k] = p
			pairs = append(pairs, p)
		}
		p.Runs = append(p.Runs, r)
		present[r.Algorithm] = true
	}
	if len(pairs) == 0 {
		return fmt.Errorf("%s holds no run with budget %s", opt.store, opt.budget)
	}
	algs := opt.algorithms
	if !opt.algorithmsSet {
		algs = []string{"mosa"}
		for _, a := range []string{"dynamosa", "wsa", "ws", "onegoal", "random"} {
			if present[a] {
				algs = append(algs, a)
			}
		}
	}
	runs := 0
	sums := make([]pairSummary, len(pairs))
	for i, p := range pairs {
		sums[i] = summarize(p, algs)
		runs += len(p.Runs)
	}
	fmt.Fprintf(out, "## Effectiveness: %s\n\n", title(algs))
	fmt.Fprintf(out, "- from the results file `%s`: %d runs of `cling gen --algorithm %s --budget %s` on %d pairs; cling %s\n",
		opt.store, runs, strings.Join(algs, "|"), opt.budget, len(pairs), cling)
	fmt.Fprintf(out, "- command: `%s`\n\n", shellJoin(append([]string{"bench/effectiveness/run.sh"}, opt.args...)))
	_, err = io.WriteString(out, comparison(sums, algs))
	return err
}

func (b *bench) relOut() string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, b.out); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return b.out
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
