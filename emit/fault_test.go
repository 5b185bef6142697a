package emit_test

import (
	"testing"
	"time"

	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/internal/golden"
	"github.com/cling-go/cling/testcase/testscript"
	"github.com/stretchr/testify/require"
)

// A file of reproducers, as a golden file: the statement that fails
// wrapped in the helper (with the timeout of a hang for a hang), the whole
// test for a leak, a race that runs only under the race detector, and a
// stack overflow under a smaller stack limit. The file declares clingFault
// elsewhere, so the helper is renamed. Rewrite with
// go test ./emit -run Golden -update.
func TestFaultFileGolden(t *testing.T) {
	c := cluster(t, "faults", "./catalog", "./store")
	s := testscript.New(t, c)
	cat := testscript.Result{}
	newCatalog := testscript.Call("catalog.New", "shop", 2)
	pick := s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Pick", cat, 0))
	hang := s.Test(testscript.Call("catalog.Difficulty", 0))
	leak := s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Announce", cat, 200))
	race := s.Test(newCatalog, testscript.Call("(*catalog.Catalog).Recount", cat, 8))
	reps := []emit.Reproducer{
		{Name: "TestFaultIndexOutOfRange_Get_L47", Test: pick, At: testscript.Stmt(pick, 1), Timeout: 10 * time.Second,
			Comment: "TestFaultIndexOutOfRange_Get_L47: calling (*catalog.Catalog).Pick panics."},
		{Name: "TestFaultHang_Steps_L85", Test: hang, At: testscript.Stmt(hang, 0), Timeout: time.Second,
			Comment: "TestFaultHang_Steps_L85: calling catalog.Difficulty never returns."},
		{Name: "TestFaultGoroutineLeak_Publish_L100", Test: leak, At: -1, Timeout: 1500 * time.Millisecond,
			Comment: "TestFaultGoroutineLeak_Publish_L100: the calls below leave a goroutine running."},
		{Name: "TestFaultDataRace_Recount_L138", Test: race, At: -1, Timeout: 10 * time.Second, NeedsRace: true, SmallStack: true,
			Comment: "TestFaultDataRace_Recount_L138: the calls below race."},
	}
	src, err := emit.FaultFile(c, reps, emit.Options{
		Package:   "catalog_test",
		Header:    "Reproducers emitted from hand-built tests.",
		GoVersion: "go1.22",
		Declared:  map[string]bool{"clingFault": true},
	}, "cling_faults")
	require.NoError(t, err)
	golden.File(t, "emit/faults.go.golden", string(src))
}
