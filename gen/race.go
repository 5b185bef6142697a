package gen

import (
	"context"
	"slices"
	"strings"

	"github.com/cling-go/cling/fault"
	"github.com/cling-go/cling/probe"
)

// raceFinding is a test of the file that failed under the race detector
// with a race report: a fault, not a regression test.
type raceFinding struct {
	test   namedTest
	report string
}

// raceRun runs the tests once more, built with the race detector, when
// looking for faults and where the platform supports it (the first build
// that fails says it does not, and no race run is tried again). It
// returns the tests that failed: those whose output has a race report
// are recorded in j.races, as faults; others are dropped as unstable.
func (j *job) raceRun(ctx context.Context, ws *probe.Workspace, src []byte, dir string, tests []namedTest) (map[string]bool, error) {
	if !j.cfg.Faults || j.noRace {
		return nil, nil
	}
	bin, blamed, err := j.testBinary(ctx, ws, j.out, src, "verify.race.test", j.cfg.Tags, true)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil || blamed != nil {
		j.noRace = true
		return nil, nil
	}
	runs, err := j.runProcesses(ctx, bin, dir, namesOf(tests), 1)
	if err != nil {
		return nil, err
	}
	failed := map[string]bool{}
	for _, t := range tests {
		r := runs[t.Name]
		if r == nil || r.fails == 0 {
			continue
		}
		failed[t.Name] = true
		for _, out := range r.failures {
			if report := raceReport(out); report != "" {
				j.races = append(j.races, raceFinding{test: t, report: report})
				for _, name := range testsInReport(report, tests) {
					failed[name] = true
				}
				break
			}
		}
	}
	return failed, nil
}

// testsInReport returns the tests of the file whose functions (or the
// function literals in them) are in the stacks of a race report. The
// detector reports a race in the test that makes the second access, but
// the first may have been made by a test before it: dropping only the
// one that reports would leave the other to race with the next test, one
// round after another, until no test was left.
func testsInReport(report string, tests []namedTest) []string {
	frames := fault.ParseRaceReport(report)
	var out []string
	for _, t := range tests {
		if slices.ContainsFunc(frames, func(f fault.Frame) bool {
			return strings.HasSuffix(f.Func, "."+t.Name) || strings.Contains(f.Func, "."+t.Name+".")
		}) {
			out = append(out, t.Name)
		}
	}
	return out
}

// raceMarker starts a report of the race detector.
const raceMarker = "WARNING: DATA RACE"

// raceReport returns the first race report in a test's output, "" if
// there is none.
func raceReport(output string) string {
	i := strings.Index(output, raceMarker)
	if i < 0 {
		return ""
	}
	report := output[i:]
	if end := strings.Index(report, "=================="); end > 0 {
		report = report[:end]
	}
	return report
}
