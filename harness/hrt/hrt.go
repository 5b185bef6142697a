//go:build go1.21

// Package hrt is the interpreter that runs inside cling's executor: a
// generated package (see package harness) that links the instrumented
// caller and callee, one stub per operation of the test cluster, and this
// code, and runs in the caller's test binary (or in a plain main
// program). It reads batches of test cases from a pipe,
// executes each in a fresh goroutine with the probes reset, under a
// watchdog that ends the test (not the process) on a panic, an
// intercepted exit, a hang or the adaptive limit, and writes back, per
// test, how it ended, its trace, and on request the values it observed.
//
// cling copies this file into the executor package, so it must stay free
// of imports outside the standard library.
package hrt

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Op is one operation of the cluster as the executor knows it.
type Op struct {
	// Outputs is the number of values the op produces.
	Outputs int
	// Call computes the op from its arguments (nil for omitted ones).
	Call func(args []any) []any
	// Prim converts a decoded literal (int64, uint64, float64, string,
	// bool) to the op's type.
	Prim func(v any) any
	// Func builds a function literal: the variant of its body, and its
	// constant (a decoded literal).
	Func func(variant int, c any) any
	// Target marks ops that yield &v for a fresh variable v (a decode
	// target): at the end of the test, v is observed.
	Target bool
	// ErrorOut marks the outputs of static type error.
	ErrorOut []bool
	// Setup marks ops that prepare inputs (not calls of R's API): the
	// fields of the struct values they produce or change are snapshot, and
	// at the end of the test only fields that differ from the snapshot are
	// observed.
	Setup bool
	// WritesState marks calls that change package-level state: the worker
	// retires after a test that makes one, so that the next test starts
	// from the state a fresh process has.
	WritesState bool
	// Releases names, per output, the method that releases it at the end
	// of the test ("" for none; see testcase.ReleaseMethod).
	Releases []string
}

// As converts an argument to the parameter type; nil (an omitted argument
// or a nil interface) gives the zero value. A value of another type of the
// same kind that converts to T is converted: the executor writes a named
// function type it cannot name (type urlRewriter func(*url.URL)) as its
// signature, and a value R returned has the named type.
func As[T any](v any) T {
	t, ok := v.(T)
	if !ok && v != nil {
		if c, ok := convertSameKind(reflect.ValueOf(v), reflect.TypeOf((*T)(nil)).Elem()); ok {
			return c.Interface().(T)
		}
	}
	return t
}

// convertSameKind converts v to t when both are of the same kind and Go
// converts one to the other.
func convertSameKind(v reflect.Value, t reflect.Type) (reflect.Value, bool) {
	if v.Kind() != t.Kind() || !v.Type().ConvertibleTo(t) {
		return v, false
	}
	return v.Convert(t), true
}

// CallMethod calls the method name of recv through reflection: the
// executor calls a method of a type it cannot name this way when it cannot
// write the method's signature either (a builder's method that returns its
// own unexported type). args are the call's arguments, nil for the zero
// value of a parameter; with variadic, the last is the variadic
// parameter's slice. A nil recv dereferences nil, as the direct call of a
// method through a nil interface would.
func CallMethod(recv any, name string, variadic bool, args ...any) []any {
	rv := reflect.ValueOf(recv)
	if !rv.IsValid() {
		var nilRecv *struct{ x int }
		_ = nilRecv.x // the runtime error of a call through a nil interface
	}
	m := rv.MethodByName(name)
	mt := m.Type()
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		pt := mt.In(i)
		if a == nil {
			in[i] = reflect.Zero(pt)
			continue
		}
		v := reflect.ValueOf(a)
		if !v.Type().AssignableTo(pt) {
			v, _ = convertSameKind(v, pt)
		}
		in[i] = v
	}
	var out []reflect.Value
	if variadic {
		out = m.CallSlice(in)
	} else {
		out = m.Call(in)
	}
	res := make([]any, len(out))
	for i, o := range out {
		res[i] = o.Interface()
	}
	return res
}

// Config is what the generated executor passes to Serve.
type Config struct {
	Ops []Op
	// Reset clears the probes before a test; Trace appends the test's
	// encoded trace.
	Reset func()
	Trace func([]byte) []byte
	// InterceptExits routes the exits R and E request (os.Exit, log.Fatal
	// and their kind, rewritten by the instrumentation) to a hook, which
	// ends the test instead of the process.
	InterceptExits func(hook func(code int, message string))
	// InterceptGoPanics routes the panics that end goroutines R and E
	// started with a function literal to a hook, which ends the test
	// instead of the process.
	InterceptGoPanics func(hook func(v any))
	// BoundStack makes a goroutine of R or E that recurses past a number
	// of frames call a hook, which says whether it ends (runtime.Goexit) or
	// blocks for ever (see rt.BoundStack): a runaway recursion ends its
	// test, not the process.
	BoundStack func(frames int, hook func() (unwind bool))
	// BoundSteps makes a goroutine of R or E that takes more than a
	// number of branch outcomes in one test call a hook, which says
	// whether it unwinds (panics) or blocks for ever (see rt.BoundSteps):
	// a loop that never ends is a hang once it took that many, however
	// fast the machine is.
	BoundSteps func(steps uint64, hook func() (unwind bool))
	// StepsTaken reports the branch outcomes the current test took so
	// far, as BoundSteps counts them (rt.StepsTaken): at the timeout, a
	// test whose count grows fast enough is a loop on its way to the step
	// bound, which decides, not the machine's speed (see MaxOvertime).
	StepsTaken func() uint64
	// Abandon makes every goroutine that reaches a probe end, until
	// Resume: the goroutines of a test that ran past its limit stop there.
	Abandon, Resume func()
	// Packages are the import paths of the caller and callee, for the
	// innermost frame of a panic, an exit or a hang.
	Packages []string
	// MaxGoroutines makes the worker retire once tests leaked this many
	// goroutines; MaxHeap (bytes) once the heap grew this large.
	MaxGoroutines int
	MaxHeap       uint64
}

// helloText is the executor's first frame.
const helloText = "cling-executor"

// Statuses of a test result, and the flag of the last result of a worker
// that retires.
const (
	statusOK     = 0
	statusPanic  = 1
	statusExit   = 2 // an intercepted os.Exit or log.Fatal
	statusGoexit = 3 // the test's goroutine called runtime.Goexit
	statusCut    = 4 // stopped at the adaptive limit, not known to hang
	statusHang   = 5 // the full timeout passed, or blocked for ever
	// statusOverflow: a goroutine recursed past maxFrames (a stack
	// overflow, stopped before the runtime's).
	statusOverflow = 6
	// statusGoPanic: a goroutine that R or E started panicked (see
	// Config.InterceptGoPanics); the message is "panic: ...".
	statusGoPanic = 7
	// flagLeak marks a test that ended (passed or panicked) but left a
	// goroutine it started running past leakGrace; the leaked goroutine's
	// stack follows the duration.
	flagLeak     = 0x40
	flagRetiring = 0x80
	// flagSettled marks a test whose goroutines outlived it but ended
	// within the grace: how long they took follows the CPU time.
	flagSettled = 0x10
	// flagLeakCut marks a leak judged at a request's shorter grace (see
	// limits.leakCut), which the full leakGrace might not confirm.
	flagLeakCut = 0x20
)

// Request flags.
const (
	reqObserve = 1 << iota
	// reqCareful asks for every result to be sent before the next test
	// runs, so that a test that kills the process is known exactly.
	reqCareful
	// reqWaitOnCut keeps waiting, at the adaptive limit, for a test that
	// is not blocked for ever, until the full timeout: the result then
	// does not depend on the machine's speed.
	reqWaitOnCut
)

// Limits of the worker.
const (
	// maxStack bounds a goroutine's stack: a runaway recursion ends in a
	// fatal error within some 50 milliseconds instead of growing to a
	// gigabyte (every time the stack doubles, all its frames are copied).
	// Tests of ordinary code stay far below it. It leaves room for the
	// stack bound (maxFrames) to stop a recursion through the standard
	// library's large frames: a String method that formats a value whose
	// String calls it again takes about 1.2 KiB of stack per round (seven
	// frames, three of them fmt's), so 1 MiB ran out before the 1024th
	// call, when the bound first looks.
	maxStack = 8 << 20
	// maxFrames bounds the depth of a goroutine's stack while it calls
	// functions of the caller or callee: past it, a runaway recursion ends
	// its test as a stack overflow within a few milliseconds, and the
	// worker goes on (see Config.BoundStack). maxStack holds that many
	// frames of up to 1.6 KiB; a recursion of larger frames reaches
	// maxStack first, and so does one outside the caller and callee, and
	// the runtime ends the worker as before. The cost of reaching the
	// bound grows with its square (the stack is walked every 1024 calls).
	maxFrames = 5000
	// stepsPerSecond is the step bound per second of the timeout: a test
	// that takes more branch outcomes of R and E than the timeout's
	// seconds times stepsPerSecond hangs (see Config.BoundSteps). A loop
	// of one comparison takes about 63 million outcomes a second in the
	// instrumented code with the distances the search records, 226
	// million without (2 busy cores), so the bound is reached in a
	// seventh of the timeout or less, and a moment of load on the machine
	// does not make the timeout come first; tests of ordinary code stay
	// far below it.
	stepsPerSecond = 1 << 23
	// overtimeLooks is how many looks at the steps of a test past its
	// timeout the watchdog takes per timeout (see MaxOvertime).
	overtimeLooks = 4
	// firstPoll is when the watchdog first looks whether a test that has
	// not ended is blocked for ever; it looks again at pollFactor times
	// the time since the start, and so on. Each look is a goroutine dump.
	firstPoll  = time.Millisecond
	pollFactor = 4
	// flushEvery bounds how long a result waits in the buffer when the
	// request is not careful.
	flushEvery = 20 * time.Millisecond
	// maxLeakedTests is how many tests may leave a goroutine blocked for
	// ever (a hang in select{}, an intercepted exit) before the worker
	// retires.
	maxLeakedTests = 32
	// cpuFirst is when the watchdog first looks at the CPU time the worker
	// used, to bound that of a test still running; cpuStep is the shortest
	// wait between two later looks.
	cpuFirst = 200 * time.Microsecond
	cpuStep  = 500 * time.Microsecond
	// abandonGrace is how long the goroutines of an abandoned test have to
	// reach a probe and end.
	abandonGrace = 20 * time.Millisecond
	// leakGrace is how long the goroutines a test started may outlive it
	// before they count as leaked, as goleak waits for them.
	leakGrace = 100 * time.Millisecond
	// maxSentFrames bounds the frames of a stack sent back.
	maxSentFrames = 64
)

