package fstree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCopy(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	write := func(rel, text string, perm os.FileMode) {
		p := filepath.Join(src, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), perm))
	}
	write("go.mod", "module m\n", 0o444)
	write("pkg/a.go", "package pkg\n", 0o644)
	write("testdata/run.sh", "#!/bin/sh\n", 0o755)
	write(".git/HEAD", "ref\n", 0o644)
	require.NoError(t, os.Symlink("a.go", filepath.Join(src, "pkg", "link.go")))
	require.NoError(t, os.Symlink("missing", filepath.Join(src, "pkg", "broken")))

	dst := filepath.Join(t.TempDir(), "dst")
	require.NoError(t, Copy(src, dst))

	mode := func(rel string) os.FileMode {
		st, err := os.Lstat(filepath.Join(dst, rel))
		require.NoError(t, err)
		return st.Mode()
	}
	assert.Equal(t, os.FileMode(0o644), mode("go.mod"), "read-only files become writable")
	assert.Equal(t, os.FileMode(0o755), mode("testdata/run.sh"), "executables stay executable")
	assert.True(t, mode("pkg/link.go").IsRegular(), "a link to a file is copied as the file")
	b, err := os.ReadFile(filepath.Join(dst, "pkg", "link.go"))
	require.NoError(t, err)
	assert.Equal(t, "package pkg\n", string(b))
	assert.NoFileExists(t, filepath.Join(dst, "pkg", "broken"))
	assert.NoDirExists(t, filepath.Join(dst, ".git"))

	assert.ErrorContains(t, Copy(filepath.Join(src, "nothing"), dst), "copying")
}

func TestSnapshotDiff(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("a"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.go"), []byte("b"), 0o644))
	before, err := Snapshot(dir)
	require.NoError(t, err)
	again, err := Snapshot(dir)
	require.NoError(t, err)
	assert.Empty(t, Diff(before, again))

	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte("A"), 0o644))
	require.NoError(t, os.Chmod(filepath.Join(dir, "b.go"), 0o600))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "new"), 0o755))
	after, err := Snapshot(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.go", "b.go", "new/"}, Diff(before, after))
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "new")))
	require.NoError(t, os.Remove(filepath.Join(dir, "a.go")))
	gone, err := Snapshot(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.go", "b.go"}, Diff(before, gone))
}
