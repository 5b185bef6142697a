package gen

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/internal/parallel"
	"github.com/cling-go/cling/internal/proc"
	"github.com/cling-go/cling/internal/suitecost"
	"github.com/cling-go/cling/probe"
)

// failure is how a test failed verification.
type failure struct {
	// lines are the lines of the file its failure messages point to, in
	// the order they were reported.
	lines []int
	// broken is set when the test did not run to its end: it did not
	// build, vet flagged it, its process died while it ran, or it failed
	// without a message that points into the file.
	broken bool
}

// fileRun is what a verification run of the file showed.
type fileRun struct {
	// failures says how the tests that failed, did not compile, or have
	// vet findings failed, by name.
	failures map[string]*failure
	// culprits are the tests that change package-level state and made
	// others fail by it (see stateCulprits).
	culprits []string
}

// runFile runs the emitted tests against the original (not
// instrumented) packages and returns how the tests that failed, did not
// compile, or have vet findings failed, and which tests that change
// package-level state made others fail, or made tests of the package's
// own files fail, and which leave files in the package directory. The
// test binary is built through an overlay of the output file only, and
// runs in a temporary copy of the package directory (its files and
// testdata), so that nothing the tests do can touch the module.
func (j *job) runFile(ctx context.Context, src []byte, tests []namedTest) (fileRun, error) {
	ws, err := probe.NewWorkspace(j.a.Prog)
	if err != nil {
		return fileRun{}, err
	}
	defer ws.Close()
	bin, blamed, err := j.testBinary(ctx, ws, j.out, src, "verify.test", j.cfg.Tags, false)
	if err != nil || blamed != nil {
		return fileRun{failures: brokenTests(blamed)}, err
	}
	dir, err := j.packageCopy(ws)
	if err != nil {
		return fileRun{}, err
	}
	before, err := fstree.Snapshot(dir)
	if err != nil {
		return fileRun{}, err
	}
	failures, err := j.verificationRuns(ctx, bin, dir, tests, max(j.cfg.Verify, 2))
	if err != nil {
		return fileRun{}, err
	}
	if len(failures) > 0 {
		run := func(ctx context.Context, names []string, n int) (map[string]*testRuns, error) {
			return j.runProcesses(ctx, bin, dir, names, n)
		}
		writers, victims := stateSuspects(tests, failures)
		culprits, err := stateCulprits(ctx, run, namesOf(tests), writers, victims)
		if err == nil && len(culprits) == 0 {
			culprits, err = interferers(ctx, run, namesOf(tests), failures)
		}
		return fileRun{failures: failures, culprits: culprits}, err
	}
	// A test that leaves files in the package directory would leave
	// them in the user's tree under go test: it is dropped. So are the
	// tests whose state breaks the package's own tests.
	if litter, err := j.fileLitterers(ctx, bin, dir, before, tests); err != nil || len(litter) > 0 {
		return fileRun{failures: brokenTests(nameSet(litter))}, err
	}
	if culprits, err := j.suiteCulprits(ctx, bin, dir, tests); err != nil || len(culprits) > 0 {
		return fileRun{failures: brokenTests(nameSet(culprits)), culprits: culprits}, err
	}
	// A test that fails under the race detector fails as a whole: it is
	// dropped, not repaired.
	if failed, err := j.raceRun(ctx, ws, src, dir, tests); err != nil || len(failed) > 0 {
		return fileRun{failures: brokenTests(failed)}, err
	}
	overlay, err := ws.OverlayFile()
	if err != nil {
		return fileRun{}, err
	}
	vetted, err := j.vet(ctx, src, overlay)
	if err != nil {
		return fileRun{}, err
	}
	return fileRun{failures: brokenTests(vetted)}, nil
}

// nameSet makes a set of names.
func nameSet(names []string) map[string]bool {
	set := map[string]bool{}
	for _, n := range names {
		set[n] = true
	}
	return set
}

