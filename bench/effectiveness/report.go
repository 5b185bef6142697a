package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// alpha is the significance level of the verdicts.
const alpha = 0.05

// varSummary holds the statistics of one variant on one pair.
type varSummary struct {
	Name string
	// Covered and File are the coupled branches the search archive and
	// the written file covered, per successful run; Rate the evaluations
	// per second of search; Exec the tests the executor ran per second of
	// search, confirmation runs included (runs that report them); Work
	// the statements of R and E the search's tests executed per second
	// (runs whose stats row counts them); Own the search's own time per
	// evaluation in microseconds, outside the executor's batches (runs
	// that report their batches' time).
	Covered, File, Rate, Exec, Work, Own []float64
	Runs, Failed                         int
	// A12 and MW compare the covered counts with the baseline's: Â12 is
	// the probability that a run of this variant covers more than a run
	// of the baseline.
	A12     float64
	MW      mwResult
	Verdict string
}

// pairSummary holds the statistics of one pair: one varSummary per
// variant, in the order of the benchmark's variants.
type pairSummary struct {
	P        *pair
	Vars     []*varSummary
	Coupled  int
	Baseline string
}

// variant returns the summary of the variant name, or nil.
func (s pairSummary) variant(name string) *varSummary {
	for _, a := range s.Vars {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// runsOf returns the runs of the variant name on the pair.
func (s pairSummary) runsOf(name string) []*runRecord {
	var out []*runRecord
	for _, r := range s.P.Runs {
		if r.Variant == name {
			out = append(out, r)
		}
	}
	return out
}

// summarize gives the statistics of the named variants on p, each
// compared with the baseline.
func summarize(p *pair, names []string, baseline string) pairSummary {
	s := pairSummary{P: p, Coupled: p.Coupled, Baseline: baseline}
	byName := map[string]*varSummary{}
	for _, name := range names {
		a := &varSummary{Name: name}
		byName[name] = a
		s.Vars = append(s.Vars, a)
	}
	for _, r := range p.Runs {
		a := byName[r.Variant]
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
			if r.SearchExecutions > 0 {
				a.Exec = append(a.Exec, float64(r.SearchExecutions)/r.SearchSeconds)
			}
			if r.Statements > 0 {
				a.Work = append(a.Work, float64(r.Statements)/r.SearchSeconds)
			}
			if r.SearchBatchSeconds > 0 && r.Evaluations > 0 {
				a.Own = append(a.Own, 1e6*(r.SearchSeconds-r.SearchBatchSeconds)/float64(r.Evaluations))
			}
		}
	}
	if s.Coupled == 0 && p.Hand != nil {
		s.Coupled = p.Hand.Coupled
	}
	base := byName[baseline]
	for _, a := range s.Vars {
		a.A12, a.MW, a.Verdict = math.NaN(), mwResult{P: math.NaN()}, "—"
		if a == base || base == nil {
			continue
		}
		a.A12, a.MW = a12(a.Covered, base.Covered), mannWhitney(a.Covered, base.Covered)
		a.Verdict = verdict(a.Covered, base.Covered, a.A12, a.MW)
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

// withUnit formats x with a unit ("n/a" without one for NaN).
func withUnit(x float64, prec int, unit string) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return num(x, prec) + " " + unit
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

// effect formats an Â12 value with its magnitude.
func effect(a float64) string {
	if math.IsNaN(a) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f (%s)", a, a12Magnitude(a))
}

// report renders the markdown report of the first done pairs.
func (b *bench) report(done int) string {
	var w strings.Builder
	n := b.opt.seeds
	vs, base := b.opt.variants, b.opt.baseline
	fmt.Fprintf(&w, "## Effectiveness: %s\n\n", title(vs, base))
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
	w.WriteString(variantLines(vs, base, fmt.Sprintf(" --seed S %s --workers %d", strings.Join(b.opt.limit().flags(), " "), b.opt.workers)))
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
		more = fmt.Sprintf(", up to %d where a variant's comparison with %s was not significant", b.opt.maxSeeds, base)
	}
	fmt.Fprintf(&w, "- seeds S = 1..%d%s; the order of the variants rotates with the seed; %d runs in all (%d from the results file `%s`), %s wall time\n",
		n, more, runs, stored, b.opt.store, time.Since(b.started).Round(time.Second))
	if len(b.opt.measures) > 0 {
		var docs []string
		for _, name := range b.opt.measures {
			docs = append(docs, name+": "+measures[name].Doc)
		}
		fmt.Fprintf(&w, "- measured per written file: %s\n", strings.Join(docs, "; "))
	}
	fmt.Fprintf(&w, "- command: `%s`\n\n", shellJoin(append([]string{"bench/effectiveness/run.sh"}, b.opt.args...)))

	sums := make([]pairSummary, done)
	for i, p := range b.pairs[:done] {
		sums[i] = summarize(p, variantNames(vs), base)
	}
	w.WriteString(comparison(sums, vs))

	// Wins over the baseline get the figures that usually explain them.
	var notes []string
	for _, s := range sums {
		bs := s.variant(base)
		for _, a := range s.Vars {
			if a.Verdict != "better" || bs == nil {
				continue
			}
			notes = append(notes, fmt.Sprintf("- %s: %s covers more than %s, Â12 = %.2f; it executed %s tests per second against %s's %s. Explain before recording.",
				s.P.name(), a.Name, base, a.A12, num(mean(a.Rate), 0), base, num(mean(bs.Rate), 0)))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(&w, "\n### Pairs where a variant is ahead of %s\n\n%s\n", base, strings.Join(notes, "\n"))
	}

	var checks []string
	for _, p := range b.pairs[:done] {
		for _, c := range p.Checks {
			checks = append(checks, fmt.Sprintf("- %s: %s", p.name(), c))
		}
	}
	fmt.Fprintf(&w, "\n### Consistency checks\n\n")
	fmt.Fprintf(&w, "The tests of seed 1 of each variant are also run alone under `cling cbc --run '^(<their names>)$'` and compared with what `cling gen` reported for its file; with each generated file added, R's own tests must still cover what they covered alone. Runs taken from the results file are not checked again.\n\n")
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

// variantLines describes the variants, one line each with the cling gen
// command it runs (suffix: the flags every run adds).
func variantLines(vs []variant, base, suffix string) string {
	var w strings.Builder
	for _, v := range vs {
		role := ""
		if v.Name == base {
			role = " (baseline)"
		}
		fmt.Fprintf(&w, "- %s%s: `cling gen --caller R --callee E %s%s`\n", v.Name, role, v.flagString(), suffix)
	}
	return w.String()
}

// title names what a report compares.
func title(vs []variant, base string) string {
	pure := true
	for _, v := range vs {
		pure = pure && v.pure()
	}
	switch names := variantNames(vs); {
	case pure && base == "mosa" && len(names) == 2 && names[0] == "mosa" && names[1] == "random":
		return "MOSA against random search"
	case pure:
		return "search algorithms against " + base
	}
	var others []string
	for _, v := range vs {
		if v.Name != base {
			others = append(others, v.Name)
		}
	}
	if len(others) == 0 {
		return base
	}
	return strings.Join(others, ", ") + " against " + base
}

// randomVariant is the name of the variant that is plain random search
// (--algorithm=random and nothing else), or "".
func randomVariant(vs []variant) string {
	for _, v := range vs {
		if v.flagString() == "--algorithm=random" {
			return v.Name
		}
	}
	return ""
}

// comparison renders the tables that compare the variants: coverage per
// variant, every variant against the baseline, the ordering the study of
// whole-suite generation found (WSA ≥ WS > OneGoal), the coverage of the
// written files, the figures of the measures, the search speed, the
// hand-written tests and their union with the generated ones, and the
// runs in detail.
func comparison(sums []pairSummary, vs []variant) string {
	var w strings.Builder
	names := variantNames(vs)
	base := ""
	if len(sums) > 0 {
		base = sums[0].Baseline
	}
	fmt.Fprintf(&w, "### Coupled-branch coverage\n\n")
	fmt.Fprintf(&w, "Mean CBC of the search archive per variant ± its standard deviation across seeds (percentage points), successful runs in parentheses.\n\n")
	fmt.Fprintf(&w, "| pair | coupled branches | %s |\n|---|---:|%s\n", strings.Join(names, " | "), strings.Repeat("---:|", len(names)))
	overall := make([][]float64, len(names))
	for _, s := range sums {
		var cells []string
		for i, a := range s.Vars {
			c := "n/a"
			if len(a.Covered) > 0 {
				sd := ""
				if len(a.Covered) > 1 {
					sd = " ± " + num(100*stddev(a.Covered)/float64(s.Coupled), 1)
				}
				c = fmt.Sprintf("%s%s (%d)", pct(mean(a.Covered), s.Coupled), sd, len(a.Covered))
				overall[i] = append(overall[i], mean(a.Covered)/float64(s.Coupled))
			}
			cells = append(cells, c)
		}
		fmt.Fprintf(&w, "| %s | %d | %s |\n", s.P.name(), s.Coupled, strings.Join(cells, " | "))
	}
	var cells []string
	for i := range names {
		cells = append(cells, pct(mean(overall[i]), 1))
	}
	fmt.Fprintf(&w, "| **mean over pairs** | | %s |\n", strings.Join(cells, " | "))

	if len(names) > 1 {
		w.WriteString(againstBaseline(sums, names, base))
	}

	if has := func(n string) bool { return contains(names, n) }; has("ws") && (has("wsa") || has("onegoal")) {
		fmt.Fprintf(&w, "\n### The whole-suite ordering: WSA ≥ WS > OneGoal?\n\n")
		fmt.Fprintf(&w, "| pair | WSA vs WS: Â12 | p | result | WS vs OneGoal: Â12 | p | result |\n|---|---:|---:|---|---:|---:|---|\n")
		for _, s := range sums {
			var cells []string
			for _, pair := range [][2]string{{"wsa", "ws"}, {"ws", "onegoal"}} {
				x, y := s.variant(pair[0]), s.variant(pair[1])
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
	fmt.Fprintf(&w, "Mean CBC of the written files (after minimisation and verification: what a user gets), and Â12 and p of the file coverage against %s's.\n\n", base)
	fmt.Fprintf(&w, "| pair | variant | file CBC | Â12 | p |\n|---|---|---:|---:|---:|\n")
	for _, s := range sums {
		bs := s.variant(base)
		for _, a := range s.Vars {
			e, p := "—", "—"
			if a.Name != base && bs != nil {
				e, p = effect(a12(a.File, bs.File)), pValue(mannWhitney(a.File, bs.File))
			}
			fmt.Fprintf(&w, "| %s | %s | %s | %s | %s |\n", s.P.name(), a.Name, pct(mean(a.File), s.Coupled), e, p)
		}
	}

	w.WriteString(measureTables(sums))
	w.WriteString(criteriaTable(sums))

	random := randomVariant(vs)
	fmt.Fprintf(&w, "\n### Search speed\n\n")
	w.WriteString(speedTable(sums, names, random, "Test executions per second of search", func(a *varSummary) []float64 { return a.Rate }))
	if t := speedTable(sums, names, random, "Tests the executor ran per second of search: the evaluations and the runs that confirmed archived tests", func(a *varSummary) []float64 { return a.Exec }); t != "" {
		w.WriteString("\n" + t)
	}
	if t := speedTable(sums, names, random, "Statements of R and E the search's tests executed per second of search", func(a *varSummary) []float64 { return a.Work }); t != "" {
		w.WriteString("\n" + t)
	}
	if t := speedTable(sums, names, random, "The search's own time per evaluation in microseconds, outside the executor's batches (breeding, ranking, objectives, archiving)", func(a *varSummary) []float64 { return a.Own }); t != "" {
		w.WriteString("\n" + t)
	}
	w.WriteString(handTable(sums, names))

	fmt.Fprintf(&w, "\n### Runs in detail\n\n")
	fmt.Fprintf(&w, "Means over the successful runs; covered = search archive ± its standard deviation across seeds (min–max); file = coupled branches the written, verified file covers; evaluations = test executions in the search.\n\n")
	fmt.Fprintf(&w, "| pair | variant | runs ok | covered ± sd (min–max) | file covered | tests | tests dropped | evaluations | generations | wall time |\n")
	fmt.Fprintf(&w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range sums {
		for _, name := range names {
			var cov, file, tests, drops, evals, gens, wall []float64
			total := 0
			for _, r := range s.runsOf(name) {
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
			fmt.Fprintf(&w, "| %s | %s | %d/%d | %s ± %s (%s) | %s | %s | %s | %s | %s | %ss |\n",
				s.P.name(), name, len(cov), total, num(mean(cov), 1), num(stddev(cov), 1), minMax(cov), num(mean(file), 1),
				num(mean(tests), 1), num(mean(drops), 1), num(mean(evals), 0), num(mean(gens), 0), num(mean(wall), 0))
		}
	}
	return w.String()
}

// speedTable renders a rate of every variant on every pair (mean over
// runs), relative to random search's on the same pair when one of the
// variants is random search; nothing when no run has the rate.
func speedTable(sums []pairSummary, names []string, random, what string, rate func(*varSummary) []float64) string {
	measured := false
	for _, s := range sums {
		for _, a := range s.Vars {
			measured = measured || len(rate(a)) > 0
		}
	}
	if !measured {
		return ""
	}
	var w strings.Builder
	if random != "" {
		which := ""
		if random != "random" {
			which = " (" + random + ")"
		}
		fmt.Fprintf(&w, "%s (mean over runs), and in parentheses relative to random search%s on the same pair.\n\n", what, which)
	} else {
		fmt.Fprintf(&w, "%s (mean over runs).\n\n", what)
	}
	fmt.Fprintf(&w, "| pair | %s |\n|---|%s\n", strings.Join(names, " | "), strings.Repeat("---:|", len(names)))
	ratios := make([][]float64, len(names))
	for _, s := range sums {
		rs := s.variant(random)
		var cells []string
		for i, a := range s.Vars {
			c := num(mean(rate(a)), 0)
			if rs != nil && len(rate(rs)) > 0 && len(rate(a)) > 0 {
				r := mean(rate(a)) / mean(rate(rs))
				ratios[i] = append(ratios[i], r)
				c += fmt.Sprintf(" (%.2f×)", r)
			}
			cells = append(cells, c)
		}
		fmt.Fprintf(&w, "| %s | %s |\n", s.P.name(), strings.Join(cells, " | "))
	}
	if random != "" {
		var cells []string
		for i := range names {
			c := num(mean(ratios[i]), 2)
			if len(ratios[i]) > 0 {
				c += "×"
			}
			cells = append(cells, c)
		}
		fmt.Fprintf(&w, "| **mean relative to random** | %s |\n", strings.Join(cells, " | "))
	}
	return w.String()
}

// againstBaseline renders the comparison of every variant's coverage
// with the baseline's, and the tally of the verdicts.
func againstBaseline(sums []pairSummary, names []string, base string) string {
	var w strings.Builder
	fmt.Fprintf(&w, "\n### Against %s\n\n", base)
	fmt.Fprintf(&w, "Â12 is the probability that a run of the variant covers more coupled branches than a run of %s (ties half; 0.5: no difference); p is the two-sided Mann-Whitney U test, exact; **result**: better (worse) than %s when p < %.2f and Â12 > 0.5 (< 0.5), tie otherwise.\n\n", base, base, alpha)
	fmt.Fprintf(&w, "| pair | variant | runs | Â12 | p | result |\n|---|---|---:|---:|---:|---|\n")
	tally := map[string][3]int{}
	for _, s := range sums {
		for _, a := range s.Vars {
			if a.Name == base {
				continue
			}
			fmt.Fprintf(&w, "| %s | %s | %d | %s | %s | %s |\n", s.P.name(), a.Name, len(a.Covered), effect(a.A12), pValue(a.MW), a.Verdict)
			t := tally[a.Name]
			switch a.Verdict {
			case "better":
				t[0]++
			case "tie":
				t[1]++
			case "worse":
				t[2]++
			}
			tally[a.Name] = t
		}
	}
	w.WriteString("\n")
	for _, name := range names {
		if name == base {
			continue
		}
		t := tally[name]
		fmt.Fprintf(&w, "- %s: better than %s on %d pairs, tie on %d, worse on %d (of %d).\n", name, base, t[0], t[1], t[2], len(sums))
	}

	return w.String()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// handTable renders the coverage of the hand-written tests and, for each
// variant whose files were measured with them, the union gain; nothing if
// there is neither.
func handTable(sums []pairSummary, names []string) string {
	var withUnion []string
	for _, name := range names {
		for _, s := range sums {
			if unionOf(s.runsOf(name)) != nil && !contains(withUnion, name) {
				withUnion = append(withUnion, name)
			}
		}
	}
	hand := false
	for _, s := range sums {
		hand = hand || s.P.Hand != nil
	}
	if !hand && len(withUnion) == 0 {
		return ""
	}
	var w strings.Builder
	fmt.Fprintf(&w, "\n### Hand-written tests\n\n")
	fmt.Fprintf(&w, "| pair | coupled branches | hand-written CBC |")
	for _, name := range withUnion {
		fmt.Fprintf(&w, " union gain (%s) |", name)
	}
	fmt.Fprintf(&w, "\n|---|---:|---:|%s\n", strings.Repeat("---:|", len(withUnion)))
	for _, s := range sums {
		handCovered, handCoupled := -1, s.Coupled
		if s.P.Hand != nil {
			handCovered, handCoupled = s.P.Hand.Covered, s.P.Hand.Coupled
		}
		var cells []string
		for _, name := range withUnion {
			u := unionOf(s.runsOf(name))
			if u == nil {
				cells = append(cells, "n/a")
				continue
			}
			cells = append(cells, fmt.Sprintf("+%s → %s", num(mean(u.added), 1), pct(mean(u.covered), s.Coupled)))
			if handCovered < 0 {
				// what the hand-written tests cover, from a union:
				// the union less what it added plus what it lost
				handCovered = u.hand
			}
		}
		hc := "n/a"
		if handCovered >= 0 {
			hc = fmt.Sprintf("%s (%d)", pct(float64(handCovered), handCoupled), handCovered)
		}
		row := append([]string{s.P.name(), fmt.Sprint(s.Coupled), hc}, cells...)
		fmt.Fprintf(&w, "| %s |\n", strings.Join(row, " | "))
	}
	fmt.Fprintf(&w, `
**hand-written CBC** is `+"`cling cbc`"+` of R's own tests (covered count in
parentheses). **union gain** is the number of coupled branches that R's own
tests plus one generated file of the variant cover beyond R's own tests
alone, mean over the variant's files (each file put into R's directory in
turn and `+"`cling cbc`"+` run again), and the CBC of that union (mean).
`)
	return w.String()
}

// unionFigures are the union measurements of a variant's runs on a pair.
type unionFigures struct {
	added, covered []float64
	// hand is what the hand-written tests alone cover.
	hand int
}

// unionOf collects the union figures of runs, or returns nil if none has
// them.
func unionOf(runs []*runRecord) *unionFigures {
	var u *unionFigures
	for _, r := range runs {
		if r.Status != "ok" || r.UnionAdded == nil || r.UnionCovered == nil {
			continue
		}
		if u == nil {
			u = &unionFigures{}
		}
		u.added = append(u.added, float64(*r.UnionAdded))
		u.covered = append(u.covered, float64(*r.UnionCovered))
		lost := 0
		if r.UnionLost != nil {
			lost = *r.UnionLost
		}
		u.hand = *r.UnionCovered - *r.UnionAdded + lost
	}
	return u
}

// measureTables renders a table per measure that the runs hold: per pair
// and variant the mean of every figure over the measured runs, and for
// the compared figures Â12 and p against the baseline.
func measureTables(sums []pairSummary) string {
	var w strings.Builder
	for _, name := range sortedMeasures() {
		m := measures[name]
		if len(m.Figures) == 0 {
			continue // a measure that feeds another table
		}
		present := false
		for _, s := range sums {
			for _, r := range s.P.Runs {
				present = present || r.Measures[name] != nil
			}
		}
		if !present {
			continue
		}
		var compared []figure
		for _, f := range m.Figures {
			if f.Compared {
				compared = append(compared, f)
			}
		}
		base := sums[0].Baseline
		fmt.Fprintf(&w, "\n### Measure %s\n\n", name)
		fmt.Fprintf(&w, "%s: means over the measured runs", m.Doc)
		if len(compared) > 0 {
			fmt.Fprintf(&w, "; Â12 is the probability that the figure of a run of the variant is larger than that of a run of %s (ties half), p the two-sided Mann-Whitney U test", base)
		}
		fmt.Fprintf(&w, ".\n\n| pair | variant | measured |")
		for _, f := range m.Figures {
			fmt.Fprintf(&w, " %s |", f.Label)
		}
		for _, f := range compared {
			fmt.Fprintf(&w, " %s: Â12 | p |", f.Label)
		}
		fmt.Fprintf(&w, "\n|---|---|---:|%s\n", strings.Repeat("---:|", len(m.Figures)+2*len(compared)))
		for _, s := range sums {
			values := func(variant, key string) []float64 {
				var xs []float64
				for _, r := range s.runsOf(variant) {
					if mm := r.Measures[name]; r.Status == "ok" && mm != nil && mm.Error == "" {
						if x, ok := mm.Figures[key]; ok {
							xs = append(xs, x)
						}
					}
				}
				return xs
			}
			for _, a := range s.Vars {
				measured, failed := 0, 0
				for _, r := range s.runsOf(a.Name) {
					if mm := r.Measures[name]; r.Status == "ok" && mm != nil {
						measured++
						if mm.Error != "" {
							failed++
						}
					}
				}
				count := fmt.Sprint(measured - failed)
				if failed > 0 {
					count += fmt.Sprintf(" + %d failed", failed)
				}
				cells := []string{s.P.name(), a.Name, count}
				for _, f := range m.Figures {
					cells = append(cells, f.Format(mean(values(a.Name, f.Key))))
				}
				for _, f := range compared {
					if a.Name == base {
						cells = append(cells, "—", "—")
						continue
					}
					x, y := values(a.Name, f.Key), values(base, f.Key)
					cells = append(cells, effect(a12(x, y)), pValue(mannWhitney(x, y)))
				}
				fmt.Fprintf(&w, "| %s |\n", strings.Join(cells, " | "))
			}
		}
	}
	return w.String()
}

// storedReport renders the comparison tables from the results file alone:
// the runs of the limit opt.limit() by cling opt.clingVersion (by default the
// cling of the file's last run with that budget), grouped by pair, of
// every variant they hold (or those of -algorithms and -variants),
// compared with -baseline (by default mosa if present, else the first
// variant).
func storedReport(out io.Writer, opt *options) error {
	st, err := openStore(opt.store)
	if err != nil {
		return err
	}
	cling := opt.clingVersion
	for _, r := range st.records() {
		if opt.clingVersion == "" && r.Budget == opt.limit().String() {
			cling = r.Cling
		}
	}
	var recs []*runRecord
	for _, r := range st.records() {
		if r.Budget == opt.limit().String() && r.Cling == cling {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s holds no run with budget %s", opt.store, opt.limit())
	}
	vs, err := storedVariants(recs, opt)
	if err != nil {
		return err
	}
	base, err := chooseBaseline(vs, opt.baseline)
	if err != nil {
		return err
	}
	if !opt.variantsSet {
		// the baseline first
		for i, v := range vs {
			if v.Name == base {
				vs = append(append([]variant{v}, vs[:i]...), vs[i+1:]...)
				break
			}
		}
	}
	selected := map[[2]string]bool{}
	for _, v := range vs {
		selected[[2]string{v.Name, v.flagString()}] = true
	}
	var pairs []*pair
	byKey := map[string]*pair{}
	runs := 0
	for _, r := range recs {
		if !selected[[2]string{r.Variant, r.Flags}] {
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
		runs++
	}
	sums := make([]pairSummary, len(pairs))
	for i, p := range pairs {
		sums[i] = summarize(p, variantNames(vs), base)
	}
	fmt.Fprintf(out, "## Effectiveness: %s\n\n", title(vs, base))
	fmt.Fprintf(out, "- from the results file `%s`: %d runs with budget %s on %d pairs; cling %s\n", opt.store, runs, opt.limit(), len(pairs), cling)
	io.WriteString(out, variantLines(vs, base, ""))
	fmt.Fprintf(out, "- command: `%s`\n\n", shellJoin(append([]string{"bench/effectiveness/run.sh"}, opt.args...)))
	_, err = io.WriteString(out, comparison(sums, vs))
	return err
}

// storedVariants returns the variants of the stored runs recs, in the
// order they first appear: all of them, or those -algorithms and
// -variants name (by name, and by flags where a -variants entry has
// them). A name that stands for runs with different flags is an error.
func storedVariants(recs []*runRecord, opt *options) ([]variant, error) {
	var present []variant
	seen := map[[2]string]bool{}
	for _, r := range recs {
		if k := [2]string{r.Variant, r.Flags}; !seen[k] {
			seen[k] = true
			present = append(present, variant{Name: r.Variant, Flags: strings.Fields(r.Flags), Algorithm: r.Algorithm})
		}
	}
	wanted := present
	if opt.variantsSet {
		wanted = opt.variants
	}
	var out []variant
	for _, w := range wanted {
		var match []variant
		for _, v := range present {
			if v.Name == w.Name && (!w.given || v.flagString() == w.flagString()) {
				match = append(match, v)
			}
		}
		switch len(match) {
		case 0:
			return nil, fmt.Errorf("%s holds no run of variant %s with budget %s", opt.store, w.Name, opt.limit())
		case 1:
			out = append(out, match[0])
		default:
			var flags []string
			for _, v := range match {
				flags = append(flags, "'"+v.flagString()+"'")
			}
			sort.Strings(flags)
			return nil, fmt.Errorf("%s holds runs of variant %s with different flags (%s): choose one with -variants %s=FLAGS",
				opt.store, w.Name, strings.Join(flags, ", "), w.Name)
		}
	}
	return out, nil
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
