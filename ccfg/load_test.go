package ccfg

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeModule writes files (path -> content) under a new module root.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	return dir
}

func TestListGivesEveryPackageItsDirectory(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":                "module example.com/m\n\ngo 1.21\n",
		"lib/lib.go":            "package lib\n\nfunc F() int { return 1 }\n",
		"suite/suite_test.go":   "package suite\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"suite/other/o_test.go": "package other_test\n\nimport \"testing\"\n\nfunc TestY(t *testing.T) {}\n",
	})
	listed, err := List(LoadConfig{Dir: dir, Patterns: []string{"./..."}})
	require.NoError(t, err)
	got := map[string]string{}
	for _, l := range listed {
		got[l.Path] = l.Dir
	}
	assert.Equal(t, map[string]string{
		"example.com/m/lib":         filepath.Join(dir, "lib"),
		"example.com/m/suite":       filepath.Join(dir, "suite"),
		"example.com/m/suite/other": filepath.Join(dir, "suite", "other"),
	}, got, "a package with only test files has a directory too")

	_, err = List(LoadConfig{Dir: dir, Patterns: []string{"./nothing/..."}})
	assert.Error(t, err)
}
