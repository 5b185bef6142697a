package gen

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cling-go/cling/emit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests whose functions are in a race report's stacks are those of
// the file that made an access, the test that reports the race included,
// and not a test whose name only begins another's.
func TestTestsInReport(t *testing.T) {
	report := `WARNING: DATA RACE
Read at 0x00c0000a02e8 by goroutine 46:
  log.getBuffer()
      /usr/local/go/src/log/log.go:170 +0x2ba
  example.com/m/middleware_test.TestServeHTTP_L15False()
      /m/middleware/cling_chi_test.go:907 +0x722

Previous write at 0x00c0000a02e8 by goroutine 35:
  log.getBuffer()
      /usr/local/go/src/log/log.go:170 +0x2c7
  example.com/m/middleware_test.TestServeHTTP_EntrySetHeader.SetHeader.func7.1()
      /m/middleware/content_type.go:13 +0xaf
  example.com/m/middleware_test.mustPanic()
      /m/middleware/cling_chi_test.go:2445 +0x82
`
	var tests []namedTest
	for _, name := range []string{"TestServeHTTP_L15False", "TestServeHTTP_L15False_2", "TestServeHTTP_EntrySetHeader", "TestServeHTTP_Entry", "TestOther"} {
		tests = append(tests, namedTest{Test: emit.Test{Name: name}})
	}
	assert.Equal(t, []string{"TestServeHTTP_L15False", "TestServeHTTP_EntrySetHeader"}, testsInReport(report, tests))
}

// A race between the goroutines testing.(*T).Run created, or one of them
// and the main goroutine, is the race detector having lost a test's
// synchronisation; a race with a goroutine the code started is a race.
func TestLostSync(t *testing.T) {
	// runGoroutine is where testing.(*T).Run starts a test's goroutine.
	const runGoroutine = `  testing.(*T).Run()
      /usr/local/go/src/testing/testing.go:2101 +0xb12
  testing.runTests.func1()
      /usr/local/go/src/testing/testing.go:2585 +0x84
`
	setRan := `  testing.(*common).setRan()
      /usr/local/go/src/testing/testing.go:957 +0xc6
  testing.tRunner.func1()
      /usr/local/go/src/testing/testing.go:2025 +0x949
`
	tests := []struct {
		name   string
		report string
		want   bool
	}{
		{"two tests' goroutines", "WARNING: DATA RACE\nWrite at 0x00c0001e6050 by goroutine 12:\n" + setRan +
			"\nPrevious write at 0x00c0001e6050 by goroutine 11:\n" + setRan +
			`  example.com/m/middleware_test.mustPanic()
      /m/middleware/cling_chi_test.go:681 +0x82
  example.com/m/middleware_test.TestServeHTTP_EntryHandler_L65False()
      /m/middleware/cling_chi_test.go:101 +0x2f2
` + "\nGoroutine 12 (running) created at:\n" + runGoroutine + "\nGoroutine 11 (finished) created at:\n" + runGoroutine, true},
		{"the main goroutine and a test's", `WARNING: DATA RACE
Write at 0x00c0000a3818 by main goroutine:
  testing.(*chattyPrinter).Updatef()
      /usr/local/go/src/testing/testing.go:607 +0xf5
  testing.(*T).Run()
      /usr/local/go/src/testing/testing.go:2092 +0x9c9

Previous write at 0x00c0000a3818 by goroutine 8:
  testing.(*chattyPrinter).Updatef()
      /usr/local/go/src/testing/testing.go:607 +0xf5

Goroutine 8 (finished) created at:
` + runGoroutine, true},
		{"a goroutine the code started", `WARNING: DATA RACE
Read at 0x00c000016108 by goroutine 9:
  example.com/m/store.(*Ring).Len()
      /m/store/store.go:30 +0x44
  example.com/m/catalog_test.TestLen()
      /m/catalog/cling_store_test.go:12 +0x64

Previous write at 0x00c000016108 by goroutine 10:
  example.com/m/store.(*Ring).fill()
      /m/store/store.go:52 +0x7a

Goroutine 9 (running) created at:
` + runGoroutine + `
Goroutine 10 (finished) created at:
  example.com/m/store.(*Ring).Start()
      /m/store/store.go:40 +0x90
`, false},
		{"no creation stacks", "WARNING: DATA RACE\nWrite at 0x00c0001e6050 by goroutine 12:\n" + setRan +
			"\nPrevious write at 0x00c0001e6050 by goroutine 11:\n" + setRan, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, lostSync(tt.report))
		})
	}
}

