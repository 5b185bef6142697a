package gotest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cling-go/cling/internal/srcedit"
)

// TestFunc is a function go test runs, as a marker sees it.
type TestFunc struct {
	// Name is the function's name.
	Name string
	// Param is the name of its only parameter when that is written as a
	// pointer to a T, B or F of some package (*testing.T), and Type is
	// that T, B or F; both are "" when there is no such parameter, it has
	// no name or it is _.
	Param, Type string
}

// Mark inserts a statement at the top of every Test, Example and Fuzz
// function of a test file: stmt returns it for each function, and the
// file imports importPath as importName for it. Every line keeps its
// number. Mark returns the new source and the names of the functions
// marked; a file without test functions comes back unchanged.
func Mark(path string, src []byte, importName, importPath string, stmt func(TestFunc) string) ([]byte, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	tf := fset.File(f.Pos())
	var eds []srcedit.Edit
	var tests []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !IsTestFunc(fd.Name.Name) {
			continue
		}
		fn := TestFunc{Name: fd.Name.Name}
		fn.Param, fn.Type = testingParam(fd)
		off := tf.Offset(fd.Body.Lbrace) + 1
		eds = append(eds, srcedit.Edit{Off: off, Kind: srcedit.Insert, Text: " " + stmt(fn) + ";"})
		tests = append(tests, fd.Name.Name)
	}
	if len(tests) == 0 {
		return src, nil, nil
	}
	off := tf.Offset(f.Name.End())
	eds = append(eds, srcedit.Edit{Off: off, Kind: srcedit.Insert, Text: fmt.Sprintf("; import %s %q", importName, importPath)})
	out, _, err := srcedit.Apply(src, eds)
	if err != nil {
		return nil, nil, err
	}
	return out, tests, nil
}

// testingParam returns the name of a test function's only parameter and
// its type's name when it is written *X.T, *X.B or *X.F, or "", "".
func testingParam(fd *ast.FuncDecl) (name, typ string) {
	ps := fd.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) != 1 || ps[0].Names[0].Name == "_" {
		return "", ""
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return "", ""
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	switch sel.Sel.Name {
	case "T", "B", "F":
		return ps[0].Names[0].Name, sel.Sel.Name
	}
	return "", ""
}

// IsTestFunc reports whether go test runs a top-level function of this
// name: Test, Example or Fuzz followed by nothing or a non-lowercase letter
// (TestMain excluded).
func IsTestFunc(name string) bool {
	for _, prefix := range []string{"Test", "Example", "Fuzz"} {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		rest := name[len(prefix):]
		if rest == "" {
			return true
		}
		r, _ := utf8.DecodeRuneInString(rest)
		if !unicode.IsLower(r) {
			return name != "TestMain"
		}
	}
	return false
}

// PackageScopeNames returns the names a file declares at package scope:
// its functions (not methods) and, with all, its types, variables and
// constants too. A file of the same package that declared one of them, or
// imported a package under it, would not compile.
func PackageScopeNames(f *ast.File, all bool) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			if !all {
				continue
			}
			for _, spec := range d.Specs {
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					names = append(names, sp.Name.Name)
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}
