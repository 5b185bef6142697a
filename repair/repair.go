// Package repair restores the properties every test of the search must
// have after crossover or mutation changed it.
//
// A test's references must point to values it builds. Crossover grafts
// the tail of one test onto the head of another, and the tail's
// references into the head it lost must be resolved anew: Graft does
// that, with values of the new head or values it builds.
//
// A test must call at least one covering function of the caller R, the
// chromosome repair of the Coupled Branches Criterion's search. Mutation
// can delete the last covering call and crossover can cut it off:
// Mutation repairs the first by further mutation, Crossover the second by
// falling back on a parent.
package repair

import (
	"go/types"

	"github.com/cling-go/cling/testcase"
)

// Counts tally the repairs of a search.
type Counts struct {
	// Repaired counts mutation offspring fixed by further mutation;
	// Dropped those given up after the attempts; Replaced crossover
	// offspring replaced by a parent.
	Repaired, Dropped, Replaced int
}

// Graft appends the statements of src from index from on to t, repairing
// their references. A reference to a statement grafted before points to
// its copy; any other reference — into the part of src left behind, or to
// a statement that could not be grafted — is resolved anew to a value of
// t before the statement, of an assignable type (values of exactly the
// parameter's type preferred), or, if t has none, to a new value built at
// the end of t. A statement with a reference that neither resolves nor
// can be built within the depth bound is left out. Grafting stops when t
// reaches the generator's MaxLen.
func Graft(g *testcase.Generator, t, src *testcase.Test, from int) {
	// moved maps an index of src to the index of its copy in t (-1: none).
	moved := make([]int, src.Len())
	for i := range moved {
		moved[i] = -1
	}
	for j := from; j < src.Len(); j++ {
		if t.Len() >= g.Cfg.MaxLen {
			break
		}
		s := src.Stmts[j]
		args := make([]testcase.Ref, len(s.Args))
		ok := true
		for k, a := range s.Args {
			switch {
			case a.IsOmitted():
				args[k] = a
			case a.Stmt >= from && moved[a.Stmt] >= 0:
				args[k] = testcase.Ref{Stmt: moved[a.Stmt], Result: a.Result}
			default:
				var found bool
				args[k], found = resolve(g, t, s.Op.ArgType(k))
				ok = ok && found
			}
		}
		if !ok {
			continue
		}
		moved[j] = t.Len()
		t.Stmts = append(t.Stmts, testcase.Stmt{Op: s.Op, Args: args, Value: s.Value})
	}
}

// resolve finds a value for a parameter of type want of a statement about
// to be appended to t: an existing value of t, or a new one built at its
// end if the type is within the depth bound. It reports false if neither.
func resolve(g *testcase.Generator, t *testcase.Test, want types.Type) (testcase.Ref, bool) {
	if r, ok := g.ValueBefore(t, t.Len(), want, want); ok {
		return r, true
	}
	if g.C.Height(want) > g.C.MaxDepth {
		return testcase.Ref{}, false
	}
	r, _ := g.BuildValue(t, t.Len(), want)
	return r, true
}

// Mutation repairs a mutation offspring without a covering call by
// mutating it again, up to attempts times, until a covering call is
// inserted. It returns false if the offspring must be dropped.
func Mutation(g *testcase.Generator, t *testcase.Test, attempts int, c *Counts) bool {
	if t.HasCovering() {
		return true
	}
	for i := 0; i < attempts; i++ {
		g.Mutate(t)
		if t.HasCovering() {
			c.Repaired++
			return true
		}
	}
	c.Dropped++
	return false
}

// Crossover replaces a crossover offspring without a covering call by a
// copy of its parent.
func Crossover(child, parent *testcase.Test, c *Counts) *testcase.Test {
	if child.HasCovering() {
		return child
	}
	c.Replaced++
	return parent.Clone()
}
