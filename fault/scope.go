package fault

import (
	"fmt"
	"go/types"
	"strings"

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
// nothing about how R uses E: it is counted, not reported. The same holds
// for a failure raised in a third package P (neither R nor E) on values
// of P the test made itself: when the failing statement's arguments are
// built from values the test made with P's API (a call of P's functions
// or methods, a literal of P's types) and from no value of P's types that
// R's API returned, R only handed P its own values (go-yaml's Decode of an
// ast.Alias node the test made without its value, which the node's String
// dereferences): a fault of P, if one, that the test can show without R.
func (l *Locator) Outside(t *testcase.Test, f *Fault) string {
	caller := l.a.Caller.Pkg.Path
	if why := l.thirdPartyValue(t, f); why != "" {
		return why
	}
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

// thirdPartyValue returns why fault f, raised in a third package P of the
// module, is P's failure on values the test made with P's API and R only
// handed on (see Outside), or "".
func (l *Locator) thirdPartyValue(t *testcase.Test, f *Fault) string {
	pkg := packageOf(f.Frame.Func)
	if f.Frame.Func == "" || pkg == l.a.Caller.Pkg.Path || pkg == l.a.Callee.Pkg.Path || f.Stmt < 0 || f.Stmt >= t.Len() {
		return ""
	}
	_, made := madeWithThird(t, f.Stmt, l.a.Caller.Pkg.Path, f.Frame.Func, true, func(p string) bool { return p == pkg })
	if made == "" {
		return ""
	}
	return fmt.Sprintf("%s failed on a value the test made with %s (%s), not one %s made", ShortName(f.Frame.Func), ShortName(pkg), made, l.a.Caller.Pkg.Name)
}

// madeWithThird finds a package P, one of those third says are third
// packages, whose API (a call of its functions or methods, a literal of
// its types) made a value that the arguments of statement i are built
// from, when no value of P's types that R's API (R being the package at
// path caller) returned is among them: R was handed P's values as the test
// made them. When raisedIn, the function where the failure happened, is a
// method of P's type T, only a T (or a pointer to one) that R returned
// counts against it, and with strict set the value the test made must be
// a T too (without, any value of P will do: the nil T the method was
// called on may lie inside it). It returns P and the name of the op that
// made the value, or "" and "".
func madeWithThird(t *testcase.Test, i int, caller, raisedIn string, strict bool, third func(pkg string) bool) (pkg, made string) {
	recvPkg, recv := receiverOf(raisedIn)
	if !third(recvPkg) {
		recvPkg, recv = "", ""
	}
	// ofRecv: a value of type typ of package p may be the receiver's; a
	// call that made no value (typ nil) only when no receiver is asked
	// for.
	ofRecv := func(typ types.Type, p string) bool {
		if typ == nil {
			return recv == ""
		}
		return recv == "" || p != recvPkg || namedOf(typ) == recv
	}
	madeBy := map[string]string{}
	var order []string
	byCaller := map[string]bool{}
	for _, a := range t.Stmts[i].Args {
		if a.IsOmitted() {
			continue
		}
		builtOf(t, a.Stmt, func(k int) (struct{}, bool) {
			op := t.Stmts[k].Op
			if callsCaller(op) {
				for _, out := range op.Outputs() {
					if p := pkgOfType(out); p != "" && ofRecv(out, p) {
						byCaller[p] = true
					}
				}
				return struct{}{}, false
			}
			p, typ := "", types.Type(nil)
			switch {
			case op.Kind == testcase.OpCall && op.Func != nil && op.Func.Pkg() != nil:
				p = op.Func.Pkg().Path()
				if outs := op.Outputs(); len(outs) > 0 {
					typ = outs[0]
				}
			case op.Kind != testcase.OpCall && op.Kind != testcase.OpFieldSet:
				p, typ = pkgOfType(op.Type), op.Type
			}
			if p != "" && p != caller && third(p) && madeBy[p] == "" && (!strict || ofRecv(typ, p)) {
				madeBy[p] = op.Name
				order = append(order, p)
			}
			return struct{}{}, false
		})
	}
	for _, p := range order {
		if !byCaller[p] {
			return p, madeBy[p]
		}
	}
	return "", ""
}

// receiverOf returns the package and the name of the receiver's type of
// a method as the runtime names it (example.com/m/ast.(*AliasNode).String:
// example.com/m/ast and AliasNode), or "" and "" for a function or a
// closure of one.
func receiverOf(fn string) (pkg, typ string) {
	if fn == "" {
		return "", ""
	}
	pkg = packageOf(fn)
	rest := strings.TrimPrefix(enclosing(fn), pkg+".")
	var name, method string
	if ptr, ok := strings.CutPrefix(rest, "(*"); ok {
		name, method, _ = strings.Cut(ptr, ").")
	} else {
		name, method, _ = strings.Cut(rest, ".")
	}
	if method == "" {
		return "", ""
	}
	if b, _, ok := strings.Cut(name, "["); ok {
		name = b
	}
	return pkg, name
}

// namedOf is the name of the named type t is, or is a pointer to; "" for
// other types.
func namedOf(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// pkgOfType is the path of the package that declares named type t, or of
// the named type a pointer, slice or array t is of; "" for other types.
func pkgOfType(t types.Type) string {
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		case *types.Array:
			t = u.Elem()
			continue
		case *types.Named:
			if u.Obj().Pkg() == nil {
				return ""
			}
			return u.Obj().Pkg().Path()
		}
		return ""
	}
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
