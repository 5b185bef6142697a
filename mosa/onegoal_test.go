package mosa

import (
	"context"
	"testing"
	"time"

	"github.com/cling-go/cling/probe/rt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// perGoal scores every goal the same and counts, per goal, the tests it
// scored.
type perGoal struct{ scored map[int32]int }

func (p *perGoal) Evaluate(_ *rt.Trace, goals []int32, out []float64) {
	for i, g := range goals {
		out[i] = 1
		p.scored[g]++
	}
}

func (*perGoal) Worst() float64 { return 3 }

// Each goal gets an equal share of what is left of the budget, in random
// order; a goal covered by accident is skipped and its share goes to the
// goals after it.
func TestOneGoalSharesTheBudget(t *testing.T) {
	obj := &perGoal{scored: map[int32]int{}}
	e := &Engine{Exec: &covering{}, Gen: generator(t), Objectives: obj, Goals: 3, Budget: Budget{MaxEvals: 310}}
	_, st, err := e.Run(context.Background(), "onegoal", DefaultConfig())
	require.NoError(t, err)
	assert.Equal(t, 310, st.Evaluations)
	var shares []int
	for g := int32(0); g < 3; g++ {
		shares = append(shares, obj.scored[g])
	}
	assert.ElementsMatch(t, []int{103, 103, 104}, shares, "310/3, then 207/2, then 104")

	// Goal 1 is covered by the first tests evaluated: searched for at
	// most one population, and the two others share the rest.
	obj = &perGoal{scored: map[int32]int{}}
	e = &Engine{Exec: &covering{goals: []int32{1}}, Gen: generator(t), Objectives: obj, Goals: 3, Budget: Budget{MaxEvals: 300}}
	_, st, err = e.Run(context.Background(), "onegoal", DefaultConfig())
	require.NoError(t, err)
	assert.Equal(t, 300, st.Evaluations)
	assert.LessOrEqual(t, obj.scored[1], 50)
	assert.Equal(t, 300-obj.scored[1], obj.scored[0]+obj.scored[2])
	assert.GreaterOrEqual(t, min(obj.scored[0], obj.scored[2]), 100)
}

func TestShare(t *testing.T) {
	assert.Equal(t, Budget{MaxEvals: 33, Time: 20 * time.Second}, share(Budget{MaxEvals: 100, Time: time.Minute}, 3))
	assert.Equal(t, Budget{MaxEvals: 1}, share(Budget{MaxEvals: 2}, 5), "at least one evaluation")
	assert.Equal(t, Budget{Time: time.Second}, share(Budget{Time: 5 * time.Second}, 5))
}
