package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the expected reports in testdata")

// storedRuns is a small results file (testdata/runs.jsonl): MOSA with
// union figures, its seed 1 in the format before variants, mosa+hmx and
// random, two measures, and runs of another budget and of an older cling
// that the report leaves out.
func storedRuns(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "runs.jsonl"))
	require.NoError(t, err)
	return string(data)
}

// storedReportOf renders the report of the results file runs with the
// arguments args after -report -store FILE -budget 1m, FILE shown as
// runs.jsonl.
func storedReportOf(t *testing.T, runs string, args ...string) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(runs), 0o644))
	args = append([]string{"-report", "-store", path, "-budget", "1m"}, args...)
	opt, err := parseFlags(args)
	require.NoError(t, err)
	opt.args = append([]string{"-report", "-store", "runs.jsonl", "-budget", "1m"}, args[5:]...)
	var out strings.Builder
	if err := storedReport(&out, opt); err != nil {
		return "", errors.New(strings.ReplaceAll(err.Error(), path, "runs.jsonl"))
	}
	return strings.ReplaceAll(out.String(), path, "runs.jsonl"), nil
}

// Every stored variant of the budget and the file's last cling, compared
// with mosa; old records read as variants of their algorithm.
func TestStoredReport(t *testing.T) {
	got, err := storedReportOf(t, storedRuns(t))
	require.NoError(t, err)
	golden := filepath.Join("testdata", "report.md")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run with -update to write %s", golden)
	assert.Equal(t, string(want), got)
}

// -variants selects stored variants, by name (and flags where given), in
// its order; -baseline chooses what they are compared with.
func TestStoredReportSelects(t *testing.T) {
	got, err := storedReportOf(t, storedRuns(t), "-variants", "mosa+hmx=--crossover=hmx,random", "-baseline", "random")
	require.NoError(t, err)
	for _, want := range []string{
		"## Effectiveness: mosa+hmx against random\n\n" +
			"- from the results file `runs.jsonl`: 5 runs with budget 1m0s on 1 pairs; cling abc1234\n" +
			"- mosa+hmx: `cling gen --caller R --callee E --algorithm=mosa --crossover=hmx`\n" +
			"- random (baseline): `cling gen --caller R --callee E --algorithm=random`\n" +
			"- command: `bench/effectiveness/run.sh -report -store runs.jsonl -budget 1m -variants 'mosa+hmx=--crossover=hmx,random' -baseline random`\n",
		"| pair | variant | runs | Â12 | p | result |\n|---|---|---:|---:|---:|---|\n" +
			"| m: r → e | mosa+hmx | 2 | 1.00 (large) | 0.3333 | tie |\n",
	} {
		assert.Contains(t, got, want)
	}

	_, err = storedReportOf(t, storedRuns(t), "-variants", "mosa+hmx=--crossover=spx")
	assert.EqualError(t, err, "runs.jsonl holds no run of variant mosa+hmx with budget 1m0s")
	twice := storedRuns(t) + `{"module":"example.com/m@v1.0.0","caller":"example.com/m/r","callee":"example.com/m/e","variant":"mosa+hmx","flags":"--algorithm=mosa --crossover=hmx --data-crossover=0.5","algorithm":"mosa","seed":1,"budget":"1m0s","cling":"abc1234","status":"ok","coupledBranches":10,"covered":8}` + "\n"
	_, err = storedReportOf(t, twice)
	assert.EqualError(t, err, "runs.jsonl holds runs of variant mosa+hmx with different flags ('--algorithm=mosa --crossover=hmx --data-crossover=0.5', '--algorithm=mosa --crossover=hmx'): choose one with -variants mosa+hmx=FLAGS")
	got, err = storedReportOf(t, twice, "-variants", "mosa+hmx=--crossover=hmx")
	require.NoError(t, err)
	assert.Contains(t, got, "## Effectiveness: mosa+hmx\n\n- from the results file `runs.jsonl`: 3 runs with budget 1m0s on 1 pairs; cling abc1234\n")
	assert.NotContains(t, got, "### Against")
}
