package mosa

import (
	"context"
	"go/types"
	"testing"
	"time"

	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/harness/harnesstest"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The proxies of a hand-built test of the costly fixture, executed by the
// executor, counted by hand from the source (app/app.go, lib/lib.go):
//
//	n := 3
//	app.New(n)
//
// runs New (n > 100 false: 1 statement before the if, 3 after it, one
// &Report{}), Squares (n <= 0 false: 1 + 4 statements, one make; the loop
// condition true 3 times: 2 statements each), square 3 times (1 each) and
// Sum over [0 1 4] (3 statements; the range body 3 times: 1 each; x%2 ==
// 0 true twice and x > 5 never: 1 each).
func TestProxiesOfAnExecution(t *testing.T) {
	p := harnesstest.Build(t, "costly", "./app", "./lib")
	c := p.C
	x := p.Executor(t, harness.Options{Workers: 1, Timeout: 5 * time.Second, Reproducible: true})

	var newReport *testcase.Op
	for _, op := range c.API {
		if op.Name == "app.New" {
			newReport = op
		}
	}
	require.NotNil(t, newReport)
	tc := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: c.Producers(types.Typ[types.Int])[0], Value: int64(3)},
		{Op: newReport, Args: []testcase.Ref{{Stmt: 0}}},
	}}
	res, err := x.Run(context.Background(), []*testcase.Test{tc, tc}, false)
	require.NoError(t, err)
	want := Proxies{
		Loops:          2 + 2,                                     // 3 iterations of each loop
		Calls:          1 + 1 + 3 + 1,                             // New, Squares, square ×3, Sum
		TestCalls:      1,                                         // app.New
		Allocs:         2,                                         // &Report{}, make
		Statements:     (1 + 3) + (1 + 4 + 3*2) + 3 + (3 + 3 + 2), // New, Squares, square, Sum
		TestStatements: 1,                                         // n := 3
		Length:         2,
	}
	for _, r := range res {
		require.NotNil(t, r.Trace)
		assert.Equal(t, want, ProxiesOf(tc, r.Trace), "every execution counts from zero")
	}
}
