package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMeasures(t *testing.T) {
	got, err := parseMeasures(" suitecost,mutate,suitecost")
	require.NoError(t, err)
	assert.Equal(t, []string{"suitecost", "mutate"}, got)
	got, err = parseMeasures("")
	require.NoError(t, err)
	assert.Empty(t, got)
	_, err = parseMeasures("mutate,speed")
	assert.EqualError(t, err, "-measure speed: no such measure (criteria, mutate, suitecost)")
}

func TestMutateFigures(t *testing.T) {
	report := `{"caller":"example.com/m/r","callee":"example.com/m/e","operators":["FunCalDel","RetStaRep"],"tests":2,
	"mutants":[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5}],
	"counts":{"killed":2,"survived":1,"timeout":1,"not-covered":1},"score":0.6}`
	got, err := mutateFigures([]byte(report))
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"score": 0.6, "mutants": 5, "killed": 2, "survived": 1, "timeout": 1, "notCovered": 1, "notViable": 0}, got)
	_, err = mutateFigures([]byte("exit status 1"))
	assert.ErrorContains(t, err, "reading the cling mutate report: ")
}

func TestSuitecostFigures(t *testing.T) {
	out := "=== some output\n" +
		"cling-suitecost 3000000 4096 30\n" +
		"cling-suitecost 1000000 1024 10\n" +
		"a test's own line\n" +
		strings.Repeat("a long line of a test's own ", 10000) + "\n" +
		"output a test left unterminated cling-suitecost 2000000 2048 20\n" +
		"PASS\n"
	got, err := suitecostFigures([]byte(out), 3)
	require.NoError(t, err)
	assert.Equal(t, map[string]float64{"seconds": 0.002, "allocBytes": 2048, "allocs": 20}, got)
	_, err = suitecostFigures([]byte(out), 4)
	assert.EqualError(t, err, "3 rounds measured, want 4")
	_, err = suitecostFigures([]byte("cling-suitecost 1 x 2\n"), 1)
	assert.ErrorContains(t, err, `reading "cling-suitecost 1 x 2": `)
}

// suitecostBench sets up what measureSuitecost needs: a copy of the shop
// fixture as the module copy of a benchmark, and a run whose saved file
// is src, written by cling into checkout/cling_pricing_test.go.
func suitecostBench(t *testing.T, src string) (*bench, *pair, *runRecord) {
	t.Helper()
	dir := fixture.Copy(t, "shop")
	out := t.TempDir()
	log, err := os.Create(filepath.Join(out, "commands.log"))
	require.NoError(t, err)
	t.Cleanup(func() { log.Close() })
	b := &bench{opt: &options{workers: 1, results: filepath.Dir(out)}, work: t.TempDir(), out: out, cmdLog: log}
	m := &module{Path: "example.com/shop", Short: "shop", Dir: dir}
	m.baseline, err = hashTree(dir)
	require.NoError(t, err)
	rec := &runRecord{Status: "ok", TestFile: "tests/cling_pricing_test.go.txt", TestPath: "checkout/cling_pricing_test.go"}
	require.NoError(t, os.MkdirAll(filepath.Join(out, "tests"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(out, rec.TestFile), []byte(src), 0o644))
	return b, &pair{Mod: m, Caller: "example.com/shop/checkout", Callee: "example.com/shop/pricing"}, rec
}

// The tests of the file run suitecostCount rounds in one process, in file
// order between the helpers, and nothing is written into the module.
func TestMeasureSuitecost(t *testing.T) {
	src := marker + `

package checkout_test

import (
	"testing"

	"example.com/shop/checkout"
)

func TestNewCart_A(t *testing.T) {
	cart, err := checkout.NewCart("EUR")
	if err != nil {
		t.Fatal(err)
	}
	if err := cart.AddItem("apple", 2, 30); err != nil {
		t.Fatal(err)
	}
}

var sink []byte

func TestNewCart_B(t *testing.T) {
	if _, err := checkout.NewCart(""); err == nil {
		t.Fatal("no error")
	}
	sink = make([]byte, 8<<20)
}
`
	b, p, rec := suitecostBench(t, src)
	before := fixture.Snapshot(t, p.Mod.Dir)
	got, err := measureSuitecost(context.Background(), b, p, rec, []byte(src))
	require.NoError(t, err)
	assert.Len(t, got, 3)
	assert.Greater(t, got["seconds"], 0.0)
	// the 8 MiB of TestNewCart_B are inside every round
	assert.GreaterOrEqual(t, got["allocBytes"], float64(8<<20))
	assert.Greater(t, got["allocs"], 0.0)
	assert.Empty(t, b.problems)
	assert.Equal(t, before, fixture.Snapshot(t, p.Mod.Dir))

	log, err := os.ReadFile(filepath.Join(b.out, "commands.log"))
	require.NoError(t, err)
	assert.Contains(t, string(log), "-test.count=20 -test.run '^(TestCling__SuitecostBegin|TestNewCart_A|TestNewCart_B|TestCling__SuitecostEnd)$'")
}

// A file whose tests fail under go test has no cost, but an error.
func TestMeasureSuitecostFailing(t *testing.T) {
	src := marker + `

package checkout_test

import "testing"

func TestFails(t *testing.T) { t.Fatal("generated test fails") }
`
	b, p, rec := suitecostBench(t, src)
	_, err := measureSuitecost(context.Background(), b, p, rec, []byte(src))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exit status 1")
	assert.Contains(t, err.Error(), "generated test fails")
	assert.True(t, strings.HasPrefix(err.Error(), "(cd shop/checkout && "), err.Error())
}
