package probe

import (
	"context"
	"errors"

	"github.com/cling-go/cling/couple"
)

// Measured is the outcome of measuring one analysis of a group: its run,
// or the error Measure would have returned for it.
type Measured struct {
	Run *TestRun
	Err error
}

// MeasureGroup measures analyses of one caller (a group of
// couple.MergeGroups) in one instrumented build of R and all their
// callees, and returns for each what Measure would: the goals it covers,
// in its own numbering, with the suite's test count and failures. The
// runs share the group's list of unobservable probes. If the build of the
// group fails for a fault of the instrumentation, each analysis is
// measured alone, so that the error names the pair it belongs to; any
// other error (tests that do not build, no tests) is every analysis's.
func MeasureGroup(ctx context.Context, as []*couple.Analysis, opts TestOptions) []Measured {
	out := make([]Measured, len(as))
	if len(as) == 1 {
		out[0].Run, out[0].Err = Measure(ctx, as[0], opts)
		return out
	}
	m, err := couple.Merge(as)
	var run *TestRun
	if err == nil {
		run, err = Measure(ctx, m, opts)
	}
	var te *TestError
	switch {
	case errors.As(err, &te) && te.Instrumentation:
		for i, a := range as {
			out[i].Run, out[i].Err = Measure(ctx, a, opts)
		}
	case err != nil:
		for i := range out {
			out[i].Err = err
		}
	default:
		for i, a := range as {
			off := couple.GoalOffset(as, i)
			r := *run
			r.Covered = append([]bool(nil), run.Covered[off:off+len(a.Goals)]...)
			r.Failed = append([]string(nil), run.Failed...)
			out[i].Run = &r
		}
	}
	return out
}
