package shard

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pairs of a module m, in the order a run takes them (most coupled
// first).
func testPairs() []Pair {
	return []Pair{
		{"m/a", "m/b", 100},
		{"m/c", "m/d", 60},
		{"m/a", "m/c", 40},
		{"m/e", "m/b", 30},
		{"m/c", "m/b", 20},
		{"m/f", "m/b", 10},
	}
}

var testEstimate = Estimate{BudgetSeconds: 260, Rate: 1, OverheadSeconds: 5}

func names(s Share) []string {
	var out []string
	for _, p := range s.Pairs {
		out = append(out, p.Name())
	}
	return out
}

func TestNewPlanBalancesCallerGroups(t *testing.T) {
	sel := Selection{Patterns: []string{"./..."}}
	p, err := NewPlan("m", "src1", sel, testPairs(), 3, testEstimate)
	require.NoError(t, err)
	// Groups by cost: a 150 (100+5, 40+5), c 90 (65, 25), e 35, f 15.
	// a -> 1, c -> 2, e -> 3, f -> 3 (35 < 90).
	require.Len(t, p.Shares, 3)
	assert.Equal(t, []string{"m/a:m/b", "m/a:m/c"}, names(p.Shares[0]))
	assert.Equal(t, []string{"m/c:m/d", "m/c:m/b"}, names(p.Shares[1]))
	assert.Equal(t, []string{"m/e:m/b", "m/f:m/b"}, names(p.Shares[2]))
	assert.Equal(t, []float64{150, 90, 50}, []float64{p.Shares[0].Seconds, p.Shares[1].Seconds, p.Shares[2].Seconds})
	assert.Len(t, p.ID, 16)

	again, err := NewPlan("m", "src1", sel, testPairs(), 3, testEstimate)
	require.NoError(t, err)
	assert.Equal(t, p, again, "the same input gives the same plan")
}

func TestNewPlanMoreSharesThanCallers(t *testing.T) {
	p, err := NewPlan("m", "s", Selection{}, testPairs()[:2], 3, testEstimate)
	require.NoError(t, err)
	assert.Len(t, p.Shares[0].Pairs, 1)
	assert.Len(t, p.Shares[1].Pairs, 1)
	assert.Empty(t, p.Shares[2].Pairs)
	_, err = NewPlan("m", "s", Selection{}, testPairs(), 0, testEstimate)
	assert.EqualError(t, err, "--shards must be at least 1 (got 0)")
}

func TestPlanIDDependsOnModuleSourceSelectionAndAssignment(t *testing.T) {
	base, _ := NewPlan("m", "s", Selection{Patterns: []string{"./..."}}, testPairs(), 2, testEstimate)
	for name, other := range map[string]func() (*Plan, error){
		"module": func() (*Plan, error) {
			return NewPlan("m2", "s", Selection{Patterns: []string{"./..."}}, testPairs(), 2, testEstimate)
		},
		"source": func() (*Plan, error) {
			return NewPlan("m", "s2", Selection{Patterns: []string{"./..."}}, testPairs(), 2, testEstimate)
		},
		"selection": func() (*Plan, error) {
			return NewPlan("m", "s", Selection{Patterns: []string{"./a/..."}}, testPairs(), 2, testEstimate)
		},
		"shards": func() (*Plan, error) {
			return NewPlan("m", "s", Selection{Patterns: []string{"./..."}}, testPairs(), 3, testEstimate)
		},
	} {
		p, err := other()
		require.NoError(t, err)
		assert.NotEqual(t, base.ID, p.ID, name)
	}
	// The estimate is no part of the id.
	p, _ := NewPlan("m", "s", Selection{Patterns: []string{"./..."}}, testPairs(), 2, Estimate{Rate: 1})
	if assert.Equal(t, names(base.Shares[0]), names(p.Shares[0])) {
		assert.Equal(t, base.ID, p.ID)
	}
}

func TestPlanJSONIsAMatrixAndReadsBack(t *testing.T) {
	p, err := NewPlan("m", "s", Selection{Patterns: []string{"./..."}, MinCoupled: 2}, testPairs(), 2, testEstimate)
	require.NoError(t, err)
	b, err := json.Marshal(p)
	require.NoError(t, err)
	// The top level holds nothing but include, as a matrix must.
	var top map[string][]map[string]any
	require.NoError(t, json.Unmarshal(b, &top))
	require.Equal(t, []string{"include"}, keysOf(top))
	require.Len(t, top["include"], 2)
	assert.Equal(t, float64(1), top["include"][0]["shard"])
	assert.Equal(t, []any{"m/a:m/b", "m/a:m/c"}, top["include"][0]["pairs"])

	path := filepath.Join(t.TempDir(), "plan.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	back, err := ReadPlan(path)
	require.NoError(t, err)
	assert.Equal(t, p, back)

	share, err := back.Share(2)
	require.NoError(t, err)
	assert.Equal(t, []string{"m/c:m/d", "m/e:m/b", "m/c:m/b", "m/f:m/b"}, names(share))
	for _, i := range []int{0, 3} {
		_, err = back.Share(i)
		var se *Error
		require.True(t, errors.As(err, &se))
		assert.Equal(t, "--shard "+map[int]string{0: "0", 3: "3"}[i]+" is out of range: the plan has shards 1 to 2", se.Msg)
	}
}

func TestReadPlanRejectsDamagedPlans(t *testing.T) {
	p, _ := NewPlan("m", "s", Selection{Patterns: []string{"./..."}}, testPairs(), 2, testEstimate)
	b, _ := json.Marshal(p)
	good := string(b)
	for _, tc := range []struct {
		name, text, want string
	}{
		{"not JSON", "{", "not a plan of cling plan"},
		{"no shards", `{"include":[]}`, "not a plan of cling plan: no shards"},
		{"edited pairs", strings.Replace(good, `"m/f:m/b"`, `"m/f:m/c"`, 1), "do not match its id"},
		{"another plan's shard", strings.Replace(good, `"id":"`+p.ID, `"id":"0123`, 1), "shard 2 belongs to plan " + p.ID},
		{"a shard missing", strings.Replace(good, `"shard":2`, `"shard":1`, 1), "out of range or repeated"},
	} {
		path := filepath.Join(t.TempDir(), "plan.json")
		require.NoError(t, os.WriteFile(path, []byte(tc.text), 0o644))
		_, err := ReadPlan(path)
		var se *Error
		require.True(t, errors.As(err, &se), tc.name)
		assert.Contains(t, se.Msg, tc.want, tc.name)
		assert.NotContains(t, se.Msg, "\n", tc.name)
	}
}

func TestParsePairName(t *testing.T) {
	r, e, err := ParsePairName("m/a:m/b")
	require.NoError(t, err)
	assert.Equal(t, []string{"m/a", "m/b"}, []string{r, e})
	for _, bad := range []string{"m/a", ":m/b", "m/a:", "a:b:c"} {
		_, _, err := ParsePairName(bad)
		assert.Error(t, err, bad)
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
