package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cling-go/cling/harness/hrt"
	"github.com/cling-go/cling/testcase"
)

// Options configure an executor.
type Options struct {
	// Workers is the number of worker processes (default: number of CPUs).
	Workers int
	// Timeout bounds each test (default 1s): a test that runs longer is a
	// hang (TimedOut).
	Timeout time.Duration
	// Reproducible makes results independent of the machine's speed, as
	// runs that promise the same file for the same seed need: Explore
	// never cuts a test short (it waits for the full timeout unless the
	// test is blocked for ever), and a test that times out runs once more
	// before it counts as a hang, so that a moment of load on the machine
	// does not change a result.
	Reproducible bool
	// CutFloor bounds the adaptive limit on a test's run time from below
	// (default 10ms); see Explore.
	CutFloor time.Duration
	// CarefulResults has every result written before the next test runs,
	// one write and one read per test, instead of in batches; it exists to
	// measure what batching saves.
	CarefulResults bool
	// Dir is the working directory of the workers: a copy of the caller
	// package's directory, where its tests run.
	Dir string
	// Ops is the number of operations the executor was built with; tests
	// using others are refused (0: unchecked).
	Ops int
	// Env adds variables to the workers' environment.
	Env []string
}

// Executor runs test cases in worker processes of a built executor. A
// worker process that dies or retires is replaced by a warm spare, started
// in the background when the spare before was taken. There is a spare per
// worker, up to maxSpares: on code that crashes often, workers die faster
// than a process starts.
type Executor struct {
	exe     *Executable
	opts    Options
	workers []*worker
	// times are the run times and CPU times of the tests that ended, from
	// which the adaptive limits are learned; perTest is a moving average
	// of the time a worker spends per test (its share of a batch's time).
	times   runTimes
	perTest time.Duration

	mu sync.Mutex
	// spares are the processes started to replace workers, oldest first;
	// wantSpares is how many to keep, starting how many are being
	// started, and warming the goroutines that start them.
	spares     []*process
	wantSpares int
	starting   int
	warming    sync.WaitGroup
	// spareDone is signalled (with mu) when a spare that was starting
	// joined spares or failed to start.
	spareDone *sync.Cond
	closed    bool
	stats     Stats
}

// maxSpares bounds the number of spare processes.
const maxSpares = 2

// Stats count the executions and the failures the executor survived.
type Stats struct {
	Executions int `json:"executions"`
	// Panics, Exits, Cuts, Hangs and Crashes count tests by how they
	// ended (see Status). ConvertedExits are the exits of R and E that
	// the instrumentation turned into results (os.Exit, log.Fatal), which
	// once cost a worker each; the rest of Exits are runtime.Goexit.
	Panics         int `json:"panics"`
	Exits          int `json:"exits"`
	ConvertedExits int `json:"convertedExits"`
	Cuts           int `json:"adaptiveCuts"`
	// StepCuts counts the cuts (in Cuts) at the step cut of Explore under
	// Options.Reproducible (see Explore).
	StepCuts int `json:"stepCuts"`
	// LeakCuts counts the tests whose goroutines outlived them by more
	// than the adaptive grace of Explore (Result.LeakCut).
	LeakCuts int `json:"leakCuts"`
	Hangs    int `json:"confirmedHangs"`
	Crashes  int `json:"crashes"`
	// StackOverflows counts the tests stopped at the executor's stack
	// bound: crashes (Status Crashed) the worker survived, not counted in
	// Crashes, which cost a worker each.
	StackOverflows int `json:"stackOverflows"`
	// GoroutinePanics counts the tests in which a goroutine that R or E
	// started panicked, which the worker survived (see
	// rt.InterceptGoPanics); not counted in Crashes either.
	GoroutinePanics int `json:"goroutinePanics"`
	// StepBounds counts the hangs (in Hangs) stopped at the step bound: a
	// loop of R or E that took more branch outcomes than the bound of the
	// timeout allows, known as a hang without waiting for the timeout.
	StepBounds int `json:"stepBounds"`
	// WorkerStarts counts the worker processes started, the first ones
	// and the spares included; Handovers the times a worker that died or
	// retired was replaced by the warm spare; Retirements the workers that
	// retired (leaked goroutines, a large heap, a test that may still be
	// running).
	WorkerStarts int `json:"workerStarts"`
	Handovers    int `json:"spareHandovers"`
	Retirements  int `json:"retirements"`
	// RoundTrips counts the requests sent to workers: each carries a batch
	// of tests, whose results come back in a few writes.
	RoundTrips int `json:"roundTrips"`
	// BusySeconds is the time workers spent on batches, summed over the
	// workers: per execution, what a test cost to run, where the search's
	// own time between batches (the workers idle) is not counted.
	BusySeconds float64 `json:"workerBusySeconds"`
	// BatchSeconds is the wall time the executor spent on batches, from
	// the call of Run or Explore to its return: what the caller waited,
	// so that its own time is the rest.
	BatchSeconds float64 `json:"batchSeconds"`
	// Environment is what the executor was built as, and PlainReason why
	// it is not the caller's test binary (see Executable).
	Environment Environment `json:"environment"`
	PlainReason string      `json:"plainReason,omitempty"`
}

