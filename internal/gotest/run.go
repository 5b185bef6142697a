// Package gotest drives the go command's testing: it builds test binaries
// (go test -c through an overlay), runs them or go test itself, and reads
// what they report (test2json events, or the framed output of a binary run
// with -test.v=test2json) into results per top-level test. It also marks
// test files, inserting a statement at the top of every test function, so
// that a runtime linked into the tests knows which test is running. The
// probes (cling cbc), the verification of a generated file (cling gen)
// and mutation testing (cling mutate) all run tests through it, each with
// its own options.
package gotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cling-go/cling/internal/proc"
)

// BuildOptions say which test binary to build and how.
type BuildOptions struct {
	// Dir is the directory the go command runs in.
	Dir string
	// Package is the import path of the package whose tests to build.
	Package string
	// Binary is the path of the test binary to write.
	Binary string
	// Overlay is the go command's -overlay file ("" for none).
	Overlay string
	// Tags are the build tags.
	Tags []string
	// Race builds with the race detector.
	Race bool
	// Env adds variables to the go command's environment.
	Env []string
}

// Build compiles a test binary with go test -c, without vet, and returns
// the go command's output (standard output and error together) and its
// error. A package without test files gives no binary and no error.
func Build(ctx context.Context, opts BuildOptions) ([]byte, error) {
	args := []string{"test", "-c"}
	if opts.Overlay != "" {
		args = append(args, "-overlay", opts.Overlay)
	}
	args = append(args, "-vet=off", "-o", opts.Binary)
	if opts.Race {
		args = append(args, "-race")
	}
	args = append(args, tagsFlag(opts.Tags)...)
	args = append(args, opts.Package)
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = opts.Dir
	if len(opts.Env) > 0 {
		cmd.Env = append(os.Environ(), opts.Env...)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

func tagsFlag(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(tags, ",")}
}

// Outcome is what one run of tests did.
type Outcome struct {
	*Report
	// Err is what running the process returned: nil when it exited with
	// status 0, an *exec.ExitError when it did not, or why it could not
	// run or be waited for.
	Err error
	// Exit is the exit status when Err is an *exec.ExitError (-1 when a
	// signal killed the process), and else 0.
	Exit int
	// TimedOut is true when the process ran past RunOptions.Kill and was
	// killed; Err and Exit are then not set.
	TimedOut bool
	// Wall is how long the process ran.
	Wall time.Duration
	// Output is everything the process printed, with RunOptions.Test2JSON.
	Output []byte
	// Tail is the end of what the process printed, without
	// RunOptions.Test2JSON: its last 8 to 16 KiB.
	Tail string
	// Stderr is the go command's standard error, for GoTest.
	Stderr string
}

// TailLines returns the last n non-empty lines of Tail, joined by "; ".
func (o *Outcome) TailLines(n int) string { return lastLines(o.Tail, n) }

// setErr records how the process ended.
func (o *Outcome) setErr(err error) {
	o.Err = err
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if o.Exit = ee.ExitCode(); o.Exit == 0 {
			o.Exit = -1 // killed by a signal
		}
	}
}

// RunOptions say how to run a test binary.
type RunOptions struct {
	// Binary is the test binary, Dir the directory it runs in.
	Binary, Dir string
	// Env is its environment; nil inherits cling's.
	Env []string
	// Run is the -test.run pattern ("" runs every test); see RunPattern.
	Run string
	// Count is -test.count (0 leaves the flag out).
	Count int
	// Timeout is the binary's own -test.timeout, after which it panics
	// and reports the tests that were running (0 leaves the flag out).
	Timeout time.Duration
	// Kill, when positive, kills the process group once it has run that
	// long, and the outcome is TimedOut.
	Kill time.Duration
	// Flags are further flags of the binary, such as -test.failfast.
	Flags []string
	// Test2JSON runs the binary under `go tool test2json -t`, keeps all
	// it prints in Outcome.Output and reads the events once it is done.
	// Without it the binary runs alone and its framed output is read as
	// it comes, in bounded memory, keeping only Outcome.Tail. The
	// verification of a generated file uses test2json: it runs a few
	// times and shows the whole output when debugging. Mutation testing
	// does not: it runs binaries thousands of times under a Kill limit
	// measured on the binary itself, with no go command in between.
	Test2JSON bool
}

