package shard

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cling-go/cling/internal/suitecost"
)

// The commands whose results a run over several pairs writes.
const (
	CommandGen    = "gen"
	CommandCBC    = "cbc"
	CommandMutate = "mutate"
)

// Results is what one run of gen, cbc or mutate over several pairs found:
// one share of a plan, or a whole selection. It is the file --json-out
// writes and Merge reads.
type Results struct {
	// Command is gen, cbc or mutate.
	Command string `json:"command"`
	// Plan is the id of the plan the run took its share of, with the
	// share's number and the plan's number of shards; "" and 0 for a run
	// outside a plan.
	Plan   string `json:"plan,omitempty"`
	Shard  int    `json:"shard,omitempty"`
	Shards int    `json:"shards,omitempty"`
	// Module is the main module's path.
	Module string `json:"module"`
	// Pairs are the pairs of the run, in the order the run took them.
	Pairs []PairResult `json:"pairs"`
	// Seconds is the wall time of the whole run.
	Seconds float64 `json:"seconds"`
}

// PairOutcome names a pair and holds what the commands found for it:
// the figures of each command that ran on it are set.
type PairOutcome struct {
	// Pair is "R:E".
	Pair            string        `json:"pair"`
	Caller          string        `json:"caller"`
	Callee          string        `json:"callee"`
	CoupledBranches int           `json:"coupledBranches"`
	Gen             *GenResult    `json:"gen,omitempty"`
	CBC             *CBCResult    `json:"cbc,omitempty"`
	Mutate          *MutateResult `json:"mutate,omitempty"`
}

// PairResult is what a run found for one pair. The figures of the
// command that ran are set; Error says why the pair has none, or fewer
// than it should.
type PairResult struct {
	PairOutcome
	Error string `json:"error,omitempty"`
	// Seconds is the wall time spent on the pair; the stages of
	// different pairs overlap, so these do not add up to the run's.
	Seconds float64 `json:"seconds"`
}

// GenResult is what cling gen did for a pair.
type GenResult struct {
	// Seed is the pair's seed, derived from the run's seed and the
	// pair's import paths.
	Seed int64 `json:"seed"`
	// BudgetSeconds is the pair's search time (0 without one), MaxEvals
	// its evaluation budget (0 without one).
	BudgetSeconds float64 `json:"budgetSeconds,omitempty"`
	MaxEvals      int     `json:"maxEvals,omitempty"`
	// CoveredBefore are the coupled branches R's existing tests cover,
	// the files of the run left out; BeforeError says why they could not
	// be measured (they count as 0), and FailingTests lists existing
	// tests that fail.
	CoveredBefore int      `json:"coveredBefore"`
	BeforeError   string   `json:"beforeError,omitempty"`
	FailingTests  []string `json:"failingTests,omitempty"`
	// Covered are the coupled branches the written file covers;
	// CoveredAfter those the existing tests or the file cover.
	Covered      int `json:"covered"`
	CoveredAfter int `json:"coveredAfter"`
	// Tests is the number of tests in the file, File its path relative to
	// the module root ("" when nothing was written).
	Tests int    `json:"tests"`
	File  string `json:"file,omitempty"`
	// Dropped are tests that did not pass every verification run.
	Dropped []string `json:"dropped,omitempty"`
	// Evaluations are the search's test executions.
	Evaluations   int     `json:"evaluations"`
	SearchSeconds float64 `json:"searchSeconds"`
	// Stages are the wall times of the pair's stages; those of different
	// pairs overlap.
	Stages GenStages `json:"stages"`
	// SuiteCost is the written file's run time and allocations under go
	// test, when measured (cling gen --json with --cost-runs);
	// SuiteCostError says why the measurement failed.
	SuiteCost      *suitecost.Cost `json:"suiteCost,omitempty"`
	SuiteCostError string          `json:"suiteCostError,omitempty"`
}

// GenStages are the wall times, in seconds, of the stages of cling gen
// for a pair: measuring the existing tests, preparing (instrumenting,
// building the executor), searching, and finishing (minimising,
// verifying, writing).
type GenStages struct {
	Before  float64 `json:"before"`
	Prepare float64 `json:"prepare"`
	Search  float64 `json:"search"`
	Finish  float64 `json:"finish"`
}

// CBCResult is what cling cbc measured for a pair: the coverage of its
// existing tests.
type CBCResult struct {
	Covered int      `json:"covered"`
	Tests   int      `json:"tests"`
	Failed  []string `json:"failed,omitempty"`
}

// MutateResult is what cling mutate found for a pair: how many mutants
// ended in each status, and the score.
type MutateResult struct {
	Mutants    int     `json:"mutants"`
	Killed     int     `json:"killed"`
	Survived   int     `json:"survived"`
	NotCovered int     `json:"notCovered"`
	Timeout    int     `json:"timeout"`
	NotViable  int     `json:"notViable"`
	Score      float64 `json:"score"`
}

// Detected are the mutants the tests detect: killed or timed out.
func (m *MutateResult) Detected() int { return m.Killed + m.Timeout }

// Viable are the mutants that count for the score.
func (m *MutateResult) Viable() int { return m.Mutants - m.NotViable }

// WriteResults writes results as indented JSON to path, creating its
// directory.
func WriteResults(path string, r *Results) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("writing the results: %w", err)
		}
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing the results: %w", err)
	}
	return nil
}

// ReadResults reads a results file; a file that is not one is an Error.
func ReadResults(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("reading results: %v", err)}
	}
	var r Results
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("%s is not a results file of cling --json-out: %v", path, err)}
	}
	switch r.Command {
	case CommandGen, CommandCBC, CommandMutate:
	default:
		return nil, &Error{Msg: fmt.Sprintf("%s is not a results file of cling --json-out (command %q)", path, r.Command)}
	}
	return &r, nil
}
