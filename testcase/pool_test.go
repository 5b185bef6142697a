package testcase_test

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/golden"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typeText writes a type with package names, declared types bare.
func typeText(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if testcase.IsDeclaredPkg(p) {
			return ""
		}
		return p.Name()
	})
}

// apiOp returns the call of R's API of the given name.
func apiOp(t *testing.T, c *testcase.Cluster, name string) *testcase.Op {
	t.Helper()
	op := c.OpNamed(name)
	require.True(t, op != nil && op.API, "no API call %s", name)
	return op
}

// The pool of the decoder pair, in its documented order: basics,
// composites, the declared types and pointers to them, function types,
// the other kinds and shapes, then the exported types of R, E and their imports (decode's
// MissingError; config declares none). The pair has no type switch.
func TestPool(t *testing.T) {
	c := cluster(t, "reflective", "./config", "./decode")
	var got []string
	for _, p := range c.Pool {
		got = append(got, typeText(p))
	}
	assert.Equal(t, []string{
		"bool", "int", "int64", "uint", "float64", "string", "[]byte",
		"[]int", "[]string", "[3]int", "map[string]int", "map[int]string", "*int", "[]any", "map[string]any",
		"item1", "item2", "item3", "item4", "*item1", "*item2", "*item3", "*item4",
		"func(int, int) bool", "func(string, string) bool", "func(int) int", "func(string) string", "func(string) bool",
		"chan int", "<-chan int", "chan<- string", "func(...string) int", "func(int) (string, error)", "[]error", "map[string][]int",
		"map[any]int", "map[float64]bool", "map[[2]int]string", "uintptr",
		"decode.MissingError",
	}, got)
	// Every type of the pool but pointers, interfaces and functions has a
	// decode target.
	var targets []string
	for _, op := range c.Targets() {
		targets = append(targets, op.Name)
	}
	assert.Equal(t, []string{
		"&var bool", "&var int", "&var int64", "&var uint", "&var float64", "&var string", "&var []byte",
		"&var []int", "&var []string", "&var [3]int", "&var map[string]int", "&var map[int]string", "&var []any", "&var map[string]any",
		"&var item1", "&var item2", "&var item3", "&var item4",
		"&var []error", "&var map[string][]int", "&var map[any]int", "&var map[float64]bool", "&var map[[2]int]string", "&var uintptr", "&var decode.MissingError",
	}, targets)
	// The tag names of the declared fields seed strings.
	assert.Subset(t, c.Constants.Strings, []string{"name", "count", "value", "extra"})
}

// The declared types of the decoder pair carry the tag key decode reads
// ("cfg"), its option word "required", and "-" on the field to skip, as
// the executor and the emitted tests declare them.
func TestDeclaredGolden(t *testing.T) {
	c := cluster(t, "reflective", "./config", "./decode")
	var b strings.Builder
	for _, d := range c.Declared {
		b.WriteString(testcase.DeclSource(d, typeText) + "\n")
	}
	golden.File(t, "testcase/declared.reflective-config.go.golden", b.String())

	// Without tag keys in R and E, the same types without tags.
	c = cluster(t, "reflective", "./compare", "./walk")
	assert.Equal(t, "type item1 struct {\n\tName string\n\tCount int\n\tRatio float64\n\tEnabled bool\n\tTags []string\n\tAttrs map[string]string\n}\n",
		testcase.DeclSource(c.Declared[0], typeText))
	assert.Equal(t, []*types.Named{c.Declared[0], c.Declared[2]}, c.DeclaredIn(types.NewSlice(c.Declared[2])), "item3 holds item1s")
}

// What the analysis says of interface parameters: config.Load passes v
// to decode.Into, which checks that it is a pointer; compare.Comparer
// checks that f is a function; compare.Equal walks its arguments with a
// switch over every kind, which says nothing of them.
func TestParamUses(t *testing.T) {
	c := cluster(t, "reflective", "./config", "./decode")
	assert.Equal(t, []testcase.ParamUse{0, testcase.UseTarget}, apiOp(t, c, "config.Load").Uses)
	c = cluster(t, "reflective", "./compare", "./walk")
	assert.Equal(t, []testcase.ParamUse{testcase.UseFunc}, apiOp(t, c, "compare.Comparer").Uses)
	assert.Nil(t, apiOp(t, c, "compare.Equal").Uses)
}

// Exported error variables of R and E produce errors, as pkg.ErrX.
func TestSentinelErrors(t *testing.T) {
	c := cluster(t, "reflective", "./notify", "./hooks")
	var got []string
	for _, op := range c.Producers(types.Universe.Lookup("error").Type()) {
		got = append(got, op.Name)
	}
	assert.Equal(t, []string{
		"errors.New as error",
		"var example.com/reflective/notify.ErrEmpty", "var example.com/reflective/notify.ErrRetry",
		"var example.com/reflective/hooks.ErrBlank", "var example.com/reflective/hooks.ErrFiltered",
		"nil error",
	}, got)
}

