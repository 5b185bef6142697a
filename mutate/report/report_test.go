package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cling-go/cling/mutate"
	"github.com/cling-go/cling/mutate/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// result is a small hand-made run: four mutants of two operators, one of
// each status but timeout, and a comparison.
func result() *mutate.Result {
	mutant := func(id int, op mutate.Operator, rel string, line, col int, desc string, st mutate.Status) *mutate.Mutant {
		return &mutate.Mutant{ID: id, Operator: op, Rel: rel, Line: line, Col: col, Description: desc, Status: st}
	}
	ms := []*mutate.Mutant{
		mutant(1, mutate.FunCalDel, "r/r.go", 6, 9, "replaces the result of F with the zero value", mutate.Killed),
		mutant(2, mutate.RetStaRep, "e/e.go", 5, 10, "F returns 1 for 0, 0 for any other number", mutate.Survived),
		mutant(3, mutate.RetStaRep, "e/e.go", 7, 9, "F returns the zero value", mutate.NotCovered),
		mutant(4, mutate.RetStaRep, "e/e.go", 7, 9, "F returns nil", mutate.NotViable),
	}
	ms[0].KilledBy = []string{"example.com/m/r.TestF"}
	ms[0].Tests = []string{"example.com/m/r.TestF"}
	ms[1].Tests = []string{"example.com/m/r.TestF", "example.com/m/e.TestF"}
	ms[3].Reason = "cannot use nil as int value"
	return &mutate.Result{
		Caller: "example.com/m/r", Callee: "example.com/m/e",
		Operators: []mutate.Operator{mutate.RetStaRep, mutate.FunCalDel},
		Mutants:   ms,
		Tests:     []string{"example.com/m/r.TestF", "example.com/m/e.TestF"},
		Sources: []*mutate.Source{
			{Rel: "e/e.go", Package: "example.com/m/e", Text: "package e\n\nfunc F(n int) int {\n\tif n > 0 {\n\t\treturn n\n\t}\n\treturn 0\n}\n"},
			{Rel: "r/r.go", Package: "example.com/m/r", Text: "package r\n"},
		},
		Compare: &mutate.Comparison{File: "r/cling_e_test.go", Tests: []string{"example.com/m/r.TestF"},
			OnlyGenerated: []int{1}, ScoreExisting: 0, ScoreGenerated: 1.0 / 3, ScoreCombined: 1.0 / 3},
		Timing: mutate.Timing{Total: 3 * time.Second},
	}
}

func TestWriteText(t *testing.T) {
	var b bytes.Buffer
	report.WriteText(&b, result())
	assert.Equal(t, `caller example.com/m/r
callee example.com/m/e
4 mutants, 2 tests in 2 packages

  OPERATOR   KILLED  SURVIVED  NOT-COVERED  TIMEOUT  NOT-VIABLE  TOTAL   SCORE
  RetStaRep       0         1            1        0           1      3    0.0%
  FunCalDel       1         0            0        0           0      1  100.0%
  total           1         1            1        0           1      4   33.3%

mutation score: 33.3% (1 of 3 viable mutants killed or timed out)

1 mutant survived:

#2 RetStaRep e/e.go:5:10: F returns 1 for 0, 0 for any other number
      5 |         return n
                         ^

compared with r/cling_e_test.go (1 test):
  detected only by the generated tests: 1 (#1)
  detected only by the existing tests:  0
  detected by both:                     0
  score: existing 0.0%, generated 33.3%, together 33.3% (+33.3 points)
`, b.String())
}

func TestNewJSON(t *testing.T) {
	for _, withTiming := range []bool{false, true} {
		b, err := json.Marshal(report.NewJSON(result(), withTiming))
		require.NoError(t, err)
		want := `{"caller":"example.com/m/r","callee":"example.com/m/e","operators":["RetStaRep","FunCalDel"],"tests":2,"mutants":[` +
			`{"id":1,"operator":"FunCalDel","pos":"r/r.go:6:9","description":"replaces the result of F with the zero value","status":"killed","killedBy":["example.com/m/r.TestF"],"tests":1},` +
			`{"id":2,"operator":"RetStaRep","pos":"e/e.go:5:10","description":"F returns 1 for 0, 0 for any other number","status":"survived","killedBy":[],"tests":2},` +
			`{"id":3,"operator":"RetStaRep","pos":"e/e.go:7:9","description":"F returns the zero value","status":"not-covered","killedBy":[],"tests":0},` +
			`{"id":4,"operator":"RetStaRep","pos":"e/e.go:7:9","description":"F returns nil","status":"not-viable","killedBy":[],"tests":0,"reason":"cannot use nil as int value"}],` +
			`"counts":{"killed":1,"not-covered":1,"not-viable":1,"survived":1,"timeout":0},"score":0.3333333333333333,` +
			`"compare":{"file":"r/cling_e_test.go","tests":["example.com/m/r.TestF"],"onlyGenerated":[1],"onlyExisting":null,"both":null,"scoreExisting":0,"scoreGenerated":0.3333333333333333,"scoreCombined":0.3333333333333333}`
		if withTiming {
			want += `,"timing":{"generate":0,"build":0,"baseline":0,"evaluate":0,"total":3}`
		}
		assert.Equal(t, want+"}", string(b))
	}
}

// The page marks every mutant on its line and loads nothing.
func TestWriteHTML(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	require.NoError(t, report.WriteHTML(dir, result()))
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	for _, want := range []string{
		`<div class="score">33.3%<small>mutation score: 1 of 3 viable mutants killed or timed out</small></div>`,
		`<tr><td>RetStaRep</td><td>0</td><td>1</td><td>1</td><td>0</td><td>1</td><td>3</td><td>0.0%</td></tr>`,
		`<tr class="code has"><td class="n">5</td><td class="m"><span class="pill s-survived mut" data-s="survived" data-o="RetStaRep" title="#2 RetStaRep: F returns 1 for 0, 0 for any other number (survived)">2</span></td><td class="c">        return n</td></tr>`,
		`<b>#4 RetStaRep</b> col 9: F returns nil <span class="why">— cannot use nil as int value</span>`,
		`<b>#2 RetStaRep</b> col 10: F returns 1 for 0, 0 for any other number <span class="why">— 2 tests reach it, none fails</span>`,
		`detected only by the generated tests: 1 (#1);`,
	} {
		assert.Contains(t, string(page), want)
	}
	for _, external := range []string{"<link", "src=", "http://", "https://"} {
		assert.NotContains(t, string(page), external, "the report must not load anything")
	}
}
