package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clingBin is the cling binary built once for the end-to-end tests.
var clingBin string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "cling-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	clingBin = filepath.Join(dir, "cling")
	build := exec.Command("go", "build", "-o", clingBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building cling:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fastGen leaves out of a gen run what a test of something else does not
// look at: the search for faults (with the race detector's build and runs
// in verification) and the measure of the suite's cost. The tests of
// those run them.
var fastGen = []string{"--faults=false", "--cost-runs", "0"}

// result is the outcome of one cling run.
type result struct {
	stdout, stderr string
	code           int
}

// runCling runs the cling binary in dir.
func runCling(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return runClingEnv(t, dir, nil, args...)
}

// runClingEnv runs the cling binary in dir with env added to the
// environment.
func runClingEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(clingBin, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running cling: %v", err)
	}
	return result{out.String(), errb.String(), code}
}

func TestAnalyzeGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fixture, caller, callee, golden string
	}{
		{"personcar", "./person", "./car", "personcar.analyze.json"},
		{"constructs", "./caller", "./callee", "constructs.analyze.json"},
		{"shop", "./checkout", "./pricing", "shop.checkout-pricing.analyze.json"},
		{"shop", "./checkout", "./inventory", "shop.checkout-inventory.analyze.json"},
		{"shop", "./checkout", "./money", "shop.checkout-money.analyze.json"},
		{"shop", "./pricing", "./money", "shop.pricing-money.analyze.json"},
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			dir := fixture.Copy(t, tc.fixture)
			before := fixture.Snapshot(t, dir)
			r := runCling(t, dir, "analyze", "--caller", tc.caller, "--callee", tc.callee, "--json")
			require.Equal(t, 0, r.code, r.stderr)
			assert.Empty(t, r.stderr)
			golden.File(t, tc.golden, r.stdout)
			assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "cling changed the module")
		})
	}
}

func TestPairsGolden(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"personcar", "constructs", "shop"} {
		t.Run(name, func(t *testing.T) {
			dir := fixture.Copy(t, name)
			r := runCling(t, dir, "pairs", "--all", "--json")
			require.Equal(t, 0, r.code, r.stderr)
			golden.File(t, name+".pairs.json", r.stdout)
		})
	}
}

func TestAnalyzePersonCarText(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "personcar")
	r := runCling(t, dir, "analyze", "--caller", "./person", "--callee", "./car")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "2 call sites, 2 coupled branches\n")
	assert.Contains(t, r.stdout, "person/person.go:25:9  (*Person).addEnergy -> (*Car).Refuel  2 pairs\n"+
		"    caller targets: person/person.go:22:5:false\n"+
		"    callee targets: car/car.go:14:5:true  car/car.go:14:5:false\n")
}

func TestPairsRelativeToDir(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "shop")
	r := runCling(t, t.TempDir(), "-C", dir, "pairs", "--min-coupled", "20")
	require.Equal(t, 0, r.code, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 3, r.stdout) // header + the two pairs with >= 20 coupled branches
	assert.Contains(t, lines[1], "example.com/shop/pricing")
}

// TestBrokenWorkspace checks that a module the go command itself cannot
// load (here a go.work naming a module directory that does not exist) is
// reported in the go command's words, for every command that loads
// packages, not as a pattern that matched nothing.
func TestBrokenWorkspace(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "personcar")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.work"), []byte("go 1.22\n\nuse (\n\t.\n\t./gone\n)\n"), 0o644))
	for _, args := range [][]string{
		{"pairs"},
		{"analyze", "--caller", "./person", "--callee", "./car"},
	} {
		t.Run(args[0], func(t *testing.T) {
			r := runCling(t, dir, args...)
			assert.Equal(t, 1, r.code, "stderr: %s", r.stderr)
			assert.Empty(t, r.stdout)
			assert.Len(t, strings.Split(strings.TrimRight(r.stderr, "\n"), "\n"), 1, r.stderr)
			assert.Contains(t, r.stderr, "cannot load module gone listed in go.work file")
			assert.NotContains(t, r.stderr, "matched no packages")
			assert.NotContains(t, r.stderr, "stderr:")
		})
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "personcar")
	broken := filepath.Join(dir, "broken")
	require.NoError(t, os.MkdirAll(broken, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(broken, "b.go"), []byte("package broken\n\nfunc F() int { return \"x\" }\n"), 0o644))
	cases := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"unknown package", []string{"analyze", "--caller", "./person", "--callee", "./nosuch"}, 1, "./nosuch"},
		{"type errors", []string{"analyze", "--caller", "./broken", "--callee", "./car"}, 1, "broken/b.go:3:23"},
		{"same package", []string{"analyze", "--caller", "./car", "--callee", "./car"}, 2, "caller and callee are the same package"},
		{"same package by two names", []string{"analyze", "--caller", "./car", "--callee", "example.com/personcar/car"}, 1, "caller and callee are the same package"},
		{"no call sites", []string{"analyze", "--caller", "./car", "--callee", "./person"}, 1, "no call sites from example.com/personcar/car to example.com/personcar/person"},
		{"pattern matching nothing", []string{"pairs", "./nothing/..."}, 1, "matched no packages"},
		{"missing flag", []string{"analyze", "--caller", "./person"}, 2, "callee"},
		{"unknown flag", []string{"analyze", "--caller", "./person", "--callee", "./car", "--bogus"}, 2, "bogus"},
		{"unknown command", []string{"frobnicate"}, 2, "frobnicate"},
		{"stray argument", []string{"analyze", "--caller", "./person", "--callee", "./car", "extra"}, 2, "extra"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runCling(t, dir, tc.args...)
			assert.Equal(t, tc.code, r.code, "stderr: %s", r.stderr)
			assert.Empty(t, r.stdout)
			lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
			assert.Len(t, lines, 1, "want a one-line error, got %q", r.stderr)
			assert.Contains(t, r.stderr, tc.msg)
			assert.True(t, strings.HasPrefix(r.stderr, "cling: "), r.stderr)
			assert.NotContains(t, r.stderr, "goroutine ")
		})
	}
}

