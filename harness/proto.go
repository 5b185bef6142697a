package harness

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

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
// (0 for omitted, slot+1 otherwise) and the literal of a primitive.
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
		if s.Op.Kind == testcase.OpPrim {
			buf = appendLiteral(buf, s.Value)
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

// encodeBatch encodes a request: the observe flag and the tests.
func encodeBatch(tests []*testcase.Test, observe bool) []byte {
	var buf []byte
	if observe {
		buf = append(buf, 1)
	} else {
		buf = append(buf, 0)
	}
	buf = binary.AppendUvarint(buf, uint64(len(tests)))
	for _, t := range tests {
		buf = appendTest(buf, t)
	}
	return buf
}

// Status is how a test execution ended.
type Status int

const (
	// Passed: the test ran to its end.
	Passed Status = iota
	// Panicked: a statement panicked (or called runtime.Goexit).
	Panicked
	// TimedOut: the test exceeded its timeout and its worker was killed.
	TimedOut
	// Crashed: the worker died during the test (os.Exit, a fatal runtime
	// error, a deadlock, memory exhaustion).
	Crashed
)

var statusNames = [...]string{"passed", "panicked", "timed out", "crashed"}

func (s Status) String() string { return statusNames[s] }

// Result is the outcome of one test execution.
type Result struct {
	Status Status
	// Trace is the probes' record (nil for timeouts and crashes).
	Trace *rt.Trace
	// PanicStmt, PanicText and Frame describe a panic: the statement, the
	// message, and the innermost frame of R or E.
	PanicStmt int
	PanicText string
	Frame     string
	// Outcome holds the observations when they were requested.
	Outcome *testcase.Outcome
}

const flagRetiring = 0x80

var errResult = errors.New("malformed result from the executor")

// decodeResult decodes one result frame; retiring reports that the worker
// exits after it.
func decodeResult(b []byte, observe bool) (res Result, retiring bool, err error) {
	r := &reader{b: b}
	st := r.byte()
	retiring = st&flagRetiring != 0
	st &^= flagRetiring
	out := &testcase.Outcome{}
	if st == 1 {
		res.Status = Panicked
		res.PanicStmt = int(r.uvarint())
		out.Panicked, out.PanicStmt = true, res.PanicStmt
		out.PanicIsError = r.byte() == 1
		out.PanicIsText = r.byte() == 1
		res.PanicText = r.str()
		out.PanicText = res.PanicText
		res.Frame = r.str()
	}
	tr := r.bytes()
	if r.err != nil {
		return res, retiring, errResult
	}
	res.Trace, _, err = rt.DecodeTrace(tr)
	if err != nil {
		return res, retiring, err
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
		res.Outcome = out
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
