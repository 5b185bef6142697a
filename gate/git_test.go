package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeFile writes dir/rel, creating directories.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

// history makes a repository whose branch base holds a.go with lines
// a1..a5 and whose main adds a line after a2 and commits.
func history(t *testing.T) string {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	dir := t.TempDir()
	writeFile(t, dir, "a.go", "a1\na2\na3\na4\na5\n")
	fixture.GitRepo(t, dir)
	writeFile(t, dir, "a.go", "a1\na2\nnew\na3\na4\na5\n")
	fixture.Commit(t, dir, "change")
	return dir
}

// changedLines lists the changes as path: lines.
func changedLines(c *Changes) map[string][]int {
	out := map[string][]int{}
	for _, f := range c.Sorted() {
		out[f.Path] = f.SortedLines()
		if f.Deleted {
			out[f.Path+" (deleted)"] = nil
		}
	}
	return out
}

func TestReadChange(t *testing.T) {
	ctx := context.Background()
	dir := history(t)
	// Uncommitted work: a modified line, a deleted file, a new file.
	writeFile(t, dir, "a.go", "a1\na2\nnew\na3\nA4\na5\n")
	writeFile(t, dir, "sub/b.go", "b1\nb2")
	r, err := openRepo(ctx, filepath.Join(dir))
	require.NoError(t, err)
	name, base, err := r.resolveBase(ctx, "base")
	require.NoError(t, err)
	assert.Equal(t, "base", name)
	head, err := r.head(ctx)
	require.NoError(t, err)
	mb, err := r.mergeBase(ctx, name, base, head)
	require.NoError(t, err)
	assert.Equal(t, base, mb)

	committed, err := r.changes(ctx, mb, false)
	require.NoError(t, err)
	assert.Equal(t, map[string][]int{"a.go": {3}}, changedLines(committed))
	assert.True(t, committed.Touched(filepath.Join(r.top, "a.go"), 1, 3))

	all, err := r.changes(ctx, mb, true)
	require.NoError(t, err)
	assert.Equal(t, map[string][]int{"a.go": {3, 5}, "sub/b.go": {1, 2}}, changedLines(all))
}

// The work tree of a subdirectory names files relative to the repository
// root all the same.
func TestReadChangeInSubdirectory(t *testing.T) {
	ctx := context.Background()
	dir := history(t)
	require.NoError(t, os.Remove(filepath.Join(dir, "a.go")))
	writeFile(t, dir, "sub/c.go", "c\n")
	r, err := openRepo(ctx, filepath.Join(dir, "sub"))
	require.NoError(t, err)
	c, err := r.changes(ctx, strings.TrimSpace(fixture.Git(t, dir, "rev-parse", "base")), true)
	require.NoError(t, err)
	assert.Equal(t, map[string][]int{"a.go": {}, "a.go (deleted)": nil, "sub/c.go": {1}}, changedLines(c))
}

func TestRepoErrors(t *testing.T) {
	ctx := context.Background()
	t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
	plain := t.TempDir()
	_, err := openRepo(ctx, plain)
	assert.EqualError(t, err, plain+" is not in a git repository: cling ci judges the change between a base commit and HEAD")
	_, err = openRepo(ctx, filepath.Join(plain, "missing"))
	assert.EqualError(t, err, "directory "+filepath.Join(plain, "missing")+" does not exist")

	dir := history(t)
	r, err := openRepo(ctx, dir)
	require.NoError(t, err)
	_, _, err = r.resolveBase(ctx, "origin/release")
	assert.EqualError(t, err, "base origin/release not found: fetch it first (git fetch origin release; in GitHub Actions, actions/checkout with fetch-depth: 0)")
	_, _, err = r.resolveBase(ctx, "--all")
	assert.EqualError(t, err, `base "--all" is not a revision`)

	empty := t.TempDir()
	fixture.Git(t, empty, "init", "-q")
	r, err = openRepo(ctx, empty)
	require.NoError(t, err)
	_, err = r.head(ctx)
	assert.EqualError(t, err, "HEAD has no commit yet: commit the change, or compare uncommitted changes with a base that exists")
}

// In a clone, a branch of origin is found by its name alone, as
// $GITHUB_BASE_REF names it.
func TestBaseOnlyOnOrigin(t *testing.T) {
	ctx := context.Background()
	src := history(t)
	clone := filepath.Join(t.TempDir(), "clone")
	fixture.Git(t, src, "clone", "-q", src, clone)
	r, err := openRepo(ctx, clone)
	require.NoError(t, err)
	name, hash, err := r.resolveBase(ctx, "base")
	require.NoError(t, err)
	assert.Equal(t, "origin/base", name)
	assert.Equal(t, strings.TrimSpace(fixture.Git(t, src, "rev-parse", "base")), hash)
}

// A shallow clone has the tips of both branches but not their common
// history.
func TestShallowCloneWithoutMergeBase(t *testing.T) {
	ctx := context.Background()
	src := history(t)
	clone := filepath.Join(t.TempDir(), "clone")
	fixture.Git(t, src, "clone", "-q", "--depth", "1", "--no-single-branch", "file://"+src, clone)
	r, err := openRepo(ctx, clone)
	require.NoError(t, err)
	name, base, err := r.resolveBase(ctx, "base")
	require.NoError(t, err)
	head, err := r.head(ctx)
	require.NoError(t, err)
	_, err = r.mergeBase(ctx, name, base, head)
	assert.EqualError(t, err, "no merge base of origin/base and HEAD in this shallow clone: fetch the history (git fetch --unshallow; in GitHub Actions, actions/checkout with fetch-depth: 0)")

	// Unrelated histories in a full clone say so.
	fixture.Git(t, src, "checkout", "-q", "--orphan", "other")
	fixture.Commit(t, src, "unrelated")
	r, err = openRepo(ctx, src)
	require.NoError(t, err)
	head, err = r.head(ctx)
	require.NoError(t, err)
	_, base, err = r.resolveBase(ctx, "base")
	require.NoError(t, err)
	_, err = r.mergeBase(ctx, "base", base, head)
	assert.EqualError(t, err, "base and HEAD have no common history: name a base that HEAD grew from")
}
