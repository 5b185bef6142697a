package testcase_test

import (
	"go/types"
	"testing"

	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A function value R hands out is called like a method of its own: the
// middleware chain.Sections returns, the handler that middleware returns,
// and the unnamed func(Handler) Handler of chain.Only. A function type R
// does not return gets no call: a literal of the test's own runs none of
// R's code.
func TestInvokeOps(t *testing.T) {
	c := cluster(t, "reflective", "./chain", "./route")
	middleware := lookup(t, c, "example.com/reflective/chain", "Middleware")
	handler := lookup(t, c, "example.com/reflective/chain", "Handler")
	str := types.Typ[types.String]
	unnamed := types.NewSignatureType(nil, nil, nil, tuple(handler), tuple(handler), false)
	cases := []struct {
		what    string
		t       types.Type
		name    string
		params  []types.Type
		results []types.Type
	}{
		{"named, returned by R", middleware, "func value example.com/reflective/chain.Middleware", []types.Type{middleware, handler}, []types.Type{handler}},
		{"named, returned by a value R returned", handler, "func value example.com/reflective/chain.Handler", []types.Type{handler, str}, []types.Type{types.Typ[types.Int], types.Universe.Lookup("error").Type()}},
		{"unnamed", unnamed, "func value func(example.com/reflective/chain.Handler) example.com/reflective/chain.Handler", []types.Type{unnamed, handler}, []types.Type{handler}},
	}
	for _, tc := range cases {
		t.Run(tc.what, func(t *testing.T) {
			ops := c.Methods(tc.t)
			require.Len(t, ops, 1)
			op := ops[0]
			assert.Equal(t, tc.name, op.Name)
			assert.True(t, op.Invoke)
			assert.True(t, op.Method, "the value stands where a receiver does")
			assert.Nil(t, op.Func)
			assert.False(t, op.SetsUp(), "the call runs R's code")
			require.Len(t, op.Params, len(tc.params))
			for i, p := range tc.params {
				assert.True(t, types.Identical(p, op.Params[i]), "param %d: %s", i, op.Params[i])
			}
			require.Len(t, op.Results, len(tc.results))
			for i, r := range tc.results {
				assert.True(t, types.Identical(r, op.Results[i]), "result %d: %s", i, op.Results[i])
			}
		})
	}
	notR := types.NewSignatureType(nil, nil, nil, tuple(str), tuple(str), false)
	assert.Empty(t, c.Methods(notR))
}

// Tests call the function values R's calls returned, never one of their
// own literals; a Request, an interface only (*Server).Request makes,
// comes from that method.
func TestInvokedValuesComeFromCalls(t *testing.T) {
	c := cluster(t, "reflective", "./chain", "./route")
	request := lookup(t, c, "example.com/reflective/chain", "Request")
	assert.Equal(t, []string{"(*chain.Server).Request", "nil chain.Request"}, names(c.Producers(request)))
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	invokes := 0
	for i := 0; i < 300; i++ {
		tc := g.RandomTest()
		require.NoError(t, tc.Valid())
		for _, s := range tc.Stmts {
			if s.Op.Invoke {
				invokes++
				assert.Equal(t, testcase.OpCall, tc.Stmts[s.Args[0].Stmt].Op.Kind, "the function value comes from a call")
			}
		}
	}
	assert.Greater(t, invokes, 100)
}

// The http.Handler that tag's middleware makes of the next handler is
// served: ServeHTTP is called on a handler a call returned, never on nil
// or a handler of the test's own, and the next handler is an
// http.HandlerFunc literal rather than nil (net/http's functions are not
// called to build values, but its function types are the test's own
// literals).
func TestServedValuesComeFromCalls(t *testing.T) {
	c := cluster(t, "reflective", "./tag", "./route")
	handler := lookup(t, c, "net/http", "Handler")
	assert.Equal(t, []string{"func http.HandlerFunc", "nil http.Handler"}, names(c.Producers(handler)))
	assert.Equal(t, []string{"(http.Handler).ServeHTTP"}, names(c.Methods(handler)))
	g := testcase.NewGenerator(c, testcase.DefaultConfig(), 1)
	served := 0
	for i := 0; i < 300; i++ {
		tc := g.RandomTest()
		require.NoError(t, tc.Valid())
		for _, s := range tc.Stmts {
			if s.Op.Name == "(http.Handler).ServeHTTP" {
				served++
				assert.True(t, tc.Stmts[s.Args[0].Stmt].Op.Invoke, "the handler comes from a call of the middleware")
			}
		}
	}
	assert.Greater(t, served, 4)
}

func tuple(ts ...types.Type) *types.Tuple {
	var vars []*types.Var
	for _, t := range ts {
		vars = append(vars, types.NewParam(0, nil, "", t))
	}
	return types.NewTuple(vars...)
}
