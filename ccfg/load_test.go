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

func TestSkipBrokenLeavesOutPackagesThatDoNotTypeCheck(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":       "module example.com/m\n\ngo 1.21\n",
		"lib/lib.go":   "package lib\n\nfunc F() int { return 1 }\n",
		"bad/bad.go":   "package bad\n\nfunc G() int { return \"x\" }\n",
		"user/user.go": "package user\n\nimport \"example.com/m/bad\"\n\nfunc H() int { return bad.G() }\n",
	})
	_, err := Load(LoadConfig{Dir: dir, Patterns: []string{"./..."}})
	require.Error(t, err, "without SkipBroken one broken package fails the load")
	assert.Contains(t, err.Error(), "bad/bad.go:3:23")

	prog, err := Load(LoadConfig{Dir: dir, Patterns: []string{"./..."}, SkipBroken: true})
	require.NoError(t, err)
	var loaded []string
	for _, p := range prog.Packages {
		loaded = append(loaded, p.Path)
	}
	assert.Equal(t, []string{"example.com/m/lib"}, loaded)
	require.Len(t, prog.Skipped, 2)
	assert.Equal(t, "example.com/m/bad", prog.Skipped[0].Path)
	assert.Contains(t, prog.Skipped[0].Reason, "package example.com/m/bad has errors: ")
	assert.Contains(t, prog.Skipped[0].Reason, "bad/bad.go:3:23")
	assert.Equal(t, "example.com/m/user", prog.Skipped[1].Path)
	assert.Contains(t, prog.Skipped[1].Reason, "it imports example.com/m/bad, which has errors: ")

	_, err = Load(LoadConfig{Dir: dir, Patterns: []string{"./bad", "./user"}, SkipBroken: true})
	require.Error(t, err, "nothing matched is left")
	assert.Contains(t, err.Error(), "bad/bad.go:3:23")
}

// Reports name files of the main module relative to its root and files
// of the standard library as importpath/file, as coverage profiles do,
// never by where GOROOT is.
func TestRelFile(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.21\n",
		"lib/lib.go": "package lib\n\nimport \"net/url\"\n\nfunc F(s string) error { _, err := url.Parse(s); return err }\n",
	})
	prog, err := Load(LoadConfig{Dir: dir, Patterns: []string{"./lib", "net/url"}})
	require.NoError(t, err)
	lib, std := prog.Package("example.com/m/lib"), prog.Package("net/url")
	require.NotNil(t, lib)
	require.NotNil(t, std)
	assert.Equal(t, "lib/lib.go", prog.RelFile(lib.GoFiles[0]))
	for _, f := range std.GoFiles {
		assert.Equal(t, "net/url/"+filepath.Base(f), prog.RelFile(f))
	}
}

func TestIsStdPath(t *testing.T) {
	for path, want := range map[string]bool{
		"strconv":                true,
		"net/url":                true,
		"internal/bytealg":       true,
		"example.com/shop":       false,
		"github.com/x/y/strconv": false,
	} {
		assert.Equal(t, want, IsStdPath(path), path)
	}
}
