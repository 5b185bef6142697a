package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ciEnv is the environment of cling ci in the tests: git with a fixed
// identity, no user configuration and no repository above the temporary
// directory, outside GitHub Actions unless a test says otherwise (later
// entries win).
func ciEnv(extra ...string) []string {
	env := append(fixture.GitEnv(), "GITHUB_ACTIONS=", "GITHUB_BASE_REF=", "GITHUB_STEP_SUMMARY=", "CLING_DEBUG=",
		"GIT_CEILING_DIRECTORIES="+os.TempDir())
	return append(env, extra...)
}

// shopHistory copies the shop fixture into a git repository whose branch
// base holds it, applies change and commits it on main.
func shopHistory(t *testing.T, change func(dir string)) string {
	t.Helper()
	dir := fixture.Copy(t, "shop")
	fixture.GitRepo(t, dir)
	change(dir)
	fixture.Commit(t, dir, "change")
	return dir
}

// changePrice changes the line check and an error of (*Engine).Price.
func changePrice(t *testing.T) func(dir string) {
	return func(dir string) {
		fixture.Edit(t, dir, "pricing/engine.go", `if l.SKU == "" || l.Qty <= 0 {`, `if l.SKU == "" || l.Qty < 1 {`)
		fixture.Edit(t, dir, "pricing/engine.go", `"%w: line %d: sku %q qty %d"`, `"%w: line %d: sku %q, qty %d"`)
	}
}

// ciJSON is what the tests read of cling ci --json.
type ciJSON struct {
	Base    string `json:"base"`
	Changed []struct {
		File  string `json:"file"`
		Lines []int  `json:"lines"`
	} `json:"changed"`
	Pairs []struct {
		Caller              string   `json:"caller"`
		Callee              string   `json:"callee"`
		Changed             []string `json:"changed"`
		Skipped             string   `json:"skipped"`
		CoupledBranches     int      `json:"coupledBranches"`
		Covered             int      `json:"covered"`
		DiffCoupledBranches int      `json:"diffCoupledBranches"`
		DiffCovered         int      `json:"diffCovered"`
		DiffCBC             *float64 `json:"diffCBC"`
		Tests               int      `json:"tests"`
		Diff                []struct {
			CallSite     string   `json:"callSite"`
			CallerTarget string   `json:"callerTarget"`
			CalleeTarget string   `json:"calleeTarget"`
			Changed      []string `json:"changed"`
			Covered      bool     `json:"covered"`
			Generated    bool     `json:"generated"`
		} `json:"diff"`
		Mutants []struct {
			ID       int    `json:"id"`
			Operator string `json:"operator"`
			Pos      string `json:"pos"`
			Status   string `json:"status"`
		} `json:"mutants"`
		DiffScore *float64 `json:"diffScore"`
		Gen       *struct {
			TestFile             string `json:"testFile"`
			Tests                int    `json:"tests"`
			AddedCoupledBranches int    `json:"addedCoupledBranches"`
			Error                string `json:"error"`
			Skipped              string `json:"skipped"`
		} `json:"gen"`
	} `json:"pairs"`
	Failures []string `json:"failures"`
	Findings []struct {
		Rule string `json:"rule"`
		File string `json:"file"`
		Line int    `json:"line"`
		Col  int    `json:"col"`
	} `json:"findings"`
	Passed bool `json:"passed"`
}

func decodeCI(t *testing.T, stdout string) ciJSON {
	t.Helper()
	var rep ciJSON
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep), stdout)
	return rep
}

