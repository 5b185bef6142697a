package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// faultsJSON is what gen --json says about faults.
type faultsJSON struct {
	FaultsFile string `json:"faultsFile"`
	Faults     []struct {
		Kind       string   `json:"kind"`
		Message    string   `json:"message"`
		Pos        string   `json:"pos"`
		Func       string   `json:"func"`
		Stack      []string `json:"stack"`
		CallSite   string   `json:"callSite"`
		Test       string   `json:"test"`
		Reproducer string   `json:"reproducer"`
	} `json:"faults"`
	Misuse            int `json:"misuse"`
	OutsidePair       int `json:"outsidePair"`
	ExplicitPanics    int `json:"explicitPanics"`
	UnconfirmedFaults int `json:"unconfirmedFaults"`
}

// raceDetector reports whether go test -race works here.
func raceDetector(t *testing.T) bool {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	return err == nil && strings.TrimSpace(string(out)) == "1"
}

// goTestOutput runs go test in dir and returns its output and whether it
// passed.
func goTestOutput(t *testing.T, dir string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test", "-count=1"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// On the fixture with seeded faults, gen reports exactly the seeded
// faults, each with its kind, place and call site: the off-by-one index
// through both of R's calls that reach it, the nil map of E's lazily
// initialised state, the loop that never ends for one input, the
// goroutine that outlives its call, and the data race the race detector
// reports in the written tests, and the nil map of the index that R hands
// out, bumped by the test. The misuses (nil or a literal given where a
// constructor exists, a feed never closed), the failures of E's code that
// the tests called themselves and the explicit panic are counted, not
// reported. The faults file builds only with its tag: the
// default suite passes, and with the tag every reproducer fails, once.
func TestGenFindsSeededFaults(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "faults")
	before := fixture.Snapshot(t, dir)
	// Seed 2 at 3000 evaluations finds every seeded fault; the index bumped
	// by the test is the one a search of this budget may miss (seed 1
	// does). GOFLAGS=-trimpath, which would take the source paths out of
	// the binaries, must change nothing.
	r := runClingEnv(t, dir, []string{"GOFLAGS=-trimpath"}, "gen", "--json", "--caller", "./catalog", "--callee", "./store",
		"--max-evals", "3000", "--seed", "2", "--timeout", "300ms")
	require.Equal(t, 0, r.code, r.stderr)
	var rep struct {
		genJSON
		faultsJSON
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)

	want := []string{
		"goroutine leak store/store.go:100 catalog/catalog.go:96:15",
		"hang store/store.go:85 catalog/catalog.go:83:16",
		"index out of range store/store.go:47 catalog/catalog.go:53:18",
		"index out of range store/store.go:47 catalog/catalog.go:61:18",
		"nil map assignment store/store.go:74 catalog/catalog.go:69:16",
		// The index Tags hands out, bumped by the test: no call site of R,
		// but a value R made.
		"nil map assignment store/store.go:74 ",
	}
	race := raceDetector(t)
	if race {
		want = append(want, "data race store/store.go:138 catalog/catalog.go:108:18")
	}
	sort.Strings(want)
	var got, names []string
	for _, f := range rep.Faults {
		pos := f.Pos
		if f.Kind == "hang" {
			// Where the loop was stopped varies; its function does not.
			assert.Equal(t, "store.Steps", f.Func)
			pos = "store/store.go:85"
		}
		got = append(got, f.Kind+" "+pos+" "+f.CallSite)
		names = append(names, f.Test)
		assert.Contains(t, f.Reproducer, "func "+f.Test+"(t *testing.T) {")
		assert.Contains(t, f.Reproducer, "// "+f.Test+": ")
		assert.NotEmpty(t, f.Stack)
	}
	sort.Strings(got)
	assert.Equal(t, want, got)
	assert.Positive(t, rep.Misuse)
	assert.Positive(t, rep.OutsidePair, "Ring.Get called by the tests on rings they made")
	assert.Equal(t, 1, rep.ExplicitPanics, "MustQuantity's panic through Restock")
	assert.Zero(t, rep.UnconfirmedFaults)

	require.Equal(t, filepath.Join(dir, "catalog", "cling_store_faults_test.go"), rep.FaultsFile)
	assert.Equal(t, []string{"catalog/cling_store_faults_test.go", "catalog/cling_store_test.go"},
		fstree.Diff(before, fixture.Snapshot(t, dir)), "gen wrote only its two files")
	src := readFile(t, rep.FaultsFile)
	assert.True(t, strings.HasPrefix(src, "//go:build cling_faults\n"))
	tests := readFile(t, rep.TestFile)
	// The only panics the tests assert are Restock's, explicit: no test
	// pins a fault as expected behaviour.
	panics := regexp.MustCompile(`mustPanic\(t, func\(\) \{ (.*) \}\)`).FindAllStringSubmatch(tests, -1)
	require.NotEmpty(t, panics)
	for _, p := range panics {
		assert.Regexp(t, `^_ = \w+\.Restock\(`, p[1])
	}

	out, ok := goTestOutput(t, dir, "./...")
	assert.True(t, ok, "the default suite passes:\n%s", out)
	out, ok = goTestOutput(t, dir, "-tags", "cling_faults", "./catalog")
	assert.False(t, ok)
	failed := regexp.MustCompile(`(?m)^--- FAIL: (\w+)`).FindAllStringSubmatch(out, -1)
	var failing []string
	for _, m := range failed {
		failing = append(failing, m[1])
	}
	var runnable []string
	for _, n := range names {
		if !strings.Contains(n, "DataRace") {
			runnable = append(runnable, n)
		}
	}
	sort.Strings(failing)
	sort.Strings(runnable)
	assert.Equal(t, runnable, failing, "every reproducer fails once with the tag, the race's skips without -race:\n%s", out)
	if race {
		out, ok = goTestOutput(t, dir, "-race", "-tags", "cling_faults", "-run", "DataRace", "./catalog")
		assert.False(t, ok)
		assert.Contains(t, out, "WARNING: DATA RACE")
	}
}

