package gen

import (
	"context"
	"slices"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// observations is how many times observe runs each test: first in the
// workers the search used, then each time in fresh ones; from the third
// run on, the fresh workers start in a later second of the clock than
// every worker before. Values that depend on the process then differ
// between the runs and are not asserted: addresses, map order, state
// left by earlier tests, random choices made once per process, even from
// a seed that counts seconds. A third run costs the executions and at
// most a second of waiting; verification runs the file in two more
// processes.
const observations = 3

// observedTest is a minimised test with the values its runs agree on.
type observedTest struct {
	test    *testcase.Test
	goals   []int32
	outcome *testcase.Outcome
	// covers are all the goals every run covered (goals plus what the
	// test covers by the way).
	covers []int32
	// proxies are the test's performance proxies, from its first run.
	proxies mosa.Proxies
}

// observe gives each minimised test the values it observes: it keeps the
// tests whose runs all end the same way and cover their goals (with the
// values all runs saw), and drops the others. Minimisation keeps a change
// after one run, so a shorter test can be flakier than the one it came
// from: where a minimised test was dropped, its original (the test of
// originals at the same index) is observed in its place, and kept on the
// same terms. The minimised tests kept come first, in their order, then
// the originals.
func (j *job) observe(ctx context.Context, originals, minimised []mosa.ArchivedTest) ([]observedTest, error) {
	observed, err := j.observeRuns(ctx, minimised)
	if err != nil {
		return nil, err
	}
	if len(observed) == len(minimised) {
		return observed, nil
	}
	stable := map[*testcase.Test]bool{}
	for _, o := range observed {
		stable[o.test] = true
	}
	var again []mosa.ArchivedTest
	for i, m := range minimised {
		if !stable[m.Test] {
			again = append(again, originals[i])
		}
	}
	more, err := j.observeRuns(ctx, again)
	if err != nil {
		return nil, err
	}
	return append(observed, more...), nil
}

// observeRuns runs every test as many times as observations says, each
// run in other processes (see observations), observing values, and keeps
// what the runs agree on. A test whose runs end differently, or one that does not cover
// its goals in all of them, is dropped.
func (j *job) observeRuns(ctx context.Context, kept []mosa.ArchivedTest) ([]observedTest, error) {
	if len(kept) == 0 {
		return nil, nil
	}
	tests := make([]*testcase.Test, len(kept))
	for i, k := range kept {
		tests[i] = k.Test
	}
	runs := make([][]harness.Result, observations)
	for r := range runs {
		if r > 0 {
			j.x.Close()
		}
		if r > 1 {
			if err := nextSecond(ctx); err != nil {
				return nil, err
			}
		}
		res, err := j.x.Run(ctx, tests, true)
		if err != nil {
			return nil, err
		}
		runs[r] = res
	}
	var out []observedTest
	for i, k := range kept {
		o := runs[0][i].Outcome
		covered := map[int32]int{}
		for _, run := range runs {
			if !j.covers(run[i], k.Goals) {
				o = nil
				break
			}
			o = testcase.Stable(o, run[i].Outcome)
			for _, g := range slices.Compact(slices.Sorted(slices.Values(j.coveredBy(run[i])))) {
				covered[g]++
			}
		}
		if o == nil {
			continue
		}
		var covers []int32
		for _, g := range j.coveredBy(runs[0][i]) {
			if covered[g] == len(runs) {
				covers = append(covers, g)
			}
		}
		out = append(out, observedTest{test: k.Test, goals: k.Goals, outcome: o, covers: covers, proxies: mosa.ProxiesOf(k.Test, runs[0][i].Trace)})
	}
	return out, nil
}

// nextSecond waits until the clock is past the second it is in: a process
// started then reads another second from the clock than every process
// started before.
func nextSecond(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := time.Now()
	t := time.NewTimer(now.Truncate(time.Second).Add(time.Second).Sub(now))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
