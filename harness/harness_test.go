package harness_test

import (
	"context"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/harness/harnesstest"
	"github.com/cling-go/cling/harness/hrt"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type env struct {
	a   *couple.Analysis
	c   *testcase.Cluster
	exe *harness.Executable
}

// setup analyses a fixture pair and builds its executor.
func setup(t *testing.T, fix, caller, callee string, adjust ...func(*testcase.Cluster)) env {
	t.Helper()
	p := harnesstest.Build(t, fix, caller, callee, adjust...)
	return env{p.A, p.C, p.Exe}
}

// runInOneProcess clears the cluster's marks of calls that change
// package-level state, after which a worker would retire.
func runInOneProcess(c *testcase.Cluster) {
	for _, op := range c.Ops {
		op.WritesState = false
	}
}

func (v env) executor(t *testing.T, workers int, timeout time.Duration, extraEnv ...string) *harness.Executor {
	x := harness.NewExecutor(v.exe, harness.Options{Workers: workers, Timeout: timeout, Reproducible: true, Dir: t.TempDir(), Ops: len(v.c.Ops), Env: extraEnv})
	t.Cleanup(x.Close)
	return x
}

func TestRandomTestsCoverPersonCar(t *testing.T) {
	v := setup(t, "personcar", "./person", "./car")
	x := v.executor(t, 2, time.Second)
	g := testcase.NewGenerator(v.c, testcase.DefaultConfig(), 1)
	var tests []*testcase.Test
	for i := 0; i < 200; i++ {
		tc := g.RandomTest()
		require.NoError(t, tc.Valid())
		tests = append(tests, tc)
	}
	res, err := x.Run(context.Background(), tests, false)
	require.NoError(t, err)
	covered := map[int32]bool{}
	for _, r := range res {
		require.NotNil(t, r.Trace)
		for _, g := range r.Trace.Covered {
			covered[g] = true
		}
	}
	assert.Len(t, covered, len(v.a.Goals), "200 random tests cover both coupled branches")
}

// doTest builds the test caller.Do(what, n).
func doTest(t *testing.T, c *testcase.Cluster, what string, n int64) *testcase.Test {
	t.Helper()
	var do *testcase.Op
	for _, op := range c.API {
		if op.Name == "caller.Do" {
			do = op
		}
	}
	require.NotNil(t, do)
	str := c.Producers(types.Typ[types.String])[0]
	num := c.Producers(types.Typ[types.Int])[0]
	return &testcase.Test{Stmts: []testcase.Stmt{
		{Op: str, Value: what},
		{Op: num, Value: n},
		{Op: do, Args: []testcase.Ref{{Stmt: 0}, {Stmt: 1}}},
	}}
}

// The executor survives every way a test can go wrong, says what
// happened, and the tests around the bad one run normally.
func TestSurvivesMisbehaviour(t *testing.T) {
	// caller.Do may call Hoard, which keeps memory in a package-level
	// variable: the worker would retire after every test. The counts of
	// worker starts below are those of the misbehaviour alone.
	v := setup(t, "nasty", "./caller", "./callee", runInOneProcess)
	cases := []struct {
		what    string
		n       int64
		want    []harness.Status
		message string
		frame   string // a suffix of the frame's function
		// starts is the number of worker processes started (the first
		// and the spare, and any replacement with its new spare), or -1
		// where it depends on timing.
		starts int
	}{
		{"panic", 6, []harness.Status{harness.Panicked}, "callee: too big", "callee.Panic", 2},
		{"exit", 7, []harness.Status{harness.Exited}, "exit status 3", "callee.Exit", 2},
		// A goroutine asleep in a loop reaches no probe: it times out (and
		// once more, on a fresh worker), and each time its worker retires.
		{"loop", 3, []harness.Status{harness.TimedOut}, "", "callee.Loop", 3},
		{"deadlock", 4, []harness.Status{harness.TimedOut}, "blocked for ever: chan receive (nil chan)", "callee.Deadlock", 2},
		{"race", 5, []harness.Status{harness.Crashed, harness.TimedOut}, "", "", -1},
		// A runaway recursion stops at the stack bound: a crash the worker
		// survives. In a goroutine of its own, that goroutine blocks for
		// ever, and so does the test's, which waits for it on a channel
		// nothing else can reach: the garbage collector finds it leaked,
		// and the worker goes on.
		{"recurse", 9, []harness.Status{harness.Crashed}, harness.StackOverflow, "callee.Recurse", 2},
		{"recurse-go", 9, []harness.Status{harness.Crashed}, harness.StackOverflow, "callee.Recurse", 2},
		{"leak", 1100, []harness.Status{harness.Passed}, "", "", 3},
		{"hoard", 10, []harness.Status{harness.Passed}, "", "", 3},
		// Slow only the first time: the retry passes.
		{"slow", 3, []harness.Status{harness.Passed}, "", "", -1},
	}
	for _, tc := range cases {
		t.Run(tc.what, func(t *testing.T) {
			x := v.executor(t, 1, 2*time.Second, "CLING_EXECUTOR_MAX_HEAP=8388608")
			tests := []*testcase.Test{
				doTest(t, v.c, "panic", 1),
				doTest(t, v.c, tc.what, tc.n),
				doTest(t, v.c, "panic", 2),
				doTest(t, v.c, "leak", 0),
			}
			res, err := x.Run(context.Background(), tests, false)
			require.NoError(t, err)
			assert.Equal(t, harness.Passed, res[0].Status)
			assert.Contains(t, tc.want, res[1].Status, "%+v", res[1])
			if tc.message != "" {
				assert.Equal(t, tc.message, res[1].Message)
			}
			if tc.frame != "" {
				assert.Contains(t, res[1].Frame, "callee/callee.go")
				assert.True(t, strings.HasSuffix(res[1].Frame, tc.frame), res[1].Frame)
				assert.Equal(t, 2, res[1].Stmt)
			}
			for _, r := range res[2:] {
				assert.Equal(t, harness.Passed, r.Status, "the executor goes on after %s", tc.what)
				assert.NotNil(t, r.Trace)
			}
			if tc.starts >= 0 {
				assert.Equal(t, tc.starts, x.Stats().WorkerStarts)
			}
		})
	}
}

func TestNoProcessesLeftBehind(t *testing.T) {
	v := setup(t, "nasty", "./caller", "./callee")
	x := harness.NewExecutor(v.exe, harness.Options{Workers: 2, Timeout: 300 * time.Millisecond, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	tests := []*testcase.Test{doTest(t, v.c, "loop", 3), doTest(t, v.c, "leak", 10), doTest(t, v.c, "panic", 1), doTest(t, v.c, "loop", 3)}
	_, err := x.Run(context.Background(), tests, false)
	require.NoError(t, err)
	x.Close()
	out, _ := exec.Command("pgrep", "-f", v.exe.Path).Output()
	assert.Empty(t, strings.TrimSpace(string(out)), "executor processes still running")
}

// Results do not depend on how many workers run the tests.
func TestResultsIndependentOfWorkers(t *testing.T) {
	v := setup(t, "shop", "./checkout", "./pricing")
	g := testcase.NewGenerator(v.c, testcase.DefaultConfig(), 7)
	var tests []*testcase.Test
	for i := 0; i < 300; i++ {
		tests = append(tests, g.RandomTest())
	}
	one, err := v.executor(t, 1, time.Second).Run(context.Background(), tests, true)
	require.NoError(t, err)
	two, err := v.executor(t, 2, time.Second).Run(context.Background(), tests, true)
	require.NoError(t, err)
	require.Len(t, two, len(one))
	for i := range one {
		assert.Equal(t, one[i].Status, two[i].Status)
		assert.Equal(t, one[i].Trace, two[i].Trace, "test %d", i)
		assert.Equal(t, one[i].Outcome, two[i].Outcome, "test %d", i)
	}
}

// At the end of a test, the fields of values the test set up itself are
// observed only where the code under test changed them.
func TestEndObservationsSkipFieldsAsSetUp(t *testing.T) {
	v := setup(t, "personcar", "./person", "./car")
	x := v.executor(t, 1, time.Second)
	op := func(name string) *testcase.Op {
		for _, o := range v.c.Ops {
			if o.Name == name {
				return o
			}
		}
		t.Fatalf("no op %q", name)
		return nil
	}
	num := v.c.Producers(types.Typ[types.Int])[0]
	boolean := v.c.Producers(types.Typ[types.Bool])[0]
	drive := op("(*person.Person).DriveToHome")
	stmts := func(fuel, setTo int64) []testcase.Stmt {
		s := []testcase.Stmt{
			{Op: num, Value: fuel},
			{Op: op("&{} car.Car"), Args: []testcase.Ref{{Stmt: 0}}},
			{Op: boolean, Value: false},
			{Op: op("&{} person.Person"), Args: []testcase.Ref{{Stmt: 1}, {Stmt: 2}}},
		}
		if setTo >= 0 {
			s = append(s, testcase.Stmt{Op: num, Value: setTo},
				testcase.Stmt{Op: op("*car.Car.FuelAmount ="), Args: []testcase.Ref{{Stmt: 1}, {Stmt: 4}}})
		}
		return append(s, testcase.Stmt{Op: drive, Args: []testcase.Ref{{Stmt: 3}}})
	}
	tests := []*testcase.Test{
		{Stmts: stmts(10, -1)},  // refuelled to 100
		{Stmts: stmts(100, -1)}, // driven: 90
		{Stmts: stmts(100, 30)}, // set to 30, refuelled to 100
	}
	res, err := x.Run(context.Background(), tests, true)
	require.NoError(t, err)
	endObs := func(r harness.Result) []string {
		var out []string
		for _, o := range r.Outcome.Observations {
			if o.End {
				out = append(out, fmt.Sprintf("%d%s=%s", o.Ref.Stmt, o.Path, o.Text))
			}
		}
		return out
	}
	assert.Equal(t, []string{"1.FuelAmount=100"}, endObs(res[0]), "the person's fields are as set up")
	assert.Equal(t, []string{"1.FuelAmount=90"}, endObs(res[1]))
	assert.Equal(t, []string{"1.FuelAmount=100"}, endObs(res[2]))
}

// A []byte literal is exactly as long as in the written test, whose
// []byte("...") has no spare capacity; converting a string at run time
// would round the capacity up to the allocator's size class.
func TestByteSliceLiteralsHaveNoSpareCapacity(t *testing.T) {
	v := setup(t, "nasty", "./caller", "./callee")
	x := v.executor(t, 1, time.Second)
	ops := map[string]*testcase.Op{}
	for _, op := range v.c.API {
		ops[op.Name] = op
	}
	for _, tc := range []struct {
		call  string
		param types.Type
	}{
		{"caller.Cap", types.NewSlice(types.Typ[types.Byte])},
		{"caller.ProgramCap", ops["caller.ProgramCap"].Params[0]},
	} {
		t.Run(tc.call, func(t *testing.T) {
			call := ops[tc.call]
			require.NotNil(t, call)
			bytesOp := v.c.Producers(tc.param)[0]
			require.Equal(t, testcase.OpPrim, bytesOp.Kind)
			var tests []*testcase.Test
			for _, s := range []string{"", "g", "hello"} {
				tests = append(tests, &testcase.Test{Stmts: []testcase.Stmt{
					{Op: bytesOp, Value: s},
					{Op: call, Args: []testcase.Ref{{Stmt: 0}}},
				}})
			}
			res, err := x.Run(context.Background(), tests, true)
			require.NoError(t, err)
			for i, want := range []string{"0", "1", "5"} {
				var got []string
				for _, o := range res[i].Outcome.Observations {
					if o.Ref.Stmt == 1 && !o.End {
						got = append(got, o.Text)
					}
				}
				assert.Equal(t, []string{want}, got, "test %d", i)
			}
		})
	}
}

// hostileTest builds the test (&caller.Machine{}).Run(mode, n) of the
// hostile fixture.
func hostileTest(t *testing.T, c *testcase.Cluster, mode, n int64) *testcase.Test {
	t.Helper()
	ops := map[string]*testcase.Op{}
	for _, op := range c.Ops {
		ops[op.Name] = op
	}
	run, machine := ops["(*caller.Machine).Run"], ops["&{} caller.Machine"]
	require.NotNil(t, run)
	require.NotNil(t, machine)
	num := c.Producers(types.Typ[types.Int])[0]
	fields := make([]testcase.Ref, len(machine.Fields))
	for i := range fields {
		fields[i] = testcase.Omitted
	}
	return &testcase.Test{Stmts: []testcase.Stmt{
		{Op: machine, Args: fields},
		{Op: num, Value: mode},
		{Op: num, Value: n},
		{Op: run, Args: []testcase.Ref{{Stmt: 0}, {Stmt: 1}, {Stmt: 2}}},
	}}
}

// Each misbehaviour of the hostile callee ends its test, not the worker,
// except the race on a map, which ends the runtime (see TestHostileRace); the result says what happened and
// where, and the counters count it. In the search (Explore, without
// Reproducible) a test that runs past the adaptive limit is cut, and
// that is not a hang.
func TestHostileOutcomes(t *testing.T) {
	v := setup(t, "hostile", "./caller", "./callee")
	x := harness.NewExecutor(v.exe, harness.Options{Workers: 1, Timeout: 10 * time.Second, CutFloor: 200 * time.Millisecond, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	t.Cleanup(x.Close)
	cases := []struct {
		mode    int64
		status  harness.Status
		message string
		frame   string // a suffix of the frame's function
		code    int
	}{
		{0, harness.Passed, "", "", 0},
		{1, harness.Panicked, "callee: step 5 failed", "callee.Step", 0},
		{2, harness.Exited, "exit status 3", "callee.Step", 3},
		{3, harness.Exited, "exit status 1: callee: step 5 is fatal", "callee.Step", 1},
		// The state of a spinning goroutine (running, runnable) depends on
		// the moment.
		{4, harness.Cut, "", "callee.spin", 0},
		{5, harness.TimedOut, "blocked for ever: select (no cases)", "callee.Step", 0},
		{6, harness.Crashed, harness.StackOverflow, "callee.recurse", 0},
		{8, harness.Exited, "runtime.Goexit called", "callee.Step", 0},
		// Through a package outside R and E that keeps os.Exit in a
		// variable.
		{9, harness.Exited, "exit status 4", "callee.Step", 4},
		// A goroutine of the callee panics, after its deferred Done let
		// the test's goroutine end.
		{10, harness.Crashed, "panic: callee: worker of step 5 failed", "callee.worker.func1", 0},
		// The same from a method that a go statement starts.
		{13, harness.Crashed, "panic: callee: job of step 5 failed", "callee.(*job).run", 0},
	}
	var tests []*testcase.Test
	for _, tc := range cases {
		tests = append(tests, hostileTest(t, v.c, tc.mode, 5), hostileTest(t, v.c, 0, 5))
	}
	res, err := x.Explore(context.Background(), tests)
	require.NoError(t, err)
	for i, tc := range cases {
		r := res[2*i]
		assert.Equal(t, tc.status, r.Status, "mode %d: %+v", tc.mode, r)
		if tc.message != "" {
			assert.Equal(t, tc.message, r.Message, "mode %d", tc.mode)
		}
		assert.Equal(t, tc.code, r.ExitCode, "mode %d", tc.mode)
		assert.Equal(t, tc.mode == 8, r.Goexit, "mode %d", tc.mode)
		assert.Equal(t, tc.mode == 6 || tc.mode == 10 || tc.mode == 13, r.WorkerSurvived, "mode %d", tc.mode)
		if tc.mode == 6 {
			// Thousands of frames deep: the innermost and the outermost
			// frames of the code under test.
			lines := strings.Split(strings.TrimSuffix(r.Stack, "\n"), "\n")
			require.Len(t, lines, 64)
			assert.Contains(t, lines[0], "hostile/callee.recurse ")
			assert.Contains(t, lines[61], "hostile/callee.recurse ")
			assert.Contains(t, lines[62], "hostile/callee.Step ")
			assert.Contains(t, lines[63], "hostile/caller.(*Machine).Run ")
		}
		if tc.frame != "" {
			assert.True(t, strings.HasSuffix(r.Frame, tc.frame), "mode %d: frame %q", tc.mode, r.Frame)
			assert.Contains(t, r.Frame, "callee/callee.go:", "mode %d", tc.mode)
			assert.Equal(t, 3, r.Stmt, "mode %d", tc.mode)
		}
		assert.Equal(t, tc.status == harness.Passed || tc.status == harness.Panicked, r.Trace != nil, "mode %d: a trace only for tests that ended as a written test would", tc.mode)
		assert.Equal(t, harness.Passed, res[2*i+1].Status, "the test after mode %d", tc.mode)
		assert.NotNil(t, res[2*i+1].Trace)
	}
	st := x.Stats()
	assert.Equal(t, len(tests), st.Executions)
	assert.Equal(t, 1, st.Panics)
	assert.Equal(t, 4, st.Exits)
	assert.Equal(t, 3, st.ConvertedExits, "os.Exit, log.Fatalf and quit.With")
	assert.Equal(t, 1, st.Cuts)
	assert.Equal(t, 1, st.Hangs, "select{} only: a cut is no hang")
	assert.Equal(t, 0, st.Crashes, "the stack overflow stops at the bound")
	assert.Equal(t, 1, st.StackOverflows)
	assert.Equal(t, 2, st.GoroutinePanics)
	// The first worker and its spare. The spinning goroutine ends at its
	// next probe, unless the machine is too busy to run it within the
	// grace the worker gives it: then the worker retires, and the spare
	// takes over while a new one starts.
	assert.LessOrEqual(t, st.Retirements, 1)
	assert.Equal(t, st.Retirements, st.Handovers)
	assert.Equal(t, 2+st.Retirements, st.WorkerStarts)
}

// A race on a map usually ends the runtime; whatever happens, the worker
// goes on.
func TestHostileRace(t *testing.T) {
	v := setup(t, "hostile", "./caller", "./callee")
	x := harness.NewExecutor(v.exe, harness.Options{Workers: 1, Timeout: 10 * time.Second, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	t.Cleanup(x.Close)
	res, err := x.Explore(context.Background(), []*testcase.Test{hostileTest(t, v.c, 7, 5), hostileTest(t, v.c, 0, 5)})
	require.NoError(t, err)
	assert.Contains(t, []harness.Status{harness.Crashed, harness.Cut, harness.Passed}, res[0].Status)
	if res[0].Status == harness.Crashed {
		assert.Equal(t, "fatal error: concurrent map writes", res[0].Message)
	}
	assert.Equal(t, harness.Passed, res[1].Status)
}

// With Reproducible, the search waits for a slow test up to the full
// timeout and runs a test that timed out once more: results do not depend
// on the machine's speed. A test blocked for ever is known at once. The
// only cut is by steps: a busy loop of the callee stops at the step cut
// (8 blocks of 65,536 outcomes before 32 tests have ended), whatever the
// machine's speed, and Run, which confirms hangs, stops it at the
// timeout's step bound instead.
func TestReproducibleCutsOnlyBySteps(t *testing.T) {
	v := setup(t, "hostile", "./caller", "./callee")
	x := harness.NewExecutor(v.exe, harness.Options{Workers: 1, Timeout: 300 * time.Millisecond, CutFloor: time.Millisecond, Reproducible: true, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	t.Cleanup(x.Close)
	spin := hostileTest(t, v.c, 4, 5)
	res, err := x.Explore(context.Background(), []*testcase.Test{spin, hostileTest(t, v.c, 5, 5), hostileTest(t, v.c, 0, 5)})
	require.NoError(t, err)
	assert.Equal(t, []harness.Status{harness.Cut, harness.TimedOut, harness.Passed}, []harness.Status{res[0].Status, res[1].Status, res[2].Status})
	assert.Equal(t, hrt.StepCutMessage+" (524288 branch outcomes of the caller and callee in one test)", res[0].Message)
	assert.True(t, strings.HasSuffix(res[0].Frame, "callee.spin"), res[0].Frame)
	assert.Equal(t, "blocked for ever: select (no cases)", res[1].Message)
	// The busy loop ends at the step bound (0.3 s of timeout: 2,516,582
	// branch outcomes) when the run confirms the hang.
	res, err = x.Run(context.Background(), []*testcase.Test{spin}, false)
	require.NoError(t, err)
	assert.Equal(t, harness.TimedOut, res[0].Status)
	assert.Equal(t, hrt.StepBoundMessage+" (2516582 branch outcomes of the caller and callee in one test)", res[0].Message)
	st := x.Stats()
	assert.Equal(t, []int{1, 1, 2, 1}, []int{st.Cuts, st.StepCuts, st.Hangs, st.StepBounds})
}

// Exits cost no worker. Tests left blocked for ever stay behind in their
// worker until there are too many of them: the worker then retires.
func TestExitsAndHangsKeepTheWorker(t *testing.T) {
	v := setup(t, "hostile", "./caller", "./callee")
	x := harness.NewExecutor(v.exe, harness.Options{Workers: 1, Timeout: 10 * time.Second, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	t.Cleanup(x.Close)
	var tests []*testcase.Test
	for i := 0; i < 20; i++ {
		tests = append(tests, hostileTest(t, v.c, 2, 5), hostileTest(t, v.c, 3, 5))
	}
	res, err := x.Explore(context.Background(), tests)
	require.NoError(t, err)
	for _, r := range res {
		assert.Equal(t, harness.Exited, r.Status)
	}
	// 40 exits leave 40 goroutines blocked for ever: past 32, the worker
	// retires once and its spare takes over.
	st := x.Stats()
	assert.Equal(t, 40, st.ConvertedExits)
	assert.Equal(t, 1, st.Retirements)
	assert.Equal(t, 1, st.Handovers)
	assert.Equal(t, 3, st.WorkerStarts)
}

// A request carries every test of a worker's chunk, and the results come
// back in batches: one round trip per worker and call.
func TestOneRoundTripPerChunk(t *testing.T) {
	v := setup(t, "personcar", "./person", "./car")
	g := testcase.NewGenerator(v.c, testcase.DefaultConfig(), 3)
	var tests []*testcase.Test
	for i := 0; i < 100; i++ {
		tests = append(tests, g.RandomTest())
	}
	for _, careful := range []bool{false, true} {
		x := harness.NewExecutor(v.exe, harness.Options{Workers: 2, CarefulResults: careful, Dir: t.TempDir(), Ops: len(v.c.Ops)})
		start := time.Now()
		_, err := x.Run(context.Background(), tests, false)
		wall := time.Since(start).Seconds()
		require.NoError(t, err)
		assert.Equal(t, 2, x.Stats().RoundTrips)
		assert.Equal(t, 100, x.Stats().Executions)
		// Two workers were busy for at most the batch's time each, and
		// the batch took at most the call's time.
		assert.Greater(t, x.Stats().BusySeconds, 0.0)
		assert.LessOrEqual(t, x.Stats().BatchSeconds, wall)
		assert.LessOrEqual(t, x.Stats().BusySeconds, 2*x.Stats().BatchSeconds)
		x.Close()
	}
}

// opNamed returns the cluster's op of the given name.
func opNamed(t *testing.T, c *testcase.Cluster, name string) *testcase.Op {
	t.Helper()
	op := c.OpNamed(name)
	require.NotNil(t, op, "no op %q", name)
	return op
}

// endObservations lists the observations of a result taken at the end of
// the test, as stmt path kind=text.
func endObservations(r harness.Result) []string {
	var out []string
	for _, o := range r.Outcome.Observations {
		if o.End {
			out = append(out, fmt.Sprintf("%d%s %d=%s", o.Ref.Stmt, o.Path, o.Kind, o.Text))
		}
	}
	return out
}

// A decode target (&v for a fresh v) is decoded into by the code under
// test, and what v holds at the end is observed: the fields of a declared
// struct as its tags name them, the length of a map, a basic value.
func TestDecodeTargetObserved(t *testing.T) {
	v := setup(t, "reflective", "./config", "./decode")
	x := v.executor(t, 1, time.Second)
	str := v.c.Producers(types.Typ[types.String])[0]
	load := opNamed(t, v.c, "config.Load")
	decodeInto := func(target, doc string) *testcase.Test {
		return &testcase.Test{Stmts: []testcase.Stmt{
			{Op: str, Value: doc},
			{Op: opNamed(t, v.c, target)},
			{Op: load, Args: []testcase.Ref{{Stmt: 0}, {Stmt: 1}}},
		}}
	}
	tests := []*testcase.Test{
		decodeInto("&var item1", "name=tea\ncount=3\nenabled=true\ntags=a;b"),
		decodeInto("&var map[string]int", "a=1\nb=2"),
		decodeInto("&var item2", "id=7\nnote=skipped"),
	}
	res, err := x.Run(context.Background(), tests, true)
	require.NoError(t, err)
	s, i, l := testcase.ObsString, testcase.ObsInt, testcase.ObsLen
	assert.Equal(t, []string{
		fmt.Sprintf("1.Name %d=tea", s), fmt.Sprintf("1.Count %d=3", i), fmt.Sprintf("1.Enabled %d=true", testcase.ObsBool), fmt.Sprintf("1.Tags %d=2", l), fmt.Sprintf("1.Tags %d=1:a1:b", testcase.ObsElems),
	}, endObservations(res[0]), "the fields the lines set (up to the required Attrs), not those left zero")
	assert.Equal(t, []string{fmt.Sprintf("1* %d=2", l)}, endObservations(res[1]))
	assert.Equal(t, []string{fmt.Sprintf("1.ID %d=7", i)}, endObservations(res[2]), `Note is tagged "-"`)
}

// A function literal runs as the variant its statement names, with the
// statement's constant; a sentinel error is the package's variable.
func TestFunctionLiteralsAndSentinels(t *testing.T) {
	v := setup(t, "reflective", "./notify", "./hooks")
	x := v.executor(t, 1, time.Second)
	str := v.c.Producers(types.Typ[types.String])[0]
	num := v.c.Producers(types.Typ[types.Int])[0]
	format := opNamed(t, v.c, "func func(msg string) string")
	concat := -1
	for k, fv := range format.Variants {
		if fv.Body == testcase.BodyConcat {
			concat = k
		}
	}
	require.GreaterOrEqual(t, concat, 0)
	sendFormatted := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: format, Value: testcase.FuncLit{Variant: concat, Const: "!"}},
		{Op: opNamed(t, v.c, "notify.WithFormat"), Args: []testcase.Ref{{Stmt: 0}}},
		{Op: opNamed(t, v.c, "slice []notify.Option"), Args: []testcase.Ref{{Stmt: 1}}},
		{Op: opNamed(t, v.c, "notify.New"), Args: []testcase.Ref{{Stmt: 2}}},
		{Op: num, Value: int64(1)},
		{Op: str, Value: "hi"},
		{Op: opNamed(t, v.c, "(*notify.Notifier).Send"), Args: []testcase.Ref{{Stmt: 3}, {Stmt: 4}, {Stmt: 5}}},
		{Op: opNamed(t, v.c, "(*notify.Notifier).Sent"), Args: []testcase.Ref{{Stmt: 3}}},
	}}
	handler := opNamed(t, v.c, "func func(err error) bool")
	retry := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: handler, Value: testcase.FuncLit{Variant: 1, Const: true}},
		{Op: opNamed(t, v.c, "notify.WithErrorHandler"), Args: []testcase.Ref{{Stmt: 0}}},
		{Op: opNamed(t, v.c, "slice []notify.Option"), Args: []testcase.Ref{{Stmt: 1}}},
		{Op: opNamed(t, v.c, "notify.New"), Args: []testcase.Ref{{Stmt: 2}}},
		{Op: opNamed(t, v.c, "var example.com/reflective/notify.ErrRetry")},
		{Op: opNamed(t, v.c, "(*notify.Notifier).Fail"), Args: []testcase.Ref{{Stmt: 3}, {Stmt: 4}}},
	}}
	require.NoError(t, sendFormatted.Valid())
	require.NoError(t, retry.Valid())
	require.Equal(t, testcase.BodyConst, handler.Variants[1].Body)
	res, err := x.Run(context.Background(), []*testcase.Test{sendFormatted, retry}, true)
	require.NoError(t, err)
	require.Equal(t, harness.Passed, res[0].Status, res[0].Message)
	require.Equal(t, harness.Passed, res[1].Status, res[1].Message)
	after := func(r harness.Result, stmt int) []string {
		var out []string
		for _, o := range r.Outcome.Observations {
			if o.Ref.Stmt == stmt && !o.End {
				out = append(out, fmt.Sprintf("%d=%s", o.Kind, o.Text))
			}
		}
		return out
	}
	assert.Equal(t, []string{fmt.Sprintf("%d=", testcase.ObsNoError)}, after(res[0], 6))
	assert.Equal(t, []string{fmt.Sprintf("%d=1", testcase.ObsLen), fmt.Sprintf("%d=3:hi!", testcase.ObsElems)}, after(res[0], 7), "one message sent, formatted")
	assert.Equal(t, []string{fmt.Sprintf("%d=true", testcase.ObsBool)}, after(res[1], 5), "errors.Is(err, ErrRetry), then the handler accepted it")
}

// The executor is the caller's test binary, so what the caller's test
// files set up holds in its tests as under go test: in the procstate
// fixture, describe's test file reads testdata/style and switches labels
// to the plain style. The binary runs in the directory the options name;
// where it does not start the executor there (without testdata, the init
// of the test file panics), and when asked, the executor is a plain
// program, which sees the package without its test files. Every build of
// the same inputs shares one cache entry; a new test file makes another.
func TestExecutorIsTheTestBinary(t *testing.T) {
	dir := fixture.Copy(t, "procstate")
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./describe", "./label")
	require.NoError(t, err)
	sess, err := probe.NewSession(a, probe.Search)
	require.NoError(t, err)
	t.Cleanup(func() { sess.Close() })
	c := testcase.NewCluster(a, 4)
	pkgDir := filepath.Join(t.TempDir(), "describe")
	require.NoError(t, fstree.Copy(filepath.Join(dir, "describe"), pkgDir))
	var describe *testcase.Op
	for _, op := range c.API {
		if op.Name == "describe.Describe" {
			describe = op
		}
	}
	require.NotNil(t, describe)
	test := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: c.Producers(types.Typ[types.Int])[0], Value: int64(3)},
		{Op: describe, Args: []testcase.Ref{{Stmt: 0}}},
	}}
	label := func(exe *harness.Executable) string {
		x := harness.NewExecutor(exe, harness.Options{Workers: 1, Dir: pkgDir, Ops: len(c.Ops)})
		defer x.Close()
		res, err := x.Run(context.Background(), []*testcase.Test{test}, true)
		require.NoError(t, err)
		require.Equal(t, harness.Passed, res[0].Status, res[0].Message)
		for _, o := range res[0].Outcome.Observations {
			if o.Ref == (testcase.Ref{Stmt: 1}) && o.Path == "" {
				return o.Text
			}
		}
		t.Fatalf("no observation of the label: %+v", res[0].Outcome.Observations)
		return ""
	}
	cache := t.TempDir()
	cases := []struct {
		name   string
		opts   harness.BuildOptions
		env    harness.Environment
		reason string
		label  string
	}{
		{"test binary", harness.BuildOptions{CacheDir: cache, Dir: pkgDir}, harness.TestBinary, "", "3"},
		{"no testdata", harness.BuildOptions{CacheDir: cache, Dir: t.TempDir()}, harness.PlainMain,
			"the test binary of example.com/procstate/describe did not start the executor (panic: open testdata/style: no such file or directory); does a TestMain not call m.Run?", "#3"},
		{"plain", harness.BuildOptions{CacheDir: cache, Plain: true}, harness.PlainMain, "", "#3"},
	}
	var entries []string
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			exe, err := harness.Build(context.Background(), sess, c, tc.opts)
			require.NoError(t, err)
			assert.Equal(t, tc.env, exe.Environment)
			assert.Equal(t, tc.reason, exe.PlainReason)
			assert.Equal(t, tc.label, label(exe))
			entries = append(entries, filepath.Dir(exe.Path))
		})
	}
	assert.Equal(t, []string{entries[0], entries[0], entries[0]}, entries)

	// An external test file that uses the names the executor's test file
	// would: it takes others, and the new test file makes a new entry.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "describe", "names_test.go"), []byte(
		"package describe_test\n\nimport \"testing\"\n\nvar clingexecutor = 1\n\nfunc TestClingExecutor(t *testing.T) { _ = clingexecutor }\n"), 0o644))
	exe, err := harness.Build(context.Background(), sess, c, harness.BuildOptions{CacheDir: cache, Dir: pkgDir})
	require.NoError(t, err)
	assert.Equal(t, harness.TestBinary, exe.Environment, exe.PlainReason)
	assert.Equal(t, []string{"-test.run=^TestClingExecutor1$", "-test.count=1", "-test.timeout=0"}, exe.Args)
	assert.NotEqual(t, entries[0], filepath.Dir(exe.Path))
	assert.Equal(t, "3", label(exe))
}