// Serve runs the executor's loop on the protocol pipes (file descriptors 3
// for requests and 4 for results) until the request pipe closes.
func Serve(cfg Config) {
	in := os.NewFile(3, "requests")
	out := os.NewFile(4, "results")
	if in == nil || out == nil {
		fmt.Fprintln(os.Stderr, "cling executor: run by cling only")
		os.Exit(2)
	}
	// Processes the code under test starts must not hold the protocol.
	syscall.CloseOnExec(3)
	syscall.CloseOnExec(4)
	silenceOutput()
	debug.SetMaxStack(maxStack)
	if v, err := strconv.ParseUint(os.Getenv("CLING_EXECUTOR_MAX_HEAP"), 10, 64); err == nil && v > 0 {
		cfg.MaxHeap = v
	}
	collectLess(cfg.MaxHeap)
	srv := newServer(cfg)
	if prefix := os.Getenv("CLING_EXECUTOR_CPUPROFILE"); prefix != "" {
		srv.stopProfile = profileWorker(prefix)
	}
	srv.serve(bufio.NewReaderSize(in, 1<<16), out)
	srv.stopProfile()
}

// standardFiles keeps the *os.File values of the standard output and
// error that silenceOutput replaces. Unreferenced, they would be closed
// by their finalizers at a collection, and file descriptors 1 and 2 with
// them: the runtime's report of a fatal error would then be lost (its
// writes fail), or written into whatever file the code under test opened
// next.
var standardFiles []*os.File

// silenceOutput sends what the code under test prints to os.Stdout,
// os.Stderr or the standard logger nowhere: it must not write into the
// protocol, and its output is not wanted. File descriptor 2 stays open
// for the runtime's report of a fatal error, which tells cling what
// ended the worker.
func silenceOutput() {
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		standardFiles = []*os.File{os.Stdout, os.Stderr}
		os.Stdout, os.Stderr = null, null
	}
	log.SetOutput(io.Discard)
}

// workerGCPercent is the worker's GOGC. A worker's live heap is small,
// and the tests it runs one after another allocate much and keep little:
// at Go's default of 100 it spent a tenth of its time collecting, and
// as much again returning the freed memory to the system, only to ask
// for it again in the next test.
const workerGCPercent = 400

// collectLess sets the worker's collector to workerGCPercent, with a soft
// memory limit of half of maxHeap (if not 0; the heap at which the worker
// retires) so that a test whose live heap is large does not grow it five
// times over. A GOGC or GOMEMLIMIT in the environment is left as it is.
func collectLess(maxHeap uint64) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(workerGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" && maxHeap > 0 {
		debug.SetMemoryLimit(int64(min(maxHeap/2, math.MaxInt64)))
	}
}

// profileWorker writes CPU profiles of the worker, for performance work,
// into files prefix.PID.N, a new one every second, since cling kills its
// workers rather than waiting for them to end; it returns the function
// that ends the last one.
func profileWorker(prefix string) (stop func()) {
	var mu sync.Mutex
	var f *os.File
	stopped := false
	next := func(n int) {
		mu.Lock()
		defer mu.Unlock()
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
			f = nil
		}
		if n < 0 || stopped {
			stopped = true
			return
		}
		g, err := os.Create(fmt.Sprintf("%s.%d.%d", prefix, os.Getpid(), n))
		if err == nil && pprof.StartCPUProfile(g) == nil {
			f = g
		}
	}
	next(0)
	go func() {
		for n := 1; ; n++ {
			time.Sleep(time.Second)
			next(n)
		}
	}()
	return func() { next(-1) }
}

// server is the state of a worker across tests.
type server struct {
	cfg Config
	// boundFor is the timeout the step bound was set for (see stepBound),
	// and stepCut the request's step cut (0: none; see steps).
	boundFor time.Duration
	stepCut  uint64
	// exits receives the exits the code under test requests.
	exits chan exitRequest
	timer *time.Timer
	// base is the number of goroutines before any test; leaked counts
	// the tests that left a goroutine blocked for ever.
	base   int
	leaked int
	heap   []metrics.Sample
	// created reads how many goroutines the process has started (see
	// goroutinesCreated).
	created []metrics.Sample
	// testBody is the name of the function test goroutines run, as
	// goroutine dumps show it; dump is the buffer of the dumps.
	testBody string
	dump     []byte
	// parked holds the IDs of the goroutines left blocked for ever by
	// earlier tests (hangs, intercepted exits): the test's goroutine is
	// the other one running testBody.
	parked map[int]bool
	// framework holds the IDs of the testing package's goroutines that
	// wait for the executor's test function to end, in a test binary:
	// they are blocked as long as the worker serves, and are not the
	// tests'.
	framework map[int]bool
	// leaks is the runtime's goroutine leak profile, nil unless the
	// executor was built with GOEXPERIMENT=goroutineleakprofile (see
	// findLeaks).
	leaks *pprof.Profile
	// tests counts the tests run, which label their goroutines.
	tests int
	// profile is the buffer of goroutine profiles (see leakedStack).
	profile bytes.Buffer
	// stopProfile ends the worker's CPU profile, if it writes one.
	stopProfile func()
}

// exitRequest is an exit of the code under test, or, with overflow, a
// goroutine other than the test's that recursed past maxFrames.
type exitRequest struct {
	code     int
	message  string
	stmt     int
	frame    string
	overflow bool
	// goPanic is a panic of a goroutine R or E started; message is the
	// crash's first line.
	goPanic bool
	// hang is a goroutine that took more steps than the bound (see
	// Config.BoundSteps); message says so. With cut, the bound was the
	// request's step cut, short of the timeout's: the test is cut, not
	// known to hang.
	hang, cut bool
	// stack is where the recursion or the loop was, with overflow or hang
	// (see stackLines).
	stack string
}

// hangStatus is the status of a test a goroutine stopped at the step
// bound (hang): cut at a step cut, a hang otherwise.
func (e exitRequest) hangStatus() byte {
	if e.cut {
		return statusCut
	}
	return statusHang
}

func newServer(cfg Config) *server {
	s := &server{
		cfg:         cfg,
		exits:       make(chan exitRequest, 1),
		timer:       time.NewTimer(time.Hour),
		heap:        []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}},
		created:     []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}},
		testBody:    runtime.FuncForPC(reflect.ValueOf(testBody).Pointer()).Name(),
		parked:      map[int]bool{},
		stopProfile: func() {},
		leaks:       pprof.Lookup("goroutineleak"),
	}
	s.framework = s.frameworkGoroutines()
	stopTimer(s.timer)
	return s
}

// current is the test whose statements run; an exit hook reads it.
var current struct {
	sync.Mutex
	res *result
}

func (s *server) serve(in *bufio.Reader, out io.Writer) {
	if s.cfg.InterceptExits != nil {
		s.cfg.InterceptExits(s.exitRequested)
	}
	if s.cfg.InterceptGoPanics != nil {
		s.cfg.InterceptGoPanics(s.goroutinePanicked)
	}
	if s.cfg.BoundStack != nil {
		s.cfg.BoundStack(maxFrames, s.stackOverflowed)
	}
	w := bufio.NewWriterSize(out, 1<<16)
	// The hello frame tells cling the executor started.
	writeFrame(w, []byte(helloText))
	w.Flush()
	var buf []byte
	s.base = runtime.NumGoroutine()
	for {
		payload, err := readFrame(in)
		if err != nil {
			return
		}
		r := &reader{b: payload}
		flags := r.byte()
		cut := time.Duration(r.uvarint()) * time.Microsecond
		cpuCut := time.Duration(r.uvarint()) * time.Microsecond
		timeout := time.Duration(r.uvarint()) * time.Microsecond
		leakCut := time.Duration(r.uvarint()) * time.Microsecond
		stepCut := r.uvarint()
		if s.cfg.BoundSteps != nil && (timeout != s.boundFor || stepCut != s.stepCut) {
			s.boundFor, s.stepCut = timeout, stepCut
			s.cfg.BoundSteps(s.steps(), s.stepBounded)
		}
		n := int(r.uvarint())
		lastFlush := time.Now()
		for i := 0; i < n && r.err == nil; i++ {
			t := decodeTest(r, s.cfg.Ops)
			if r.err != nil {
				// A request cling should never send: exit, so cling sees a
				// crash rather than waiting for a result.
				os.Exit(3)
			}
			res := s.run(t, flags, limits{cut, cpuCut, timeout, leakCut})
			retire := res.retire || s.overLimits() || t.writesState(s.cfg.Ops)
			buf = encodeResult(buf[:0], s.cfg, res, retire)
			if flags&reqObserve != 0 {
				buf = appendObservations(buf, res.observed)
			}
			writeFrame(w, buf)
			// In a careful request every result goes out before the next
			// test runs: if that test kills the process, this one's result
			// is not lost with it.
			if flags&reqCareful != 0 || retire || time.Since(lastFlush) >= flushEvery {
				w.Flush()
				lastFlush = time.Now()
			}
			if retire {
				s.stopProfile()
				os.Exit(0)
			}
		}
		w.Flush()
	}
}

