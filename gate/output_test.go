package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/mutate/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr(v float64) *float64 { return &v }

// sampleReport is a failed gate with one measured pair (diff coupled
// branches, mutants, cling gen) and one skipped pair.
func sampleReport() *Report {
	counts := map[mutate.Status]int{mutate.Killed: 1, mutate.Survived: 1, mutate.NotCovered: 0, mutate.Timeout: 0, mutate.NotViable: 0}
	return &Report{
		Base: "origin/main", MergeBase: "0123456789abcdef0123", Head: "fedcba9876543210fedc", Worktree: true,
		Changed: []ChangedFile{{File: "README.md", Lines: []int{1}}, {File: "pricing/engine.go", Lines: []int{71, 72}}},
		Pairs: []*PairReport{
			{
				Caller: "example.com/shop/checkout", Callee: "example.com/shop/pricing", Changed: []string{ChangedCallee},
				CoupledBranches: 50, Covered: 22, CBC: ptr(0.44), DiffCoupledBranches: 2, DiffCovered: 1, DiffCBC: ptr(0.5), Tests: 5,
				FailedTests: []string{},
				Diff: []DiffBranch{
					{CallSite: "checkout/checkout.go:158:23", CallerTarget: "checkout/checkout.go:141:2:false", CalleeTarget: "pricing/engine.go:71:6:true",
						Changed: []string{PartCalleeTarget}, Generated: true},
					{CallSite: "checkout/checkout.go:158:23", CallerTarget: "checkout/checkout.go:141:2:false", CalleeTarget: "pricing/engine.go:71:6:false",
						Changed: []string{PartCalleeTarget}, Covered: true},
				},
				Mutants: []report.Mutant{
					{ID: 5, Operator: mutate.RetStaRep, Pos: "pricing/engine.go:72:10", Description: "returns a zero Quote", Status: mutate.Killed, KilledBy: []string{"t"}, Tests: 1},
					{ID: 6, Operator: mutate.RetStaRep, Pos: "pricing/engine.go:72:20", Description: "returns nil for a non-nil error", Status: mutate.Survived, KilledBy: []string{}, Tests: 2},
				},
				MutantCounts: counts, DiffScore: ptr(0.5),
				Gen: &GenReport{TestFile: "checkout/cling_pricing_test.go", Tests: 3, BudgetSeconds: 10, AddedCoupledBranches: 1,
					AddedMutants: []int{6}, DiffCBC: ptr(1), DiffScore: ptr(1)},
			},
			{Caller: "example.com/shop/pricing", Callee: "example.com/shop/money", Changed: []string{ChangedCaller},
				Skipped: "over the --budget of 1s", FailedTests: []string{}, Diff: []DiffBranch{}, Mutants: []report.Mutant{}},
		},
		Thresholds: Thresholds{MinDiffCBC: 0.8},
		Failures:   []string{"example.com/shop/checkout -> example.com/shop/pricing: diff CBC 50.0% is below --min-diff-cbc 80.0%"},
		Findings: []Finding{
			{Rule: RuleUncoveredBranch, File: "pricing/engine.go", Line: 71, Col: 6, Message: "branch 71:6:true, 100%"},
			{Rule: RuleUncoveredBranch, File: "pricing/engine.go", Line: 71, Col: 21, Message: "branch 71:21:true"},
			{Rule: RuleUndetectedMutant, File: "pricing/engine.go", Line: 72, Col: 20, Message: "mutant #6\nsurvives"},
		},
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	WriteText(&b, sampleReport())
	want := `change from origin/main (merge base 0123456789ab) to the work tree at HEAD fedcba987654: 1 Go file (2 lines), 1 other file

CALLER                     CALLEE                    CHANGED  CBC            DIFF CBC     DIFF MUTANTS  DIFF SCORE
example.com/shop/checkout  example.com/shop/pricing  callee   22/50 (44.0%)  1/2 (50.0%)  1/2 detected  50.0%
example.com/shop/pricing   example.com/shop/money    caller   skipped        -            -             -

example.com/shop/checkout -> example.com/shop/pricing
  1 diff coupled branch not covered (call site, caller target -> callee target):
    checkout/checkout.go:158:23  checkout/checkout.go:141:2:false -> pricing/engine.go:71:6:true  (covered by the generated tests)
  1 mutant on changed lines not detected:
    #6 RetStaRep pricing/engine.go:72:20 survived: returns nil for a non-nil error
  cling gen: wrote checkout/cling_pricing_test.go (3 tests): +1 diff coupled branches covered (diff CBC 100.0%), +1 mutants detected (#6) (diff score 100.0%)

example.com/shop/pricing -> example.com/shop/money
  skipped: over the --budget of 1s

gate failed; 1 pair skipped, not judged:
  example.com/shop/checkout -> example.com/shop/pricing: diff CBC 50.0% is below --min-diff-cbc 80.0%
`
	assert.Equal(t, want, b.String())
}

func TestWriteTextNoPairs(t *testing.T) {
	var b bytes.Buffer
	WriteText(&b, &Report{Base: "base", MergeBase: "0123", Head: "4567", Changed: []ChangedFile{{File: "README.md", Lines: []int{3}}}, Passed: true})
	assert.Equal(t, "change from base (merge base 0123) to HEAD 4567: 0 Go files (0 lines), 1 other file\nno affected pairs\n\ngate passed (no threshold set)\n", b.String())
}

func TestWriteAnnotations(t *testing.T) {
	var b bytes.Buffer
	WriteAnnotations(&b, sampleReport(), 20)
	want := `::error title=cling ci::example.com/shop/checkout -> example.com/shop/pricing: diff CBC 50.0%25 is below --min-diff-cbc 80.0%25
::warning file=pricing/engine.go,line=71,col=6,title=cling%3A uncovered coupled branch::2 findings on this line: branch 71:6:true, 100%25; branch 71:21:true
::warning file=pricing/engine.go,line=72,col=20,title=cling%3A undetected mutant::mutant #6%0Asurvives
`
	assert.Equal(t, want, b.String())

	// Over the limit, the rest is counted.
	b.Reset()
	rep := sampleReport()
	rep.Failures = nil
	WriteAnnotations(&b, rep, 1)
	want = `::warning file=pricing/engine.go,line=71,col=6,title=cling%3A uncovered coupled branch::2 findings on this line: branch 71:6:true, 100%25; branch 71:21:true
::warning title=cling ci::1 more finding not annotated (--max-annotations 1); the job summary and the JSON report list them all
`
	assert.Equal(t, want, b.String())

	// Many findings on one line are listed up to three.
	rep.Findings = nil
	for i := 1; i <= 5; i++ {
		rep.Findings = append(rep.Findings, Finding{Rule: RuleUncoveredBranch, File: "a b.go", Line: 3, Col: i, Message: fmt.Sprint("b", i)})
	}
	b.Reset()
	WriteAnnotations(&b, rep, 0)
	assert.Equal(t, "::warning title=cling ci::5 more findings not annotated (--max-annotations 0); the job summary and the JSON report list them all\n", b.String())
	b.Reset()
	WriteAnnotations(&b, rep, 20)
	assert.Equal(t, "::warning file=a b.go,line=3,col=1,title=cling%3A uncovered coupled branch::5 findings on this line: b1; b2; b3; and 2 more\n", b.String())
}

func TestWriteMarkdown(t *testing.T) {
	var b bytes.Buffer
	WriteMarkdown(&b, sampleReport())
	want := "## cling ci: **failed**\n\n" +
		"change from origin/main (merge base 0123456789ab) to the work tree at HEAD fedcba987654: 1 Go file (2 lines), 1 other file\n\n" +
		"| Caller | Callee | Changed | CBC | Diff CBC | Diff mutants | Diff score |\n" +
		"|---|---|---|---|---|---|---|\n" +
		"| `example.com/shop/checkout` | `example.com/shop/pricing` | callee | 22/50 (44.0%) | 1/2 (50.0%) | 1/2 detected | 50.0% |\n" +
		"| `example.com/shop/pricing` | `example.com/shop/money` | caller | skipped | - | - | - |\n" +
		"\n### Failures\n\n" +
		"- example.com/shop/checkout -&gt; example.com/shop/pricing: diff CBC 50.0% is below --min-diff-cbc 80.0%\n" +
		"\n### Skipped, not judged\n\n" +
		"- `example.com/shop/pricing` → `example.com/shop/money`: over the --budget of 1s\n" +
		"\n<details><summary><code>example.com/shop/checkout</code> → <code>example.com/shop/pricing</code>: 1 diff coupled branch not covered, 1 mutant not detected</summary>\n\n" +
		"- `checkout/checkout.go:158:23` `checkout/checkout.go:141:2:false` → `pricing/engine.go:71:6:true` (covered by the generated tests)\n" +
		"- #6 RetStaRep `pricing/engine.go:72:20` survived: returns nil for a non-nil error\n" +
		"\ncling gen: wrote checkout/cling\\_pricing\\_test.go (3 tests): +1 diff coupled branches covered (diff CBC 100.0%), +1 mutants detected (#6) (diff score 100.0%)\n" +
		"\n</details>\n"
	assert.Equal(t, want, b.String())

	b.Reset()
	WriteMarkdown(&b, &Report{Base: "base", MergeBase: "0123", Head: "4567", Passed: true})
	assert.Equal(t, "## cling ci: passed\n\nchange from base (merge base 0123) to HEAD 4567: 0 Go files (0 lines), 0 other files\n\nNo affected pairs.\n", b.String())
}

// sarifProblems checks a SARIF log against the properties the SARIF
// 2.1.0 schema requires (and the ruleId and locations code scanning
// needs), and returns what is missing.
func sarifProblems(doc []byte) []string {
	var log map[string]any
	if err := json.Unmarshal(doc, &log); err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	var problems []string
	need := func(ok bool, what string) {
		if !ok {
			problems = append(problems, what)
		}
	}
	str := func(m map[string]any, key string) bool { s, ok := m[key].(string); return ok && s != "" }
	obj := func(m map[string]any, key string) map[string]any { o, _ := m[key].(map[string]any); return o }
	arr := func(m map[string]any, key string) ([]any, bool) { a, ok := m[key].([]any); return a, ok }
	need(log["version"] == "2.1.0", "version 2.1.0")
	need(str(log, "$schema") && strings.Contains(log["$schema"].(string), "2.1.0"), "$schema of 2.1.0")
	runs, ok := arr(log, "runs")
	need(ok && len(runs) > 0, "runs")
	for i, r := range runs {
		run, _ := r.(map[string]any)
		driver := obj(obj(run, "tool"), "driver")
		need(driver != nil && str(driver, "name"), fmt.Sprintf("runs[%d].tool.driver.name", i))
		rules, _ := arr(driver, "rules")
		ruleIDs := map[string]bool{}
		for _, ru := range rules {
			rule, _ := ru.(map[string]any)
			need(str(rule, "id"), "rules[].id")
			ruleIDs[fmt.Sprint(rule["id"])] = true
		}
		results, ok := arr(run, "results")
		need(ok, fmt.Sprintf("runs[%d].results", i))
		for j, re := range results {
			res, _ := re.(map[string]any)
			at := fmt.Sprintf("runs[%d].results[%d]", i, j)
			need(str(res, "ruleId") && ruleIDs[fmt.Sprint(res["ruleId"])], at+".ruleId of a rule")
			need(str(obj(res, "message"), "text"), at+".message.text")
			locs, _ := arr(res, "locations")
			need(len(locs) > 0, at+".locations")
			for _, l := range locs {
				phys := obj(l.(map[string]any), "physicalLocation")
				need(str(obj(phys, "artifactLocation"), "uri"), at+".locations[].physicalLocation.artifactLocation.uri")
				line, _ := obj(phys, "region")["startLine"].(float64)
				need(line >= 1, at+".locations[].physicalLocation.region.startLine")
			}
		}
	}
	return problems
}

func TestWriteSARIF(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteSARIF(&b, sampleReport()))
	assert.Empty(t, sarifProblems(b.Bytes()))
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct{ StartLine, StartColumn int }
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &log))
	var got []string
	for _, r := range log.Runs[0].Results {
		l := r.Locations[0].PhysicalLocation
		got = append(got, fmt.Sprintf("%s/%d %s:%d:%d", r.RuleID, r.RuleIndex, l.ArtifactLocation.URI, l.Region.StartLine, l.Region.StartColumn))
	}
	assert.Equal(t, []string{
		"uncovered-coupled-branch/0 pricing/engine.go:71:6",
		"uncovered-coupled-branch/0 pricing/engine.go:71:21",
		"undetected-mutant/1 pricing/engine.go:72:20",
	}, got)

	// No findings: a valid log with no results; a path with a space is
	// a URI.
	b.Reset()
	require.NoError(t, WriteSARIF(&b, &Report{}))
	assert.Empty(t, sarifProblems(b.Bytes()))
	assert.Contains(t, b.String(), `"results": []`)
	b.Reset()
	require.NoError(t, WriteSARIF(&b, &Report{Findings: []Finding{{Rule: RuleUndetectedMutant, File: "my dir/a.go", Line: 1, Col: 1, Message: "m"}}}))
	assert.Contains(t, b.String(), `"uri": "my%20dir/a.go"`)

	// The check itself finds what is missing.
	assert.Equal(t, []string{"version 2.1.0", "$schema of 2.1.0", "runs"}, sarifProblems([]byte(`{"runs": []}`)))
	assert.Equal(t, []string{"runs[0].tool.driver.name", "runs[0].results[0].ruleId of a rule", "runs[0].results[0].message.text", "runs[0].results[0].locations"},
		sarifProblems([]byte(`{"version": "2.1.0", "$schema": "sarif-2.1.0.json", "runs": [{"tool": {"driver": {}}, "results": [{"ruleId": "x", "message": {}}]}]}`)))
}
