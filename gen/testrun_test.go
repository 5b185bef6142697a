package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cling-go/cling/emit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testBinaryOf writes files into dir, a module, and builds the test
// binary of its package there.
func testBinaryOf(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	bin, out, err := buildTestBinary(t, dir, files)
	require.NoError(t, err, "%s", out)
	return bin
}

// buildTestBinary is testBinaryOf with go test's build flags, returning
// the build's output and error.
func buildTestBinary(t *testing.T, dir string, files map[string]string, flags ...string) (string, []byte, error) {
	t.Helper()
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	bin := filepath.Join(dir, "pkg.test")
	build := exec.Command("go", append(append([]string{"test", "-c", "-o", bin}, flags...), ".")...)
	build.Dir = dir
	out, err := build.CombinedOutput()
	return bin, out, err
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A test that kills the test binary fails alone, broken: the tests after
// it run in a new process. A test that fails tells the lines of its file
// its messages come from, each time it ran (another file's lines do not
// count); a test that fails with no such line is broken.
func TestRunTestsSurvivesATestThatEndsTheBinary(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/crash\n\ngo 1.22\n",
		"crash_test.go": `package crash

import "testing"

func TestA(t *testing.T) {}

func TestB(t *testing.T) { panic("boom") }

func TestC(t *testing.T) {}

func TestD(t *testing.T) { t.Fatal("wrong") }

func TestE(t *testing.T) {}

func TestF(t *testing.T) {
	t.Error("one")
	helper(t)
	t.Errorf("two\n    crash_test.go:1: not a message")
}

func TestG(t *testing.T) { helper(t) }
`,
		"helper_test.go": `package crash

import "testing"

func helper(t *testing.T) { t.Error("in another file") }
`,
	}
	bin := testBinaryOf(t, dir, files)
	var tests []namedTest
	for _, name := range []string{"TestA", "TestB", "TestC", "TestD", "TestE", "TestF", "TestG"} {
		tests = append(tests, namedTest{Test: emit.Test{Name: name}})
	}
	j := &job{cfg: Config{Timeout: time.Second}, out: filepath.Join(dir, "crash_test.go")}
	failures := map[string]*failure{}
	require.NoError(t, j.runTests(context.Background(), bin, dir, tests, 2, failures))
	assert.Equal(t, map[string]*failure{
		"TestB": {broken: true},
		"TestD": {lines: []int{11, 11}},
		"TestF": {lines: []int{16, 18, 16, 18}},
		"TestG": {broken: true},
	}, failures)
}

// Errors that point into the generated file blame the test functions
// around their lines; other files' errors and lines outside tests blame
// none.
func TestBlame(t *testing.T) {
	src := `package p_test

import "testing"

func TestA(t *testing.T) {
	_ = 1
}

func TestB(t *testing.T) {
	_ = 2
}
`
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"one", []string{"./cling_e_test.go:6:2: declared and not used: x"}, []string{"TestA"}},
		{"both", []string{"# example.com/p_test", "/tmp/x/p/cling_e_test.go:10:6: undefined: y", "vet: cling_e_test.go:5:1: bad", "cling_e_test.go:5"}, []string{"TestA", "TestB"}},
		{"import", []string{"cling_e_test.go:3:8: \"testing\" imported and not used"}, nil},
		{"other file", []string{"p_test.go:6:2: undefined: z"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.ElementsMatch(t, tc.want, keys(blame([]byte(src), "/work/p/cling_e_test.go", tc.lines)))
		})
	}
}

func TestFirstLine(t *testing.T) {
	assert.Equal(t, "p_test.go:3:2: undefined: x", firstLine([]string{"# example.com/p", "", "  p_test.go:3:2: undefined: x", "FAIL example.com/p [build failed]"}))
	assert.Equal(t, "unknown error", firstLine([]string{"# example.com/p", "FAIL"}))
}

// Under a budget, the test running when it passes fails as one that ended
// the process, and no new process starts for the tests after it: they
// neither pass nor fail. The tests before it passed, with their times.
func TestRunProcessesWithinABudget(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/slow\n\ngo 1.22\n",
		"slow_test.go": `package slow

import (
	"testing"
	"time"
)

func TestA(t *testing.T) { time.Sleep(20 * time.Millisecond) }

func TestB(t *testing.T) { time.Sleep(time.Hour) }

func TestC(t *testing.T) {}
`,
	}
	bin := testBinaryOf(t, dir, files)
	j := &job{cfg: Config{Timeout: time.Second}, out: filepath.Join(dir, "slow_test.go")}
	runs, err := j.runProcessesWith(context.Background(), bin, dir, []string{"TestA", "TestB", "TestC"}, 1, processOptions{budget: minProcessTime + time.Second})
	require.NoError(t, err)
	assert.Equal(t, 1, runs["TestA"].passes)
	assert.GreaterOrEqual(t, runs["TestA"].elapsed, 20*time.Millisecond)
	assert.Equal(t, 1, runs["TestB"].fails)
	require.Len(t, runs["TestB"].failures, 1)
	assert.Contains(t, runs["TestB"].failures[0], "test timed out")
	assert.Equal(t, testRuns{}, *runs["TestC"])
}

// Verification runs each test alone too: a test that passes only after
// another changed package state fails, where the file's order hides it;
// so does one that breaks a later test by the state it leaves.
func TestVerificationRunsEachTestAlone(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/order\n\ngo 1.22\n",
		"order_test.go": `package order

import "testing"

var closed bool

func TestClose(t *testing.T) { closed = true }

func TestClosed(t *testing.T) {
	if !closed {
		t.Error("open")
	}
}

func TestOpen(t *testing.T) {
	if closed {
		t.Error("closed")
	}
}
`,
	}
	bin := testBinaryOf(t, dir, files)
	var tests []namedTest
	for _, name := range []string{"TestClose", "TestClosed", "TestOpen"} {
		tests = append(tests, namedTest{Test: emit.Test{Name: name}})
	}
	j := &job{cfg: Config{Timeout: time.Second}, out: filepath.Join(dir, "order_test.go")}
	failures, err := j.verificationRuns(context.Background(), bin, dir, tests, 2)
	require.NoError(t, err)
	assert.Equal(t, map[string]*failure{
		"TestClosed": {lines: []int{11}},
		"TestOpen":   {lines: []int{17}},
	}, failures)
}
