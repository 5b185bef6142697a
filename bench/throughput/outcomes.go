package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
)

// outcomeCosts prints what a test of each outcome costs on the pair as
// the search runs them (Explore, 2 workers): the tests are grouped by the
// outcome of a first run (crashes by their report line, with numbers
// replaced by N, so that "panic: step 12 failed" and "panic: step 7
// failed" are one kind), and each group runs on a fresh executor that
// first learned its adaptive limits on the tests that passed (warmUp).
// Wall time is the executor's; CPU time is split into this process's
// (cling's side) and the worker processes' from the group's start to its
// end (their starts and spares included; see workersCPU). Then it prints
// the first test of each kind of crash, which shows what causes it.
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
				k += ": " + digits.ReplaceAllString(r.Message, "N")
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
		kids0 -= liveChildrenCPU()
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
			((self1 - self0) / n).Round(time.Microsecond), ((kids1 - kids0) / n).Round(time.Microsecond),
			after.WorkerStarts-before.WorkerStarts, after.Handovers-before.Handovers)
	}
	for _, k := range kinds {
		if strings.HasPrefix(k, harness.Crashed.String()) {
			fmt.Printf("\nA test of %q:\n\n```\n%s```\n", k, groups[k][0])
		}
	}
	return nil
}

// digits are the numbers in a crash's message.
var digits = regexp.MustCompile(`[0-9]+`)

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

// liveChildrenCPU returns the CPU time the child processes of this
// process that it has not waited for have used so far (from /proc; 0
// where there is none). A group's workers' CPU is the children's CPU
// (cpuTimes) at its end, after the executor closed and waited for its
// workers, less the children's at its start and less this at its start:
// a worker that warmed up before the group and ends in it is counted
// only from the group's start on.
func liveChildrenCPU() time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	self := os.Getpid()
	var ticks int64
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid … utime stime: after the last ')', the
		// fields from state on; ppid is the 2nd, utime the 12th, stime the 13th.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 13 {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid != self {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + st
	}
	// Linux reports these in clock ticks of 1/100 s (USER_HZ).
	return time.Duration(ticks) * 10 * time.Millisecond
}
