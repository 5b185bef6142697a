// Package gate is cling's pre-merge gate (`cling ci`): it judges the part of
// the interfaces between packages that a change touched.
//
// It reads the change from git (the lines that differ between the merge
// base of a base revision and HEAD, plus uncommitted work), finds the
// affected pairs among the non-trivial pairs that package couple ranks
// (those whose caller R or callee E has a changed line, or whose R has
// changed tests), and measures each with the existing tests: the coupled
// branch coverage over all coupled branches and over the diff coupled
// branches (those whose call site, caller branch or callee branch lies on a
// changed line), and the interface mutants on changed lines with their
// score (package mutate). Thresholds turn the measures into a verdict;
// optionally package gen writes tests for the affected pairs and the gate
// reports what they add. The report renders as text, JSON, GitHub
// workflow annotations, a Markdown job summary and SARIF.
//
// The gate sits above the pipeline and the mutation branch: it uses them
// and nothing uses it but the command.
package gate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/gen"
	"github.com/cling-go/cling/mutate"
)

// Config configures a run of the gate.
type Config struct {
	// Dir is the directory packages are resolved against and git runs in
	// ("" is the current directory); Tags are build tags.
	Dir  string
	Tags []string
	// Patterns name the packages whose pairs count (as callers); none
	// means ./... .
	Patterns []string
	// Base is the revision the change is measured against: the change is
	// what lies between the merge base of Base and HEAD, and HEAD.
	Base string
	// Worktree adds the uncommitted changes: staged, unstaged, and files
	// git does not track and does not ignore.
	Worktree   bool
	Thresholds Thresholds
	// Operators are the mutation operators (none: the interface ones).
	Operators []mutate.Operator
	// Workers bounds the mutants evaluated and the tests generated in
	// parallel (0: the number of CPUs).
	Workers int
	// Budget bounds the whole run (0: no bound); pairs it leaves no time
	// for are reported as skipped.
	Budget time.Duration
	// Gen, when positive, is the total time the gate gives cling gen to
	// write tests for the affected pairs that miss something in the diff.
	Gen time.Duration
	// GenMaxEvals, when positive, also ends each pair's search after that
	// many evaluations: with GenConfig's seed, a search that its share of
	// Gen does not cut short writes the same file every time.
	GenMaxEvals int
	// GenConfig configures those runs; its Budget is set per pair.
	GenConfig gen.Config
	// Progress, if set, hears what the gate is doing, one line at a time;
	// it is never called by two goroutines at once.
	Progress func(msg string)
}

// Thresholds are the levels the gate requires of every affected pair;
// a zero threshold is not checked.
type Thresholds struct {
	// MinDiffCBC is the coverage of the diff coupled branches.
	MinDiffCBC float64 `json:"minDiffCBC,omitempty"`
	// MinDiffScore is the mutation score of the mutants on changed lines.
	MinDiffScore float64 `json:"minDiffScore,omitempty"`
	// MinCBC is the coverage of all coupled branches of a pair.
	MinCBC float64 `json:"minCBC,omitempty"`
	// MinScore is the mutation score of all mutants of a pair.
	MinScore float64 `json:"minScore,omitempty"`
}

// Error is a problem with the input of the gate (the repository, the base,
// the packages) that deserves a one-line message.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// run is the state of one run of the gate.
type run struct {
	cfg     Config
	repo    *repo
	changes *Changes
	prog    *ccfg.Program
	realMu  sync.Mutex
	real    map[string]string // directory -> the same with links resolved
	progMu  sync.Mutex
	rep     *Report
	// budget is the context of the whole run, with its deadline; parent
	// is the caller's context, whose end means an interruption.
	parent, budget context.Context
}

// Run runs the gate and returns its report. An error means the gate could
// not judge the change; thresholds that are not met are failures in the
// report, not errors.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"./..."}
	}
	if err := cfg.Thresholds.Check(); err != nil {
		return nil, err
	}
	r := &run{cfg: cfg, real: map[string]string{}, parent: ctx, budget: ctx}
	if cfg.Budget > 0 {
		var cancel context.CancelFunc
		r.budget, cancel = context.WithTimeout(ctx, cfg.Budget)
		defer cancel()
	}
	if err := r.readChange(ctx); err != nil {
		return nil, err
	}
	if !r.goChanged() {
		r.finish(nil)
		return r.rep, nil
	}
	pairs, err := r.affectedPairs()
	if err != nil {
		return nil, err
	}
	if err := r.measureAll(pairs); err != nil {
		return nil, err
	}
	if cfg.Gen > 0 {
		if err := r.generate(pairs); err != nil {
			return nil, err
		}
	}
	r.finish(pairs)
	return r.rep, nil
}

