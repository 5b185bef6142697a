//go:build go1.21

package rt

import "runtime"

// Runaway recursion. The search-mode instrumentation calls Call (see
// counts.go) at the top of every function of R and E, and its count of
// each function's calls paces the looks at the stack. Once the executor
// has bounded the stack (BoundStack), every checkEvery-th call of a
// function looks whether the calling goroutine is deeper than the bound, so that a recursion that
// never ends stops there, within a millisecond or so, instead of growing
// the stack until the runtime ends the process with the fatal error
// "stack overflow", which no recover can stop.

// checkEvery is how many calls of one of R's and E's functions pass
// between two looks at the stack depth; it is a power of two. A look walks the calling
// goroutine's stack, up to the bound.
const checkEvery = 1024

var (
	// uncounted counts the calls of functions without a counter (before
	// Setup) in their place. Goroutines of the code under test may update
	// the counts concurrently and lose some: for the looks, they only
	// pace them.
	uncounted uint32
	// checkMask is checkEvery-1 once the stack is bounded; before, all
	// ones, so that a look (which then returns at once) is taken only when
	// a count wraps around; 0 while the executor abandons a test (Abandon),
	// so that every call looks, and ends its goroutine.
	checkMask uint32 = ^uint32(0)
	// maxFrames is the bound, in frames of the goroutine's stack (0:
	// none); overflowHook is told about a goroutine past it.
	maxFrames    int
	overflowHook func() bool
)

// BoundStack makes a goroutine whose stack grows deeper than frames frames
// while it calls functions of R or E stop, as a runaway recursion would
// end the process with a stack overflow: hook runs on that goroutine and
// says what becomes of it. If it returns true the goroutine ends with
// runtime.Goexit, which runs its deferred calls and which, unlike a panic,
// no recover in the code stops (fmt recovers the panics of String
// methods, and a recursion through one went on); otherwise it blocks for
// ever.
// cling's executor calls it once, before its first test; nothing else
// does, so the code keeps its real behaviour everywhere else.
func BoundStack(frames int, hook func() (unwind bool)) {
	maxFrames, overflowHook = frames, hook
	checkMask = boundMask()
}

// boundMask is checkMask outside Abandon.
func boundMask() uint32 {
	if maxFrames > 0 {
		return checkEvery - 1
	}
	return ^uint32(0)
}

// checkStack stops the calling goroutine if its stack is deeper than the
// bound, or if the executor abandoned its test.
//
//go:noinline
func checkStack() {
	leave()
	if maxFrames == 0 {
		return
	}
	var pc [1]uintptr
	if runtime.Callers(maxFrames, pc[:]) == 0 {
		return
	}
	if overflowHook() {
		runtime.Goexit()
	}
	select {}
}
