package gen

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shrinkCandidates runs a shrinker on t, accepting the candidates keep
// approves, and returns every candidate it proposed (its statements'
// operations, string values quoted, integers' values) and the test it
// ends with.
func shrinkCandidates(t *testcase.Test, keep func(*testcase.Test) bool) ([]string, *testcase.Test) {
	s := &shrinker{t: t, pos: t.Len() - 1, ints: true}
	var proposed []string
	for c := s.next(); c != nil; c = s.next() {
		proposed = append(proposed, describe(c))
		if keep(c) {
			s.accept(c)
		}
	}
	return proposed, s.t
}

func describe(t *testcase.Test) string {
	var parts []string
	for _, st := range t.Stmts {
		if v, ok := st.Value.(string); ok {
			parts = append(parts, fmt.Sprintf("%q", v))
		} else if v, ok := st.Value.(int64); ok {
			parts = append(parts, fmt.Sprint(v))
		} else {
			parts = append(parts, st.Op.Name)
		}
	}
	return strings.Join(parts, "; ")
}

// shopTest is a test of the shop's checkout package: it adds an item to
// a cart and checks out.
func shopTest(t *testing.T) *testcase.Test {
	t.Helper()
	c := testcase.NewCluster(analyze(t, "shop", "./checkout", "./pricing"), 4)
	ops := map[string]*testcase.Op{}
	for _, o := range c.Ops {
		ops[o.Name] = o
	}
	stmt := func(op string, value any, args ...int) testcase.Stmt {
		require.Contains(t, ops, op)
		st := testcase.Stmt{Op: ops[op], Value: value}
		for _, a := range args {
			st.Args = append(st.Args, testcase.Ref{Stmt: a})
		}
		return st
	}
	test := &testcase.Test{Stmts: []testcase.Stmt{
		stmt("lit string", "EUR"),
		stmt("checkout.NewCart", nil, 0),
		stmt("lit string", "mug"),
		stmt("lit int", int64(2)),
		stmt("lit int64", int64(450)),
		stmt("(*checkout.Cart).AddItem", nil, 1, 2, 3, 4),
		stmt("inventory.NewStock", nil),
		stmt("nil *pricing.Engine", nil),
		stmt("(*checkout.Cart).Checkout", nil, 1, 6, 7),
	}}
	require.NoError(t, test.Valid())
	return test
}

// The shrinker proposes removing statements from last to first (only
// AddItem can go: the others feed the covering call Checkout), then
// leaving out arguments (none of these calls has one that can be left
// out), then removing ever smaller runs of each string's characters, and
// last making each integer 0, or else halving it while the halves are
// kept.
func TestShrinker(t *testing.T) {
	const tail = "; (*checkout.Cart).AddItem; inventory.NewStock; nil *pricing.Engine; (*checkout.Cart).Checkout"
	const rest = "; 2; 450" + tail
	withoutAddItem := `"EUR"; checkout.NewCart; inventory.NewStock; nil *pricing.Engine; (*checkout.Cart).Checkout`
	for _, tc := range []struct {
		name     string
		keep     func(*testcase.Test) bool
		proposed []string
		final    string
	}{
		{
			name: "every candidate rejected",
			keep: func(*testcase.Test) bool { return false },
			proposed: []string{
				withoutAddItem,
				`""; checkout.NewCart; "mug"` + rest,
				`"R"; checkout.NewCart; "mug"` + rest,
				`"EU"; checkout.NewCart; "mug"` + rest,
				`"UR"; checkout.NewCart; "mug"` + rest,
				`"ER"; checkout.NewCart; "mug"` + rest,
				`"EU"; checkout.NewCart; "mug"` + rest,
				`"EUR"; checkout.NewCart; ""` + rest,
				`"EUR"; checkout.NewCart; "g"` + rest,
				`"EUR"; checkout.NewCart; "mu"` + rest,
				`"EUR"; checkout.NewCart; "ug"` + rest,
				`"EUR"; checkout.NewCart; "mg"` + rest,
				`"EUR"; checkout.NewCart; "mu"` + rest,
				`"EUR"; checkout.NewCart; "mug"; 0; 450` + tail,
				`"EUR"; checkout.NewCart; "mug"; 1; 450` + tail,
				`"EUR"; checkout.NewCart; "mug"; 2; 0` + tail,
				`"EUR"; checkout.NewCart; "mug"; 2; 225` + tail,
			},
			final: `"EUR"; checkout.NewCart; "mug"` + rest,
		},
		{
			name: "kept while the strings hold a U and a g",
			keep: func(c *testcase.Test) bool {
				return c.Len() == 9 && strings.Contains(c.Stmts[0].Value.(string), "U") && strings.Contains(c.Stmts[2].Value.(string), "g")
			},
			proposed: []string{
				withoutAddItem,
				`""; checkout.NewCart; "mug"` + rest,
				`"R"; checkout.NewCart; "mug"` + rest,
				`"EU"; checkout.NewCart; "mug"` + rest,
				`"U"; checkout.NewCart; "mug"` + rest,
				`""; checkout.NewCart; "mug"` + rest,
				`"U"; checkout.NewCart; ""` + rest,
				`"U"; checkout.NewCart; "g"` + rest,
				`"U"; checkout.NewCart; ""` + rest,
				`"U"; checkout.NewCart; ""` + rest,
				`"U"; checkout.NewCart; "g"; 0; 450` + tail,
				`"U"; checkout.NewCart; "g"; 0; 0` + tail,
			},
			final: `"U"; checkout.NewCart; "g"; 0; 0` + tail,
		},
		{
			name: "kept while the price is at least 100",
			keep: func(c *testcase.Test) bool { return c.Len() == 9 && c.Stmts[4].Value.(int64) >= 100 },
			proposed: []string{
				withoutAddItem,
				`""; checkout.NewCart; "mug"` + rest,
				`""; checkout.NewCart; ""` + rest,
				`""; checkout.NewCart; ""; 0; 450` + tail,
				`""; checkout.NewCart; ""; 0; 0` + tail,
				`""; checkout.NewCart; ""; 0; 225` + tail,
				`""; checkout.NewCart; ""; 0; 112` + tail,
				`""; checkout.NewCart; ""; 0; 56` + tail,
			},
			final: `""; checkout.NewCart; ""; 0; 112` + tail,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proposed, final := shrinkCandidates(shopTest(t), tc.keep)
			assert.Equal(t, tc.proposed, proposed)
			assert.Equal(t, tc.final, describe(final))
		})
	}
}

