package harness_test

import (
	"context"
	"fmt"
	"go/types"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type env struct {
	a   *couple.Analysis
	c   *testcase.Cluster
	bin string
}

// setup analyses a fixture pair and builds its executor.
func setup(t *testing.T, fix, caller, callee string) env {
	t.Helper()
	dir := fixture.Copy(t, fix)
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	sess, err := probe.NewSession(a, probe.Search)
	require.NoError(t, err)
	t.Cleanup(func() { sess.Close() })
	c := testcase.NewCluster(a, 4)
	bin, err := harness.Build(context.Background(), sess, c, harness.BuildOptions{CacheDir: t.TempDir()})
	require.NoError(t, err)
	return env{a, c, bin}
}

func (v env) executor(t *testing.T, workers int, timeout time.Duration, extraEnv ...string) *harness.Executor {
	x := harness.NewExecutor(v.bin, harness.Options{Workers: workers, Timeout: timeout, RetryTimeouts: true, Dir: t.TempDir(), Ops: len(v.c.Ops), Env: extraEnv})
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

// The executor survives every way a test can go wrong, and the tests
// around the bad one run normally.
func TestSurvivesMisbehaviour(t *testing.T) {
	v := setup(t, "nasty", "./caller", "./callee")
	cases := []struct {
		what string
		n    int64
		want []harness.Status
		text string
	}{
		{"panic", 6, []harness.Status{harness.Panicked}, "callee: too big"},
		{"exit", 7, []harness.Status{harness.Crashed}, ""},
		{"loop", 3, []harness.Status{harness.TimedOut}, ""},
		{"deadlock", 4, []harness.Status{harness.Crashed}, ""},
		{"race", 5, []harness.Status{harness.Crashed, harness.TimedOut}, ""},
		{"recurse", 9, []harness.Status{harness.Crashed}, ""},
		{"leak", 1100, []harness.Status{harness.Passed}, ""},
		{"hoard", 10, []harness.Status{harness.Passed}, ""},
		// Slow only the first time: the retry on a fresh worker passes.
		{"slow", 3, []harness.Status{harness.Passed}, ""},
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
			assert.Contains(t, tc.want, res[1].Status)
			if tc.text != "" {
				assert.Equal(t, tc.text, res[1].PanicText)
				assert.Contains(t, res[1].Frame, "callee/callee.go")
				assert.Equal(t, 2, res[1].PanicStmt)
			}
			for _, r := range res[2:] {
				assert.Equal(t, harness.Passed, r.Status, "the executor goes on after %s", tc.what)
				assert.NotNil(t, r.Trace)
			}
			switch tc.what {
			case "loop": // started, retried on a fresh worker, restarted
				assert.Equal(t, 3, x.Stats().WorkerStarts)
				assert.Equal(t, 1, x.Stats().Timeouts)
			case "slow": // started, retried on a fresh worker
				assert.Equal(t, 2, x.Stats().WorkerStarts)
				assert.Equal(t, 0, x.Stats().Timeouts)
			}
			if tc.what == "leak" || tc.what == "hoard" {
				assert.GreaterOrEqual(t, x.Stats().WorkerStarts, 2, "the worker retired after the test")
			}
		})
	}
}

func TestNoProcessesLeftBehind(t *testing.T) {
	v := setup(t, "nasty", "./caller", "./callee")
	x := harness.NewExecutor(v.bin, harness.Options{Workers: 2, Timeout: 300 * time.Millisecond, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	tests := []*testcase.Test{doTest(t, v.c, "loop", 3), doTest(t, v.c, "leak", 10), doTest(t, v.c, "panic", 1), doTest(t, v.c, "loop", 3)}
	_, err := x.Run(context.Background(), tests, false)
	require.NoError(t, err)
	x.Close()
	out, _ := exec.Command("pgrep", "-f", v.bin).Output()
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
