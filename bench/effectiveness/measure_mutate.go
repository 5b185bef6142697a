package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

func init() {
	registerMeasure(&measure{
		Name: "mutate",
		Doc:  "Mutation score of the file's tests alone (cling mutate, interface operators)",
		Figures: []figure{
			{Key: "score", Label: "mutation score", Format: func(x float64) string { return pct(x, 1) }, Compared: true},
			{Key: "killed", Label: "killed", Format: func(x float64) string { return num(x, 1) }},
			{Key: "mutants", Label: "mutants", Format: func(x float64) string { return num(x, 1) }},
			{Key: "notCovered", Label: "not covered", Format: func(x float64) string { return num(x, 1) }},
		},
		Run: measureMutate,
	})
}

// measureMutate runs interface mutation analysis with the tests of the
// written file alone: the file is put back into R's directory and `cling
// mutate --operators interface --tests R --run '^(<its tests>)$'` runs
// only its tests (R's own tests, and E's, are left out), so the score is
// that of the generated suite.
func measureMutate(ctx context.Context, b *bench, p *pair, rec *runRecord, file []byte) (map[string]float64, error) {
	out, err := b.clingOnTests(ctx, p, rec, file, 2*time.Hour, "mutate", "--caller", p.Caller, "--callee", p.Callee,
		"--operators", "interface", "--tests", p.Caller, "--workers", strconv.Itoa(b.opt.workers), "--json")
	if err != nil {
		return nil, err
	}
	return mutateFigures(out)
}

// mutateFigures reads the figures of a `cling mutate --json` report.
func mutateFigures(report []byte) (map[string]float64, error) {
	var rep struct {
		Mutants []json.RawMessage `json:"mutants"`
		Counts  map[string]int    `json:"counts"`
		Score   float64           `json:"score"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		return nil, fmt.Errorf("reading the cling mutate report: %w", err)
	}
	return map[string]float64{
		"score":      rep.Score,
		"mutants":    float64(len(rep.Mutants)),
		"killed":     float64(rep.Counts["killed"]),
		"survived":   float64(rep.Counts["survived"]),
		"timeout":    float64(rep.Counts["timeout"]),
		"notCovered": float64(rep.Counts["not-covered"]),
		"notViable":  float64(rep.Counts["not-viable"]),
	}, nil
}
