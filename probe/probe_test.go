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
	"github.com/cling-go/cling/targets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func analyzeIn(t *testing.T, dir, caller, callee string) *couple.Analysis {
	t.Helper()
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, caller, callee)
	require.NoError(t, err)
	return a
}

// allExtras selects every extra probe.
var allExtras = probe.Extras{Lines: true, API: true, Errors: true, Direct: true, Mutants: true, Outcomes: true}

func runSuite(t *testing.T, a *couple.Analysis, opts probe.TestOptions) *probe.TestRun {
	t.Helper()
	return runSuiteWith(t, probe.NewPlan(a, probe.Coverage), opts)
}

// runSuiteWith runs the suite of R (or of opts.Packages) under the plan's
// probes.
func runSuiteWith(t *testing.T, plan *probe.Plan, opts probe.TestOptions) *probe.TestRun {
	t.Helper()
	a := plan.A
	s, err := probe.NewSessionWith(plan)
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

// A hidden test file is left out of the run as if it were deleted: this
// one would not even build.
func TestHiddenTestFileLeftOut(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "person", "person_test.go"), []byte(personcarSuite), 0o644))
	broken := filepath.Join(dir, "person", "cling_car_test.go")
	require.NoError(t, os.WriteFile(broken, []byte("package person_test\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { undefined() }\n"), 0o644))
	a := analyzeIn(t, dir, "./person", "./car")
	run := runSuite(t, a, probe.TestOptions{Hide: []string{broken}})
	assert.Equal(t, 3, run.Tests)
	assert.Empty(t, run.Failed)
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
		extras                  probe.Extras
	}{
		{"constructs", "./caller", "./callee", probe.Search, probe.Extras{}},
		{"constructs", "./caller", "./callee", probe.Coverage, probe.Extras{}},
		{"shop", "./checkout", "./pricing", probe.Search, probe.Extras{}},
		{"shop", "./checkout", "./inventory", probe.Coverage, probe.Extras{}},
		{"shop", "./pricing", "./money", probe.Search, probe.Extras{}},
		{"constructs", "./caller", "./callee", probe.Search, allExtras},
		{"shop", "./checkout", "./pricing", probe.Coverage, allExtras},
		{"shop", "./pricing", "./money", probe.Search, allExtras},
		{"mutants", "./app", "./store", probe.Coverage, allExtras},
	}
	for _, p := range pairs {
		t.Run(fmt.Sprintf("%s %s %s mode %d extras %t", p.fixture, p.caller, p.callee, p.mode, p.extras.Any()), func(t *testing.T) {
			dir := fixture.Copy(t, p.fixture)
			before := fixture.Snapshot(t, dir)
			a := analyzeIn(t, dir, p.caller, p.callee)
			tg, err := targets.Of(a)
			require.NoError(t, err)
			s, err := probe.NewSessionWith(probe.NewPlanWith(a, p.mode, tg, p.extras))
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

// A test that makes DriveToHome panic on a person without a car, and
// recovers.
const personcarPanic = `
func TestNoCar(t *testing.T) {
	defer func() { recover() }()
	(&person.Person{}).DriveToHome()
}
`

// The extra probes on the hand-worked suite of personcar, with a test
// that panics: lines, branch outcomes, direct calls and their branches,
// panics and mutants.
func TestPersonCarExtras(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "person", "person_test.go"), []byte(personcarSuite+personcarPanic), 0o644))
	a := analyzeIn(t, dir, "./person", "./car")
	tg, err := targets.Of(a)
	require.NoError(t, err)
	run := runSuiteWith(t, probe.NewPlanWith(a, probe.Coverage, tg, allExtras), probe.TestOptions{})
	x := run.Extras
	require.NotNil(t, x)
	// Nodes: person.go:14:5, person.go:22:5, entry DriveToHome, car.go:14:5,
	// entries of Drive and Refuel (not probed in coverage mode).
	assert.Equal(t, []bool{true, false, true, true, true, false, true, false, false, false, false, false}, x.Outcomes,
		"car.go:14:5:false is only taken by a direct call of Refuel; nobody has 100 litres")
	// Lines: car.go 9 14 15 17, person.go 14 15 17 22 23 25.
	assert.Equal(t, []bool{false, true, true, false, true, true, false, true, true, true}, x.Lines)
	assert.Equal(t, []bool{true}, x.Called)
	assert.Equal(t, []bool{true}, x.Returned)
	assert.Empty(t, x.Outputs, "DriveToHome returns nothing")
	assert.Equal(t, []bool{true, false, false, false, false, false, false, false, false, false, false, false}, x.Direct,
		"addEnergy's branch is not DriveToHome's own")
	assert.Equal(t, []bool{false, false, true}, x.Mutants, "the deletion of Refuel is reached, that of Drive is not")
	assert.Equal(t, []string{"panic person.(*Person).DriveToHome runtime.errorString"}, x.Panics)
	assert.Equal(t, []bool{true, false}, run.Covered)
}

