// Package gen runs cling's main job for one pair: it instruments the
// caller R and callee E, builds the executor, searches for tests that
// cover the coupled branches, minimises the kept tests, adds regression
// assertions from observed values, verifies that the resulting file
// compiles and passes repeatedly, and only then writes it.
//
// After the search, the tests the archive kept go through passes over one
// job, each of which keeps some tests and drops others: minimise shrinks
// every test to what covers its goals, observe keeps the values two runs
// agree on, name names each test after a coupled branch it covers, and
// verify runs the emitted file under go test and go vet and drops the
// tests that fail. A goal whose test is dropped on the way gets the test
// the archive held for it before, through the same passes (finish). With
// Config.CostRuns, the written suite's run time and allocations are then
// measured in fresh processes (Report.SuiteCost).
package gen

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/suitecost"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// Config configures a generation run.
type Config struct {
	// Algorithm names a registered search algorithm (mosa.Algorithms);
	// "" is mosa.DefaultAlgorithm.
	Algorithm string
	Budget    mosa.Budget
	Seed      int64
	Workers   int
	Timeout   time.Duration
	// Out is the output file; "" means <R dir>/cling_<E name>_test.go.
	Out string
	// Force overwrites an existing file that cling did not write.
	Force bool
	Tags  []string
	// MaxDepth bounds nested values; Test configures test generation.
	MaxDepth int
	Test     testcase.Config
	// Verify is how many times the file is run before it is written.
	Verify int
	// CacheDir holds built executors ("" for the user cache).
	CacheDir string
	// Progress, if set, receives search statistics as the search goes.
	Progress func(mosa.Stats)
	// Search configures the search algorithm (population, repair
	// attempts).
	Search mosa.Config
	// Fitness is the form of the objective of a coupled branch.
	Fitness fitness.Form
	// Debug, if set, receives the whole output of the go commands that
	// verify the generated file (build, test runs, vet); nil discards it.
	Debug io.Writer
	// CostRuns is how many fresh processes run the written suite to
	// measure its run time and allocations (Report.SuiteCost); 0 does not
	// measure.
	CostRuns int
	// Race runs the tests once more under the race detector before the
	// file is written, where the platform supports it, and drops those
	// that fail there: a file that fails go test -race is no use to a CI
	// that runs it. With Faults, a race of R or E is also a fault.
	Race bool
	// Faults looks for faults besides writing tests: the search's
	// executions that end abnormally are classified (package fault), a
	// race the race run (Race) finds is one too, and each fault found gets a
	// reproducer in
	// <R dir>/cling_<E name>_faults_test.go, behind the build tag
	// cling_faults.
	Faults bool
	// FaultsOnly searches for faults alone: the goals of the call sites
	// where a fault was seen stay objectives once covered, and only the
	// file of reproducers is written.
	FaultsOnly bool
	// Criteria are the coverage criteria the search optimises (see
	// package criteria); the coupled branches are always among them, and
	// nil means them alone. Selection says how their goals go to the
	// search.
	Criteria  []*criteria.Criterion
	Selection criteria.Selection
	// Generated are the files the other pairs of a run over several pairs
	// write. Their literals do not seed the search: whether they exist
	// yet, and in which version, depends on which pairs ran before, and a
	// pair's result must not.
	Generated []string
	// OwnTests, if set, is shared by the runs of several pairs: the runs
	// of a caller's own tests alone that one pair's verification made
	// serve the others with the same caller (see suiteCulprits).
	OwnTests *OwnTestRuns
}

// DefaultConfig returns the defaults of `cling gen`.
func DefaultConfig() Config {
	return Config{
		Algorithm: mosa.DefaultAlgorithm,
		Budget:    mosa.Budget{Time: 60 * time.Second},
		Seed:      1,
		Timeout:   time.Second,
		MaxDepth:  4,
		Test:      testcase.DefaultConfig(),
		Verify:    5,
		Search:    mosa.DefaultConfig(),
		Fitness:   fitness.Layered,
		CostRuns:  5,
		Race:      true,
		Faults:    true,
	}
}

