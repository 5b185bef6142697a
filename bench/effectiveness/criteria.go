package main

import (
	"fmt"
	"math"
	"strings"
)

// criterionCov is one criterion's coverage by a written file, as cling gen
// --json reports it (whatever the run optimised).
type criterionCov struct {
	Criterion string `json:"criterion"`
	Covered   int    `json:"covered"`
	Total     int    `json:"total"`
	// Found marks a criterion whose goals are found, not known in advance
	// (panics): Covered is the number found.
	Found bool `json:"found,omitempty"`
}

// criteriaTable renders, when runs hold them, the coverage criteria of
// the written files: per pair and variant the mean coverage of each
// criterion, the file CBC with its change against the baseline's in
// percentage points, and the number of tests. With the mutate measure, it
// tallies the pairs where a variant's mean mutation score is above the
// baseline's.
func criteriaTable(sums []pairSummary) string {
	var names []string
	seen := map[string]bool{}
	for _, s := range sums {
		for _, r := range s.P.Runs {
			for _, c := range r.coverage() {
				if !seen[c.Criterion] {
					seen[c.Criterion] = true
					names = append(names, c.Criterion)
				}
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	base := sums[0].Baseline
	var w strings.Builder
	fmt.Fprintf(&w, "\n### Coverage criteria of the written files\n\n")
	fmt.Fprintf(&w, "Mean over the successful runs of what the written file covers of each criterion (`cling gen` measures every criterion on its file, whatever it optimised; panic: the number found), the file CBC with its change against %s's in percentage points, and the number of tests.\n\n", base)
	fmt.Fprintf(&w, "| pair | variant | runs | %s | file CBC (Δ) | tests |\n|---|---|---:|%s---:|---:|\n",
		strings.Join(names, " | "), strings.Repeat("---:|", len(names)))
	above := map[string]int{}
	scored := false
	for _, s := range sums {
		bs := s.variant(base)
		for _, a := range s.Vars {
			cov := map[string][]float64{}
			found := map[string]bool{}
			var tests []float64
			for _, r := range s.runsOf(a.Name) {
				if r.Status != "ok" {
					continue
				}
				tests = append(tests, float64(r.Tests))
				for _, c := range r.coverage() {
					found[c.Criterion] = c.Found
					switch {
					case c.Found:
						cov[c.Criterion] = append(cov[c.Criterion], float64(c.Covered))
					case c.Total > 0:
						cov[c.Criterion] = append(cov[c.Criterion], float64(c.Covered)/float64(c.Total))
					}
				}
			}
			cells := []string{s.P.name(), a.Name, fmt.Sprint(len(tests))}
			for _, n := range names {
				switch {
				case len(cov[n]) == 0:
					cells = append(cells, "n/a")
				case found[n]:
					cells = append(cells, num(mean(cov[n]), 1))
				default:
					cells = append(cells, pct(mean(cov[n]), 1))
				}
			}
			file := "n/a"
			if len(a.File) > 0 {
				file = pct(mean(a.File), s.Coupled)
				if d := fileCBCChange(s, a, bs); a != bs && !math.IsNaN(d) {
					file += fmt.Sprintf(" (%+.1f)", d)
				}
			}
			cells = append(cells, file, num(mean(tests), 1))
			fmt.Fprintf(&w, "| %s |\n", strings.Join(cells, " | "))
			if x, y := mutationScores(s, a.Name), mutationScores(s, base); a != bs && len(x) > 0 && len(y) > 0 {
				scored = true
				if mean(x) > mean(y) {
					above[a.Name]++
				}
			}
		}
	}
	if scored {
		w.WriteString("\n")
		for _, a := range sums[0].Vars {
			if a.Name != base {
				fmt.Fprintf(&w, "- %s: mean mutation score above %s's on %d of %d pairs.\n", a.Name, base, above[a.Name], len(sums))
			}
		}
	}
	return w.String()
}

// fileCBCChange is the change, in percentage points, of a variant's mean
// file CBC against the baseline's on a pair (NaN without both).
func fileCBCChange(s pairSummary, a, base *varSummary) float64 {
	if base == nil || len(a.File) == 0 || len(base.File) == 0 || s.Coupled == 0 {
		return math.NaN()
	}
	return 100 * (mean(a.File) - mean(base.File)) / float64(s.Coupled)
}

// mutationScores are the mutation scores the mutate measure recorded for
// a variant's successful runs on a pair.
func mutationScores(s pairSummary, variant string) []float64 {
	var xs []float64
	for _, r := range s.runsOf(variant) {
		if m := r.Measures["mutate"]; r.Status == "ok" && m != nil && m.Error == "" {
			if x, ok := m.Figures["score"]; ok {
				xs = append(xs, x)
			}
		}
	}
	return xs
}
