package mosa

import (
	"context"
	"testing"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ending is an evaluator whose tests cover goal 0 and end as their
// script says.
type ending struct {
	script map[*testcase.Test]harness.Result
}

func (e *ending) Run(_ context.Context, tests []*testcase.Test, _ bool) ([]harness.Result, error) {
	out := make([]harness.Result, len(tests))
	for i, t := range tests {
		out[i] = e.script[t]
		out[i].Trace = &rt.Trace{Covered: []int32{0}}
	}
	return out, nil
}

// The watcher sees the first execution of every test. A test whose call
// panicked with a runtime error, or that leaked a goroutine, covers its
// goals but never enters the archive: it is a fault to report, not
// behaviour to pin; an explicit panic does.
func TestWatchSeesEveryTestAndFaultsStayOut(t *testing.T) {
	runtimeErr, leaky, explicit := testOfLen(1), testOfLen(2), testOfLen(3)
	ev := &ending{script: map[*testcase.Test]harness.Result{
		runtimeErr: {Status: harness.Panicked, RuntimeError: true},
		leaky:      {Status: harness.Passed, Leak: "example.com/m/e.F.func1 /m/e/e.go:3\n"},
		explicit:   {Status: harness.Panicked},
	}}
	var watched []*testcase.Test
	e := &Engine{Exec: ev, Goals: 1, Watch: func(ts []*testcase.Test, res []harness.Result) {
		require.Len(t, res, len(ts))
		watched = append(watched, ts...)
	}}
	e.begin("test")
	ctx := context.Background()
	_, err := e.Evaluate(ctx, []*testcase.Test{runtimeErr, leaky})
	require.NoError(t, err)
	assert.False(t, e.archive.Covered(0))
	_, err = e.Evaluate(ctx, []*testcase.Test{explicit})
	require.NoError(t, err)
	assert.True(t, e.archive.Covered(0))
	assert.Equal(t, []*testcase.Test{runtimeErr, leaky, explicit}, watched, "first executions only, not the confirmation runs")
}

// A goal held open stays an objective once covered, and the search does
// not end for covering every goal while one is open.
func TestOpenGoalsStayObjectives(t *testing.T) {
	open := map[int32]bool{}
	e := &Engine{Exec: &exploring{}, Goals: 1, Open: func(g int32) bool { return open[g] }}
	e.begin("test")
	ctx := context.Background()
	_, err := e.Evaluate(ctx, []*testcase.Test{testOfLen(1)})
	require.NoError(t, err)
	assert.Empty(t, e.Uncovered())
	assert.True(t, e.Done(ctx))
	open[0] = true
	assert.Equal(t, []int32{0}, e.Uncovered())
	assert.False(t, e.Done(ctx))
}
