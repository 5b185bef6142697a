// Package callee misbehaves on purpose, depending on its arguments: it
// panics, exits through os.Exit, log.Fatal or another package's exit
// helper, loops for ever, blocks in select{} or on a channel nothing can
// send to, overflows its stack, races on a map, calls runtime.Goexit,
// panics in a goroutine it started (a function literal or a method) or
// leaves one waiting for ever.
// Its other inputs are ordinary work. A search that drives it must keep
// its pace: cling's executor survives each of these without stopping.
package callee

import (
	"fmt"
	"log"
	"os"
	"runtime"
	"sync"

	"example.com/hostile/quit"
)

// Step runs step mode on n and returns its result.
func Step(mode, n int) int {
	switch mode {
	case 1:
		panic(fmt.Sprintf("callee: step %d failed", n))
	case 2:
		os.Exit(3)
	case 3:
		log.Fatalf("callee: step %d is fatal", n)
	case 4:
		return spin(n)
	case 5:
		select {}
	case 6:
		return recurse(n)
	case 7:
		return race(n)
	case 8:
		runtime.Goexit()
	case 9:
		quit.With(4)
	case 10:
		return worker(n)
	case 11:
		return await(n)
	case 12:
		return abandon(n)
	case 13:
		return delegate(n)
	}
	if n > 100 {
		return n - 100
	}
	if n%2 == 0 {
		return n / 2
	}
	return 3*n + 1
}

// spin never returns for n >= 0: n stays 1 or 2.
func spin(n int) int {
	for n != 0 {
		n = n%2 + 1
	}
	return n
}

// recurse calls itself until the stack overflows.
func recurse(n int) int {
	if n == -1 {
		return 0
	}
	return recurse(n+1) + 1
}

// worker runs step n on a goroutine of its own, which panics after the
// caller stopped waiting for it: its deferred Done runs first.
func worker(n int) int {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		panic(fmt.Sprintf("callee: worker of step %d failed", n))
	}()
	wg.Wait()
	return n
}

// race writes one map from two goroutines: the runtime usually stops the
// process with "concurrent map writes".
func race(n int) int {
	m := map[int]int{}
	done := make(chan bool)
	for g := 0; g < 2; g++ {
		go func() {
			for i := 0; i < 1_000_000; i++ {
				m[i%64] = i + n
			}
			done <- true
		}()
	}
	<-done
	<-done
	return len(m)
}

// await waits for a reply on a channel it made and gave to no one.
func await(n int) int {
	reply := make(chan int)
	return <-reply + n
}

// abandon starts a goroutine that waits for a stop that never comes,
// and returns.
func abandon(n int) int {
	stop := make(chan struct{})
	go func() { <-stop }()
	return n
}

// job is a step run by a method on a goroutine of its own.
type job struct {
	n  int
	wg sync.WaitGroup
}

// run panics after its deferred Done let the caller stop waiting.
func (j *job) run() {
	defer j.wg.Done()
	panic(fmt.Sprintf("callee: job of step %d failed", j.n))
}

// delegate runs step n as a job, on a goroutine that starts a method.
func delegate(n int) int {
	j := &job{n: n}
	j.wg.Add(1)
	go j.run()
	j.wg.Wait()
	return n
}
