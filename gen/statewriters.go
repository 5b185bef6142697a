package gen

import (
	"context"
	"slices"
)

// maxWritersProbed bounds the tests that change package-level state that
// stateCulprits tries one by one; with more, they are all blamed.
const maxWritersProbed = 64

// stateSuspects splits a file's tests for blame: the tests that change
// package-level state (writers), and the tests that change none and
// failed (victims). go test -count=N runs the file's tests N times in one
// process, so from the second time on every test runs after the state
// changes of the writers, which the file places last.
func stateSuspects(tests []namedTest, failures map[string]*failure) (writers, victims []string) {
	for _, t := range tests {
		switch {
		case writesState(t.Test.Test):
			writers = append(writers, t.Name)
		case failures[t.Name] != nil:
			victims = append(victims, t.Name)
		}
	}
	return writers, victims
}

// runNamed runs the named tests of the file's test binary n times each,
// in file order, in one process (and more after a test that ended one),
// and says what their runs showed.
type runNamed func(ctx context.Context, names []string, n int) (map[string]*testRuns, error)

// stateCulprits returns the writers to drop for the victims' failures,
// all found with the binary at hand: first those of culpritsOf; then,
// since without them the others' state may break other tests, the file
// (names, in file order) runs again without them, twice in one process,
// and the remaining writers are tried on the tests that now fail, until
// none fails for a writer's state. It returns nil when no victim is
// broken by the file's state.
func stateCulprits(ctx context.Context, run runNamed, names, writers, victims []string) ([]string, error) {
	var culprits []string
	suspects := writers
	for len(victims) > 0 && len(suspects) > 0 {
		found, err := culpritsOf(ctx, run, suspects, victims)
		if err != nil || len(found) == 0 {
			return culprits, err
		}
		culprits = append(culprits, found...)
		suspects = without(suspects, found)
		if len(suspects) == 0 {
			break
		}
		rest := without(names, culprits)
		runs, err := run(ctx, rest, 2)
		if err != nil {
			return nil, err
		}
		victims = nil
		for _, n := range rest {
			if r := runs[n]; r != nil && r.fails > 0 && !slices.Contains(suspects, n) {
				victims = append(victims, n)
			}
		}
	}
	return culprits, nil
}

// culpritsOf returns the writers that make a victim fail when the two run
// together, twice in one process, where the victim alone passes twice. A
// victim that fails alone fails for itself, and blames no writer. When a
// victim fails with no single writer but with all of them (several
// writers together break it), or there are more writers than
// maxWritersProbed, every writer is blamed. It returns nil when no victim
// passes alone, or none fails even beside all the writers (its failure
// was not the state's), or the writers blamed outnumber the victims they
// break (see worthDropping).
func culpritsOf(ctx context.Context, run runNamed, writers, victims []string) ([]string, error) {
	if len(writers) == 0 || len(victims) == 0 {
		return nil, nil
	}
	alone, err := run(ctx, victims, 2)
	if err != nil {
		return nil, err
	}
	var harmed []string
	for _, v := range victims {
		if r := alone[v]; r != nil && r.fails == 0 && r.passes > 0 {
			harmed = append(harmed, v)
		}
	}
	if len(harmed) == 0 {
		return nil, nil
	}
	if len(writers) > maxWritersProbed {
		return worthDropping(writers, harmed), nil
	}
	var culprits []string
	for _, w := range writers {
		runs, err := run(ctx, append(slices.Clone(harmed), w), 2)
		if err != nil {
			return nil, err
		}
		if anyFailed(runs, harmed) {
			culprits = append(culprits, w)
		}
	}
	if len(culprits) == 0 {
		// No single writer: all of them together, or the failure is not
		// the state's (a value that differs between processes).
		runs, err := run(ctx, append(slices.Clone(harmed), writers...), 2)
		if err != nil {
			return nil, err
		}
		if anyFailed(runs, harmed) {
			return worthDropping(writers, harmed), nil
		}
	}
	return worthDropping(culprits, harmed), nil
}

// worthDropping returns the culprits when they are no more than the
// victims they break, nil otherwise. Dropping the culprits keeps the
// victims as they are; not dropping them leaves the victims to verify,
// which takes out the assertions of theirs that failed on a value, or
// drops them. A module whose every call fills a package-level cache
// (a decoder compiled once per type, a buffer pool) has nearly every
// test for a writer, and one test whose result shows the cache would
// otherwise cost the file all of them.
func worthDropping(culprits, victims []string) []string {
	if len(culprits) > len(victims) {
		return nil
	}
	return culprits
}

// anyFailed reports whether a run of one of the named tests failed.
func anyFailed(runs map[string]*testRuns, names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return runs[n] != nil && runs[n].fails > 0 })
}

// interferers returns the tests of the file beside which failed tests
// that pass alone fail: state the static analysis did not see as
// package-level (a flag registered on a shared flag set, a registry of
// another package) that one test leaves and another trips on. Each
// failed test runs alone, twice in one process; those that pass are the
// victims, and the culprits are searched among the other tests by
// halving (see bisectCulprits). It returns nil when every failed test
// fails alone too, or the culprits outnumber the victims (see
// worthDropping).
func interferers(ctx context.Context, run runNamed, names []string, failures map[string]*failure) ([]string, error) {
	var failed, victims []string
	for _, n := range names {
		if failures[n] != nil {
			failed = append(failed, n)
		}
	}
	if len(names) < 2 {
		return nil, nil
	}
	for _, n := range failed {
		runs, err := run(ctx, []string{n}, 2)
		if err != nil {
			return nil, err
		}
		if !anyFailed(runs, []string{n}) {
			victims = append(victims, n)
		}
	}
	culprits, err := bisectCulprits(ctx, run, victims, without(names, victims), 2)
	return worthDropping(culprits, victims), err
}

// without returns the names not in drop, in order.
func without(names, drop []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(drop, n) {
			out = append(out, n)
		}
	}
	return out
}

// withoutNames returns the tests whose names are not in names.
func withoutNames(tests []namedTest, names []string) []namedTest {
	var kept []namedTest
	for _, t := range tests {
		if !slices.Contains(names, t.Name) {
			kept = append(kept, t)
		}
	}
	return kept
}
