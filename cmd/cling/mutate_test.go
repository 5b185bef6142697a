package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/mutate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastTests are the tests of the mutants fixture whose mutants all end
// quickly (TestSteps has mutants that loop until their timeout).
const fastTests = "^(TestAddCount|TestMissing|TestLabel|TestNew)$"

func TestMutateJSONAndHTML(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "mutants")
	before := fixture.Snapshot(t, dir)
	html := filepath.Join(t.TempDir(), "report")
	r := runCling(t, dir, "mutate", "--caller", "./app", "--callee", "./store", "--run", fastTests, "--json", "--html", html)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stderr)
	var rep struct {
		Mutants []struct {
			ID          int      `json:"id"`
			Operator    string   `json:"operator"`
			Pos         string   `json:"pos"`
			Description string   `json:"description"`
			Status      string   `json:"status"`
			KilledBy    []string `json:"killedBy"`
		} `json:"mutants"`
		Score  *float64       `json:"score"`
		Counts map[string]int `json:"counts"`
		Timing any            `json:"timing"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	require.NotNil(t, rep.Score)
	require.Len(t, rep.Mutants, 27)
	assert.Nil(t, rep.Timing, "timings only with --timing")
	byPos := map[string]string{}
	for i, m := range rep.Mutants {
		assert.Equal(t, i+1, m.ID)
		assert.Contains(t, []string{"RetStaRep", "FunCalDel"}, m.Operator)
		assert.NotNil(t, m.KilledBy)
		byPos[m.Pos+" "+m.Operator] = m.Status
	}
	assert.Equal(t, "not-covered", byPos["app/app.go:47:39 FunCalDel"])
	assert.Equal(t, "killed", byPos["store/store.go:35:9 RetStaRep"])
	assert.Equal(t, "not-viable", byPos["store/store.go:62:10 RetStaRep"])
	assert.Equal(t, 1, rep.Counts["not-viable"])

	page, err := os.ReadFile(filepath.Join(html, "index.html"))
	require.NoError(t, err)
	for _, want := range []string{"app/app.go", "store/store.go", "not-covered", "#27 RetStaRep", `class="fs" value="survived"`} {
		assert.Contains(t, string(page), want)
	}
	for _, external := range []string{"<link", "src=", "http://", "https://"} {
		assert.NotContains(t, string(page), external, "the report must not load anything")
	}
	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "cling changed the module")
}

func TestMutateTextCompareAndGate(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "mutants")
	gen := filepath.Join(t.TempDir(), "cling_store_test.go")
	require.NoError(t, os.WriteFile(gen, []byte(`package app_test

import (
	"testing"

	"example.com/mutants/app"
)

func TestClingCount(t *testing.T) {
	t.Parallel()
	inv := app.NewInventory()
	inv.Add("A", 1)
	if inv.Count("a") != 1 {
		t.Fatal("count")
	}
}
`), 0o644))
	r := runCling(t, dir, "mutate", "--caller", "./app", "--callee", "./store", "--run", fastTests+"|^TestCling", "--compare", gen, "--min-score", "0.99")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "cling: mutation score")
	assert.Contains(t, r.stderr, "is below --min-score 99.0%")
	assert.Regexp(t, `(?m)^\s+OPERATOR\s+KILLED\s+SURVIVED\s+NOT-COVERED\s+TIMEOUT\s+NOT-VIABLE\s+TOTAL\s+SCORE$`, r.stdout)
	assert.Regexp(t, `(?m)^\s+RetStaRep(\s+\d+){6}\s+\d+\.\d%$`, r.stdout)
	assert.Regexp(t, `\n\d+ mutants survived:\n`, r.stdout)
	assert.Contains(t, r.stdout, "store/store.go:26:9: (*Store).Put returns the negated bool\n     26 |     return !existed\n")
	assert.Contains(t, r.stdout, "compared with "+gen+" (1 test):")
	assert.Contains(t, r.stdout, "detected only by the existing tests:")
	_, err := os.Stat(filepath.Join(dir, "app", "cling_store_test.go"))
	assert.True(t, os.IsNotExist(err), "the compared file must not be written into the module")
}

func TestMutateBadInput(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "mutants")
	failing := fixture.Copy(t, "mutants")
	path := filepath.Join(failing, "app", "app_test.go")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), "got != 3", "got != 4", 1)), 0o644))
	cases := []struct {
		name string
		dir  string
		args []string
		code int
		msg  string
	}{
		{"unknown operator", dir, []string{"--operators", "RetStaRep,Frobnicate"}, 2, `unknown operator "Frobnicate"`},
		{"no tests selected", dir, []string{"--run", "^TestNothing$"}, 1, "no tests selected"},
		{"baseline fails", failing, []string{"--run", "TestAddCount"}, 1, "the test suite fails without mutants (example.com/mutants/app.TestAddCount)"},
		{"score out of range", dir, []string{"--min-score", "80"}, 2, "--min-score must be between 0 and 1"},
		{"compare file filtered out", dir, []string{"--run", "TestNew", "--compare", filepath.Join(dir, "app", "app_test.go")}, 1, "no tests selected in the --compare file"},
		{"missing compare file", dir, []string{"--compare", "nosuch_test.go"}, 1, "--compare"},
		{"stray argument", dir, []string{"extra"}, 2, "mutate takes no arguments"},
		{"test file for --tests", dir, []string{"--tests", "app/app_test.go"}, 2, "--tests takes package patterns, not files: app/app_test.go"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"mutate", "--caller", "./app", "--callee", "./store"}, tc.args...)
			r := runCling(t, tc.dir, args...)
			assert.Equal(t, tc.code, r.code, "stderr: %s", r.stderr)
			assert.Empty(t, r.stdout)
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			assert.Len(t, lines, 1, "want a one-line error, got %q", r.stderr)
			assert.Contains(t, r.stderr, tc.msg)
			assert.True(t, strings.HasPrefix(r.stderr, "cling: "), r.stderr)
		})
	}
	r := runCling(t, t.TempDir(), "-C", fixture.Copy(t, "personcar"), "mutate", "--caller", "./person", "--callee", "./car")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, "cling: no tests to run in example.com/personcar/person example.com/personcar/car\n", r.stderr)
}

// The help lists every registered operator once, under its group, with
// its doc, in lines as wide as the rest of the help.
func TestMutateHelpListsOperators(t *testing.T) {
	t.Parallel()
	r := runCling(t, t.TempDir(), "mutate", "--help")
	require.Equal(t, 0, r.code, r.stderr)
	start := strings.Index(r.stdout, "   interface operators:\n")
	require.GreaterOrEqual(t, start, 0, r.stdout)
	list, _, _ := strings.Cut(r.stdout[start:], "\n\n")
	for _, line := range strings.Split(list, "\n") {
		assert.LessOrEqual(t, len(line), 3+helpWidth, "%q", line)
	}
	help := strings.Join(strings.Fields(r.stdout), " ")
	for _, o := range mutate.Operators() {
		assert.Equal(t, 1, strings.Count(help, " "+string(o.Name)+" "+o.Doc), "%s is not listed once with its doc", o.Name)
		heading := strings.Index(help, string(o.Group)+" operators:")
		require.GreaterOrEqual(t, heading, 0, "no heading for group %s", o.Group)
		assert.Less(t, heading, strings.Index(help, " "+string(o.Name)+" "+o.Doc), "%s is not under its group", o.Name)
	}
}

// A pattern names a Go file when it ends in _test.go, or in .go and is a
// file: a module path may end in .go.
func TestIsGoFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644))
	for pattern, want := range map[string]bool{
		"app/app_test.go":            true,
		"main.go":                    true,
		"github.com/nats-io/nats.go": false,
		"./...":                      false,
		"./app":                      false,
	} {
		assert.Equal(t, want, isGoFile(dir, pattern), pattern)
	}
}
