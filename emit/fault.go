package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"go/version"
	"strings"
	"time"

	"github.com/cling-go/cling/testcase"
)

// Reproducer is a test that shows a fault: the statements that lead to
// it, then the one that fails, wrapped in a call of the file's helper,
// which fails the test with what went wrong: the panic and its stack, a
// call that does not return in time, or a goroutine the call started
// that outlives it. Once the fault is fixed, the test passes.
type Reproducer struct {
	Name string
	Test *testcase.Test
	// At is the statement that fails, whose call the helper makes; those
	// after it are left out. With At -1 (not known: a leak, a crash, a
	// race) the helper runs the whole test.
	At int
	// Comment says what happens where.
	Comment string
	// Timeout is how long the failing call may run before the test fails
	// as a hang.
	Timeout time.Duration
	// NeedsRace skips the test unless the race detector is on: the fault
	// is a data race.
	NeedsRace bool
	// SmallStack lowers the goroutines' maximum stack size while the test
	// runs: the fault is a stack overflow, which the default limit of 1 GB
	// makes slow to reach and heavy.
	SmallStack bool
}

// faultCall is how a reproducer's failing statement is written.
type faultCall struct {
	helper  string
	timeout string
}

// write writes the statement stmt wrapped in the helper.
func (f *faultCall) write(b *strings.Builder, stmt string) {
	fmt.Fprintf(b, "\t%s(t, %s, func() { %s })\n", f.helper, f.timeout, stmt)
}

// faultHelpers are the helpers of a file of reproducers; the names
// clingFault, clingGoroutines and clingNeedsRace, and the package names
// testing, time, runtime, debug and strings are replaced with those the
// file uses.
const faultHelpers = `// clingFault runs f, the call that shows a fault, and fails the test with
// what went wrong: a panic, with its stack; a call that does not return
// within timeout; or a goroutine the call started that is still running
// 100ms after it returned.
func clingFault(t *testing.T, timeout time.Duration, f func()) {
	t.Helper()
	before := clingGoroutines(nil)
	type ending struct {
		panicked bool
		value    interface{}
		stack    []byte
	}
	done := make(chan ending, 1)
	go func() {
		e := ending{panicked: true}
		defer func() {
			if e.panicked {
				e.value, e.stack = recover(), debug.Stack()
			}
			done <- e
		}()
		f()
		e.panicked = false
	}()
	select {
	case e := <-done:
		if e.panicked {
			t.Errorf("panic: %v\n\n%s", e.value, e.stack)
		}
	case <-time.After(timeout):
		t.Fatalf("the call did not return within %v", timeout)
	}
	started := clingGoroutines(before)
	for deadline := time.Now().Add(100 * time.Millisecond); len(started) > 0 && time.Now().Before(deadline); started = clingGoroutines(before) {
		time.Sleep(time.Millisecond)
	}
	if len(started) > 0 {
		t.Fatalf("a goroutine the call started is still running 100ms after it returned:\n\n%s", strings.Join(started, "\n\n"))
	}
}

// clingGoroutines returns the stacks of the running goroutines whose
// number is not that of one in before: all of them if before is nil.
// Goroutines are told apart by number, not counted: one that an earlier
// test left and that ends meanwhile does not hide a new one.
func clingGoroutines(before []string) []string {
	buf := make([]byte, 1<<16)
	n := runtime.Stack(buf, true)
	for n == len(buf) {
		buf = make([]byte, 2*len(buf))
		n = runtime.Stack(buf, true)
	}
	number := func(stack string) string { return stack[:strings.Index(stack+" [", " [")] }
	seen := map[string]bool{}
	for _, s := range before {
		seen[number(s)] = true
	}
	var out []string
	for _, s := range strings.Split(strings.TrimSpace(string(buf[:n])), "\n\n") {
		if !seen[number(s)] {
			out = append(out, s)
		}
	}
	return out
}

// clingNeedsRace skips a test that shows a data race unless the race
// detector is on.
func clingNeedsRace(t *testing.T) {
	t.Helper()
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "-race" && s.Value == "true" {
				return
			}
		}
	}
	t.Skip("a data race: run with go test -race")
}
`

