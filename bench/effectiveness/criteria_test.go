package main

import (
	"fmt"
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

// A run whose cling gen did not report the criteria takes them from the
// criteria measure: cling cbc's report, in the order of cling's reports.
func TestCriteriaFromMeasure(t *testing.T) {
	figures, err := criteriaFigures([]byte(`{"coupledBranches": 12, "covered": 5, "criteria": [
		{"criterion": "panic", "covered": 2, "total": 2, "found": true},
		{"criterion": "line", "covered": 7, "total": 9, "goals": [{"id": "r.go:3", "covered": true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"cbc.covered": 5, "cbc.total": 12, "line.covered": 7, "line.total": 9, "panic.covered": 2, "panic.total": 2, "panic.found": 1}
	if fmt.Sprint(figures) != fmt.Sprint(want) {
		t.Errorf("figures %v, want %v", figures, want)
	}
	if _, err := criteriaFigures([]byte("not json")); err == nil {
		t.Error("no error for a report that is not JSON")
	}

	r := record("mosa", 1, 5, "ok")
	if r.coverage() != nil {
		t.Errorf("coverage without a source: %v", r.coverage())
	}
	r.Measures = map[string]*measurement{"criteria": {Figures: figures}}
	got := fmt.Sprint(r.coverage())
	if w := "[{cbc 5 12 false} {line 7 9 false} {panic 2 2 true}]"; got != w {
		t.Errorf("coverage from the measure %s, want %s", got, w)
	}
	r.Criteria = []criterionCov{{Criterion: "line", Covered: 1, Total: 9}}
	if got := fmt.Sprint(r.coverage()); got != "[{line 1 9 false}]" {
		t.Errorf("gen's report is not preferred: %s", got)
	}
}
