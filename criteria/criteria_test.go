package criteria_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/criteria"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/targets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pairOf(t *testing.T, dir, caller, callee string) *criteria.Pair {
	t.Helper()
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	tg, err := targets.Of(a)
	require.NoError(t, err)
	return criteria.NewPair(a, tg, fitness.Layered)
}

func names(cs []*criteria.Criterion) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func TestParse(t *testing.T) {
	all := []string{"cbc", "line", "branch", "direct-branch", "method", "method-no-panic", "output", "panic", "panic+error", "weak-mutation"}
	assert.Equal(t, all, criteria.Names())
	for _, tc := range []struct {
		list string
		want []string
	}{
		{"default", []string{"cbc"}},
		{"", []string{"cbc"}},
		{"cbc", []string{"cbc"}},
		{"weak-mutation, line", []string{"cbc", "line", "weak-mutation"}},
		{"output,cbc,output", []string{"cbc", "output"}},
		{"all", all},
		{"panic+error,default", []string{"cbc", "panic+error"}},
	} {
		cs, err := criteria.Parse(tc.list)
		require.NoError(t, err, tc.list)
		assert.Equal(t, tc.want, names(cs), tc.list)
	}
	_, err := criteria.Parse("line,lines")
	assert.EqualError(t, err, `unknown criterion "lines": use cbc, line, branch, direct-branch, method, method-no-panic, output, panic, panic+error, weak-mutation, all or default`)

	sel, err := criteria.ParseSelection("smart")
	require.NoError(t, err)
	assert.Equal(t, criteria.Smart, sel)
	_, err = criteria.ParseSelection("some")
	assert.EqualError(t, err, `unknown goal selection "some": use all or smart`)
}

// goalIDs lists the IDs of the goals Select gives the search, per
// criterion.
func goalIDs(p *criteria.Pair, list string, sel criteria.Selection) map[string][]string {
	cs, _ := criteria.Parse(list)
	out := map[string][]string{}
	goals, selected := criteria.Select(p, cs, sel)
	for i, gs := range goals {
		ids := []string{}
		for k, g := range gs {
			if selected[i][k] {
				ids = append(ids, g.ID)
			}
		}
		out[cs[i].Name] = ids
	}
	return out
}

// Every goal of every criterion on personcar.
func TestGoalsPersonCar(t *testing.T) {
	p := pairOf(t, fixture.Copy(t, "personcar"), "./person", "./car")
	assert.Equal(t, map[string][]string{
		"cbc": {
			"person/person.go:25:9 person/person.go:22:5:false -> car/car.go:14:5:true",
			"person/person.go:25:9 person/person.go:22:5:false -> car/car.go:14:5:false",
		},
		"line": {
			"car/car.go:9", "car/car.go:14", "car/car.go:15", "car/car.go:17",
			"person/person.go:14", "person/person.go:15", "person/person.go:17",
			"person/person.go:22", "person/person.go:23", "person/person.go:25",
		},
		"branch": {
			"person/person.go:14:5:true", "person/person.go:14:5:false", "person/person.go:22:5:true",
			"person/person.go:22:5:false", "car/car.go:14:5:true", "car/car.go:14:5:false",
		},
		"direct-branch":   {"person/person.go:14:5:true", "person/person.go:14:5:false"},
		"method":          {"(*Person).DriveToHome"},
		"method-no-panic": {"(*Person).DriveToHome"},
		"output":          {},
		"panic":           {},
		"panic+error":     {},
		"weak-mutation": {
			"#1 FunCalDel person/person.go:17:9: deletes the call to (*Car).Drive",
			"#2 FunCalDel person/person.go:25:9: deletes the call to (*Car).Refuel",
		},
	}, goalIDs(p, "all", criteria.AllGoals))
}

// Smart selection on the mutants fixture keeps every goal of the
// representatives (cbc, method-no-panic, output; panics join later), the
// mutants that reaching does not infect, and nothing of branch and
// method; no basic block there has five lines. On the constructs fixture
// two blocks do.
func TestSmartSelection(t *testing.T) {
	p := pairOf(t, fixture.Copy(t, "mutants"), "./app", "./store")
	got := goalIDs(p, "line,branch,direct-branch,method,method-no-panic,output,panic,weak-mutation", criteria.Smart)
	assert.Len(t, got["cbc"], len(p.A.Goals))
	assert.Empty(t, got["line"])
	assert.Empty(t, got["branch"])
	assert.Empty(t, got["direct-branch"])
	assert.Empty(t, got["method"])
	assert.Equal(t, []string{"NewInventory", "(*Inventory).Add", "(*Inventory).Count", "(*Inventory).Capped", "Steps", "Label", "(*Inventory).Audit"}, got["method-no-panic"])
	assert.Len(t, got["output"], 14)
	assert.Empty(t, got["panic"])
	var muts []string
	for _, id := range got["weak-mutation"] {
		var n int
		fmt.Sscanf(id, "#%d", &n)
		muts = append(muts, fmt.Sprint(n))
	}
	assert.Equal(t, []string{"1", "2", "3", "4", "6", "7", "8", "9", "10", "11", "12", "13", "14", "16", "22"}, muts)

	// Without method-no-panic, method represents its group.
	assert.Len(t, goalIDs(p, "method", criteria.Smart)["method"], 7)

	c := pairOf(t, fixture.Copy(t, "constructs"), "./caller", "./callee")
	assert.Equal(t, []string{"caller/runtime.go:60", "caller/types.go:145"}, goalIDs(c, "line", criteria.Smart)["line"])
	assert.Len(t, goalIDs(c, "line", criteria.AllGoals)["line"], 253)
}

// The coverage of every criterion by the mutants fixture's own tests of
// app, measured under go test.
func TestMeasureMutantsSuite(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	p := pairOf(t, dir, "./app", "./store")
	all := criteria.All()
	sess, err := probe.NewSessionWith(probe.NewPlanWith(p.A, probe.Coverage, p.T, criteria.MeasuredExtrasOf(all)))
	require.NoError(t, err)
	defer sess.Close()
	run, err := sess.RunTests(context.Background(), probe.TestOptions{Dir: dir, Packages: []probe.TestPackage{{Path: p.A.Caller.Pkg.Path, Dir: filepath.Join(dir, "app")}}})
	require.NoError(t, err)
	var got []string
	for _, c := range criteria.Measure(p, all, run) {
		got = append(got, fmt.Sprintf("%s %d/%d %t", c.Criterion, c.Covered, c.Total, c.Found))
	}
	assert.Equal(t, []string{
		"cbc 5/8 false",
		"line 28/31 false", // Audit's, Clamp's return v and Width's return 0
		"branch 9/12 false",
		"direct-branch 5/6 false", // no test adds a key twice
		"method 6/7 false",
		"method-no-panic 6/7 false",
		"output 6/14 false",
		"panic 0/0 true",
		"panic+error 0/0 true",
		"weak-mutation 22/27 false",
	}, got)
	_, err = os.Stat(dir)
	require.NoError(t, err)
}
