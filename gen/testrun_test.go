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
		tests = append(tests, namedTest{Test: emit.Test{Name: name}})
	}
	j := &job{cfg: Config{Timeout: time.Second}}
	failed, err := j.runTests(context.Background(), bin, dir, tests, 2)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"TestB", "TestD"}, keys(failed))
}

