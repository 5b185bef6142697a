package main

import (
	"strings"
	"testing"
)

// The criteria table: per variant the mean coverage of each criterion,
// the file CBC with its change against the baseline's, the tests, and the
// pairs where the mutation score is above the baseline's.
func TestCriteriaTable(t *testing.T) {
	p := &pair{Mod: &module{Path: "example.com/m", Short: "m"}, Caller: "example.com/m/r", Callee: "example.com/m/e"}
	for seed, v := range []struct {
		variant      string
		file, line   int
		panics, muts float64
	}{
		{"mosa", 8, 5, 1, 0.5}, {"mosa", 8, 7, 1, 0.5},
		{"mosa+smart", 7, 9, 3, 0.75}, {"mosa+smart", 8, 9, 3, 0.75},
	} {
		r := record(v.variant, int64(seed+1), v.file, "ok")
		r.Tests = 4
		r.Criteria = []criterionCov{{Criterion: "line", Covered: v.line, Total: 10}, {Criterion: "panic", Covered: int(v.panics), Total: int(v.panics), Found: true}}
		r.Measures = map[string]*measurement{"mutate": {Figures: map[string]float64{"score": v.muts}}}
		p.Runs = append(p.Runs, r)
	}
	got := criteriaTable([]pairSummary{summarize(p, []string{"mosa", "mosa+smart"}, "mosa")})
	for _, want := range []string{
		"| pair | variant | runs | line | panic | file CBC (Δ) | tests |",
		"| m: r → e | mosa | 2 | 60.0% | 1.0 | 80.0% | 4.0 |",
		"| m: r → e | mosa+smart | 2 | 90.0% | 3.0 | 75.0% (-5.0) | 4.0 |",
		"- mosa+smart: mean mutation score above mosa's on 1 of 1 pairs.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if got := criteriaTable([]pairSummary{summarize(&pair{Mod: p.Mod}, []string{"mosa"}, "mosa")}); got != "" {
		t.Errorf("a table without criteria:\n%s", got)
	}
}
