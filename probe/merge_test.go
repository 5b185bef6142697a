package probe_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMergedMeasureEqualsPairs checks that one instrumented build of a
// caller and all its callees measures, for each pair, exactly what a build
// of that pair alone measures. The fixtures' callers call several callees,
// and some callees call each other (library: loans calls catalog, which
// calls text; shop: checkout calls pricing, which calls money), so callee
// code runs inside calls made at other callees' sites.
func TestMergedMeasureEqualsPairs(t *testing.T) {
	for _, tc := range []struct {
		fixture, caller string
		tests           map[string]string // test files to add
		callees         int
		covered         []int // per pair, in the order cling pairs ranks them
	}{
		{"shop", "example.com/shop/checkout", nil, 3, []int{22, 7, 8}},
		{"library", "example.com/library/loans", map[string]string{"loans/loans_test.go": loansSuite}, 3, []int{4, 4, 3}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			dir := fixture.Copy(t, tc.fixture)
			for name, src := range tc.tests {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
			}
			_, pairs, err := couple.LoadAllPairs(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./..."}})
			require.NoError(t, err)
			var as []*couple.Analysis
			for _, p := range pairs {
				if p.Caller.Pkg.Path == tc.caller {
					as = append(as, p.Analysis)
				}
			}
			require.Len(t, as, tc.callees)
			opts := probe.TestOptions{Dir: dir, Packages: []probe.TestPackage{{Path: as[0].Caller.Pkg.Path, Dir: as[0].Caller.Pkg.Dir}}}

			m, err := couple.Merge(as)
			require.NoError(t, err)
			assert.True(t, m.Merged())
			assert.Nil(t, m.Callee)
			merged, err := probe.Measure(context.Background(), m, opts)
			require.NoError(t, err)
			require.Len(t, merged.Covered, couple.GoalOffset(as, len(as)))

			var got []int
			for k, a := range as {
				alone, err := probe.Measure(context.Background(), a, opts)
				require.NoError(t, err)
				off := couple.GoalOffset(as, k)
				assert.Equal(t, alone.Covered, merged.Covered[off:off+len(a.Goals)], "%s -> %s", a.Caller.Pkg.Path, a.Callee.Pkg.Path)
				assert.Equal(t, alone.Tests, merged.Tests)
				assert.Equal(t, alone.Failed, merged.Failed)
				n := 0
				for _, c := range alone.Covered {
					if c {
						n++
					}
				}
				got = append(got, n)
			}
			assert.Equal(t, tc.covered, got)
		})
	}
}

// loansSuite drives the library's desk: its calls into catalog run
// text's code inside calls made at catalog's sites.
const loansSuite = `package loans_test

import (
	"testing"

	"example.com/library/catalog"
	"example.com/library/loans"
)

func TestDesk(t *testing.T) {
	c := catalog.New()
	if err := c.Add("Dune", 1); err != nil {
		t.Fatal(err)
	}
	d := loans.NewDesk(c)
	if err := d.Lend(" Ann ", "dune"); err != nil {
		t.Fatal(err)
	}
	if d.Lend("ann", "Dune") == nil || d.Lend("Bob", "Dune") == nil {
		t.Fatal("lent twice")
	}
	if fee, err := d.Return("Ann", 20); err != nil || fee != 12 {
		t.Fatal(fee, err)
	}
	if _, err := d.Return("ann", 1); err == nil {
		t.Fatal("returned twice")
	}
	if loans.LateFee(-1) != 0 || loans.LateFee(100) != 30 {
		t.Fatal("fees")
	}
}
`

// TestMergeRefuses checks the analyses Merge cannot combine.
func TestMergeRefuses(t *testing.T) {
	dir := fixture.Copy(t, "library")
	_, pairs, err := couple.LoadAllPairs(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./..."}})
	require.NoError(t, err)
	byCaller := map[string][]*couple.Analysis{}
	for _, p := range pairs {
		byCaller[p.Caller.Pkg.Path] = append(byCaller[p.Caller.Pkg.Path], p.Analysis)
	}
	loans, catalog := byCaller["example.com/library/loans"], byCaller["example.com/library/catalog"]
	require.NotEmpty(t, loans)
	require.NotEmpty(t, catalog)

	_, err = couple.Merge(nil)
	assert.EqualError(t, err, "merging analyses: none given")
	_, err = couple.Merge([]*couple.Analysis{loans[0], catalog[0]})
	assert.EqualError(t, err, "merging analyses: callers example.com/library/loans and example.com/library/catalog differ")
	_, err = couple.Merge([]*couple.Analysis{loans[0], loans[0]})
	assert.ErrorContains(t, err, "merging analyses: callee example.com/library/")
	m, err := couple.Merge(loans[:2])
	require.NoError(t, err)
	_, err = couple.Merge([]*couple.Analysis{m})
	assert.EqualError(t, err, "merging analyses: example.com/library/loans is merged already")
}
