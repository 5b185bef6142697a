package mutate

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/cling-go/cling/internal/gotest"
)

// runBinary runs a test binary of suite s in the suite's directory, once
// (-test.count=1: a test starts at most once) and with
// -test.paniconexit0, so that a test calling os.Exit(0) fails. Its framed
// output is read as it comes, without go tool test2json: a run of mutants
// costs one process and its timeout covers the binary alone. An error is
// returned only when the binary could not run, or ctx was cancelled.
func runBinary(ctx context.Context, bin string, s *suite, opts gotest.RunOptions) (*gotest.Outcome, error) {
	opts.Binary, opts.Dir, opts.Count = bin, s.dir, 1
	opts.Flags = append([]string{"-test.paniconexit0"}, opts.Flags...)
	out, err := gotest.Run(ctx, opts)
	if err != nil {
		return nil, err
	}
	var ee *exec.ExitError
	if out.Err != nil && !errors.As(out.Err, &ee) {
		return nil, out.Err
	}
	return out, nil
}

// runMutant runs the named tests of suite s on binary bin with mutant id
// active, stopping at the first failure; its process group is killed when
// the suite's time limit for those tests expires.
func (r *runner) runMutant(ctx context.Context, bin string, s *suite, id int, tests []string) (*gotest.Outcome, error) {
	return runBinary(ctx, bin, s, gotest.RunOptions{
		Env:   testEnv("CLING_MUTANT=" + strconv.Itoa(id)),
		Flags: []string{"-test.failfast"},
		Run:   gotest.RunPattern(tests),
		Kill:  r.timeout(s, tests),
	})
}

// started lists the top-level tests that began in a run, in order.
func started(o *gotest.Outcome) []*gotest.Test {
	var out []*gotest.Test
	for _, t := range o.Tests {
		if t.Runs > 0 {
			out = append(out, t)
		}
	}
	return out
}

// failedTests lists the tests that failed in a run, and else the test
// that was running when the binary exited with an error: the last one
// that began and did not end. A mutant needs one test that killed it,
// where the verification of a generated file drops every test a dying
// process left unfinished.
func failedTests(o *gotest.Outcome) []string {
	var out []string
	tests := started(o)
	for _, t := range tests {
		if t.Last == "fail" {
			out = append(out, t.Name)
		}
	}
	if len(out) == 0 && o.Exit != 0 {
		for i := len(tests) - 1; i >= 0; i-- {
			if tests[i].Last == "" {
				return []string{tests[i].Name}
			}
		}
	}
	return out
}

// testEnv is the environment of test binaries: the user's, without
// cling's own variables, plus extra.
func testEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CLING_MUTANT=") || strings.HasPrefix(kv, "CLING_MUTCOV=") || strings.HasPrefix(kv, "CLING_COVER_DIR=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}
