// Package testcase models the test cases cling generates: sequences of
// statements over typed values that drive the exported API of a caller
// package R. It holds the test cluster (what can be called or built, and
// how to obtain a value of each needed type), random generation,
// mutation and the primitives that crossover and repair build on (a value
// before a position, a value built at a position), and the outcome of
// executing a test (the values observed and how it ended), which package
// emit writes as Go source.
package testcase

import (
	"fmt"
	"go/types"
	"strings"
)

// Ref names a value produced by an earlier statement: the statement's
// index and which of its results. Omitted (Stmt -1) leaves a composite
// literal's field out (its zero value) or passes no variadic arguments.
type Ref struct {
	Stmt, Result int
}

// Omitted is the Ref of a left-out composite field or variadic argument.
var Omitted = Ref{Stmt: -1}

// IsOmitted reports whether r is Omitted.
func (r Ref) IsOmitted() bool { return r.Stmt < 0 }

// Stmt is one statement of a test: an operation of the cluster applied to
// earlier values.
type Stmt struct {
	Op *Op
	// Args are the operation's inputs: call arguments (receiver first for
	// methods), composite literal fields, slice elements, map keys and
	// values alternately, or the object and the value of a field set.
	Args []Ref
	// Value is the literal of an OpPrim: int64, uint64, float64, bool or
	// string, whatever the basic kind of the type.
	Value any
}

// Test is a test case: statements executed in order.
type Test struct {
	Stmts []Stmt
}

// Clone returns a deep copy of t.
func (t *Test) Clone() *Test { return t.Prefix(t.Len()) }

// Prefix returns a deep copy of the first n statements of t, a valid test
// since statements only refer to earlier ones.
func (t *Test) Prefix(n int) *Test {
	c := &Test{Stmts: make([]Stmt, n)}
	for i, s := range t.Stmts[:n] {
		c.Stmts[i] = Stmt{Op: s.Op, Args: append([]Ref(nil), s.Args...), Value: s.Value}
	}
	return c
}

// Len is the number of statements.
func (t *Test) Len() int { return len(t.Stmts) }

// Size is how big a test is where the search prefers the smaller of two
// that do equally well: first its statements, then the bytes of its
// string literals. A parser's work grows with its input, and without the
// second measure nothing holds the strings back: mutation inserts runs
// of bytes (a constant, a repeated span) faster than it deletes them.
type Size struct {
	Stmts, StringBytes int
}

// Less reports whether s is smaller than o: fewer statements, or as many
// and fewer string bytes.
func (s Size) Less(o Size) bool {
	if s.Stmts != o.Stmts {
		return s.Stmts < o.Stmts
	}
	return s.StringBytes < o.StringBytes
}

// Size returns the test's size.
func (t *Test) Size() Size {
	sz := Size{Stmts: len(t.Stmts)}
	for _, s := range t.Stmts {
		if v, ok := s.Value.(string); ok {
			sz.StringBytes += len(v)
		}
	}
	return sz
}

// Calls counts the call statements.
func (t *Test) Calls() int {
	n := 0
	for _, s := range t.Stmts {
		if s.Op.Kind == OpCall {
			n++
		}
	}
	return n
}

// HasCovering reports whether the test calls a covering function.
func (t *Test) HasCovering() bool {
	for _, s := range t.Stmts {
		if s.Op.Covering {
			return true
		}
	}
	return false
}

// Valid checks that every reference points to an earlier statement's
// existing result of an assignable type.
func (t *Test) Valid() error {
	for i, s := range t.Stmts {
		switch s.Op.Kind {
		case OpSlice:
		case OpChan:
			if d := s.Op.Type.Underlying().(*types.Chan).Dir(); d == types.SendOnly && len(s.Args) > 0 {
				return fmt.Errorf("statement %d (%s): a send-only channel gets no elements", i, s.Op.Name)
			}
		case OpMap:
			if len(s.Args)%2 != 0 {
				return fmt.Errorf("statement %d (%s): odd number of keys and values", i, s.Op.Name)
			}
		default:
			if len(s.Args) != len(s.Op.Inputs()) {
				return fmt.Errorf("statement %d (%s): %d arguments for %d inputs", i, s.Op.Name, len(s.Args), len(s.Op.Inputs()))
			}
		}
		for j, a := range s.Args {
			if a.IsOmitted() {
				if s.Op.Kind != OpComposite && !(s.Op.Variadic && j == len(s.Args)-1) {
					return fmt.Errorf("statement %d (%s): argument %d omitted", i, s.Op.Name, j)
				}
				continue
			}
			if a.Stmt >= i {
				return fmt.Errorf("statement %d (%s): argument %d refers to statement %d", i, s.Op.Name, j, a.Stmt)
			}
			src := t.Stmts[a.Stmt].Op
			if a.Result >= len(src.Outputs()) {
				return fmt.Errorf("statement %d (%s): argument %d refers to missing result %d of %s", i, s.Op.Name, j, a.Result, src.Name)
			}
			if want := s.Op.ArgType(j); !assignable(src.Outputs()[a.Result], want) {
				return fmt.Errorf("statement %d (%s): argument %d has type %s, want %s", i, s.Op.Name, j, src.Outputs()[a.Result], want)
			}
		}
	}
	return nil
}