// NewExecutor prepares an executor of a built executable; workers start
// on first use.
func NewExecutor(exe *Executable, opts Options) *Executor {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Timeout <= 0 {
		opts.Timeout = time.Second
	}
	if opts.CutFloor <= 0 {
		opts.CutFloor = defaultCutFloor
	}
	x := &Executor{exe: exe, opts: opts, wantSpares: min(opts.Workers, maxSpares)}
	x.spareDone = sync.NewCond(&x.mu)
	x.stats.Environment, x.stats.PlainReason = exe.Environment, exe.PlainReason
	for i := 0; i < opts.Workers; i++ {
		x.workers = append(x.workers, &worker{x: x, sinceCrash: carefulSpan})
	}
	return x
}

// Stats returns the counters so far.
func (x *Executor) Stats() Stats {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.stats
}

func (x *Executor) count(f func(*Stats)) {
	x.mu.Lock()
	f(&x.stats)
	x.mu.Unlock()
}

// Close kills every worker and the spares.
func (x *Executor) Close() {
	for _, w := range x.workers {
		if w.p != nil {
			w.p.kill()
			w.p, w.lost = nil, false
		}
	}
	x.mu.Lock()
	x.closed = true
	x.mu.Unlock()
	x.warming.Wait()
	x.mu.Lock()
	spares := x.spares
	x.spares = nil
	x.mu.Unlock()
	for _, p := range spares {
		p.kill()
	}
}

// errWorkerStart is returned when a worker dies before greeting.
var errWorkerStart = errors.New("the executor cannot start")

// helloText is the executor's first frame; startTimeout bounds the wait
// for it; stuckGrace is how long past the timeout a worker may stay
// silent before it is taken for stuck and killed.
const (
	helloText    = "cling-executor"
	startTimeout = 30 * time.Second
	stuckGrace   = 2 * time.Second
)

// replyWithin is how long a worker may stay silent, running a test of
// req, before it is taken for stuck: the timeout, or, for a request that
// waits on cuts, as long as a loop on its way to the step bound may run
// past it (hrt.MaxOvertime timeouts), plus a grace.
func (x *Executor) replyWithin(req request) time.Duration {
	limit := x.opts.Timeout
	if req.waitOnCut {
		limit *= hrt.MaxOvertime
	}
	return limit + flushEvery + stuckGrace
}

// pieceSize returns how many tests a worker takes at a time from a batch
// Explore runs under a time budget: enough for pieceTime of work, at most
// a worker's whole share, chunk; x.mu is held.
func (x *Executor) pieceSize(chunk int) int {
	if x.perTest <= 0 {
		return chunk
	}
	return max(1, min(chunk, int(pieceTime/x.perTest)))
}

// pieceTime is the work a piece of a batch is made of, which a round trip
// costs little against.
const pieceTime = 2 * time.Millisecond

// pieces hands out the tests of a batch to its workers, piece by piece:
// each piece is the tests left shared among the workers, but at most
// limit (guided self-scheduling). Pieces shrink as the batch runs out,
// so the workers finish together: with fixed pieces, a batch of 50
// tests in pieces of 20 kept one worker idle for the last 10.
type pieces struct {
	mu                      sync.Mutex
	next, n, workers, limit int
}

// take returns the next piece, tests [lo, hi), empty when none is left.
func (p *pieces) take() (lo, hi int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	left := p.n - p.next
	size := max(1, min(p.limit, (left+p.workers-1)/p.workers))
	lo = p.next
	p.next = min(p.n, p.next+size)
	return lo, p.next
}

