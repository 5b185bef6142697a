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

// raceRun runs the tests twice more, built with the race detector, unless
// Config.Race is off or the platform does not support it (the first build
// that fails says it does not, and no race run is tried again). It
// returns the tests to drop (see blameRaces); with Config.Faults, the
// races of R or E are also recorded in j.races, as faults. When the
// reports are races between the testing package's own goroutines
// (lostSync), the tests to drop are those that made the detector lose
// track, found by running groups of the tests again (syncLosers), not the
// tests the reports came in.
func (j *job) raceRun(ctx context.Context, ws *probe.Workspace, src []byte, dir string, tests []namedTest) (map[string]bool, error) {
	if !j.cfg.Race || j.noRace {
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
	// Twice, so that the last test too has a test after it (see lostSync).
	runs, err := j.runProcesses(ctx, bin, dir, namesOf(tests), 2)
	if err != nil {
		return nil, err
	}
	failed, findings, victims := blameRaces(runs, tests)
	if j.cfg.Faults {
		j.races = append(j.races, findings...)
	}
	if len(victims) > 0 {
		var rest []namedTest
		for _, t := range tests {
			if !failed[t.Name] {
				rest = append(rest, t)
			}
		}
		losers, err := j.syncLosers(ctx, bin, dir, rest)
		if err != nil {
			return nil, err
		}
		if len(losers) == 0 {
			// None found: drop the tests the reports came in.
			losers = victims
		}
		for _, name := range losers {
			failed[name] = true
		}
	}
	return failed, nil
}

// blameRaces reads the runs of the tests under the race detector. It
// returns the tests that failed: those with a race report of R or E, the
// tests the report names, and those that failed without one (unstable);
// the first race report of each test that has one, as a finding; and the
// victims, the tests whose reports are all between the testing package's
// goroutines (lostSync), who are not to blame.
func blameRaces(runs map[string]*testRuns, tests []namedTest) (failed map[string]bool, findings []raceFinding, victims []string) {
	failed = map[string]bool{}
	for _, t := range tests {
		r := runs[t.Name]
		if r == nil || r.fails == 0 {
			continue
		}
		reports := raceReports(r.failures)
		if len(reports) == 0 {
			failed[t.Name] = true
			continue
		}
		raced := false
		for _, report := range reports {
			if lostSync(report) {
				continue
			}
			if !raced {
				findings = append(findings, raceFinding{test: t, report: report})
			}
			raced = true
			for _, name := range testsInReport(report, tests) {
				failed[name] = true
			}
		}
		if raced {
			failed[t.Name] = true
		} else {
			victims = append(victims, t.Name)
		}
	}
	return failed, findings, victims
}

// syncLosers finds the tests that leave the race detector without the
// synchronisation of their goroutine (see lostSync), among tests: run
// twice in a row in one process of the race binary bin, such a test races
// with the tests after it, or with its own second run. The tests are
// searched by halving (see bisect): a few processes for a few such tests
// among hundreds.
func (j *job) syncLosers(ctx context.Context, bin, dir string, tests []namedTest) ([]string, error) {
	return bisect(namesOf(tests), func(set []string) (bool, error) {
		runs, err := j.runProcesses(ctx, bin, dir, set, 2)
		if err != nil {
			return false, err
		}
		return slices.ContainsFunc(set, func(n string) bool {
			return runs[n] != nil && slices.ContainsFunc(raceReports(runs[n].failures), lostSync)
		}), nil
	})
}

// lostSync reports whether a race report is between goroutines of the
// testing package alone: each access was made by the main goroutine or by
// a goroutine testing.(*T).Run created (a test's own goroutine, not one
// the code under test started). The tests of a file run one after
// another, each starting after the one before it ended, so two of them
// can only race if the race detector lost the synchronisation that
// orders them: code that disables the detector's synchronisation
// tracking and panics before it enables it again leaves the test's
// goroutine so (sync.Pool.Get on a nil *sync.Pool does, in Go 1.26), and
// the tests after it race with it on the testing package's own state or
// on pooled buffers. That is not a race of R or E, only a test that
// fails under -race.
func lostSync(report string) bool {
	accessors, created := map[string]bool{}, map[string]string{}
	lines := strings.Split(report, "\n")
	for i, line := range lines {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasSuffix(line, " by main goroutine:"):
			accessors["main"] = true
		case strings.Contains(line, " by goroutine ") && strings.HasSuffix(line, ":"):
			id := line[strings.LastIndex(line, " ")+1 : len(line)-1]
			accessors[id] = true
		case strings.HasPrefix(line, "Goroutine ") && strings.HasSuffix(line, " created at:") && i+1 < len(lines):
			id, _, _ := strings.Cut(strings.TrimPrefix(line, "Goroutine "), " ")
			fn := strings.TrimSpace(lines[i+1])
			if p := strings.LastIndexByte(fn, '('); p > 0 {
				fn = fn[:p]
			}
			created[id] = fn
		}
	}
	if len(accessors) < 2 {
		return false
	}
	for id := range accessors {
		if id != "main" && created[id] != "testing.(*T).Run" {
			return false
		}
	}
	return true
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

// raceReports returns the race reports in the outputs of a test's
// failed runs, in order.
func raceReports(outputs []string) []string {
	var out []string
	for _, output := range outputs {
		for {
			i := strings.Index(output, raceMarker)
			if i < 0 {
				break
			}
			output = output[i:]
			end := strings.Index(output, "==================")
			if end < 0 {
				out = append(out, output)
				break
			}
			out = append(out, output[:end])
			output = output[end:]
		}
	}
	return out
}
