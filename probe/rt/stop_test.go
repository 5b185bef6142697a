//go:build go1.21

package rt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Without InterceptExits the stand-ins call the functions they stand for;
// with it, an exit reports its status and message and blocks its
// goroutine.
func TestInterceptExits(t *testing.T) {
	called := false
	real := func(int) { called = true }
	OSExit(real)(3)
	assert.True(t, called, "exits are real until the executor intercepts them")
	// A package variable set to os.Exit takes its value before the
	// executor starts: the interception is decided at the call.
	early := OSExit(real)

	type exit struct {
		code    int
		message string
	}
	got := make(chan exit, 1)
	InterceptExits(func(code int, message string) { got <- exit{code, message} })
	defer InterceptExits(nil)
	for _, tc := range []struct {
		call func()
		want exit
	}{
		{func() { OSExit(real)(3) }, exit{3, ""}},
		{func() { early(4) }, exit{4, ""}},
		{func() { Fatal(nil)("config", 7) }, exit{1, "config7"}}, // as fmt.Sprint, as log.Fatal
		{func() { Fatalf(nil)("bad %q", "x") }, exit{1, `bad "x"`}},
		{func() { Fatalln(nil)("a", "b") }, exit{1, "a b"}},
	} {
		returned := make(chan bool)
		go func() {
			tc.call()
			returned <- true
		}()
		assert.Equal(t, tc.want, <-got)
		select {
		case <-returned:
			t.Errorf("the exit of %v returned", tc.want)
		default:
		}
	}
}

// While the runtime abandons a test, a goroutine that reaches a probe
// ends there.
func TestAbandonEndsGoroutinesAtTheirNextProbe(t *testing.T) {
	Setup(&Table{Side: []uint8{0}})
	defer Setup(&Table{})
	started, ended := make(chan bool), make(chan bool)
	go func() {
		defer close(ended)
		close(started)
		for B(0, false, true) {
		}
	}()
	<-started
	Abandon()
	<-ended
	Resume()
	assert.True(t, B(0, false, true), "probes work again after Resume")
}

// A panic in a goroutine started with a function literal ends the process
// unless the executor intercepts it: then the hook gets the value, and
// the goroutine blocks for ever.
func TestInterceptGoPanics(t *testing.T) {
	got := make(chan any, 1)
	InterceptGoPanics(func(v any) { got <- v })
	defer InterceptGoPanics(nil)
	returned := make(chan bool)
	go func() {
		defer GoRecover()
		defer func() { returned <- true }() // the literal's own defers run first
		panic("worker failed")
	}()
	assert.True(t, <-returned)
	assert.Equal(t, "worker failed", <-got)

	// Without a hook, GoRecover leaves the panic alone.
	InterceptGoPanics(nil)
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		func() {
			defer GoRecover()
			panic("real")
		}()
	}()
	assert.Equal(t, "real", recovered)
}