// overLimits reports whether the worker should retire: tests leaked too
// many goroutines, or the heap grew too large.
func (s *server) overLimits() bool {
	if s.leaked > maxLeakedTests {
		return true
	}
	if s.cfg.MaxGoroutines > 0 && runtime.NumGoroutine()-s.base > s.cfg.MaxGoroutines {
		return true
	}
	if s.cfg.MaxHeap > 0 {
		metrics.Read(s.heap)
		if s.heap[0].Value.Kind() == metrics.KindUint64 && s.heap[0].Value.Uint64() > s.cfg.MaxHeap {
			return true
		}
	}
	return false
}

// test is a decoded test: per statement its op, argument slots (-1 for
// omitted), output base slot and literal.
type test struct {
	stmts []stmt
	slots int
}

type stmt struct {
	op      int
	args    []int
	base    int
	value   any
	variant int
}

// writesState reports whether the test calls an op that changes
// package-level state.
func (t *test) writesState(ops []Op) bool {
	for _, st := range t.stmts {
		if ops[st.op].WritesState {
			return true
		}
	}
	return false
}

func decodeTest(r *reader, ops []Op) *test {
	t := &test{}
	n := int(r.uvarint())
	for i := 0; i < n && r.err == nil; i++ {
		s := stmt{op: int(r.uvarint()), base: t.slots}
		if s.op >= len(ops) {
			r.err = errors.New("unknown op")
			return t
		}
		na := int(r.uvarint())
		s.args = make([]int, na)
		for j := range s.args {
			s.args[j] = int(r.uvarint()) - 1
		}
		if ops[s.op].Prim != nil {
			s.value = r.literal()
		}
		if ops[s.op].Func != nil {
			s.variant = int(r.uvarint())
			s.value = r.literal()
		}
		t.slots += ops[s.op].Outputs
		t.stmts = append(t.stmts, s)
	}
	return t
}

// result is the outcome of one test.
type result struct {
	status byte
	// stmt is the statement that panicked, exited or hung; message says
	// what happened (the panic's text, the log message of an exit, the
	// state of a hung goroutine) and frame is the innermost frame of the
	// caller or callee where it happened.
	stmt     int
	panicVal any
	message  string
	frame    string
	// stack lists the frames where it happened, innermost first, one
	// "function file:line" per line (see stackLines).
	stack   string
	code    int
	elapsed time.Duration
	// cpu estimates the CPU time the test used (see run).
	cpu time.Duration
	// leak is the stack of a goroutine the test started that outlived it
	// ("" if none did), leakCut whether that was judged at a grace
	// shorter than leakGrace; settle is how long the goroutines it
	// started took to end after it, when they did within the grace.
	leak    string
	leakCut bool
	settle  time.Duration
	// label marks the goroutines the test starts (pprof labels are
	// inherited), so that a leak is told apart from earlier tests'
	// leftovers.
	label string
	// dirs are the directories TempPath made for the test, removed when
	// it ends.
	dirs []string
	done atomic.Int32 // statements completed
	// end is how the test's goroutine ended, which it writes before it
	// signals its end: the worker reads it only then.
	end struct {
		status   byte
		stmt     int
		panicVal any
		message  string
		frame    string
		stack    string
	}
	// stmts is the number of the test's statements: a test that hangs or
	// exits in the releases after them (see release) does so at its last.
	stmts int
	// endObs are the observations of the values at the test's end, and
	// of their releases, which the test's goroutine makes.
	endObs []observation
	// obs are the observations the test's goroutine makes; observed those
	// the worker sends, once the goroutine has ended.
	obs, observed []observation
	// snaps holds, per value built by set-up ops, its fields as set up.
	snaps map[int]map[observation]bool
	// retire asks for a fresh worker after this test: its goroutines may
	// still run.
	retire bool
	// targets marks the slots of decode targets (&v).
	targets map[int]bool
	// stopped is where the test's goroutine recursed past maxFrames
	// (overflow) or ran past the step bound (hang), if it did: the test is
	// a stack overflow or a hang however it ended.
	stopped *exitRequest
}

// describeEnd observes value slot i of the test's values at the end of
// the test (or for a snapshot): what a decode target points to, the
// fields of another value's struct.
func (res *result) describeEnd(values []any, stmt, result, i int, isErr bool) []observation {
	if res.targets[i] {
		return describePointee(stmt, result, values[i])
	}
	return describe(stmt, result, values[i], isErr, true)
}

// exitRequested is the hook of intercepted exits: it runs on the goroutine
// that requested the exit, which then blocks for ever (see rt.OSExit).
func (s *server) exitRequested(code int, message string) {
	// The frames of the runtime's exit functions, which the compiler may
	// inline into the code that exits, are not the place of the exit.
	_, rtFile, _, _ := runtime.Caller(1)
	s.endOnThisGoroutine(exitRequest{code: code, message: message, frame: innermostFrame(s.cfg.Packages, 3, rtFile)})
}

// endOnThisGoroutine reports e, an end of the current test requested on
// the calling goroutine, which the caller then blocks for ever; the
// statement is the one that runs. Only the first report of a test counts.
func (s *server) endOnThisGoroutine(e exitRequest) {
	current.Lock()
	if current.res != nil {
		e.stmt = int(current.res.done.Load())
	}
	s.parked[goroutineID()] = true
	current.Unlock()
	select {
	case s.exits <- e:
	default: // an end is already reported for this test
	}
}

// goroutinePanicked is the hook of the panics of the goroutines R and E
// start: the test ends as the crash the panic would have been ("panic:
// ..." and the goroutine's stack), and the goroutine blocks for ever, as
// for an exit. A panic after its test ended is reported to nobody.
func (s *server) goroutinePanicked(v any) {
	text, _, _ := describePanic(v)
	s.endOnThisGoroutine(exitRequest{goPanic: true, message: "panic: " + text, frame: innermostFrame(s.cfg.Packages, 3, ""), stack: panicStack()})
}

// stackOverflowed is the hook of the stack bound: it runs on a goroutine
// of the code under test that recursed past maxFrames. The test's own
// goroutine unwinds, and the test ends as a stack overflow however it
// ends (code that recovers the panic cannot make it pass); any other
// goroutine blocks for ever, and the test ends at once, as for an exit.
// Either way no code of the test runs where a real stack overflow would
// have ended the process, except deferred functions on the way up.
func (s *server) stackOverflowed() (unwind bool) {
	return s.stopGoroutine(exitRequest{overflow: true})
}

// MaxOvertime bounds how long, in timeouts, a request that waits on cuts
// waits for a test still stepping towards the step bound at its timeout:
// on a machine so loaded that the loop did not get there in time, the
// test still ends at the bound, as it would on an idle one, and not at
// the timeout. The bound comes at about a seventh of the timeout on an
// idle machine, so a loop of R or E slowed down up to some 60 times still
// ends there. A loop that steps slower than that, because each round
// spends its time outside R and E, hangs at the timeout as before.
const MaxOvertime = 8

// stepping reports whether the current test, elapsed into its run, took
// more steps than *seen, its count at the last look, at a pace that
// reaches the step bound within MaxOvertime timeouts; it records the
// count.
func (s *server) stepping(seen *uint64, elapsed time.Duration) bool {
	if s.cfg.BoundSteps == nil || s.cfg.StepsTaken == nil {
		return false
	}
	n := s.cfg.StepsTaken()
	more := n > *seen
	*seen = n
	pace := float64(n) / elapsed.Seconds()
	return more && pace*(MaxOvertime*s.boundFor).Seconds() >= float64(s.steps())
}

// StepBoundMessage starts the message of a test that ran past the step
// bound.
const StepBoundMessage = "ran past the step bound"

// stepBound is the step bound of tests whose timeout is timeout: the
// timeout's seconds times stepsPerSecond.
func stepBound(timeout time.Duration) uint64 {
	return uint64(timeout.Seconds() * stepsPerSecond)
}

// StepCutMessage starts the message of a test stopped at the step cut.
const StepCutMessage = "ran past the step cut"

// steps is the step bound of the current request: the timeout's, or the
// request's step cut if that is lower.
func (s *server) steps() uint64 {
	bound := stepBound(s.boundFor)
	if s.stepCut > 0 && s.stepCut < bound {
		return s.stepCut
	}
	return bound
}

// stepBounded is the hook of the step bound: it runs on a goroutine of
// the code under test that took the last of the steps the bound allows.
// The test ends as a hang, as stackOverflowed ends one as a stack
// overflow, or, at a step cut, as cut.
func (s *server) stepBounded() (unwind bool) {
	steps := s.steps()
	e := exitRequest{hang: true, cut: steps < stepBound(s.boundFor)}
	what := StepBoundMessage
	if e.cut {
		what = StepCutMessage
	}
	e.message = fmt.Sprintf("%s (%d branch outcomes of the caller and callee in one test)", what, steps)
	return s.stopGoroutine(e)
}

// stopGoroutine ends the test of the calling goroutine, a goroutine of the
// code under test, as e says (a stack overflow or a hang): the test's own
// goroutine unwinds, any other blocks for ever and the test ends at once.
// It returns whether the goroutine unwinds.
func (s *server) stopGoroutine(e exitRequest) (unwind bool) {
	e.frame, e.stack = innermostFrame(s.cfg.Packages, 4, ""), currentStack()
	unwind = s.onTestGoroutine()
	current.Lock()
	if res := current.res; res != nil {
		e.stmt = int(res.done.Load())
		if unwind && res.stopped == nil {
			res.stopped = &e
		}
	}
	if !unwind {
		s.parked[goroutineID()] = true
	}
	current.Unlock()
	if !unwind {
		select {
		case s.exits <- e:
		default: // the test ended already
		}
	}
	return unwind
}

