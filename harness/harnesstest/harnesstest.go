// Package harnesstest builds the executor of a fixture pair for the tests
// of the packages that run test cases through it: the harness itself, the
// fault collector, the search's objectives. It is for tests only.
package harnesstest

import (
	"context"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/require"
)

// Pair is an analysed fixture pair, its cluster of operations and its
// built executor.
type Pair struct {
	A   *couple.Analysis
	C   *testcase.Cluster
	Exe *harness.Executable
}

// Build copies the fixture module fix (testdata/fix) into a temporary
// directory, analyses the pair caller → callee in it (directories relative
// to the module), instruments it for the search and builds its executor.
// Everything it makes is removed when the test ends. Each of adjust may
// change the cluster before the executor is built from it.
func Build(t testing.TB, fix, caller, callee string, adjust ...func(*testcase.Cluster)) Pair {
	t.Helper()
	dir := fixture.Copy(t, fix)
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	sess, err := probe.NewSession(a, probe.Search)
	require.NoError(t, err)
	t.Cleanup(func() { sess.Close() })
	c := testcase.NewCluster(a, 4)
	for _, f := range adjust {
		f(c)
	}
	exe, err := harness.Build(context.Background(), sess, c, harness.BuildOptions{CacheDir: t.TempDir()})
	require.NoError(t, err)
	return Pair{A: a, C: c, Exe: exe}
}

// Executor starts an executor of the pair with opts, whose Dir (a
// temporary directory) and Ops are filled in when zero; it is closed when
// the test ends.
func (p Pair) Executor(t testing.TB, opts harness.Options) *harness.Executor {
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	if opts.Ops == 0 {
		opts.Ops = len(p.C.Ops)
	}
	x := harness.NewExecutor(p.Exe, opts)
	t.Cleanup(x.Close)
	return x
}