// A test with a race report of the code is dropped with the tests the
// report names and gives a finding; one whose reports are all between the
// testing package's goroutines is a victim; one that failed without a
// report is dropped as unstable.
func TestBlameRaces(t *testing.T) {
	realRace := "WARNING: DATA RACE\nRead at 0x1 by goroutine 9:\n  example.com/m/store.(*Ring).Len()\n      /m/store/store.go:30 +0x44\n" +
		"\nPrevious write at 0x1 by goroutine 10:\n  example.com/m/catalog_test.TestFill()\n      /m/catalog/cling_store_test.go:20 +0x7a\n" +
		"\nGoroutine 10 (running) created at:\n  example.com/m/store.(*Ring).Start()\n      /m/store/store.go:40 +0x90\n"
	lost := "WARNING: DATA RACE\nWrite at 0x2 by goroutine 12:\n  testing.(*common).setRan()\n      /go/src/testing/testing.go:957 +0xc6\n" +
		"\nPrevious write at 0x2 by goroutine 11:\n  testing.(*common).setRan()\n      /go/src/testing/testing.go:957 +0xc6\n" +
		"\nGoroutine 12 (running) created at:\n  testing.(*T).Run()\n      /go/src/testing/testing.go:2101 +0xb12\n" +
		"\nGoroutine 11 (finished) created at:\n  testing.(*T).Run()\n      /go/src/testing/testing.go:2101 +0xb12\n"
	frame := "==================\n"
	var tests []namedTest
	for _, name := range []string{"TestLen", "TestFill", "TestAfter", "TestFlaky", "TestFine"} {
		tests = append(tests, namedTest{Test: emit.Test{Name: name}})
	}
	runs := map[string]*testRuns{
		"TestLen":   {fails: 1, failures: []string{frame + lost + frame + frame + realRace + frame}},
		"TestFill":  {passes: 1},
		"TestAfter": {fails: 1, failures: []string{"=== RUN TestAfter\n" + frame + lost + frame + "--- FAIL: TestAfter\n"}},
		"TestFlaky": {fails: 1, failures: []string{"    x_test.go:3: wrong\n"}},
		"TestFine":  {passes: 1},
	}
	failed, findings, victims := blameRaces(runs, tests)
	assert.Equal(t, map[string]bool{"TestLen": true, "TestFill": true, "TestFlaky": true}, failed)
	require.Len(t, findings, 1)
	assert.Equal(t, "TestLen", findings[0].test.Name)
	assert.Equal(t, realRace, findings[0].report)
	assert.Equal(t, []string{"TestAfter"}, victims)
}

// The test that panics in sync.Pool.Get on a nil pool leaves its goroutine
// without the detector's synchronisation, and the tests after it report
// races that are not theirs: it is the one found, not them.
func TestSyncLosers(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/pool\n\ngo 1.22\n",
		"pool_test.go": `package pool

import (
	"sync"
	"testing"
)

func TestNilPool(t *testing.T) {
	defer func() { recover() }()
	var p *sync.Pool
	p.Get()
}

func TestAfter(t *testing.T) { t.Log("after") }

func TestLater(t *testing.T) {}
`,
	}
	bin, out, err := buildTestBinary(t, dir, files, "-race")
	if err != nil {
		t.Skipf("no race detector here: %s", out)
	}
	var tests []namedTest
	for _, name := range []string{"TestNilPool", "TestAfter", "TestLater"} {
		tests = append(tests, namedTest{Test: emit.Test{Name: name}})
	}
	j := &job{cfg: Config{Timeout: time.Second}, out: filepath.Join(dir, "pool_test.go")}
	runs, err := j.runProcesses(context.Background(), bin, dir, namesOf(tests), 1)
	require.NoError(t, err)
	failed, findings, victims := blameRaces(runs, tests)
	assert.Empty(t, findings)
	assert.NotEmpty(t, victims)
	assert.Subset(t, victims, keys(failed))
	losers, err := j.syncLosers(context.Background(), bin, dir, tests)
	require.NoError(t, err)
	assert.Equal(t, []string{"TestNilPool"}, losers)
}