// Run executes tests and returns one result per test, in order; observe
// asks for the values each test observed. A test runs until it ends or
// the full timeout passes (unless it is blocked for ever before: a
// confirmed hang). The tests are split into contiguous chunks, one per
// worker, so results do not depend on scheduling.
func (x *Executor) Run(ctx context.Context, tests []*testcase.Test, observe bool) ([]Result, error) {
	return x.run(ctx, tests, request{observe: observe, waitOnCut: true})
}

// Explore executes tests whose results only guide a search. A test that
// runs past the adaptive limit — a small multiple of the 99th percentile
// of the run times seen so far, at least Options.CutFloor and at most the
// timeout — or that uses as much CPU time as the same multiple of the
// CPU times seen so far, at least 2 ms, is stopped there and reported as
// Cut, not as a hang. Where tests take long, the workers take them in
// pieces of a few milliseconds of work, each the next when it is done,
// the pieces shrinking as the batch runs out (see pieces), so that none
// waits idle for another's slow tests: which worker runs a test
// then depends on timing, as results under a time budget do anyway.
// Likewise the goroutines a test started get, to end after it, a small
// multiple of how long they took in the tests whose goroutines ended (at
// least 2 ms; the full grace until 32 such tests have run, or 10 ms once
// 32 tests left goroutines running and fewer ended theirs): a test whose
// goroutines outlive that is reported as a leak with LeakCut set, which a
// run with the full grace may not confirm. With Options.Reproducible,
// Explore is Run without observations, but for a step cut that does not
// depend on the machine's speed: a test that takes more branch outcomes
// of R and E than cutFactor times the 99th percentile of the tests that
// ended (in blocks of rt.StepBlock, at least stepCutFloor blocks, at
// most the timeout's step bound) is stopped there and reported as Cut.
// The step counts are learned in the order of the tests, so the cut is
// the same from run to run.
func (x *Executor) Explore(ctx context.Context, tests []*testcase.Test) ([]Result, error) {
	req := request{waitOnCut: x.opts.Reproducible}
	if x.opts.Reproducible {
		x.mu.Lock()
		req.stepCut = x.times.blocks.stepCut()
		x.mu.Unlock()
	}
	return x.run(ctx, tests, req)
}

func (x *Executor) run(ctx context.Context, tests []*testcase.Test, req request) ([]Result, error) {
	if x.opts.Ops > 0 {
		for _, t := range tests {
			for _, s := range t.Stmts {
				if s.Op.ID >= x.opts.Ops {
					return nil, fmt.Errorf("internal error: operation %s was not built into the executor", s.Op.Name)
				}
			}
		}
	}
	results := make([]Result, len(tests))
	n := min(len(x.workers), len(tests))
	if n == 0 {
		return results, nil
	}
	req.timeout = x.opts.Timeout
	req.careful = x.opts.CarefulResults
	x.mu.Lock()
	req.cut, req.cpuCut = x.times.limits(x.opts.CutFloor, x.opts.Timeout)
	if !req.waitOnCut {
		req.leakCut = x.times.leakCut()
	}
	x.mu.Unlock()
	batchStart := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, n)
	busy := make([]time.Duration, n)
	chunk := (len(tests) + n - 1) / n
	piece := chunk
	if !req.waitOnCut {
		x.mu.Lock()
		piece = x.pieceSize(chunk)
		x.mu.Unlock()
	}
	next := pieces{n: len(tests), workers: n, limit: piece}
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			start := time.Now()
			defer func() { busy[i] = time.Since(start) }()
			if piece == chunk {
				lo, hi := i*chunk, min((i+1)*chunk, len(tests))
				if lo < hi {
					errs[i] = w.run(ctx, tests[lo:hi], results[lo:hi], req)
				}
				return
			}
			for errs[i] == nil {
				lo, hi := next.take()
				if lo >= hi {
					return
				}
				errs[i] = w.run(ctx, tests[lo:hi], results[lo:hi], req)
			}
		}(x.workers[i])
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	x.mu.Lock()
	var total time.Duration
	for _, b := range busy {
		total += b
	}
	x.perTest = (x.perTest + total/time.Duration(len(tests))) / 2
	x.stats.BusySeconds += total.Seconds()
	x.stats.BatchSeconds += time.Since(batchStart).Seconds()
	for _, r := range results {
		x.stats.Executions++
		switch r.Status {
		case Passed, Panicked, Exited:
			x.times.add(r.Duration, r.CPUTime)
			if r.Trace != nil {
				x.times.blocks.add(r.Trace.StepBlocks)
			}
		}
		if r.settle > 0 {
			x.times.settle.add(r.settle)
		}
		if r.Leak != "" {
			x.times.leaks++
		}
		if r.LeakCut {
			x.stats.LeakCuts++
		}
		switch r.Status {
		case Panicked:
			x.stats.Panics++
		case Exited:
			x.stats.Exits++
			if !r.Goexit {
				x.stats.ConvertedExits++
			}
		case Cut:
			x.stats.Cuts++
			if strings.HasPrefix(r.Message, hrt.StepCutMessage) {
				x.stats.StepCuts++
			}
		case TimedOut:
			x.stats.Hangs++
			if strings.HasPrefix(r.Message, hrt.StepBoundMessage) {
				x.stats.StepBounds++
			}
		case Crashed:
			switch {
			case r.WorkerSurvived && r.Message == StackOverflow:
				x.stats.StackOverflows++
			case r.WorkerSurvived:
				x.stats.GoroutinePanics++
			default:
				x.stats.Crashes++
			}
		}
	}
	x.mu.Unlock()
	return results, nil
}

