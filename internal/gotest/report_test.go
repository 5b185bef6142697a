package gotest

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// summary is a Test without its output, for exact comparison.
type summary struct {
	Package, Name              string
	Runs, Passes, Fails, Skips int
	SubtestFails               int
	Running                    bool
	Last                       string
	Elapsed                    time.Duration
}

func summarize(r *Report) []summary {
	var out []summary
	for _, t := range r.Tests {
		out = append(out, summary{t.Package, t.Name, t.Runs, t.Passes, t.Fails, t.Skips, t.SubtestFails, t.Running, t.Last, t.Elapsed})
	}
	return out
}

func TestDecode(t *testing.T) {
	tests := []struct {
		what          string
		events        string
		want          []summary
		packageFailed bool
		buildOutput   []string
	}{
		{
			what: "all pass",
			events: `{"Action":"start"}
{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Test":"TestA","Elapsed":0.25}
{"Action":"run","Test":"TestB"}
{"Action":"pass","Test":"TestB"}
{"Action":"pass"}`,
			want: []summary{
				{Name: "TestA", Runs: 1, Passes: 1, Last: "pass", Elapsed: 250 * time.Millisecond},
				{Name: "TestB", Runs: 1, Passes: 1, Last: "pass"},
			},
		},
		{
			what: "a failure and a skip",
			events: `{"Action":"run","Test":"TestA"}
{"Action":"fail","Test":"TestA","Elapsed":0.01}
{"Action":"run","Test":"TestB"}
{"Action":"skip","Test":"TestB"}
{"Action":"fail"}`,
			want: []summary{
				{Name: "TestA", Runs: 1, Fails: 1, Last: "fail", Elapsed: 10 * time.Millisecond},
				{Name: "TestB", Runs: 1, Skips: 1, Last: "skip"},
			},
			packageFailed: true,
		},
		{
			what: "subtests count for their top-level test",
			events: `{"Action":"run","Test":"TestA"}
{"Action":"run","Test":"TestA/x"}
{"Action":"fail","Test":"TestA/x"}
{"Action":"run","Test":"TestA/y"}
{"Action":"pass","Test":"TestA/y"}
{"Action":"fail","Test":"TestA"}`,
			want: []summary{{Name: "TestA", Runs: 1, Fails: 1, SubtestFails: 1, Last: "fail"}},
		},
		{
			what: "counted runs",
			events: `{"Action":"run","Test":"TestA"}
{"Action":"pass","Test":"TestA"}
{"Action":"run","Test":"TestA"}
{"Action":"fail","Test":"TestA"}
{"Action":"run","Test":"TestA"}
{"Action":"pass","Test":"TestA"}`,
			want: []summary{{Name: "TestA", Runs: 3, Passes: 2, Fails: 1, Last: "pass"}},
		},
		{
			// A fatal error (concurrent map writes, the binary's timeout)
			// ends the binary in the middle of a test; what follows the
			// events is not JSON.
			what: "a process that dies in a test",
			events: `{"Action":"run","Test":"TestA"}
{"Action":"pass","Test":"TestA"}
{"Action":"run","Test":"TestB"}
{"Action":"output","Test":"TestB","Output":"fatal error: concurrent map writes\n"}
not json at all
{"Action":"fail"}`,
			want: []summary{
				{Name: "TestA", Runs: 1, Passes: 1, Last: "pass"},
				{Name: "TestB", Runs: 1, Running: true},
			},
			packageFailed: true,
		},
		{
			what: "packages keep their tests apart",
			events: `{"Action":"run","Package":"p/a","Test":"TestX"}
{"Action":"run","Package":"p/b","Test":"TestX"}
{"Action":"fail","Package":"p/b","Test":"TestX"}
{"Action":"pass","Package":"p/a","Test":"TestX"}
{"Action":"fail","Package":"p/b"}`,
			want: []summary{
				{Package: "p/a", Name: "TestX", Runs: 1, Passes: 1, Last: "pass"},
				{Package: "p/b", Name: "TestX", Runs: 1, Fails: 1, Last: "fail"},
			},
			packageFailed: true,
		},
		{
			what: "build failure",
			events: `{"ImportPath":"p/a [p/a.test]","Action":"build-output","Output":"# p/a [p/a.test]\n"}
{"ImportPath":"p/a [p/a.test]","Action":"build-output","Output":"a/a_test.go:3:2: undefined: x\n"}
{"ImportPath":"p/a [p/a.test]","Action":"build-fail"}
{"Action":"start","Package":"p/a"}
{"Action":"output","Package":"p/a","Output":"FAIL\tp/a [build failed]\n"}
{"Action":"fail","Package":"p/a","Elapsed":0,"FailedBuild":"p/a [p/a.test]"}`,
			packageFailed: true,
			buildOutput:   []string{"# p/a [p/a.test]\n", "a/a_test.go:3:2: undefined: x\n"},
		},
		{
			what: "setup failure",
			events: `{"Action":"start","Package":"p/a"}
{"Action":"output","Package":"p/a","Output":"FAIL\tp/a [setup failed]\n"}
{"Action":"fail","Package":"p/a"}`,
			packageFailed: true,
			buildOutput:   []string{"FAIL\tp/a [setup failed]\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			r := Decode(strings.NewReader(tt.events))
			assert.Equal(t, tt.want, summarize(r))
			assert.Equal(t, tt.packageFailed, r.PackageFailed)
			assert.Equal(t, tt.buildOutput, r.BuildOutput)
		})
	}
}

