package probe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/fstree"
	"github.com/cling-go/cling/probe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func analyzeIn(t *testing.T, dir, caller, callee string) *couple.Analysis {
	t.Helper()
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	return a
}

func runSuite(t *testing.T, a *couple.Analysis, opts probe.TestOptions) *probe.TestRun {
	t.Helper()
	s, err := probe.NewSession(a, probe.Coverage)
	require.NoError(t, err)
	defer s.Close()
	require.Empty(t, s.Unobservable)
	if opts.Packages == nil {
		opts.Packages = []probe.TestPackage{{Path: a.Caller.Pkg.Path, Dir: a.Caller.Pkg.Dir}}
	}
	opts.Dir = a.Prog.Dir
	run, err := s.RunTests(context.Background(), opts)
	require.NoError(t, err)
	_, err = os.Stat(s.WS.Dir)
	require.NoError(t, err)
	return run
}

const personcarSuite = `package person_test

import (
	"testing"

	"example.com/personcar/car"
	"example.com/personcar/person"
)

// Fuel 30 < 100 and not lazy: addEnergy refuels, and 30 < 50 takes the
// true branch of Refuel. Covers (Refuel site, Lazy:false, Fuel<50:true).
func TestRefuelLowTank(t *testing.T) {
	p := &person.Person{Car: &car.Car{FuelAmount: 30}}
	p.DriveToHome()
	if p.Car.FuelAmount != 100 {
		t.Fatalf("fuel = %d", p.Car.FuelAmount)
	}
}

// Refuel's false branch taken by a direct call: it must not count.
func TestDirectRefuel(t *testing.T) {
	c := &car.Car{FuelAmount: 70}
	c.Refuel()
	if c.FuelAmount != 80 {
		t.Fatalf("fuel = %d", c.FuelAmount)
	}
}

// A lazy person with fuel 70 takes the bus: Refuel is not called, so the
// false branch of Lazy is not taken either.
func TestLazyTakesBus(t *testing.T) {
	p := &person.Person{Car: &car.Car{FuelAmount: 70}, Lazy: true}
	p.DriveToHome()
	if p.Car.FuelAmount != 70 {
		t.Fatalf("fuel = %d", p.Car.FuelAmount)
	}
}
`

// The hand-worked coverage of the worked example of Derakhshanfar et al.
// 2022 (section 3.1): one of the two coupled branches, because the false
// branch of Refuel is only reached by a direct call from the test.
func TestPersonCarHandWorked(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "person", "person_test.go"), []byte(personcarSuite), 0o644))
	before := fixture.Snapshot(t, dir)
	a := analyzeIn(t, dir, "./person", "./car")
	run := runSuite(t, a, probe.TestOptions{})
	assert.Equal(t, 3, run.Tests)
	assert.Empty(t, run.Failed)
	require.Len(t, run.Covered, 2)
	assert.True(t, run.Covered[0], "(Lazy:false, Fuel<50:true) via DriveToHome")
	assert.False(t, run.Covered[1], "(Lazy:false, Fuel<50:false) only via a direct call")
	assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)), "the module changed")
}

// A failing suite still reports coverage and names the failing tests.
func TestFailingSuiteStillMeasured(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	failing := strings.Replace(personcarSuite, "p.Car.FuelAmount != 100", "p.Car.FuelAmount != 99", 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "person", "person_test.go"), []byte(failing), 0o644))
	a := analyzeIn(t, dir, "./person", "./car")
	run := runSuite(t, a, probe.TestOptions{})
	assert.Equal(t, []string{"example.com/personcar/person.TestRefuelLowTank"}, run.Failed)
	assert.Equal(t, []bool{true, false}, run.Covered)
}

func TestNoTests(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	a := analyzeIn(t, dir, "./person", "./car")
	s, err := probe.NewSession(a, probe.Coverage)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.RunTests(context.Background(), probe.TestOptions{Dir: dir, Packages: []probe.TestPackage{{Path: a.Caller.Pkg.Path, Dir: a.Caller.Pkg.Dir}}})
	var te *probe.TestError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "no tests to run in example.com/personcar/person", te.Msg)
	assert.True(t, te.NoTests)
}

