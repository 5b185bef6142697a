package batch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/shard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

func loadLibrary(t *testing.T, dir string) (*ccfg.Program, []couple.Pair) {
	t.Helper()
	prog, all, err := couple.LoadAllPairs(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./..."}})
	require.NoError(t, err)
	return prog, all
}

func pairNames(pairs []couple.Pair) []string {
	var out []string
	for _, p := range pairs {
		out = append(out, shard.ShortPath("example.com/library", p.Caller.Pkg.Path)+":"+shard.ShortPath("example.com/library", p.Callee.Pkg.Path))
	}
	return out
}

func TestSelect(t *testing.T) {
	prog, all := loadLibrary(t, fixture.Copy(t, "library"))
	sel := shard.Selection{Patterns: []string{"./..."}}
	for _, tc := range []struct {
		name string
		sel  func(shard.Selection) shard.Selection
		want []string
	}{
		{"all", func(s shard.Selection) shard.Selection { return s },
			[]string{"catalog:text", "loans:text", "loans:catalog", "report:loans", "catalog:num", "loans:num", "report:text"}},
		{"min coupled", func(s shard.Selection) shard.Selection { s.MinCoupled = 6; return s },
			[]string{"catalog:text", "loans:text", "loans:catalog", "report:loans"}},
		{"max pairs", func(s shard.Selection) shard.Selection { s.MaxPairs = 2; return s },
			[]string{"catalog:text", "loans:text"}},
		{"named pairs", func(s shard.Selection) shard.Selection {
			s.Pairs = []string{"./report:example.com/library/text", "./loans:./num"}
			return s
		}, []string{"loans:num", "report:text"}},
	} {
		got, norm, err := Select(prog, all, tc.sel(sel))
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, pairNames(got), tc.name)
		if tc.name == "named pairs" {
			assert.Equal(t, []string{"example.com/library/loans:example.com/library/num", "example.com/library/report:example.com/library/text"}, norm.Pairs)
		}
	}
	for _, bad := range []struct{ pair, want string }{
		{"./text:./num", "--pair example.com/library/text:example.com/library/num: no such pair with coupled branches among the callers of ./..."},
		{"./nowhere:./num", "--pair ./nowhere:./num: unknown package ./nowhere"},
		{"./loans", `--pair "./loans" is not a pair: write CALLER:CALLEE`},
	} {
		s := sel
		s.Pairs = []string{bad.pair}
		_, _, err := Select(prog, all, s)
		var be *Error
		require.True(t, errors.As(err, &be), bad.pair)
		assert.Equal(t, bad.want, be.Msg)
	}
}

func TestSeed(t *testing.T) {
	a := Seed(1, "m/a", "m/b")
	assert.Equal(t, a, Seed(1, "m/a", "m/b"), "the same pair and seed")
	assert.NotEqual(t, a, Seed(2, "m/a", "m/b"), "another seed")
	assert.NotEqual(t, a, Seed(1, "m/b", "m/a"), "another pair")
	assert.Equal(t, int64(0x6078044eb9897214), Seed(1, "m/a", "m/b"), "SHA-256(\"1 m/a m/b\")[:8] >> 1")
	for s := int64(0); s < 50; s++ {
		assert.GreaterOrEqual(t, Seed(s, "m/a", "m/b"), int64(0))
	}
}

func TestBudgets(t *testing.T) {
	pairs := []shard.Pair{{CoupledBranches: 6}, {CoupledBranches: 3}, {CoupledBranches: 1}}
	assert.Equal(t, []time.Duration{5200 * time.Millisecond, 3100 * time.Millisecond, 1700 * time.Millisecond}, Budgets(10*time.Second, pairs))
	assert.Equal(t, []time.Duration{500 * time.Millisecond, 500 * time.Millisecond, 500 * time.Millisecond}, Budgets(1500*time.Millisecond, pairs),
		"less than the floor each: equal shares")
	assert.Empty(t, Budgets(time.Second, nil))
}

func TestOutputsTellCalleesOfOneNameApart(t *testing.T) {
	mod := &packages.Module{Path: "m", Main: true}
	pkg := func(path, name, dir string) *ccfg.CCFG {
		return &ccfg.CCFG{Pkg: &ccfg.Package{Path: path, Name: name, Dir: dir, Module: mod}}
	}
	r := pkg("m/r", "r", "/src/r")
	other := pkg("m/o", "o", "/src/o")
	pair := func(caller, callee *ccfg.CCFG) couple.Pair {
		return couple.Pair{Caller: caller, Callee: callee, Analysis: &couple.Analysis{Caller: caller, Callee: callee}}
	}
	got := Outputs([]couple.Pair{
		pair(r, pkg("m/x/ast", "ast", "/src/x/ast")),
		pair(r, pkg("m/y/ast", "ast", "/src/y/ast")),
		pair(other, pkg("m/y/ast", "ast", "/src/y/ast")),
	})
	assert.Equal(t, []string{"/src/r/cling_ast_test.go", "/src/r/cling_y_ast_test.go", "/src/o/cling_ast_test.go"}, got)
}

func TestSourceDigest(t *testing.T) {
	one, two := fixture.Copy(t, "library"), fixture.Copy(t, "library")
	digest := func(dir string) string {
		prog, _ := loadLibrary(t, dir)
		d, err := SourceDigest(prog)
		require.NoError(t, err)
		return d
	}
	base := digest(one)
	assert.Len(t, base, 16)
	assert.Equal(t, base, digest(two), "two copies of one module")
	require.NoError(t, os.WriteFile(filepath.Join(two, "report", "cling_text_test.go"), []byte("package report_test\n"), 0o644))
	assert.Equal(t, base, digest(two), "test files do not count")
	fixture.Edit(t, two, "num/num.go", "return lo", "return lo + 0")
	assert.NotEqual(t, base, digest(two), "a changed Go file")
}