// Report is the outcome of a generation run.
type Report struct {
	CoupledBranches int `json:"coupledBranches"`
	Covered         int `json:"covered"`
	// SearchCovered counts the coupled branches the search's archive
	// covered (Stats.Covered counts the goals of every criterion).
	SearchCovered int     `json:"searchCovered"`
	CBC           float64 `json:"cbc"`
	TestFile      string  `json:"testFile"`
	Tests         int     `json:"tests"`
	Executions    int     `json:"executions"`
	// SearchExecutions counts the tests the executor ran during the
	// search: its evaluations and the runs that confirmed a test before
	// the archive took it. Executions counts those of the whole run.
	SearchExecutions int     `json:"searchExecutions"`
	SearchSeconds    float64 `json:"searchSeconds"`
	// SearchBatchSeconds is the wall time the search waited for the
	// executor's batches (harness.Stats.BatchSeconds when it ended):
	// SearchSeconds less it is the search's own time (breeding, ranking,
	// computing objectives), when no test runs.
	SearchBatchSeconds float64 `json:"searchBatchSeconds"`
	// Dropped lists kept tests removed because they did not compile or
	// did not pass every verification run.
	Dropped []string `json:"dropped,omitempty"`
	// DroppedAssertions counts the assertions taken out of the file's
	// tests because the values they compare differed under go test.
	DroppedAssertions int `json:"droppedAssertions"`
	// Skipped lists the functions and methods of R that a test outside R
	// can call but cling cannot build a value for, with the reason.
	Skipped []Skipped `json:"skipped,omitempty"`
	// Unobservable lists constructs the probes cannot see.
	Unobservable []string `json:"unobservable,omitempty"`
	// Assertions is the dialect of the emitted assertions.
	Assertions string     `json:"assertions"`
	Stats      mosa.Stats `json:"stats"`
	// Executor counts what happened to the executions: panics, timeouts,
	// crashes and worker restarts.
	Executor harness.Stats `json:"executor"`
	// Covers lists, per emitted test, the goals it covers (in the
	// search's numbering: the coupled branches first).
	Covers map[string][]int `json:"-"`
	// SuiteCost is what the written suite costs to run.
	SuiteCost SuiteCost `json:"suiteCost"`
	// FaultsFile is the file of reproducers written ("" if none); Faults
	// are its faults (nil when not looking for faults). Misuse,
	// OutsidePair and ExplicitPanics count the distinct misuses of the
	// API, failures of code the tests called directly rather than through
	// R, and explicit panics the search saw, which are no faults;
	// UnconfirmedFaults the fault candidates whose reproducer did not
	// fail the same way twice.
	FaultsFile        string        `json:"faultsFile,omitempty"`
	Faults            []FaultReport `json:"faults"`
	Misuse            int           `json:"misuse"`
	OutsidePair       int           `json:"outsidePair"`
	ExplicitPanics    int           `json:"explicitPanics"`
	UnconfirmedFaults int           `json:"unconfirmedFaults"`
	// Optimised are the criteria the search optimised, and GoalSelection
	// how it got their goals.
	Optimised     []string `json:"optimised"`
	GoalSelection string   `json:"goalSelection"`
	// Criteria is the coverage of every criterion by the written tests,
	// measured under go test whatever was optimised.
	Criteria []criteria.Coverage `json:"criteria"`
	// Error says why no file was written when the search ran but no test
	// passed verification (the command then exits with status 1); the
	// rest of the report still says what the search did.
	Error string `json:"error,omitempty"`
	// Stages is the wall time of each stage of the run.
	Stages Stages `json:"stages"`
}

// Stages is the wall time, in seconds, of each stage of a generation
// run, so that a slow run says where its time went.
type Stages struct {
	// Prepare checks the pair, builds the cluster, instruments the
	// packages and builds the executor.
	Prepare float64 `json:"prepare"`
	// Search is the search itself (Report.SearchSeconds, counted from
	// the executor's first use).
	Search float64 `json:"search"`
	// Finish minimises, observes, names and verifies the kept tests
	// (go test builds and runs of the file).
	Finish float64 `json:"finish"`
	// Faults confirms the fault candidates in fresh processes and
	// verifies their reproducers.
	Faults float64 `json:"faults"`
	// Cost measures the written suite's run time (Config.CostRuns).
	Cost float64 `json:"cost"`
	// Criteria measures every criterion's coverage by the written tests.
	Criteria float64 `json:"criteria"`
}