// The infection of the interface mutants and the output partitions under
// the mutants fixture's own suite of app. Mutant IDs are those of cling
// mutate (see targets): e.g. #8 returns key in place of Name(key), which
// no test tells apart (the keys are lower case); #11 returns max in place
// of Clamp(v, max), and Capped is called with a quantity above the limit.
func TestMutantsExtras(t *testing.T) {
	dir := fixture.Copy(t, "mutants")
	a := analyzeIn(t, dir, "./app", "./store")
	tg, err := targets.Of(a)
	require.NoError(t, err)
	run := runSuiteWith(t, probe.NewPlanWith(a, probe.Coverage, tg, allExtras), probe.TestOptions{})
	x := run.Extras
	var infected, missed []int
	for id := 1; id < len(x.Mutants); id++ {
		if x.Mutants[id] {
			infected = append(infected, id)
		} else {
			missed = append(missed, id)
		}
	}
	assert.Equal(t, []int{8, 11, 15, 24, 26}, missed, "infected: %v", infected)
	// NewInventory nil/non-nil; Count, Capped, Steps and Label <0, 0, >0.
	assert.Equal(t, []bool{false, true, false, true, false, true, false, false, true, false, false, true, false, false, true}, x.Outputs)
	assert.Equal(t, []bool{true, true, true, true, true, true, false}, x.Called, "nobody calls Audit")
	assert.Empty(t, x.Panics)
}

// A constant argument the checker converted to its parameter's type keeps
// that type in the instrumented build: the 0 of p.Car.Wait(0, "lazy"),
// where Wait takes an int64, would otherwise reach the generic keeper of
// arguments as an int, and the build fail.
func TestConvertedConstantArgument(t *testing.T) {
	dir := fixture.Copy(t, "personcar")
	files := map[string]string{
		"car/wait.go": "package car\n\n// Wait waits d units.\nfunc (c *Car) Wait(d int64, why string) int64 {\n" +
			"\tif d > 0 {\n\t\treturn d\n\t}\n\treturn 0\n}\n",
		"person/pause.go": "package person\n\n// Pause waits for the car.\nfunc (p *Person) Pause() int64 {\n" +
			"\tif p.Lazy {\n\t\treturn p.Car.Wait(0, \"lazy\")\n\t}\n\treturn -1\n}\n",
		"person/pause_test.go": "package person\n\nimport (\n\t\"testing\"\n\n\t\"example.com/personcar/car\"\n)\n\n" +
			"func TestPause(t *testing.T) {\n\tif got := (&Person{Car: &car.Car{}, Lazy: true}).Pause(); got != 0 {\n\t\tt.Fatal(got)\n\t}\n}\n",
	}
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	a := analyzeIn(t, dir, "./person", "./car")
	tg, err := targets.Of(a)
	require.NoError(t, err)
	run := runSuiteWith(t, probe.NewPlanWith(a, probe.Coverage, tg, allExtras), probe.TestOptions{})
	require.NotNil(t, run.Extras, "the instrumented build compiles and runs")
	assert.Contains(t, run.Covered, true)
}
