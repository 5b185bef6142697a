package harness_test

import (
	"context"
	"go/types"
	"strings"
	"testing"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// script builds tests of a cluster from the names of its operations.
type script struct {
	t   *testing.T
	c   *testcase.Cluster
	ops map[string]*testcase.Op
}

func newScript(t *testing.T, c *testcase.Cluster) *script {
	ops := map[string]*testcase.Op{}
	for _, op := range c.Ops {
		ops[op.Name] = op
	}
	return &script{t: t, c: c, ops: ops}
}

// test builds a test whose statements are calls: each step is an
// operation's name followed by its arguments, an int (a literal), a string
// (a literal) or a testcase.Ref to the result of an earlier step.
func (s *script) test(steps ...[]any) *testcase.Test {
	s.t.Helper()
	t := &testcase.Test{}
	lit := func(v any, typ types.Type) testcase.Ref {
		t.Stmts = append(t.Stmts, testcase.Stmt{Op: s.c.Producers(typ)[0], Value: v})
		return testcase.Ref{Stmt: len(t.Stmts) - 1}
	}
	at := make([]int, len(steps))
	for i, step := range steps {
		op := s.ops[step[0].(string)]
		require.NotNil(s.t, op, "no operation %s", step[0])
		var args []testcase.Ref
		for _, a := range step[1:] {
			switch v := a.(type) {
			case int:
				args = append(args, lit(int64(v), types.Typ[types.Int]))
			case string:
				args = append(args, lit(v, types.Typ[types.String]))
			case testcase.Ref:
				args = append(args, testcase.Ref{Stmt: at[v.Stmt], Result: v.Result})
			}
		}
		t.Stmts = append(t.Stmts, testcase.Stmt{Op: op, Args: args})
		at[i] = len(t.Stmts) - 1
	}
	require.NoError(s.t, t.Valid())
	return t
}

// step is one step of script.test.
func step(op string, args ...any) []any { return append([]any{op}, args...) }

// A panic says whether its value is a runtime error, and its type; a
// panic, a hang and a crash come with their stack, from where it happened
// to the test's call; a test whose goroutine outlives it comes with that
// goroutine's stack. Only tests that passed or panicked explicitly, and
// leaked nothing, may stand in a regression test.
func TestFaultEvidence(t *testing.T) {
	v := setup(t, "faults", "./catalog", "./store")
	s := newScript(t, v.c)
	newCatalog := step("catalog.New", "shop", 2)
	cat := testcase.Ref{Stmt: 0}
	tests := []*testcase.Test{
		s.test(newCatalog, step("(*catalog.Catalog).Pick", cat, 0)),
		s.test(newCatalog, step("(*catalog.Catalog).Feature", cat, "new")),
		s.test(newCatalog, step("(*catalog.Catalog).Restock", cat, "tea", "many")),
		s.test(newCatalog, step("(*catalog.Catalog).Announce", cat, 200)),
		s.test(newCatalog, step("(*catalog.Catalog).Announce", cat, 1)),
		s.test(step("catalog.Difficulty", 0)),
	}
	x := v.executor(t, 1, 300*time.Millisecond)
	res, err := x.Run(context.Background(), tests, false)
	require.NoError(t, err)

	type want struct {
		status       harness.Status
		runtimeError bool
		panicType    string
		message      string
		// stack and leak are the functions of the frames, in order, of the
		// fixture's packages.
		stack, leak []string
		regression  bool
	}
	wants := []want{
		{harness.Panicked, true, "runtime.boundsError", "runtime error: index out of range [0] with length 0",
			[]string{"store.(*Ring).Get", "catalog.(*Catalog).Pick"}, nil, false},
		{harness.Panicked, true, "runtime.plainError", "assignment to entry in nil map",
			[]string{"store.(*Index).Bump", "catalog.(*Catalog).Feature"}, nil, false},
		{harness.Panicked, false, "*errors.errorString", `store: bad quantity "many"`,
			[]string{"store.MustQuantity", "catalog.(*Catalog).Restock"}, nil, true},
		{harness.Passed, false, "", "", nil, []string{"store.Publish.func1"}, false},
		{harness.Passed, false, "", "", nil, nil, true},
		{harness.TimedOut, false, "", "", []string{"store.Steps", "catalog.Difficulty"}, nil, false},
	}
	for i, w := range wants {
		r := res[i]
		assert.Equal(t, w.status, r.Status, "test %d", i)
		assert.Equal(t, w.runtimeError, r.RuntimeError, "test %d", i)
		assert.Equal(t, w.panicType, r.PanicType, "test %d", i)
		if w.status == harness.Panicked {
			assert.Equal(t, w.message, r.Message, "test %d", i)
		}
		assert.Equal(t, w.stack, fixtureFuncs(r.Stack), "test %d: %s", i, r.Stack)
		assert.Equal(t, w.leak, fixtureFuncs(r.Leak), "test %d: %s", i, r.Leak)
		assert.Equal(t, w.regression, r.Regression(), "test %d", i)
	}
	assert.Contains(t, res[0].Stack, "/store/store.go:46\n", "the line that raised the panic")
}

// A crash comes with the stack of the goroutine that crashed.
func TestCrashStack(t *testing.T) {
	v := setup(t, "hostile", "./caller", "./callee")
	x := v.executor(t, 1, 10*time.Second)
	res, err := x.Run(context.Background(), []*testcase.Test{hostileTest(t, v.c, 6, 5)}, false)
	require.NoError(t, err)
	require.Equal(t, harness.Crashed, res[0].Status)
	funcs := fixtureFuncs(res[0].Stack)
	require.NotEmpty(t, funcs)
	assert.Equal(t, "callee.recurse", funcs[0])
	assert.Equal(t, []string{"callee.Step", "caller.(*Machine).Run"}, funcs[len(funcs)-2:], "the outermost frames are kept")
}

// fixtureFuncs lists the functions of the frames of a stack that belong
// to a fixture module (example.com/<module>/), without the module.
func fixtureFuncs(stack string) []string {
	var out []string
	for _, line := range strings.Split(stack, "\n") {
		fn, _, _ := strings.Cut(line, " ")
		if rest, ok := strings.CutPrefix(fn, "example.com/"); ok {
			_, f, _ := strings.Cut(rest, "/")
			out = append(out, f)
		}
	}
	return out
}
