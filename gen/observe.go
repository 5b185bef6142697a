package gen

import (
	"context"

	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// observedTest is a minimised test with the stable values of two runs.
type observedTest struct {
	test    *testcase.Test
	goals   []int32
	outcome *testcase.Outcome
	// covers are all the goals both runs covered (goals plus what the
	// test covers by the way).
	covers []int32
}

// observe gives each minimised test the values it observes: it keeps the
// tests whose two runs agree on how they end and cover their goals (with
// the values both runs saw), and drops the others. Minimisation keeps a
// change after one run, so a shorter test can be flakier than the one it
// came from: where a minimised test was dropped, its original (the test of
// originals at the same index) is observed in its place, and kept on the
// same terms. The minimised tests kept come first, in their order, then
// the originals.
func (j *job) observe(ctx context.Context, originals, minimised []mosa.ArchivedTest) ([]observedTest, error) {
	observed, err := j.observeTwice(ctx, minimised)
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
	more, err := j.observeTwice(ctx, again)
	if err != nil {
		return nil, err
	}
	return append(observed, more...), nil
}

// observeTwice runs every test twice, observing values, and keeps what
// the two runs agree on. A test whose two runs end differently, or one
// that does not cover its goals in both, is dropped.
func (j *job) observeTwice(ctx context.Context, kept []mosa.ArchivedTest) ([]observedTest, error) {
	tests := make([]*testcase.Test, len(kept))
	for i, k := range kept {
		tests[i] = k.Test
	}
	first, err := j.x.Run(ctx, tests, true)
	if err != nil {
		return nil, err
	}
	// The second run gets fresh worker processes: values that depend on
	// the process (addresses, map order, state left by earlier tests) then
	// differ and are not asserted.
	j.x.Close()
	second, err := j.x.Run(ctx, tests, true)
	if err != nil {
		return nil, err
	}
	var out []observedTest
	for i, k := range kept {
		if !covers(first[i], k.Goals) || !covers(second[i], k.Goals) {
			continue
		}
		o := testcase.Stable(first[i].Outcome, second[i].Outcome)
		if o == nil {
			continue
		}
		both := map[int32]bool{}
		for _, g := range second[i].Trace.Covered {
			both[g] = true
		}
		var covers []int32
		for _, g := range first[i].Trace.Covered {
			if both[g] {
				covers = append(covers, g)
			}
		}
		out = append(out, observedTest{test: k.Test, goals: k.Goals, outcome: o, covers: covers})
	}
	return out, nil
}
