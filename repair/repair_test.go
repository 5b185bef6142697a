package repair_test

import (
	"fmt"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/repair"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func generator(t *testing.T) *testcase.Generator {
	dir := fixture.Copy(t, "shop")
	prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./checkout", "./pricing"}})
	require.NoError(t, err)
	a, err := couple.Analyze(prog, "example.com/shop/checkout", "example.com/shop/pricing")
	require.NoError(t, err)
	return testcase.NewGenerator(testcase.NewCluster(a, 4), testcase.DefaultConfig(), 1)
}

// withoutCovering removes every covering call (and what depends on it).
func withoutCovering(tc *testcase.Test) *testcase.Test {
	t := tc.Clone()
	for i := t.Len() - 1; i >= 0; i-- {
		if i < t.Len() && t.Stmts[i].Op.Covering {
			t.Remove(i)
		}
	}
	return t
}

func TestMutationRepairInsertsCoveringCall(t *testing.T) {
	g := generator(t)
	var c repair.Counts
	repaired, dropped := 0, 0
	for i := 0; i < 50; i++ {
		broken := withoutCovering(g.RandomTest())
		require.False(t, broken.HasCovering())
		if repair.Mutation(g, broken, 50, &c) {
			repaired++
			assert.True(t, broken.HasCovering())
			require.NoError(t, broken.Valid())
		} else {
			dropped++
		}
	}
	assert.Equal(t, repaired, c.Repaired)
	assert.Equal(t, dropped, c.Dropped)
	assert.Positive(t, repaired)

	var none repair.Counts
	ok := g.RandomTest()
	assert.True(t, repair.Mutation(g, ok, 50, &none), "a test with a covering call needs no repair")
	assert.Equal(t, repair.Counts{}, none)
}

func TestMutationRepairGivesUp(t *testing.T) {
	g := generator(t)
	var c repair.Counts
	broken := withoutCovering(g.RandomTest())
	assert.False(t, repair.Mutation(g, broken, 0, &c), "no attempts left: dropped")
	assert.Equal(t, 1, c.Dropped)
}

func TestCrossoverRepairReplacesByParent(t *testing.T) {
	g := generator(t)
	var c repair.Counts
	parent := g.RandomTest()
	child := withoutCovering(parent)
	got := repair.Crossover(child, parent, &c)
	assert.Equal(t, parent.String(), got.String())
	assert.NotSame(t, parent, got)
	assert.Equal(t, 1, c.Replaced)
	assert.Same(t, parent, repair.Crossover(parent, child, &c), "a child with a covering call stays")
}

// personcar returns a generator for the personcar fixture (cluster depth
// maxDepth, no reuse of existing literals or objects when a value is
// built) and a test that drives a person's car home.
func personcar(t *testing.T, maxDepth int) (*testcase.Generator, *testcase.Test) {
	dir := fixture.Copy(t, "personcar")
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./person", "./car")
	require.NoError(t, err)
	c := testcase.NewCluster(a, maxDepth)
	op := map[string]*testcase.Op{}
	for _, o := range c.Ops {
		op[o.Name] = o
	}
	drive := &testcase.Test{Stmts: []testcase.Stmt{
		{Op: op["lit int"], Value: int64(10)},
		{Op: op["&{} car.Car"], Args: []testcase.Ref{{Stmt: 0}}},
		{Op: op["lit bool"], Value: true},
		{Op: op["&{} person.Person"], Args: []testcase.Ref{{Stmt: 1}, {Stmt: 2}}},
		{Op: op["(*person.Person).DriveToHome"], Args: []testcase.Ref{{Stmt: 3}}},
	}}
	require.NoError(t, drive.Valid())
	cfg := testcase.DefaultConfig()
	cfg.PrimitiveReuse, cfg.ObjectReuse = 0, 0
	return testcase.NewGenerator(c, cfg, 1), drive
}

// A grafted tail keeps its references among its own statements (moved to
// their new places) and resolves those into the head it lost to a value of
// the new head of the same type.
func TestGraftResolvesReferencesInTheHead(t *testing.T) {
	g, drive := personcar(t, 4)
	before := drive.String()
	head := &testcase.Test{Stmts: []testcase.Stmt{drive.Stmts[0], drive.Stmts[0]}}
	head.Stmts[1].Value = int64(20)
	repair.Graft(g, head, drive, 1)
	require.NoError(t, head.Valid())
	fuel := head.Stmts[2].Args[0]
	assert.Contains(t, []testcase.Ref{{Stmt: 0}, {Stmt: 1}}, fuel, "the car's fuel is one of the head's ints")
	assert.Equal(t, "0: lit int 10\n1: lit int 20\n"+
		fmt.Sprintf("2: &{} car.Car v%d.0\n", fuel.Stmt)+
		"3: lit bool true\n4: &{} person.Person v2.0 v3.0\n5: (*person.Person).DriveToHome v4.0\n", head.String())
	assert.Equal(t, before, drive.String(), "the source is untouched")
}

// A reference with no value of its type in the head gets a new value,
// built at the end of the head before the statement.
func TestGraftBuildsMissingValues(t *testing.T) {
	g, drive := personcar(t, 4)
	head := drive.Prefix(1)
	repair.Graft(g, head, drive, 2)
	require.NoError(t, head.Valid())
	n := head.Len()
	require.GreaterOrEqual(t, n, 5, "int, bool, the built car, person, call")
	assert.Equal(t, "lit bool", head.Stmts[1].Op.Name)
	person, call := head.Stmts[n-2], head.Stmts[n-1]
	assert.Equal(t, "&{} person.Person", person.Op.Name)
	assert.Equal(t, "(*person.Person).DriveToHome", call.Op.Name)
	assert.Equal(t, []testcase.Ref{{Stmt: n - 2}}, call.Args)
	car := person.Args[0]
	assert.True(t, car.Stmt >= 2 && car.Stmt < n-2, "the car is built after the bool: %v", car)
	assert.Equal(t, testcase.Ref{Stmt: 1}, person.Args[1], "Lazy is the grafted bool")
}

// A statement whose reference neither resolves nor can be built is left
// out, and so are the statements that need it; grafting stops at MaxLen.
func TestGraftDropsAndStops(t *testing.T) {
	g, drive := personcar(t, 4)
	g.C.MaxDepth = -1 // nothing can be built
	head := drive.Prefix(1)
	repair.Graft(g, head, drive, 2)
	assert.Equal(t, "0: lit int 10\n1: lit bool true\n", head.String())

	g, drive = personcar(t, 4)
	g.Cfg.MaxLen = 3
	head = &testcase.Test{}
	repair.Graft(g, head, drive, 0)
	assert.Equal(t, "0: lit int 10\n1: &{} car.Car v0.0\n2: lit bool true\n", head.String())
}
