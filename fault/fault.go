// Package fault classifies the executions of the search that end
// abnormally, cling's second output next to the tests: the integration
// faults its tests run into.
//
// Every execution the search makes (its first one, through the engine's
// watcher) is classified by how it ended (Classify) and by the test that
// made it (Misused):
//
//   - a fault candidate: a Go runtime error (a nil dereference, an index
//     or slice out of range, an integer division by zero, an assignment to
//     a nil map, a failed type assertion, a close of a closed or nil
//     channel, a negative length, ...) raised in the module's code or in
//     a library it called; a hang inside a call made at one of R's call
//     sites (the full timeout, or every goroutine blocked for ever); a
//     crash of the runtime (a stack overflow, concurrent map access, a
//     panic in a goroutine of the test); a goroutine the test started
//     that outlives it (a leak); and, found when the written tests run
//     under the race detector, a data race;
//   - outside the pair: a failure of code the test called itself, not
//     through R (see Locator.Outside);
//   - misuse: a runtime error caused directly by an argument the test
//     passed, the caller's mistake rather than a fault (see Misused);
//   - an explicit panic: panic(v) written by the code itself, documented
//     behaviour that the regression tests assert.
//
// A Collector deduplicates the fault candidates by kind, innermost frame
// of the module's code and call site, keeping the shortest test that
// showed each; gen minimises, confirms and writes one reproducer per
// fault.
package fault

import (
	"strings"

	"github.com/cling-go/cling/harness"
)

// Kind is the kind of a fault, as reports name it.
type Kind string

// The kinds of faults. The runtime errors are told apart by the type of
// the panic value and by the runtime's own messages, which are the same
// for every program.
const (
	NilDereference   Kind = "nil dereference"
	IndexOutOfRange  Kind = "index out of range"
	SliceOutOfRange  Kind = "slice bounds out of range"
	DivideByZero     Kind = "integer divide by zero"
	NilMapWrite      Kind = "nil map assignment"
	TypeAssertion    Kind = "failed type assertion"
	CloseOfClosed    Kind = "close of closed channel"
	CloseOfNil       Kind = "close of nil channel"
	BadLength        Kind = "negative or huge length"
	NegativeShift    Kind = "negative shift amount"
	Unhashable       Kind = "unhashable map key"
	RuntimeError     Kind = "runtime error"
	Deadlock         Kind = "all goroutines asleep"
	Hang             Kind = "hang"
	StackOverflow    Kind = "stack overflow"
	ConcurrentMap    Kind = "concurrent map access"
	OutOfMemory      Kind = "out of memory"
	GoroutinePanic   Kind = "panic in a goroutine"
	FatalError       Kind = "fatal error"
	Leak             Kind = "goroutine leak"
	Race             Kind = "data race"
	ExplicitPanic    Kind = "explicit panic"
	unclassifiedKind Kind = ""
)

// Class is what an execution means for fault finding.
type Class int

const (
	// Normal executions passed, exited, or ended in a way that says
	// nothing about a fault (a crash without a report).
	Normal Class = iota
	// Explicit: the code panicked with a value of its own.
	Explicit
	// Candidate: a fault candidate (see the package documentation).
	Candidate
	// Misuse: a runtime error the test caused with an argument (see
	// Misused).
	Misuse
	// Slow: the search stopped the test at its adaptive limit, or judged
	// its goroutines leaked at its shorter grace; a run with the full
	// timeout and grace tells whether it hangs or leaks.
	Slow
)

var classNames = [...]string{"normal", "explicit panic", "fault candidate", "misuse", "slow"}

func (c Class) String() string { return classNames[c] }

// leakClass is the class of a leak: a candidate, or, when the search judged
// it at its shorter grace (harness.Result.LeakCut), a test to run again
// with the full grace, as one stopped at the adaptive limit is.
func leakClass(r harness.Result) Class {
	if r.LeakCut {
		return Slow
	}
	return Candidate
}

// Classify tells from how an execution ended whether it is a fault
// candidate, an explicit panic, a slow test to run again, or normal, and
// the kind of a fault. It does not look at the test: Misused does, for
// the candidates.
func Classify(r harness.Result) (Class, Kind) {
	switch r.Status {
	case harness.Passed:
		if r.Leak != "" {
			return leakClass(r), Leak
		}
	case harness.Panicked:
		if r.RuntimeError {
			return Candidate, runtimeErrorKind(r.PanicType, r.Message)
		}
		if r.Leak != "" {
			return leakClass(r), Leak
		}
		return Explicit, ExplicitPanic
	case harness.TimedOut:
		// Blocked for ever on a nil channel or in select{} is a deadlock;
		// on a channel or a lock nothing can reach any more (the
		// garbage collector found the goroutine leaked), as good as a
		// hang: the operation waits for what never comes.
		if strings.HasPrefix(r.Message, "blocked for ever") && !strings.HasSuffix(r.Message, "(leaked)") {
			return Candidate, Deadlock
		}
		return Candidate, Hang
	case harness.Cut:
		return Slow, Hang
	case harness.Crashed:
		if k := crashKind(r.Message); k != unclassifiedKind {
			return Candidate, k
		}
	}
	return Normal, unclassifiedKind
}