// onTestGoroutine reports whether the calling goroutine is a test's: its
// outermost function is testBody.
func (s *server) onTestGoroutine() bool {
	pcs := make([]uintptr, 2*maxFrames)
	n := runtime.Callers(0, pcs)
	for n == len(pcs) {
		pcs = make([]uintptr, 2*len(pcs))
		n = runtime.Callers(0, pcs)
	}
	frames := runtime.CallersFrames(pcs[max(n-4, 0):n])
	for {
		f, more := frames.Next()
		if f.Function == s.testBody {
			return true
		}
		if !more {
			return false
		}
	}
}

// limits are the limits of a test's run.
type limits struct {
	// cut is the adaptive limit on the time a test runs, cpuCut that on
	// the CPU time the worker uses from the watchdog's first look at the
	// test on (see run), timeout the full limit.
	cut, cpuCut, timeout time.Duration
	// leakCut, when shorter than leakGrace, is how long the goroutines a
	// test started may outlive it before they count as leaked, for a
	// search that learns it from how long they took in earlier tests.
	leakCut time.Duration
}

// run executes a test in its own goroutine under a watchdog, so that a
// panic, an exit, a runtime.Goexit or a hang in the code under test ends
// the test, not the worker. At the adaptive limits (the test ran past
// lim.cut, or used lim.cpuCut of CPU time, which a test busy in a loop
// does long before it reaches lim.cut, while a test slowed down by the
// machine's load does not), a test whose goroutines are all blocked for
// ever is a hang, and any other stops there (statusCut) unless the request
// asks to wait on until the full timeout.
//
// The watchdog first looks at the worker's CPU time at cpuFirst (a look is
// a system call, which a test that ends before does not pay). A test is
// cut when the worker used lim.cpuCut of CPU time since. The CPU time the
// test used, from which cling learns the limit, is estimated as at most
// cpuFirst until that look, plus the CPU time since: a look that comes
// late because the machine is busy does not count the wait for it.
func (s *server) run(t *test, flags byte, lim limits) *result {
	timeout := lim.timeout
	observe := flags&reqObserve != 0
	s.tests++
	res := &result{label: strconv.Itoa(s.tests), stmts: len(t.stmts)}
	defer res.removeDirs()
	s.cfg.Reset()
	select {
	case <-s.exits: // from a goroutine of an earlier test
	default:
	}
	current.Lock()
	current.res = res
	current.Unlock()
	limit := timeout
	if lim.cut > 0 && lim.cut < timeout {
		limit = lim.cut
	}
	// The worker's CPU time at the first look, and when that was.
	cpuCut, cpuFrom := lim.cpuCut, time.Duration(-1)
	if flags&reqWaitOnCut != 0 || cpuCut >= limit {
		cpuCut = 0
	}
	done := make(chan struct{})
	start := time.Now()
	goroutines := runtime.NumGoroutine()
	created := s.goroutinesCreated()
	go testBody(s.cfg, t, observe, res, done)
	poll := firstPoll
	// stepsSeen is the test's count of steps at the last look past the
	// timeout.
	stepsSeen := uint64(0)
	s.timer.Reset(min(cpuFirst, limit))
	var ex exitRequest
	exited, finished := false, false
	// takeExit takes an exit a goroutine of the test asked for, if there
	// is one: it decides how the test ended, before a goroutine it left
	// blocked (one stopped at the stack bound, whose test waits for it)
	// makes the test look blocked for ever. The request may come while the
	// watchdog looks: as the timer fires, or during the garbage collection
	// that finds the test's goroutine leaked.
	takeExit := func() bool {
		select {
		case ex = <-s.exits:
			stopTimer(s.timer)
			exited = true
			return true
		default:
			return false
		}
	}
	// ended reports whether the test's goroutine has ended, and takes an
	// exit a goroutine of the test requested before.
	ended := func() bool {
		select {
		case <-done:
		default:
			return false
		}
		finished = true
		select {
		case ex = <-s.exits:
			exited = true
		default:
		}
		return true
	}
wait:
	for {
		select {
		case <-done:
			stopTimer(s.timer)
			ended()
			break wait
		case ex = <-s.exits:
			stopTimer(s.timer)
			exited = true
			break wait
		case <-s.timer.C:
			if takeExit() {
				break wait
			}
			elapsed := time.Since(start)
			// used is the CPU time the worker used since the first look.
			used := time.Duration(0)
			if cpuFrom < 0 {
				cpuFrom = processCPU()
			} else {
				used = processCPU() - cpuFrom
			}
			if elapsed < limit && (cpuCut == 0 || used < cpuCut) {
				if elapsed >= poll {
					// A poll: a test whose goroutines are all blocked for
					// ever is a hang, known as such without waiting.
					if st := s.inspectRunning(elapsed); st.forever && st.testID >= 0 {
						if takeExit() {
							break wait
						}
						res.stmt = int(res.done.Load())
						res.status, res.frame, res.stack = statusHang, st.testFrame, st.testStack
						res.message = blockedForEver + st.testState
						s.park(st.testID)
						break wait
					}
					poll = pollFactor * elapsed
				}
				next := min(poll, limit)
				if cpuCut > 0 {
					next = min(next, elapsed+max(cpuCut-used, cpuStep))
				}
				s.timer.Reset(next - elapsed)
				continue
			}
			st := s.inspectRunning(elapsed)
			if st.testID < 0 && ended() {
				break wait // just now
			}
			res.stmt = int(res.done.Load())
			res.message, res.frame, res.stack = st.testState, st.testFrame, st.testStack
			if st.forever && takeExit() {
				break wait
			}
			switch {
			case st.forever && st.testID >= 0:
				res.status = statusHang
				res.message = blockedForEver + st.testState
				s.park(st.testID)
				break wait
			case elapsed < timeout && flags&reqWaitOnCut != 0:
				limit = timeout
				poll = pollFactor * elapsed
				s.timer.Reset(min(poll, limit) - elapsed)
				continue
			case elapsed < timeout:
				res.status = statusCut
			case flags&reqWaitOnCut != 0 && elapsed < MaxOvertime*timeout && s.stepping(&stepsSeen, elapsed):
				// A loop of R or E on its way to the step bound.
				limit = elapsed + timeout/overtimeLooks
				s.timer.Reset(timeout / overtimeLooks)
				continue
			default:
				res.status = statusHang
			}
			res.retire = s.stopLeftovers(goroutines, done, abandonGrace, true)
			break wait
		}
	}
	res.elapsed = time.Since(start)
	res.cpu = min(res.elapsed, cpuFirst)
	if cpuFrom >= 0 {
		res.cpu = min(res.elapsed, cpuFirst+processCPU()-cpuFrom)
	}
	current.Lock()
	current.res = nil
	stopped := res.stopped
	current.Unlock()
	if exited {
		res.status, res.code, res.message, res.frame, res.stmt = statusExit, ex.code, ex.message, ex.frame, ex.stmt
		switch {
		case ex.overflow:
			res.status, res.stack = statusOverflow, ex.stack
		case ex.goPanic:
			res.status, res.stack = statusGoPanic, ex.stack
		case ex.hang:
			res.status, res.stack = ex.hangStatus(), ex.stack
		}
		// The exiting goroutine blocks for ever; any other the test left
		// must not run on into the next test.
		s.leaked++
		if runtime.NumGoroutine() > goroutines+1 {
			res.retire = s.stopLeftovers(goroutines+1, nil, abandonGrace, true)
		}
		return res
	}
	if stopped != nil {
		res.status, res.stmt, res.message, res.frame, res.stack = statusOverflow, stopped.stmt, "", stopped.frame, stopped.stack
		if stopped.hang {
			res.status, res.message = stopped.hangStatus(), stopped.message
		}
		return res
	}
	if !finished {
		return res // cut or hung
	}
	res.status, res.stmt, res.panicVal, res.message, res.frame, res.stack = res.end.status, res.end.stmt, res.end.panicVal, res.end.message, res.end.frame, res.end.stack
	// The goroutines the test started, its own aside: the count of those
	// running can hide one the test left when an earlier test's goroutine
	// ends meanwhile, the count of those started cannot.
	started := s.goroutinesCreated() > created+1
	if res.status != statusGoexit && (started || runtime.NumGoroutine() > goroutines) {
		// The test started goroutines that have not ended yet: given
		// leakGrace to end, those still running leaked, and are stopped
		// like those of a test that was cut.
		grace := leakGrace
		if lim.leakCut > 0 && lim.leakCut < leakGrace {
			grace = lim.leakCut
		}
		if res.leak, res.settle = s.leakedStack(goroutines, res.label, started, grace); res.leak != "" {
			res.leakCut = grace < leakGrace
			// At the search's learned grace, the leftovers get no longer
			// to reach a probe than the test's goroutines got to end: a
			// worker that retires is replaced by its warm spare at little
			// cost, while waiting costs every leaking test.
			res.retire = s.stopLeftovers(goroutines, nil, min(grace, abandonGrace), false)
		}
	}
	// A goroutine the test started may have panicked as the test ended:
	// its own deferred calls (a WaitGroup's Done) ran before the recover
	// that reports it, and let the test's goroutine end first. The panic
	// ends the test all the same, as it would have ended the process.
	select {
	case late := <-s.exits:
		if late.goPanic {
			// Every statement ran: the last one is where it happened.
			res.status, res.stmt, res.message, res.frame, res.stack = statusGoPanic, max(int(res.done.Load())-1, 0), late.message, late.frame, late.stack
			res.leak, res.leakCut, res.settle = "", false, 0
			s.leaked++
			return res
		}
	default:
	}
	if observe {
		res.observed = append(res.obs, res.endObs...)
	}
	return res
}

// TempPath returns the path of a new empty directory for the running
// test, as t.TempDir() does, or with file the path of a file not made yet
// in one; the directories are removed when the test ends.
func TempPath(file bool) string {
	dir, err := os.MkdirTemp("", "cling-test-")
	if err != nil {
		panic(err)
	}
	current.Lock()
	if current.res != nil {
		current.res.dirs = append(current.res.dirs, dir)
	}
	current.Unlock()
	if file {
		return filepath.Join(dir, "file")
	}
	return dir
}

