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

// scripted is an evaluator whose tests cover, on their k-th execution,
// what their script says.
type scripted struct {
	script map[*testcase.Test]func(k int) []int32
	runs   map[*testcase.Test]int
}

func (e *scripted) Run(_ context.Context, tests []*testcase.Test, _ bool) ([]harness.Result, error) {
	out := make([]harness.Result, len(tests))
	for i, t := range tests {
		out[i] = harness.Result{Trace: &rt.Trace{Covered: e.script[t](e.runs[t])}}
		e.runs[t]++
	}
	return out, nil
}

// A test that covered a goal twice by luck leaves the archive once the
// goal proves flaky; a test that covers it every time takes its place.
func TestFlakyGoalsNeedMoreConfirmations(t *testing.T) {
	always := func(gs ...int32) func(int) []int32 { return func(int) []int32 { return gs } }
	lucky := testOfLen(2)  // covers goal 0 on its first three runs only
	flaky := testOfLen(2)  // covers goal 0 on even runs
	stable := testOfLen(3) // covers goal 0 always
	ev := &scripted{runs: map[*testcase.Test]int{}, script: map[*testcase.Test]func(int) []int32{
		lucky: func(k int) []int32 {
			if k < 1+confirmRuns {
				return []int32{0, 1}
			}
			return []int32{1}
		},
		flaky: func(k int) []int32 {
			if k%2 == 0 {
				return []int32{0}
			}
			return nil
		},
		stable: always(0),
	}}
	s := &Engine{Exec: ev, Goals: 2}
	s.begin("test")
	ctx := context.Background()

	// The lucky test is confirmed by more runs and archived.
	ev.runs[lucky]++ // its first run was the search's
	got, err := s.confirm(ctx, []*testcase.Test{lucky}, [][]int32{{0, 1}})
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{0, 1}}, got)
	s.archive.Update(lucky, got[0], 1)

	// The flaky test covers goal 0, then misses it: goal 0 is flaky, and
	// the lucky test, run again, misses it too and loses it.
	ev.runs[flaky]++
	got, err = s.confirm(ctx, []*testcase.Test{flaky}, [][]int32{{0}})
	require.NoError(t, err)
	assert.Equal(t, [][]int32{nil}, got)
	assert.True(t, s.flaky[0])
	assert.False(t, s.archive.Covered(0), "the lucky test no longer stands for goal 0")
	assert.True(t, s.archive.Covered(1), "goal 1 is not flaky")

	// The stable test covers goal 0 in every run and is confirmed.
	ev.runs[stable]++
	got, err = s.confirm(ctx, []*testcase.Test{stable}, [][]int32{{0}})
	require.NoError(t, err)
	assert.Equal(t, [][]int32{{0}}, got)
	assert.Equal(t, 1+confirmRuns+flakyConfirmations, ev.runs[stable])
}
