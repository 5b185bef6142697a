package mutate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func analyze(t *testing.T, dir, caller, callee string) *couple.Analysis {
	t.Helper()
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	return a
}

// find returns the mutant at pos whose description contains desc.
func find(t *testing.T, ms []*Mutant, pos, desc string) *Mutant {
	t.Helper()
	for _, m := range ms {
		if m.Pos() == pos && strings.Contains(m.Description, desc) {
			return m
		}
	}
	t.Fatalf("no mutant at %s %q", pos, desc)
	return nil
}

func TestParseOperators(t *testing.T) {
	cases := []struct {
		specs []string
		want  []Operator
		err   string
	}{
		{nil, []Operator{RetStaRep, FunCalDel}, ""},
		{[]string{"interface"}, []Operator{RetStaRep, FunCalDel}, ""},
		{[]string{"all"}, allOperators(), ""},
		{[]string{"conventional"}, groupOperators(ConventionalGroup), ""},
		{[]string{"funcaldel,Math"}, []Operator{FunCalDel, Math}, ""},
		{[]string{"Math", "RetStaRep"}, []Operator{RetStaRep, Math}, ""},
		{[]string{"ALL"}, allOperators(), ""},
		{[]string{" math , Interface"}, []Operator{RetStaRep, FunCalDel, Math}, ""},
		{[]string{"NegateConditionals,bogus"}, nil, `unknown operator "bogus" (known: interface, conventional, all, RetStaRep, FunCalDel, ConditionalsBoundary, NegateConditionals, RemoveConditionals, Math, Increments, InlineConstant)`},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.specs, " "), func(t *testing.T) {
			got, err := ParseOperators(tc.specs)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// The registry lists every operator once, in the order of mutant IDs,
// each in its group and with a doc.
func TestOperatorRegistry(t *testing.T) {
	var names []Operator
	for _, o := range Operators() {
		names = append(names, o.Name)
		assert.NotEmpty(t, o.Doc, o.Name)
		assert.NotContains(t, o.Doc, "\n", o.Name)
	}
	assert.Equal(t, []Operator{RetStaRep, FunCalDel, ConditionalsBoundary, NegateConditionals, RemoveConditionals, Math, Increments, InlineConstant}, names)
	assert.Equal(t, []Operator{RetStaRep, FunCalDel}, groupOperators(InterfaceGroup))
	assert.Equal(t, []Operator{ConditionalsBoundary, NegateConditionals, RemoveConditionals, Math, Increments, InlineConstant}, groupOperators(ConventionalGroup))
	assert.Equal(t, names, allOperators())
}

// The same input gives the same mutants with the same IDs.
func TestGenerateDeterministic(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	list := func() []string {
		g, err := newGenerator(analyze(t, dir, "./app", "./store"), allOperators())
		require.NoError(t, err)
		var out []string
		for i, m := range g.mutants {
			require.Equal(t, i+1, m.ID)
			out = append(out, m.Pos()+" "+string(m.Operator)+" "+m.Description)
		}
		return out
	}
	first := list()
	assert.NotEmpty(t, first)
	assert.Equal(t, first, list())
}

// Every operator produces code that type-checks on the constructs
// fixture (generics, closures, interfaces, defer and go statements).
func TestAllOperatorsViableOnConstructs(t *testing.T) {
	dir := fixture.Copy(t, "constructs")
	a := analyze(t, dir, "./caller", "./callee")
	g, err := newGenerator(a, allOperators())
	require.NoError(t, err)
	require.NoError(t, g.checkViability("example.com/constructs/clingprobe_rt"))
	perOp := map[Operator]int{}
	for _, m := range g.mutants {
		assert.NotEqual(t, NotViable, m.Status, "#%d %s %s: %s", m.ID, m.Pos(), m.Description, m.Reason)
		perOp[m.Operator]++
	}
	for _, o := range allOperators() {
		assert.Positive(t, perOp[o], "no %s mutants", o)
	}
}

func TestConventionalMutants(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	g, err := newGenerator(analyze(t, dir, "./app", "./store"), groupOperators(ConventionalGroup))
	require.NoError(t, err)
	for _, c := range []struct{ pos, desc string }{
		{"store/store.go:49:7", "replaces > with >="},
		{"store/store.go:49:7", "replaces > with <="},
		{"store/store.go:49:5", "replaces the condition with true"},
		{"store/store.go:56:33", "replaces + with -"},
		{"store/store.go:56:35", "replaces 1 with 0"},
		{"app/app.go:38:4", "replaces ++ with --"},
		{"app/app.go:37:16", "replaces < with <="},
	} {
		find(t, g.mutants, c.pos, c.desc)
	}
}

// runFixture runs the mutation analysis of the mutants fixture.
func runFixture(t *testing.T, dir string, cfg Config) *Result {
	t.Helper()
	cfg.Analysis = analyze(t, dir, "./app", "./store")
	cfg.TimeoutFloor = time.Second
	res, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	return res
}

// The hand-worked statuses of the mutants fixture (see the comments in
// testdata/mutants).
func TestHandWorkedStatuses(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	before := fixture.Snapshot(t, dir)
	res := runFixture(t, dir, Config{})
	const app, store = "example.com/mutants/app.", "example.com/mutants/store."
	cases := []struct {
		pos, desc string
		status    Status
		killedBy  []string
		tests     int
	}{
		// No test calls Audit: its call site is not reached.
		{"app/app.go:47:39", "deletes the call to (*Store).Log", NotCovered, nil, 0},
		// TestAddCount checks the count Get returns.
		{"store/store.go:35:9", "returns 1 for 0, 0 for any other number (result 1 of 2)", Killed, []string{app + "TestAddCount"}, 2},
		{"store/store.go:35:12", "non-nil error", Killed, []string{app + "TestAddCount"}, 2},
		// Count ignores the quantity that comes with an error.
		{"store/store.go:33:10", "returns 1 for 0", Survived, nil, 1},
		{"store/store.go:33:13", "non-nil error", Killed, []string{app + "TestMissing"}, 1},
		// Nobody checks the log.
		{"store/store.go:26:9", "negated bool", Survived, nil, 2},
		{"app/app.go:16:9", "deletes the call to (*Store).Log", Survived, nil, 2},
		// Name is applied on both sides of the map: "" works too.
		{"store/store.go:45:39", `Name returns ""`, Survived, nil, 3},
		{"app/app.go:15:21", "with the zero value", Killed, []string{app + "TestAddCount"}, 2},
		{"app/app.go:15:21", "with argument 1 (key)", Killed, []string{app + "TestAddCount"}, 2},
		{"app/app.go:22:28", "with argument 1 (key)", Survived, nil, 3},
		// A nil store panics in every test that uses it.
		{"store/store.go:20:28", "New returns nil", Killed, []string{app + "TestAddCount"}, 4},
		// Clamp is only reached by a parallel test.
		{"store/store.go:50:10", "Clamp returns 1 for 0", Killed, []string{app + "TestCappedParallel"}, 1},
		{"store/store.go:52:9", "Clamp returns 1 for 0", NotCovered, nil, 0},
		{"app/app.go:31:15", "with argument 2 (max)", Survived, nil, 1},
		// Steps never ends.
		{"store/store.go:56:31", "Next returns", Timeout, nil, 2},
		{"app/app.go:37:31", "with the zero value", Timeout, nil, 2},
		{"app/app.go:37:31", "with argument 1 (i)", Timeout, nil, 2},
		// The parameter int shadows the type the untyped 0 needs.
		{"store/store.go:62:10", "Width returns", NotViable, nil, 0},
		{"store/store.go:64:9", "Width returns", Killed, []string{app + "TestLabel"}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.pos+" "+tc.desc, func(t *testing.T) {
			m := find(t, res.Mutants, tc.pos, tc.desc)
			assert.Equal(t, tc.status, m.Status, m.Reason)
			if tc.killedBy != nil {
				assert.Equal(t, tc.killedBy, m.KilledBy)
			} else {
				assert.Empty(t, m.KilledBy)
			}
			// Parallel tests count as running until they end, so the
			// tests active while a mutant is reached are a superset.
			assert.GreaterOrEqual(t, len(m.Tests), tc.tests)
			if tc.tests == 1 {
				assert.Len(t, m.Tests, 1)
			}
		})
	}
	assert.Contains(t, find(t, res.Mutants, "store/store.go:20:28", "New returns nil").Tests, store+"TestNew")
	assert.Equal(t, 27, len(res.Mutants))
	assert.InDelta(t, 18.0/26.0, res.Score(), 1e-9)
	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "the module changed")
}

const generatedSuite = `package app_test

import (
	"testing"

	"example.com/mutants/app"
)

func TestCling_Inventory_Capped(t *testing.T) {
	inv := app.NewInventory()
	inv.Add("Mug", 5)
	if got := inv.Capped("MUG", 9); got != 5 {
		t.Fatalf("Capped = %d, want 5", got)
	}
}
`

func TestCompare(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	before := fixture.Snapshot(t, dir)
	gen := filepath.Join(t.TempDir(), "cling_store_test.go")
	require.NoError(t, os.WriteFile(gen, []byte(generatedSuite), 0o644))
	res := runFixture(t, dir, Config{Compare: gen})
	c := res.Compare
	require.NotNil(t, c)
	assert.Equal(t, []string{"example.com/mutants/app.TestCling_Inventory_Capped"}, c.Tests)
	id := func(pos, desc string) int { return find(t, res.Mutants, pos, desc).ID }
	// Only the generated test checks an uncapped quantity and a key
	// written in another case.
	for _, m := range []int{
		id("app/app.go:31:15", "with argument 2 (max)"),
		id("store/store.go:52:9", "Clamp returns 1 for 0"),
		id("app/app.go:22:28", "with argument 1 (key)"),
	} {
		assert.Contains(t, c.OnlyGenerated, m)
	}
	// Only the existing tests look up missing keys and loop in Steps.
	for _, m := range []int{
		id("store/store.go:33:13", "non-nil error"),
		id("store/store.go:56:31", "Next returns"),
	} {
		assert.Contains(t, c.OnlyExisting, m)
	}
	assert.Contains(t, c.Both, id("store/store.go:35:9", "result 1 of 2"))
	assert.Greater(t, c.ScoreCombined, c.ScoreExisting)
	assert.Equal(t, res.Score(), c.ScoreCombined)
	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "the module changed")
}