// removeDirs removes the directories TempPath made for the test.
func (res *result) removeDirs() {
	current.Lock()
	dirs := res.dirs
	res.dirs = nil
	current.Unlock()
	for _, d := range dirs {
		os.RemoveAll(d)
	}
}

// processCPU returns the CPU time the worker used so far (0 if unknown).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stopLeftovers stops the goroutines a test left running: while the
// runtime abandons them, each ends at its next probe. It waits until no
// more than want goroutines remain and, unless it is nil, testDone is
// closed (the test's goroutine ended), or grace (abandonGrace but for a
// leak judged at the search's learned grace), and reports
// whether any goroutine that can still run is left (one that reaches no
// probe, or is blocked on something that may happen): the worker must
// retire then, since it could record probes into later tests. The count
// alone is not enough: the goroutine of the test before may have been
// counted as running when this test started, and ended since.
//
// With collect, the garbage collector looks for leaked goroutines first
// (findLeaks), which spares the retirement when all of them are: after a
// hang, a cut or an exit, whose goroutines the test waited on. Not after
// a test that ended and left goroutines behind: code that does so does it
// in most tests (a pool never released), and there a collection per test
// cost more than the warm spare that takes over (github.com/sourcegraph/
// conc, stream -> pool, 3000 evaluations: 192 and 199 s of search against
// 162 and 165 s, retiring 2028 and 2182 times).
func (s *server) stopLeftovers(want int, testDone chan struct{}, grace time.Duration, collect bool) bool {
	stopped := func() bool {
		if testDone != nil {
			select {
			case <-testDone:
			default:
				return false
			}
		}
		return runtime.NumGoroutine() <= want
	}
	if s.cfg.Abandon != nil {
		s.cfg.Abandon()
		deadline := time.Now().Add(grace)
		if testDone != nil {
			// Wait without keeping a processor busy: the test's goroutine
			// may need it to reach its next probe.
			s.timer.Reset(grace)
			select {
			case <-testDone:
			case <-s.timer.C:
			}
			stopTimer(s.timer)
		}
		for i := 0; !stopped() && time.Now().Before(deadline); i++ {
			// Goroutines the test started: one that has a processor ends
			// at once.
			if i < 8 {
				runtime.Gosched()
			} else {
				time.Sleep(50 * time.Microsecond)
			}
		}
		s.cfg.Resume()
	}
	if stopped() {
		return false
	}
	st := s.inspect()
	if collect && !st.forever && s.findLeaks() {
		st = s.inspect()
	}
	if st.forever {
		s.park(st.testID)
		return false
	}
	return true
}

// park records that a test left its goroutine blocked for ever.
func (s *server) park(id int) {
	s.leaked++
	current.Lock()
	s.parked[id] = true
	current.Unlock()
}

// frameworkGoroutines returns the IDs of the goroutines, other than the
// calling one, that wait in the testing package for a test to end.
func (s *server) frameworkGoroutines() map[int]bool {
	ids := map[int]bool{}
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 || !strings.Contains(g, "\ntesting.(*T).Run(") {
			continue
		}
		header, _, _ := strings.Cut(g, " [")
		if id, err := strconv.Atoi(strings.TrimPrefix(header, "goroutine ")); err == nil {
			ids[id] = true
		}
	}
	return ids
}

// goroutineID returns the ID of the calling goroutine, as dumps show it.
func goroutineID() int {
	var buf [64]byte
	line := string(buf[:runtime.Stack(buf[:], false)])
	line = strings.TrimPrefix(line, "goroutine ")
	id, _ := strconv.Atoi(line[:max(strings.IndexByte(line, ' '), 0)])
	return id
}

// testBody runs a test's statements; it is the body of the test's
// goroutine, whose end it signals by closing done. The values the
// statements make live in this goroutine only, not in res, which the
// watchdog holds: a channel the test made and blocks on is then
// unreachable from any goroutine that can run, and the garbage collector
// can prove the test blocked for ever (see findLeaks).
func testBody(cfg Config, t *test, observe bool, res *result, done chan struct{}) {
	defer close(done)
	// The goroutines the test starts inherit the label.
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(testLabel, res.label)))
	values := make([]any, t.slots)
	runStatements(cfg, t, observe, res, values)
	if observe {
		// What the test asserts at its end, it asserts before the
		// releases its defers make.
		res.endObs = observeEnd(cfg, t, res, values)
	}
	release(cfg, t, observe, res, values)
}

// release calls the release methods (Op.Releases) of the values the
// statements that ran made, the last made first, as the written test's
// defers do, skipping nil values and values released already (a method
// that returns its receiver). A release that panics is left out of the
// written test, which would fail by it; with observe, the others are
// observed as obsReleased.
func release(cfg Config, t *test, observe bool, res *result, values []any) {
	var released map[any]bool
	for i := int(res.done.Load()) - 1; i >= 0; i-- {
		s := t.stmts[i]
		op := cfg.Ops[s.op]
		for r := len(op.Releases) - 1; r >= 0; r-- {
			if op.Releases[r] == "" {
				continue
			}
			v := values[s.base+r]
			if v != nil && reflect.TypeOf(v).Comparable() {
				if released[v] {
					continue
				}
				if released == nil {
					released = map[any]bool{}
				}
				released[v] = true
			}
			if releaseValue(v, op.Releases[r]) && observe {
				res.endObs = append(res.endObs, observation{stmt: i, result: r, end: true, kind: obsReleased})
			}
		}
	}
}

// releaseValue calls the release method name of v, with a background
// context if it takes one, unless v is nil; it reports whether the call
// was made and returned.
func releaseValue(v any, name string) (released bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return false
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func, reflect.Interface:
		if rv.IsNil() {
			return false
		}
	}
	m := rv.MethodByName(name)
	if !m.IsValid() {
		return false
	}
	defer func() {
		if recover() != nil {
			released = false
		}
	}()
	var in []reflect.Value
	if m.Type().NumIn() == 1 {
		in = append(in, reflect.ValueOf(context.Background()))
	}
	m.Call(in)
	return true
}

// runStatements runs the test's statements, recording in values the
// values they make and in res, when one panics or calls runtime.Goexit,
// how the test ended.
func runStatements(cfg Config, t *test, observe bool, res *result, values []any) {
	defer func() {
		n := int(res.done.Load())
		if p := recover(); p != nil {
			res.end.status = statusPanic
			res.end.stmt = n
			res.end.panicVal = p
			res.end.frame = innermostFrame(cfg.Packages, 3, "")
			res.end.stack = panicStack()
		} else if n < len(t.stmts) {
			// runtime.Goexit: the test stopped without panicking.
			res.end.status = statusGoexit
			res.end.stmt = n
			res.end.message = "runtime.Goexit called"
			res.end.frame = innermostFrame(cfg.Packages, 3, "")
		}
	}()
	args := make([]any, 0, 8)
	for i, s := range t.stmts {
		op := cfg.Ops[s.op]
		if op.Prim != nil {
			values[s.base] = op.Prim(s.value)
		} else if op.Func != nil {
			values[s.base] = op.Func(s.variant, s.value)
		} else {
			args = args[:0]
			for _, a := range s.args {
				if a < 0 {
					args = append(args, nil)
				} else {
					args = append(args, values[a])
				}
			}
			outs := op.Call(args)
			copy(values[s.base:s.base+op.Outputs], outs)
		}
		if observe {
			for r := 0; r < op.Outputs; r++ {
				isErr := r < len(op.ErrorOut) && op.ErrorOut[r]
				res.obs = append(res.obs, describe(i, r, values[s.base+r], isErr, false)...)
			}
			if op.Target {
				if res.targets == nil {
					res.targets = map[int]bool{}
				}
				res.targets[s.base] = true
			}
			if op.Setup {
				res.snapshot(values, s, op)
			}
		}
		res.done.Store(int32(i + 1))
	}
}

// stopTimer stops t and drains its channel, under either timer semantics
// (the module's Go version chooses).
func stopTimer(t *time.Timer) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
}

// goroutineStates is what a goroutine dump says about a test that did not
// end in time.
type goroutineStates struct {
	// testState is the wait reason of the test's goroutine ("running",
	// "chan receive", "select (no cases)"), testFrame its innermost frame
	// of the caller or callee, testID its ID (-1 if it has ended).
	testState, testFrame string
	testID               int
	// testStack is the stack of the test's goroutine (see stackLines).
	testStack string
	// forever is true when every goroutine but the worker's own is blocked
	// for ever: in a select with no cases, or on a nil channel. The test
	// hangs if its goroutine is among them.
	forever bool
}

// blockedForEver starts the message of a test whose goroutines are all
// blocked for ever.
const blockedForEver = "blocked for ever: "

// leakedSuffix ends the wait reason of a goroutine the garbage collector
// found leaked (see findLeaks): "chan receive (leaked)".
const leakedSuffix = " (leaked)"

// findLeaks has the garbage collector look for leaked goroutines, when
// the runtime can (Go 1.26 and later, built with
// GOEXPERIMENT=goroutineleakprofile), and reports whether it looked. A
// goroutine blocked on a channel, a select or a lock that no goroutine
// that can still run can reach is leaked: nothing can wake it, and from
// then on its wait reason in a dump ends in leakedSuffix. Such a
// goroutine is as blocked for ever as one in a select with no cases, so
// a test it belongs to hangs without waiting for the timeout, and one it
// outlives leaves the worker able to go on. A look is a garbage
// collection, some milliseconds: the watchdog takes it only for a test
// blocked in such a wait, and for goroutines a test left behind.
func (s *server) findLeaks() bool {
	if s.leaks == nil {
		return false
	}
	s.leaks.WriteTo(io.Discard, 0)
	return true
}