// String renders the test for debugging.
func (t *Test) String() string {
	var b strings.Builder
	for i, s := range t.Stmts {
		fmt.Fprintf(&b, "%d: %s", i, s.Op.Name)
		if s.Op.Kind == OpPrim || s.Op.Kind == OpFunc {
			fmt.Fprintf(&b, " %#v", s.Value)
		}
		for _, a := range s.Args {
			if a.IsOmitted() {
				b.WriteString(" _")
				continue
			}
			fmt.Fprintf(&b, " v%d.%d", a.Stmt, a.Result)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Uses reports, per statement, whether a later statement uses one of its
// results.
func (t *Test) Uses() []bool {
	used := make([]bool, len(t.Stmts))
	for _, s := range t.Stmts {
		for _, a := range s.Args {
			if !a.IsOmitted() {
				used[a.Stmt] = true
			}
		}
	}
	return used
}

// Remove deletes statement i and every statement that depends on it,
// directly or transitively, renumbering the references of the rest.
func (t *Test) Remove(i int) {
	drop := make([]bool, len(t.Stmts))
	drop[i] = true
	for j := i + 1; j < len(t.Stmts); j++ {
		for _, a := range t.Stmts[j].Args {
			if !a.IsOmitted() && drop[a.Stmt] {
				drop[j] = true
				break
			}
		}
	}
	t.keep(func(j int) bool { return !drop[j] })
}

// keep retains the statements for which f is true, renumbering references.
// The retained statements must not refer to dropped ones.
func (t *Test) keep(f func(int) bool) {
	newIndex := make([]int, len(t.Stmts))
	var out []Stmt
	for j, s := range t.Stmts {
		if !f(j) {
			newIndex[j] = -1
			continue
		}
		newIndex[j] = len(out)
		for k := range s.Args {
			if !s.Args[k].IsOmitted() {
				s.Args[k].Stmt = newIndex[s.Args[k].Stmt]
			}
		}
		out = append(out, s)
	}
	t.Stmts = out
}

// Prune removes the statements whose results nothing uses and that have no
// effect of their own: literals, nils, slices, maps and composite literals
// feeding nothing.
func (t *Test) Prune() {
	for {
		used := t.Uses()
		removed := false
		for j := len(t.Stmts) - 1; j >= 0; j-- {
			if !used[j] && t.Stmts[j].Op.Pure() {
				t.Remove(j)
				removed = true
				break
			}
		}
		if !removed {
			return
		}
	}
}

// Bypass returns a copy of t in which set-up call i is gone and its
// argument k stands wherever its result was used: bytes.Clone(data) or
// bytes.TrimRightFunc(data, f) gives way to data. Statements that then
// feed nothing are pruned. It returns false when statement i is no set-up
// call, uses of it would not take the argument's type, or a later
// statement uses another of its results.
func (t *Test) Bypass(i, k int) (*Test, bool) {
	if i < 0 || i >= len(t.Stmts) || k < 0 || k >= len(t.Stmts[i].Args) {
		return nil, false
	}
	s := t.Stmts[i]
	if s.Op.Kind != OpCall || !s.Op.SetsUp() || s.Op.Covering || len(s.Op.Results) == 0 || s.Args[k].IsOmitted() {
		return nil, false
	}
	c := t.Clone()
	used := false
	for j := i + 1; j < len(c.Stmts); j++ {
		for n, a := range c.Stmts[j].Args {
			if a.IsOmitted() || a.Stmt != i {
				continue
			}
			if a.Result != 0 {
				return nil, false
			}
			c.Stmts[j].Args[n] = s.Args[k]
			used = true
		}
	}
	if !used {
		return nil, false
	}
	c.keep(func(j int) bool { return j != i })
	if c.Valid() != nil {
		return nil, false
	}
	c.Prune()
	return c, true
}

// DropArg returns a copy of t with argument k of statement i left out, and
// the statements that then feed nothing pruned: a composite literal's
// field is omitted (its zero value), an element (or a key and its value)
// leaves a slice, map or channel, and a variadic call's trailing arguments
// are omitted. It returns false if argument k cannot be dropped or already
// is.
func (t *Test) DropArg(i, k int) (*Test, bool) {
	if i < 0 || i >= len(t.Stmts) || k < 0 || k >= len(t.Stmts[i].Args) {
		return nil, false
	}
	s := t.Stmts[i]
	if s.Args[k].IsOmitted() {
		return nil, false
	}
	c := t.Clone()
	args := c.Stmts[i].Args
	switch {
	case s.Op.Kind == OpComposite,
		s.Op.Kind == OpCall && s.Op.Variadic && k == len(args)-1:
		args[k] = Omitted
	case s.Op.Kind == OpSlice || s.Op.Kind == OpChan:
		c.Stmts[i].Args = append(args[:k:k], args[k+1:]...)
	case s.Op.Kind == OpMap:
		k -= k % 2
		c.Stmts[i].Args = append(args[:k:k], args[k+2:]...)
	default:
		return nil, false
	}
	c.Prune()
	return c, true
}