// replacement returns a process for a worker. One that replaces a process
// that died or retired is a spare if there is one (a handover): the first
// that is ready, or else the oldest, or else the first to finish starting;
// otherwise, and for a worker's first process, a new one starts. Either way spares start warming up in the
// background.
func (x *Executor) replacement(handover bool) (*process, error) {
	var p *process
	if handover {
		x.mu.Lock()
		p = x.takeSpareLocked()
		// A spare still starting is nearer to ready than a process
		// started now.
		for p == nil && x.starting > 0 && !x.closed {
			x.spareDone.Wait()
			p = x.takeSpareLocked()
		}
		if p != nil {
			x.stats.Handovers++
		}
		x.mu.Unlock()
	}
	if p == nil {
		var err error
		if p, err = x.spawn(); err != nil {
			return nil, err
		}
		x.count(func(s *Stats) { s.WorkerStarts++ })
	}
	x.warmSpares()
	<-p.ready
	if p.greetErr != nil {
		p.kill()
		return nil, p.greetErr
	}
	return p, nil
}

// takeSpareLocked removes and returns the first spare that is ready, or
// else the oldest, or nil; x.mu is held.
func (x *Executor) takeSpareLocked() *process {
	if len(x.spares) == 0 {
		return nil
	}
	i := 0
	for j, p := range x.spares {
		if p.isReady() {
			i = j
			break
		}
	}
	p := x.spares[i]
	x.spares = append(x.spares[:i], x.spares[i+1:]...)
	return p
}

// warmSpares starts, in the background, as many spare processes as are
// wanted and not there: they initialise while the workers run.
func (x *Executor) warmSpares() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for !x.closed && len(x.spares)+x.starting < x.wantSpares {
		x.starting++
		x.stats.WorkerStarts++
		x.warming.Add(1)
		go func() {
			defer x.warming.Done()
			p, err := x.spawn()
			x.mu.Lock()
			defer x.mu.Unlock()
			defer x.spareDone.Broadcast()
			x.starting--
			switch {
			case err != nil:
			case x.closed:
				go p.kill()
			default:
				x.spares = append(x.spares, p)
			}
		}()
	}
}

// process is one executor process.
type process struct {
	cmd *exec.Cmd
	req *os.File
	res *os.File
	rd  *bufio.Reader
	// crash is what the report of a fatal error says, once the process
	// has ended; ended is closed then.
	crash crash
	ended chan struct{}
	// ready is closed once the process greeted, or failed to (greetErr).
	ready    chan struct{}
	greetErr error
}

// spawn starts a process, which greets when it is ready (see greet).
func (x *Executor) spawn() (*process, error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	// Requests and results.
	for i := 0; i < 2; i++ {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, err
		}
		files = append(files, r, w)
	}
	reqR, reqW, resR, resW := files[0], files[1], files[2], files[3]
	cmd := exec.Command(x.exe.Path, x.exe.Args...)
	cmd.Dir = x.opts.Dir
	cmd.ExtraFiles = []*os.File{reqR, resW}
	// The runtime writes the report of a fatal error to the standard
	// error, whose end tells what happened; the traceback of the
	// goroutine that crashed tells where.
	report := &crashReport{}
	cmd.Stderr = report
	cmd.WaitDelay = time.Second
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(append(append(os.Environ(), "GOTRACEBACK=single"), x.exe.Env...), x.opts.Env...)
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, fmt.Errorf("starting the executor: %w", err)
	}
	reqR.Close()
	resW.Close()
	p := &process{cmd: cmd, req: reqW, res: resR, rd: bufio.NewReaderSize(resR, 1<<16), ended: make(chan struct{}), ready: make(chan struct{})}
	go func() {
		cmd.Wait()
		p.crash = report.crash(cmd.ProcessState)
		close(p.ended)
	}()
	go func() {
		p.greetErr = p.greet()
		close(p.ready)
	}()
	return p, nil
}