// A change of one function of E, judged in GitHub Actions with JSON and
// SARIF output.
func TestCIChangeOfCallee(t *testing.T) {
	t.Parallel()
	dir := shopHistory(t, changePrice(t))
	before := fixture.Snapshot(t, dir)
	out := t.TempDir()
	summary, sarif := filepath.Join(out, "summary.md"), filepath.Join(out, "cling.sarif")
	r := runClingEnv(t, dir, ciEnv("GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY="+summary, "GITHUB_BASE_REF=base"),
		"ci", "--json", "--sarif", sarif)
	require.Equal(t, 0, r.code, r.stderr)
	rep := decodeCI(t, r.stdout)
	assert.Equal(t, "base", rep.Base, "the base comes from GITHUB_BASE_REF")
	require.Len(t, rep.Changed, 1)
	assert.Equal(t, "pricing/engine.go", rep.Changed[0].File)
	assert.Equal(t, []int{71, 72}, rep.Changed[0].Lines)
	assert.True(t, rep.Passed)
	assert.Empty(t, rep.Failures)

	require.Len(t, rep.Pairs, 2)
	pm, cp := rep.Pairs[0], rep.Pairs[1]
	assert.Equal(t, []string{"example.com/shop/pricing", "example.com/shop/money"}, []string{pm.Caller, pm.Callee})
	assert.Equal(t, []string{"caller"}, pm.Changed)
	assert.Equal(t, 0, pm.DiffCoupledBranches)
	assert.Nil(t, pm.DiffCBC)
	assert.Empty(t, pm.Mutants)

	assert.Equal(t, []string{"example.com/shop/checkout", "example.com/shop/pricing"}, []string{cp.Caller, cp.Callee})
	assert.Equal(t, []string{"callee"}, cp.Changed)
	// The same numbers as cling cbc (see the README).
	assert.Equal(t, 50, cp.CoupledBranches)
	assert.Equal(t, 22, cp.Covered)
	assert.Equal(t, 5, cp.Tests)
	var diff []string
	for _, d := range cp.Diff {
		mark := " "
		if d.Covered {
			mark = "✓"
		}
		diff = append(diff, mark+" "+d.CallSite+" "+d.CallerTarget+" -> "+d.CalleeTarget+" "+strings.Join(d.Changed, ","))
	}
	assert.Equal(t, []string{
		"  checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:6:true calleeTarget",
		"✓ checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:6:false calleeTarget",
		"  checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:21:true calleeTarget",
		"✓ checkout/checkout.go:158:23 checkout/checkout.go:141:2:false -> pricing/engine.go:71:21:false calleeTarget",
	}, diff)
	assert.Equal(t, 4, cp.DiffCoupledBranches)
	assert.Equal(t, 2, cp.DiffCovered)
	require.Len(t, cp.Mutants, 1)
	m := cp.Mutants[0]
	assert.Equal(t, []string{"RetStaRep", "pricing/engine.go:72:20", "not-covered"}, []string{m.Operator, m.Pos, m.Status})
	require.NotNil(t, cp.DiffScore)
	assert.Equal(t, 0.0, *cp.DiffScore)

	var findings []string
	for _, f := range rep.Findings {
		findings = append(findings, f.Rule+" "+f.File+":"+strconv.Itoa(f.Line)+":"+strconv.Itoa(f.Col))
	}
	assert.Equal(t, []string{
		"uncovered-coupled-branch pricing/engine.go:71:6",
		"uncovered-coupled-branch pricing/engine.go:71:21",
		"undetected-mutant pricing/engine.go:72:20",
	}, findings)

	// With --json the annotations go to stderr: one per line of findings.
	const branch = "coupled branch not covered by the tests of example.com/shop/checkout: pricing/engine.go:71:%d:true " +
		"in the call of (*Engine).Price at checkout/checkout.go:158:23, after checkout/checkout.go:141:2:false " +
		"(pair example.com/shop/checkout -> example.com/shop/pricing)"
	assert.Equal(t, "::warning file=pricing/engine.go,line=71,col=6,title=cling%3A uncovered coupled branch::2 findings on this line: "+
		fmt.Sprintf(branch, 6)+"; "+fmt.Sprintf(branch, 21)+"\n"+
		"::warning file=pricing/engine.go,line=72,col=20,title=cling%3A undetected mutant::mutant #6 (RetStaRep) is not covered: "+
		`no test reaches it: (*Engine).Price returns errors.New("cling: mutant") for nil, nil for a non-nil error (result 2 of 2) `+
		"(pair example.com/shop/checkout -> example.com/shop/pricing)\n", r.stderr)

	md, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(md), "## cling ci: passed\n"), string(md))
	assert.Contains(t, string(md), "| `example.com/shop/checkout` | `example.com/shop/pricing` | callee | 22/50 (44.0%) | 2/4 (50.0%) | 0/1 detected | 0.0% |\n")

	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool    struct{ Driver struct{ Name string } }
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct{ StartLine int }
					} `json:"physicalLocation"`
				}
			}
		}
	}
	b, err := os.ReadFile(sarif)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &log))
	assert.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	assert.Equal(t, "cling", log.Runs[0].Tool.Driver.Name)
	var results []string
	for _, res := range log.Runs[0].Results {
		l := res.Locations[0].PhysicalLocation
		results = append(results, res.RuleID+" "+l.ArtifactLocation.URI+":"+strconv.Itoa(l.Region.StartLine))
	}
	assert.Equal(t, []string{
		"uncovered-coupled-branch pricing/engine.go:71",
		"uncovered-coupled-branch pricing/engine.go:71",
		"undetected-mutant pricing/engine.go:72",
	}, results)

	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "cling changed the repository")

	t.Run("thresholds", func(t *testing.T) {
		r := runClingEnv(t, dir, ciEnv(), "ci", "--base", "base", "--min-diff-cbc", "0.8", "--min-diff-score", "0.5", "--max-annotations", "1")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "\n\ngate failed:\n"+
			"  example.com/shop/checkout -> example.com/shop/pricing: diff CBC 50.0% is below --min-diff-cbc 80.0%\n"+
			"  example.com/shop/checkout -> example.com/shop/pricing: diff mutation score 0.0% is below --min-diff-score 50.0%\n")
		assert.NotContains(t, r.stdout, "::", "no annotations outside GitHub Actions")
		assert.Equal(t, "cling: the gate failed: example.com/shop/checkout -> example.com/shop/pricing: diff CBC 50.0% is below --min-diff-cbc 80.0% (and 1 more)\n", r.stderr)

		r = runClingEnv(t, dir, ciEnv(), "ci", "--base", "base", "--min-diff-cbc", "0.5", "--min-cbc", "0.4")
		assert.Equal(t, 0, r.code, r.stderr)
		assert.Contains(t, r.stdout, "\n\ngate passed\n")
	})

	t.Run("annotations over the limit", func(t *testing.T) {
		r := runClingEnv(t, dir, ciEnv("GITHUB_ACTIONS=true"), "ci", "--base", "base", "--max-annotations", "1")
		assert.Equal(t, 0, r.code, r.stderr)
		var annotations []string
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, "::") {
				annotations = append(annotations, l)
			}
		}
		require.Len(t, annotations, 2, r.stdout)
		assert.True(t, strings.HasPrefix(annotations[0], "::warning file=pricing/engine.go,line=71,"), annotations[0])
		assert.Equal(t, "::warning title=cling ci::1 more finding not annotated (--max-annotations 1); the job summary and the JSON report list them all", annotations[1])
	})

	t.Run("budget", func(t *testing.T) {
		r := runClingEnv(t, dir, ciEnv(), "ci", "--base", "base", "--budget", "1ns", "--min-diff-cbc", "1", "--json")
		assert.Equal(t, 0, r.code, r.stderr)
		rep := decodeCI(t, r.stdout)
		require.Len(t, rep.Pairs, 2)
		for _, p := range rep.Pairs {
			assert.Equal(t, "over the --budget of 1ns", p.Skipped)
		}
		assert.True(t, rep.Passed, "skipped pairs are not judged")
	})
}