// A test that calls a function changing package-level state (the
// registry fixture's Register) ends its worker: the next test does not see
// the state it left, and covers what it covers on its own.
func TestStateWritersRunAlone(t *testing.T) {
	v := setup(t, "registry", "./render", "./format")
	ops := map[string]*testcase.Op{}
	for _, op := range v.c.API {
		ops[op.Name] = op
	}
	register, render := ops["render.Register"], ops["render.Render"]
	require.NotNil(t, register)
	require.NotNil(t, render)
	assert.True(t, register.WritesState)
	assert.False(t, render.WritesState)
	str := v.c.Producers(types.Typ[types.String])[0]
	call := func(ops ...*testcase.Op) *testcase.Test {
		tc := &testcase.Test{Stmts: []testcase.Stmt{{Op: str, Value: "x"}}}
		for _, op := range ops {
			tc.Stmts = append(tc.Stmts, testcase.Stmt{Op: op, Args: []testcase.Ref{{Stmt: 0}}})
		}
		return tc
	}
	x := v.executor(t, 1, time.Second)
	res, err := x.Run(context.Background(), []*testcase.Test{call(render), call(register, render), call(render)}, false)
	require.NoError(t, err)
	alone, registered, after := res[0].Trace.Covered, res[1].Trace.Covered, res[2].Trace.Covered
	assert.Len(t, alone, 1)
	assert.Len(t, registered, 1)
	assert.NotEqual(t, alone, registered, "Register changes the branch Style takes")
	assert.Equal(t, alone, after, "the test after Register's runs in a fresh process")
	assert.Equal(t, 1, x.Stats().Retirements)
}

