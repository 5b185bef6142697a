// Package gen runs cling's main job for one pair: it instruments the
// caller R and callee E, builds the executor, searches for tests that
// cover the coupled branches, minimises the kept tests, adds regression
// assertions from observed values, verifies that the resulting file
// compiles and passes repeatedly, and only then writes it.
package gen

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
	"golang.org/x/mod/modfile"
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
	}
}

// Report is the outcome of a generation run.
type Report struct {
	CoupledBranches int     `json:"coupledBranches"`
	Covered         int     `json:"covered"`
	CBC             float64 `json:"cbc"`
	TestFile        string  `json:"testFile"`
	Tests           int     `json:"tests"`
	Executions      int     `json:"executions"`
	SearchSeconds   float64 `json:"searchSeconds"`
	// Dropped lists kept tests removed because they did not compile or
	// did not pass every verification run.
	Dropped []string `json:"dropped,omitempty"`
	// Skipped lists what of R's API the cluster cannot build.
	Skipped []string `json:"skipped,omitempty"`
	// Unobservable lists constructs the probes cannot see.
	Unobservable []string `json:"unobservable,omitempty"`
	// Assertions is the dialect of the emitted assertions.
	Assertions string     `json:"assertions"`
	Stats      mosa.Stats `json:"stats"`
	// Executor counts what happened to the executions: panics, timeouts,
	// crashes and worker restarts.
	Executor harness.Stats `json:"executor"`
	// Covers lists, per emitted test, the goals it covers.
	Covers map[string][]int `json:"-"`
}

// Error is a problem with the user's input or the generation run that
// deserves a one-line message.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Marker is the line cling puts in the files it writes, so that it only
// ever overwrites its own files.
const Marker = "// Code written by cling; regenerate with cling gen."

// Run generates tests for an analysed pair.
func Run(ctx context.Context, a *couple.Analysis, cfg Config) (*Report, error) {
	if len(a.Covering) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("no covering function: no exported function or method of %s reaches a call site into %s (the %d call sites are only reached from unexported code or init)",
			a.Caller.Pkg.Path, a.Callee.Pkg.Path, len(a.Sites))}
	}
	if len(a.Goals) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("no coupled branches between %s and %s: the call sites have no caller targets or call functions without branches", a.Caller.Pkg.Path, a.Callee.Pkg.Path)}
	}
	algorithm := cfg.Algorithm
	if algorithm == "" {
		algorithm = mosa.DefaultAlgorithm
	}
	if _, err := mosa.Lookup(algorithm); err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	out, err := outputPath(a, cfg)
	if err != nil {
		return nil, err
	}
	cluster := testcase.NewCluster(a, cfg.MaxDepth)
	seedConstants(a, cluster, cfg.Tags)
	if len(cluster.Covering) == 0 {
		return nil, &Error{Msg: fmt.Sprintf("cling cannot call any covering function of %s: %s", a.Caller.Pkg.Path, strings.Join(cluster.Skipped, "; "))}
	}
	sess, err := probe.NewSession(a, probe.Search)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	bin, err := harness.Build(ctx, sess, cluster, harness.BuildOptions{Tags: cfg.Tags, CacheDir: cfg.CacheDir})
	if err != nil {
		return nil, err
	}
	// Workers run in an empty directory of the workspace: code under test
	// that writes files relative to its working directory writes there.
	cwd := filepath.Join(sess.WS.Dir, "cwd")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		return nil, err
	}
	// Retrying a timed-out test keeps a moment of load from changing the
	// result of a run with an evaluation budget, which promises the same
	// file for the same seed; under a time budget results vary anyway,
	// and a test that really hangs would cost its worker twice as long.
	retry := cfg.Budget.MaxEvals > 0
	x := harness.NewExecutor(bin, harness.Options{Workers: cfg.Workers, Timeout: cfg.Timeout, RetryTimeouts: retry, Dir: cwd, Ops: len(cluster.Ops)})
	defer x.Close()

	search := &mosa.Engine{
		Exec:       x,
		Gen:        testcase.NewGenerator(cluster, cfg.Test, cfg.Seed),
		Objectives: fitness.NewObjectives(a, cfg.Fitness),
		Goals:      len(a.Goals),
		Budget:     cfg.Budget,
		Progress:   cfg.Progress,
	}
	archive, stats, err := search.Run(ctx, algorithm, cfg.Search)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	dialect := dialectOf(a)
	src, final, dropped, err := finish(ctx, a, x, cluster, archive, dialect, out, cfg)
	if err != nil {
		return nil, err
	}
	rep := &Report{
		CoupledBranches: len(a.Goals),
		TestFile:        out,
		Tests:           len(final),
		Executions:      x.Stats().Executions,
		Executor:        x.Stats(),
		SearchSeconds:   stats.Seconds,
		Dropped:         dropped,
		Skipped:         cluster.Skipped,
		Unobservable:    sess.Unobservable,
		Stats:           *stats,
		Covers:          map[string][]int{},
	}
	rep.Assertions = "testify"
	if dialect == emit.Std {
		rep.Assertions = "testing"
	}
	// What the file covers: every goal its tests cover, the ones they
	// were kept for and those they cover by the way.
	covered := map[int32]bool{}
	for _, t := range final {
		for _, g := range t.covers {
			covered[g] = true
			rep.Covers[t.Name] = append(rep.Covers[t.Name], int(g))
		}
	}
	rep.Covered = len(covered)
	rep.CBC = float64(rep.Covered) / float64(rep.CoupledBranches)
	if len(final) == 0 {
		return rep, &Error{Msg: fmt.Sprintf("no test to write: the search covered %d of %d coupled branches, and no kept test passed verification", archive.Len(), len(a.Goals))}
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("writing %s: %v", out, err)}
	}
	return rep, nil
}

