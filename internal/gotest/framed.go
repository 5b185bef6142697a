package gotest

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
)

// framedWriter reads, as it is written, the output of a test binary run
// with -test.v=test2json: lines that start with ^V frame the test events
// (=== RUN, --- PASS and the like), and it turns those into events of a
// report. Other lines, the tests' own output, are not attributed to tests.
// It keeps the end of the output for error messages, and bounds its memory
// whatever the test prints.
type framedWriter struct {
	mu      sync.Mutex
	partial []byte
	tail    []byte
	report  *Report
}

const (
	// maxLine bounds the part of one line that is kept; the rest of a
	// longer line is dropped.
	maxLine = 1 << 16
	// maxTail is the least output kept for Outcome.Tail; at most twice
	// as much is kept.
	maxTail = 8 << 10
)

// frame marks the lines of a test binary's output that carry events.
const frame = "\x16"

func (w *framedWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(b)
	w.tail = append(w.tail, b...)
	if len(w.tail) > 2*maxTail {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-maxTail:]...)
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(w.partial) < maxLine {
				w.partial = append(w.partial, b...)
			}
			break
		}
		line := b[:i]
		if len(w.partial) > 0 {
			line = append(w.partial, line...)
			w.partial = w.partial[:0]
		}
		w.line(string(line))
		b = b[i+1:]
	}
	return n, nil
}

// close reads the last line, if it has no newline, and returns the end of
// the output.
func (w *framedWriter) close() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.line(string(w.partial))
		w.partial = w.partial[:0]
	}
	return string(w.tail)
}

// line interprets one line: a test starting, or a test ending with the
// time it took.
func (w *framedWriter) line(l string) {
	l, ok := strings.CutPrefix(l, frame)
	if !ok {
		return
	}
	if name, ok := strings.CutPrefix(l, "=== RUN   "); ok {
		w.report.add(Event{Action: "run", Test: strings.TrimSpace(name)})
		return
	}
	for _, action := range []string{"pass", "fail", "skip"} {
		rest, ok := strings.CutPrefix(l, "--- "+strings.ToUpper(action)+": ")
		if !ok {
			continue
		}
		name, dur, _ := strings.Cut(rest, " (")
		var elapsed float64
		if s, ok := strings.CutSuffix(dur, "s)"); ok {
			if f, err := strconv.ParseFloat(s, 64); err == nil {
				elapsed = f
			}
		}
		w.report.add(Event{Action: action, Test: name, Elapsed: elapsed})
		return
	}
}

// lastLines returns the last n non-empty lines of a test binary's output,
// without their frame marks, joined by "; ".
func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, frame))
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "; ")
}
