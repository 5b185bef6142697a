package fault

import (
	"fmt"
	"go/types"

	"github.com/cling-go/cling/testcase"
)

// Outside tells whether fault candidate f, shown by test t, lies outside
// the pair R → E: the failure happened in code the test called itself,
// not through R. It returns the reason, or "" when the candidate belongs
// to the pair. A candidate belongs to the pair when
//
//   - its stack holds a frame of R's package: the failing call ran R's
//     code (a fault raised in R, or in E or another package inside a call
//     R made);
//   - or it went through a call site of R (Fault.Site) and did not fail
//     in the test's own goroutine: a goroutine that a call at the site
//     started inside E;
//   - or the statement that failed calls R's API, or takes a value R's API
//     made (the result of a call of R's exported functions or methods, or
//     a value built from one) that is not plain data (a number, a string,
//     a bool, or a slice of them such as []byte):
//     the failing code was handed a structure R built (hcl's parser.Parse
//     returns a file whose Pos panics). A count R returned and the test
//     passed on to E carries nothing of R's making, and neither does a
//     value R made whose fields the test has set since: hcl's file with
//     an empty comment group of the test's as its Node.
//
// A crash in E, or in a third package of the module, that the test
// reached by calling it directly (to build an argument for R, say) says
// nothing about how R uses E: it is counted, not reported.
func (l *Locator) Outside(t *testcase.Test, f *Fault) string {
	caller := l.a.Caller.Pkg.Path
	for _, fr := range f.Stack {
		if packageOf(fr.Func) == caller {
			return ""
		}
	}
	inTest := f.Stmt >= 0 && f.Stmt < t.Len()
	if f.Site != nil && !inTest {
		return ""
	}
	if inTest && madeByCaller(t, f.Stmt) {
		return ""
	}
	return fmt.Sprintf("%s ran no code of %s and was given no value it made", ShortName(f.Frame.Func), l.a.Caller.Pkg.Name)
}

// madeByCaller reports whether statement i calls R's API or takes a
// structured value built by R (see builtByCaller).
func madeByCaller(t *testcase.Test, i int) bool {
	s := t.Stmts[i]
	if callsCaller(s.Op) {
		return true
	}
	// The values whose fields the test set before statement i are the
	// test's making, whoever made them first.
	seen := map[int]bool{}
	for _, set := range t.Stmts[:i] {
		if set.Op.Kind == testcase.OpFieldSet && len(set.Args) > 0 && !set.Args[0].IsOmitted() {
			seen[set.Args[0].Stmt] = true
		}
	}
	for _, a := range s.Args {
		if !a.IsOmitted() && builtByCaller(t, a, seen) {
			return true
		}
	}
	return false
}

// callsCaller reports whether op calls one of R's exported functions or
// methods. A call through an interface (goldmark's fmt.Stringer, whose
// String R's unexported types implement) runs R's code only when the
// receiver is R's, which the stack shows; the receiver, if R made it,
// makes its results R's too.
func callsCaller(op *testcase.Op) bool {
	if op.Kind != testcase.OpCall || !op.API {
		return false
	}
	return !op.Method || len(op.Params) == 0 || !types.IsInterface(op.Params[0])
}

// builtByCaller reports whether value ref is no plain data (see
// plainData), and is a result of R's API or built from such values.
func builtByCaller(t *testcase.Test, ref testcase.Ref, seen map[int]bool) bool {
	s := t.Stmts[ref.Stmt]
	outs := s.Op.Outputs()
	if ref.Result < len(outs) && plainData(outs[ref.Result]) {
		return false
	}
	if seen[ref.Stmt] {
		return false
	}
	seen[ref.Stmt] = true
	if callsCaller(s.Op) {
		return true
	}
	for _, a := range s.Args {
		if !a.IsOmitted() && builtByCaller(t, a, seen) {
			return true
		}
	}
	return false
}

// plainData reports whether a value of type t is plain data: a number, a
// string or a bool, or a slice or an array of them ([]byte).
func plainData(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return true
	case *types.Slice:
		_, basic := u.Elem().Underlying().(*types.Basic)
		return basic
	case *types.Array:
		_, basic := u.Elem().Underlying().(*types.Basic)
		return basic
	}
	return false
}
