package caller

import (
	"fmt"
	"sync"

	"example.com/constructs/callee"
)

// defaultScale is a package-level variable initialised by a callee call.
var defaultScale = callee.Scale(7)

var greeting string

func init() {
	greeting = callee.NewGreeter("en").Greet("init")
}

// DefaultScale returns the package-level value initialised by callee.
func DefaultScale() int { return defaultScale }

// Greeting returns the value computed by init.
func Greeting() string { return greeting }

// Defer exercises a deferred callee call.
func Defer(n int) int {
	defer callee.Cleanup()
	if n > 0 {
		return callee.Scale(n)
	}
	return 0
}

// Recover exercises recovering from a panic raised in callee.
func Recover(n int) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return callee.MustPositive(n), nil
}

// Goroutines exercises callee calls in goroutines joined by a WaitGroup and by
// draining a channel.
func Goroutines(n int) int {
	var wg sync.WaitGroup
	results := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = callee.Double(i)
		}()
	}
	wg.Wait()
	ch := make(chan int)
	go callee.Work(ch)
	total := 0
	for v := range ch {
		total += v
	}
	for _, r := range results {
		total += r
	}
	return total
}

// Select exercises a select statement with two receive cases and a default.
func Select(a, b <-chan int) string {
	select {
	case v := <-a:
		return callee.Classify(v)
	case v := <-b:
		return callee.Kind(v)
	default:
		return callee.Classify(-1)
	}
}

// UnusedResult exercises a call site whose result is discarded.
func UnusedResult(n int) {
	callee.Scale(n)
}

// TwoResults exercises a call site with two results.
func TwoResults(s string) (int, error) {
	v, err := callee.Parse(s)
	if err != nil {
		return 0, err
	}
	return v, nil
}

// NestedCall exercises a callee call nested in another callee call's argument.
func NestedCall(x int) int {
	return callee.A(callee.B(x))
}

// ConstructorMethod exercises a method call on a value returned by a callee
// constructor.
func ConstructorMethod(start int) int {
	return callee.NewCounter(start).Incr()
}
