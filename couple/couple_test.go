package couple_test

import (
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func analyze(t *testing.T, fix, caller, callee string) *couple.Analysis {
	t.Helper()
	dir := fixture.Copy(t, fix)
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	return a
}

func ids(bs []couple.Branch) []string {
	out := []string{}
	for _, b := range bs {
		out = append(out, b.ID())
	}
	return out
}

// The worked example of Derakhshanfar et al. 2022 (section 3.1): exactly
// two coupled branches, both at the Refuel call site, pairing the false
// branch of p.Lazy with both branches of FuelAmount < 50.
func TestPersonCar(t *testing.T) {
	a := analyze(t, "personcar", "./person", "./car")
	require.Len(t, a.Sites, 2)

	drive, refuel := a.Sites[0], a.Sites[1]
	assert.Equal(t, "(*Car).Drive", drive.Targets[0].Name)
	assert.Equal(t, []string{"person/person.go:14:5:false"}, ids(drive.CallerTargets))
	assert.Empty(t, drive.CalleeTargets, "Drive has no branches")

	assert.Equal(t, "(*Car).Refuel", refuel.Targets[0].Name)
	assert.Equal(t, "(*Person).addEnergy", refuel.Func.Name)
	assert.Equal(t, []string{"person/person.go:22:5:false"}, ids(refuel.CallerTargets),
		"FuelAmount < 100 is not a target: takeBus avoids the call")
	assert.Equal(t, []string{"car/car.go:14:5:true", "car/car.go:14:5:false"}, ids(refuel.CalleeTargets))

	require.Len(t, a.Goals, 2)
	assert.Equal(t, "person/person.go:22:5:false", a.Goals[0].R.ID())
	assert.Equal(t, "car/car.go:14:5:true", a.Goals[0].E.ID())
	assert.Equal(t, "car/car.go:14:5:false", a.Goals[1].E.ID())

	var covering []string
	for _, f := range a.Covering {
		covering = append(covering, f.Name)
	}
	assert.Equal(t, []string{"(*Person).DriveToHome"}, covering)
	assert.Equal(t, (1+1)+(1+1)+(0+1), couple.Complexity(a.Caller), "DriveToHome (1 if), addEnergy (1 if), takeBus (0 ifs)")
	assert.Equal(t, 3, len(a.Caller.Funcs))
}

// TestConstructs pins what each Go construct yields, call site by call
// site: the caller function, what it calls, its caller targets and the
// number of coupled branches. docs/analysis.md explains each row.
func TestConstructs(t *testing.T) {
	a := analyze(t, "constructs", "./caller", "./callee")
	type row struct {
		pos, fn, callee string
		callerTargets   []string
		pairs           int
	}
	want := []row{
		// switch: each value of a tagged case is its own node; default is the false branch of the last test.
		{"caller/control.go:9:17", "TaggedSwitch", "Classify", []string{"caller/control.go:8:7:true", "caller/control.go:8:14:true"}, 16},
		{"caller/control.go:11:17", "TaggedSwitch", "Classify", []string{"caller/control.go:10:7:true"}, 8},
		{"caller/control.go:13:17", "TaggedSwitch", "Classify", []string{"caller/control.go:10:7:false"}, 8},
		{"caller/control.go:21:17", "TaglessSwitch", "Sign", []string{"caller/control.go:20:7:true"}, 4},
		{"caller/control.go:23:17", "TaglessSwitch", "Scale", []string{"caller/control.go:22:7:true"}, 4},
		// type switch: one node per type in a case list.
		{"caller/control.go:34:17", "TypeSwitch", "Kind", []string{"caller/control.go:33:7:true", "caller/control.go:33:12:true"}, 20},
		{"caller/control.go:36:17", "TypeSwitch", "Classify", []string{"caller/control.go:35:7:true"}, 8},
		{"caller/control.go:40:17", "TypeSwitch", "Kind", []string{"caller/control.go:37:7:false"}, 10},
		// && and ||: each operand is a node, in conditions and in value context.
		{"caller/control.go:48:15", "AndOr", "Scale", []string{"caller/control.go:47:14:true"}, 4},
		{"caller/control.go:51:15", "AndOr", "Sign", []string{"caller/control.go:50:5:true", "caller/control.go:50:14:true"}, 8},
		{"caller/control.go:53:25", "AndOr", "IsEven", []string{"caller/control.go:53:8:true"}, 0},
		{"caller/control.go:54:25", "AndOr", "InRange", []string{"caller/control.go:54:12:false"}, 2},
		// range loops: the node is the `for` keyword; true starts an iteration.
		{"caller/control.go:62:19", "RangeSlice", "Double", []string{"caller/control.go:61:2:true"}, 2},
		{"caller/control.go:72:20", "RangeMap", "Scale", []string{"caller/control.go:71:6:true"}, 4},
		{"caller/control.go:82:19", "RangeString", "B", []string{"caller/control.go:81:2:true"}, 4},
		{"caller/control.go:91:19", "RangeInt", "Double", []string{"caller/control.go:90:2:true"}, 2},
		{"caller/control.go:100:19", "RangeChannel", "Double", []string{"caller/control.go:99:2:true"}, 2},
		{"caller/control.go:112:19", "RangeBreak", "Double", []string{"caller/control.go:109:6:false"}, 2},
		{"caller/control.go:121:19", "ForCond", "Scale", []string{"caller/control.go:120:14:true"}, 4},
		// for {}: the body always runs, so the call is an entry target.
		{"caller/control.go:131:13", "ForInfinite", "Scale", []string{"entry:ForInfinite"}, 4},
		// init functions run before any test: their calls have no caller targets.
		{"caller/runtime.go:16:20", "init#1", "NewGreeter", []string{}, 0},
		{"caller/runtime.go:16:37", "init#1", "Greeter.Greet", []string{}, 0},
		// defer and go statements are call sites like any other.
		{"caller/runtime.go:27:15", "Defer", "Cleanup", []string{"entry:Defer"}, 0},
		{"caller/runtime.go:29:17", "Defer", "Scale", []string{"caller/runtime.go:28:5:true"}, 4},
		{"caller/runtime.go:41:16", "Recover", "MustPositive", []string{"entry:Recover"}, 4},
		{"caller/runtime.go:53:24", "Goroutines$1", "Double", []string{"caller/runtime.go:49:2:true"}, 2},
		{"caller/runtime.go:58:12", "Goroutines", "Work", []string{"entry:Goroutines"}, 4},
		// select: one node per communication clause; default is the false branch of the last.
		{"caller/runtime.go:73:17", "Select", "Classify", []string{"caller/runtime.go:72:2:true"}, 8},
		{"caller/runtime.go:75:17", "Select", "Kind", []string{"caller/runtime.go:74:2:true"}, 10},
		{"caller/runtime.go:77:17", "Select", "Classify", []string{"caller/runtime.go:74:2:false"}, 8},
		{"caller/runtime.go:83:9", "UnusedResult", "Scale", []string{"entry:UnusedResult"}, 4},
		{"caller/runtime.go:88:19", "TwoResults", "Parse", []string{"entry:TwoResults"}, 6},
		{"caller/runtime.go:97:16", "NestedCall", "A", []string{"entry:NestedCall"}, 2},
		{"caller/runtime.go:97:25", "NestedCall", "B", []string{"entry:NestedCall"}, 4},
		{"caller/runtime.go:103:16", "ConstructorMethod", "NewCounter", []string{"entry:ConstructorMethod"}, 2},
		{"caller/runtime.go:103:34", "ConstructorMethod", "(*Counter).Incr", []string{"entry:ConstructorMethod"}, 2},
		// interface dispatch: CHA over callee types; both implementations are targets.
		{"caller/types.go:31:14", "InterfaceDispatch", "Shape.Area", []string{"caller/types.go:30:6:true"}, 4},
		{"caller/types.go:42:14", "CalleeInterface", "NewGreeter", []string{"entry:CalleeInterface"}, 2},
		{"caller/types.go:44:12", "CalleeInterface", "Greeter.Greet", []string{"caller/types.go:43:5:true"}, 4},
		// embedding: promoted methods resolve to the callee's method.
		{"caller/types.go:70:27", "EmbeddedValue", "Engine.Rating", []string{"caller/types.go:69:5:true"}, 4},
		{"caller/types.go:72:26", "EmbeddedValue", "Engine.Rating", []string{"caller/types.go:69:5:false"}, 4},
		{"caller/types.go:81:4", "EmbeddedPointer", "(*Engine).Boost", []string{"caller/types.go:78:5:false"}, 2},
		{"caller/types.go:82:11", "EmbeddedPointer", "Engine.Rating", []string{"caller/types.go:78:5:false"}, 4},
		{"caller/types.go:94:23", "EmbeddedInterface", "Rated.Rating", []string{"caller/types.go:93:2:true"}, 4},
		// closures: called in place, the closure's call is a call edge; a
		// closure stored and called later is controlled by its call.
		{"caller/types.go:102:36", "Closures$1", "Double", []string{"entry:Closures"}, 2},
		{"caller/types.go:103:43", "Closures$2", "Double", []string{"caller/types.go:104:5:true"}, 2},
		// a closure passed away runs wherever its creator lets it: creating it counts.
		{"caller/types.go:114:54", "SortClosure$1", "Less", []string{"entry:SortClosure"}, 4},
		// unexported helpers: the call is lifted through helperOuter to Helpers' branch.
		{"caller/types.go:131:17", "helperInner", "Scale", []string{"caller/types.go:130:5:true"}, 4},
		// generics: instantiations map to the generic function.
		{"caller/types.go:141:7", "Generics", "(*Stack).Push", []string{"entry:Generics"}, 0},
		{"caller/types.go:141:19", "Generics", "Max", []string{"entry:Generics"}, 2},
		{"caller/types.go:142:7", "Generics", "(*Stack).Push", []string{"entry:Generics"}, 0},
		{"caller/types.go:142:19", "Generics", "Max", []string{"entry:Generics"}, 2},
		{"caller/types.go:143:15", "Generics", "(*Stack).Pop", []string{"entry:Generics"}, 2},
		{"caller/types.go:144:16", "Generics", "(*Stack).Pop", []string{"entry:Generics"}, 2},
		{"caller/types.go:159:17", "Largest", "Max", []string{"caller/types.go:158:2:true"}, 2},
		{"caller/types.go:173:16", "Negated", "Apply", []string{"entry:Negated"}, 0},
	}
	var got []row
	total := 0
	for _, s := range a.Sites {
		pairs := len(s.CallerTargets) * len(s.CalleeTargets)
		total += pairs
		got = append(got, row{a.Prog.Pos(s.Pos), s.Func.Name, couple.CalleeName(s), ids(s.CallerTargets), pairs})
	}
	assert.Equal(t, want, got)
	assert.Equal(t, total, len(a.Goals))
	assert.Equal(t, 0, a.Caller.Unmapped, "every If of the caller maps to a source construct")
	assert.Equal(t, 0, a.Callee.Unmapped, "every If of the callee maps to a source construct")
}

// Every kind of branching node appears in the constructs fixture.
func TestConstructsNodeKinds(t *testing.T) {
	a := analyze(t, "constructs", "./caller", "./callee")
	kinds := map[ccfg.BranchKind]int{}
	for _, n := range a.Caller.Nodes {
		kinds[n.Kind]++
	}
	for _, k := range []ccfg.BranchKind{ccfg.KindCond, ccfg.KindCase, ccfg.KindTypeCase, ccfg.KindRange, ccfg.KindSelect} {
		assert.Positive(t, kinds[k], "no %s node", k)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./person", "./car"}})
	require.NoError(t, err)
	_, err = couple.Analyze(prog, "example.com/personcar/car", "example.com/personcar/car")
	assert.EqualError(t, err, "caller and callee are the same package (example.com/personcar/car)")
	_, err = couple.Analyze(prog, "example.com/personcar/car", "example.com/personcar/person")
	assert.EqualError(t, err, "no call sites from example.com/personcar/car to example.com/personcar/person")
	assert.True(t, ccfg.IsLoadError(err))
}

// A branching node is control dependent on the branches that lead
// unavoidably to it, across functions: p.Lazy is tested in addEnergy,
// which only the true branch of Fuel < 100 calls; a function's first node
// depends on the entry pseudo-branch of the function.
func TestControlling(t *testing.T) {
	a := analyze(t, "personcar", "./person", "./car")
	nodes := map[string]*ccfg.BranchNode{}
	for _, n := range a.Caller.Nodes {
		nodes[n.ID()] = n
	}
	for _, n := range a.Callee.Nodes {
		nodes[n.ID()] = n
	}
	for _, tc := range []struct{ node, want string }{
		{"person/person.go:22:5", "person/person.go:14:5:true"},
		{"person/person.go:14:5", "entry:(*Person).DriveToHome"},
		{"car/car.go:14:5", "entry:(*Car).Refuel"},
	} {
		n := nodes[tc.node]
		require.NotNil(t, n, tc.node)
		assert.Equal(t, []string{tc.want}, ids(a.Controlling(n)), tc.node)
	}
}

// goalIDs names the goals of an analysis as site, caller target, callee
// target.
func goalIDs(a *couple.Analysis) []string {
	out := []string{}
	for _, g := range a.Goals {
		out = append(out, a.Prog.Pos(g.Site.Pos)+" "+g.R.ID()+" "+g.E.ID())
	}
	return out
}

// AllPairs hands out each pair's analysis: the goals that Analyze finds
// for the pair in the same program.
func TestAllPairsAnalysis(t *testing.T) {
	dir := fixture.Copy(t, "shop")
	prog, err := ccfg.Load(ccfg.LoadConfig{Dir: dir, Patterns: []string{"./..."}})
	require.NoError(t, err)
	pairs := couple.AllPairs(prog, prog.Packages)
	require.NotEmpty(t, pairs)
	for _, p := range pairs {
		require.NotNil(t, p.Analysis)
		assert.Len(t, p.Analysis.Goals, p.CoupledBranches)
		a, err := couple.Analyze(prog, p.Caller.Pkg.Path, p.Callee.Pkg.Path)
		require.NoError(t, err)
		assert.Equal(t, goalIDs(a), goalIDs(p.Analysis), "%s -> %s", p.Caller.Pkg.Path, p.Callee.Pkg.Path)
	}
}
