package probe

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file of the module cache names its module by the directory
// path@version, with the cache's escaping of capital letters undone.
func TestCachedModule(t *testing.T) {
	cache := filepath.FromSlash("/home/u/go/pkg/mod")
	for _, c := range []struct {
		path, dir, mod string
		ok             bool
	}{
		{"github.com/spf13/pflag@v1.0.9/flag.go", "github.com/spf13/pflag@v1.0.9", "github.com/spf13/pflag", true},
		{"github.com/!burnt!sushi/toml@v1.4.0/internal/tz.go", "github.com/!burnt!sushi/toml@v1.4.0", "github.com/BurntSushi/toml", true},
		{"gopkg.in/yaml.v3@v3.0.1/yaml.go", "gopkg.in/yaml.v3@v3.0.1", "gopkg.in/yaml.v3", true},
		{"cache/download/github.com/spf13/pflag/@v/list", "", "", false},
		{"github.com/spf13/pflag@v1.0.9", "", "", false},
	} {
		dir, mod, ok := cachedModule(cache, filepath.Join(cache, filepath.FromSlash(c.path)))
		assert.Equal(t, c.ok, ok, c.path)
		assert.Equal(t, c.mod, mod, c.path)
		if c.ok {
			assert.Equal(t, filepath.Join(cache, filepath.FromSlash(c.dir)), dir, c.path)
		}
	}
	_, _, ok := cachedModule(cache, filepath.FromSlash("/elsewhere/m@v1/x.go"))
	assert.False(t, ok, "outside the cache")
}

// Setting a file of a module in the cache that the analysis did not load
// copies that module into the workspace and replaces it in the overlaid
// go.mod, instead of overlaying the cache, which the go command refuses.
func TestSetInAModuleTheAnalysisDidNotLoad(t *testing.T) {
	cache, root := t.TempDir(), t.TempDir()
	modDir := filepath.Join(cache, "example.com", "!dep@v1.2.0")
	require.NoError(t, os.MkdirAll(modDir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(modDir, "go.mod"), []byte("module example.com/Dep\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(modDir, "dep.go"), []byte("package dep\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/main\n\nrequire example.com/Dep v1.2.0\n"), 0o644))
	w := newWorkspace(t.TempDir(), root, "example.com/main", cache)

	require.NoError(t, w.Set(filepath.Join(modDir, "dep.go"), []byte("package dep // rewritten\n")))
	assert.Empty(t, w.replace, "nothing of the cache is overlaid")
	require.Contains(t, w.copies, modDir)
	got, err := os.ReadFile(filepath.Join(w.copies[modDir], "dep.go"))
	require.NoError(t, err)
	assert.Equal(t, "package dep // rewritten\n", string(got))

	require.NoError(t, w.overlayGoMod())
	gomod, err := os.ReadFile(w.replace[filepath.Join(root, "go.mod")])
	require.NoError(t, err)
	assert.Contains(t, string(gomod), "replace example.com/Dep => "+w.copies[modDir])
	dep, err := os.ReadFile(filepath.Join(modDir, "dep.go"))
	require.NoError(t, err)
	assert.Equal(t, "package dep\n", string(dep), "the cache is untouched")
}