// Without ints, the integers stay as they are: only statements,
// arguments and strings shrink.
func TestShrinkerKeepsIntegers(t *testing.T) {
	test := shopTest(t)
	s := &shrinker{t: test, pos: test.Len() - 1}
	n := 0
	for c := s.next(); c != nil; c = s.next() {
		n++
		for _, st := range c.Stmts {
			if v, ok := st.Value.(int64); ok {
				assert.Contains(t, []int64{2, 450}, v, "candidate %d", n)
			}
		}
	}
	assert.Equal(t, 13, n, "the candidates of TestShrinker's first case, integers left out")
}

// A set-up call whose argument has the type of its result gives way to
// that argument, between removing statements and dropping arguments:
// strings.TrimPrefix("mug", strconv.Itoa(2)) becomes "mug" when the goals
// do not need the prefix gone. The strconv.Itoa that fed it then feeds
// nothing, and goes in the last sweep.
func TestShrinkerBypassesSetUpCalls(t *testing.T) {
	test := shopTest(t)
	str, integer := types.Typ[types.String], types.Typ[types.Int]
	std := func(pkg, name string, params []types.Type) *testcase.Op {
		p := types.NewPackage(pkg, pkg)
		var vars []*types.Var
		for _, t := range params {
			vars = append(vars, types.NewVar(token.NoPos, p, "", t))
		}
		sig := types.NewSignatureType(nil, nil, nil, types.NewTuple(vars...), types.NewTuple(types.NewVar(token.NoPos, p, "", str)), false)
		return &testcase.Op{Kind: testcase.OpCall, Name: pkg + "." + name, Func: types.NewFunc(token.NoPos, p, name, sig), Params: params, Results: []types.Type{str}}
	}
	itoa, trim := std("strconv", "Itoa", []types.Type{integer}), std("strings", "TrimPrefix", []types.Type{str, str})
	ref := func(i int) testcase.Ref { return testcase.Ref{Stmt: i} }
	s := test.Stmts // "EUR"; NewCart; "mug"; 2; 450; AddItem; NewStock; nil; Checkout
	addItem := s[5]
	addItem.Args = []testcase.Ref{ref(1), ref(5), ref(3), ref(6)}
	test = &testcase.Test{Stmts: []testcase.Stmt{
		s[0], s[1], s[2], s[3],
		{Op: itoa, Args: []testcase.Ref{ref(3)}},
		{Op: trim, Args: []testcase.Ref{ref(2), ref(4)}},
		s[4], addItem, s[6], s[7],
		{Op: s[8].Op, Args: []testcase.Ref{ref(1), ref(8), ref(9)}},
	}}
	require.NoError(t, test.Valid())

	const tail = "; 450; (*checkout.Cart).AddItem; inventory.NewStock; nil *pricing.Engine; (*checkout.Cart).Checkout"
	bypassed := `"EUR"; checkout.NewCart; "mug"; 2; strconv.Itoa` + tail
	swept := `"EUR"; checkout.NewCart; "mug"; 2` + tail
	proposed, final := shrinkCandidates(test, func(c *testcase.Test) bool { return describe(c) == bypassed || describe(c) == swept })
	assert.Contains(t, proposed, `"EUR"; checkout.NewCart; 2; strconv.Itoa`+tail, "the prefix in the name's place first")
	assert.Equal(t, swept, proposed[len(proposed)-1])
	assert.Equal(t, swept, describe(final))
}
