package shard

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func genShard(plan string, shard int, pairs ...PairResult) Named {
	return Named{Name: "gen-" + string(rune('0'+shard)) + ".json", Results: &Results{Command: CommandGen, Plan: plan, Shard: shard, Shards: 3, Module: "m", Pairs: pairs}}
}

func genPair(caller, callee string, coupled, before, after, tests int, file string) PairResult {
	return PairResult{PairOutcome: PairOutcome{Pair: PairName(caller, callee), Caller: caller, Callee: callee, CoupledBranches: coupled,
		Gen: &GenResult{CoveredBefore: before, Covered: after - before, CoveredAfter: after, Tests: tests, File: file}}, Seconds: 2}
}

func TestMergeCombinesShardsAndCommands(t *testing.T) {
	failed := PairResult{PairOutcome: PairOutcome{Pair: "m/f:m/b", Caller: "m/f", Callee: "m/b", CoupledBranches: 4, Gen: &GenResult{CoveredBefore: 1, CoveredAfter: 1}}, Error: "no test to write"}
	files := []Named{
		genShard("p1", 2, genPair("m/c", "m/d", 60, 10, 50, 7, "c/cling_d_test.go"), failed),
		genShard("p1", 1, genPair("m/a", "m/b", 100, 20, 90, 12, "a/cling_b_test.go")),
		genShard("p1", 3, genPair("m/e", "m/b", 30, 0, 30, 3, "e/cling_b_test.go")),
		{Name: "mutate-1.json", Results: &Results{Command: CommandMutate, Plan: "p1", Shard: 1, Shards: 3, Module: "m", Pairs: []PairResult{
			{PairOutcome: PairOutcome{Pair: "m/a:m/b", Caller: "m/a", Callee: "m/b", CoupledBranches: 100,
				Mutate: &MutateResult{Mutants: 10, Killed: 6, Survived: 2, Timeout: 1, NotViable: 1, Score: 7.0 / 9}}, Seconds: 3},
		}}},
	}
	rep, err := Merge(files)
	require.NoError(t, err)
	assert.Equal(t, []string{"gen", "mutate"}, rep.Commands)
	assert.Equal(t, map[string][]int{"mutate": {2, 3}}, rep.Missing)
	assert.Equal(t, "mutate: shards 2, 3 of 3", rep.MissingText())
	var names []string
	for _, p := range rep.Pairs {
		names = append(names, p.Pair)
	}
	assert.Equal(t, []string{"m/a:m/b", "m/c:m/d", "m/e:m/b", "m/f:m/b"}, names)
	assert.Equal(t, 5.0, rep.Pairs[0].Seconds)
	assert.Equal(t, []string{"gen: no test to write"}, rep.Pairs[3].Failures)
	assert.Equal(t, Total{
		Pairs: 4, CoupledBranches: 194, Failures: 1,
		Gen:    &GenTotal{Pairs: 4, CoupledBranches: 194, CoveredBefore: 31, CoveredAfter: 171, Tests: 22, Files: 3},
		Mutate: &MutateTotal{Pairs: 1, Mutants: 10, Detected: 7, Viable: 9, Score: 7.0 / 9},
	}, rep.Total)

	var text bytes.Buffer
	rep.WriteText(&text)
	assert.Equal(t, `module m, plan p1 (3 shards): gen, mutate
PAIR   COUPLED  COVERED BEFORE → AFTER  TESTS WRITTEN  MUTANTS DETECTED  TIME  STATUS
a → b  100      20 → 90                 12             7/9 (77.8%)       5.0s  ok
c → d  60       10 → 50                 7                                2.0s  ok
e → b  30       0 → 30                  3                                2.0s  ok
f → b  4        1 → 1                   0                                0.0s  failed

4 pairs, 194 coupled branches, 1 failed
gen: coupled branches covered 31 → 171 of 194 (16.0% → 88.1%), 22 tests written in 3 files
mutate: 7 of 9 viable mutants detected (77.8%), 10 mutants in all

failures:
  m/f:m/b: gen: no test to write

missing results: mutate: shards 2, 3 of 3
`, text.String())

	var md bytes.Buffer
	rep.WriteMarkdown(&md)
	assert.Contains(t, md.String(), "| PAIR | COUPLED | COVERED BEFORE → AFTER | TESTS WRITTEN | MUTANTS DETECTED | TIME | STATUS |\n|---|---|---:|---:|---:|---:|---:|\n| a → b | 100 | 20 → 90 | 12 | 7/9 (77.8%) | 5.0s | ok |\n")
	assert.Contains(t, md.String(), "- **missing results**: mutate: shards 2, 3 of 3\n")

	dir := filepath.Join(t.TempDir(), "html")
	require.NoError(t, rep.WriteHTML(dir))
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), `<tr class="failed"><td>f → b</td>`)
	assert.Contains(t, string(page), "<li>m/f:m/b: gen: no test to write</li>")
}

func TestMergeRefusesMixedResults(t *testing.T) {
	one := genShard("p1", 1, genPair("m/a", "m/b", 10, 1, 2, 1, "a/cling_b_test.go"))
	for _, tc := range []struct {
		name  string
		files []Named
		want  string
	}{
		{"none", nil, "no results to merge"},
		{"another plan", []Named{one, genShard("p2", 2)}, "gen-1.json and gen-2.json are results of different plans (plan p1 and plan p2)"},
		{"outside a plan", []Named{one, {Name: "all.json", Results: &Results{Command: CommandGen, Module: "m"}}}, "gen-1.json and all.json are results of different plans (plan p1 and no plan)"},
		{"another module", []Named{one, {Name: "x.json", Results: &Results{Command: CommandGen, Plan: "p1", Shard: 2, Shards: 3, Module: "n"}}}, "gen-1.json and x.json are results for different modules (m and n)"},
		{"a shard twice", []Named{one, {Name: "again.json", Results: one.Results}}, "gen-1.json and again.json both hold shard 1 of the gen results"},
		{"a shard out of range", []Named{one, {Name: "x.json", Results: &Results{Command: CommandGen, Plan: "p1", Shard: 4, Shards: 3, Module: "m"}}}, "x.json claims shard 4 of 3 of plan p1, which has 3"},
		{"two runs outside a plan", []Named{{Name: "a.json", Results: &Results{Command: CommandCBC, Module: "m"}}, {Name: "b.json", Results: &Results{Command: CommandCBC, Module: "m"}}},
			"a.json and b.json are two cbc runs outside a plan: merge the shares of one plan"},
	} {
		_, err := Merge(tc.files)
		var se *Error
		require.True(t, errors.As(err, &se), tc.name)
		assert.Equal(t, tc.want, se.Msg, tc.name)
	}
}

func TestResultsFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results", "shard-1.json")
	want := genShard("p1", 1, genPair("m/a", "m/b", 10, 1, 2, 1, "a/cling_b_test.go")).Results
	require.NoError(t, WriteResults(path, want))
	got, err := ReadResults(path)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	bad := filepath.Join(t.TempDir(), "plan.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"include":[]}`), 0o644))
	_, err = ReadResults(bad)
	var se *Error
	require.True(t, errors.As(err, &se))
	assert.True(t, strings.HasPrefix(se.Msg, bad+" is not a results file of cling --json-out"), se.Msg)
}
