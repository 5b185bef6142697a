//go:build go1.21

package rt

import (
	"errors"
	"sync/atomic"
)

// Loops that never end. A test that hangs in a loop of R or E is told
// apart from a slow one by a wall-clock timeout, and whether a test near
// the timeout ends in time depends on the machine's load. The probes
// count every branch outcome the test takes anyway (counts.go), so the
// executor can bound those counts instead (BoundSteps): a test whose
// outcomes of R and E reach the bound is a hang however fast the machine
// is, and it is known as one as soon as it gets there.

// StepBlock is the unit of the step bound: the count of one outcome is
// looked at each time it reaches a multiple of StepBlock, a power of two.
const StepBlock = 1 << 16

var (
	// stepMask is StepBlock-1 once the steps are bounded; before, all
	// ones, so that a look (which then returns at once) is taken only
	// when a count wraps around.
	stepMask uint32 = ^uint32(0)
	// stepBlocks counts the looks in the current test (read by the
	// executor's watchdog as the test runs); stepLimit is the bound (0:
	// none); stepHook is told about a goroutine past it.
	stepBlocks atomic.Uint32
	stepLimit  uint32
	stepHook   func() bool
)

// ErrStepBound is the panic that unwinds a goroutine past the step bound
// (see BoundSteps).
var ErrStepBound = errors.New("step bound reached")

// BoundSteps makes a test stop once it took steps branch outcomes of R
// and E, counted in blocks of StepBlock: a block is counted each time the
// count of one outcome reaches a multiple of StepBlock (a loop of one
// outcome adds a block every StepBlock iterations; outcomes taken fewer
// than StepBlock times add nothing), and the test stops at the block that
// brings them to steps or past. hook runs on the goroutine that took the
// last outcome and says what becomes of it: if it returns true the
// goroutine panics with ErrStepBound, which unwinds it; otherwise it
// blocks for ever. steps 0 removes the bound. cling's executor calls it
// before its tests; nothing else does, so the code keeps its real
// behaviour everywhere else.
func BoundSteps(steps uint64, hook func() (unwind bool)) {
	blocks := uint32(min((steps+StepBlock-1)/StepBlock, 1<<31))
	stepLimit, stepHook = blocks, hook
	stepMask = ^uint32(0)
	if blocks > 0 {
		stepMask = StepBlock - 1
	}
}

// stepped is count's slow path: the count of an outcome reached a
// multiple of StepBlock (or wrapped around).
//
//go:noinline
func stepped() {
	if stepLimit == 0 {
		return
	}
	if stepBlocks.Add(1) < stepLimit {
		return
	}
	if stepHook() {
		panic(ErrStepBound)
	}
	select {}
}

// StepsTaken is how many branch outcomes the current test took so far,
// as BoundSteps counts them: whole blocks of StepBlock, and only while
// the steps are bounded. The executor reads it while the test runs, to
// tell a loop of R or E on its way to the bound from a test stuck
// elsewhere.
func StepsTaken() uint64 { return uint64(stepBlocks.Load()) * StepBlock }
