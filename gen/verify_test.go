package gen

import (
	"testing"

	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
)

// A failing test loses the assertions its failure points to when each of
// them compares a value, and the observations the file did not assert
// (here a field at the end, beyond the file's bound); it is dropped when
// it did not run to its end, when it failed at an unexpected error or a
// missing panic, or where no assertion of its own is.
func TestWithoutFailedAssertions(t *testing.T) {
	noErr := testcase.Observation{Ref: testcase.Ref{Stmt: 1, Result: 1}, Kind: testcase.ObsNoError}
	label := testcase.Observation{Ref: testcase.Ref{Stmt: 1}, Kind: testcase.ObsString, Text: "#3"}
	length := testcase.Observation{Ref: testcase.Ref{Stmt: 1}, Path: ".Len", End: true, Kind: testcase.ObsInt, Text: "2"}
	unasserted := testcase.Observation{Ref: testcase.Ref{Stmt: 1}, Path: ".Cap", End: true, Kind: testcase.ObsInt, Text: "4"}
	outcome := &testcase.Outcome{
		Observations: []testcase.Observation{noErr, label, length, unasserted},
		Panicked:     true, PanicStmt: 2, PanicText: "boom", PanicIsText: true,
	}
	test := namedTest{Test: emit.Test{Name: "TestA", Outcome: outcome}, goals: []int32{4}, assertionsDropped: 1}
	// TestA is the file's second test; the first one's assertion is on
	// line 8.
	assertions := []emit.Assertion{
		{Test: 0, From: 8, To: 10, Observation: label},
		{Test: 1, From: 20, To: 22, Observation: noErr},
		{Test: 1, From: 23, To: 25, Observation: label},
		{Test: 1, From: 26, To: 28, Observation: length},
		{Test: 1, From: 29, To: 29, Panic: true, PanicValue: true},
	}
	withOutcome := func(obs []testcase.Observation, panicText string, dropped int) namedTest {
		o := *outcome
		o.Observations = obs
		if panicText == "" {
			o.PanicIsText = false
		}
		o.PanicText = panicText
		t := test
		t.Outcome = &o
		t.assertionsDropped = dropped
		return t
	}
	for _, tc := range []struct {
		name        string
		failure     failure
		assertions  []emit.Assertion
		want        namedTest
		wantRelaxed bool
	}{
		{"one value", failure{lines: []int{24}}, assertions,
			withOutcome([]testcase.Observation{noErr, length}, "boom", 2), true},
		{"two values, each twice", failure{lines: []int{23, 28, 23, 28}}, assertions,
			withOutcome([]testcase.Observation{noErr}, "boom", 3), true},
		{"the panic's value", failure{lines: []int{29}}, assertions,
			withOutcome([]testcase.Observation{noErr, label, length}, "", 2), true},
		{"a panic without a value", failure{lines: []int{29}}, []emit.Assertion{{Test: 1, From: 29, To: 29, Panic: true}}, test, false},
		{"an unexpected error", failure{lines: []int{21, 24}}, assertions, test, false},
		{"no assertion there", failure{lines: []int{19}}, assertions, test, false},
		{"another test's assertion", failure{lines: []int{9}}, assertions, test, false},
		{"broken", failure{lines: []int{24}, broken: true}, assertions, test, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := withoutFailedAssertions(test, 1, &tc.failure, tc.assertions)
			assert.Equal(t, tc.wantRelaxed, ok)
			assert.Equal(t, tc.want, got)
		})
	}
	assert.Equal(t, []testcase.Observation{noErr, label, length, unasserted}, outcome.Observations, "the test's outcome stays as it was")
}
