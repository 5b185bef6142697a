package harness

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cache keeps the most recently used entries and those used lately.
func TestPruneCache(t *testing.T) {
	cache := t.TempDir()
	now := time.Now()
	ages := map[string]time.Duration{
		"new":    time.Minute,
		"recent": 2 * time.Hour,
		"old":    48 * time.Hour,
		"older":  72 * time.Hour,
		"oldest": 96 * time.Hour,
	}
	for name, age := range ages {
		entry := filepath.Join(cache, name)
		require.NoError(t, os.MkdirAll(entry, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(entry, testBinaryFile), []byte("x"), 0o755))
		require.NoError(t, os.Chtimes(entry, now.Add(-age), now.Add(-age)))
	}
	require.NoError(t, os.WriteFile(filepath.Join(cache, "stray"), nil, 0o644))
	pruneCache(cache, 1, 24*time.Hour)
	var left []string
	entries, err := os.ReadDir(cache)
	require.NoError(t, err)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	assert.ElementsMatch(t, []string{"new", "recent", "stray"}, left)

	pruneCache(cache, 0, time.Hour)
	entries, err = os.ReadDir(cache)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "new (used a minute ago) and stray stay")
}

// The test file added to the caller's test binary takes names that no
// package-level identifier of the external test package uses.
func TestNewTestFileNames(t *testing.T) {
	cases := []struct {
		taken []string
		want  testFileNames
	}{
		{nil, testFileNames{"TestClingExecutor", "clingexecutor", "clingtesting", "clingos"}},
		{[]string{"clingos"}, testFileNames{"TestClingExecutor1", "clingexecutor1", "clingtesting1", "clingos1"}},
		{[]string{"TestClingExecutor", "clingtesting1"}, testFileNames{"TestClingExecutor2", "clingexecutor2", "clingtesting2", "clingos2"}},
	}
	for _, tc := range cases {
		taken := map[string]bool{}
		for _, n := range tc.taken {
			taken[n] = true
		}
		assert.Equal(t, tc.want, newTestFileNames(taken), "taken: %v", tc.taken)
	}
}

// The package-level names of the external test files: functions (not
// methods), types, variables and constants; the internal test files'
// names are another package's.
func TestExternalTestNames(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("a_test.go", "package p_test\n\nimport \"testing\"\n\ntype fixture struct{}\n\nfunc (fixture) Method() {}\n\nvar x, y = 1, 2\n\nconst (\n\tz = 3\n)\n\nfunc TestA(t *testing.T) {}\n")
	write("b_test.go", "package p\n\nvar internal = 1\n")
	write("c_test.go", "package p_test\n\nthis does not parse\n")
	write("p.go", "package p\n\nvar notATest = 1\n")
	got := externalTestNames(dir, "p_test")
	assert.Equal(t, map[string]bool{"fixture": true, "x": true, "y": true, "z": true, "TestA": true}, got)
}

// The executor is built with the caller's test files as they are on disk,
// even after a coverage run marked them in the same workspace, with the
// added test file and the instrumented sources, and without the excluded
// files.
func TestExecutorOverlay(t *testing.T) {
	dir := fixture.Copy(t, "procstate")
	rdir := filepath.Join(dir, "describe")
	ownTest := filepath.Join(rdir, "describe_test.go")
	require.NoError(t, os.WriteFile(ownTest, []byte("package describe\n\nimport \"testing\"\n\nfunc TestDescribe(t *testing.T) { Describe(1) }\n"), 0o644))
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./describe", "./label")
	require.NoError(t, err)
	sess, err := probe.NewSession(a, probe.Search)
	require.NoError(t, err)
	t.Cleanup(func() { sess.Close() })
	marked, err := probe.MarkTests(sess.WS, rdir, sess.RTImport)
	require.NoError(t, err)
	require.Equal(t, 1, marked)
	_, overlaid := sess.WS.Overlaid(ownTest)
	require.True(t, overlaid, "the session's overlay has the marked test file")

	added := filepath.Join(rdir, "cling_executor_test.go")
	require.NoError(t, sess.WS.Set(added, []byte("package describe_test\n")))
	excluded := filepath.Join(rdir, "cling_label_test.go")
	_, replaced, err := executorOverlay(sess.WS, rdir, added, []string{excluded})
	require.NoError(t, err)
	assert.NotContains(t, replaced, ownTest)
	assert.NotEmpty(t, replaced[added])
	assert.NotEmpty(t, replaced[filepath.Join(rdir, "describe.go")], "instrumented")
	assert.Contains(t, replaced, excluded)
	assert.Empty(t, replaced[excluded], "removed")
}

// The go command continues an error on indented lines; the message keeps
// them, since the first line alone ("package p") says nothing.
func TestFirstError(t *testing.T) {
	cases := []struct {
		stderr, want string
	}{
		{"# example.com/m/p\np/p.go:3:2: undefined: x\np/p.go:4:2: undefined: y\n", "p/p.go:3:2: undefined: x"},
		{"package example.com/m/main\n\timports example.com/m/rt from main.go\n\timports strconv from rt.go: import cycle not allowed\n",
			"package example.com/m/main imports example.com/m/rt from main.go imports strconv from rt.go: import cycle not allowed"},
		{"\n", "exit status 1"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, firstError(tc.stderr, errors.New("exit status 1")))
	}
}