// isReady reports whether the process greeted (or failed to).
func (p *process) isReady() bool {
	select {
	case <-p.ready:
		return true
	default:
		return false
	}
}

// greet waits for the process's hello frame.
func (p *process) greet() error {
	p.res.SetReadDeadline(time.Now().Add(startTimeout))
	hello, err := readFrame(p.rd)
	if err != nil || string(hello) != helloText {
		return fmt.Errorf("%w: no greeting from %s", errWorkerStart, p.cmd.Path)
	}
	return nil
}

// startFailure starts one process of exe in dir and says why it did not
// greet ("" when it did): how it ended, or that it stayed silent.
func startFailure(exe *Executable, dir string) string {
	x := NewExecutor(exe, Options{Workers: 1, Dir: dir})
	p, err := x.spawn()
	if err != nil {
		return err.Error()
	}
	<-p.ready
	crash := p.kill()
	if p.greetErr == nil {
		return ""
	}
	// The process ended by itself, or stayed silent until it was killed.
	switch st := p.cmd.ProcessState; {
	case crash.line != "":
		return crash.line
	case st != nil && st.Exited():
		return st.String()
	}
	return fmt.Sprintf("no greeting within %s", startTimeout)
}

// kill kills the process group and waits for the process; it returns what
// the report of a fatal error says, if the process crashed.
func (p *process) kill() crash {
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	p.req.Close()
	p.res.Close()
	<-p.ended
	return p.crash
}

// crash is what the report of a fatal error says: its line ("fatal
// error: concurrent map writes", "panic: ...") and the stack of the
// goroutine that crashed (as Result.Stack).
type crash struct {
	line, stack string
}

// crashReport watches what a process writes to its standard error for
// the line of a fatal error's report that says what happened; the runtime
// prints it first, then the traceback of the goroutine, of which the
// report keeps maxTraceLines lines.
type crashReport struct {
	mu      sync.Mutex
	partial []byte
	line    string
	trace   []string
}

// maxTraceLines bounds the traceback a crash report keeps.
const maxTraceLines = 400

func (c *crashReport) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.partial = append(c.partial, b...)
	for {
		nl := bytes.IndexByte(c.partial, '\n')
		if nl < 0 {
			break
		}
		raw := string(bytes.TrimRight(c.partial[:nl], " \r"))
		line := strings.TrimSpace(raw)
		c.partial = c.partial[nl+1:]
		if strings.HasPrefix(line, "fatal error:") || strings.HasPrefix(line, "panic:") {
			c.line, c.trace = line, c.trace[:0]
		} else if c.line != "" && len(c.trace) < maxTraceLines {
			c.trace = append(c.trace, raw)
		}
	}
	if len(c.partial) > 4<<10 {
		c.partial = c.partial[:0] // no report line is this long
	}
	return len(b), nil
}

// crash is the report of a process that ended as state says: without
// the line of a fatal error, a process that exited on its own (through
// an exit the instrumentation does not intercept) says its status.
func (c *crashReport) crash(state *os.ProcessState) crash {
	c.mu.Lock()
	defer c.mu.Unlock()
	cr := crash{line: c.line, stack: hrt.StackOfTrace(strings.Join(c.trace, "\n"))}
	if cr.line == "" && state != nil && state.Exited() {
		cr.line = fmt.Sprintf("exit status %d", state.ExitCode())
	}
	return cr
}

// worker is one slot of the executor: a process, replaced when it dies
// or retires.
type worker struct {
	x *Executor
	p *process
	// lost is true when the last process died or retired.
	lost bool
	// sinceCrash counts the tests the worker ran since its last crash, up
	// to carefulSpan. Until carefulSpan tests in a row went through
	// without one, its results are not written in batches: on code that
	// crashes often, a crash would lose them.
	sinceCrash int
}

// carefulSpan is how many tests a worker runs without a crash before it
// writes results in batches again.
const carefulSpan = 64