// SuiteCost is what the written suite costs to run: the totals of its
// tests' performance proxies, as the executions of the search counted
// them, and, when measured (Config.CostRuns), its run time and heap
// allocations under go test.
type SuiteCost struct {
	Proxies mosa.Proxies `json:"proxies"`
	// Measured is the median, over Config.CostRuns fresh processes, of
	// one run of the suite's tests (go test -run of the file).
	Measured *suitecost.Cost `json:"measured,omitempty"`
	// MeasureError says why the measurement failed.
	MeasureError string `json:"measureError,omitempty"`
}

// Skipped is a function or method of R that a test outside R can call,
// but cling cannot: it cannot build a value the call needs.
type Skipped struct {
	// What names it: pkg.F, (*pkg.T).M.
	What string `json:"what"`
	// Reason says which value cannot be built (a parameter, the receiver,
	// a result the call must name), of which type, and why.
	Reason string `json:"reason"`
}

// skippedOf converts the cluster's list.
func skippedOf(skips []testcase.Skip) []Skipped {
	var out []Skipped
	for _, s := range skips {
		out = append(out, Skipped{What: s.What, Reason: s.Reason})
	}
	return out
}

// Error is a problem with the user's input or the generation run that
// deserves a one-line message.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Marker is the line cling puts in the files it writes, so that it only
// ever overwrites its own files.
const Marker = "// Code written by cling; regenerate with cling gen."

// Run generates tests for an analysed pair. It prepares the run (checks
// the pair and the output file, builds the cluster, the instrumented
// session and the executor), searches, minimises, observes, names and
// verifies the kept tests (finish), and writes the file; when looking for
// faults, it then confirms and writes their reproducers (findFaults).
func Run(ctx context.Context, a *couple.Analysis, cfg Config) (*Report, error) {
	j, err := Prepare(ctx, a, cfg)
	if err != nil {
		return nil, err
	}
	defer j.Close()
	if err := j.Search(ctx); err != nil {
		return nil, err
	}
	return j.Finish(ctx)
}

// Job is a generation run taken one stage at a time, for a caller that
// runs several pairs and overlaps the stages of different pairs: Prepare,
// then Search, then Finish, and Close in any case. Run is the three in a
// row; the stages are the same.
type Job struct {
	j       *job
	archive *mosa.Archive
	stats   *mosa.Stats
	stages  Stages
	// searchExecutions and searchBatchSeconds are the executor's count
	// of executions and its batches' wall time when the search ended.
	searchExecutions   int
	searchBatchSeconds float64
}

// Prepare checks the pair and the output file, builds the cluster, the
// instrumented session and the executor. Its errors come before any
// search.
func Prepare(ctx context.Context, a *couple.Analysis, cfg Config) (*Job, error) {
	if cfg.FaultsOnly {
		cfg.Faults = true
	}
	start := time.Now()
	j, err := prepare(ctx, a, cfg)
	if err != nil {
		return nil, err
	}
	return &Job{j: j, stages: Stages{Prepare: since(start)}}, nil
}

// since is the time since start in seconds.
func since(start time.Time) float64 { return time.Since(start).Seconds() }

// Search runs the search within the budget and keeps its archive for
// Finish.
func (g *Job) Search(ctx context.Context) error {
	start := time.Now()
	archive, stats, err := g.j.search(ctx)
	if err != nil {
		return err
	}
	g.archive, g.stats = archive, stats
	xs := g.j.x.Stats()
	g.searchExecutions, g.searchBatchSeconds = xs.Executions, xs.BatchSeconds
	g.stages.Search = since(start)
	return nil
}