// brokenTests makes the failures of blamed tests: all broken.
func brokenTests(blamed map[string]bool) map[string]*failure {
	if blamed == nil {
		return nil
	}
	failures := map[string]*failure{}
	for name := range blamed {
		failures[name] = &failure{broken: true}
	}
	return failures
}

// testBinary builds the test binary of R's package, with the file path
// holding src (through an overlay of that file only, in workspace ws), as
// the file name in the workspace, with the build tags and, if race is
// set, the race detector. When the build fails in src, it returns the
// tests of src the errors point into instead; a build that fails
// elsewhere is an error.
func (j *job) testBinary(ctx context.Context, ws *probe.Workspace, path string, src []byte, name string, tags []string, race bool) (string, map[string]bool, error) {
	a := j.a
	if err := ws.Set(path, src); err != nil {
		return "", nil, err
	}
	overlay, err := ws.OverlayFile()
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(ws.Dir, name)
	buildOut, err := gotest.Build(ctx, gotest.BuildOptions{Dir: a.Prog.Dir, Package: a.Caller.Pkg.Path, Binary: bin, Overlay: overlay, Tags: tags, Race: race})
	if ctx.Err() != nil {
		return "", nil, ctx.Err()
	}
	j.debug(buildOut)
	if err != nil {
		lines := strings.Split(string(buildOut), "\n")
		blamed := blame(src, path, lines)
		if len(blamed) == 0 {
			if !strings.Contains(string(buildOut), filepath.Base(path)+":") {
				// Nothing points into the generated file: the package's
				// own test files do not build, with or without it.
				return "", nil, &Error{Msg: fmt.Sprintf("the tests of %s do not build, and cling's tests build with them: %s", a.Caller.Pkg.Path, firstLine(lines))}
			}
			return "", nil, &Error{Msg: "the generated tests do not build: " + firstLine(lines)}
		}
		return "", blamed, nil
	}
	return bin, nil, nil
}

// packageCopy copies R's package directory into the workspace, where the
// test binaries run, and returns the copy's path.
func (j *job) packageCopy(ws *probe.Workspace) (string, error) {
	dir := filepath.Join(ws.Dir, "pkg")
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	return dir, fstree.CopyPackage(j.a.Caller.Pkg.Dir, dir)
}

