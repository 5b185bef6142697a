package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

func init() {
	registerMeasure(&measure{
		Name: "criteria",
		Doc:  "Coverage of every coverage criterion by the file's tests alone (cling cbc --criteria all), for runs whose cling gen did not report it",
		Run:  measureCriteria,
	})
}

// measureCriteria runs `cling cbc --criteria all --run '^(<its tests>)$'`
// with the written file put back into R's directory, and records, per
// criterion, "NAME.covered" and "NAME.total" ("NAME.found" = 1 for a
// criterion whose goals are found as they appear, such as panic). A run
// whose cling gen reported the criteria already (runRecord.Criteria)
// needs nothing: it records no figures.
func measureCriteria(ctx context.Context, b *bench, p *pair, rec *runRecord, file []byte) (map[string]float64, error) {
	if len(rec.Criteria) > 0 {
		return map[string]float64{}, nil
	}
	out, err := b.clingOnTests(ctx, p, rec, file, 30*time.Minute, "cbc", "--caller", p.Caller, "--callee", p.Callee, "--criteria", "all", "--json")
	if err != nil {
		return nil, err
	}
	return criteriaFigures(out)
}

// criteriaFigures reads the coverage of every criterion from a `cling cbc
// --criteria --json` report: the coupled branches at its top, the other
// criteria in its list.
func criteriaFigures(report []byte) (map[string]float64, error) {
	var rep struct {
		Coupled  int            `json:"coupledBranches"`
		Covered  int            `json:"covered"`
		Criteria []criterionCov `json:"criteria"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		return nil, fmt.Errorf("reading the cling cbc report: %w", err)
	}
	out := map[string]float64{"cbc.covered": float64(rep.Covered), "cbc.total": float64(rep.Coupled)}
	for _, c := range rep.Criteria {
		out[c.Criterion+".covered"] = float64(c.Covered)
		out[c.Criterion+".total"] = float64(c.Total)
		if c.Found {
			out[c.Criterion+".found"] = 1
		}
	}
	return out, nil
}

// criteriaOrder is the order of the criteria in cling's reports.
var criteriaOrder = []string{"cbc", "line", "branch", "direct-branch", "method", "method-no-panic", "output", "panic", "panic+error", "weak-mutation"}

// coverage returns the coverage of every criterion by the run's written
// file: what cling gen reported, or else what the criteria measure
// recorded (nil without either).
func (r *runRecord) coverage() []criterionCov {
	m := r.Measures["criteria"]
	if len(r.Criteria) > 0 || m == nil || m.Error != "" || len(m.Figures) == 0 {
		return r.Criteria
	}
	var names []string
	for k := range m.Figures {
		if name, ok := strings.CutSuffix(k, ".total"); ok {
			names = append(names, name)
		}
	}
	rank := func(name string) int {
		for i, n := range criteriaOrder {
			if n == name {
				return i
			}
		}
		return len(criteriaOrder)
	}
	sort.Slice(names, func(i, j int) bool {
		if a, b := rank(names[i]), rank(names[j]); a != b {
			return a < b
		}
		return names[i] < names[j]
	})
	var out []criterionCov
	for _, n := range names {
		out = append(out, criterionCov{Criterion: n, Covered: int(m.Figures[n+".covered"]), Total: int(m.Figures[n+".total"]), Found: m.Figures[n+".found"] == 1})
	}
	return out
}
