package gen

import (
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// analyze loads a pair of a copy of a fixture.
func analyze(t *testing.T, fix, caller, callee string) *couple.Analysis {
	t.Helper()
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: fixture.Copy(t, fix)}, caller, callee)
	require.NoError(t, err)
	return a
}

// A test is named after the first goal it is kept for, numbered when an
// earlier test or a test already in the file has the name, and the names
// it gets are taken. Its comment says which branches it takes.
func TestNameNumbersTakenNames(t *testing.T) {
	a := analyze(t, "personcar", "./person", "./car")
	require.Len(t, a.Goals, 2)
	j := &job{a: a, taken: map[string]bool{"TestRefuel_L22False_L14False": true}}
	named := j.name([]observedTest{
		{goals: []int32{0}, covers: []int32{0}},
		{goals: []int32{1, 0}, covers: []int32{0, 1}},
		{goals: []int32{0}, covers: []int32{0}},
	})
	assert.Equal(t, []string{"TestRefuel_L22False_L14True", "TestRefuel_L22False_L14False_2", "TestRefuel_L22False_L14True_2"}, namesOf(named))
	assert.Equal(t, map[string]bool{
		"TestRefuel_L22False_L14False":   true,
		"TestRefuel_L22False_L14True":    true,
		"TestRefuel_L22False_L14False_2": true,
		"TestRefuel_L22False_L14True_2":  true,
	}, j.taken)
	assert.Equal(t, "TestRefuel_L22False_L14True takes person/person.go:22:5:false and then, in the call of (*Car).Refuel at person/person.go:25:9 (in (*Person).addEnergy), car/car.go:14:5:true.", named[0].Comment)
	assert.Equal(t, "TestRefuel_L22False_L14False_2 takes person/person.go:22:5:false and then, in the call of (*Car).Refuel at person/person.go:25:9 (in (*Person).addEnergy), car/car.go:14:5:false. It covers 1 more coupled branch.", named[1].Comment)
	assert.Equal(t, []int32{1, 0}, named[1].goals)
	assert.Equal(t, []int32{0, 1}, named[1].covers)
}

func TestAvoidNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tests []string
		taken map[string]bool
		want  []string
	}{
		{"free", []string{"TestA", "TestB"}, nil, []string{"TestA", "TestB"}},
		{"declared", []string{"TestA", "TestB"}, map[string]bool{"TestA": true, "TestA_2": true}, []string{"TestA_3", "TestB"}},
		{"twice", []string{"TestA", "TestA", "TestA"}, map[string]bool{"TestA_2": true}, []string{"TestA", "TestA_3", "TestA_4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tests []namedTest
			for _, n := range tc.tests {
				tests = append(tests, namedTest{Test: emit.Test{Name: n}})
			}
			avoidNames(tests, tc.taken)
			assert.Equal(t, tc.want, namesOf(tests))
		})
	}
}

// Tests are ordered by their first goal, ties kept in order.
func TestSortNamed(t *testing.T) {
	tests := []namedTest{
		{Test: emit.Test{Name: "TestC"}, goals: []int32{4}},
		{Test: emit.Test{Name: "TestA"}, goals: []int32{1, 9}},
		{Test: emit.Test{Name: "TestD"}, goals: []int32{4, 0}},
		{Test: emit.Test{Name: "TestB"}, goals: []int32{2}},
	}
	sortNamed(tests)
	assert.Equal(t, []string{"TestA", "TestB", "TestC", "TestD"}, namesOf(tests))
}

func TestExportName(t *testing.T) {
	for in, want := range map[string]string{
		"Refuel":    "Refuel",
		"(*Car)":    "Car",
		"parse$1":   "Parse1",
		"Map[K, V]": "MapKV",
		"()*$":      "X",
		// The body of a range over a function, by its runtime name.
		"UnknownValWithNestedMarks-range1": "UnknownValWithNestedMarksrange1",
		"größe":                            "Größe",
		"1st":                              "X1st",
	} {
		assert.Equal(t, want, exportName(in), in)
	}
}

// Tests are ordered by their first goal, those that change package-level
// state last.
func TestSortNamedPutsStateWritersLast(t *testing.T) {
	writer := &testcase.Op{Name: "r.Register", WritesState: true}
	reader := &testcase.Op{Name: "r.Render"}
	test := func(name string, op *testcase.Op, goal int32) namedTest {
		return namedTest{Test: emit.Test{Name: name, Test: &testcase.Test{Stmts: []testcase.Stmt{{Op: op}}}}, goals: []int32{goal}}
	}
	ts := []namedTest{test("TestW2", writer, 5), test("TestR3", reader, 9), test("TestW1", writer, 1), test("TestR1", reader, 2)}
	sortNamed(ts)
	assert.Equal(t, []string{"TestR1", "TestR3", "TestW1", "TestW2"}, namesOf(ts))
}
