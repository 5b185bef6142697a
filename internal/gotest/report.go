package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"time"
)

// Event is one test2json event: what `go test -json` and `go tool
// test2json` print, one JSON object a line.
type Event struct {
	Action  string
	Package string
	Test    string
	Output  string
	// Elapsed is in seconds, on the events that end a test.
	Elapsed float64
}

// Test is what one top-level test did in a run, its subtests included.
type Test struct {
	// Package is the import path of the test's package ("" when the
	// events name none, as those of one test binary).
	Package, Name string
	// Runs counts the times the test started; Passes, Fails and Skips the
	// times it ended so.
	Runs, Passes, Fails, Skips int
	// SubtestFails counts the failures its subtests reported.
	SubtestFails int
	// Running is true when the test started and has not ended since: the
	// process died while it ran.
	Running bool
	// Last is how the test last ended (pass, fail or skip), "" if never;
	// Elapsed is the time that run took.
	Last    string
	Elapsed time.Duration
	// Output is what the test and its subtests printed, read from output
	// events: its first and its last 8 KiB (where a panic's or a fatal
	// error's report begins, and where the test ended), with a line
	// "[...]" between them when it printed more.
	Output string
	// head and tail are the kept parts of the output; cut says whether
	// some was left out between them.
	head, tail string
	cut        bool
}

// maxTestOutput bounds each kept part of the output of a test, whatever
// it prints.
const maxTestOutput = 8 << 10

// addOutput appends to the test's output, keeping its first and last
// maxTestOutput bytes.
func (t *Test) addOutput(s string) {
	if room := maxTestOutput - len(t.head); room > 0 && t.tail == "" {
		n := min(room, len(s))
		t.head += s[:n]
		s = s[n:]
	}
	t.tail += s
	if len(t.tail) > maxTestOutput {
		t.tail = t.tail[len(t.tail)-maxTestOutput:]
		t.cut = true
	}
	t.Output = t.head + t.tail
	if t.cut {
		t.Output = t.head + "\n[...]\n" + t.tail
	}
}

// Report gathers the events of one run into results per top-level test.
type Report struct {
	// Tests are the top-level tests in the order they first appear.
	Tests []*Test
	// PackageFailed is true when a package reported a failure (its tests,
	// its build or its process).
	PackageFailed bool
	// BuildOutput is the output of failed builds and setups, in order.
	BuildOutput []string

	index map[[2]string]*Test
}

// add takes in one event.
func (r *Report) add(e Event) {
	switch {
	case e.Action == "build-output":
		r.BuildOutput = append(r.BuildOutput, e.Output)
		return
	case e.Test == "" && e.Action == "fail":
		r.PackageFailed = true
		return
	case e.Test == "" && e.Action == "output" && strings.Contains(e.Output, "[setup failed]"):
		r.BuildOutput = append(r.BuildOutput, e.Output)
		return
	case e.Test == "":
		return
	}
	top, sub, _ := strings.Cut(e.Test, "/")
	t := r.test(e.Package, top)
	switch {
	case e.Action == "output":
		t.addOutput(e.Output)
	case sub != "":
		if e.Action == "fail" {
			t.SubtestFails++
		}
	case e.Action == "run":
		t.Runs++
		t.Running = true
	case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
		switch e.Action {
		case "pass":
			t.Passes++
		case "fail":
			t.Fails++
		case "skip":
			t.Skips++
		}
		t.Running = false
		t.Last = e.Action
		t.Elapsed = time.Duration(e.Elapsed * float64(time.Second))
	}
}

// Text returns what a run printed as it reads without test2json: the
// output of each test2json event of output, in order, and each line that
// is no event (what a dying process printed past the converter, or a
// run's output that never went through it) as it is.
func Text(output []byte) string {
	var b strings.Builder
	for _, line := range bytes.SplitAfter(output, []byte("\n")) {
		var e Event
		if json.Unmarshal(line, &e) == nil && e.Action != "" {
			if e.Action == "output" {
				b.WriteString(e.Output)
			}
			continue
		}
		b.Write(line)
	}
	return b.String()
}

// test returns the record of a top-level test, made on first use.
func (r *Report) test(pkg, name string) *Test {
	key := [2]string{pkg, name}
	if t, ok := r.index[key]; ok {
		return t
	}
	if r.index == nil {
		r.index = map[[2]string]*Test{}
	}
	t := &Test{Package: pkg, Name: name}
	r.index[key] = t
	r.Tests = append(r.Tests, t)
	return t
}

// Decode reads a stream of test2json events into a report. Lines that are
// not JSON events (what a dying process printed past the converter) are
// skipped; reading stops at a line longer than 16 MiB.
func Decode(r io.Reader) *Report {
	rep := &Report{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e Event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		rep.add(e)
	}
	return rep
}

// BuildError returns the first compiler or setup error of a failed build,
// looked for in the build output events and then in the go command's
// standard error, or "".
func (r *Report) BuildError(stderr string) string {
	lines := append(append([]string(nil), r.BuildOutput...), strings.Split(stderr, "\n")...)
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "FAIL") {
			continue
		}
		if strings.Contains(l, ".go:") || strings.Contains(l, "setup failed") {
			return l
		}
	}
	return ""
}

// FirstErrorLine returns the first line of a go command's output that is
// not empty and not a "# package" header, or def.
func FirstErrorLine(output, def string) string {
	for _, l := range strings.Split(output, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return def
}
