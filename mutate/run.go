package mutate

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/probe"
)

// TestPackage is a package whose tests run against the mutants: its
// import path and directory.
type TestPackage struct {
	Path, Dir string
}

// Config configures a mutation run.
type Config struct {
	// Analysis is the analysed pair (R, E).
	Analysis *couple.Analysis
	// Operators are the operators to apply; none means the interface operators.
	Operators []Operator
	// Tests are the packages whose tests run; none means the tests of R
	// and E.
	Tests []TestPackage
	// Run selects the top-level tests to use, as go test -run; mutant
	// runs then select among these by name.
	Run string
	// Tags are build tags.
	Tags []string
	// Workers is the number of mutants evaluated in parallel (default: the
	// number of CPUs).
	Workers int
	// TimeoutFactor and TimeoutFloor give the timeout of a mutant run:
	// the baseline time of the selected tests (with the test binary's
	// start-up) times the factor, plus the floor (defaults 5 and 2s).
	// A run that times out has its process group killed.
	TimeoutFactor float64
	TimeoutFloor  time.Duration
	// Compare names a generated test file: the report tells which mutants
	// only its tests kill and which only the other tests kill. A file
	// outside the tested packages is added to R's package for the run.
	Compare string
	// Naive also evaluates every mutant that ran the naive way, one build
	// per mutant, and reports the time and any status that differs (for
	// benchmarks).
	Naive bool
	// Progress, if set, is called as mutants finish.
	Progress func(phase string, done, total int)
	// Select, if set, chooses the mutants of the run: those it rejects
	// are neither compiled nor run, and the result leaves them out. The
	// chosen ones keep the IDs they have in a run of all mutants. When
	// Select chooses none, Run builds and runs nothing.
	Select func(*Mutant) bool
}

// Result is the outcome of a mutation run.
type Result struct {
	Caller, Callee string
	Operators      []Operator
	// Mutants are all mutants, by ID.
	Mutants []*Mutant
	// Tests are the tests of the baseline, as import path.TestName.
	Tests []string
	// Compare is set when Config.Compare was.
	Compare *Comparison
	// Sources are the non-test files of R and E, for reports.
	Sources []*Source
	Timing  Timing
	Naive   *NaiveCheck
}

// Source is one file of R or E.
type Source struct {
	Rel, Package string
	Text         string
}

// Timing is the time spent in each phase of a run.
type Timing struct {
	Generate, Build, Baseline, Evaluate, Total time.Duration
}

// Score is the run's mutation score.
func (r *Result) Score() float64 { return Score(r.Mutants) }

// Counts returns the number of mutants per status.
func (r *Result) Counts() map[Status]int {
	c := map[Status]int{}
	for _, m := range r.Mutants {
		c[m.Status]++
	}
	return c
}

// NoTestsError reports that no test was selected.
type NoTestsError struct{ Msg string }

func (e *NoTestsError) Error() string { return e.Msg }

// BaselineError reports that the suite fails without mutants: a mutation
// score of a failing suite means nothing.
type BaselineError struct {
	// Failed are the failing tests (import path.TestName).
	Failed []string
	// Output is the end of the failing run's output.
	Output string
}

func (e *BaselineError) Error() string {
	if len(e.Failed) == 0 {
		return "the test suite fails without mutants: " + e.Output
	}
	return fmt.Sprintf("the test suite fails without mutants (%s); it must pass before mutants can be judged", strings.Join(e.Failed, ", "))
}

// suite is the test binary of one tested package and its baseline.
type suite struct {
	pkg TestPackage
	dir string // where the binary runs
	bin string
	// tests ran in the baseline, in order, with their times.
	tests    []string
	elapsed  map[string]time.Duration
	overhead time.Duration
	// cover maps a mutant to the tests that reached it; outside marks the
	// mutants reached outside any test.
	cover   map[int]map[string]bool
	outside map[int]bool
	// generated are the tests of the --compare file.
	generated map[string]bool
	marked    int
}

// Test groups of a --compare run.
const (
	groupAll       = ""
	groupExisting  = "existing"
	groupGenerated = "generated"
)