// FaultFile renders reproducers as a gofmt'd Go test file that builds
// only with the build tag tag. The file uses the testing package alone,
// whatever opts.Dialect says.
func FaultFile(c *testcase.Cluster, reps []Reproducer, opts Options, tag string) ([]byte, error) {
	im := newImports(c.Caller.Types, opts.Declared)
	im.noAny = opts.GoVersion != "" && version.Compare(opts.GoVersion, "go1.18") < 0
	// The helpers' packages, first, so that no variable shadows them.
	testingName := im.use("testing", "testing")
	timeName := im.use("time", "time")
	runtimeName := im.use("runtime", "runtime")
	debugName := im.use("runtime/debug", "debug")
	stringsName := im.use("strings", "strings")
	helper, needsRace := freeName("clingFault", opts.Declared), freeName("clingNeedsRace", opts.Declared)
	goroutines := freeName("clingGoroutines", opts.Declared)
	tests := make([]Test, len(reps))
	for i, r := range reps {
		tests[i] = Test{Name: r.Name, Test: r.Test}
	}
	im.declare(c, tests, opts.Declared)
	var body bytes.Buffer
	for _, r := range reps {
		call := &faultCall{helper: helper, timeout: durationExpr(r.Timeout, timeName)}
		e := &testEmitter{c: c, im: im, t: r.Test, dialect: Std, panicHelper: "mustPanic", fault: call}
		if r.At >= 0 {
			e.out = &testcase.Outcome{Panicked: true, PanicStmt: r.At}
		}
		code, _ := e.emit()
		if r.At < 0 {
			var all strings.Builder
			call.write(&all, "\n"+code)
			code = all.String()
		}
		for _, line := range wrap(r.Comment, 77) {
			fmt.Fprintf(&body, "// %s\n", line)
		}
		fmt.Fprintf(&body, "func %s(t *%s.T) {\n", r.Name, testingName)
		if r.NeedsRace {
			fmt.Fprintf(&body, "\t%s(t)\n", needsRace)
		}
		if r.SmallStack {
			fmt.Fprintf(&body, "\tdefer %s.SetMaxStack(%s.SetMaxStack(64 << 20))\n", debugName, debugName)
		}
		fmt.Fprintf(&body, "%s}\n\n", code)
	}
	body.WriteString(strings.NewReplacer(
		"clingFault", helper, "clingNeedsRace", needsRace, "clingGoroutines", goroutines,
		"*testing.T", "*"+testingName+".T",
		"time.", timeName+".", "runtime.", runtimeName+".", "debug.", debugName+".", "strings.", stringsName+".",
		"interface{}", emptyInterface(im.noAny),
	).Replace(faultHelpers))
	file, _ := assemble([]byte("//go:build "+tag+"\n\n"), opts, im, body.Bytes())
	src, err := format.Source(file)
	if err != nil {
		return file, fmt.Errorf("formatting generated reproducers: %w", err)
	}
	return src, nil
}

// freeName returns name, or name2, name3, ... if declared takes it.
func freeName(name string, declared map[string]bool) string {
	n := name
	for i := 2; declared[n]; i++ {
		n = fmt.Sprintf("%s%d", name, i)
	}
	return n
}

// durationExpr writes d as a Go expression with the time package named
// timeName: time.Second, 10 * time.Second, 1500 * time.Millisecond.
func durationExpr(d time.Duration, timeName string) string {
	units := []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}}
	for _, u := range units {
		if d >= u.d && d%u.d == 0 {
			if d == u.d {
				return timeName + "." + u.name
			}
			return fmt.Sprintf("%d * %s.%s", d/u.d, timeName, u.name)
		}
	}
	return fmt.Sprintf("%s.Duration(%d)", timeName, int64(d))
}

// emptyInterface is how the file writes the empty interface.
func emptyInterface(old bool) string {
	if old {
		return "interface{}"
	}
	return "any"
}
