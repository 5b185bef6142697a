package report

import "github.com/cling-go/cling/mutate"

// JSON is the JSON form of a mutation run.
type JSON struct {
	Caller    string                `json:"caller"`
	Callee    string                `json:"callee"`
	Operators []mutate.Operator     `json:"operators"`
	Tests     int                   `json:"tests"`
	Mutants   []Mutant              `json:"mutants"`
	Counts    map[mutate.Status]int `json:"counts"`
	Score     float64               `json:"score"`
	Compare   *Compare              `json:"compare,omitempty"`
	Timing    *Timing               `json:"timing,omitempty"`
	Naive     *Naive                `json:"naive,omitempty"`
}

// Mutant is one mutant in the JSON report.
type Mutant struct {
	ID          int             `json:"id"`
	Operator    mutate.Operator `json:"operator"`
	Pos         string          `json:"pos"`
	Description string          `json:"description"`
	Status      mutate.Status   `json:"status"`
	KilledBy    []string        `json:"killedBy"`
	// Tests is the number of tests that reach the mutant.
	Tests  int    `json:"tests"`
	Reason string `json:"reason,omitempty"`
}

// Compare is the --compare part of the JSON report.
type Compare struct {
	File           string   `json:"file"`
	Tests          []string `json:"tests"`
	OnlyGenerated  []int    `json:"onlyGenerated"`
	OnlyExisting   []int    `json:"onlyExisting"`
	Both           []int    `json:"both"`
	ScoreExisting  float64  `json:"scoreExisting"`
	ScoreGenerated float64  `json:"scoreGenerated"`
	ScoreCombined  float64  `json:"scoreCombined"`
}

// Timing gives the phases of a run in seconds.
type Timing struct {
	Generate float64 `json:"generate"`
	Build    float64 `json:"build"`
	Baseline float64 `json:"baseline"`
	Evaluate float64 `json:"evaluate"`
	Total    float64 `json:"total"`
}

// Naive is the naive re-evaluation in the JSON report.
type Naive struct {
	Mutants    int               `json:"mutants"`
	Seconds    float64           `json:"seconds"`
	Mismatches []mutate.Mismatch `json:"mismatches"`
}

// NewMutant is the JSON form of one mutant.
func NewMutant(m *mutate.Mutant) Mutant {
	kb := m.KilledBy
	if kb == nil {
		kb = []string{}
	}
	return Mutant{
		ID: m.ID, Operator: m.Operator, Pos: m.Pos(), Description: m.Description,
		Status: m.Status, KilledBy: kb, Tests: len(m.Tests), Reason: m.Reason,
	}
}

// NewJSON builds the JSON report of a run. Timings are left out unless
// withTiming, so that the same input gives the same report.
func NewJSON(res *mutate.Result, withTiming bool) *JSON {
	rep := &JSON{
		Caller: res.Caller, Callee: res.Callee, Operators: res.Operators,
		Tests: len(res.Tests), Mutants: []Mutant{}, Counts: map[mutate.Status]int{}, Score: res.Score(),
	}
	for _, s := range mutate.Statuses() {
		rep.Counts[s] = 0
	}
	for _, m := range res.Mutants {
		rep.Counts[m.Status]++
		rep.Mutants = append(rep.Mutants, NewMutant(m))
	}
	if c := res.Compare; c != nil {
		tests := c.Tests
		if tests == nil {
			tests = []string{}
		}
		rep.Compare = &Compare{File: c.File, Tests: tests, OnlyGenerated: c.OnlyGenerated, OnlyExisting: c.OnlyExisting,
			Both: c.Both, ScoreExisting: c.ScoreExisting, ScoreGenerated: c.ScoreGenerated, ScoreCombined: c.ScoreCombined}
	}
	if withTiming {
		t := res.Timing
		rep.Timing = &Timing{Generate: t.Generate.Seconds(), Build: t.Build.Seconds(), Baseline: t.Baseline.Seconds(),
			Evaluate: t.Evaluate.Seconds(), Total: t.Total.Seconds()}
	}
	if n := res.Naive; n != nil {
		mm := n.Mismatches
		if mm == nil {
			mm = []mutate.Mismatch{}
		}
		rep.Naive = &Naive{Mutants: n.Mutants, Seconds: n.Time.Seconds(), Mismatches: mm}
	}
	return rep
}
