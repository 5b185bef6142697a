package harness

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
)

// Literal tags on the wire; they match the executor's.
const (
	litInt = iota
	litUint
	litFloat
	litString
	litBool
)

// appendTest encodes one test: per statement the op, the argument slots
// (0 for omitted, slot+1 otherwise), the literal of a primitive, and the
// variant and constant of a function literal.
func appendTest(buf []byte, t *testcase.Test) []byte {
	base := make([]int, len(t.Stmts))
	slots := 0
	for i, s := range t.Stmts {
		base[i] = slots
		slots += len(s.Op.Outputs())
	}
	buf = binary.AppendUvarint(buf, uint64(len(t.Stmts)))
	for _, s := range t.Stmts {
		buf = binary.AppendUvarint(buf, uint64(s.Op.ID))
		buf = binary.AppendUvarint(buf, uint64(len(s.Args)))
		for _, a := range s.Args {
			if a.IsOmitted() {
				buf = append(buf, 0)
				continue
			}
			buf = binary.AppendUvarint(buf, uint64(base[a.Stmt]+a.Result+1))
		}
		switch s.Op.Kind {
		case testcase.OpPrim:
			buf = appendLiteral(buf, s.Value)
		case testcase.OpFunc:
			// The variant, then its constant (false when it has none).
			lit, _ := s.Value.(testcase.FuncLit)
			buf = binary.AppendUvarint(buf, uint64(lit.Variant))
			if lit.Const == nil {
				buf = appendLiteral(buf, false)
			} else {
				buf = appendLiteral(buf, lit.Const)
			}
		}
	}
	return buf
}

func appendLiteral(buf []byte, v any) []byte {
	switch x := v.(type) {
	case int64:
		buf = append(buf, litInt)
		return binary.AppendVarint(buf, x)
	case uint64:
		buf = append(buf, litUint)
		return binary.AppendUvarint(buf, x)
	case float64:
		buf = append(buf, litFloat)
		return binary.LittleEndian.AppendUint64(buf, math.Float64bits(x))
	case string:
		buf = append(buf, litString)
		buf = binary.AppendUvarint(buf, uint64(len(x)))
		return append(buf, x...)
	case bool:
		buf = append(buf, litBool)
		if x {
			return append(buf, 1)
		}
		return append(buf, 0)
	}
	panic(fmt.Sprintf("harness: literal of type %T", v))
}

// Request flags; they match the executor's.
const (
	reqObserve = 1 << iota
	reqCareful
	reqWaitOnCut
)

// request is what one round trip asks of a worker: the tests, what to
// observe, and the limits.
type request struct {
	observe bool
	// careful asks for every result before the next test runs, so that a
	// test that kills the worker is known exactly.
	careful bool
	// waitOnCut keeps waiting at the adaptive limit, until the full
	// timeout, for a test that is not blocked for ever.
	waitOnCut bool
	// cut and cpuCut are the adaptive limits on the time a test runs and
	// on the CPU time it uses, timeout the full limit.
	cut, cpuCut, timeout time.Duration
	// leakCut, if not 0, is how long the goroutines a test started may
	// outlive it before they count as a leak, instead of the executor's
	// full grace.
	leakCut time.Duration
	// stepCut, if not 0, is a step bound (branch outcomes of R and E; see
	// rt.BoundSteps) below the timeout's, past which a test is cut.
	stepCut uint64
}

// encodeRequest encodes a request for tests.
func encodeRequest(tests []*testcase.Test, req request) []byte {
	var flags byte
	if req.observe {
		flags |= reqObserve
	}
	if req.careful {
		flags |= reqCareful
	}
	if req.waitOnCut {
		flags |= reqWaitOnCut
	}
	buf := []byte{flags}
	buf = binary.AppendUvarint(buf, uint64(req.cut/time.Microsecond))
	buf = binary.AppendUvarint(buf, uint64(req.cpuCut/time.Microsecond))
	buf = binary.AppendUvarint(buf, uint64(req.timeout/time.Microsecond))
	buf = binary.AppendUvarint(buf, uint64(req.leakCut/time.Microsecond))
	buf = binary.AppendUvarint(buf, req.stepCut)
	buf = binary.AppendUvarint(buf, uint64(len(tests)))
	for _, t := range tests {
		buf = appendTest(buf, t)
	}
	return buf
}

