// Package callee misbehaves on purpose: it panics, exits, loops, deadlocks,
// races, overflows its stack, leaks goroutines and memory, on chosen
// inputs. cling's executor must survive all of it.
package callee

import (
	"os"
	"time"
)

// Panic panics for n > 5.
func Panic(n int) int {
	if n > 5 {
		panic("callee: too big")
	}
	return n + 1
}

// Exit exits the process for n == 7.
func Exit(n int) int {
	if n == 7 {
		os.Exit(3)
	}
	return n
}

// Loop never returns for n == 3.
func Loop(n int) int {
	if n == 3 {
		for {
			time.Sleep(time.Millisecond)
		}
	}
	return n
}

// Deadlock blocks forever for n == 4; with no other goroutine running,
// the runtime reports that all goroutines are asleep.
func Deadlock(n int) int {
	if n == 4 {
		var ch chan int
		return <-ch
	}
	return n
}

// Race writes one map from two goroutines for n == 5: a fatal error.
func Race(n int) int {
	if n == 5 {
		m := map[int]int{}
		done := make(chan bool)
		for g := 0; g < 2; g++ {
			go func() {
				for i := 0; ; i++ {
					m[i%100] = i
				}
			}()
		}
		<-done
	}
	return n
}

// Recurse overflows the stack for n == 9.
func Recurse(n int) int {
	if n == 9 {
		return Recurse(n) + 1
	}
	return n
}

// RecurseInGoroutine overflows the stack of a goroutine it starts for
// n == 9, and waits for that goroutine.
func RecurseInGoroutine(n int) int {
	if n == 9 {
		done := make(chan int)
		go func() { done <- Recurse(n) }()
		return <-done
	}
	return n
}

// Leak starts goroutines that never end, n of them.
func Leak(n int) int {
	if n > 0 {
		for i := 0; i < n; i++ {
			go func() { select {} }()
		}
	}
	return n
}

var hoard [][]byte

// Hoard keeps n MiB for ever, touched, for n > 0.
func Hoard(n int) int {
	if n > 0 {
		b := make([]byte, n<<20)
		for i := range b {
			b[i] = 1
		}
		hoard = append(hoard, b)
	}
	return len(hoard)
}

// SlowOnce sleeps n seconds the first time it runs in a directory (it
// leaves a marker file there), and returns at once afterwards: a test that
// is slow only by accident.
func SlowOnce(n int) int {
	const marker = "slow-once.marker"
	if _, err := os.Stat(marker); err != nil {
		os.WriteFile(marker, nil, 0o644)
		if n > 0 {
			time.Sleep(time.Duration(n) * time.Second)
		}
	}
	return n
}
