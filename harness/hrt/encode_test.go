package hrt

import (
	"bytes"
	"encoding/binary"
	"math"
	"runtime/debug"
	"testing"
)

// A trace is appended after its length, whatever the length's size and
// whatever buf held before.
func TestAppendTraceWritesTheLengthFirst(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 20000} {
		trace := bytes.Repeat([]byte{7}, n)
		cfg := Config{Trace: func(b []byte) []byte { return append(b, trace...) }}
		head := []byte{1, 2, 3}
		got := appendTrace(append([]byte(nil), head...), cfg)
		want := append(binary.AppendUvarint(append([]byte(nil), head...), uint64(n)), trace...)
		if !bytes.Equal(got, want) {
			t.Errorf("trace of %d bytes: got %d bytes, want %d (prefix %v, want %v)", n, len(got), len(want), got[:min(6, len(got))], want[:min(6, len(want))])
		}
	}
}

// The worker collects at workerGCPercent under a soft limit of half the
// heap it retires at, unless the environment sets GOGC or GOMEMLIMIT.
func TestCollectLess(t *testing.T) {
	restoreGC, restoreLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	defer func() {
		debug.SetGCPercent(restoreGC)
		debug.SetMemoryLimit(restoreLimit)
	}()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	collectLess(1 << 30)
	if got := debug.SetGCPercent(100); got != workerGCPercent {
		t.Errorf("GC percent %d, want %d", got, workerGCPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != 1<<29 {
		t.Errorf("memory limit %d, want %d", got, 1<<29)
	}
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "1GiB")
	collectLess(1 << 30)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want it left at 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: memory limit %d, want it left alone", got)
	}
}
