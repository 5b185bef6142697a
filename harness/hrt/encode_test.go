package hrt

import (
	"bytes"
	"encoding/binary"
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