// leakLookAfter is how long a test runs before the watchdog has the
// garbage collector look whether it is blocked for ever (see
// inspectRunning): most tests that block on a channel for good are
// known as hangs at the poll after it, instead of at the timeout.
const leakLookAfter = 16 * time.Millisecond

// inspectRunning inspects the goroutines of a test still running,
// elapsed into its run. From leakLookAfter on, a test blocked where only
// the garbage collector can tell whether anything may wake it (a channel
// operation, a select, a lock, a WaitGroup) has it look (findLeaks), and
// is inspected again.
func (s *server) inspectRunning(elapsed time.Duration) goroutineStates {
	st := s.inspect()
	if !st.forever && st.testID >= 0 && elapsed >= leakLookAfter && leakable(st.testState) && s.findLeaks() {
		st = s.inspect()
	}
	return st
}

// leakable reports whether a goroutine in wait state may be found leaked.
func leakable(state string) bool {
	return strings.HasPrefix(state, "chan ") || state == "select" || strings.HasPrefix(state, "sync.") || strings.HasPrefix(state, "semacquire")
}

// foreverStates are the wait reasons no event can end.
var foreverStates = map[string]bool{
	"select (no cases)":       true,
	"chan receive (nil chan)": true,
	"chan send (nil chan)":    true,
}

// inspect takes a dump of every goroutine. The test's goroutine is the one
// running testBody that no earlier test left parked.
func (s *server) inspect() goroutineStates {
	if s.dump == nil {
		s.dump = make([]byte, 64<<10)
	}
	var buf []byte
	for {
		n := runtime.Stack(s.dump, true)
		if n < len(s.dump) || len(s.dump) >= 64<<20 {
			buf = s.dump[:n]
			break
		}
		s.dump = make([]byte, 2*len(s.dump))
	}
	st := goroutineStates{forever: true, testID: -1}
	current.Lock()
	defer current.Unlock()
	for i, g := range strings.Split(string(buf), "\n\n") {
		header, body, _ := strings.Cut(g, "\n")
		// goroutine 18 [chan receive (nil chan), 2 minutes]:
		open, close := strings.IndexByte(header, '['), strings.LastIndexByte(header, ']')
		if open < 0 || close < open {
			continue
		}
		id, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(header[:open], "goroutine")))
		state, _, _ := strings.Cut(header[open+1:close], ",")
		if i == 0 || s.framework[id] {
			continue // the worker itself, taking the dump, or the testing package
		}
		if !foreverStates[state] && !strings.HasSuffix(state, leakedSuffix) {
			st.forever = false
		}
		if strings.Contains(body, s.testBody+"(") && !s.parked[id] {
			st.testID = id
			st.testState = state
			st.testFrame = frameInDump(body, s.cfg.Packages)
			st.testStack = StackOfTrace(body)
		}
	}
	return st
}

// frameInDump finds, in one goroutine's part of a dump, the innermost
// frame of the caller or callee, as file:line function.
func frameInDump(body string, pkgs []string) string {
	lines := strings.Split(body, "\n")
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		if p := strings.LastIndexByte(fn, '('); p > 0 {
			fn = fn[:p]
		}
		for _, p := range pkgs {
			if strings.HasPrefix(fn, p+".") {
				loc := strings.TrimSpace(lines[i+1])
				if sp := strings.IndexByte(loc, ' '); sp > 0 {
					loc = loc[:sp]
				}
				return loc + " " + fn
			}
		}
	}
	return ""
}

// testLabel is the pprof label that marks the goroutines of a test.
const testLabel = "cling_test"

// leakedStack waits up to grace until no more than want goroutines
// run, and returns the stack (see stackLines) of a goroutine still running
// that the test labelled label started, directly or not, and that runs
// code of the caller or callee (the background goroutines of the standard
// library or another module, such as the one signal.Notify starts once,
// are no leak of the pair); "" if there is none. With started set (the
// test started goroutines) the count settling is not enough: another
// goroutine's end may hide one of the test's, so the labels decide, up
// to grace. With no leak, it also returns how long the goroutines took to
// end; 0 when a goroutine reported an exit or a panic, which ends the test
// and blocks that goroutine for ever.
func (s *server) leakedStack(want int, label string, started bool, grace time.Duration) (string, time.Duration) {
	start := time.Now()
	// The test's own goroutine may be on its way out.
	for i := 0; i < 3 && runtime.NumGoroutine() > want; i++ {
		runtime.Gosched()
	}
	deadline := start.Add(grace)
	pause := 100 * time.Microsecond
	// nap sleeps a pause, doubling up to 10 ms, never past the deadline.
	nap := func() {
		time.Sleep(min(pause, max(time.Until(deadline), 0)))
		pause = min(2*pause, 10*time.Millisecond)
	}
	// A goroutine of the test that reported its end (a panic, an exit)
	// blocks for ever: no need to wait for it, the report ends the test.
	reported := func() bool { return len(s.exits) > 0 }
	for runtime.NumGoroutine() > want && time.Now().Before(deadline) && !reported() {
		nap()
	}
	if reported() {
		// The goroutine blocks for ever: how long it took to report is
		// no time for goroutines to end in.
		return "", 0
	}
	if runtime.NumGoroutine() <= want && !started {
		return "", time.Since(start)
	}
	for {
		s.profile.Reset()
		if err := pprof.Lookup("goroutine").WriteTo(&s.profile, 1); err != nil {
			return "", 0
		}
		if reported() {
			return "", 0
		}
		stack := labelledStack(s.profile.String(), label, s.cfg.Packages)
		if stack == "" {
			return "", time.Since(start)
		}
		if !time.Now().Before(deadline) {
			if stack == notStarted {
				// Nothing says whose code it will run.
				return "", time.Since(start)
			}
			return stack, 0
		}
		nap()
	}
}

// goroutinesCreated is the number of goroutines the process has started,
// or 0 where the runtime does not say.
func (s *server) goroutinesCreated() uint64 {
	metrics.Read(s.created)
	if s.created[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.created[0].Value.Uint64()
}

// notStarted is what labelledStack gives for a goroutine labelled as
// asked that has not run yet: the profile shows no frame of it (not even
// its function's), so whether it runs the packages' code is not known
// until it starts.
const notStarted = "(a goroutine not started yet)"

// labelledStack finds, in a goroutine profile in its debug=1 text form,
// the stack of a goroutine labelled label (see testLabel) with a frame of
// one of the packages pkgs; notStarted when the only one labelled label
// has not started yet.
func labelledStack(profile, label string, pkgs []string) string {
	found := ""
	want := fmt.Sprintf("%q:%q", testLabel, label)
	for _, rec := range strings.Split(profile, "\n\n") {
		labelled := false
		var frames []frameText
		for _, line := range strings.Split(rec, "\n") {
			if l, ok := strings.CutPrefix(line, "# labels: "); ok {
				labelled = strings.Contains(l, want+",") || strings.Contains(l, want+"}")
				continue
			}
			// #	0x4a8f65	example.com/p.f+0x25	/src/p/f.go:10
			parts := strings.Split(line, "\t")
			if len(parts) != 4 || parts[0] != "#" {
				continue
			}
			fn := parts[2]
			if plus := strings.LastIndex(fn, "+0x"); plus > 0 {
				fn = fn[:plus]
			}
			frames = append(frames, frameText{fn: fn, loc: strings.TrimSpace(parts[3])})
		}
		if labelled && inPackages(frames, pkgs) {
			return stackLines(frames)
		}
		if labelled && len(frames) == 0 {
			found = notStarted
		}
	}
	return found
}

// inPackages reports whether a frame is of one of the packages pkgs.
func inPackages(frames []frameText, pkgs []string) bool {
	for _, f := range frames {
		if packageIn(f.fn, pkgs) {
			return true
		}
	}
	return false
}

// packageIn reports whether a function belongs to one of the packages.
func packageIn(fn string, pkgs []string) bool {
	for _, p := range pkgs {
		if strings.HasPrefix(fn, p+".") {
			return true
		}
	}
	return false
}

// isStandard reports whether a function belongs to the standard library:
// to a package whose path's first element has no dot.
func isStandard(fn string) bool {
	first, _, _ := strings.Cut(packageOf(fn), "/")
	return !strings.Contains(first, ".")
}

// packageOf returns the import path of a function's package, as the
// runtime names functions (example.com/m/p.(*T).M, math.IsInf).
func packageOf(fn string) string {
	slash := strings.LastIndexByte(fn, '/')
	if dot := strings.IndexByte(fn[slash+1:], '.'); dot >= 0 {
		return fn[:slash+1+dot]
	}
	return fn
}

// frameText is one frame of a stack: its function and its file:line.
type frameText struct{ fn, loc string }

// stackLines formats the frames of a stack, innermost first, one
// "function file:line" per line. It leaves out the leading frames of the
// runtime (where a panic is raised, where a goroutine waits) and stops at
// the executor's own frames (package main: the stubs that make the test's
// calls). A stack of more than maxSentFrames keeps its innermost and its
// outermost frames: where it happened, and the call from the test.
func stackLines(frames []frameText) string {
	// The leading frames are the runtime's, or the probes' runtime's and
	// the standard library's it calls (a hang stopped inside a probe).
	start := 0
	for i, f := range frames {
		if isProbeFrame(f.fn) {
			start = i + 1
		} else if !isRuntimeFrame(f.fn) && (start > 0 || !isStandard(f.fn)) {
			break
		}
	}
	for start < len(frames) && isRuntimeFrame(frames[start].fn) {
		start++
	}
	frames = frames[start:]
	for i, f := range frames {
		if isExecutorFrame(f.fn) {
			frames = frames[:i]
			break
		}
	}
	if len(frames) > maxSentFrames {
		frames = append(frames[:maxSentFrames*3/4:maxSentFrames*3/4], frames[len(frames)-maxSentFrames/4:]...)
	}
	var b strings.Builder
	for _, f := range frames {
		b.WriteString(f.fn)
		b.WriteByte(' ')
		b.WriteString(f.loc)
		b.WriteByte('\n')
	}
	return b.String()
}

// isProbeFrame reports whether a function belongs to the probes' runtime,
// which the instrumentation adds to the module as a package clingprobe_rt
// (clingprobe_rt2, ... if the name is taken).
func isProbeFrame(fn string) bool {
	slash := strings.LastIndexByte(fn, '/')
	return slash >= 0 && strings.HasPrefix(fn[slash+1:], "clingprobe_rt")
}

// isExecutorFrame reports whether a function belongs to the executor:
// package main of a plain executor, or the package clingharness
// (clingharness2, ...) cling adds to R's test binary.
func isExecutorFrame(fn string) bool {
	if strings.HasPrefix(fn, "main.") {
		return true
	}
	slash := strings.LastIndexByte(fn, '/')
	return slash >= 0 && strings.HasPrefix(fn[slash+1:], "clingharness")
}

// currentStack returns the stack of the calling goroutine (see
// stackLines) below the executor's own frames, however deep it is.
func currentStack() string {
	pcs := make([]uintptr, 512)
	n := runtime.Callers(2, pcs)
	for n == len(pcs) {
		pcs = make([]uintptr, 2*len(pcs))
		n = runtime.Callers(2, pcs)
	}
	// Symbolizing a frame costs about half a microsecond, and a stack that
	// overflowed holds thousands of them: of a deep stack only the
	// innermost and outermost frames are symbolized, well more than
	// stackLines keeps of either end.
	const keep = 4 * maxSentFrames
	var out []frameText
	if n > 2*keep {
		out = symbolize(out, pcs[:keep])
		out = symbolize(out, pcs[n-keep:n])
	} else {
		out = symbolize(out, pcs[:n])
	}
	return stackLines(out)
}

// symbolize appends the frames of pcs to out, leaving out executor frames
// before the first frame.
func symbolize(out []frameText, pcs []uintptr) []frameText {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if len(out) > 0 || !isExecutorFrame(f.Function) {
			out = append(out, frameText{fn: f.Function, loc: f.File + ":" + strconv.Itoa(f.Line)})
		}
		if !more {
			return out
		}
	}
}

