package probe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/probe/rt"
)

// TestPackage is a package whose tests to run: its import path and
// directory.
type TestPackage struct {
	Path, Dir string
}

// TestOptions configure a test run under the probes.
type TestOptions struct {
	// Dir is the directory the go command runs in.
	Dir      string
	Packages []TestPackage
	// Run is passed to go test -run.
	Run  string
	Tags []string
	// Extra are further go test flags.
	Extra []string
	// Hide are test files of the packages to leave out of the run, as if
	// they were deleted.
	Hide []string
}

// TestRun is the outcome of running test suites under the probes.
type TestRun struct {
	// Covered tells, per goal (coupled branch), whether a test covered it.
	Covered []bool
	// Extras is what the extra probes of the plan recorded (nil without
	// them).
	Extras *ExtraCoverage
	// Failed lists the failing tests as package.TestName, sorted.
	Failed []string
	// Tests is the number of test functions the suites contain (marked).
	Tests int
	// Unobservable lists the nodes and call sites the probes cannot see.
	Unobservable []string
}

// TestError is a test run that could not measure anything: the packages
// have no tests (NoTests), their tests do not build, or the instrumented
// build failed (Instrumentation: a fault of the probes, not of the tests).
type TestError struct {
	Msg             string
	NoTests         bool
	Instrumentation bool
}

func (e *TestError) Error() string { return e.Msg }

// Measure instruments an analysed pair for coverage in a session of its
// own, runs the tests with RunTests and removes the session.
func Measure(ctx context.Context, a *couple.Analysis, opts TestOptions) (*TestRun, error) {
	s, err := NewSession(a, Coverage)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.RunTests(ctx, opts)
}

// RunTests runs the tests of the given packages with the probes, always
// with -count=1, and collects the coupled branches they cover. A failing
// suite is not an error: its coverage is measured all the same and the
// failing tests are listed.
func (s *Session) RunTests(ctx context.Context, opts TestOptions) (*TestRun, error) {
	run := &TestRun{Unobservable: s.Unobservable}
	for _, f := range opts.Hide {
		s.WS.Hide(f)
	}
	for _, p := range opts.Packages {
		n, err := MarkTests(s.WS, p.Dir, s.RTImport)
		if err != nil {
			return nil, err
		}
		run.Tests += n
	}
	if run.Tests == 0 {
		var names []string
		for _, p := range opts.Packages {
			names = append(names, p.Path)
		}
		return nil, &TestError{Msg: fmt.Sprintf("no tests to run in %s", strings.Join(names, " ")), NoTests: true}
	}
	overlay, err := s.WS.OverlayFile()
	if err != nil {
		return nil, err
	}
	coverDir, err := s.CoverDir()
	if err != nil {
		return nil, err
	}
	var pkgs []string
	for _, p := range opts.Packages {
		pkgs = append(pkgs, p.Path)
	}
	out, err := gotest.GoTest(ctx, gotest.GoTestOptions{
		Dir:      opts.Dir,
		Packages: pkgs,
		Overlay:  overlay,
		Tags:     opts.Tags,
		Run:      opts.Run,
		Count:    1,
		Extra:    opts.Extra,
		Env:      append(os.Environ(), "CLING_COVER_DIR="+coverDir),
	})
	if err != nil {
		return nil, err
	}
	if msg := out.BuildError(out.Stderr); msg != "" {
		msg = s.WS.Unoverlay(msg, opts.Dir)
		if file, _, _ := strings.Cut(msg, ":"); strings.HasSuffix(file, "_test.go") {
			return nil, &TestError{Msg: "the tests do not build: " + msg}
		}
		return nil, &TestError{Msg: "the instrumented build failed (a cling bug; please report it): " + msg, Instrumentation: true}
	}
	// One entry per failed run: extra flags may ask for -count=N.
	var failed []string
	for _, t := range out.Tests {
		for range t.Fails {
			failed = append(failed, t.Package+"."+t.Name)
		}
	}
	sort.Strings(failed)
	if out.Err != nil && len(failed) == 0 && !out.PackageFailed {
		return nil, &TestError{Msg: "go test failed: " + gotest.FirstErrorLine(out.Stderr, out.Err.Error())}
	}
	run.Failed = failed
	if err := s.Collect(coverDir, run); err != nil {
		return nil, err
	}
	return run, nil
}

// CoverDir makes a new directory for the coverage records of instrumented
// test processes, which get its path in the environment variable
// CLING_COVER_DIR; Collect reads them.
func (s *Session) CoverDir() (string, error) {
	return os.MkdirTemp(s.WS.Dir, "cover-")
}

// Collect reads into run the coverage records the test processes wrote
// into coverDir: the goals covered and, with extra probes, their record.
func (s *Session) Collect(coverDir string, run *TestRun) error {
	goals := len(s.Plan.A.Goals)
	layout := s.Plan.extrasLayout()
	size := goals
	for _, n := range layout {
		size += n
	}
	covered, err := readCovered(coverDir, size)
	if err != nil {
		return err
	}
	run.Covered = covered[:goals]
	if s.Plan.Extras.Any() {
		if run.Extras, err = readExtras(coverDir, covered[goals:], layout); err != nil {
			return err
		}
	}
	return nil
}

// ExtraCoverage is what the extra probes recorded over a test run: per
// outcome number (2*node, +1 for false) whether it was taken (R's
// anywhere, E's in calls made at R's call sites), per line whether it ran,
// per function of R's API whether a test called it directly and whether
// such a call returned, per output slot and partition (rt.MaxParts per
// slot) whether a result fell in it, per outcome of R whether it was taken
// in a direct call of its function, per mutant ID (from 1) whether it was
// infected, and the panics (and errors) seen, sorted.
type ExtraCoverage struct {
	Outcomes, Lines, Called, Returned, Outputs, Direct, Mutants []bool
	Panics                                                      []string
}

// extrasLayout is the layout of the extras' cumulative record (empty
// without extras).
func (p *Plan) extrasLayout() []int {
	if !p.Extras.Any() {
		return nil
	}
	slots := 0
	if n := len(p.T.Outputs); n > 0 {
		slots = p.T.Outputs[n-1].Slot + 1
	}
	return rt.ExtrasLayout(len(p.Nodes), len(p.T.Lines), len(p.T.Funcs), slots, len(p.T.Mutants))
}

// readExtras splits the extras' cumulative record b by layout and reads
// the panics files of dir.
func readExtras(dir string, b []bool, layout []int) (*ExtraCoverage, error) {
	parts := make([][]bool, len(layout))
	for i, n := range layout {
		parts[i], b = b[:n], b[n:]
	}
	x := &ExtraCoverage{
		Outcomes: parts[rt.PartOutcomes], Lines: parts[rt.PartLines], Called: parts[rt.PartCalled],
		Returned: parts[rt.PartReturned], Outputs: parts[rt.PartOutputs], Direct: parts[rt.PartDirect], Mutants: parts[rt.PartMutants],
	}
	files, err := filepath.Glob(filepath.Join(dir, "panics-*"))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading panics: %w", err)
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" && !seen[l] {
				seen[l] = true
				x.Panics = append(x.Panics, l)
			}
		}
	}
	sort.Strings(x.Panics)
	return x, nil
}

// readCovered ORs the per-process coverage files the runtime wrote.
func readCovered(dir string, goals int) ([]bool, error) {
	covered := make([]bool, goals)
	files, err := filepath.Glob(filepath.Join(dir, "cover-*"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading coverage: %w", err)
		}
		for i := 0; i < len(b) && i < goals; i++ {
			if b[i] != 0 {
				covered[i] = true
			}
		}
	}
	return covered, nil
}