// Status is how a test execution ended: the kind of its result.
type Status int

const (
	// Passed: the test ran to its end.
	Passed Status = iota
	// Panicked: a statement panicked.
	Panicked
	// Exited: the caller or callee asked the process to end (os.Exit,
	// log.Fatal; the instrumentation turns the call into a result), or
	// the test's goroutine called runtime.Goexit. The worker survives.
	Exited
	// Cut: the test ran past the adaptive limit during the search and was
	// stopped there, without waiting for the full timeout; it is not known
	// to hang (see Executor.Explore).
	Cut
	// TimedOut: a confirmed hang. The test exceeded the full timeout, or
	// every goroutine it left is blocked for ever (select{}, a nil
	// channel).
	TimedOut
	// Crashed: the test ended the runtime (a fatal runtime error such as
	// a concurrent map write or a stack overflow, memory exhaustion, an
	// exit the instrumentation could not intercept), which costs the
	// worker; or a goroutine recursed past the executor's stack bound, a
	// stack overflow stopped before the runtime's, or a goroutine that R
	// or E started with a function literal panicked, both of which the
	// worker survives (Result.WorkerSurvived).
	Crashed
)

var statusNames = [...]string{"passed", "panicked", "exited", "cut", "timed out", "crashed"}

// StackOverflow is the message of a crash by stack overflow: the
// runtime's, and that of a recursion stopped at the executor's bound.
const StackOverflow = "fatal error: stack overflow"

func (s Status) String() string { return statusNames[s] }

// Result is the outcome of one test execution.
type Result struct {
	// Status is the kind of the outcome.
	Status Status
	// Trace is the probes' record of a test that passed or panicked (nil
	// otherwise: the search learns nothing from a test that did not end as
	// it would in a written test).
	Trace *rt.Trace
	// Stmt is the statement that panicked, exited or hung (-1 when not
	// known: a crash).
	Stmt int
	// Message says what happened: the panic's message, "exit status 3" (and
	// the log message of log.Fatal), "runtime.Goexit called", the wait
	// reason of a hung test ("blocked for ever: select (no cases)",
	// "running"), or the first line of a crash's report ("fatal error:
	// concurrent map writes"). A stack overflow has the runtime's message,
	// StackOverflow, whether the worker died of it or not.
	Message string
	// Frame is the innermost frame of R or E where it happened, as
	// "file:line function" ("" if none).
	Frame string
	// Stack lists the frames where it happened, innermost first, one
	// "function file:line" per line: from the frame that raised a panic,
	// where a hung test's goroutine waits or runs, where a crash happened
	// (the crashed goroutine), to the call the test made. The runtime's
	// innermost frames and the executor's own are left out.
	Stack string
	// RuntimeError is true for a panic whose value is an error of the Go
	// runtime (runtime.Error: a nil dereference, an index out of range, a
	// failed type assertion, ...) or an error that wraps one; PanicType is
	// the dynamic type of the panic value ("runtime.boundsError",
	// "*errors.errorString", "string").
	RuntimeError bool
	PanicType    string
	// Leak is, for a test that passed or panicked, the stack (as Stack)
	// of a goroutine the test started that was still running a short
	// grace period after the test ended; "" if none was. LeakCut marks a
	// leak judged at the shorter grace a search learns (see
	// Executor.Explore), which the full grace may not confirm.
	Leak    string
	LeakCut bool
	// settle is how long the goroutines a test started took to end after
	// it, when they did within the grace (0 if it started none).
	settle time.Duration
	// ExitCode is the status an exit asked for; Goexit tells
	// runtime.Goexit apart.
	ExitCode int
	Goexit   bool
	// WorkerSurvived marks a crash that did not cost the worker: a stack
	// overflow stopped at the executor's bound (see docs/generation.md).
	// Its Stmt and Frame are known, unlike those of a crash that killed
	// the worker.
	WorkerSurvived bool
	// Duration is how long the test ran, as the worker measured it;
	// CPUTime estimates the CPU time it used (at most Duration, and less
	// for a test the machine's load slowed down).
	Duration, CPUTime time.Duration
	// Outcome holds the observations when they were requested.
	Outcome *testcase.Outcome
}