// Select keeps the chosen mutants with the IDs of a run of all of them,
// and with none chosen, Run builds and runs nothing.
func TestSelect(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	before := fixture.Snapshot(t, dir)
	all, err := newGenerator(analyze(t, dir, "./app", "./store"), groupOperators(InterfaceGroup))
	require.NoError(t, err)
	var wantIDs []int
	for _, m := range all.mutants {
		if m.Rel == "store/store.go" && m.Line == 35 {
			wantIDs = append(wantIDs, m.ID)
		}
	}
	require.Len(t, wantIDs, 2)

	res := runFixture(t, dir, Config{Select: func(m *Mutant) bool { return m.Rel == "store/store.go" && m.Line == 35 }})
	var ids []int
	for _, m := range res.Mutants {
		ids = append(ids, m.ID)
		assert.Equal(t, Killed, m.Status, m.Pos())
		assert.Equal(t, []string{"example.com/mutants/app.TestAddCount"}, m.KilledBy)
	}
	assert.Equal(t, wantIDs, ids)
	assert.Equal(t, 1.0, res.Score())

	none := runFixture(t, dir, Config{Select: func(*Mutant) bool { return false }})
	assert.Empty(t, none.Mutants)
	assert.Empty(t, none.Tests, "no baseline ran")
	assert.Zero(t, none.Timing.Build)
	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "the module changed")
}

