package probe

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cling-go/cling/internal/gotest"
)

// MarkTests instruments the test files of the package in dir so that the
// runtime knows where each test execution begins: every Test, Example and
// Fuzz function calls BeginTest first. It returns the number of test
// functions marked; hidden files are left out.
func MarkTests(w *Workspace, dir, rtImport string) (int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return 0, err
	}
	count := 0
	for _, path := range files {
		if w.Hidden(path) {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return 0, fmt.Errorf("reading %s: %w", path, err)
		}
		out, tests, err := gotest.Mark(path, src, RT, rtImport, beginTest)
		if err != nil {
			continue // a file the go command will reject with its own message
		}
		if len(tests) == 0 {
			continue
		}
		count += len(tests)
		if err := w.Set(path, out); err != nil {
			return 0, err
		}
	}
	return count, nil
}

// beginTest is the statement that starts each test function.
func beginTest(fn gotest.TestFunc) string {
	return fmt.Sprintf("%s.BeginTest(%q)", RT, fn.Name)
}