func TestDecodeKeepsOutputPerTest(t *testing.T) {
	r := Decode(strings.NewReader(`{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"run","Test":"TestB"}
{"Action":"output","Test":"TestB","Output":"b\n"}
{"Action":"output","Test":"TestA/x","Output":"    a_test.go:9: sub\n"}
{"Action":"output","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}
{"Action":"output","Output":"FAIL\n"}`))
	assert.Equal(t, "=== RUN   TestA\n    a_test.go:9: sub\n--- FAIL: TestA (0.00s)\n", r.Tests[0].Output)
	assert.Equal(t, "b\n", r.Tests[1].Output)

	// The first 8 KiB (where a report begins) and the last (where the
	// test ended) are kept.
	head := "first\n" + strings.Repeat("h", maxTestOutput-6)
	tail := strings.Repeat("t", maxTestOutput-5) + "last\n"
	r = Decode(strings.NewReader(`{"Action":"output","Test":"TestC","Output":"first\n"}
{"Action":"output","Test":"TestC","Output":"` + strings.Repeat("h", maxTestOutput-6) + `"}
{"Action":"output","Test":"TestC","Output":"` + strings.Repeat("m", 100) + `"}
{"Action":"output","Test":"TestC","Output":"` + strings.Repeat("t", maxTestOutput-5) + `last\n"}`))
	assert.Equal(t, len(head+"\n[...]\n"+tail), len(r.Tests[0].Output))
	assert.True(t, r.Tests[0].Output == head+"\n[...]\n"+tail, "the first and the last 8 KiB are kept")
	r = Decode(strings.NewReader(`{"Action":"output","Test":"TestD","Output":"a\n"}
{"Action":"output","Test":"TestD","Output":"b\n"}`))
	assert.Equal(t, "a\nb\n", r.Tests[0].Output, "nothing is cut from a short output")
}

// Text reads a test2json stream back into the output it carried, the
// package's lines included, and keeps lines that are no event as they are.
func TestText(t *testing.T) {
	stream := `{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\n"}
fatal error: concurrent map writes
{"Action":"output","Output":"FAIL\n"}
{"Action":"fail","Elapsed":0.1}`
	assert.Equal(t, "=== RUN   TestA\n--- FAIL: TestA (0.00s)\nfatal error: concurrent map writes\nFAIL\n", Text([]byte(stream)))
	assert.Equal(t, "plain\noutput", Text([]byte("plain\noutput")))
}

func TestBuildError(t *testing.T) {
	tests := []struct {
		what        string
		buildOutput []string
		stderr      string
		want        string
	}{
		{"compiler error in events", []string{"# p/a [p/a.test]\n", "a/a_test.go:3:2: undefined: x\n"}, "", "a/a_test.go:3:2: undefined: x"},
		{"compiler error on stderr", nil, "# p/a\nFAIL\tp/a [build failed]\na/a.go:1:1: expected 'package'\n", "a/a.go:1:1: expected 'package'"},
		{"a FAIL summary line is not the reason", []string{"FAIL\tp/a [setup failed]\n"}, "", ""},
		{"setup failure reason", nil, "# p/a\nsetup failed: no Go files\n", "setup failed: no Go files"},
		{"test failures are no build error", nil, "exit status 1\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			r := &Report{BuildOutput: tt.buildOutput}
			assert.Equal(t, tt.want, r.BuildError(tt.stderr))
		})
	}
}

