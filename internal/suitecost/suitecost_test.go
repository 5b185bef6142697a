package suitecost

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeModule writes a module with package p, a hand-written test that
// allocates 64 MiB, and returns its directory and the suite's file, whose
// test allocates 4 MiB per run.
func writeModule(t *testing.T) (dir string, suite Suite) {
	dir = t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"p/p.go": "package p\n\n// Buf returns n bytes.\nfunc Buf(n int) []byte { return make([]byte, n) }\n",
		"p/a_test.go": `package p_test

import (
	"testing"

	"example.com/m/p"
)

var Sink []byte

func TestHandWritten(t *testing.T) { Sink = p.Buf(64 << 20) }
`,
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	return dir, Suite{Dir: dir, Package: "example.com/m/p", File: filepath.Join(dir, "p", "cling_p_test.go"), Src: []byte(`package p_test

import (
	"testing"

	"example.com/m/p"
)

func TestFour(t *testing.T) {
	if len(p.Buf(4<<20)) != 4<<20 {
		t.Fatal("short")
	}
}

func TestNothing(t *testing.T) {}

func helper() {}

func Testlower(t *testing.T) {}
`)}
}

// The suite's tests run alone, in fresh processes; the hand-written test
// of the package does not run. Allocations are per pass.
func TestMeasure(t *testing.T) {
	dir, s := writeModule(t)
	b, err := Build(context.Background(), s, t.TempDir())
	require.NoError(t, err)
	assert.Equal(t, []string{"TestFour", "TestNothing"}, b.Tests)
	_, err = os.Stat(s.File)
	assert.True(t, os.IsNotExist(err), "the suite's file is overlaid, not written")
	var samples []Sample
	for i := 0; i < 3; i++ {
		sm, err := b.Run(context.Background(), filepath.Join(dir, "p"), 2)
		require.NoError(t, err)
		samples = append(samples, sm)
	}
	c := Median(samples, 2)
	assert.Equal(t, 3, c.Processes)
	assert.Equal(t, 2, c.Count)
	assert.GreaterOrEqual(t, c.Bytes, float64(4<<20), "the suite's 4 MiB")
	assert.Less(t, c.Bytes, float64(8<<20), "not the hand-written test's 64 MiB, nor two passes")
	assert.GreaterOrEqual(t, c.Objects, 1.0)
	assert.Positive(t, c.Seconds)
}

func TestMarkerSortsAfterTheSuite(t *testing.T) {
	for _, f := range []string{"/m/p/cling_p_test.go", "/m/p/x_test.go", "/m/p/zzz_test.go"} {
		names := []string{markerPath(f), f, "/m/p/cling_p2_test.go"}
		sort.Strings(names)
		assert.Less(t, indexOf(names, f), indexOf(names, markerPath(f)), f)
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func TestMedian(t *testing.T) {
	c := Median([]Sample{{1, 10, 3}, {3, 30, 1}, {2, 20, 2}, {4, 40, 4}}, 5)
	assert.Equal(t, Cost{Processes: 4, Count: 5, Seconds: 2.5, Bytes: 25, Objects: 2.5}, c)
	assert.Equal(t, Cost{Processes: 1, Count: 1, Seconds: 1, Bytes: 10, Objects: 3}, Median([]Sample{{1, 10, 3}}, 1))
}

func TestBuildErrors(t *testing.T) {
	_, s := writeModule(t)
	s.Src = []byte("package p_test\n\nfunc helper() {}\n")
	_, err := Build(context.Background(), s, t.TempDir())
	assert.EqualError(t, err, s.File+" has no tests")
	s.Src = []byte("package p_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { undefined() }\n")
	_, err = Build(context.Background(), s, t.TempDir())
	assert.ErrorContains(t, err, "building the tests of "+s.File)
}
