package gen

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTestResults(t *testing.T) {
	tests := []struct {
		what               string
		events             string
		failed, unfinished []string
		passes             map[string]int
	}{
		{"all pass", `{"Action":"run","Test":"TestA"}
{"Action":"output","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Test":"TestA"}
{"Action":"run","Test":"TestB"}
{"Action":"pass","Test":"TestB"}
{"Action":"pass"}`, nil, nil, map[string]int{"TestA": 1, "TestB": 1}},
		{"a failure", `{"Action":"run","Test":"TestA"}
{"Action":"fail","Test":"TestA"}
{"Action":"run","Test":"TestB"}
{"Action":"pass","Test":"TestB"}
{"Action":"fail"}`, []string{"TestA"}, nil, map[string]int{"TestB": 1}},
		{"a failing subtest fails its test", `{"Action":"run","Test":"TestA"}
{"Action":"run","Test":"TestA/x"}
{"Action":"fail","Test":"TestA/x"}
{"Action":"fail","Test":"TestA"}`, []string{"TestA"}, nil, map[string]int{}},
		// A fatal error (concurrent map writes, the binary's timeout) ends
		// the binary in the middle of a test.
		{"a crash", `{"Action":"run","Test":"TestA"}
{"Action":"pass","Test":"TestA"}
{"Action":"run","Test":"TestB"}
{"Action":"output","Test":"TestB","Output":"fatal error: concurrent map writes\n"}
not json at all
{"Action":"fail"}`, nil, []string{"TestB"}, map[string]int{"TestA": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.what, func(t *testing.T) {
			r := testResults(strings.NewReader(tt.events))
			assert.ElementsMatch(t, tt.failed, keys(r.failed))
			assert.ElementsMatch(t, tt.unfinished, keys(r.unfinished))
			assert.Equal(t, tt.passes, r.passes)
		})
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A test that kills the test binary fails alone: the tests after it run in
// a new process.
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
`,
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	bin := filepath.Join(dir, "crash.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Dir = dir
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var tests []namedTest
	for _, name := range []string{"TestA", "TestB", "TestC", "TestD", "TestE"} {
		tests = append(tests, namedTest{EmitTest: testcase.EmitTest{Name: name}})
	}
	failed, err := runTests(context.Background(), bin, dir, tests, 2, time.Second)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"TestB", "TestD"}, keys(failed))
}
