package mutate

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/cling-go/cling/internal/srcedit"
	"github.com/cling-go/cling/probe"
)

// markedFile is a test file rewritten to report where each test begins and
// ends, with the names of its test functions.
type markedFile struct {
	path  string
	src   []byte
	tests []string
}

// markTestDir marks the test files of the package in dir; extra adds or
// replaces test files by path (a --compare file placed in the package).
func markTestDir(dir, rtImport string, extra map[string][]byte) ([]markedFile, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	for p := range extra {
		if filepath.Dir(p) == filepath.Clean(dir) {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var out []markedFile
	seen := map[string]bool{}
	for _, path := range paths {
		if seen[path] {
			continue
		}
		seen[path] = true
		src, ok := extra[path]
		if !ok {
			if src, err = os.ReadFile(path); err != nil {
				return nil, fmt.Errorf("reading %s: %w", path, err)
			}
		}
		mf, err := markTestFile(path, src, rtImport)
		if err != nil {
			if _, isExtra := extra[path]; isExtra {
				return nil, err
			}
			continue // the go command reports its own error
		}
		out = append(out, mf)
	}
	return out, nil
}

// markTestFile inserts, at the top of every Test, Example and Fuzz
// function, BeginTest and the registration of EndTest: with t.Cleanup
// when the function has a *testing.T or *testing.F parameter, so that the
// end comes after parallel subtests too, and with defer otherwise. Every
// line keeps its number.
func markTestFile(path string, src []byte, rtImport string) (markedFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return markedFile{}, fmt.Errorf("parsing %s: %w", path, err)
	}
	tf := fset.File(f.Pos())
	var eds []srcedit.Edit
	var tests []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !probe.IsTestFunc(fd.Name.Name) {
			continue
		}
		name := strconv.Quote(fd.Name.Name)
		end := fmt.Sprintf("defer %s.EndTest(%s)", rtName, name)
		if t := testingParam(fd); t != "" {
			end = fmt.Sprintf("%s.Cleanup(func() { %s.EndTest(%s) })", t, rtName, name)
		}
		off := tf.Offset(fd.Body.Lbrace) + 1
		eds = append(eds, srcedit.Edit{Off: off, Kind: srcedit.Insert, Text: fmt.Sprintf(" %s.BeginTest(%s); %s;", rtName, name, end)})
		tests = append(tests, fd.Name.Name)
	}
	if len(tests) == 0 {
		return markedFile{path: path, src: src}, nil
	}
	off := tf.Offset(f.Name.End())
	eds = append(eds, srcedit.Edit{Off: off, Kind: srcedit.Insert, Text: fmt.Sprintf("; import %s %q", rtName, rtImport)})
	out, _, err := srcedit.Apply(src, eds)
	if err != nil {
		return markedFile{}, err
	}
	return markedFile{path: path, src: out, tests: tests}, nil
}

// testingParam returns the name of a test function's only parameter when
// it is a *testing.T or *testing.F (as written), or "".
func testingParam(fd *ast.FuncDecl) string {
	ps := fd.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) != 1 {
		return ""
	}
	name := ps[0].Names[0].Name
	if name == "_" {
		return ""
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return ""
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "T" && sel.Sel.Name != "F") {
		return ""
	}
	return name
}