// With CLING_EXECUTOR_CPUPROFILE, each worker writes a CPU profile of
// every second of its life, which go tool pprof reads.
func TestWorkerCPUProfile(t *testing.T) {
	v := setup(t, "hostile", "./caller", "./callee")
	prefix := filepath.Join(t.TempDir(), "worker")
	t.Setenv("CLING_EXECUTOR_CPUPROFILE", prefix)
	x := harness.NewExecutor(v.exe, harness.Options{Workers: 1, Timeout: 10 * time.Second, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	t.Cleanup(x.Close)
	deadline := time.Now().Add(1500 * time.Millisecond)
	for time.Now().Before(deadline) {
		// Run, not Explore: on a loaded machine the adaptive limit may
		// cut a test Explore runs.
		res, err := x.Run(context.Background(), []*testcase.Test{hostileTest(t, v.c, 0, 5)}, false)
		require.NoError(t, err)
		require.Equal(t, harness.Passed, res[0].Status)
	}
	// The worker's, and the warm spare's.
	files, err := filepath.Glob(prefix + ".*.0")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		info, err := os.Stat(f)
		require.NoError(t, err)
		assert.Positive(t, info.Size(), "the first second's profile of %s is complete", f)
	}
}

// The garbage collector tells a goroutine that nothing can wake (Go's
// goroutine leak profile, built into the executor): a test blocked on a
// channel it made and gave to no one is a hang known as blocked for ever,
// without waiting for the timeout, and its goroutine is parked: the next
// test runs in the same process. A goroutine a test that ended leaves
// waiting is a leak, and its worker retires as before: the collector is
// not asked there (see stopLeftovers).
func TestLeakedGoroutinesFoundByTheCollector(t *testing.T) {
	v := setup(t, "hostile", "./caller", "./callee")
	x := harness.NewExecutor(v.exe, harness.Options{Workers: 1, Timeout: 10 * time.Second, Reproducible: true, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	t.Cleanup(x.Close)
	tests := []*testcase.Test{hostileTest(t, v.c, 11, 5), hostileTest(t, v.c, 12, 5), hostileTest(t, v.c, 0, 5)}
	res, err := x.Run(context.Background(), tests, false)
	require.NoError(t, err)
	assert.Equal(t, []harness.Status{harness.TimedOut, harness.Passed, harness.Passed}, []harness.Status{res[0].Status, res[1].Status, res[2].Status})
	assert.Equal(t, "blocked for ever: chan receive (leaked)", res[0].Message)
	assert.True(t, strings.HasSuffix(res[0].Frame, "callee.await"), res[0].Frame)
	assert.Contains(t, res[1].Leak, "callee.abandon.func1")
	assert.Empty(t, res[2].Leak)
	st := x.Stats()
	assert.Equal(t, []int{1, 1, 2}, []int{st.Hangs, st.Retirements, st.WorkerStarts - 1}, "hangs, retirements, spares started")
}
