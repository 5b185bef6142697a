package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// criterionJSON is one criterion of the criteria reports of gen and cbc.
type criterionJSON struct {
	Criterion string `json:"criterion"`
	Covered   int    `json:"covered"`
	Total     int    `json:"total"`
	Found     bool   `json:"found"`
	Goals     []struct {
		ID      string `json:"id"`
		Covered bool   `json:"covered"`
	} `json:"goals"`
}

func rows(cs []criterionJSON) []string {
	var out []string
	for _, c := range cs {
		if c.Found {
			out = append(out, fmt.Sprintf("%s %d found", c.Criterion, c.Covered))
			continue
		}
		out = append(out, fmt.Sprintf("%s %d/%d", c.Criterion, c.Covered, c.Total))
	}
	return out
}

func TestCriteriaBadInput(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "personcar")
	for _, args := range [][]string{
		{"gen", "--caller", "./person", "--callee", "./car", "--criteria", "line,lines"},
		{"cbc", "--caller", "./person", "--callee", "./car", "--criteria", "lines"},
	} {
		r := runCling(t, dir, args...)
		assert.Equal(t, 2, r.code)
		assert.Equal(t, `cling: unknown criterion "lines": use cbc, line, branch, direct-branch, method, method-no-panic, output, panic, panic+error, weak-mutation, all or default`+"\n", r.stderr)
	}
	r := runCling(t, dir, "gen", "--caller", "./person", "--callee", "./car", "--goal-selection", "some")
	assert.Equal(t, 2, r.code)
	assert.Equal(t, "cling: unknown goal selection \"some\": use all or smart\n", r.stderr)
}

// cling cbc --criteria on the mutants fixture's own suite of app: every
// criterion with its exact coverage, and output on personcar, whose API
// returns nothing: 0 of 0.
func TestCBCCriteria(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "mutants")
	r := runCling(t, dir, "cbc", "--caller", "./app", "--callee", "./store", "--criteria", "all", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var rep struct {
		Covered  int             `json:"covered"`
		Criteria []criterionJSON `json:"criteria"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Equal(t, 5, rep.Covered)
	assert.Equal(t, []string{
		"line 28/31", "branch 9/12", "direct-branch 5/6", "method 6/7", "method-no-panic 6/7",
		"output 6/14", "panic 0 found", "panic+error 0 found", "weak-mutation 22/27",
	}, rows(rep.Criteria))
	r = runCling(t, dir, "cbc", "--caller", "./app", "--callee", "./store", "--criteria", "method,weak-mutation")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "other criteria:\n  method         6 of 7 (85.7%)\n  weak-mutation  22 of 27 (81.5%)\n")
	assert.Contains(t, r.stdout, "method, uncovered:\n    (*Inventory).Audit\n")

	pc := fixture.Copy(t, "personcar")
	require.NoError(t, os.WriteFile(filepath.Join(pc, "person", "p_test.go"), []byte(strings.Replace(slowSuite, "time.Sleep(20 * time.Second)", "_ = time.Now()", 1)), 0o644))
	r = runCling(t, pc, "cbc", "--caller", "./person", "--callee", "./car", "--criteria", "output")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "  output  0 of 0 (n/a)\n")
}

// cling gen with every criterion writes a file that passes, with every
// algorithm; the same seed gives the same file with one worker or two;
// gen reports the coverage of every criterion, which cling cbc --run of
// the written tests measures alike.
func TestGenAllCriteria(t *testing.T) {
	t.Parallel()
	type genCriteria struct {
		Covered       int             `json:"covered"`
		TestFile      string          `json:"testFile"`
		Optimised     []string        `json:"optimised"`
		GoalSelection string          `json:"goalSelection"`
		Criteria      []criterionJSON `json:"criteria"`
	}
	gen := func(dir string, args ...string) genCriteria {
		t.Helper()
		args = append(append([]string{"gen", "--json", "--caller", "./person", "--callee", "./car", "--max-evals", "600", "--seed", "4"}, fastGen...), args...)
		r := runCling(t, dir, args...)
		require.Equal(t, 0, r.code, r.stderr)
		var rep genCriteria
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
		return rep
	}
	// Smart selection optimises neither lines nor branches (the coupled
	// branches represent them, and personcar has no long basic block),
	// but the search meets a test that takes the lazy driver's bus ride,
	// and the file keeps it for the line and the branch it alone covers:
	// both selections cover every goal. The search meets personcar's one
	// panic, a nil dereference, but the written tests assert no runtime
	// error: they find no panic.
	every := []string{"cbc 2/2", "line 10/10", "branch 6/6", "direct-branch 2/2", "method 1/1", "method-no-panic 1/1",
		"output 0/0", "panic 0 found", "panic+error 0 found", "weak-mutation 2/2"}
	want := map[string][]string{"all": every, "smart": every}
	// One module for the four runs: each overwrites the file of the one
	// before, which does not feed its search.
	dir := fixture.Copy(t, "personcar")
	for _, sel := range []string{"all", "smart"} {
		var files []string
		for _, workers := range []string{"1", "2"} {
			rep := gen(dir, "--criteria", "all", "--goal-selection", sel, "--workers", workers)
			assert.Equal(t, 2, rep.Covered)
			assert.Equal(t, []string{"cbc", "line", "branch", "direct-branch", "method", "method-no-panic", "output", "panic", "panic+error", "weak-mutation"}, rep.Optimised)
			assert.Equal(t, sel, rep.GoalSelection)
			files = append(files, readFile(t, rep.TestFile))
			goTest(t, dir, "./person")
			if workers == "2" {
				got := rows(rep.Criteria)
				assert.Equal(t, want[sel], got, sel)
				names := regexp.MustCompile(`(?m)^func (Test\w+)`).FindAllStringSubmatch(files[1], -1)
				var run []string
				for _, n := range names {
					run = append(run, n[1])
				}
				r := runCling(t, dir, "cbc", "--json", "--caller", "./person", "--callee", "./car", "--criteria", "all", "--run", "^("+strings.Join(run, "|")+")$")
				require.Equal(t, 0, r.code, r.stderr)
				var cbc struct {
					Covered  int             `json:"covered"`
					Criteria []criterionJSON `json:"criteria"`
				}
				require.NoError(t, json.Unmarshal([]byte(r.stdout), &cbc))
				assert.Equal(t, got, append([]string{fmt.Sprintf("cbc %d/2", cbc.Covered)}, rows(cbc.Criteria)...), "cbc --criteria measures what gen reported")
			}
		}
		assert.Equal(t, files[0], files[1], "the same file with 1 and 2 workers")
	}
	// TestGenEveryAlgorithm runs every algorithm with several criteria.
}
