package gen

import (
	"context"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// minimise shrinks each test to what it needs to cover its goals. It
// keeps every test, with the same goals, and drops from it what the goals
// do not need. First, statements are tried from last to first, together
// with the statements that use their values; then set-up calls are
// bypassed, an argument of the call's type standing in for its result
// (Test.Bypass); then the arguments of
// composite literals, slices, maps, channels and variadic calls are left
// out, one at a time; then string literals are shortened by removing
// ever smaller runs of characters (as delta debugging does); last, with
// ints set (the archive keeps cheaper tests: cheap suites are the aim),
// integer literals are tried at 0, and else halved while the halves are
// kept; and at the very end, standard-library calls of basic arguments
// whose results nothing uses any more are tried again, from the last. A
// change
// stays if the test still calls a covering function and still covers its
// goals in one run. All tests are shrunk together, one candidate each per
// round. The minimised tests come in the order of kept.
func (j *job) minimise(ctx context.Context, kept []mosa.ArchivedTest, ints bool) ([]mosa.ArchivedTest, error) {
	tests := make([]*testcase.Test, len(kept))
	for i, k := range kept {
		tests[i] = k.Test
	}
	shrunk, err := j.shrinkAll(ctx, tests, 0, ints, func(i int, _ *testcase.Test, r harness.Result) bool {
		return j.covers(r, kept[i].Goals)
	})
	if err != nil {
		return nil, err
	}
	out := make([]mosa.ArchivedTest, len(kept))
	for i, t := range shrunk {
		out[i] = mosa.ArchivedTest{Test: t, Goals: kept[i].Goals}
	}
	return out, nil
}

// shrinkAll shrinks each of tests as minimise describes, keeping a
// candidate smaller version of tests[i] when keep accepts the result of
// one run of it; every test shrinks one candidate per round, all in one
// executor batch. maxRounds bounds the rounds (0: no bound); ints makes
// integer literals small too. The shrunk
// tests come in the order of tests.
func (j *job) shrinkAll(ctx context.Context, tests []*testcase.Test, maxRounds int, ints bool, keep func(i int, c *testcase.Test, r harness.Result) bool) ([]*testcase.Test, error) {
	shrinkers := make([]*shrinker, len(tests))
	for i, t := range tests {
		t = t.Clone()
		t.Prune()
		shrinkers[i] = &shrinker{t: t, pos: t.Len() - 1, ints: ints}
	}
	for round := 0; maxRounds <= 0 || round < maxRounds; round++ {
		var cands []*testcase.Test
		var owners []int
		for i, s := range shrinkers {
			if c := s.next(); c != nil {
				cands = append(cands, c)
				owners = append(owners, i)
			}
		}
		if len(cands) == 0 {
			break
		}
		res, err := j.x.Run(ctx, cands, false)
		if err != nil {
			return nil, err
		}
		for k, r := range res {
			if i := owners[k]; keep(i, cands[k], r) {
				shrinkers[i].accept(cands[k])
			}
		}
	}
	out := make([]*testcase.Test, len(tests))
	for i, s := range shrinkers {
		out[i] = s.t
	}
	return out, nil
}

// coveredBy returns the goals (of the search's numbering) a result
// covers.
func (j *job) coveredBy(r harness.Result) []int32 {
	if r.Trace == nil {
		return nil
	}
	if j.set != nil {
		return j.set.Covered(r.Trace)
	}
	return r.Trace.Covered
}

// covers reports whether a result covers every goal of goals, and may
// stand in a regression test (see harness.Result.Regression).
func (j *job) covers(r harness.Result, goals []int32) bool {
	if r.Trace == nil || !r.Regression() {
		return false
	}
	have := map[int32]bool{}
	for _, g := range j.coveredBy(r) {
		have[g] = true
	}
	for _, g := range goals {
		if !have[g] {
			return false
		}
	}
	return true
}