// verificationRuns runs the tests count times each and returns how they
// failed. The runs are split: the first half or more in one process, so
// that a test that breaks a later one by the state it leaves fails; the
// others with each test alone in a process of its own, as go test -run
// runs it, so that values that differ between processes fail too, and so
// does a test that passes only after another changed package state.
func (j *job) verificationRuns(ctx context.Context, bin, dir string, tests []namedTest, count int) (map[string]*failure, error) {
	failures := map[string]*failure{}
	if err := j.runTests(ctx, bin, dir, tests, count-count/2, failures); err != nil {
		return nil, err
	}
	// The processes of single tests mostly start and stop: they run a
	// few at a time.
	alone := make([]map[string]*failure, len(tests))
	errs := make([]error, len(tests))
	parallel.Each(len(tests), parallel.CommandWidth(), func(i int) {
		alone[i] = map[string]*failure{}
		errs[i] = j.runTestsWith(ctx, bin, dir, tests[i:i+1], count/2, processOptions{alone: true}, alone[i])
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i, t := range tests {
		f := alone[i][t.Name]
		if f == nil {
			continue
		}
		if g := failures[t.Name]; g != nil {
			g.lines = append(g.lines, f.lines...)
			g.broken = g.broken || f.broken
			continue
		}
		failures[t.Name] = f
	}
	return failures, nil
}

// runTests runs the tests n times each in one process of the test binary
// and adds how they failed to failures. A test that ends the process (a
// panic in a test, a fatal runtime error, the binary's timeout) is
// broken, and the tests that had not run n times yet run again in a new
// process, so that one such test does not cost the others.
func (j *job) runTests(ctx context.Context, bin, dir string, tests []namedTest, n int, failures map[string]*failure) error {
	return j.runTestsWith(ctx, bin, dir, tests, n, processOptions{}, failures)
}

// runTestsWith is runTests with options for the processes.
func (j *job) runTestsWith(ctx context.Context, bin, dir string, tests []namedTest, n int, opt processOptions, failures map[string]*failure) error {
	runs, err := j.runProcessesWith(ctx, bin, dir, namesOf(tests), n, opt)
	if err != nil {
		return err
	}
	base := filepath.Base(j.out)
	for _, t := range tests {
		r := runs[t.Name]
		if r == nil || r.fails == 0 {
			continue
		}
		f := failures[t.Name]
		if f == nil {
			f = &failure{}
			failures[t.Name] = f
		}
		f.broken = f.broken || r.broken
		for _, out := range r.failures {
			lines := failureLines(out, base)
			f.lines = append(f.lines, lines...)
			f.broken = f.broken || len(lines) == 0
		}
	}
	return nil
}

// testRuns is what the runs of one test showed: how many failed (or never
// ended: the process died while it ran) and passed, the output of each
// run that failed, and whether one did not run to its end (it never
// ended, the process died outside any test, or a subtest failed).
type testRuns struct {
	fails, passes int
	failures      []string
	broken        bool
	// elapsed is how long the test's last run that passed took.
	elapsed time.Duration
}

// runProcesses runs the named tests n times each in processes of the
// test binary bin, in directory dir: one process, and after a process
// that ended early (a test that ended it) another for the tests that had
// not run n times yet. It returns what the runs of each test showed. When
// a process dies outside any test, every test still to run fails.
func (j *job) runProcesses(ctx context.Context, bin, dir string, names []string, n int) (map[string]*testRuns, error) {
	return j.runProcessesWith(ctx, bin, dir, names, n, processOptions{})
}

// processOptions change how runProcessesWith runs the processes.
type processOptions struct {
	// budget, when positive, bounds the processes' run times: the
	// binary's timeout is the time left of it, the test running when it
	// passes fails as one that ended the process, and no process starts
	// with less than minProcessTime left, so tests it did not reach
	// neither pass nor fail.
	budget time.Duration
	// alone runs a single test: the binary runs without go tool
	// test2json (whose go command costs more than a short test), and the
	// end of its output is the test's.
	alone bool
}

// minProcessTime is the least time left of a budget for which
// runProcessesWith starts another process.
const minProcessTime = time.Second

// runProcessesWith is runProcesses with options.
func (j *job) runProcessesWith(ctx context.Context, bin, dir string, names []string, n int, opt processOptions) (map[string]*testRuns, error) {
	runs := map[string]*testRuns{}
	for _, name := range names {
		runs[name] = &testRuns{}
	}
	if opt.alone && len(names) != 1 {
		return nil, fmt.Errorf("running %d tests alone", len(names))
	}
	budget := opt.budget
	deadline := time.Now().Add(budget)
	pending := names
	for len(pending) > 0 {
		// Every test passed the executor's timeout twice already; the
		// binary's timeout only guards against one that now hangs. The
		// binary runs under go tool test2json, whose whole output goes
		// to the debug writer.
		timeout := max(2*time.Minute, time.Duration(n*len(pending))*j.cfg.Timeout/4)
		if budget > 0 {
			left := time.Until(deadline)
			if left < minProcessTime {
				break
			}
			timeout = min(timeout, left)
		}
		out, err := gotest.Run(ctx, gotest.RunOptions{
			Binary:    bin,
			Dir:       dir,
			Run:       gotest.RunPattern(pending),
			Count:     n,
			Timeout:   timeout,
			Test2JSON: !opt.alone,
		})
		if err != nil {
			return nil, err
		}
		if opt.alone {
			out.Output = []byte(out.Tail)
			for _, t := range out.Tests {
				t.Output = out.Tail
			}
		}
		j.debug(out.Output)
		// A test fails when it or one of its subtests reported a
		// failure, or when it never ended: the process died while it ran.
		anyFailed := false
		for _, t := range out.Tests {
			r := runs[t.Name]
			if r == nil {
				continue
			}
			if t.Fails > 0 || t.SubtestFails > 0 || t.Running {
				r.fails += max(t.Fails, 1)
				r.failures = append(r.failures, t.Output)
				r.broken = r.broken || t.Running || t.SubtestFails > 0
				anyFailed = true
			}
			r.passes += t.Passes + t.Skips
			if t.Last == "pass" {
				r.elapsed = t.Elapsed
			}
		}
		if out.Err == nil {
			break
		}
		if !anyFailed {
			// The process died outside any test: blame every test.
			text := gotest.Text(out.Output)
			for _, name := range pending {
				runs[name].fails++
				runs[name].failures = append(runs[name].failures, text)
				runs[name].broken = true
			}
			break
		}
		var again []string
		for _, name := range pending {
			if r := runs[name]; r.fails == 0 && r.passes < n {
				again = append(again, name)
			}
		}
		pending = again
	}
	return runs, nil
}

// failureLine is how the testing package starts a message a top-level
// test logs: four spaces, the file's base name and the line that logged
// it. The message's further lines are indented more.
var failureLine = regexp.MustCompile(`(?m)^ {4}([^\s:]+\.go):(\d+): `)

// failureLines returns the lines of the file named base that the messages
// of a test's output were logged at, in order; messages of other files
// and the lines of stack traces do not count.
func failureLines(output, base string) []int {
	var lines []int
	for _, m := range failureLine.FindAllStringSubmatch(output, -1) {
		if m[1] != base {
			continue
		}
		if n, err := strconv.Atoi(m[2]); err == nil {
			lines = append(lines, n)
		}
	}
	return lines
}

// vet runs go vet on the caller package with the generated file (src,
// through overlay) and blames the tests its findings in that file point
// into.
func (j *job) vet(ctx context.Context, src []byte, overlay string) (map[string]bool, error) {
	a := j.a
	args := []string{"vet", "-overlay", overlay}
	if len(j.cfg.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(j.cfg.Tags, ","))
	}
	args = append(args, a.Caller.Pkg.Path)
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = a.Prog.Dir
	output, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	j.debug(output)
	return blame(src, j.out, strings.Split(string(output), "\n")), nil
}

// debug writes the output of a go command to the configuration's Debug
// writer, if set.
func (j *job) debug(output []byte) {
	if j.cfg.Debug != nil {
		j.cfg.Debug.Write(output)
	}
}

// blame maps error lines that point into the generated file to the test
// functions containing them.
func blame(src []byte, out string, lines []string) map[string]bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, out, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	type span struct {
		name     string
		from, to int
	}
	var spans []span
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "Test") {
			spans = append(spans, span{fd.Name.Name, fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line})
		}
	}
	base := filepath.Base(out)
	re := regexp.MustCompile(regexp.QuoteMeta(base) + `:(\d+)(:\d+)?`)
	blamed := map[string]bool{}
	for _, l := range lines {
		for _, m := range re.FindAllStringSubmatch(l, -1) {
			line, _ := strconv.Atoi(m[1])
			for _, s := range spans {
				if line >= s.from && line <= s.to {
					blamed[s.name] = true
				}
			}
		}
	}
	return blamed
}

// firstLine is the first line of a go command's output that is an
// error, not a package header or a FAIL line.
func firstLine(lines []string) string {
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "FAIL") {
			return l
		}
	}
	return "unknown error"
}

// measure runs the file's tests in fresh processes of their own, once
// each, in a temporary copy of the package directory, and returns the
// median of their run time and allocations.
func (j *job) measure(ctx context.Context, processes int) (*suitecost.Cost, error) {
	work, err := os.MkdirTemp("", "cling-cost.")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	dir := filepath.Join(work, "pkg")
	if err := fstree.CopyPackage(j.a.Caller.Pkg.Dir, dir); err != nil {
		return nil, err
	}
	s := suitecost.Suite{Dir: j.a.Prog.Dir, Package: j.a.Caller.Pkg.Path, File: j.out, Src: j.src, Tags: j.cfg.Tags}
	return suitecost.Measure(ctx, s, work, dir, processes, 1)
}