// TestPairsSkipsBrokenPackages checks that a package that does not
// type-check is left out of cling pairs with one warning line, listed in
// the JSON report, and fails the command only when nothing else is left.
func TestPairsSkipsBrokenPackages(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "personcar")
	broken := filepath.Join(dir, "broken")
	require.NoError(t, os.MkdirAll(broken, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(broken, "b.go"), []byte("package broken\n\nfunc F() int { return \"x\" }\n"), 0o644))

	r := runCling(t, dir, "pairs", "--all", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "cling: warning: skipping example.com/personcar/broken: has errors: "+
		"broken/b.go:3:23: cannot use \"x\" (untyped string constant) as int value in return statement\n", r.stderr)
	var rep struct {
		Pairs []struct {
			Caller, Callee string
		}
		Skipped []struct {
			Package, Reason string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	require.Len(t, rep.Pairs, 1)
	assert.Equal(t, "example.com/personcar/person", rep.Pairs[0].Caller)
	require.Len(t, rep.Skipped, 1)
	assert.Equal(t, "example.com/personcar/broken", rep.Skipped[0].Package)
	assert.Equal(t, "has errors: broken/b.go:3:23: cannot use \"x\" (untyped string constant) as int value in return statement", rep.Skipped[0].Reason)

	r = runCling(t, dir, "pairs", "./broken")
	assert.Equal(t, 1, r.code)
	assert.Empty(t, r.stdout)
	assert.Equal(t, "cling: package example.com/personcar/broken has errors: "+
		filepath.Join(broken, "b.go")+":3:23: cannot use \"x\" (untyped string constant) as int value in return statement\n", r.stderr)
}

// A callee of the standard library that cling's probe runtime imports
// cannot hold probes (the instrumented package would import itself):
// pairs --std leaves it out unless --all, which marks it, and the
// commands that instrument say so in one line instead of failing to build.
func TestStdCalleesTheProbesImport(t *testing.T) {
	t.Parallel()
	dir := fixture.Copy(t, "constructs")
	callees := func(args ...string) map[string]bool {
		t.Helper()
		r := runCling(t, dir, append([]string{"pairs", "--std", "--json"}, args...)...)
		require.Equal(t, 0, r.code, r.stderr)
		var rep struct {
			Pairs []struct {
				Caller, Callee   string
				Uninstrumentable bool
			}
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
		out := map[string]bool{}
		for _, p := range rep.Pairs {
			if p.Caller == "example.com/constructs/caller" {
				out[p.Callee] = p.Uninstrumentable
			}
		}
		return out
	}
	assert.Equal(t, map[string]bool{"example.com/constructs/callee": false, "sort": false}, callees())
	all := callees("--all")
	assert.Equal(t, map[string]bool{"example.com/constructs/callee": false, "sort": false, "fmt": true, "sync": true, "slices": true}, all)

	r := runCling(t, dir, "pairs", "--std")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "cling's probe runtime imports their callees (fmt, slices, strconv, sync, sync/atomic)")

	before := fixture.Snapshot(t, dir)
	for _, cmd := range []string{"cbc", "gen", "mutate"} {
		t.Run(cmd, func(t *testing.T) {
			r := runCling(t, dir, cmd, "--caller", "./callee", "--callee", "strconv")
			assert.Equal(t, 1, r.code, r.stderr)
			assert.Equal(t, "cling: cannot put probes into strconv: cling's probe runtime imports it (of the standard library, cling pairs --std lists the callees it can instrument)\n", r.stderr)
		})
	}
	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "cling changed the module")
}
