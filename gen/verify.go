package gen

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/internal/gotest"
	"github.com/cling-go/cling/testcase"
)

// maxVerifyRounds bounds how often failing tests are dropped (or lose
// assertions) and the file verified again.
const maxVerifyRounds = 6

// verdict is what verify made of a set of tests.
type verdict struct {
	// src is the file of the tests that passed; nil when, after
	// maxVerifyRounds, some still failed.
	src []byte
	// passed are the tests of src, under the names they have in it.
	passed []namedTest
	// dropped are the names of the tests that did not compile or failed.
	dropped []string
}

// verify emits the tests and runs them, through an overlay of the output
// file only, with go test -count=N (vet included), until the file passes.
// A test that failed only on assertions of values (it ran to its end, and
// every failure it reported is at an assertion that compares a value the
// test observed) loses those assertions and stays; the others that failed
// are dropped. First verify renames the tests whose names a test file of
// R's directory declares (avoidNames). It keeps the tests that passed, in
// the order of their first goal.
func (j *job) verify(ctx context.Context, tests []namedTest) (verdict, error) {
	declared := j.declaredInTests()
	avoidNames(tests, declared)
	var dropped []string
	for round := 0; round < maxVerifyRounds && len(tests) > 0; round++ {
		sortNamed(tests)
		r, err := j.render(tests, declared)
		if err != nil {
			return verdict{}, err
		}
		run, err := j.runFile(ctx, r.Src, tests)
		if err != nil {
			return verdict{}, err
		}
		failures := run.failures
		if len(failures) == 0 {
			return verdict{src: r.Src, passed: tests, dropped: dropped}, nil
		}
		if len(run.culprits) > 0 {
			// Tests that change package-level state run last, yet the
			// runs after the first see their state, and so do the
			// package's own tests: those whose state broke tests that
			// pass without it go, not the tests that failed.
			if j.cfg.Debug != nil {
				fmt.Fprintf(j.cfg.Debug, "cling: tests whose package-level state broke other tests go: %s\n", strings.Join(run.culprits, ", "))
			}
			dropped = append(dropped, run.culprits...)
			tests = withoutNames(tests, run.culprits)
			continue
		}
		var keep []namedTest
		for i, t := range tests {
			f := failures[t.Name]
			if f == nil {
				keep = append(keep, t)
			} else if relaxed, ok := withoutFailedAssertions(t, i, f, r.Assertions); ok {
				keep = append(keep, relaxed)
			} else {
				dropped = append(dropped, t.Name)
			}
		}
		tests = keep
	}
	if len(tests) > 0 {
		dropped = append(dropped, namesOf(tests)...)
	}
	return verdict{dropped: dropped}, nil
}

// withoutFailedAssertions returns test t (the index-th of the file) without
// the assertions its failure points to, when each line it points to is an
// assertion of t that compares a value: an observed result or field, or
// the value a statement panics with. Then the test ran to its end and
// only a value differed: the search's executor saw a value that go test
// does not (a pointer, a function's address, a text that depends on the
// process, or state that the package's own test files set up). It
// reports false when the test did not run to its end, or failed where no
// such assertion is: an unexpected error stops it (require.NoError,
// t.Fatalf), and a panic that does not come, or one that does, is
// behaviour, not a value. The test keeps only the observations the file
// asserted and that held, so that the next file asserts no value this
// one did not (a field at the end of the test in place of one taken out).
func withoutFailedAssertions(t namedTest, index int, f *failure, assertions []emit.Assertion) (namedTest, bool) {
	if f.broken {
		return t, false
	}
	var failed []emit.Assertion
	for _, line := range f.lines {
		i := slices.IndexFunc(assertions, func(a emit.Assertion) bool {
			return a.Test == index && a.From <= line && line <= a.To
		})
		if i < 0 || !comparesValue(assertions[i]) {
			return t, false
		}
		if !slices.Contains(failed, assertions[i]) {
			failed = append(failed, assertions[i])
		}
	}
	held := func(o testcase.Observation) bool {
		return slices.ContainsFunc(assertions, func(a emit.Assertion) bool {
			return a.Test == index && !a.Panic && a.Observation == o && !slices.Contains(failed, a)
		})
	}
	out := *t.Outcome
	out.Observations = nil
	for _, o := range t.Outcome.Observations {
		// The releases the test defers are what it does, not values.
		if held(o) || o.Kind == testcase.ObsReleased {
			out.Observations = append(out.Observations, o)
		}
	}
	if slices.ContainsFunc(failed, func(a emit.Assertion) bool { return a.Panic }) {
		out.PanicText, out.PanicIsError, out.PanicIsText = "", false, false
	}
	t.Outcome = &out
	t.assertionsDropped += len(failed)
	return t, true
}

// comparesValue reports whether a failing assertion only says that a
// value differs: not that an error came where none did, nor that a panic
// did not come.
func comparesValue(a emit.Assertion) bool {
	if a.Panic {
		return a.PanicValue
	}
	return a.Observation.Kind != testcase.ObsNoError
}

// render renders the file of the tests, whose package-scope names must
// differ from the declared ones, and places its assertions.
func (j *job) render(tests []namedTest, declared map[string]bool) (*emit.Rendered, error) {
	a := j.a
	ets := make([]emit.Test, len(tests))
	for i, t := range tests {
		ets[i] = t.Test
	}
	header := fmt.Sprintf("%s\n\nIntegration tests of %s calling into %s. Each test drives %s's API so that a branch of %s runs inside a call made at one of %s's call sites (a coupled branch).",
		strings.TrimPrefix(Marker, "// "), a.Caller.Pkg.Path, a.Callee.Pkg.Path, a.Caller.Pkg.Name, a.Callee.Pkg.Name, a.Caller.Pkg.Name)
	return emit.Render(j.cluster, ets, emit.Options{
		Package:       a.Caller.Pkg.Name + "_test",
		Header:        header,
		Dialect:       j.dialect,
		MaxEndAsserts: 4,
		GoVersion:     j.goVersion(),
		Declared:      declared,
	})
}

// goVersion is the language version of the files cling writes: that of
// R's module.
func (j *job) goVersion() string {
	if m := j.a.Caller.Pkg.Module; m != nil && m.GoVersion != "" {
		return "go" + m.GoVersion
	}
	return "go1.16" // the go command's default without a go directive
}

// declaredInTests returns the package-scope names the other test files
// of R's directory (not the files cling writes) declare: in package
// R_test every kind of
// declaration, with which an import or a test of the generated file would
// clash, and in any test file the functions, so that a generated test is
// never confused with a hand-written one of the same name.
func (j *job) declaredInTests() map[string]bool {
	pkg := j.a.Caller.Pkg.Name + "_test"
	taken := map[string]bool{}
	for _, parsed := range j.ownTestFiles() {
		for _, name := range gotest.PackageScopeNames(parsed, parsed.Name.Name == pkg) {
			taken[name] = true
		}
	}
	return taken
}

// ownTestFiles parses the test files of R's directory, but for the file
// cling writes and its faults file; a file that does not parse is left
// out.
func (j *job) ownTestFiles() []*ast.File {
	files, _ := filepath.Glob(filepath.Join(j.a.Caller.Pkg.Dir, "*_test.go"))
	var parsed []*ast.File
	for _, f := range files {
		if filepath.Clean(f) == filepath.Clean(j.out) || j.faultsOut != "" && filepath.Clean(f) == filepath.Clean(j.faultsOut) {
			continue
		}
		if p, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.SkipObjectResolution); err == nil {
			parsed = append(parsed, p)
		}
	}
	return parsed
}