// With --faults-only, gen searches for faults alone and writes only the
// faults file; with --faults=false, it writes only the tests and reports
// no faults.
func TestGenFaultsOnlyAndOff(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "faults")
	before := fixture.Snapshot(t, dir)
	r := runCling(t, dir, "gen", "--faults-only", "--caller", "./catalog", "--callee", "./store",
		"--max-evals", "1500", "--seed", "2", "--timeout", "300ms")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Regexp(t, `(?m)^searched for faults: mosa search in`, r.stdout)
	assert.Regexp(t, `(?m)^fault: index out of range at store/store.go:47 \(store\.\(\*Ring\)\.Get\), call site catalog/catalog.go:\d+:18, TestFaultIndexOutOfRange_Get_L47`, r.stdout)
	assert.Equal(t, []string{"catalog/cling_store_faults_test.go"}, fstree.Diff(before, fixture.Snapshot(t, dir)))
	// One line per fault: one per reproducer of the file.
	reproducers := regexp.MustCompile(`(?m)^func (TestFault\w+)\(`).FindAllStringSubmatch(readFile(t, filepath.Join(dir, "catalog", "cling_store_faults_test.go")), -1)
	lines := regexp.MustCompile(`(?m)^fault: .*, (TestFault\w+)$`).FindAllStringSubmatch(r.stdout, -1)
	require.NotEmpty(t, reproducers)
	require.Len(t, lines, len(reproducers), r.stdout)
	for i := range lines {
		assert.Equal(t, reproducers[i][1], lines[i][1], "the lines in the file's order")
	}

	dir = fixture.Copy(t, "faults")
	before = fixture.Snapshot(t, dir)
	r = runCling(t, dir, "gen", "--json", "--faults=false", "--caller", "./catalog", "--callee", "./store",
		"--max-evals", "600", "--seed", "2", "--timeout", "300ms")
	require.Equal(t, 0, r.code, r.stderr)
	var rep faultsJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Nil(t, rep.Faults)
	assert.Equal(t, []string{"catalog/cling_store_test.go"}, fstree.Diff(before, fixture.Snapshot(t, dir)))

	r = runCling(t, dir, "gen", "--faults-only", "--faults=false", "--caller", "./catalog", "--callee", "./store")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "contradict")
}

// A test that panics in sync.Pool.Get on a nil pool passes, but leaves
// the race detector without its goroutine's synchronisation: under
// go test -race the tests after it report races in the testing package,
// and the package fails. Verification's race run finds the test that did
// it and drops it (and the archive's other tests for its goal, which do
// the same), reports no race fault, and the file passes go test -race;
// with --race=false it is written, and go test -race fails (-count=2, so
// that a test comes after it).
func TestGenDropsTestsThatBreakTheRaceDetector(t *testing.T) {
	t.Parallel()
	if !raceDetector(t) {
		t.Skip("no race detector here")
	}
	dir := fixture.Copy(t, "nilpool")
	args := []string{"gen", "--json", "--caller", "./render", "--callee", "./format", "--max-evals", "500", "--seed", "1", "--cost-runs", "0"}
	r := runCling(t, dir, args...)
	require.Equal(t, 0, r.code, r.stderr)
	var rep struct {
		genJSON
		faultsJSON
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep), r.stdout)
	assert.Empty(t, rep.Faults)
	require.NotEmpty(t, rep.Dropped)
	for _, name := range rep.Dropped {
		assert.True(t, strings.HasPrefix(name, "TestNumber_EntryRender_L14False"), name)
	}
	tests := readFile(t, rep.TestFile)
	assert.NotContains(t, tests, "mustPanic")
	assert.Contains(t, tests, "func TestNumber_EntryRender_L14True(t *testing.T) {")
	out, ok := goTestOutput(t, dir, "-race", "./render")
	assert.True(t, ok, out)

	r = runCling(t, dir, append(args, "--race=false", "--force")...)
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, readFile(t, rep.TestFile), "mustPanic(t, func() { _ = renderer.Render(")
	// Twice: the test may be the file's last, with no test after it.
	out, ok = goTestOutput(t, dir, "-race", "-count=2", "./render")
	assert.False(t, ok, out)
	assert.Contains(t, out, "WARNING: DATA RACE")
}
