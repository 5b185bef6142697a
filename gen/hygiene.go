package gen

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/internal/gotest"
)

// The checks of this file keep a written file from harming the package it
// joins, in two ways the file's own runs do not show: a test that leaves
// files in the package directory (go test runs tests there, so they
// would land in the user's tree), and a test whose package-level state
// (a registry it adds to, a default it sets) breaks a test of the
// package's own files that passes without it.

// fileLitterers returns the tests that leave files behind in the package
// directory, given dir, the copy of it the file's tests ran in, and
// before, its snapshot from before they ran: none when the copy is as it
// was. Otherwise each test runs alone, once, in a fresh copy of its own,
// and those after which the copy differs are returned.
func (j *job) fileLitterers(ctx context.Context, bin, dir string, before map[string]string, tests []namedTest) ([]string, error) {
	after, err := fstree.Snapshot(dir)
	if err != nil {
		return nil, err
	}
	if len(fstree.Diff(before, after)) == 0 {
		return nil, nil
	}
	var litterers []string
	for _, t := range tests {
		changed, err := j.leavesFiles(ctx, bin, filepath.Dir(dir), t.Name)
		if err != nil {
			return nil, err
		}
		if changed != "" {
			litterers = append(litterers, t.Name)
			if j.cfg.Debug != nil {
				fmt.Fprintf(j.cfg.Debug, "cling: %s leaves %s in the package directory\n", t.Name, changed)
			}
		}
	}
	return litterers, nil
}

// leavesFiles runs the named test once in a fresh copy of the package
// directory under work and returns the first path it added, removed or
// changed there ("" for none).
func (j *job) leavesFiles(ctx context.Context, bin, work, name string) (string, error) {
	dir, err := os.MkdirTemp(work, "litter.")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if err := fstree.CopyPackage(j.a.Caller.Pkg.Dir, dir); err != nil {
		return "", err
	}
	before, err := fstree.Snapshot(dir)
	if err != nil {
		return "", err
	}
	if _, err := j.runProcesses(ctx, bin, dir, []string{name}, 1); err != nil {
		return "", err
	}
	after, err := fstree.Snapshot(dir)
	if err != nil {
		return "", err
	}
	if diff := fstree.Diff(before, after); len(diff) > 0 {
		return diff[0], nil
	}
	return "", nil
}

// suiteCulprits returns the tests of the file that break tests of the
// package's own test files: the own tests run alone, then together with
// the file's, once each in one process; those that passed alone and fail
// with the file are the victims, and of the file's tests that change
// package-level state (all of them when none is known to), those a victim
// fails beside, where it passes alone, are the culprits. The check runs
// only when the package has tests of its own.
func (j *job) suiteCulprits(ctx context.Context, bin, dir string, tests []namedTest) ([]string, error) {
	own := j.ownTests()
	if len(own) == 0 {
		return nil, nil
	}
	run := func(ctx context.Context, names []string, n int) (map[string]*testRuns, error) {
		return j.runProcesses(ctx, bin, dir, names, n)
	}
	if j.ownPassing == nil {
		// What the own tests do alone does not depend on the file (it
		// declares no init): one run serves every verification, and, in
		// a run over several pairs, every pair of the caller.
		alone, err := j.cfg.OwnTests.runAlone(j.a.Caller.Pkg.Dir, own, func(names []string) (map[string]*testRuns, error) {
			return j.runProcessesWith(ctx, bin, dir, names, 1, processOptions{budget: ownAloneBudget})
		})
		if err != nil {
			return nil, err
		}
		j.ownPassing = quickestPassing(own, alone, ownCheckBudget)
		if j.cfg.Debug != nil && len(j.ownPassing) < len(own) {
			fmt.Fprintf(j.cfg.Debug, "cling: %d of the package's %d own tests run beside the file (the others failed, or were not reached in %v, or are the slowest past %v)\n", len(j.ownPassing), len(own), ownAloneBudget, ownCheckBudget)
		}
	}
	if len(j.ownPassing) == 0 {
		return nil, nil
	}
	mine := namesOf(tests)
	together, err := run(ctx, append(slices.Clone(j.ownPassing), mine...), 1)
	if err != nil {
		return nil, err
	}
	var victims []string
	for _, name := range j.ownPassing {
		if t := together[name]; t != nil && t.fails > 0 {
			victims = append(victims, name)
		}
	}
	if len(victims) == 0 {
		return nil, nil
	}
	// A victim that fails alone as well fails for itself. (Once: a
	// package's own tests need not pass twice in one process, as
	// go test runs them once.)
	solo, err := run(ctx, victims, 1)
	if err != nil {
		return nil, err
	}
	victims = slices.DeleteFunc(victims, func(v string) bool { r := solo[v]; return r == nil || r.fails > 0 || r.passes == 0 })
	culprits, err := bisectCulprits(ctx, run, victims, mine, 1)
	if err == nil && len(culprits) > 0 && j.cfg.Debug != nil {
		fmt.Fprintf(j.cfg.Debug, "cling: %s of the package's own tests fail beside %s\n", strings.Join(victims, ", "), strings.Join(culprits, ", "))
	}
	return culprits, err
}