// Statuses on the wire; they match the executor's.
const (
	wireOK = iota
	wirePanic
	wireExit
	wireGoexit
	wireCut
	wireHang
	wireOverflow
	wireGoPanic
	flagLeak     = 0x40
	flagRetiring = 0x80
	flagSettled  = 0x10
	flagLeakCut  = 0x20
)

// Regression reports whether an execution may stand in a regression
// test: it passed, or panicked with a value the code itself chose (an
// explicit panic, which the test asserts), and left no goroutine running.
// A runtime error, a leak, a hang or a crash is a fault to report, not
// behaviour to pin.
func (r Result) Regression() bool {
	switch r.Status {
	case Passed:
	case Panicked:
		if r.RuntimeError {
			return false
		}
	default:
		return false
	}
	return r.Trace != nil && r.Leak == ""
}

var errResult = errors.New("malformed result from the executor")

// decodeResult decodes one result frame; retiring reports that the worker
// exits after it.
func decodeResult(b []byte, observe bool) (res Result, retiring bool, err error) {
	r := &reader{b: b}
	st := r.byte()
	retiring = st&flagRetiring != 0
	leaked := st&flagLeak != 0
	res.LeakCut = st&flagLeakCut != 0
	settled := st&flagSettled != 0
	st &^= flagRetiring | flagLeak | flagLeakCut | flagSettled
	res.Duration = time.Duration(r.uvarint()) * time.Microsecond
	res.CPUTime = time.Duration(r.uvarint()) * time.Microsecond
	if settled {
		res.settle = time.Duration(r.uvarint()) * time.Microsecond
	}
	if leaked {
		res.Leak = r.str()
	}
	out := &testcase.Outcome{}
	if st != wireOK {
		res.Stmt = int(r.uvarint())
		var isErr, isText bool
		if st == wirePanic {
			isErr, isText = r.byte() == 1, r.byte() == 1
			res.RuntimeError = r.byte() == 1
			res.PanicType = r.str()
		}
		res.Message = r.str()
		res.Frame = r.str()
		res.Stack = r.str()
		switch st {
		case wirePanic:
			res.Status = Panicked
			out.Panicked, out.PanicStmt = true, res.Stmt
			out.PanicIsError, out.PanicIsText, out.PanicText = isErr, isText, res.Message
		case wireExit:
			res.Status = Exited
			res.ExitCode = int(r.varint())
			text := fmt.Sprintf("exit status %d", res.ExitCode)
			if res.Message != "" {
				text += ": " + res.Message
			}
			res.Message = text
		case wireGoexit:
			res.Status, res.Goexit = Exited, true
		case wireCut:
			res.Status = Cut
		case wireHang:
			res.Status = TimedOut
		case wireOverflow:
			res.Status, res.Message, res.WorkerSurvived = Crashed, StackOverflow, true
		case wireGoPanic:
			// A goroutine of R or E panicked: Message is the report's
			// first line, "panic: ...", as when it ended the process.
			res.Status, res.WorkerSurvived = Crashed, true
		default:
			return res, retiring, errResult
		}
	}
	tr := r.bytes()
	if r.err != nil {
		return res, retiring, errResult
	}
	if res.Status == Passed || res.Status == Panicked {
		res.Trace, _, err = rt.DecodeTrace(tr)
		if err != nil {
			return res, retiring, err
		}
	}
	if observe {
		n := int(r.uvarint())
		for i := 0; i < n && r.err == nil; i++ {
			o := testcase.Observation{Ref: testcase.Ref{Stmt: int(r.uvarint()), Result: int(r.uvarint())}}
			o.Path = r.str()
			o.End = r.byte() == 1
			o.Kind = testcase.ObsKind(r.byte())
			o.Text = r.str()
			out.Observations = append(out.Observations, o)
		}
		if res.Status == Passed || res.Status == Panicked {
			res.Outcome = out
		}
	}
	if r.err != nil {
		return res, retiring, errResult
	}
	return res, retiring, nil
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errResult
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errResult
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errResult
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) bytes() []byte {
	n := int(r.uvarint())
	if r.err != nil || n > len(r.b) {
		r.err = errResult
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string { return string(r.bytes()) }