// Check reports a threshold outside [0, 1].
func (t Thresholds) Check() error {
	for _, th := range []struct {
		name string
		v    float64
	}{{"min-diff-cbc", t.MinDiffCBC}, {"min-diff-score", t.MinDiffScore}, {"min-cbc", t.MinCBC}, {"min-score", t.MinScore}} {
		if th.v < 0 || th.v > 1 {
			return &Error{Msg: fmt.Sprintf("--%s must be between 0 and 1 (got %g)", th.name, th.v)}
		}
	}
	return nil
}

// readChange finds the repository, the base and the merge base, and reads
// the changed lines.
func (r *run) readChange(ctx context.Context) error {
	repo, err := openRepo(ctx, r.cfg.Dir)
	if err != nil {
		return err
	}
	r.repo = repo
	if r.cfg.Base == "" {
		return &Error{Msg: "no base revision: name one with --base"}
	}
	name, base, err := repo.resolveBase(ctx, r.cfg.Base)
	if err != nil {
		return err
	}
	head, err := repo.head(ctx)
	if err != nil {
		return err
	}
	mb, err := repo.mergeBase(ctx, name, base, head)
	if err != nil {
		return err
	}
	if r.changes, err = repo.changes(ctx, mb, r.cfg.Worktree); err != nil {
		return err
	}
	r.rep = &Report{Base: name, MergeBase: mb, Head: head, Worktree: r.cfg.Worktree,
		Changed: []ChangedFile{}, Pairs: []*PairReport{}, Thresholds: r.cfg.Thresholds}
	for _, f := range r.changes.Sorted() {
		r.rep.Changed = append(r.rep.Changed, ChangedFile{File: f.Path, Lines: f.SortedLines(), Deleted: f.Deleted})
	}
	return nil
}

// goChanged reports whether the change touches a Go file: without one,
// no pair is affected and nothing needs loading.
func (r *run) goChanged() bool {
	for _, f := range r.changes.Files {
		if strings.HasSuffix(f.Path, ".go") {
			return true
		}
	}
	return false
}

// realDir returns dir with symbolic links resolved, as the paths of the
// change are.
func (r *run) realDir(dir string) string {
	r.realMu.Lock()
	defer r.realMu.Unlock()
	if d, ok := r.real[dir]; ok {
		return d
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		d = dir
	}
	r.real[dir] = d
	return d
}

// realPath returns a file's path with its directory's links resolved.
func (r *run) realPath(file string) string {
	return filepath.Join(r.realDir(filepath.Dir(file)), filepath.Base(file))
}

// repoRel names an absolute file relative to the repository root, with
// slashes, as annotations and SARIF want it.
func (r *run) repoRel(file string) string {
	rel, err := filepath.Rel(r.changes.Root, r.realPath(file))
	if err != nil || strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(rel)
}

// progress tells the caller what the gate does.
func (r *run) progress(format string, args ...any) {
	if r.cfg.Progress != nil {
		r.progMu.Lock()
		defer r.progMu.Unlock()
		r.cfg.Progress(fmt.Sprintf(format, args...))
	}
}

// overBudget reports whether err ended a step because the run's budget
// ran out (and not because the caller interrupted it).
func (r *run) overBudget(err error) bool {
	return r.parent.Err() == nil && r.budget.Err() != nil &&
		(errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || err == nil)
}

// load loads the packages and ranks their pairs as cling pairs does.
func (r *run) load() ([]couple.Pair, error) {
	prog, pairs, err := couple.LoadAllPairs(ccfg.LoadConfig{Dir: r.cfg.Dir, Tags: r.cfg.Tags, Patterns: r.cfg.Patterns})
	if err != nil {
		return nil, err
	}
	r.prog = prog
	return pairs, nil
}
