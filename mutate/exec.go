package mutate

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cling-go/cling/internal/proc"
)

// testOutcome is what one top-level test did in a run.
type testOutcome struct {
	action  string // pass, fail or skip
	elapsed time.Duration
}

// runOutcome is the result of running a test binary once.
type runOutcome struct {
	// tests are the top-level tests that finished, by name; started lists
	// every top-level test that began, in order.
	tests   map[string]testOutcome
	started []string
	exit    int
	timeout bool
	wall    time.Duration
	tail    string
}

// failed lists the tests that failed, and else the test that was running
// when the binary exited with an error.
func (o *runOutcome) failed() []string {
	var out []string
	for _, name := range o.started {
		if r, ok := o.tests[name]; ok && r.action == "fail" {
			out = append(out, name)
		}
	}
	if len(out) == 0 && o.exit != 0 {
		for i := len(o.started) - 1; i >= 0; i-- {
			if _, done := o.tests[o.started[i]]; !done {
				return []string{o.started[i]}
			}
		}
	}
	return out
}

// outputParser reads the output of a test binary run with
// -test.v=test2json: lines that start with ^V frame the test events. It
// keeps the end of the output for error messages, and bounds its memory
// whatever the test prints.
type outputParser struct {
	mu      sync.Mutex
	partial []byte
	tail    []byte
	out     *runOutcome
}

const (
	maxLine = 1 << 16
	maxTail = 8 << 10
)

func (p *outputParser) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(b)
	p.tail = append(p.tail, b...)
	if len(p.tail) > 2*maxTail {
		p.tail = append(p.tail[:0], p.tail[len(p.tail)-maxTail:]...)
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(p.partial) < maxLine {
				p.partial = append(p.partial, b...)
			}
			break
		}
		line := b[:i]
		if len(p.partial) > 0 {
			line = append(p.partial, line...)
			p.partial = p.partial[:0]
		}
		p.line(string(line))
		b = b[i+1:]
	}
	return n, nil
}

// line interprets one framed line.
func (p *outputParser) line(l string) {
	if !strings.HasPrefix(l, "\x16") {
		return
	}
	l = l[1:]
	if name, ok := strings.CutPrefix(l, "=== RUN   "); ok {
		if name = strings.TrimSpace(name); !strings.Contains(name, "/") {
			p.out.started = append(p.out.started, name)
		}
		return
	}
	for _, action := range []string{"pass", "fail", "skip"} {
		rest, ok := strings.CutPrefix(l, "--- "+strings.ToUpper(action)+": ")
		if !ok {
			continue
		}
		name, dur, _ := strings.Cut(rest, " (")
		if strings.Contains(name, "/") {
			return
		}
		var elapsed time.Duration
		if s, ok := strings.CutSuffix(dur, "s)"); ok {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				elapsed = time.Duration(f * float64(time.Second))
			}
		}
		p.out.tests[name] = testOutcome{action: action, elapsed: elapsed}
		return
	}
}

// runBinary runs a test binary in dir and parses its output; a positive
// timeout kills its process group when it expires. An error is returned
// only when the binary could not run, or ctx was cancelled.
func runBinary(ctx context.Context, bin, dir string, args, env []string, timeout time.Duration) (*runOutcome, error) {
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		rctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	out := &runOutcome{tests: map[string]testOutcome{}}
	p := &outputParser{out: out}
	cmd := proc.Command(rctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = p
	cmd.Stderr = p
	start := time.Now()
	err := cmd.Run()
	out.wall = time.Since(start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	p.mu.Lock()
	if len(p.partial) > 0 {
		p.line(string(p.partial))
	}
	out.tail = string(p.tail)
	p.mu.Unlock()
	if rctx.Err() == context.DeadlineExceeded {
		out.timeout = true
		return out, nil
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		out.exit = ee.ExitCode()
		if out.exit == 0 {
			out.exit = -1 // killed by a signal
		}
	default:
		return nil, err
	}
	return out, nil
}

// testEnv is the environment of test binaries: the user's, without
// cling's own variables, plus extra.
func testEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CLING_MUTANT=") || strings.HasPrefix(kv, "CLING_MUTCOV=") || strings.HasPrefix(kv, "CLING_COVER_DIR=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// runPattern is a -test.run pattern that selects exactly the named
// top-level tests.
func runPattern(tests []string) string {
	q := make([]string, len(tests))
	for i, t := range tests {
		q[i] = regexp.QuoteMeta(t)
	}
	return "^(" + strings.Join(q, "|") + ")$"
}

// tailLines returns the last n non-empty lines of s, joined by "; ".
func tailLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "\x16"))
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
