package mutate

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/cling-go/cling/internal/gotest"
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
		marked, tests, err := gotest.Mark(path, src, rtName, rtImport, beginEndTest)
		if err != nil {
			if _, isExtra := extra[path]; isExtra {
				return nil, err
			}
			continue // the go command reports its own error
		}
		out = append(out, markedFile{path: path, src: marked, tests: tests})
	}
	return out, nil
}

// beginEndTest is the statement at the top of every Test, Example and
// Fuzz function: BeginTest and the registration of EndTest, with
// t.Cleanup when the function has a *testing.T or *testing.F parameter,
// so that the end comes after parallel subtests too, and with defer
// otherwise.
func beginEndTest(fn gotest.TestFunc) string {
	name := strconv.Quote(fn.Name)
	end := fmt.Sprintf("defer %s.EndTest(%s)", rtName, name)
	if fn.Type == "T" || fn.Type == "F" {
		end = fmt.Sprintf("%s.Cleanup(func() { %s.EndTest(%s) })", fn.Param, rtName, name)
	}
	return fmt.Sprintf("%s.BeginTest(%s); %s", rtName, name, end)
}
