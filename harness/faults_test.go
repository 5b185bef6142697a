package harness_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
	"github.com/cling-go/cling/testcase/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A panic says whether its value is a runtime error, and its type; a
// panic, a hang and a crash come with their stack, from where it happened
// to the test's call; a test whose goroutine outlives it comes with that
// goroutine's stack. Only tests that passed or panicked explicitly, and
// leaked nothing, may stand in a regression test.
func TestFaultEvidence(t *testing.T) {
	v := setup(t, "faults", "./catalog", "./store")
	s := testscript.New(t, v.c)
	newCatalog := testscript.Call("catalog.New", "shop", 2)
	cat := testscript.Result{}
	tests := []*testcase.Test{
		s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Pick", cat, 0)),
		s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Feature", cat, "new")),
		s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Restock", cat, "tea", "many")),
		s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Announce", cat, 200)),
		s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Announce", cat, 1)),
		s.Test(testscript.Call("catalog.Difficulty", 0)),
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
	assert.Contains(t, res[0].Stack, "/store/store.go:47\n", "the line that raised the panic")
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

// The values a test makes whose type has a release method are released
// at its end, the last made first, and the observations say which: a feed
// the test did not close leaks nothing, and one it closed is closed once
// more (Feed.Close may be called twice). A goroutine the code leaves
// running on its own still leaks.
func TestValuesReleasedAtTheEnd(t *testing.T) {
	v := setup(t, "faults", "./catalog", "./store")
	s := testscript.New(t, v.c)
	newCatalog := testscript.Call("catalog.New", "shop", 2)
	cat := testscript.Result{}
	follow := testscript.Call("(*catalog.Catalog).Follow", cat)
	tests := []*testcase.Test{
		s.Test(newCatalog, follow),
		s.Test(newCatalog, follow, testscript.Call("(*store.Feed).Close", testscript.Result{Step: 1})),
		s.Test(newCatalog, follow, follow, testscript.Call("(*catalog.Catalog).Announce", cat, 200)),
	}
	x := v.executor(t, 1, 300*time.Millisecond)
	res, err := x.Run(context.Background(), tests, true)
	require.NoError(t, err)
	released := func(r harness.Result) []testcase.Ref {
		var refs []testcase.Ref
		if r.Outcome == nil {
			return nil
		}
		for _, o := range r.Outcome.Observations {
			if o.Kind == testcase.ObsReleased {
				assert.True(t, o.End)
				refs = append(refs, o.Ref)
			}
		}
		return refs
	}
	feed := func(step int) testcase.Ref { return testcase.Ref{Stmt: testscript.Stmt(tests[0], step)} }
	assert.Equal(t, "", res[0].Leak)
	assert.True(t, res[0].Regression())
	assert.Equal(t, []testcase.Ref{feed(1)}, released(res[0]))
	assert.Equal(t, "", res[1].Leak)
	assert.Equal(t, []testcase.Ref{{Stmt: testscript.Stmt(tests[1], 1)}}, released(res[1]))
	assert.Equal(t, []string{"store.Publish.func1"}, fixtureFuncs(res[2].Leak))
	assert.Equal(t, []testcase.Ref{{Stmt: testscript.Stmt(tests[2], 2)}, {Stmt: testscript.Stmt(tests[2], 1)}}, released(res[2]))
}