// runtimeErrorKind is the kind of a runtime error from the type of the
// panic value and the runtime's message.
func runtimeErrorKind(typ, msg string) Kind {
	switch typ {
	case "*runtime.TypeAssertionError":
		return TypeAssertion
	case "runtime.boundsError":
		if strings.Contains(msg, "slice bounds out of range") {
			return SliceOutOfRange
		}
		return IndexOutOfRange
	}
	return kindOfMessage(msg)
}

// kindOfMessage is the kind of a runtime error from the runtime's
// message.
func kindOfMessage(msg string) Kind {
	msg = strings.TrimPrefix(msg, "runtime error: ")
	switch {
	case strings.HasPrefix(msg, "invalid memory address or nil pointer dereference"):
		return NilDereference
	case strings.HasPrefix(msg, "index out of range"):
		return IndexOutOfRange
	case strings.HasPrefix(msg, "slice bounds out of range"):
		return SliceOutOfRange
	case strings.HasPrefix(msg, "integer divide by zero"):
		return DivideByZero
	case strings.HasPrefix(msg, "assignment to entry in nil map"):
		return NilMapWrite
	case strings.HasPrefix(msg, "interface conversion"):
		return TypeAssertion
	case strings.HasPrefix(msg, "close of closed channel"):
		return CloseOfClosed
	case strings.HasPrefix(msg, "close of nil channel"):
		return CloseOfNil
	case strings.HasPrefix(msg, "makeslice:"), strings.HasPrefix(msg, "makechan:"), strings.HasPrefix(msg, "growslice:"):
		return BadLength
	case strings.HasPrefix(msg, "negative shift amount"):
		return NegativeShift
	case strings.HasPrefix(msg, "hash of unhashable type"), strings.HasPrefix(msg, "comparing uncomparable type"):
		return Unhashable
	}
	return RuntimeError
}

// crashKind is the kind of a crash from the first line of the runtime's
// report; unclassifiedKind when there was no report (the process was
// killed, or exited where the instrumentation does not reach).
func crashKind(line string) Kind {
	if p, ok := strings.CutPrefix(line, "panic: "); ok {
		return GoroutinePanic + Kind(panicSuffix(p))
	}
	msg, ok := strings.CutPrefix(line, "fatal error: ")
	if !ok {
		return unclassifiedKind
	}
	switch {
	case strings.Contains(msg, "stack overflow"):
		return StackOverflow
	case strings.HasPrefix(msg, "concurrent map"):
		return ConcurrentMap
	case strings.HasPrefix(msg, "all goroutines are asleep"):
		return Deadlock
	case strings.Contains(msg, "out of memory"):
		return OutOfMemory
	}
	return FatalError
}

// panicSuffix names the runtime error of a panic in a goroutine, as in
// "panic in a goroutine: nil dereference"; "" for an explicit panic.
func panicSuffix(text string) string {
	if strings.HasPrefix(text, "runtime error: ") || strings.HasPrefix(text, "assignment to entry in nil map") ||
		strings.HasPrefix(text, "close of ") {
		return ": " + string(kindOfMessage(text))
	}
	return ""
}

// Ident is the kind as part of an identifier: NilDereference,
// IndexOutOfRange, GoroutinePanic.
func (k Kind) Ident() string {
	text, _, _ := strings.Cut(string(k), ":")
	var b strings.Builder
	for _, w := range strings.Fields(text) {
		if w == "a" || w == "an" {
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// Fatal reports whether a fault of kind k ends the process it happens in,
// whatever recovers: a reproducer of it ends its test binary.
func (k Kind) Fatal() bool {
	switch k {
	case StackOverflow, ConcurrentMap, OutOfMemory, FatalError:
		return true
	}
	return k.InGoroutine()
}

// InGoroutine reports whether a fault of kind k is a panic in a
// goroutine the code started (GoroutinePanic, alone or with the runtime
// error it was).
func (k Kind) InGoroutine() bool {
	return strings.HasPrefix(string(k), string(GoroutinePanic))
}

// Hangs reports whether a fault of kind k is a test that never ends.
func (k Kind) Hangs() bool { return k == Hang || k == Deadlock }

// Nil reports whether a fault of kind k is an operation on a nil value
// (in the test's goroutine or in one it started): one a nil argument of
// the test can cause directly.
func (k Kind) Nil() bool {
	switch k.inner() {
	case NilDereference, NilMapWrite, CloseOfNil, Deadlock:
		return true
	}
	return false
}

// outOfRange reports whether a fault of kind k is an index, a slice, a
// length or a shift out of range: one an integer of the test's can cause.
func (k Kind) outOfRange() bool {
	switch k.inner() {
	case IndexOutOfRange, SliceOutOfRange, BadLength, NegativeShift:
		return true
	}
	return false
}

// askedFor names, in a misuse reason, what an integer the test wrote was
// to a fault of kind k: an index, a shift, or a size (of an allocation,
// or of an input whose work hangs).
func (k Kind) askedFor() string {
	switch k.inner() {
	case IndexOutOfRange, SliceOutOfRange:
		return "an index"
	case NegativeShift:
		return "a shift"
	}
	return "a size"
}

// inner is the runtime error of a panic in a goroutine (NilDereference
// for "panic in a goroutine: nil dereference"); other kinds are their own.
func (k Kind) inner() Kind {
	if rest, ok := strings.CutPrefix(string(k), string(GoroutinePanic)+": "); ok {
		return Kind(rest)
	}
	return k
}
