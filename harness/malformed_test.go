package harness_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// garbler is an executor that greets and then answers every request with
// one result frame that does not decode: what a worker sends when a
// goroutine the test left behind wrote into the trace while it was sent.
const garbler = `package main

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
)

func frame(w io.Writer, b []byte) {
	w.Write(append(binary.AppendUvarint(nil, uint64(len(b))), b...))
}

func main() {
	in := bufio.NewReader(os.NewFile(3, "requests"))
	out := os.NewFile(4, "results")
	frame(out, []byte("cling-executor"))
	for {
		n, err := binary.ReadUvarint(in)
		if err != nil {
			return
		}
		if _, err := io.ReadFull(in, make([]byte, n)); err != nil {
			return
		}
		frame(out, []byte{0}) // an OK status, and nothing after it
	}
}
`

// A result frame that does not decode counts as a crash of its test: the
// worker is replaced and the tests after it run on the next one, each
// reported, none lost, and the executor goes on.
func TestMalformedResultIsACrash(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(garbler), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module garbler\n\ngo 1.21\n"), 0o644))
	bin := filepath.Join(dir, "garbler")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	v := setup(t, "personcar", "./person", "./car")
	g := testcase.NewGenerator(v.c, testcase.DefaultConfig(), 1)
	tests := []*testcase.Test{g.RandomTest(), g.RandomTest(), g.RandomTest()}
	x := harness.NewExecutor(&harness.Executable{Path: bin}, harness.Options{Workers: 1, Timeout: time.Second, Dir: t.TempDir(), Ops: len(v.c.Ops)})
	t.Cleanup(x.Close)
	res, err := x.Explore(context.Background(), tests)
	require.NoError(t, err)
	require.Len(t, res, len(tests))
	for i, r := range res {
		assert.Equal(t, harness.Crashed, r.Status, "test %d", i)
		assert.True(t, strings.HasPrefix(r.Message, "the executor sent a malformed result: "), "test %d: %q", i, r.Message)
		assert.False(t, r.WorkerSurvived, "test %d", i)
	}
	st := x.Stats()
	assert.Equal(t, len(tests), st.Executions)
	assert.Equal(t, len(tests), st.Crashes)
	assert.GreaterOrEqual(t, st.WorkerStarts, len(tests), "a new worker after each crash")
}