// A function literal of each shape, written as the executor and the
// emitted test write it: one source per variant.
func TestFuncLiterals(t *testing.T) {
	typ := func(t types.Type) string { return types.TypeString(t, nil) }
	w := testcase.FuncWriter{
		Type:   typ,
		Const:  func(t types.Type, v any) string { return fmt.Sprintf("%s(%#v)", typ(t), v) },
		Errors: func() string { return "errors" },
	}
	param := func(t types.Type) *types.Var { return types.NewParam(0, nil, "", t) }
	sig := func(variadic bool, res []types.Type, params ...types.Type) types.Type {
		var ps, rs []*types.Var
		for _, p := range params {
			ps = append(ps, param(p))
		}
		for _, r := range res {
			rs = append(rs, param(r))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), variadic)
	}
	in, str, b := types.Typ[types.Int], types.Typ[types.String], types.Typ[types.Bool]
	errT := types.Universe.Lookup("error").Type()
	cases := []struct {
		name  string
		typ   types.Type
		konst any
		want  []string
	}{
		{"comparer", sig(false, []types.Type{b}, in, in), true, []string{
			"func(int, int) bool { return false }",
			"func(int, int) bool { return bool(true) }",
			"func(x int, y int) bool { return x == y }",
			"func(x int, y int) bool { return x < y }",
		}},
		{"transformer", sig(false, []types.Type{str}, str), "!", []string{
			"func(string) string { return \"\" }",
			`func(string) string { return string("!") }`,
			"func(x string) string { return x }",
			`func(x string) string { return x + string("!") }`,
		}},
		{"predicate", sig(false, []types.Type{b}, b, str), false, []string{
			"func(bool, string) bool { return false }",
			"func(bool, string) bool { return bool(false) }",
			"func(x bool, _ string) bool { return x }",
			"func(x bool, _ string) bool { return !x }",
		}},
		{"counter", sig(true, []types.Type{in}, types.NewSlice(in)), int64(7), []string{
			"func(...int) int { return 0 }",
			"func(...int) int { return int(7) }",
			"func(x ...int) int { return len(x) }",
		}},
		{"callback", sig(false, nil, str), nil, []string{
			"func(string) {}",
		}},
		{"fallible", sig(false, []types.Type{in, errT}, in), int64(-1), []string{
			"func(int) (int, error) { return 0, nil }",
			"func(int) (int, error) { return int(-1), nil }",
			"func(x int) (int, error) { return x, nil }",
			"func(x int) (int, error) { return x + 1, nil }",
		}},
		{"handler", sig(false, []types.Type{b}, errT), true, []string{
			"func(error) bool { return false }",
			"func(error) bool { return bool(true) }",
		}},
		{"error", sig(false, []types.Type{errT}, str), "oops", []string{
			"func(string) error { return nil }",
			`func(string) error { return errors.New(string("oops")) }`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op := &testcase.Op{Kind: testcase.OpFunc, Type: tc.typ, Variants: testcase.FuncVariants(testcase.Signature(tc.typ))}
			var got []string
			for v := range op.Variants {
				got = append(got, w.Literal(op, testcase.FuncLit{Variant: v, Const: tc.konst}))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// A branch that tests a kind asks for it while a goal that needs it is
// uncovered: the goals of walk.Classify's `case reflect.Struct` ask for
// structs, and those of walk.Truth's `v.Kind() != reflect.Bool` taken
// false (the comparer returned a bool) ask for booleans.
func TestPreference(t *testing.T) {
	c := cluster(t, "reflective", "./compare", "./walk")
	a := c.Analysis()
	byID := func(e string) []int32 {
		var out []int32
		for i, g := range a.Goals {
			if g.E.ID() == e {
				out = append(out, int32(i))
			}
		}
		require.NotEmpty(t, out, e)
		return out
	}
	p := c.Preference(byID("walk/walk.go:24:7:true"))
	require.NotNil(t, p)
	assert.Equal(t, []testcase.Ask{{Kinds: []reflect.Kind{reflect.Struct}}}, p.Asks, "one ask for all the goals of the branch")
	assert.True(t, p.Asks[0].Matches(c.Declared[0]))
	assert.False(t, p.Asks[0].Matches(types.Typ[types.Int]))
	p = c.Preference(append(byID("walk/walk.go:66:5:false"), byID("walk/walk.go:24:7:true")...))
	require.NotNil(t, p)
	assert.Equal(t, []testcase.Ask{{Kinds: []reflect.Kind{reflect.Bool}}, {Kinds: []reflect.Kind{reflect.Struct}}}, p.Asks)
	assert.Nil(t, c.Preference(nil))

	// The generator draws what an ask names half of the time: of 1000
	// values for compare.Equal's x, most are structs when structs are
	// asked for, few otherwise.
	equal := apiOp(t, c, "compare.Equal")
	structs := func(prefer *testcase.Preference) int {
		g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
		g.Prefer = prefer
		n := 0
		for i := 0; i < 1000; i++ {
			tc := &testcase.Test{}
			at := g.InsertCall(tc, equal, 0)
			if x := tc.Stmts[at].Args[0]; testcase.KindOf(tc.Stmts[x.Stmt].Op.Outputs()[x.Result]) == reflect.Struct {
				n++
			}
		}
		return n
	}
	without, with := structs(nil), structs(c.Preference(byID("walk/walk.go:24:7:true")))
	t.Logf("structs: %d without preference, %d with", without, with)
	assert.Less(t, without, 300)
	assert.Greater(t, with, 500)

	// A generator follows a new preference at once: after drawing for
	// structs, the same generator asked for booleans draws booleans.
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	ofKind := func(k reflect.Kind) int {
		n := 0
		for i := 0; i < 1000; i++ {
			tc := &testcase.Test{}
			at := g.InsertCall(tc, equal, 0)
			if x := tc.Stmts[at].Args[0]; testcase.KindOf(tc.Stmts[x.Stmt].Op.Outputs()[x.Result]) == k {
				n++
			}
		}
		return n
	}
	bools := ofKind(reflect.Bool)
	g.Prefer = c.Preference(byID("walk/walk.go:24:7:true"))
	assert.Greater(t, ofKind(reflect.Struct), 500)
	g.Prefer = c.Preference(byID("walk/walk.go:66:5:false"))
	preferred := ofKind(reflect.Bool)
	t.Logf("booleans: %d without preference, %d asked for after structs", bools, preferred)
	assert.Greater(t, preferred, 2*bools)
}

// A call of an interface's method reaches E only when the value's
// dynamic type is the receiver of one of E's methods: show.Text calls
// String on a fmt.Stringer, which reaches level only for a level.Level.
// The goals of that call site ask for level.Level, not for fmt.Stringer
// (which a stub or any other type satisfies), and the receiver joins the
// pool before the case types, so that a pool full of those keeps it.
func TestDispatchReceivers(t *testing.T) {
	c := cluster(t, "reflective", "./show", "./level")
	a := c.Analysis()
	var dispatched, static []int32
	for i, g := range a.Goals {
		if g.Site.Func.Name == "Text" {
			dispatched = append(dispatched, int32(i))
		} else {
			static = append(static, int32(i))
		}
	}
	require.Len(t, dispatched, 4)
	p := c.Preference(dispatched)
	require.NotNil(t, p)
	require.Len(t, p.Asks, 1, "one ask for the goals of the call site")
	ask := p.Asks[0]
	assert.Empty(t, ask.Kinds)
	var asked []string
	for _, typ := range ask.Types {
		asked = append(asked, typeText(typ))
	}
	assert.Equal(t, []string{"level.Level"}, asked)
	assert.Nil(t, c.Preference(static), "a static call asks for no type")

	var pool []string
	for _, typ := range c.Pool {
		pool = append(pool, typeText(typ))
	}
	assert.Equal(t, []string{"level.Level", "fmt.Stringer", "error", "level.Names"}, pool[len(pool)-4:],
		"the receiver, then the case types, then the exported types but level.Level, already in")
}

// Random tests and mutation on a pair with empty interfaces, function
// values and decode targets keep tests valid, use only registered
// operations, and draw values of many types of the pool: decode targets
// for config.Load's v, most of them.
func TestGenerationWithPool(t *testing.T) {
	c := cluster(t, "reflective", "./config", "./decode")
	n := len(c.Ops)
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	load := apiOp(t, c, "config.Load")
	kinds := map[testcase.OpKind]int{}
	targets, loads := 0, 0
	for i := 0; i < 500; i++ {
		tc := g.RandomTest()
		require.NoError(t, tc.Valid())
		for j := 0; j < 5; j++ {
			g.Mutate(tc)
			require.NoError(t, tc.Valid())
		}
		for _, s := range tc.Stmts {
			kinds[s.Op.Kind]++
			if s.Op == load && !s.Args[1].IsOmitted() {
				loads++
				if tc.Stmts[s.Args[1].Stmt].Op.Kind == testcase.OpTarget {
					targets++
				}
			}
		}
	}
	assert.Equal(t, n, len(c.Ops), "generation registered new operations")
	for _, k := range []testcase.OpKind{testcase.OpTarget, testcase.OpFunc, testcase.OpComposite, testcase.OpSlice, testcase.OpMap, testcase.OpPrim} {
		assert.Positive(t, kinds[k], "op kind %d", k)
	}
	assert.Greater(t, targets, loads/2, "decode targets for config.Load's v")
}

// A package that hands out values of its unexported types is driven
// through them: policy's Allow returns an unexported rule builder whose
// methods return the builder again (the executor calls those through
// reflection, since no interface can name their results), and Rewrite
// takes an unexported named function type, which tests write as its
// signature.
func TestUnexportedBuildersAndCallbacks(t *testing.T) {
	c := cluster(t, "reflective", "./policy", "./level")
	assert.Empty(t, c.Skipped)
	api := map[string]*testcase.Op{}
	for _, op := range c.API {
		api[op.Name] = op
	}
	assert.Equal(t, []string{"(*policy.Policy).Allow", "(*policy.Policy).Allows", "(*policy.Policy).Rewrite",
		"(*policy.ruleBuilder).Add", "(*policy.ruleBuilder).From", "(*policy.ruleBuilder).Via", "policy.New"}, names(c.API))
	assert.True(t, api["(*policy.ruleBuilder).From"].ByReflection, "From returns the unexported builder")
	assert.True(t, api["(*policy.ruleBuilder).Via"].ByReflection, "an interface would write Via's rewriter as its signature, which the method does not have")
	assert.False(t, api["(*policy.ruleBuilder).Add"].ByReflection, "Add returns a *Policy, which an interface can name")
	assert.False(t, api["(*policy.Policy).Allow"].ByReflection, "a method of an exported type is called directly")

	builder := api["(*policy.ruleBuilder).From"].Params[0]
	assert.Equal(t, []string{"(*policy.Policy).Allow", "(*policy.ruleBuilder).From"}, names(c.Producers(builder)),
		"the builder comes from the methods that return it")
	assert.Equal(t, 1, c.Height(builder), "Allow on a *Policy literal")

	rewriter := api["(*policy.Policy).Rewrite"].Params[1]
	assert.Equal(t, "example.com/reflective/policy.rewriter", rewriter.String())
	assert.Equal(t, "func(string) string", testcase.WrittenType(rewriter).String())
	assert.Equal(t, []string{"func policy.rewriter", "nil policy.rewriter"}, names(c.Producers(rewriter)))
	assert.Same(t, builder, testcase.WrittenType(builder), "only function types are written as their signature")
}

// A string parameter R's code passes to a function of os, directly or
// through a call of its own, is a path: catalog's Save writes the file at
// path; Snapshot's name and Label's name are data.
func TestPathParameters(t *testing.T) {
	c := cluster(t, "registry", "./catalog", "./format")
	uses := map[string][]testcase.ParamUse{}
	for _, op := range c.API {
		var u []testcase.ParamUse
		for i := range op.Params {
			u = append(u, op.Use(i))
		}
		uses[op.Name] = u
	}
	assert.Equal(t, []testcase.ParamUse{testcase.UsePath, 0}, uses["catalog.Save"])
	assert.Equal(t, []testcase.ParamUse{0}, uses["catalog.Snapshot"])
	assert.Equal(t, []testcase.ParamUse{0}, uses["catalog.Label"])
	var temp []string
	for _, op := range c.TempPaths() {
		temp = append(temp, op.Name)
	}
	assert.Equal(t, []string{"t.TempDir()", `filepath.Join(t.TempDir(), "file")`}, temp)
}

// Hooks that compare reflect.Type values with the types they convert to
// (a package variable holding reflect.TypeOf(units.Duration(0)),
// reflect.TypeFor[units.Size]()) ask for those types, as a type switch
// would, and a reflect.Value is built with reflect.ValueOf of a value of
// the pool rather than only as the zero reflect.Value{}.
func TestReflectTypeComparisonsAndValues(t *testing.T) {
	c := cluster(t, "reflective", "./convert", "./units")
	a := c.Analysis()
	asked := func(callee string) []string {
		t.Helper()
		var goals []int32
		for i, g := range a.Goals {
			if g.Site.Targets[0].Name == callee {
				goals = append(goals, int32(i))
			}
		}
		require.NotEmpty(t, goals, callee)
		p := c.Preference(goals)
		require.NotNil(t, p, callee)
		var out []string
		for _, ask := range p.Asks {
			for _, typ := range ask.Types {
				out = append(out, typeText(typ))
			}
		}
		return out
	}
	assert.Equal(t, []string{"units.Duration"}, asked("ParseDuration"))
	assert.Equal(t, []string{"units.Size"}, asked("ParseSize"))

	var pool []string
	for _, typ := range c.Pool {
		pool = append(pool, typeText(typ))
	}
	assert.Subset(t, pool, []string{"units.Duration", "units.Size"})

	apply := apiOp(t, c, "convert.Apply")
	var producers []string
	for _, op := range c.Producers(apply.Params[1]) {
		producers = append(producers, op.Name)
	}
	assert.Equal(t, []string{"reflect.ValueOf as reflect.Value", "{} reflect.Value"}, producers)
}