// drop gives up the worker's process, killing it (in the background, for a
// process that retires by itself), and returns what its crash report
// says.
func (w *worker) drop(background bool) crash {
	p := w.p
	w.p, w.lost = nil, true
	if background {
		go p.kill()
		return crash{}
	}
	return p.kill()
}

// run executes tests on this worker, replacing the process after a crash
// or a retirement and going on with the rest of the tests. A request
// carries all the tests left; their results come back in a few writes, so
// after a crash the results since the last write are lost and the tests
// run again, carefully (one write per result), which finds the test that
// crashed. With Options.Reproducible, a test that timed out (and is not
// blocked for ever, nor stopped at the step bound, both of which do not
// depend on the machine's speed) runs once more.
func (w *worker) run(ctx context.Context, tests []*testcase.Test, results []Result, req request) error {
	if err := w.runOnce(ctx, tests, results, req); err != nil {
		return err
	}
	if !w.x.opts.Reproducible {
		return nil
	}
	var again []*testcase.Test
	var idx []int
	for i, r := range results {
		if r.Status == TimedOut && !strings.HasPrefix(r.Message, blockedForEver) && !strings.HasPrefix(r.Message, hrt.StepBoundMessage) {
			again = append(again, tests[i])
			idx = append(idx, i)
		}
	}
	if len(again) == 0 {
		return nil
	}
	retried := make([]Result, len(again))
	if err := w.runOnce(ctx, again, retried, req); err != nil {
		return err
	}
	for j, i := range idx {
		results[i] = retried[j]
	}
	return nil
}

// blockedForEver starts the message of a test whose goroutines are all
// blocked for ever.
const blockedForEver = "blocked for ever"

func (w *worker) runOnce(ctx context.Context, tests []*testcase.Test, results []Result, req request) error {
	x := w.x
	req.careful = req.careful || w.sinceCrash < carefulSpan
	crashed := false
	defer func() {
		if crashed {
			w.sinceCrash = 0
		} else {
			w.sinceCrash = min(w.sinceCrash+len(tests), carefulSpan)
		}
	}()
	i := 0
	for i < len(tests) {
		if ctx.Err() != nil {
			if w.p != nil {
				w.drop(false)
			}
			return ctx.Err()
		}
		if w.p == nil {
			p, err := x.replacement(w.lost)
			if err != nil {
				return err
			}
			w.p, w.lost = p, false
		}
		x.count(func(s *Stats) { s.RoundTrips++ })
		if err := writeFrame(w.p.req, encodeRequest(tests[i:], req)); err != nil {
			// The worker died before reading: count it against this test.
			c := w.drop(false)
			results[i] = Result{Status: Crashed, Stmt: -1, Message: c.line, Stack: c.stack}
			i++
			continue
		}
		for i < len(tests) {
			w.p.res.SetReadDeadline(time.Now().Add(x.replyWithin(req)))
			frame, err := readFrame(w.p.rd)
			if err != nil {
				stuck := errors.Is(err, os.ErrDeadlineExceeded)
				crash := w.drop(false)
				crashed = true
				if req.careful {
					// The test that was running is known.
					results[i] = Result{Status: Crashed, Stmt: -1, Message: crash.line, Stack: crash.stack}
					if stuck {
						results[i] = Result{Status: TimedOut, Stmt: -1, Message: "the worker did not answer"}
					}
					i++
				}
				// The results since the last write are lost: the tests
				// run again, the rest of them carefully.
				req.careful = true
				break
			}
			res, retiring, err := decodeResult(frame, req.observe)
			if err != nil {
				// The frame was whole, so the stream is in step, but the
				// worker's state is not to be trusted (a goroutine the
				// test left may have written to the trace while it was
				// sent): the test counts as crashed, the worker is
				// replaced, and the tests after it run again.
				w.drop(false)
				crashed = true
				results[i] = Result{Status: Crashed, Stmt: -1, Message: "the executor sent a malformed result: " + err.Error()}
				i++
				req.careful = true
				break
			}
			results[i] = res
			i++
			if retiring {
				x.count(func(s *Stats) { s.Retirements++ })
				w.drop(true)
				break
			}
		}
	}
	return nil
}

// flushEvery is how long the executor may hold results before it writes
// them (its flushEvery).
const flushEvery = 20 * time.Millisecond

func writeFrame(f io.Writer, b []byte) error {
	var hdr [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(hdr[:], uint64(len(b)))
	if _, err := f.Write(append(hdr[:n:n], b...)); err != nil {
		return err
	}
	return nil
}

func readFrame(r *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}