// Changes that touch no pair: a README, and a package in no pair.
func TestCIUnrelatedChanges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(dir string)
	}{
		{"README", func(dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("# shop\n"), 0o644))
		}},
		{"package in no pair", func(dir string) {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "extra"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "extra", "extra.go"), []byte("package extra\n\nfunc Sign(n int) int {\n\tif n > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"), 0o644))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := shopHistory(t, tc.change)
			r := runClingEnv(t, dir, ciEnv(), "ci", "--base", "base", "--min-diff-cbc", "1")
			assert.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			assert.Contains(t, r.stdout, "\nno affected pairs\n\ngate passed\n")
		})
	}
}

// cling gen writes tests for the pair whose tests miss a diff coupled
// branch, and the report says what they add.
func TestCIGen(t *testing.T) {
	t.Parallel()
	dir := shopHistory(t, func(dir string) {
		fixture.Edit(t, dir, "pricing/engine.go", "if best > sub.Cents() {", "if best >= sub.Cents() {")
	})
	before := fixture.Snapshot(t, dir)
	// An evaluation budget, so that what the search finds does not depend
	// on the machine's speed.
	r := runClingEnv(t, dir, ciEnv(), "ci", "--base", "base", "--gen", "10m", "--gen-max-evals", "15000", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	rep := decodeCI(t, r.stdout)
	require.Len(t, rep.Pairs, 2)
	assert.Nil(t, rep.Pairs[0].Gen, "pricing -> money misses nothing in the diff")
	cp := rep.Pairs[1]
	assert.Equal(t, "example.com/shop/checkout", cp.Caller)
	require.NotNil(t, cp.Gen)
	assert.Empty(t, cp.Gen.Error)
	assert.Equal(t, "checkout/cling_pricing_test.go", cp.Gen.TestFile)
	assert.Positive(t, cp.Gen.Tests)
	// The diff: both outcomes of best >= sub.Cents(); the existing tests
	// never have a discount as large as the subtotal.
	require.Len(t, cp.Diff, 2)
	assert.Equal(t, "pricing/engine.go:108:5:true", cp.Diff[0].CalleeTarget)
	assert.False(t, cp.Diff[0].Covered)
	assert.True(t, cp.Diff[1].Covered)
	generated := 0
	for _, d := range cp.Diff {
		if d.Generated {
			generated++
		}
	}
	assert.Equal(t, cp.Gen.AddedCoupledBranches, generated)
	// A zero-priced line is what the search finds first.
	assert.Equal(t, 1, cp.Gen.AddedCoupledBranches)
	diff := fstree.Diff(before, fixture.Snapshot(t, dir))
	assert.Equal(t, []string{"checkout/cling_pricing_test.go"}, diff, "only the generated file is new")
}

// Bad input: a one-line error and exit status 1 (2 for usage mistakes).
func TestCIBadInput(t *testing.T) {
	t.Parallel()
	typeError := shopHistory(t, func(dir string) {
		fixture.Edit(t, dir, "pricing/engine.go", "best := int64(0)", `best := "0"`)
	})
	good := shopHistory(t, changePrice(t))
	shallow := filepath.Join(t.TempDir(), "shallow")
	fixture.Git(t, good, "clone", "-q", "--depth", "1", "--no-single-branch", "file://"+good, shallow)
	notRepo := fixture.Copy(t, "shop")
	cases := []struct {
		name string
		dir  string
		args []string
		code int
		msg  string
	}{
		{"not a git repository", notRepo, nil, 1, " is not in a git repository"},
		{"missing base", good, []string{"--base", "origin/release"}, 1, "base origin/release not found: fetch it first (git fetch origin release; in GitHub Actions, actions/checkout with fetch-depth: 0)"},
		{"default base missing", good, nil, 1, "base origin/main not found"},
		{"shallow clone", shallow, []string{"--base", "base"}, 1, "no merge base of origin/base and HEAD in this shallow clone"},
		{"change does not type-check", typeError, []string{"--base", "base"}, 1, "package example.com/shop/pricing has errors: "},
		{"threshold out of range", good, []string{"--base", "base", "--min-diff-cbc", "80"}, 2, "--min-diff-cbc must be between 0 and 1 (got 80)"},
		{"negative budget", good, []string{"--base", "base", "--budget", "-1s"}, 2, "must not be negative"},
		{"negative evaluations", good, []string{"--base", "base", "--gen", "1s", "--gen-max-evals", "-5"}, 2, "must not be negative"},
		{"evaluations without gen", good, []string{"--base", "base", "--gen-max-evals", "500"}, 2, "--gen-max-evals bounds the searches of --gen: give --gen BUDGET too"},
		{"unknown operator", good, []string{"--base", "base", "-o", "bogus"}, 2, `unknown operator "bogus"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runClingEnv(t, tc.dir, ciEnv(), append([]string{"ci"}, tc.args...)...)
			assert.Equal(t, tc.code, r.code, "stderr: %s", r.stderr)
			assert.Empty(t, r.stdout)
			assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "want a one-line error, got %q", r.stderr)
			assert.True(t, strings.HasPrefix(r.stderr, "cling: "), r.stderr)
			assert.Contains(t, r.stderr, tc.msg)
		})
	}
}
