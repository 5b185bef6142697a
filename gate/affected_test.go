package gate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shopRepo copies the shop fixture, with extra files, into a repository
// whose branch base holds it, and returns its directory.
func shopRepo(t *testing.T, extra map[string]string) string {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	dir := fixture.Copy(t, "shop")
	for rel, content := range extra {
		writeFile(t, dir, rel, content)
	}
	fixture.GitRepo(t, dir)
	return dir
}

// affected reads the change of dir against base and lists the affected
// pairs as "R -> E [why]" followed by their diff coupled branches, as
// "  site R-target -> E-target [parts]".
func affected(t *testing.T, dir string, worktree bool) []string {
	t.Helper()
	ctx := context.Background()
	r := &run{cfg: Config{Dir: dir, Patterns: []string{"./..."}, Base: "base", Worktree: worktree},
		real: map[string]string{}, parent: ctx, budget: ctx}
	require.NoError(t, r.readChange(ctx))
	out := []string{}
	if !r.goChanged() {
		return out
	}
	pairs, err := r.affectedPairs()
	require.NoError(t, err)
	short := func(path string) string { return strings.TrimPrefix(path, "example.com/shop/") }
	for _, p := range pairs {
		out = append(out, fmt.Sprintf("%s -> %s %v", short(p.a.Caller.Pkg.Path), short(p.a.Callee.Pkg.Path), p.changed))
		for _, d := range p.diff {
			out = append(out, fmt.Sprintf("  %s %s -> %s %v", p.a.Prog.Pos(d.goal.Site.Pos), d.goal.R.ID(), d.goal.E.ID(), d.parts))
		}
	}
	return out
}

// unused is a file of pricing that nothing calls, and a package that is
// in no pair.
var extraFiles = map[string]string{
	"pricing/unused.go": "package pricing\n\nfunc unused(n int) int {\n\tif n > 0 {\n\t\treturn n\n\t}\n\treturn 0\n}\n",
	"extra/extra.go":    "package extra\n\n// Sign is the sign of n.\nfunc Sign(n int) int {\n\tif n > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n",
	"README.md":         "# shop\n",
}

func TestAffectedPairs(t *testing.T) {
	checkoutPairs := []string{
		"checkout -> pricing [caller tests]",
		"checkout -> money [caller tests]",
		"checkout -> inventory [caller tests]",
	}
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   []string
	}{
		{"a condition and a return of E", func(t *testing.T, dir string) {
			fixture.Edit(t, dir, "pricing/engine.go", `if l.SKU == "" || l.Qty <= 0 {`, `if l.SKU == "" || l.Qty < 1 {`)
			fixture.Edit(t, dir, "pricing/engine.go", `"%w: line %d: sku %q qty %d"`, `"%w: line %d: sku %q, qty %d"`)
		}, []string{
			"pricing -> money [caller]",
			"checkout -> pricing [callee]",
			"  checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:6:true [calleeTarget]",
			"  checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:6:false [calleeTarget]",
			"  checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:21:true [calleeTarget]",
			"  checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:21:false [calleeTarget]",
		}},
		{"the signature of an entry caller target", func(t *testing.T, dir string) {
			fixture.Edit(t, dir, "pricing/engine.go", "func (q QuotedLine) Total() money.Money {", "func (q QuotedLine) Total() (total money.Money) {")
		}, []string{
			"pricing -> money [caller]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:82:5:true [callerTarget]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:82:5:false [callerTarget]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:85:5:true [callerTarget]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:85:5:false [callerTarget]",
			"checkout -> pricing [callee]",
		}},
		{"a call site in a body whose entry is the caller target", func(t *testing.T, dir string) {
			fixture.Edit(t, dir, "pricing/engine.go", "t, err := q.Subtotal.Sub(q.Discount)", "t, err := q.Subtotal.Sub(q.Discount) // net")
		}, []string{
			"pricing -> money [caller]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:82:5:true [callSite]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:82:5:false [callSite]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:85:5:true [callSite]",
			"  pricing/engine.go:26:23 entry:QuotedLine.Total -> money/money.go:85:5:false [callSite]",
			"checkout -> pricing [callee]",
		}},
		{"a deleted file of E", func(t *testing.T, dir string) {
			require.NoError(t, os.Remove(filepath.Join(dir, "pricing", "unused.go")))
		}, []string{"pricing -> money [caller]", "checkout -> pricing [callee]"}},
		{"the tests of R", func(t *testing.T, dir string) {
			fixture.Edit(t, dir, "checkout/checkout_test.go", "func Test", "// A test.\nfunc Test")
		}, checkoutPairs},
		{"the README", func(t *testing.T, dir string) {
			writeFile(t, dir, "README.md", "# shop\n\nA fixture.\n")
		}, []string{}},
		{"a package in no pair", func(t *testing.T, dir string) {
			fixture.Edit(t, dir, "extra/extra.go", "n > 0", "n >= 1")
		}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := shopRepo(t, extraFiles)
			tt.change(t, dir)
			fixture.Commit(t, dir, "change")
			assert.Equal(t, tt.want, affected(t, dir, false))
		})
	}
}