func TestFirstErrorLine(t *testing.T) {
	assert.Equal(t, "x.go:1: bad", FirstErrorLine("# p\n\n  x.go:1: bad\nmore\n", "def"))
	assert.Equal(t, "def", FirstErrorLine("# p\n\n", "def"))
}

func TestFramedOutput(t *testing.T) {
	tests := []struct {
		what   string
		output string
		want   []summary
		tail   string
	}{
		{
			what: "pass, fail, skip and subtests",
			output: "\x16=== RUN   TestA\n    a_test.go:5: hello\n\x16=== RUN   TestA/sub\n" +
				"\x16--- FAIL: TestA/sub (0.00s)\n\x16=== NAME  TestA\n\x16--- FAIL: TestA (0.02s)\n" +
				"\x16=== RUN   TestB\n\x16--- PASS: TestB (1.50s)\n" +
				"\x16=== RUN   TestC\n    a_test.go:7: skipped\n\x16--- SKIP: TestC (0.00s)\nFAIL\n",
			want: []summary{
				{Name: "TestA", Runs: 1, Fails: 1, SubtestFails: 1, Last: "fail", Elapsed: 20 * time.Millisecond},
				{Name: "TestB", Runs: 1, Passes: 1, Last: "pass", Elapsed: 1500 * time.Millisecond},
				{Name: "TestC", Runs: 1, Skips: 1, Last: "skip"},
			},
			tail: "a_test.go:7: skipped; --- SKIP: TestC (0.00s); FAIL",
		},
		{
			// A mark that does not start a line is not one: the test's
			// own output came first.
			what:   "output without a newline hides the end",
			output: "\x16=== RUN   TestB\nno newline\x16--- PASS: TestB (0.00s)\n",
			want:   []summary{{Name: "TestB", Runs: 1, Running: true}},
			tail:   "=== RUN   TestB; no newline\x16--- PASS: TestB (0.00s)",
		},
		{
			what:   "a process that dies in a test",
			output: "\x16=== RUN   TestA\n\x16--- PASS: TestA (0.00s)\n\x16=== RUN   TestB\nfatal error: all goroutines are asleep\n\ngoroutine 1 [chan receive]:\n",
			want: []summary{
				{Name: "TestA", Runs: 1, Passes: 1, Last: "pass"},
				{Name: "TestB", Runs: 1, Running: true},
			},
			tail: "=== RUN   TestB; fatal error: all goroutines are asleep; goroutine 1 [chan receive]:",
		},
		{
			what:   "the last line has no newline",
			output: "\x16=== RUN   TestA\n\x16--- PASS: TestA (0.10s)",
			want:   []summary{{Name: "TestA", Runs: 1, Passes: 1, Last: "pass", Elapsed: 100 * time.Millisecond}},
			tail:   "=== RUN   TestA; --- PASS: TestA (0.10s)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			// Written in small pieces, as a pipe may deliver it.
			for _, size := range []int{1, 7, len(tt.output)} {
				w := &framedWriter{report: &Report{}}
				for b := []byte(tt.output); len(b) > 0; {
					n := min(size, len(b))
					_, err := w.Write(b[:n])
					assert.NoError(t, err)
					b = b[n:]
				}
				o := &Outcome{Report: w.report, Tail: w.close()}
				assert.Equal(t, tt.want, summarize(o.Report), "written %d bytes at a time", size)
				assert.Equal(t, tt.tail, o.TailLines(3))
			}
		})
	}
}

func TestFramedOutputBoundsItsMemory(t *testing.T) {
	w := &framedWriter{report: &Report{}}
	chunk := []byte(strings.Repeat("y", 1000))
	for i := 0; i < 200; i++ {
		_, _ = w.Write(chunk)
	}
	_, _ = w.Write([]byte("\n\x16=== RUN   TestA\n"))
	assert.LessOrEqual(t, len(w.tail), 2*maxTail)
	tail := w.close()
	assert.True(t, strings.HasSuffix(tail, "\n\x16=== RUN   TestA\n"))
	assert.Equal(t, []summary{{Name: "TestA", Runs: 1, Running: true}}, summarize(w.report))
}

func TestRunPattern(t *testing.T) {
	assert.Equal(t, `^(TestA|Test_b\.c)$`, RunPattern([]string{"TestA", "Test_b.c"}))
}
