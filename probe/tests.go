package probe

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MarkTests instruments the test files of the package in dir so that the
// runtime knows where each test execution begins: every Test, Example and
// Fuzz function calls BeginTest first. It returns the number of test
// functions marked.
func MarkTests(w *Workspace, dir, rtImport string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return 0, err
	}
	count := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			return 0, fmt.Errorf("reading %s: %w", path, err)
		}
		out, n, err := markTestFile(path, src, rtImport)
		if err != nil {
			continue // a file the go command will reject with its own message
		}
		if n == 0 {
			continue
		}
		count += n
		if err := w.Set(path, out); err != nil {
			return 0, err
		}
	}
	return count, nil
}

// markTestFile adds BeginTest calls to the test functions of one file.
func markTestFile(path string, src []byte, rtImport string) ([]byte, int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, 0, err
	}
	tf := fset.File(f.Pos())
	ed := &editor{src: src}
	n := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !isTestFunc(fd.Name.Name) {
			continue
		}
		ed.insert(tf.Offset(fd.Body.Lbrace)+1, fmt.Sprintf(" %s.BeginTest(%q);", RT, fd.Name.Name))
		n++
	}
	if n == 0 {
		return nil, 0, nil
	}
	ed.insert(tf.Offset(f.Name.End()), fmt.Sprintf("; import %s %q", RT, rtImport))
	out, err := ed.apply()
	return out, n, err
}

// isTestFunc reports whether name is the name of a function go test runs:
// Test, Example or Fuzz followed by nothing or a non-lowercase letter.
func isTestFunc(name string) bool {
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
