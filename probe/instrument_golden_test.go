package probe_test

import (
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/golden"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/targets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The instrumented source of the constructs fixture, in both modes, and
// the runtime table of each, as golden files under
// testdata/golden/probe/constructs.<mode>/ (one file per instrumented file
// of R and E, by its path in the module, plus rt/table.go). The runtime's
// other files are embedded as they are and do not depend on the pair.
// Rewrite with go test ./probe -run Golden -update.
func TestInstrumentGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode probe.Mode
	}{
		{"search", probe.Search},
		{"coverage", probe.Coverage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fixture.Copy(t, "constructs")
			a := analyzeIn(t, dir, "./caller", "./callee")
			plan := probe.NewPlan(a, tc.mode)
			// The import path Workspace.RuntimeImport gives the runtime in
			// a module without a clingprobe_rt directory.
			ins, err := plan.Instrument("example.com/constructs/clingprobe_rt")
			require.NoError(t, err)
			require.Empty(t, ins.Unobservable)
			files := golden.Sources(t, dir, ins.Files)
			files["rt/table.go.golden"] = string(plan.TableSource("rt"))
			golden.Dir(t, "probe/constructs."+tc.name, files)
		})
	}
}

// The search-mode instrumentation of the hostile fixture, whose callee
// exits through os.Exit and log.Fatalf: both become calls of the runtime's
// stand-ins (golden files under testdata/golden/probe/hostile.search/).
// The coverage mode, that of cling cbc, leaves them alone. Rewrite with go
// test ./probe -run Golden -update.
func TestInstrumentExitsGolden(t *testing.T) {
	dir := fixture.Copy(t, "hostile")
	a := analyzeIn(t, dir, "./caller", "./callee")
	for _, mode := range []probe.Mode{probe.Search, probe.Coverage} {
		ins, err := probe.NewPlan(a, mode).Instrument("example.com/hostile/clingprobe_rt")
		require.NoError(t, err)
		files := golden.Sources(t, dir, ins.Files)
		if mode == probe.Coverage {
			for name, src := range files {
				assert.NotContains(t, src, "cling__rt.OSExit", name)
				assert.NotContains(t, src, "cling__rt.Fatalf", name)
			}
			continue
		}
		golden.Dir(t, "probe/hostile.search", files)
	}
}

// With every extra probe of the other coverage criteria, on the constructs
// fixture and on the mutants fixture (whose interface mutants take every
// kind of infection probe), under
// testdata/golden/probe/<fixture>.criteria/.
func TestInstrumentExtrasGolden(t *testing.T) {
	all := probe.Extras{Lines: true, API: true, Errors: true, Direct: true, Mutants: true, Outcomes: true}
	for _, tc := range []struct{ fixture, caller, callee string }{
		{"constructs", "./caller", "./callee"},
		{"mutants", "./app", "./store"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			dir := fixture.Copy(t, tc.fixture)
			a := analyzeIn(t, dir, tc.caller, tc.callee)
			tg, err := targets.Of(a)
			require.NoError(t, err)
			plan := probe.NewPlanWith(a, probe.Search, tg, all)
			ins, err := plan.Instrument("example.com/" + tc.fixture + "/clingprobe_rt")
			require.NoError(t, err)
			files := golden.Sources(t, dir, ins.Files)
			files["rt/table.go.golden"] = string(plan.TableSource("rt"))
			golden.Dir(t, "probe/"+tc.fixture+".criteria", files)
		})
	}
}