func TestBaselineMustPass(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	path := filepath.Join(dir, "app", "app_test.go")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), "got != -1", "got != -2", 1)), 0o644))
	_, err = Run(context.Background(), Config{Analysis: analyze(t, dir, "./app", "./store")})
	var be *BaselineError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, []string{"example.com/mutants/app.TestMissing"}, be.Failed)
}

func TestNoTestsSelected(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	a := analyze(t, dir, "./app", "./store")
	_, err := Run(context.Background(), Config{Analysis: a, Run: "^TestNothing$"})
	var nt *NoTestsError
	require.ErrorAs(t, err, &nt)
	assert.Contains(t, nt.Msg, "matches no test")

	// personcar has no tests at all.
	pc := fixture.Copy(t, "personcar")
	_, err = Run(context.Background(), Config{Analysis: analyze(t, pc, "./person", "./car")})
	require.ErrorAs(t, err, &nt)
	assert.Equal(t, "no tests to run in example.com/personcar/person example.com/personcar/car", nt.Msg)
}

// Cancelling a run kills its test processes and leaves the module as it
// was.
func TestInterruptedRunLeavesModule(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	before := fixture.Snapshot(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Run(ctx, Config{
		Analysis: analyze(t, dir, "./app", "./store"),
		Progress: func(string, int, int) { cancel() },
	})
	require.Error(t, err)
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "the module changed")
}

// Building each mutant on its own gives the same statuses as the schemata.
func TestNaiveAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds one binary per mutant")
	}
	dir := fixture.Copy(t, "mutants")
	res := runFixture(t, dir, Config{Run: "^(TestAddCount|TestMissing)$", Operators: []Operator{RetStaRep}, Naive: true})
	require.NotNil(t, res.Naive)
	assert.Positive(t, res.Naive.Mutants)
	assert.Empty(t, res.Naive.Mismatches)
}