// Run runs a test binary with -test.v=test2json and reads the results of
// its tests. It returns an error only when ctx is done; how the process
// ended is in the outcome.
func Run(ctx context.Context, opts RunOptions) (*Outcome, error) {
	args := []string{"-test.v=test2json"}
	if opts.Count > 0 {
		args = append(args, "-test.count="+strconv.Itoa(opts.Count))
	}
	if opts.Timeout > 0 {
		args = append(args, "-test.timeout="+opts.Timeout.String())
	}
	args = append(args, opts.Flags...)
	if opts.Run != "" {
		args = append(args, "-test.run", opts.Run)
	}
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Kill > 0 {
		rctx, cancel = context.WithTimeout(ctx, opts.Kill)
	}
	defer cancel()
	out := &Outcome{Report: &Report{}}
	var cmd *exec.Cmd
	var all bytes.Buffer
	var framed *framedWriter
	if opts.Test2JSON {
		cmd = proc.Command(rctx, "go", append([]string{"tool", "test2json", "-t", opts.Binary}, args...)...)
		cmd.Stdout, cmd.Stderr = &all, &all
	} else {
		framed = &framedWriter{report: out.Report}
		cmd = proc.Command(rctx, opts.Binary, args...)
		cmd.Stdout, cmd.Stderr = framed, framed
	}
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	start := time.Now()
	err := cmd.Run()
	out.Wall = time.Since(start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if opts.Test2JSON {
		out.Output = all.Bytes()
		out.Report = Decode(bytes.NewReader(out.Output))
	} else {
		out.Tail = framed.close()
	}
	if rctx.Err() == context.DeadlineExceeded {
		out.TimedOut = true
		return out, nil
	}
	out.setErr(err)
	return out, nil
}

// RunPattern is a -test.run pattern that selects exactly the named
// top-level tests.
func RunPattern(tests []string) string {
	q := make([]string, len(tests))
	for i, t := range tests {
		q[i] = regexp.QuoteMeta(t)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// GoTestOptions say which packages' tests go test runs and how.
type GoTestOptions struct {
	// Dir is the directory the go command runs in.
	Dir string
	// Packages are the import paths of the packages to test.
	Packages []string
	// Overlay is the go command's -overlay file ("" for none).
	Overlay string
	// Tags are the build tags.
	Tags []string
	// Run is the -run pattern ("" runs every test).
	Run string
	// Count is -count (0 leaves the flag out); 1 keeps go test from
	// answering with cached results.
	Count int
	// Extra are further go test flags, after cling's own.
	Extra []string
	// Env is the go command's environment; nil inherits cling's.
	Env []string
}

// GoTest runs go test -json, without vet, and reads its events as they
// come. It returns an error when go test could not start or ctx is done;
// how go test ended, and its standard error, are in the outcome.
func GoTest(ctx context.Context, opts GoTestOptions) (*Outcome, error) {
	args := []string{"test"}
	if opts.Overlay != "" {
		args = append(args, "-overlay", opts.Overlay)
	}
	args = append(args, "-vet=off")
	if opts.Count > 0 {
		args = append(args, "-count="+strconv.Itoa(opts.Count))
	}
	args = append(args, "-json")
	args = append(args, tagsFlag(opts.Tags)...)
	if opts.Run != "" {
		args = append(args, "-run", opts.Run)
	}
	args = append(args, opts.Extra...)
	args = append(args, opts.Packages...)
	cmd := proc.Command(ctx, "go", args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting go test: %w", err)
	}
	out := &Outcome{Report: Decode(stdout)}
	err = cmd.Wait()
	out.Wall = time.Since(start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	out.Stderr = stderr.String()
	out.setErr(err)
	return out, nil
}
