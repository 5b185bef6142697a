package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cling-go/cling/batch"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/shard"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libraryPairs are the seven pairs of testdata/library, most coupled
// first.
var libraryPairs = []string{
	"example.com/library/catalog:example.com/library/text",
	"example.com/library/loans:example.com/library/text",
	"example.com/library/loans:example.com/library/catalog",
	"example.com/library/report:example.com/library/loans",
	"example.com/library/catalog:example.com/library/num",
	"example.com/library/loans:example.com/library/num",
	"example.com/library/report:example.com/library/text",
}

// genBudget makes the runs over library deterministic and short.
var genBudget = []string{"--max-evals", "300", "--seed", "5", "--workers", "2"}

func readResults(t *testing.T, path string) *shard.Results {
	t.Helper()
	r, err := shard.ReadResults(path)
	require.NoError(t, err)
	return r
}

// deterministic drops the times from a pair's results.
func deterministic(p shard.PairResult) shard.PairResult {
	p.Seconds = 0
	if p.Gen != nil {
		g := *p.Gen
		g.SearchSeconds = 0
		g.Stages = shard.GenStages{}
		p.Gen = &g
	}
	return p
}

// generatedFiles reads the files cling wrote into a copy of a module.
func generatedFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "cling_*_test.go"))
	require.NoError(t, err)
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, f)
		out[filepath.ToSlash(rel)] = string(b)
	}
	return out
}