// selected returns the tests of s in a group that reach mutant id.
func (s *suite) selected(id int, group string) []string {
	var out []string
	for _, t := range s.tests {
		if !s.outside[id] && !s.cover[id][t] {
			continue
		}
		if (group == groupExisting && s.generated[t]) || (group == groupGenerated && !s.generated[t]) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// runner holds the state of one run.
type runner struct {
	cfg      Config
	gen      *generator
	ws       *probe.Workspace
	rtImport string
	suites   []*suite
	extra    map[string][]byte // the --compare file, by its path in the run
	genFile  string
}

// Run generates the mutants of a pair, compiles them as schemata, runs the
// baseline and evaluates every covered mutant against the tests that reach
// it. The module is never written: everything lives in a temporary
// workspace removed before Run returns.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	start := time.Now()
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if cfg.TimeoutFactor <= 0 {
		cfg.TimeoutFactor = 5
	}
	if cfg.TimeoutFloor <= 0 {
		cfg.TimeoutFloor = 2 * time.Second
	}
	if len(cfg.Operators) == 0 {
		cfg.Operators = groupOperators(InterfaceGroup)
	}
	a := cfg.Analysis
	res := &Result{Caller: a.Caller.Pkg.Path, Callee: a.Callee.Pkg.Path, Operators: cfg.Operators}
	if err := probe.CheckInstrumentable(ctx, a.Prog.Dir, res.Caller, res.Callee); err != nil {
		return nil, err
	}

	gen, err := newGenerator(a, cfg.Operators)
	if err != nil {
		return nil, err
	}
	if cfg.Select != nil {
		gen.keep(cfg.Select)
		if len(gen.mutants) == 0 {
			res.Mutants = []*Mutant{}
			res.Sources = gen.sources()
			res.Timing.Generate = time.Since(start)
			res.Timing.Total = res.Timing.Generate
			return res, nil
		}
	}
	ws, err := probe.NewWorkspace(a.Prog)
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	r := &runner{cfg: cfg, gen: gen, ws: ws}
	table, err := probe.RuntimeSource("table.go")
	if err != nil {
		return nil, err
	}
	if r.rtImport, err = ws.RuntimeImport(table); err != nil {
		return nil, fmt.Errorf("installing the mutant runtime: %w", err)
	}
	if err := gen.checkViability(r.rtImport); err != nil {
		return nil, err
	}
	files, err := gen.mutatedFiles(r.rtImport, schemata)
	if err != nil {
		return nil, err
	}
	for _, p := range sortedPaths(files) {
		if err := ws.Set(p, files[p]); err != nil {
			return nil, err
		}
	}
	res.Mutants = gen.mutants
	res.Sources = gen.sources()
	res.Timing.Generate = time.Since(start)

	if err := r.prepareTests(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := r.build(ctx); err != nil {
		return nil, err
	}
	res.Timing.Build = time.Since(t0)
	t0 = time.Now()
	if err := r.baseline(ctx); err != nil {
		return nil, err
	}
	res.Timing.Baseline = time.Since(t0)
	for _, s := range r.suites {
		for _, t := range s.tests {
			res.Tests = append(res.Tests, s.pkg.Path+"."+t)
		}
	}
	t0 = time.Now()
	if err := r.evaluate(ctx); err != nil {
		return nil, err
	}
	res.Timing.Evaluate = time.Since(t0)
	res.Timing.Total = time.Since(start)
	if cfg.Compare != "" {
		res.Compare = r.comparison()
	}
	if cfg.Naive {
		if res.Naive, err = r.naive(ctx); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// prepareTests marks the test files of the tested packages (and places
// the --compare file).
func (r *runner) prepareTests() error {
	a := r.cfg.Analysis
	pkgs := append([]TestPackage(nil), r.cfg.Tests...)
	if len(pkgs) == 0 {
		pkgs = []TestPackage{{a.Caller.Pkg.Path, a.Caller.Pkg.Dir}, {a.Callee.Pkg.Path, a.Callee.Pkg.Dir}}
	}
	r.extra = map[string][]byte{}
	if r.cfg.Compare != "" {
		abs, err := filepath.Abs(r.cfg.Compare)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(abs)
		if err != nil {
			return fmt.Errorf("reading the --compare file: %w", err)
		}
		if !strings.HasSuffix(abs, "_test.go") {
			return fmt.Errorf("--compare %s: not a test file (*_test.go)", r.cfg.Compare)
		}
		inSuite := false
		for _, p := range pkgs {
			if filepath.Dir(abs) == filepath.Clean(p.Dir) {
				inSuite = true
			}
		}
		if !inSuite {
			// The file joins R's package for this run (it may be there
			// already when R's tests are not among the tested ones).
			dst := filepath.Join(a.Caller.Pkg.Dir, filepath.Base(abs))
			if dst != abs {
				if _, err := os.Stat(dst); err == nil {
					return fmt.Errorf("--compare %s: %s already has a file named %s", r.cfg.Compare, a.Caller.Pkg.Path, filepath.Base(abs))
				}
			}
			abs = dst
			pkgs = append(pkgs, TestPackage{a.Caller.Pkg.Path, a.Caller.Pkg.Dir})
		}
		r.extra[abs] = src
		r.genFile = abs
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		if seen[p.Path] {
			continue
		}
		seen[p.Path] = true
		if p.Dir == "" {
			// A package with test files only: ask the go command.
			dir, err := r.packageDir(p.Path)
			if err != nil {
				return err
			}
			p.Dir = dir
		}
		marked, err := markTestDir(p.Dir, r.rtImport, r.extra)
		if err != nil {
			return err
		}
		s := &suite{pkg: p, dir: r.ws.ActualPath(p.Dir), generated: map[string]bool{}}
		for _, mf := range marked {
			if len(mf.tests) == 0 && r.extra[mf.path] == nil {
				continue
			}
			if err := r.ws.Set(mf.path, mf.src); err != nil {
				return err
			}
			s.marked += len(mf.tests)
			if mf.path == r.genFile {
				for _, t := range mf.tests {
					s.generated[t] = true
				}
			}
		}
		if s.marked > 0 {
			r.suites = append(r.suites, s)
		}
	}
	if len(r.suites) == 0 {
		var names []string
		for _, p := range pkgs {
			names = append(names, p.Path)
		}
		return &NoTestsError{Msg: "no tests to run in " + strings.Join(names, " ")}
	}
	return nil
}

// packageDir returns the directory of a package.
func (r *runner) packageDir(path string) (string, error) {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", path)
	cmd.Dir = r.cfg.Analysis.Prog.Dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("locating package %s: %w", path, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// build compiles one test binary per tested package, all mutants in.
func (r *runner) build(ctx context.Context) error {
	overlay, err := r.ws.OverlayFile()
	if err != nil {
		return err
	}
	bin := filepath.Join(r.ws.Dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	for i, s := range r.suites {
		s.bin = filepath.Join(bin, fmt.Sprintf("%d-%s.test", i, filepath.Base(s.pkg.Dir)))
	}
	return r.parallel(ctx, len(r.suites), func(i int) error {
		s := r.suites[i]
		return r.goTestC(ctx, overlay, s.pkg.Path, s.bin, "the mutant schemata")
	})
}

// goTestC builds the test binary of a package with an overlay.
func (r *runner) goTestC(ctx context.Context, overlay, pkg, out, what string) error {
	output, err := gotest.Build(ctx, gotest.BuildOptions{Dir: r.cfg.Analysis.Prog.Dir, Package: pkg, Binary: out, Overlay: overlay, Tags: r.cfg.Tags})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("building %s of %s failed: %s", what, pkg, r.ws.OriginalPath(gotest.FirstErrorLine(string(output), err.Error())))
	}
	if _, err := os.Stat(out); err != nil {
		return &NoTestsError{Msg: fmt.Sprintf("no test binary for %s: %s", pkg, gotest.FirstErrorLine(string(output), "no test files"))}
	}
	return nil
}

// parallel runs f(0..n-1) on the workers and returns the first error.
func (r *runner) parallel(ctx context.Context, n int, f func(i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	workers := r.cfg.Workers
	if workers > n {
		workers = n
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
						cancel()
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// baseline runs every test binary once, without mutants, recording which
// tests reach which mutants and how long each takes. The suite must pass.
func (r *runner) baseline(ctx context.Context) error {
	var failed []string
	tail := ""
	total := 0
	for i, s := range r.suites {
		cov := filepath.Join(r.ws.Dir, fmt.Sprintf("mutcov-%d.txt", i))
		out, err := runBinary(ctx, s.bin, s, gotest.RunOptions{Run: r.cfg.Run, Env: testEnv("CLING_MUTANT=-1", "CLING_MUTCOV="+cov)})
		if err != nil {
			return fmt.Errorf("running the tests of %s: %w", s.pkg.Path, err)
		}
		s.elapsed = map[string]time.Duration{}
		var sum time.Duration
		for _, t := range started(out) {
			if t.Last != "" {
				s.tests = append(s.tests, t.Name)
				s.elapsed[t.Name] = t.Elapsed
				sum += t.Elapsed
			}
		}
		if s.overhead = out.Wall - sum; s.overhead < 0 {
			s.overhead = 0
		}
		for _, t := range failedTests(out) {
			failed = append(failed, s.pkg.Path+"."+t)
		}
		if out.Exit != 0 && len(failedTests(out)) == 0 {
			failed = append(failed, fmt.Sprintf("%s (exit status %d)", s.pkg.Path, out.Exit))
		}
		if out.Exit != 0 && tail == "" {
			tail = out.TailLines(3)
		}
		if err := s.readCoverage(cov); err != nil {
			return err
		}
		total += len(s.tests)
	}
	if len(failed) > 0 {
		return &BaselineError{Failed: failed, Output: tail}
	}
	if total == 0 {
		msg := "no tests selected"
		if r.cfg.Run != "" {
			msg = fmt.Sprintf("no tests selected: --run %q matches no test", r.cfg.Run)
		}
		return &NoTestsError{Msg: msg}
	}
	if r.genFile != "" {
		n := 0
		for _, s := range r.suites {
			for _, t := range s.tests {
				if s.generated[t] {
					n++
				}
			}
		}
		if n == 0 {
			return &NoTestsError{Msg: fmt.Sprintf("no tests selected in the --compare file %s", r.cfg.Compare)}
		}
	}
	return nil
}

// readCoverage replays the baseline's coverage file: a mutant reached
// while tests run belongs to every test begun and not ended.
func (s *suite) readCoverage(path string) error {
	s.cover, s.outside = map[int]map[string]bool{}, map[int]bool{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil // no mutant reached, no test marked
	}
	if err != nil {
		return fmt.Errorf("reading the baseline coverage: %w", err)
	}
	defer f.Close()
	active := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		kind, arg, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		switch kind {
		case "T":
			active[arg]++
		case "E":
			if active[arg]--; active[arg] <= 0 {
				delete(active, arg)
			}
		case "M":
			id, err := strconv.Atoi(arg)
			if err != nil {
				continue
			}
			if len(active) == 0 {
				s.outside[id] = true
				continue
			}
			if s.cover[id] == nil {
				s.cover[id] = map[string]bool{}
			}
			for t := range active {
				s.cover[id][t] = true
			}
		}
	}
	return sc.Err()
}

// timeout is the time limit of a run of tests in s.
func (r *runner) timeout(s *suite, tests []string) time.Duration {
	base := s.overhead
	for _, t := range tests {
		base += s.elapsed[t]
	}
	return time.Duration(float64(base)*r.cfg.TimeoutFactor) + r.cfg.TimeoutFloor
}

// groups are the test groups a mutant runs against.
func (r *runner) groups() []string {
	if r.genFile != "" {
		return []string{groupExisting, groupGenerated}
	}
	return []string{groupAll}
}

// evaluate runs every covered, viable mutant against its selected tests.
func (r *runner) evaluate(ctx context.Context) error {
	var todo []*Mutant
	for _, m := range r.gen.mutants {
		if m.Status == NotViable {
			continue
		}
		for _, s := range r.suites {
			for _, t := range s.selected(m.ID, groupAll) {
				m.Tests = append(m.Tests, s.pkg.Path+"."+t)
			}
		}
		if len(m.Tests) == 0 {
			m.Status = NotCovered
			continue
		}
		todo = append(todo, m)
	}
	var mu sync.Mutex
	done := 0
	return r.parallel(ctx, len(todo), func(i int) error {
		m := todo[i]
		out, err := r.evalMutant(ctx, m, r.runSchemata)
		if err != nil {
			return err
		}
		m.Status, m.KilledBy = out.status, out.killedBy
		m.detectedBy = out.detectedBy
		mu.Lock()
		done++
		if r.cfg.Progress != nil {
			r.cfg.Progress("mutants", done, len(todo))
		}
		mu.Unlock()
		return nil
	})
}

// evalResult is the outcome of evaluating one mutant.
type evalResult struct {
	status     Status
	killedBy   []string
	detectedBy map[string]bool
}

// runFunc runs some tests of a suite with a mutant active.
type runFunc func(ctx context.Context, s *suite, m *Mutant, tests []string) (*gotest.Outcome, error)

// runSchemata runs the schemata binary with mutant m active.
func (r *runner) runSchemata(ctx context.Context, s *suite, m *Mutant, tests []string) (*gotest.Outcome, error) {
	out, err := r.runMutant(ctx, s.bin, s, m.ID, tests)
	if err != nil {
		return nil, fmt.Errorf("running mutant %d: %w", m.ID, err)
	}
	return out, nil
}

// evalMutant runs mutant m against the tests that reach it, group by
// group, stopping a group at its first failing run.
func (r *runner) evalMutant(ctx context.Context, m *Mutant, run runFunc) (*evalResult, error) {
	res := &evalResult{detectedBy: map[string]bool{}, killedBy: []string{}}
	timedOut := false
	for _, group := range r.groups() {
		for _, s := range r.suites {
			tests := s.selected(m.ID, group)
			if len(tests) == 0 {
				continue
			}
			out, err := run(ctx, s, m, tests)
			if err != nil {
				return nil, err
			}
			if out.TimedOut {
				timedOut = true
				res.detectedBy[group] = true
				break
			}
			if out.Exit != 0 || len(failedTests(out)) > 0 {
				killers := failedTests(out)
				for _, t := range killers {
					res.killedBy = append(res.killedBy, s.pkg.Path+"."+t)
				}
				if len(killers) == 0 {
					res.killedBy = append(res.killedBy, fmt.Sprintf("%s (exit status %d)", s.pkg.Path, out.Exit))
				}
				res.detectedBy[group] = true
				break
			}
		}
	}
	switch {
	case len(res.killedBy) > 0:
		res.status = Killed
	case timedOut:
		res.status = Timeout
	default:
		res.status = Survived
	}
	sort.Strings(res.killedBy)
	return res, nil
}

// Comparison is the measure of RQ2.2 in Derakhshanfar et al. 2022 (see
// the README's References): the mutants a generated test file kills that
// the other tests do not, and the reverse.
type Comparison struct {
	// File is the generated test file (as given); Tests its tests.
	File  string
	Tests []string
	// OnlyGenerated, OnlyExisting and Both list mutant IDs by which tests
	// detect them (kill or time out).
	OnlyGenerated, OnlyExisting, Both []int
	// Scores of the existing tests alone, the generated tests alone, and
	// both together.
	ScoreExisting, ScoreGenerated, ScoreCombined float64
}

func (r *runner) comparison() *Comparison {
	c := &Comparison{File: r.cfg.Compare, OnlyGenerated: []int{}, OnlyExisting: []int{}, Both: []int{}}
	for _, s := range r.suites {
		for _, t := range s.tests {
			if s.generated[t] {
				c.Tests = append(c.Tests, s.pkg.Path+"."+t)
			}
		}
	}
	viable, ex, gen, comb := 0, 0, 0, 0
	for _, m := range r.gen.mutants {
		if m.Status == NotViable {
			continue
		}
		viable++
		e, g := m.detectedBy[groupExisting], m.detectedBy[groupGenerated]
		switch {
		case e && g:
			c.Both = append(c.Both, m.ID)
		case e:
			c.OnlyExisting = append(c.OnlyExisting, m.ID)
		case g:
			c.OnlyGenerated = append(c.OnlyGenerated, m.ID)
		}
		if e {
			ex++
		}
		if g {
			gen++
		}
		if e || g {
			comb++
		}
	}
	if viable > 0 {
		c.ScoreExisting = float64(ex) / float64(viable)
		c.ScoreGenerated = float64(gen) / float64(viable)
		c.ScoreCombined = float64(comb) / float64(viable)
	}
	return c
}