// isRuntimeFrame reports whether a function belongs to the runtime.
func isRuntimeFrame(fn string) bool {
	return strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "internal/runtime/")
}

// panicStack returns the stack of the panic being recovered (see
// stackLines), from the frame that raised it; the caller is the deferred
// function that recovers.
func panicStack() string {
	pcs := make([]uintptr, 512)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []frameText
	raised := false
	for {
		f, more := frames.Next()
		if raised {
			out = append(out, frameText{fn: f.Function, loc: f.File + ":" + strconv.Itoa(f.Line)})
		} else if f.Function == "runtime.gopanic" {
			raised = true
		}
		if !more {
			break
		}
	}
	return stackLines(out)
}

// StackOfTrace returns the stack (see stackLines) of the first goroutine
// of a traceback as the runtime prints it (a goroutine dump, the report of
// a fatal error): after its "goroutine N [state]:" line, a function line
// and a file:line line per frame, and a last "created by" frame.
func StackOfTrace(trace string) string {
	lines := strings.Split(trace, "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "goroutine ") {
		i++
	}
	if i < len(lines) {
		i++
	} else {
		i = 0 // a goroutine's part of a dump, without its header
	}
	var frames []frameText
	for ; i+1 < len(lines); i++ {
		fn := lines[i]
		if fn == "" || strings.HasPrefix(fn, "goroutine ") {
			break
		}
		if !strings.HasPrefix(lines[i+1], "\t") {
			continue // ...additional frames elided...
		}
		if c, ok := strings.CutPrefix(fn, "created by "); ok {
			fn, _, _ = strings.Cut(c, " in goroutine ")
		} else if p := strings.LastIndexByte(fn, '('); p > 0 {
			fn = fn[:p]
		}
		loc := strings.TrimSpace(lines[i+1])
		if sp := strings.IndexByte(loc, ' '); sp > 0 {
			loc = loc[:sp]
		}
		frames = append(frames, frameText{fn: fn, loc: loc})
		i++
	}
	return stackLines(frames)
}

// innermostFrame finds, on the calling goroutine's stack, the innermost
// frame of the caller or callee package, other than frames of skipFile;
// skip is as for runtime.Callers.
func innermostFrame(pkgs []string, skip int, skipFile string) string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(skip, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		for _, p := range pkgs {
			if strings.HasPrefix(f.Function, p+".") && f.File != skipFile {
				return fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Function)
			}
		}
		if !more {
			return ""
		}
	}
}

func encodeResult(buf []byte, cfg Config, res *result, retire bool) []byte {
	st := res.status
	if retire {
		st |= flagRetiring
	}
	if res.leak != "" {
		st |= flagLeak
		if res.leakCut {
			st |= flagLeakCut
		}
	} else if res.settle > 0 {
		st |= flagSettled
	}
	buf = append(buf, st)
	buf = binary.AppendUvarint(buf, uint64(res.elapsed/time.Microsecond))
	buf = binary.AppendUvarint(buf, uint64(res.cpu/time.Microsecond))
	if st&flagSettled != 0 {
		buf = binary.AppendUvarint(buf, uint64(max(res.settle/time.Microsecond, 1)))
	}
	if res.leak != "" {
		buf = appendString(buf, res.leak)
	}
	if res.status == statusOK {
		return appendTrace(buf, cfg)
	}
	buf = binary.AppendUvarint(buf, uint64(max(min(res.stmt, res.stmts-1), 0)))
	text := res.message
	if res.status == statusPanic {
		var isErr, isText bool
		text, isErr, isText = describePanic(res.panicVal)
		buf = appendBool(buf, isErr)
		buf = appendBool(buf, isText)
		buf = appendBool(buf, isRuntimeError(res.panicVal))
		buf = appendString(buf, fmt.Sprintf("%T", res.panicVal))
	}
	buf = appendString(buf, text)
	buf = appendString(buf, res.frame)
	buf = appendString(buf, res.stack)
	if res.status == statusExit {
		buf = binary.AppendVarint(buf, int64(res.code))
	}
	if res.status == statusPanic {
		return appendTrace(buf, cfg)
	}
	return binary.AppendUvarint(buf, 0) // no trace
}

// appendTrace appends the test's trace, after its length. The trace is
// written into buf and then moved past its length, which is known only
// then: a trace written into a buffer of its own would grow a new one for
// every test, and the garbage kept the collector and the scavenger busy
// on tests that reach many branches.
func appendTrace(buf []byte, cfg Config) []byte {
	start := len(buf)
	buf = cfg.Trace(buf)
	var prefix [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(prefix[:], uint64(len(buf)-start))
	buf = append(buf, prefix[:k]...)
	copy(buf[start+k:], buf[start:len(buf)-k])
	copy(buf[start:], prefix[:k])
	return buf
}

// isRuntimeError reports whether a panic value is an error of the Go
// runtime (a nil dereference, an index out of range, a failed type
// assertion, ...), or an error that wraps one.
func isRuntimeError(v any) (is bool) {
	if _, ok := v.(runtime.Error); ok {
		return true
	}
	err, ok := v.(error)
	if !ok {
		return false
	}
	// The Unwrap methods belong to the code under test.
	defer func() {
		if recover() != nil {
			is = false
		}
	}()
	var re runtime.Error
	return errors.As(err, &re)
}

// errorText returns err.Error(), or, when the method panics (a typed nil
// pointer whose Error dereferences it), what fmt prints of err and false.
// The method is the code under test's: a panic in it must not end the
// worker, as it did when it came up while the panic of a test was being
// recovered.
func errorText(err error) (text string, ok bool) {
	defer func() {
		if recover() != nil {
			text, ok = fmt.Sprint(err), false // fmt recovers it, and says so
		}
	}()
	return err.Error(), true
}

func describePanic(v any) (text string, isErr, isText bool) {
	switch x := v.(type) {
	case error:
		text, _ := errorText(x)
		return text, true, false
	case string:
		return x, false, true
	}
	return fmt.Sprint(v), false, false
}

// Observation kinds; they match testcase.ObsKind.
const (
	obsNil = iota + 1
	obsNotNil
	obsBool
	obsInt
	obsUint
	obsFloat
	obsString
	obsNoError
	obsError
	obsLen
	obsElems
	obsBytes
	obsReleased
)

type observation struct {
	stmt, result int
	path         string
	end          bool
	kind         byte
	text         string
}

// snapshot records the fields of the struct values a set-up op produced,
// and again those of its arguments that were snapshot before (a field set
// or a set-up method may have changed them).
func (res *result) snapshot(values []any, s stmt, op Op) {
	if res.snaps == nil {
		res.snaps = map[int]map[observation]bool{}
	}
	take := func(i int) {
		obs := res.describeEnd(values, 0, 0, i, false)
		if obs == nil {
			return
		}
		m := make(map[observation]bool, len(obs))
		for _, o := range obs {
			m[o] = true
		}
		res.snaps[i] = m
	}
	for r := 0; r < op.Outputs; r++ {
		take(s.base + r)
	}
	for _, a := range s.args {
		if _, ok := res.snaps[a]; ok {
			take(a)
		}
	}
}

// observeEnd describes, when the test is over, what its outputs point
// to: the text of its String method, the exported fields of a struct.
func observeEnd(cfg Config, t *test, res *result, values []any) []observation {
	var out []observation
	for i, s := range t.stmts {
		if i >= int(res.done.Load()) {
			break
		}
		op := cfg.Ops[s.op]
		for r := 0; r < op.Outputs; r++ {
			isErr := r < len(op.ErrorOut) && op.ErrorOut[r]
			snap, hasSnap := res.snaps[s.base+r]
			for _, o := range res.describeEnd(values, i, r, s.base+r, isErr) {
				key := o
				key.stmt, key.result = 0, 0
				if hasSnap && snap[key] {
					continue // as the test set it up
				}
				out = append(out, o)
			}
		}
	}
	return out
}

// describe observes one value. Without end, the value itself (and the
// fields of a struct value); with end, what a pointer points to: the text
// of its String method, the fields of a struct.
func describe(stmt, result int, v any, isErr, end bool) []observation {
	obs := func(path string, kind byte, text string) observation {
		return observation{stmt: stmt, result: result, path: path, end: end, kind: kind, text: text}
	}
	if isErr {
		if end {
			return nil
		}
		if v == nil {
			return []observation{obs("", obsNoError, "")}
		}
		text, ok := errorText(v.(error))
		if !ok {
			return nil // no assertion can call its Error
		}
		return []observation{obs("", obsError, text)}
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		if end {
			return nil
		}
		return []observation{obs("", obsNil, "")}
	}
	if end {
		if rv.Kind() != reflect.Pointer || rv.IsNil() {
			return nil
		}
		// The text of its String method first: what a writer the test
		// passed in (a *bytes.Buffer, a *strings.Builder) holds at the
		// end is often the whole point of the calls that wrote to it.
		var out []observation
		if text, ok := stringText(rv); ok {
			if len(text) <= maxEndText {
				out = append(out, obs("String()", obsString, text))
			} else {
				out = append(out, obs("String()", obsLen, fmt.Sprint(len(text))))
			}
		}
		if rv.Elem().Kind() == reflect.Struct {
			out = append(out, fields(rv.Elem(), obs)...)
		}
		return out
	}
	if o, ok := basic(rv, ""); ok {
		return []observation{obs(o.path, o.kind, o.text)}
	}
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
		if rv.IsNil() {
			return []observation{obs("", obsNil, "")}
		}
		out := []observation{obs("", obsNotNil, "")}
		if text, ok := stringer(rv); ok {
			out = append(out, obs("String()", obsString, text))
		}
		return out
	case reflect.Slice, reflect.Map:
		if rv.IsNil() {
			return []observation{obs("", obsNil, "")}
		}
		return collection(rv, "", obs)
	case reflect.Struct:
		out := fields(rv, obs)
		if text, ok := stringer(rv); ok {
			out = append(out, obs("String()", obsString, text))
		}
		return out
	}
	return nil
}

