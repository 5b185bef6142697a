//go:build go1.21

package rt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// take counts outcome o n times, as a probe taken n times does.
func take(o int32, n int) {
	for i := 0; i < n; i++ {
		count(o)
	}
}

// The bound counts blocks of StepBlock outcomes, each when one outcome's
// count reaches a multiple of StepBlock; the hook decides at the block
// that reaches the bound, and a new test starts from none.
func TestBoundSteps(t *testing.T) {
	defer BoundSteps(0, nil)
	outcomeCounts = make([]uint32, 4)
	hooked := 0
	BoundSteps(3*StepBlock, func() bool { hooked++; return true })

	take(0, 2*StepBlock)
	take(1, StepBlock-1)
	take(2, StepBlock-1)
	assert.Equal(t, uint64(2*StepBlock), StepsTaken(), "outcomes short of a block add nothing")
	assert.Zero(t, hooked)
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		take(1, 1)
	}()
	assert.Equal(t, ErrStepBound, recovered, "the third block reaches the bound")
	assert.Equal(t, 1, hooked)

	resetCounts()
	assert.Zero(t, StepsTaken())
	take(0, 2*StepBlock)
	assert.Equal(t, 1, hooked, "a new test starts from no steps")

	BoundSteps(StepBlock+1, func() bool { return true })
	assert.Equal(t, uint32(2), stepLimit, "a bound between blocks rounds up")

	blocked := make(chan bool)
	BoundSteps(StepBlock, func() bool { close(blocked); return false })
	resetCounts()
	assertBlocksPastTheBound(t, blocked, func() { take(3, 2*StepBlock) })
}

// Without a bound, counts only count.
func TestNoStepBound(t *testing.T) {
	BoundSteps(0, nil)
	outcomeCounts = make([]uint32, 1)
	resetCounts()
	take(0, 3*StepBlock)
	assert.Zero(t, StepsTaken())
	assert.Equal(t, uint32(3*StepBlock), outcomeCounts[0])
}
