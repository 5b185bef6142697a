package fault_test

import (
	"testing"

	"github.com/cling-go/cling/fault"
	"github.com/cling-go/cling/harness"
	"github.com/stretchr/testify/assert"
)

// How an execution ended decides its class and the kind of a fault, from
// the type of the panic value and the runtime's own messages.
func TestClassify(t *testing.T) {
	cases := []struct {
		name  string
		r     harness.Result
		class fault.Class
		kind  fault.Kind
	}{
		{"passed", harness.Result{Status: harness.Passed}, fault.Normal, ""},
		{"exited", harness.Result{Status: harness.Exited, Message: "exit status 3"}, fault.Normal, ""},
		{"explicit", harness.Result{Status: harness.Panicked, PanicType: "string", Message: "runtime error: not really"}, fault.Explicit, fault.ExplicitPanic},
		{"nil", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.errorString", Message: "runtime error: invalid memory address or nil pointer dereference"}, fault.Candidate, fault.NilDereference},
		{"index", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.boundsError", Message: "runtime error: index out of range [3] with length 3"}, fault.Candidate, fault.IndexOutOfRange},
		{"slice", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.boundsError", Message: "runtime error: slice bounds out of range [:4] with capacity 3"}, fault.Candidate, fault.SliceOutOfRange},
		{"divide", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.runtimeError", Message: "runtime error: integer divide by zero"}, fault.Candidate, fault.DivideByZero},
		{"nil map", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.plainError", Message: "assignment to entry in nil map"}, fault.Candidate, fault.NilMapWrite},
		{"assertion", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "*runtime.TypeAssertionError", Message: "interface conversion: interface {} is string, not int"}, fault.Candidate, fault.TypeAssertion},
		{"closed", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.plainError", Message: "close of closed channel"}, fault.Candidate, fault.CloseOfClosed},
		{"close nil", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.plainError", Message: "close of nil channel"}, fault.Candidate, fault.CloseOfNil},
		{"makeslice", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "runtime.errorString", Message: "runtime error: makeslice: len out of range"}, fault.Candidate, fault.BadLength},
		{"wrapped", harness.Result{Status: harness.Panicked, RuntimeError: true, PanicType: "*fmt.wrapError", Message: "parse: runtime error: index out of range [1] with length 1"}, fault.Candidate, fault.RuntimeError},
		{"leak", harness.Result{Status: harness.Passed, Leak: "example.com/m/p.F.func1 /m/p/p.go:3\n"}, fault.Candidate, fault.Leak},
		{"explicit and leak", harness.Result{Status: harness.Panicked, Leak: "example.com/m/p.F.func1 /m/p/p.go:3\n"}, fault.Candidate, fault.Leak},
		{"leak at the search's grace", harness.Result{Status: harness.Passed, Leak: "example.com/m/p.F.func1 /m/p/p.go:3\n", LeakCut: true}, fault.Slow, fault.Leak},
		{"explicit and leak at the search's grace", harness.Result{Status: harness.Panicked, Leak: "example.com/m/p.F.func1 /m/p/p.go:3\n", LeakCut: true}, fault.Slow, fault.Leak},
		{"hang", harness.Result{Status: harness.TimedOut, Message: "running"}, fault.Candidate, fault.Hang},
		{"blocked", harness.Result{Status: harness.TimedOut, Message: "blocked for ever: select (no cases)"}, fault.Candidate, fault.Deadlock},
		{"blocked on a channel nothing reaches", harness.Result{Status: harness.TimedOut, Message: "blocked for ever: chan receive (leaked)"}, fault.Candidate, fault.Hang},
		{"cut", harness.Result{Status: harness.Cut, Message: "running"}, fault.Slow, fault.Hang},
		{"stack overflow", harness.Result{Status: harness.Crashed, Message: "fatal error: stack overflow"}, fault.Candidate, fault.StackOverflow},
		{"map writes", harness.Result{Status: harness.Crashed, Message: "fatal error: concurrent map writes"}, fault.Candidate, fault.ConcurrentMap},
		{"map read", harness.Result{Status: harness.Crashed, Message: "fatal error: concurrent map read and map write"}, fault.Candidate, fault.ConcurrentMap},
		{"goroutine", harness.Result{Status: harness.Crashed, Message: "panic: runtime error: index out of range [2] with length 2"}, fault.Candidate, "panic in a goroutine: index out of range"},
		{"goroutine explicit", harness.Result{Status: harness.Crashed, Message: "panic: boom"}, fault.Candidate, fault.GoroutinePanic},
		{"no report", harness.Result{Status: harness.Crashed}, fault.Normal, ""},
	}
	for _, tc := range cases {
		class, kind := fault.Classify(tc.r)
		assert.Equal(t, tc.class, class, tc.name)
		assert.Equal(t, tc.kind, kind, tc.name)
	}
}

// Kinds that end the process, that never end, and that a nil value
// causes.
func TestKindProperties(t *testing.T) {
	assert.True(t, fault.StackOverflow.Fatal())
	assert.True(t, fault.Kind("panic in a goroutine: nil dereference").Fatal())
	assert.False(t, fault.NilDereference.Fatal())
	assert.True(t, fault.Hang.Hangs())
	assert.True(t, fault.Deadlock.Hangs())
	assert.False(t, fault.Leak.Hangs())
	assert.True(t, fault.NilMapWrite.Nil())
	assert.False(t, fault.IndexOutOfRange.Nil())
}

// A stack from the executor reads back into frames.
func TestParseStack(t *testing.T) {
	frames := fault.ParseStack("example.com/m/e.(*T).Get /m/e/e.go:46\nexample.com/m/r.F /m/r/r.go:7\n")
	assert.Equal(t, []fault.Frame{
		{Func: "example.com/m/e.(*T).Get", File: "/m/e/e.go", Line: 46},
		{Func: "example.com/m/r.F", File: "/m/r/r.go", Line: 7},
	}, frames)
	assert.Equal(t, "/m/e/e.go:46", frames[0].Pos())
}

// A kind names reproducers.
func TestKindIdent(t *testing.T) {
	assert.Equal(t, "IndexOutOfRange", fault.IndexOutOfRange.Ident())
	assert.Equal(t, "NilMapAssignment", fault.NilMapWrite.Ident())
	assert.Equal(t, "PanicInGoroutine", fault.Kind("panic in a goroutine: nil dereference").Ident())
	assert.Equal(t, "AllGoroutinesAsleep", fault.Deadlock.Ident())
}

// A report of the race detector reads into frames: the racing access
// first, then the earlier one and where the goroutines were created.
func TestParseRaceReport(t *testing.T) {
	report := `WARNING: DATA RACE
Read at 0x00c000012345 by goroutine 8:
  example.com/m/e.(*Counter).Recount.func1()
      /m/e/e.go:121 +0x4a

Previous write at 0x00c000012345 by goroutine 7:
  example.com/m/e.(*Counter).Recount.func1()
      /m/e/e.go:121 +0x5c

Goroutine 8 (running) created at:
  example.com/m/e.(*Counter).Recount()
      /m/e/e.go:115 +0x1d
  example.com/m/r.(*Catalog).Recount()
      /m/r/r.go:96 +0x2e
`
	assert.Equal(t, []fault.Frame{
		{Func: "example.com/m/e.(*Counter).Recount.func1", File: "/m/e/e.go", Line: 121},
		{Func: "example.com/m/e.(*Counter).Recount.func1", File: "/m/e/e.go", Line: 121},
		{Func: "example.com/m/e.(*Counter).Recount", File: "/m/e/e.go", Line: 115},
		{Func: "example.com/m/r.(*Catalog).Recount", File: "/m/r/r.go", Line: 96},
	}, fault.ParseRaceReport(report))
}

// A closure and the body of a range over a function are named after the
// function they belong to.
func TestBareName(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m/cty.Get":                           "Get",
		"example.com/m/cty.(*Set).Add":                    "Add",
		"example.com/m/cty.Get.func1":                     "Get",
		"example.com/m/cty.Get.func1.2":                   "Get",
		"example.com/m/cty.Get.gowrap1":                   "Get",
		"example.com/m/cty.UnknownValWithMarks-range1":    "UnknownValWithMarks",
		"example.com/m/cty.Walk-range1-range2":            "Walk",
		"example.com/m/cty.Walk-range1.func3":             "Walk",
		"example.com/m/cty.(*Value).Elems-range2.func1.1": "Elems",
		"example.com/m-range1/cty.Get":                    "Get",
		"example.com/m/cty.Strange-rangeX":                "Strange-rangeX",
	} {
		assert.Equal(t, want, fault.BareName(in), in)
	}
}
