package harness_test

import (
	"context"
	"testing"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setup analyses a fixture pair and builds its executor.
func setup(t *testing.T, fix, caller, callee string) (*couple.Analysis, *testcase.Cluster, *harness.Executor) {
	t.Helper()
	dir := fixture.Copy(t, fix)
	prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{caller, callee}})
	require.NoError(t, err)
	r, _ := ccfg.ImportPathOf(prog, caller)
	e, _ := ccfg.ImportPathOf(prog, callee)
	a, err := couple.Analyze(prog, r, e)
	require.NoError(t, err)
	sess, err := probe.NewSession(a)
	require.NoError(t, err)
	t.Cleanup(func() { sess.Close() })
	c := testcase.NewCluster(a, 4)
	bin, err := harness.Build(context.Background(), sess, c, harness.BuildOptions{CacheDir: t.TempDir()})
	require.NoError(t, err)
	x := harness.NewExecutor(bin, harness.Options{Workers: 2, Timeout: time.Second, Dir: a.Caller.Pkg.Dir, Ops: len(c.Ops)})
	t.Cleanup(x.Close)
	return a, c, x
}

func TestRandomTestsRun(t *testing.T) {
	a, c, x := setup(t, "personcar", "./person", "./car")
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	var tests []*testcase.Test
	for i := 0; i < 200; i++ {
		tc := g.RandomTest()
		require.NoError(t, tc.Valid())
		tests = append(tests, tc)
	}
	t.Log(tests[0])
	res, err := x.Run(context.Background(), tests, true)
	require.NoError(t, err)
	covered := map[int32]bool{}
	for _, r := range res {
		if r.Trace != nil {
			for _, g := range r.Trace.Covered {
				covered[g] = true
			}
		}
	}
	t.Log(res[0].Status, res[0].Trace, res[0].Outcome)
	assert.Len(t, covered, len(a.Goals))
}
