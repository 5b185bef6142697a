//go:build go1.21

package rt

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countCalls gives functions 0 to n-1 their counters, from 0.
func countCalls(n int) { callCounts = make([]uint32, n) }

// recurse calls itself n times, counting each call as instrumented
// functions do (function 0), and returns how deep it went.
func recurse(n int) int {
	Call(0)
	if n == 0 {
		return 0
	}
	return recurse(n-1) + 1
}

// Without a bound, a deep recursion runs as it would uninstrumented.
func TestCallWithoutBound(t *testing.T) {
	countCalls(1)
	assert.Equal(t, 50000, recurse(50000))
}

// endsByGoexit runs f on a goroutine of its own and reports whether f
// ended it with runtime.Goexit (neither returning nor panicking).
func endsByGoexit(f func()) bool {
	goexit := make(chan bool)
	go func() {
		returned := false
		defer func() { goexit <- !returned && recover() == nil }()
		f()
		returned = true
	}()
	return <-goexit
}

// Past the bound, the hook decides: the goroutine ends with
// runtime.Goexit, at the first look at its depth, or blocks for ever. A
// recover on the way (fmt's, around a String method) does not stop it.
func TestBoundStack(t *testing.T) {
	defer BoundStack(0, nil)
	hooked := 0
	BoundStack(500, func() bool { hooked++; return true })
	countCalls(1)
	assert.Equal(t, 400, recurse(400), "a recursion within the bound")
	assert.Equal(t, 0, hooked)

	countCalls(2)
	depth, recovered := 0, 0
	assert.True(t, endsByGoexit(func() {
		var down func(int)
		down = func(n int) {
			defer func() {
				if recover() != nil {
					recovered++
				}
			}()
			depth = n
			Call(1)
			down(n + 1)
		}
		down(1)
	}))
	assert.Equal(t, 1, hooked)
	assert.Equal(t, 0, recovered)
	assert.Equal(t, checkEvery, depth, "the first look, at the %dth call, is past the bound", checkEvery)

	blocked := make(chan bool)
	BoundStack(500, func() bool { close(blocked); return false })
	countCalls(1)
	assertBlocksPastTheBound(t, blocked, func() { recurse(1 << 20) })
}

// assertBlocksPastTheBound runs f in a goroutine of its own, which a
// bound's hook blocks for ever once it closed blocked.
func assertBlocksPastTheBound(t *testing.T, blocked chan bool, f func()) {
	t.Helper()
	returned := make(chan bool)
	go func() {
		defer close(returned)
		f()
	}()
	<-blocked
	select {
	case <-returned:
		t.Error("the goroutine past the bound went on")
	case <-time.After(10 * time.Millisecond):
	}
}

// While the runtime abandons a test, a goroutine that calls a function of
// R or E ends there, bound or not.
func TestAbandonEndsGoroutinesAtTheirNextCall(t *testing.T) {
	for _, bound := range []int{0, 500} {
		BoundStack(bound, func() bool { return true })
		started, ended := make(chan bool), make(chan bool)
		go func() {
			defer close(ended)
			close(started)
			for {
				Call(0)
			}
		}()
		<-started
		Abandon()
		<-ended
		Resume()
		require.Equal(t, boundMask(), checkMask, "bound %d", bound)
	}
	BoundStack(0, nil)
}

// Calls before the counters exist (in package initialisation, before
// Setup) are paced alike.
func TestBoundStackWithoutCounters(t *testing.T) {
	defer BoundStack(0, nil)
	callCounts, uncounted = nil, 0
	hooked := 0
	BoundStack(500, func() bool { hooked++; return true })
	assert.True(t, endsByGoexit(func() { recurse(1 << 20) }))
	assert.Equal(t, 1, hooked)
	assert.Equal(t, uint32(checkEvery), uncounted, "the first look past the bound")
}
