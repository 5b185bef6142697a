package harness

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/cling-go/cling/testcase"
)

// Options configure an executor.
type Options struct {
	// Workers is the number of worker processes (default: number of CPUs).
	Workers int
	// Timeout bounds each test (default 1s); a test that exceeds it costs
	// its worker, which is killed and restarted.
	Timeout time.Duration
	// RetryTimeouts runs a test that timed out once more, on the fresh
	// worker, before it counts as timed out, so that a moment of load on
	// the machine does not change a result. It doubles the cost of a test
	// that really hangs; runs that promise reproducible results want it.
	RetryTimeouts bool
	// Dir is the working directory of the workers: the caller package's
	// directory, as for its tests.
	Dir string
	// Ops is the number of operations the executor was built with; tests
	// using others are refused (0: unchecked).
	Ops int
	// Env adds variables to the workers' environment.
	Env []string
}

// Executor runs test cases in worker processes of a built executor.
type Executor struct {
	bin     string
	opts    Options
	mu      sync.Mutex
	workers []*worker
	// Stats count what happened to tests and workers.
	stats Stats
}

// Stats count the executions and the failures the executor survived.
type Stats struct {
	Executions int `json:"executions"`
	// Panics are tests that panicked (recovered in the worker); Timeouts
	// and Crashes tests that cost their worker; WorkerStarts the worker
	// processes started, the first ones included.
	Panics       int `json:"panics"`
	Timeouts     int `json:"timeouts"`
	Crashes      int `json:"crashes"`
	WorkerStarts int `json:"workerStarts"`
}

// NewExecutor prepares an executor; workers start on first use.
func NewExecutor(bin string, opts Options) *Executor {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Timeout <= 0 {
		opts.Timeout = time.Second
	}
	x := &Executor{bin: bin, opts: opts}
	for i := 0; i < opts.Workers; i++ {
		x.workers = append(x.workers, &worker{x: x})
	}
	return x
}

// Stats returns the counters so far.
func (x *Executor) Stats() Stats {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.stats
}

// Close kills every worker.
func (x *Executor) Close() {
	for _, w := range x.workers {
		w.stop()
	}
}

// errWorkerStart is returned when a worker dies before greeting.
var errWorkerStart = errors.New("the executor cannot start")

// helloText is the executor's first frame; startTimeout bounds the wait
// for it.
const (
	helloText    = "cling-executor"
	startTimeout = 30 * time.Second
)

// Run executes tests and returns one result per test, in order. The tests
// are split into contiguous chunks, one per worker, so results do not
// depend on scheduling. observe asks for the values each test observed.
func (x *Executor) Run(ctx context.Context, tests []*testcase.Test, observe bool) ([]Result, error) {
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
	var wg sync.WaitGroup
	errs := make([]error, n)
	chunk := (len(tests) + n - 1) / n
	for i := 0; i < n; i++ {
		lo := i * chunk
		hi := min(lo+chunk, len(tests))
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func(w *worker, lo, hi int) {
			defer wg.Done()
			errs[i] = w.run(ctx, tests[lo:hi], results[lo:hi], observe)
		}(x.workers[i], lo, hi)
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
	for _, r := range results {
		x.stats.Executions++
		switch r.Status {
		case Panicked:
			x.stats.Panics++
		case TimedOut:
			x.stats.Timeouts++
		case Crashed:
			x.stats.Crashes++
		}
	}
	x.mu.Unlock()
	return results, nil
}

// worker is one executor process, restarted when it dies.
type worker struct {
	x        *Executor
	cmd      *exec.Cmd
	req      *os.File
	res      *os.File
	rd       *bufio.Reader
	waitDone chan struct{}
}

func (w *worker) start() error {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return err
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return err
	}
	cmd := exec.Command(w.x.bin)
	cmd.Dir = w.x.opts.Dir
	cmd.ExtraFiles = []*os.File{reqR, resW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Env = append(append(os.Environ(), "GOTRACEBACK=none"), w.x.opts.Env...)
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		resR.Close()
		resW.Close()
		return fmt.Errorf("starting the executor: %w", err)
	}
	reqR.Close()
	resW.Close()
	w.cmd, w.req, w.res = cmd, reqW, resR
	w.rd = bufio.NewReaderSize(resR, 1<<16)
	w.waitDone = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) {
		cmd.Wait()
		close(done)
	}(cmd, w.waitDone)
	resR.SetReadDeadline(time.Now().Add(startTimeout))
	hello, err := readFrame(w.rd)
	if err != nil || string(hello) != helloText {
		w.stop()
		return fmt.Errorf("%w: no greeting from %s", errWorkerStart, w.x.bin)
	}
	w.x.mu.Lock()
	w.x.stats.WorkerStarts++
	w.x.mu.Unlock()
	return nil
}

// stop kills the worker's process group and waits for it.
func (w *worker) stop() {
	if w.cmd == nil {
		return
	}
	syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
	w.req.Close()
	w.res.Close()
	<-w.waitDone
	w.cmd = nil
}

// run executes tests on this worker, restarting it after a timeout or a
// crash and going on with the rest of the tests.
func (w *worker) run(ctx context.Context, tests []*testcase.Test, results []Result, observe bool) error {
	i := 0
	retried := -1 // the test that timed out once already
	for i < len(tests) {
		if ctx.Err() != nil {
			w.stop()
			return ctx.Err()
		}
		if w.cmd == nil {
			if err := w.start(); err != nil {
				return err
			}
		}
		if err := writeFrame(w.req, encodeBatch(tests[i:], observe)); err != nil {
			// The worker died before reading: count it against this test.
			results[i] = Result{Status: Crashed}
			i++
			w.stop()
			continue
		}
		for i < len(tests) {
			w.res.SetReadDeadline(time.Now().Add(w.x.opts.Timeout))
			frame, err := readFrame(w.rd)
			if err != nil {
				w.stop()
				status := Crashed
				if errors.Is(err, os.ErrDeadlineExceeded) {
					if w.x.opts.RetryTimeouts && retried != i {
						retried = i
						break // once more, on a fresh worker
					}
					status = TimedOut
				}
				results[i] = Result{Status: status}
				i++
				break
			}
			res, retiring, err := decodeResult(frame, observe)
			if err != nil {
				return err
			}
			results[i] = res
			i++
			if retiring {
				w.stop()
				break
			}
		}
	}
	return nil
}

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