// Finish minimises, observes, names and verifies the archived tests and
// writes the file.
func (g *Job) Finish(ctx context.Context) (*Report, error) {
	j, a, archive, cfg := g.j, g.j.a, g.archive, g.j.cfg
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	start := time.Now()
	if !cfg.FaultsOnly {
		if err := j.finish(ctx, archive); err != nil {
			return nil, err
		}
	}
	g.stages.Finish = since(start)
	start = time.Now()
	if j.col != nil {
		if err := j.findFaults(ctx); err != nil {
			return nil, err
		}
	}
	g.stages.Faults = since(start)
	rep := j.report(g.stats)
	rep.Stages, rep.SearchExecutions, rep.SearchBatchSeconds = g.stages, g.searchExecutions, g.searchBatchSeconds
	for _, t := range archive.Tests() {
		for _, goal := range t.Goals {
			if j.set == nil || j.set.CBC(goal) {
				rep.SearchCovered++
			}
		}
	}
	var err error
	start = time.Now()
	if cfg.CostRuns > 0 && len(j.final) > 0 {
		rep.SuiteCost.Measured, err = j.measure(ctx, cfg.CostRuns)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			rep.SuiteCost.MeasureError = err.Error()
		}
	}
	rep.Stages.Cost = since(start)
	if len(j.final) == 0 && !cfg.FaultsOnly {
		rep.TestFile = "" // nothing is written
		if j.set != nil {
			return rep, &Error{Msg: fmt.Sprintf("no test to write: the search covered %d of %d goals, and no kept test passed verification", archive.Len(), j.set.Goals())}
		}
		return rep, &Error{Msg: fmt.Sprintf("no test to write: the search covered %d of %d coupled branches, and no kept test passed verification", archive.Len(), len(a.Goals))}
	}
	if !cfg.FaultsOnly {
		if err := os.WriteFile(j.out, j.src, 0o644); err != nil {
			return nil, &Error{Msg: fmt.Sprintf("writing %s: %v", j.out, err)}
		}
	}
	if j.col != nil {
		if err := j.writeFaults(); err != nil {
			return nil, err
		}
	}
	if !cfg.FaultsOnly {
		// The criteria's coverage is that of the written tests.
		start = time.Now()
		if rep.Criteria, err = j.measureCriteria(ctx); err != nil {
			return nil, err
		}
		rep.Stages.Criteria = since(start)
	}
	return rep, nil
}

// Close stops the executor and removes the instrumented session.
func (g *Job) Close() { g.j.close() }

// report describes the run: the file as it stands, what the search
// found (stats) and what the executor did.
func (j *job) report(stats *mosa.Stats) *Report {
	rep := &Report{
		CoupledBranches: len(j.a.Goals),
		TestFile:        j.out,
		Tests:           len(j.final),
		Executions:      j.x.Stats().Executions,
		Executor:        j.x.Stats(),
		SearchSeconds:   stats.Seconds,
		Dropped:         j.dropped,
		Skipped:         skippedOf(j.cluster.Skipped),
		Unobservable:    j.sess.Unobservable,
		Stats:           *stats,
		Covers:          map[string][]int{},
		GoalSelection:   j.cfg.Selection.String(),
	}
	for _, c := range j.criteria {
		rep.Optimised = append(rep.Optimised, c.Name)
	}
	rep.Assertions = "testify"
	if j.dialect == emit.Std {
		rep.Assertions = "testing"
	}
	// What the file covers: every goal its tests cover, the ones they
	// were kept for and those they cover by the way.
	covered := map[int32]bool{}
	for _, t := range j.final {
		rep.DroppedAssertions += t.assertionsDropped
		for _, g := range t.covers {
			if j.set == nil || j.set.CBC(g) {
				covered[g] = true
			}
			rep.Covers[t.Name] = append(rep.Covers[t.Name], int(g))
		}
		rep.SuiteCost.Proxies = rep.SuiteCost.Proxies.Add(t.proxies)
	}
	rep.Covered = len(covered)
	rep.CBC = float64(rep.Covered) / float64(rep.CoupledBranches)
	if j.cfg.FaultsOnly {
		rep.TestFile = ""
	}
	if j.col != nil {
		rep.Faults = j.faultReports()
		rep.Misuse = j.col.Misuse()
		rep.OutsidePair = j.col.Outside()
		rep.ExplicitPanics = j.col.ExplicitPanics()
		rep.UnconfirmedFaults = j.unconfirmed
		if len(j.found) > 0 {
			rep.FaultsFile = j.faultsOut
		}
	}
	return rep
}
