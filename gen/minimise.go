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
// with the statements that use their values; then the arguments of
// composite literals, slices, maps, channels and variadic calls are left
// out, one at a time; last, string literals are shortened by removing
// ever smaller runs of characters (as delta debugging does). A change
// stays if the test still calls a covering function and still covers its
// goals in one run. All tests are shrunk together, one candidate each per
// round. The minimised tests come in the order of kept.
func (j *job) minimise(ctx context.Context, kept []mosa.ArchivedTest) ([]mosa.ArchivedTest, error) {
	shrinkers := make([]*shrinker, len(kept))
	for i, k := range kept {
		t := k.Test.Clone()
		t.Prune()
		shrinkers[i] = &shrinker{t: t, pos: t.Len() - 1}
	}
	for {
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
		for j, r := range res {
			if i := owners[j]; covers(r, kept[i].Goals) {
				shrinkers[i].accept(cands[j])
			}
		}
	}
	out := make([]mosa.ArchivedTest, len(kept))
	for i, s := range shrinkers {
		out[i] = mosa.ArchivedTest{Test: s.t, Goals: kept[i].Goals}
	}
	return out, nil
}

// covers reports whether a result covers every goal of goals.
func covers(r harness.Result, goals []int32) bool {
	if r.Trace == nil || r.Status == harness.TimedOut || r.Status == harness.Crashed {
		return false
	}
	have := map[int32]bool{}
	for _, g := range r.Trace.Covered {
		have[g] = true
	}
	for _, g := range goals {
		if !have[g] {
			return false
		}
	}
	return true
}
