// Package golden compares what a test generated with the golden files
// under the repository's testdata/golden directory, and rewrites them when
// the test binary runs with -update (go test ./pkg -run Golden -update).
// Golden files hold only what the generator writes, with every
// machine-specific part (temporary paths) normalised away by the test.
package golden

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// Path returns the absolute path of the golden file or directory name,
// relative to testdata/golden.
func Path(name string) string {
	return filepath.Join(fixture.Root(), "testdata", "golden", filepath.FromSlash(name))
}

// File compares got with the golden file name (relative to
// testdata/golden), or rewrites the file with -update.
func File(t testing.TB, name, got string) {
	t.Helper()
	path := Path(name)
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run the test %s with -update", t.Name())
	assert.Equal(t, string(want), got, "golden file %s", name)
}

// Dir compares a set of generated files, by slash-separated relative
// path, with the golden directory name: the directory must hold exactly
// these files with exactly these contents. With -update the directory is
// replaced by the files.
func Dir(t testing.TB, name string, files map[string]string) {
	t.Helper()
	root := Path(name)
	if *update {
		require.NoError(t, os.RemoveAll(root))
		for rel, content := range files {
			File(t, name+"/"+rel, content)
		}
		return
	}
	var have []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		have = append(have, filepath.ToSlash(rel))
		return err
	})
	require.NoError(t, err, "missing golden directory; run the test %s with -update", t.Name())
	want := make([]string, 0, len(files))
	for rel := range files {
		want = append(want, rel)
	}
	sort.Strings(want)
	sort.Strings(have)
	assert.Equal(t, have, want, "files of golden directory %s", name)
	for _, rel := range want {
		File(t, name+"/"+rel, files[rel])
	}
}

// Sources turns generated source files, by absolute path under the
// temporary module root, into golden files for Dir: keyed by their
// slash-separated path in the module with the suffix .golden (so that no
// tool takes them for Go code), with every mention of root (a //line
// directive, for instance) replaced by $FIXTURE.
func Sources(t testing.TB, root string, files map[string][]byte) map[string]string {
	t.Helper()
	out := make(map[string]string, len(files))
	for path, src := range files {
		rel, err := filepath.Rel(root, path)
		require.NoError(t, err)
		out[filepath.ToSlash(rel)+".golden"] = Normalise(string(src), root)
	}
	return out
}

// Normalise replaces every mention of the temporary module root in s by
// $FIXTURE.
func Normalise(s, root string) string { return strings.ReplaceAll(s, root, "$FIXTURE") }
