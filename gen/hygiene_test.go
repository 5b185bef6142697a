package gen

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// harmedBy fakes the runs of a package's own tests beside the file's: a
// victim fails in a run that holds every test of one of its harm sets.
func harmedBy(harm map[string][][]string, calls *int) runNamed {
	return func(_ context.Context, names []string, n int) (map[string]*testRuns, error) {
		*calls++
		runs := map[string]*testRuns{}
		for _, name := range names {
			r := &testRuns{passes: n}
			for _, set := range harm[name] {
				if !slices.ContainsFunc(set, func(w string) bool { return !slices.Contains(names, w) }) {
					r.fails, r.passes = n, 0
				}
			}
			runs[name] = r
		}
		return runs, nil
	}
}

// The file's tests a victim fails beside are found by halving: a single
// culprit, two on their own, a pair that harms only together, and none.
func TestBisectCulprits(t *testing.T) {
	file := []string{"T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8"}
	cases := []struct {
		name    string
		harm    map[string][][]string
		victims []string
		want    []string
	}{
		{"one", map[string][][]string{"Own": {{"T3"}}}, []string{"Own"}, []string{"T3"}},
		{"two", map[string][][]string{"Own": {{"T2"}, {"T7"}}}, []string{"Own"}, []string{"T2", "T7"}},
		{"two victims", map[string][][]string{"A": {{"T1"}}, "B": {{"T8"}}}, []string{"A", "B"}, []string{"T1", "T8"}},
		{"only together", map[string][][]string{"Own": {{"T2", "T6"}}}, []string{"Own"}, file},
		{"none", map[string][][]string{"Own": {{"T9"}}}, []string{"Own"}, nil},
	}
	for _, tc := range cases {
		calls := 0
		got, err := bisectCulprits(context.Background(), harmedBy(tc.harm, &calls), tc.victims, file, 1)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
		assert.LessOrEqual(t, calls, 2*len(file), tc.name)
	}
}

// The own tests run beside the file are those that passed alone, the
// quickest first while their times sum to the budget, in file order.
func TestQuickestPassing(t *testing.T) {
	ms := time.Millisecond
	runs := map[string]*testRuns{
		"TestSlow":   {passes: 1, elapsed: 900 * ms},
		"TestQuick":  {passes: 1, elapsed: 10 * ms},
		"TestFailed": {fails: 1, failures: []string{"x"}},
		"TestMid":    {passes: 1, elapsed: 300 * ms},
		"TestZero":   {passes: 1},
		"TestNotRun": {},
	}
	names := []string{"TestSlow", "TestQuick", "TestFailed", "TestMid", "TestZero", "TestNotRun", "TestUnknown"}
	cases := []struct {
		budget time.Duration
		want   []string
	}{
		{time.Hour, []string{"TestSlow", "TestQuick", "TestMid", "TestZero"}},
		{310 * ms, []string{"TestQuick", "TestMid", "TestZero"}},
		{309 * ms, []string{"TestQuick", "TestZero"}},
		{0, []string{"TestZero"}},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, quickestPassing(names, runs, tc.budget), "budget %v", tc.budget)
	}
}

// The runs alone of a caller's own tests serve the later pairs of the
// caller, which run only the tests not run before; another caller's
// tests are its own; nil remembers nothing.
func TestOwnTestRunsRunOnlyWhatIsNew(t *testing.T) {
	var asked [][]string
	run := func(names []string) (map[string]*testRuns, error) {
		asked = append(asked, names)
		runs := map[string]*testRuns{}
		for _, n := range names {
			runs[n] = &testRuns{passes: 1, elapsed: time.Duration(len(n))}
		}
		return runs, nil
	}
	var o OwnTestRuns
	first, err := o.runAlone("/r", []string{"TestA", "TestB"}, run)
	require.NoError(t, err)
	assert.Equal(t, map[string]*testRuns{"TestA": {passes: 1, elapsed: 5}, "TestB": {passes: 1, elapsed: 5}}, first)
	second, err := o.runAlone("/r", []string{"TestA", "TestB", "TestFromAFile"}, run)
	require.NoError(t, err)
	assert.Len(t, second, 3)
	_, err = o.runAlone("/other", []string{"TestA"}, run)
	require.NoError(t, err)
	var none *OwnTestRuns
	_, err = none.runAlone("/r", []string{"TestA"}, run)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"TestA", "TestB"}, {"TestFromAFile"}, {"TestA"}, {"TestA"}}, asked)
}
