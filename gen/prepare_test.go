package gen

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The literals of R's test files seed the search, except those of the
// files other pairs of the run generate.
func TestSeedConstantsLeavesOutGeneratedFiles(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	hand := filepath.Join(dir, "person", "hand_test.go")
	generated := filepath.Join(dir, "person", "cling_other_test.go")
	require.NoError(t, os.WriteFile(hand, []byte("package person_test\n\nvar hand = \"from a hand-written test\"\n"), 0o644))
	require.NoError(t, os.WriteFile(generated, []byte("package person_test\n\nvar generated = \"from a generated test\"\n"), 0o644))
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./person", "./car")
	require.NoError(t, err)
	for _, tc := range []struct {
		name      string
		generated []string
		want      bool
	}{
		{"no generated files", nil, true},
		{"the other pair's file", []string{generated}, false},
	} {
		c := testcase.NewCluster(a, 4)
		seedConstants(a, c, nil, tc.generated)
		assert.Contains(t, c.Constants.Strings, "from a hand-written test", tc.name)
		assert.Equal(t, tc.want, slices.Contains(c.Constants.Strings, "from a generated test"), tc.name)
	}
}

// With no callable covering function, the error names the first few
// functions skipped and counts the rest, on one line.
func TestNoCoveringFunction(t *testing.T) {
	skip := func(n int) []testcase.Skip {
		var out []testcase.Skip
		for i := range n {
			out = append(out, testcase.Skip{What: "p.F" + string(rune('a'+i)), Reason: "no value"})
		}
		return out
	}
	for _, tc := range []struct {
		skipped int
		want    string
	}{
		{1, "cling cannot call any covering function of ex/r: p.Fa: no value"},
		{3, "cling cannot call any covering function of ex/r: p.Fa: no value; p.Fb: no value; p.Fc: no value"},
		{5, "cling cannot call any covering function of ex/r: p.Fa: no value; p.Fb: no value; p.Fc: no value; and 2 more"},
	} {
		assert.Equal(t, tc.want, noCoveringFunction("ex/r", skip(tc.skipped), []string{"(*t).M"}))
	}
	// None skipped: the covering functions are methods R's API never
	// hands out a value for.
	assert.Equal(t, "cling cannot call any covering function of ex/r: (*t).M: methods of unexported types that R's API does not hand out (cling does not call methods promoted through an embedded field)",
		noCoveringFunction("ex/r", nil, []string{"(*t).M"}))
	assert.Equal(t, "cling cannot call any covering function of ex/r: (*t).A, (*t).B, (*t).C and 2 more: methods of unexported types that R's API does not hand out (cling does not call methods promoted through an embedded field)",
		noCoveringFunction("ex/r", nil, []string{"(*t).A", "(*t).B", "(*t).C", "(*t).D", "(*t).E"}))
}
