package couple_test

import (
	"go/ast"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MergeGroups keeps a caller's analyses together, starts another group
// for one that shares a call with the group, and for one past MaxMerged
// members; Merge refuses more than MaxMerged.
func TestMergeGroups(t *testing.T) {
	pkg := func(path string) *ccfg.CCFG { return &ccfg.CCFG{Pkg: &ccfg.Package{Path: path}} }
	r1, r2 := pkg("r1"), pkg("r2")
	shared := &ast.CallExpr{}
	analysis := func(r *ccfg.CCFG, calls ...*ast.CallExpr) *couple.Analysis {
		a := &couple.Analysis{Caller: r, Callee: pkg("e")}
		for _, c := range calls {
			a.Sites = append(a.Sites, &couple.CallSite{Call: c})
		}
		return a
	}
	as := []*couple.Analysis{
		analysis(r1, shared),
		analysis(r2, &ast.CallExpr{}),
		analysis(r1, &ast.CallExpr{}, shared),
		analysis(r1, &ast.CallExpr{}),
	}
	assert.Equal(t, [][]int{{0, 3}, {1}, {2}}, couple.MergeGroups(as))

	var many []*couple.Analysis
	for i := 0; i < couple.MaxMerged+3; i++ {
		many = append(many, analysis(r1, &ast.CallExpr{}))
	}
	groups := couple.MergeGroups(many)
	require.Len(t, groups, 2)
	assert.Len(t, groups[0], couple.MaxMerged)
	assert.Equal(t, []int{couple.MaxMerged, couple.MaxMerged + 1, couple.MaxMerged + 2}, groups[1])
	_, err := couple.Merge(many)
	assert.EqualError(t, err, "merging analyses: 258 callees, at most 255 in one build")
}