// cling gen over every pair writes one passing file per pair; three
// shards of a plan, run as separate processes in separate copies of the
// module, write the same files and, merged, give the same results.
func TestGenAllPairsAndShards(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	dir := fixture.Copy(t, "library")
	before := fixture.Snapshot(t, dir)
	all := filepath.Join(out, "all.json")
	r := runCling(t, dir, append([]string{"gen", "--json-out", all}, genBudget...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "PAIR             COUPLED  COVERED BEFORE → AFTER  TESTS WRITTEN  TIME")
	assert.Contains(t, r.stdout, "\n7 pairs, 44 coupled branches, 0 failed\n")
	single := readResults(t, all)
	assert.Equal(t, "gen", single.Command)
	assert.Equal(t, "", single.Plan)
	var names, files []string
	for _, p := range single.Pairs {
		names = append(names, p.Pair)
		require.Empty(t, p.Error, p.Pair)
		require.NotNil(t, p.Gen, p.Pair)
		assert.Positive(t, p.Gen.Tests, p.Pair)
		assert.GreaterOrEqual(t, p.Gen.CoveredAfter, p.Gen.CoveredBefore, p.Pair)
		assert.Equal(t, 300, p.Gen.MaxEvals, p.Pair)
		files = append(files, p.Gen.File)
	}
	assert.Equal(t, libraryPairs, names)
	assert.ElementsMatch(t, []string{
		"catalog/cling_text_test.go", "loans/cling_text_test.go", "loans/cling_catalog_test.go", "report/cling_loans_test.go",
		"catalog/cling_num_test.go", "loans/cling_num_test.go", "report/cling_text_test.go",
	}, files)
	// Catalog's hand-written test covers some of catalog -> text; report
	// has no tests of its own.
	assert.Equal(t, 6, single.Pairs[0].Gen.CoveredBefore)
	assert.Equal(t, 0, single.Pairs[6].Gen.CoveredBefore)
	assert.Equal(t, "no tests to run in example.com/library/report", single.Pairs[6].Gen.BeforeError)
	// Nothing but the files changed, and they pass.
	diff := fstree.Diff(before, fixture.Snapshot(t, dir))
	assert.ElementsMatch(t, files, diff)
	cmd := exec.Command("go", "test", "-count=2", "./...")
	cmd.Dir = dir
	goOut, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", goOut)
	want := generatedFiles(t, dir)

	// The plan, made in a fresh copy.
	planDir := fixture.Copy(t, "library")
	r = runCling(t, planDir, "plan", "--shards", "3", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	planFile := filepath.Join(out, "plan.json")
	require.NoError(t, os.WriteFile(planFile, []byte(r.stdout), 0o644))
	var matrix struct {
		Include []struct {
			Shard int      `json:"shard"`
			Pairs []string `json:"pairs"`
		} `json:"include"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &matrix))
	require.Len(t, matrix.Include, 3)
	var shardFiles []string
	got := map[string]string{}
	for i, e := range matrix.Include {
		assert.Equal(t, i+1, e.Shard)
		assert.NotEmpty(t, e.Pairs, "shard %d", e.Shard)
		shardDir := fixture.Copy(t, "library")
		res := filepath.Join(out, "results", "shard-"+string(rune('1'+i))+".json")
		r := runCling(t, shardDir, append([]string{"gen", "--plan", planFile, "--shard", string(rune('1' + i)), "--json-out", res}, genBudget...)...)
		require.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "shard "+string(rune('1'+i))+" of 3 took ")
		shardFiles = append(shardFiles, res)
		for f, src := range generatedFiles(t, shardDir) {
			got[f] = src
		}
	}
	assert.Equal(t, want, got, "the shards write the files of the single run")

	r = runCling(t, dir, append([]string{"merge", "--json"}, shardFiles...)...)
	require.Equal(t, 0, r.code, r.stderr)
	var merged shard.Report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &merged))
	assert.Empty(t, merged.Missing)
	require.Len(t, merged.Pairs, len(single.Pairs))
	byPair := map[string]shard.PairResult{}
	for _, p := range single.Pairs {
		byPair[p.Pair] = deterministic(p)
	}
	for _, mp := range merged.Pairs {
		want := byPair[mp.Pair]
		got := deterministic(shard.PairResult{PairOutcome: mp.PairOutcome})
		assert.Equal(t, want, got, mp.Pair)
	}
	assert.Equal(t, 44, merged.Total.CoupledBranches)

	// A shard index out of range, a plan of another version.
	r = runCling(t, planDir, "gen", "--plan", planFile, "--shard", "4")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "cling: --shard 4 is out of range: the plan has shards 1 to 3\n", r.stderr)
	fixture.Edit(t, planDir, "num/num.go", "return lo", "return lo + 0")
	r = runCling(t, planDir, "cbc", "--plan", planFile, "--shard", "1")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "cling: "+planFile+" was made for another version of example.com/library (its Go files, go.mod or go.sum differ): make the plan again\n", r.stderr)
}

// Plans and results that do not belong: one line, exit status 2.
func TestPlanAndMergeRefuseForeignInput(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	shop := fixture.Copy(t, "shop")
	r := runCling(t, shop, "plan", "--shards", "2", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	shopPlan := filepath.Join(out, "shop-plan.json")
	require.NoError(t, os.WriteFile(shopPlan, []byte(r.stdout), 0o644))

	lib := fixture.Copy(t, "library")
	r = runCling(t, lib, "mutate", "--plan", shopPlan, "--shard", "1")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "cling: "+shopPlan+" is a plan for module example.com/shop, not for example.com/library\n", r.stderr)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--shard", "1"}, "cling: --shard needs --plan\n"},
		{[]string{"gen", "--plan", shopPlan}, "cling: --plan needs --shard I (1 to 2)\n"},
		{[]string{"gen", "--plan", shopPlan, "--shard", "0"}, "cling: --shard 0 is out of range: the plan has shards 1 to 2\n"},
		{[]string{"gen", "--plan", shopPlan, "--shard", "1", "./..."}, "cling: --plan takes the packages from the plan: leave out \"./...\"\n"},
		{[]string{"gen", "--caller", "./loans", "--callee", "./num", "--plan", shopPlan}, "cling: --plan works over several pairs: leave out --caller and --callee\n"},
		{[]string{"gen", "--out", "x_test.go"}, "cling: --out works for one pair (--caller and --callee)\n"},
		{[]string{"gen", "--budget", "1m", "--budget-per-pair", "5s"}, "cling: give --budget (the total) or --budget-per-pair, not both\n"},
		{[]string{"gen", "--pair", "./text:./num", "--max-evals", "10"}, "cling: --pair example.com/library/text:example.com/library/num: no such pair with coupled branches among the callers of ./...\n"},
		{[]string{"plan"}, "cling: missing --shards: say into how many shards to split the pairs\n"},
		{[]string{"plan", "--shards", "0"}, "cling: --shards must be at least 1 (got 0)\n"},
		{[]string{"merge"}, "cling: name the results files to merge (written by --json-out)\n"},
		{[]string{"merge", shopPlan}, "cling: " + shopPlan + " is not a results file of cling --json-out (command \"\")\n"},
	} {
		r := runCling(t, lib, tc.args...)
		assert.Equal(t, 2, r.code, "%v: %s", tc.args, r.stderr)
		assert.Equal(t, tc.want, r.stderr, "%v", tc.args)
	}

	// Results of two plans, and a missing shard.
	write := func(name string, res *shard.Results) string {
		path := filepath.Join(out, name)
		require.NoError(t, shard.WriteResults(path, res))
		return path
	}
	a := write("a.json", &shard.Results{Command: "cbc", Plan: "aaaa", Shard: 1, Shards: 2, Module: "example.com/library", Pairs: []shard.PairResult{}})
	b := write("b.json", &shard.Results{Command: "cbc", Plan: "bbbb", Shard: 2, Shards: 2, Module: "example.com/library", Pairs: []shard.PairResult{}})
	r = runCling(t, lib, "merge", a, b)
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "cling: "+a+" and "+b+" are results of different plans (plan aaaa and plan bbbb)\n", r.stderr)
	r = runCling(t, lib, "merge", a)
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "cling: results are missing: cbc: shard 2 of 2\n", r.stderr)
	assert.Contains(t, r.stdout, "missing results: cbc: shard 2 of 2\n")
}

// cbc and mutate over several pairs measure each pair as they do one
// pair, and their results merge with those of gen.
func TestCBCAndMutateOverSeveralPairs(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	dir := fixture.Copy(t, "library")
	cbcOut := filepath.Join(out, "cbc.json")
	r := runCling(t, dir, "cbc", "--json", "--json-out", cbcOut, "./catalog", "./loans")
	require.Equal(t, 1, r.code, "loans has no tests: %s", r.stderr)
	assert.Equal(t, "cling: 3 of 5 pairs failed\n", r.stderr)
	var res shard.Results
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &res))
	assert.Equal(t, readResults(t, cbcOut), &res)
	require.Len(t, res.Pairs, 5)
	one := cbcRun(t, dir, "--caller", "./catalog", "--callee", "./text")
	for _, p := range res.Pairs {
		switch p.Pair {
		case "example.com/library/catalog:example.com/library/text":
			require.NotNil(t, p.CBC)
			assert.Equal(t, one.Covered, p.CBC.Covered)
			assert.Equal(t, 6, p.CBC.Covered)
			assert.Empty(t, p.Error)
		case "example.com/library/loans:example.com/library/text":
			assert.Equal(t, "no tests to run in example.com/library/loans", p.Error)
		}
	}

	mutOut := filepath.Join(out, "mutate.json")
	r = runCling(t, dir, "mutate", "--pair", "./catalog:./num", "--pair", "./catalog:./text", "--json-out", mutOut)
	require.Equal(t, 0, r.code, r.stderr)
	mut := readResults(t, mutOut)
	require.Len(t, mut.Pairs, 2)
	for _, p := range mut.Pairs {
		require.NotNil(t, p.Mutate, p.Pair)
		assert.Positive(t, p.Mutate.Mutants, p.Pair)
	}
	r = runCling(t, dir, "merge", "--markdown", cbcOut, mutOut)
	assert.Equal(t, 1, r.code, "the pairs without tests failed in cbc")
	assert.Contains(t, r.stdout, "| PAIR | COUPLED | COVERED | MUTANTS DETECTED | TIME | STATUS |")
}

// gen over several pairs takes every flag of gen for one pair: a pair's
// file is the one gen --caller R --callee E writes with the seed the run
// gives the pair, and --json with --cost-runs measures each written suite.
func TestGenPairsTakeTheSinglePairFlags(t *testing.T) {
	t.Parallel()
	flags := []string{"--max-evals", "200", "--workers", "2", "--crossover", "single-point", "--secondary", "performance", "--population", "20"}
	const caller, callee = "example.com/library/catalog", "example.com/library/num"
	dir := fixture.Copy(t, "library")
	r := runCling(t, dir, append([]string{"gen", "--pair", "./catalog:./num", "--seed", "7", "--json", "--cost-runs", "1"}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	var res shard.Results
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &res))
	require.Len(t, res.Pairs, 1)
	g := res.Pairs[0].Gen
	require.NotNil(t, g)
	assert.Equal(t, batch.Seed(7, caller, callee), g.Seed)
	require.NotNil(t, g.SuiteCost, g.SuiteCostError)
	assert.Equal(t, 1, g.SuiteCost.Processes)

	one := fixture.Copy(t, "library")
	r = runCling(t, one, append([]string{"gen", "--caller", "./catalog", "--callee", "./num", "--seed", strconv.FormatInt(g.Seed, 10)}, flags...)...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, generatedFiles(t, one), generatedFiles(t, dir))
}