// Uncommitted changes count unless the work tree is left out.
func TestAffectedByWorktree(t *testing.T) {
	dir := shopRepo(t, nil)
	fixture.Edit(t, dir, "checkout/checkout_test.go", "func Test", "// A test.\nfunc Test")
	assert.Len(t, affected(t, dir, true), 3)
	assert.Equal(t, []string{}, affected(t, dir, false))
}

// A change that does not type-check is named with its package.
func TestChangeDoesNotTypeCheck(t *testing.T) {
	dir := shopRepo(t, nil)
	fixture.Edit(t, dir, "pricing/engine.go", "best := int64(0)", `best := "0"`)
	fixture.Commit(t, dir, "broken")
	ctx := context.Background()
	r := &run{cfg: Config{Dir: dir, Patterns: []string{"./..."}, Base: "base"}, real: map[string]string{}, parent: ctx, budget: ctx}
	require.NoError(t, r.readChange(ctx))
	_, err := r.affectedPairs()
	require.True(t, ccfg.IsLoadError(err), "%v", err)
	assert.Contains(t, err.Error(), "package example.com/shop/pricing has errors: ")
	assert.Contains(t, err.Error(), "pricing/engine.go:103:18: invalid operation")
}

// Run measures the pairs of one caller in one instrumented build, with
// the numbers cling cbc gives each pair, and judges the whole-pair
// threshold.
func TestRunMeasuresPairs(t *testing.T) {
	dir := shopRepo(t, nil)
	before := fixture.Snapshot(t, dir)
	fixture.Edit(t, dir, "checkout/checkout_test.go", "func Test", "// A test.\nfunc Test")
	var progress []string
	rep, err := Run(context.Background(), Config{
		Dir: dir, Base: "base", Worktree: true, Thresholds: Thresholds{MinCBC: 0.5},
		Progress: func(msg string) { progress = append(progress, msg) },
	})
	require.NoError(t, err)
	var got []string
	for _, p := range rep.Pairs {
		got = append(got, fmt.Sprintf("%s %v %d/%d %d", p.Callee, p.Changed, p.Covered, p.CoupledBranches, p.Tests))
		assert.Empty(t, p.Diff)
		assert.Empty(t, p.Mutants)
		assert.Nil(t, p.DiffCBC)
		assert.Nil(t, p.DiffScore)
	}
	assert.Equal(t, []string{
		"example.com/shop/pricing [caller tests] 22/50 5",
		"example.com/shop/money [caller tests] 7/18 5",
		"example.com/shop/inventory [caller tests] 8/14 5",
	}, got)
	assert.Equal(t, []string{
		"example.com/shop/checkout -> example.com/shop/pricing: CBC 44.0% is below --min-cbc 50.0%",
		"example.com/shop/checkout -> example.com/shop/money: CBC 38.9% is below --min-cbc 50.0%",
	}, rep.Failures)
	assert.False(t, rep.Passed)
	assert.Empty(t, rep.Findings)
	assert.Equal(t, []string{"measuring example.com/shop/checkout -> example.com/shop/pricing, example.com/shop/money, example.com/shop/inventory (1 of 1)"}, progress)
	// Only the edit of the test: cling wrote nothing, git's index included.
	diff := fstree.Diff(before, fixture.Snapshot(t, dir))
	assert.Equal(t, []string{"checkout/checkout_test.go"}, diff)
}