// testResults runs go test -json and returns test name -> pass/fail.
func testResults(t *testing.T, dir string, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test", "-count=1", "-json"}, args...)...)
	cmd.Dir = dir
	out, _ := cmd.Output()
	res := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		var e struct{ Action, Package, Test string }
		if json.Unmarshal([]byte(line), &e) != nil || e.Test == "" {
			continue
		}
		if e.Action == "pass" || e.Action == "fail" || e.Action == "skip" {
			res[e.Package+"."+e.Test] = e.Action
		}
	}
	return res
}

// Every fixture compiles under instrumentation and its own tests give the
// same results with and without the probes.
func TestFixtureSuitesUnchangedByProbes(t *testing.T) {
	pairs := []struct {
		fixture, caller, callee string
		mode                    probe.Mode
	}{
		{"constructs", "./caller", "./callee", probe.Search},
		{"constructs", "./caller", "./callee", probe.Coverage},
		{"shop", "./checkout", "./pricing", probe.Search},
		{"shop", "./checkout", "./inventory", probe.Coverage},
		{"shop", "./pricing", "./money", probe.Search},
	}
	for _, p := range pairs {
		t.Run(fmt.Sprintf("%s %s %s mode %d", p.fixture, p.caller, p.callee, p.mode), func(t *testing.T) {
			dir := fixture.Copy(t, p.fixture)
			before := fixture.Snapshot(t, dir)
			a := analyzeIn(t, dir, p.caller, p.callee)
			s, err := probe.NewSession(a, p.mode)
			require.NoError(t, err)
			defer s.Close()
			require.Empty(t, s.Unobservable)
			_, err = probe.MarkTests(s.WS, a.Caller.Pkg.Dir, s.RTImport)
			require.NoError(t, err)
			overlay, err := s.WS.OverlayFile()
			require.NoError(t, err)

			plain := testResults(t, dir, "./...")
			probed := testResults(t, dir, "-vet=off", "-overlay", overlay, "./...")
			require.NotEmpty(t, plain)
			assert.Equal(t, plain, probed)
			var failed []string
			for name, res := range plain {
				if res != "pass" {
					failed = append(failed, name)
				}
			}
			sort.Strings(failed)
			assert.Empty(t, failed)
			assert.Empty(t, fstree.Diff(before, fixture.Snapshot(t, dir)))
		})
	}
}

// exitSuite calls the hostile callee's exits in a child process of the
// test binary and checks how the child ends.
const exitSuite = `package caller_test

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"example.com/hostile/caller"
)

func TestExits(t *testing.T) {
	if mode, err := strconv.Atoi(os.Getenv("HOSTILE_MODE")); err == nil {
		new(caller.Machine).Run(mode, 5)
		return
	}
	for _, tc := range []struct {
		mode, code int
		log        string
	}{{2, 3, ""}, {3, 1, "callee: step 5 is fatal"}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestExits$")
		cmd.Env = append(os.Environ(), "HOSTILE_MODE="+strconv.Itoa(tc.mode))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tc.code || !strings.Contains(string(out), tc.log) {
			t.Errorf("mode %d: %v, output %q", tc.mode, err, out)
		}
	}
}
`

// The search mode routes the exits of R and E through the runtime, which
// intercepts them in cling's executor only: a test of the instrumented
// packages still sees os.Exit and log.Fatalf end the process, with their
// status and message.
func TestExitsStayRealOutsideTheExecutor(t *testing.T) {
	dir := fixture.Copy(t, "hostile")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "caller", "exit_test.go"), []byte(exitSuite), 0o644))
	a := analyzeIn(t, dir, "./caller", "./callee")
	s, err := probe.NewSession(a, probe.Search)
	require.NoError(t, err)
	defer s.Close()
	overlay, err := s.WS.OverlayFile()
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"example.com/hostile/caller.TestExits": "pass"},
		testResults(t, dir, "-vet=off", "-overlay", overlay, "./caller"))
}
