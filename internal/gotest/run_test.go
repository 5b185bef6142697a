package gotest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeModule writes a module of one package with the given test file.
func writeModule(t *testing.T, test string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.22\n",
		"m.go":      "package m\n",
		"m_test.go": test,
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return dir
}

const suite = `package m

import (
	"testing"
	"time"
)

func TestPass(t *testing.T) { t.Run("sub", func(t *testing.T) {}) }

func TestFail(t *testing.T) { t.Run("sub", func(t *testing.T) { t.Error("wrong") }) }

func TestSkip(t *testing.T) { t.Skip("later") }

func TestHang(t *testing.T) { time.Sleep(time.Hour) }
`

func TestBuildAndRun(t *testing.T) {
	ctx := context.Background()
	dir := writeModule(t, suite)
	bin := filepath.Join(t.TempDir(), "m.test")
	out, err := Build(ctx, BuildOptions{Dir: dir, Package: ".", Binary: bin})
	require.NoError(t, err, "%s", out)

	finished := []summary{
		{Name: "TestPass", Runs: 2, Passes: 2, Last: "pass"},
		{Name: "TestFail", Runs: 2, Fails: 2, SubtestFails: 2, Last: "fail"},
		{Name: "TestSkip", Runs: 2, Skips: 2, Last: "skip"},
	}
	for _, test2json := range []bool{false, true} {
		o, err := Run(ctx, RunOptions{Binary: bin, Dir: dir, Count: 2, Run: RunPattern([]string{"TestPass", "TestFail", "TestSkip"}), Test2JSON: test2json})
		require.NoError(t, err)
		assert.Equal(t, finished, zeroElapsed(summarize(o.Report)), "test2json %v", test2json)
		assert.Equal(t, 1, o.Exit)
		assert.Error(t, o.Err)
		assert.False(t, o.TimedOut)
		assert.Equal(t, test2json, len(o.Output) > 0)
		assert.Equal(t, !test2json, len(o.Tail) > 0)
	}

	// A test that hangs: the binary's own timeout ends it (exit status 2).
	o, err := Run(ctx, RunOptions{Binary: bin, Dir: dir, Count: 1, Timeout: 100 * time.Millisecond, Run: "TestHang", Flags: []string{"-test.paniconexit0"}})
	require.NoError(t, err)
	assert.Equal(t, []summary{{Name: "TestHang", Runs: 1, Running: true}}, summarize(o.Report))
	assert.Equal(t, 2, o.Exit)
	assert.Contains(t, o.TailLines(100), "panic: test timed out after 100ms")

	// Killed from outside.
	o, err = Run(ctx, RunOptions{Binary: bin, Dir: dir, Kill: 100 * time.Millisecond, Run: "TestHang"})
	require.NoError(t, err)
	assert.True(t, o.TimedOut)
	assert.Equal(t, 0, o.Exit)
	assert.NoError(t, o.Err)
}

func zeroElapsed(s []summary) []summary {
	for i := range s {
		s[i].Elapsed = 0
	}
	return s
}

func TestGoTest(t *testing.T) {
	ctx := context.Background()
	dir := writeModule(t, suite)
	o, err := GoTest(ctx, GoTestOptions{Dir: dir, Packages: []string{"./..."}, Count: 1, Run: "TestPass|TestFail"})
	require.NoError(t, err)
	assert.Equal(t, []summary{
		{Package: "example.com/m", Name: "TestPass", Runs: 1, Passes: 1, Last: "pass"},
		{Package: "example.com/m", Name: "TestFail", Runs: 1, Fails: 1, SubtestFails: 1, Last: "fail"},
	}, zeroElapsed(summarize(o.Report)))
	assert.True(t, o.PackageFailed)
	assert.Equal(t, 1, o.Exit)
	assert.Equal(t, "", o.BuildError(o.Stderr))

	broken := writeModule(t, "package m\n\nfunc TestA(t *testing.T) {}\n")
	o, err = GoTest(ctx, GoTestOptions{Dir: broken, Packages: []string{"."}})
	require.NoError(t, err)
	assert.Empty(t, o.Tests)
	assert.True(t, o.PackageFailed)
	assert.Equal(t, "./m_test.go:3:15: undefined: testing", o.BuildError(o.Stderr))
}
