package gen

import (
	"testing"

	"github.com/cling-go/cling/emit"
	"github.com/stretchr/testify/assert"
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
