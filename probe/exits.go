package probe

import (
	"fmt"
	"go/ast"
	"go/types"
)

// exitWrappers maps the functions that end the process to the runtime
// function that stands for them in the search-mode instrumentation (see
// rt.InterceptExits). log.Panic and its kind are not among them: they
// panic already, which the executor recovers like any panic.
var exitWrappers = map[string]string{
	"os.Exit":               "OSExit",
	"syscall.Exit":          "OSExit",
	"log.Fatal":             "Fatal",
	"log.Fatalf":            "Fatalf",
	"log.Fatalln":           "Fatalln",
	"(*log.Logger).Fatal":   "Fatal",
	"(*log.Logger).Fatalf":  "Fatalf",
	"(*log.Logger).Fatalln": "Fatalln",
}

// exits wraps every reference to a function that ends the process (a call
// or a function value, such as os.Exit, log.Fatalf or logger.Fatal) in the
// runtime function that stands for it: in the executor, the exit becomes a
// result rather than the end of the worker; anywhere else the wrapper
// returns the function itself.
func (fi *fileInstr) exits() {
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if w := fi.exitWrapper(x.Sel, fi.pkg.Info.Selections[x]); w != "" {
				fi.wrap(x, RT+"."+w+"(", ")", 0)
				return false
			}
			// x.Sel names a field or method of x.X, not an exit.
			ast.Inspect(x.X, visit)
			return false
		case *ast.Ident:
			// A function of a dot-imported package.
			if w := fi.exitWrapper(x, nil); w != "" {
				fi.wrap(x, RT+"."+w+"(", ")", 0)
			}
		}
		return true
	}
	ast.Inspect(fi.file, visit)
}

// exitWrapper returns the runtime wrapper for the function id refers to,
// or "" if it does not end the process. A method is wrapped only as a
// method value (logger.Fatal), not as a method expression.
func (fi *fileInstr) exitWrapper(id *ast.Ident, sel *types.Selection) string {
	fn, ok := fi.pkg.Info.Uses[id].(*types.Func)
	if !ok || (sel != nil && sel.Kind() != types.MethodVal) {
		return ""
	}
	return exitWrappers[fn.FullName()]
}

// goroutines makes a panic that ends a goroutine R or E started end the
// test instead of the worker, in the executor (see
// rt.InterceptGoPanics); everywhere else it ends the process as before.
// A function literal that a go statement starts gets a deferred call of
// the runtime's GoRecover at the top of its body. A named function or a
// method value (go s.loop()) is wrapped instead, as a call site's is
// (the W functions, with GoBit), since a recover in its body would also
// catch the panics of its synchronous calls; the function value and its
// arguments are still evaluated by the go statement. Builtins, generic
// functions whose type arguments are inferred, and functions of more
// than four parameters or two results are left alone.
func (fi *fileInstr) goroutines() {
	ast.Inspect(fi.file, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok || fi.goSites[g.Call] {
			return true
		}
		fun := ast.Unparen(g.Call.Fun)
		if lit, ok := fun.(*ast.FuncLit); ok {
			if lit.Body != nil {
				fi.insertAtBodyStart(lit.Body, " defer "+RT+".GoRecover();")
			}
			return true
		}
		if w := fi.goWrapper(fun); w != "" {
			fi.wrap(g.Call.Fun, fmt.Sprintf("%s.%s(%s.GoBit|%s.NoSite, ", RT, w, RT, RT), ")", 1)
		}
		return true
	})
}

// goWrapper returns the W function that can wrap fun, the function of a
// go statement, or "".
func (fi *fileInstr) goWrapper(fun ast.Expr) string {
	id, ok := fun.(*ast.Ident)
	if sel, isSel := fun.(*ast.SelectorExpr); isSel {
		id, ok = sel.Sel, true
	}
	if ok {
		if _, builtin := fi.pkg.Info.Uses[id].(*types.Builtin); builtin {
			return ""
		}
	}
	if fi.inferredGeneric(fun) {
		return ""
	}
	sig, ok := typeOfSig(fi.typeOf(fun))
	if !ok {
		return ""
	}
	return wrapperOf(sig)
}
