// Package parallel runs independent jobs a few at a time: the pairs the
// pre-merge gate measures, the pairs cling cbc and cling mutate judge in
// one run.
package parallel

import (
	"runtime"
	"sync"
)

// CommandWidth is how many jobs that mostly wait for go commands (builds,
// test runs) run at once: as many as there are CPUs, and at least two,
// since such jobs overlap well.
func CommandWidth() int { return max(runtime.NumCPU(), 2) }

// Each calls f(i) for every i in [0, n), at most width calls at a time
// (at least one), starting them in the order of i, and returns when all
// have returned.
func Each(n, width int, f func(i int)) {
	width = max(min(width, n), 1)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < width; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}
