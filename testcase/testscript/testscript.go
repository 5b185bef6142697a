// Package testscript builds test cases of a cluster from the names of its
// operations, for cling's own tests: a step names an operation (as
// testcase.Op.Name shows it: "catalog.New", "(*catalog.Catalog).Pick")
// and its arguments.
package testscript

import (
	"go/types"
	"testing"

	"github.com/cling-go/cling/testcase"
)

// Script builds tests of one cluster.
type Script struct {
	t   testing.TB
	c   *testcase.Cluster
	ops map[string]*testcase.Op
}

// New returns a script over the operations of c; it fails t on an unknown
// operation or an invalid test.
func New(t testing.TB, c *testcase.Cluster) *Script {
	ops := map[string]*testcase.Op{}
	for _, op := range c.Ops {
		ops[op.Name] = op
	}
	return &Script{t: t, c: c, ops: ops}
}

// Step is one statement of a test: an operation's name and its arguments.
type Step []any

// Call is the step that applies operation op to args: each an int or a
// string (a literal of that type), a bool, or a Result of an earlier step.
func Call(op string, args ...any) Step { return append(Step{op}, args...) }

// Result refers to the result-th result of the step-th step of a test.
type Result struct{ Step, Result int }

// Test builds a test of the steps. Literals become statements of their
// own before the step that uses them.
func (s *Script) Test(steps ...Step) *testcase.Test {
	s.t.Helper()
	t := &testcase.Test{}
	lit := func(v any, typ types.Type) testcase.Ref {
		t.Stmts = append(t.Stmts, testcase.Stmt{Op: s.c.Producers(typ)[0], Value: v})
		return testcase.Ref{Stmt: len(t.Stmts) - 1}
	}
	at := make([]int, len(steps))
	for i, step := range steps {
		op := s.ops[step[0].(string)]
		if op == nil {
			s.t.Fatalf("no operation %s in the cluster", step[0])
		}
		var args []testcase.Ref
		for _, a := range step[1:] {
			switch v := a.(type) {
			case int:
				args = append(args, lit(int64(v), types.Typ[types.Int]))
			case string:
				args = append(args, lit(v, types.Typ[types.String]))
			case bool:
				args = append(args, lit(v, types.Typ[types.Bool]))
			case Result:
				args = append(args, testcase.Ref{Stmt: at[v.Step], Result: v.Result})
			default:
				s.t.Fatalf("argument %v of %s: not an int, string, bool or Result", a, step[0])
			}
		}
		t.Stmts = append(t.Stmts, testcase.Stmt{Op: op, Args: args})
		at[i] = len(t.Stmts) - 1
	}
	if err := t.Valid(); err != nil {
		s.t.Fatalf("invalid test: %v", err)
	}
	return t
}

// Stmt is the index in tests made by Test of the statement of step i
// (literals take statements of their own).
func Stmt(t *testcase.Test, step int) int {
	n := -1
	for i, s := range t.Stmts {
		if s.Op.Kind != testcase.OpPrim {
			n++
		}
		if n == step {
			return i
		}
	}
	return -1
}