// outputPath resolves and checks the output file before any work: its
// directory must exist and be writable, and an existing file must be one
// cling wrote (or --force).
func outputPath(a *couple.Analysis, cfg Config) (string, error) {
	out := cfg.Out
	if out == "" {
		out = filepath.Join(a.Caller.Pkg.Dir, "cling_"+a.Callee.Pkg.Name+"_test.go")
	} else if !filepath.IsAbs(out) {
		out = filepath.Join(a.Prog.Dir, out)
	}
	if !strings.HasSuffix(out, "_test.go") {
		return "", &Error{Msg: fmt.Sprintf("output file %s must end in _test.go", out)}
	}
	if filepath.Clean(filepath.Dir(out)) != filepath.Clean(a.Caller.Pkg.Dir) {
		return "", &Error{Msg: fmt.Sprintf("output file %s must be in the caller's directory %s (tests of package %s_test)", out, a.Caller.Pkg.Dir, a.Caller.Pkg.Name)}
	}
	if err := writable(filepath.Dir(out)); err != nil {
		return "", &Error{Msg: fmt.Sprintf("cannot write %s: %v", out, err)}
	}
	if b, err := os.ReadFile(out); err == nil {
		if !bytes.Contains(b, []byte(Marker)) && !cfg.Force {
			return "", &Error{Msg: fmt.Sprintf("%s exists and was not written by cling (use --force to overwrite it)", out)}
		}
		if st, err := os.Stat(out); err == nil && st.Mode().Perm()&0o200 == 0 {
			return "", &Error{Msg: fmt.Sprintf("cannot write %s: file is read-only", out)}
		}
	}
	return out, nil
}

// dialectOf picks testify when the caller's module already requires it
// (writing the test file must not change go.mod), the standard testing
// package otherwise.
func dialectOf(a *couple.Analysis) emit.Dialect {
	m := a.Caller.Pkg.Module
	if m == nil || m.GoMod == "" {
		return emit.Std
	}
	data, err := os.ReadFile(m.GoMod)
	if err != nil {
		return emit.Std
	}
	f, err := modfile.ParseLax(m.GoMod, data, nil)
	if err != nil {
		return emit.Std
	}
	for _, r := range f.Require {
		if r.Mod.Path == "github.com/stretchr/testify" {
			return emit.Testify
		}
	}
	return emit.Std
}

// namedTest is a kept test on its way to the file.
type namedTest struct {
	emit.Test
	goals  []int32
	covers []int32
}

// nameTests names each test after the first coupled branch it covers,
// with a number when that name is taken.
func nameTests(a *couple.Analysis, tests []observedTest, taken map[string]bool) []namedTest {
	var out []namedTest
	for _, t := range tests {
		g := a.Goals[t.goals[0]]
		base := "Test" + exportName(calleeShort(g.Site)) + "_" + branchShort(g.R) + "_" + branchShort(g.E)
		name := base
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		taken[name] = true
		comment := fmt.Sprintf("%s takes %s and then, in the call of %s at %s (in %s), %s.",
			name, g.R.ID(), couple.CalleeName(g.Site), a.Prog.Pos(g.Site.Pos), g.Site.Func.Name, g.E.ID())
		if len(t.goals) > 1 {
			if more := len(t.goals) - 1; more == 1 {
				comment += " It covers 1 more coupled branch."
			} else {
				comment += fmt.Sprintf(" It covers %d more coupled branches.", more)
			}
		}
		out = append(out, namedTest{Test: emit.Test{Name: name, Test: t.test, Outcome: t.outcome, Comment: comment}, goals: t.goals, covers: t.covers})
	}
	return out
}

func calleeShort(s *couple.CallSite) string {
	n := couple.CalleeName(s)
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		n = n[i+1:]
	}
	return n
}

// branchShort names a branch within a test name: L22False, or EntryF.
func branchShort(b couple.Branch) string {
	if b.IsEntry() {
		name := b.Entry.Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		return "Entry" + exportName(name)
	}
	line := lineOf(b.ID())
	if b.Outcome {
		return "L" + line + "True"
	}
	return "L" + line + "False"
}

// lineOf extracts the line of file:line:col:outcome.
func lineOf(id string) string {
	parts := strings.Split(id, ":")
	if len(parts) >= 4 {
		return parts[len(parts)-3]
	}
	return "0"
}

func exportName(s string) string {
	s = strings.Trim(s, "()*$")
	s = strings.NewReplacer("(", "", ")", "", "*", "", "$", "", "[", "", "]", "", ",", "", " ", "").Replace(s)
	if s == "" {
		return "X"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sortNamed orders tests by their first goal.
func sortNamed(ts []namedTest) {
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].goals[0] < ts[j].goals[0] })
}
