package mosa

import (
	"runtime"
	"testing"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/probe/rt"
	"github.com/stretchr/testify/assert"
)

// forking are objectives whose value is the number of goals a trace
// covers plus a tenth of the goal's number; they record their forks and
// the traces joined.
type forking struct {
	forks  int
	joined []*rt.Trace
}

func (f *forking) Evaluate(tr *rt.Trace, goals []int32, out []float64) {
	for i, g := range goals {
		out[i] = float64(len(tr.Covered)) + float64(g)/10
	}
}

func (f *forking) Worst() float64 { return 1e9 }

func (f *forking) EvaluateFork() func(tr *rt.Trace, goals []int32, out []float64) {
	f.forks++
	return f.Evaluate
}

func (f *forking) Join(tr *rt.Trace) { f.joined = append(f.joined, tr) }

// With two processors, a population of at least minForked tests is
// evaluated half by a fork, whose traces then join in order; a smaller
// one by the objectives alone. The values are the same.
func TestEvaluateObjectivesForks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, n := range []int{minForked - 1, 10} {
		res := make([]harness.Result, n)
		out := make([]*individual, n)
		for i := range res {
			res[i].Trace = &rt.Trace{Covered: make([]int32, i)}
			out[i] = &individual{fit: make([]float64, 2)}
		}
		f := &forking{}
		evaluateObjectives(f, res, []int32{0, 3}, out)
		for i, ind := range out {
			assert.InDeltaSlice(t, []float64{float64(i), float64(i) + 0.3}, ind.fit, 1e-12, "test %d of %d", i, n)
		}
		if n < minForked {
			assert.Zero(t, f.forks)
			assert.Empty(t, f.joined)
			continue
		}
		assert.Equal(t, 1, f.forks)
		var want []*rt.Trace
		for _, r := range res[n/2:] {
			want = append(want, r.Trace)
		}
		assert.Equal(t, want, f.joined)
	}
}