// The own tests of a package may take minutes (tests that sleep, that
// wait for timeouts, benchmarks in disguise); the check bounds what it
// spends on them.
const (
	// ownAloneBudget bounds the one run of the own tests alone that tells
	// which of them pass without the file; those it does not reach are
	// not run beside it.
	ownAloneBudget = time.Minute
	// ownCheckBudget bounds the run time, alone, of the own tests run
	// beside the file (see quickestPassing).
	ownCheckBudget = 15 * time.Second
)

// OwnTestRuns remembers how the own tests of caller packages ran alone,
// for the pairs of a run over several pairs: a later pair of a caller
// runs alone only the tests the earlier ones did not (the files they
// wrote). Its methods may be called from several goroutines; the zero
// value is ready, and nil remembers nothing.
type OwnTestRuns struct {
	mu      sync.Mutex
	callers map[string]*callerTestRuns // by the caller's directory
}

// callerTestRuns are the runs alone of one caller's own tests, by name;
// mu is held while they run, so that pairs of other callers go on.
type callerTestRuns struct {
	mu   sync.Mutex
	runs map[string]*testRuns
}

// runAlone returns how the named own tests of the caller in dir ran
// alone: those not run before are run by run, whose results are kept.
func (o *OwnTestRuns) runAlone(dir string, names []string, run func(names []string) (map[string]*testRuns, error)) (map[string]*testRuns, error) {
	if o == nil {
		return run(names)
	}
	o.mu.Lock()
	c := o.callers[dir]
	if c == nil {
		c = &callerTestRuns{runs: map[string]*testRuns{}}
		if o.callers == nil {
			o.callers = map[string]*callerTestRuns{}
		}
		o.callers[dir] = c
	}
	o.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	var missing []string
	for _, name := range names {
		if c.runs[name] == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		fresh, err := run(missing)
		if err != nil {
			return nil, err
		}
		maps.Copy(c.runs, fresh)
	}
	out := map[string]*testRuns{}
	for _, name := range names {
		out[name] = c.runs[name]
	}
	return out, nil
}

// quickestPassing returns the tests of names whose runs all passed,
// taking the quickest first while their run times sum to no more than
// budget, in the order of names.
func quickestPassing(names []string, runs map[string]*testRuns, budget time.Duration) []string {
	var passing []string
	for _, name := range names {
		if r := runs[name]; r != nil && r.fails == 0 && r.passes > 0 {
			passing = append(passing, name)
		}
	}
	quick := slices.Clone(passing)
	slices.SortStableFunc(quick, func(a, b string) int { return cmp.Compare(runs[a].elapsed, runs[b].elapsed) })
	take := map[string]bool{}
	var sum time.Duration
	for _, name := range quick {
		if sum += runs[name].elapsed; sum > budget {
			break
		}
		take[name] = true
	}
	kept := []string{}
	for _, name := range passing {
		if take[name] {
			kept = append(kept, name)
		}
	}
	return kept
}

// bisectCulprits returns the tests of candidates beside which a victim
// fails (the victims and the tests run together, n times in one process,
// in file order), searched by halving (see bisect).
func bisectCulprits(ctx context.Context, run runNamed, victims, candidates []string, n int) ([]string, error) {
	if len(victims) == 0 {
		return nil, nil
	}
	return bisect(candidates, func(set []string) (bool, error) {
		runs, err := run(ctx, append(slices.Clone(victims), set...), n)
		if err != nil {
			return false, err
		}
		return anyFailed(runs, victims), nil
	})
}

// bisect returns the tests of set to blame for what harms finds in a run
// of some of them: none if it finds nothing in the whole set; else the
// halves are searched in turn, and a half in which it finds nothing alone
// is cleared. When neither half shows it on its own (it takes tests of
// both), the whole set is returned.
func bisect(set []string, harms func(set []string) (bool, error)) ([]string, error) {
	if len(set) == 0 {
		return nil, nil
	}
	if bad, err := harms(set); err != nil || !bad {
		return nil, err
	}
	if len(set) == 1 {
		return slices.Clone(set), nil
	}
	half := len(set) / 2
	left, err := bisect(set[:half], harms)
	if err != nil {
		return nil, err
	}
	right, err := bisect(set[half:], harms)
	if err != nil {
		return nil, err
	}
	if len(left)+len(right) == 0 {
		return slices.Clone(set), nil
	}
	return slices.Concat(left, right), nil
}

// ownTests lists the test functions of R's own test files (not the file
// cling writes, nor its faults file), in file order.
func (j *job) ownTests() []string {
	var names []string
	for _, parsed := range j.ownTestFiles() {
		for _, d := range parsed.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") && gotest.IsTestFunc(fd.Name.Name) {
				names = append(names, fd.Name.Name)
			}
		}
	}
	return names
}