// describePointee observes what a decode target points to at the end of
// a test: the fields of a struct; a value of a basic kind, or the length
// of a slice or map (nil observed as such), with the path "*".
func describePointee(stmt, result int, v any) []observation {
	obs := func(path string, kind byte, text string) observation {
		return observation{stmt: stmt, result: result, path: path, end: true, kind: kind, text: text}
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil
	}
	e := rv.Elem()
	if o, ok := basic(e, "*"); ok {
		return []observation{obs(o.path, o.kind, o.text)}
	}
	switch e.Kind() {
	case reflect.Struct:
		return fields(e, obs)
	case reflect.Slice, reflect.Map:
		if e.IsNil() {
			return []observation{obs("*", obsNil, "")}
		}
		return collection(e, "*", obs)
	}
	return nil
}

// maxText is the longest text of a String method observed as such right
// after a call; maxEndText the longest at the end of a test, where a
// longer one is observed by its length.
const (
	maxText    = 256
	maxEndText = 1024
)

// stringer calls the String method of a value that has one, unless it
// panics or its text is longer than maxText.
func stringer(rv reflect.Value) (text string, ok bool) {
	text, ok = stringText(rv)
	return text, ok && len(text) <= maxText
}

// stringText calls the String method of a value that has one, unless it
// panics.
func stringText(rv reflect.Value) (text string, ok bool) {
	if !rv.CanInterface() {
		return "", false
	}
	s, isStringer := rv.Interface().(fmt.Stringer)
	if !isStringer {
		return "", false
	}
	defer func() {
		if recover() != nil {
			text, ok = "", false
		}
	}()
	return s.String(), true
}

// fields observes the exported fields of a struct of basic kinds, errors,
// nil-ness and lengths, and the text of the String method of a struct
// field, of a pointer one, and of an interface one whose type has that
// method (so that x.F.String() compiles).
func fields(rv reflect.Value, obs func(string, byte, string) observation) []observation {
	var out []observation
	t := rv.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := rv.Field(i)
		path := "." + f.Name
		if o, ok := basic(fv, path); ok {
			out = append(out, obs(o.path, o.kind, o.text))
			continue
		}
		if f.Type == errorType {
			if fv.IsNil() {
				out = append(out, obs(path, obsNoError, ""))
			} else if text, ok := errorText(fv.Interface().(error)); ok {
				out = append(out, obs(path, obsError, text))
			}
			continue
		}
		switch fv.Kind() {
		case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan:
			if fv.IsNil() {
				out = append(out, obs(path, obsNil, ""))
				continue
			}
			out = append(out, obs(path, obsNotNil, ""))
			// What a buffer the struct holds has in it (the Body of an
			// httptest.ResponseRecorder), and what a value held as an
			// interface whose methods include String says of itself
			// (the parsed expression of a syntax tree's root node).
			if fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface && f.Type.Implements(stringerType) {
				if text, ok := stringer(fv); ok {
					out = append(out, obs(path+".String()", obsString, text))
				}
			}
		case reflect.Slice, reflect.Map:
			if fv.IsNil() {
				out = append(out, obs(path, obsNil, ""))
			} else {
				out = append(out, collection(fv, path, obs)...)
			}
		case reflect.Struct:
			if text, ok := stringer(fv); ok {
				out = append(out, obs(path+".String()", obsString, text))
			}
		}
	}
	return out
}

// maxElems is the most elements of a slice observed one by one.
const maxElems = 16

// collection describes a non-nil slice or map by its length, and a slice
// also by what it holds: a slice of byte by its bytes (up to maxText of
// them), a slice of up to maxElems values of basic kinds by those values
// (the list's text up to maxText bytes). The elements' texts are written one
// after the other, each as its length in decimal, a colon, and the text.
// The length stays an observation of its own: the emitter asserts it when
// the contents differ from run to run (an order taken from a map). obs
// makes an observation of a path, kind and text.
func collection(rv reflect.Value, path string, obs func(string, byte, string) observation) []observation {
	n := rv.Len()
	out := []observation{obs(path, obsLen, fmt.Sprint(n))}
	if rv.Kind() != reflect.Slice || n == 0 {
		return out
	}
	if rv.Type().Elem() == byteType {
		if n <= maxText {
			out = append(out, obs(path, obsBytes, string(rv.Bytes())))
		}
		return out
	}
	if n > maxElems {
		return out
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		o, ok := basic(rv.Index(i), "")
		if !ok || o.kind == obsLen {
			return out
		}
		b.WriteString(strconv.Itoa(len(o.text)))
		b.WriteByte(':')
		b.WriteString(o.text)
		if b.Len() > maxText {
			return out
		}
	}
	return append(out, obs(path, obsElems, b.String()))
}

var (
	errorType    = reflect.TypeOf((*error)(nil)).Elem()
	stringerType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
	byteType     = reflect.TypeOf(byte(0))
)

// basic describes a value of a basic kind.
func basic(rv reflect.Value, path string) (observation, bool) {
	o := observation{path: path}
	switch rv.Kind() {
	case reflect.Bool:
		o.kind, o.text = obsBool, fmt.Sprint(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		o.kind, o.text = obsInt, fmt.Sprint(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		o.kind, o.text = obsUint, fmt.Sprint(rv.Uint())
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return o, false
		}
		o.kind, o.text = obsFloat, fmt.Sprint(f)
		if rv.Kind() == reflect.Float32 {
			o.text = fmt.Sprint(float32(f))
		}
	case reflect.String:
		s := rv.String()
		if len(s) > 256 {
			o.kind, o.text = obsLen, fmt.Sprint(len(s))
		} else {
			o.kind, o.text = obsString, s
		}
	default:
		return o, false
	}
	return o, true
}

func appendObservations(buf []byte, obs []observation) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(obs)))
	for _, o := range obs {
		buf = binary.AppendUvarint(buf, uint64(o.stmt))
		buf = binary.AppendUvarint(buf, uint64(o.result))
		buf = appendString(buf, o.path)
		buf = appendBool(buf, o.end)
		buf = append(buf, o.kind)
		buf = appendString(buf, o.text)
	}
	return buf
}

func appendBool(buf []byte, b bool) []byte {
	if b {
		return append(buf, 1)
	}
	return append(buf, 0)
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

func readFrame(r *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return b, err
}

func writeFrame(w io.Writer, b []byte) {
	var hdr [binary.MaxVarintLen64]byte
	w.Write(hdr[:binary.PutUvarint(hdr[:], uint64(len(b)))])
	w.Write(b)
}

// Literal tags on the wire.
const (
	litInt = iota
	litUint
	litFloat
	litString
	litBool
)

type reader struct {
	b   []byte
	err error
}

var errShort = errors.New("short request")

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errShort
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) literal() any {
	switch r.byte() {
	case litInt:
		v, n := binary.Varint(r.b)
		if n <= 0 {
			r.err = errShort
			return int64(0)
		}
		r.b = r.b[n:]
		return v
	case litUint:
		return r.uvarint()
	case litFloat:
		if len(r.b) < 8 {
			r.err = errShort
			return float64(0)
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
		r.b = r.b[8:]
		return v
	case litString:
		n := int(r.uvarint())
		if n > len(r.b) {
			r.err = errShort
			return ""
		}
		s := string(r.b[:n])
		r.b = r.b[n:]
		return s
	case litBool:
		return r.byte() == 1
	}
	r.err = errShort
	return nil
}
