package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
)

// outcomeCosts prints what a test of each outcome costs on the pair as
// the search runs them (Explore, 2 workers): the tests are grouped by the
// outcome of a first run (crashes by their report line), and each group
// runs on a fresh executor that first learned its adaptive limits on the
// tests that passed (warmUp). Wall time is the executor's; CPU time is
// split into this process's (cling's side) and the worker processes'
// (their starts and spares included), less what the worker processes of
// an executor that only warms up use.
func (p *pair) outcomeCosts(ctx context.Context) error {
	opts := harness.Options{Workers: 2, Timeout: time.Second, Dir: filepath.Dir(p.dir), Ops: len(p.c.Ops)}
	groups := map[string][]*testcase.Test{}
	x := harness.NewExecutor(p.exe, opts)
	for lo := 0; lo < len(p.tests); lo += 64 {
		batch := p.tests[lo:min(lo+64, len(p.tests))]
		rs, err := x.Explore(ctx, batch)
		if err != nil {
			x.Close()
			return err
		}
		for i, r := range rs {
			k := r.Status.String()
			if r.Status == harness.Crashed {
				k += ": " + r.Message
			}
			groups[k] = append(groups[k], batch[i])
		}
	}
	x.Close()
	var kinds []string
	for k := range groups {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	warmUp := func(x *harness.Executor) error {
		for i := 0; i < 3; i++ {
			if _, err := x.Explore(ctx, groups[harness.Passed.String()]); err != nil {
				return err
			}
		}
		return nil
	}
	_, kids0 := cpuTimes()
	x = harness.NewExecutor(p.exe, opts)
	err := warmUp(x)
	x.Close()
	if err != nil {
		return err
	}
	_, kids1 := cpuTimes()
	baseline := kids1 - kids0
	fmt.Printf("\n| outcome (hostile, Explore, 2 workers) | tests | wall/test | cling CPU/test | workers' CPU/test | worker starts | handovers |\n|---|---|---|---|---|---|---|\n")
	for _, k := range kinds {
		ts := groups[k]
		x := harness.NewExecutor(p.exe, opts)
		if err := warmUp(x); err != nil {
			x.Close()
			return err
		}
		before := x.Stats()
		self0, kids0 := cpuTimes()
		start := time.Now()
		for lo := 0; lo < len(ts); lo += 64 {
			if _, err := x.Explore(ctx, ts[lo:min(lo+64, len(ts))]); err != nil {
				x.Close()
				return err
			}
		}
		wall := time.Since(start)
		after := x.Stats()
		x.Close()
		self1, kids1 := cpuTimes()
		n := time.Duration(len(ts))
		fmt.Printf("| %s | %d | %v | %v | %v | %d | %d |\n", k, len(ts), (wall / n).Round(time.Microsecond),
			((self1 - self0) / n).Round(time.Microsecond), ((kids1 - kids0 - baseline) / n).Round(time.Microsecond),
			after.WorkerStarts-before.WorkerStarts, after.Handovers-before.Handovers)
	}
	return nil
}

// cpuTimes returns the CPU time (user and system) this process and its
// waited-for children used so far. A worker's time counts once it was
// waited for, so an executor is closed before its group is measured.
func cpuTimes() (self, children time.Duration) {
	var s, c syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c)
	sum := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return sum(s), sum(c)
}
