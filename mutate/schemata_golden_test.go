package mutate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/internal/golden"
	"github.com/stretchr/testify/require"
)

// The mutant schemata of the mutants fixture (app calling store) and the
// list of its mutants, for the interface operators and for all operators,
// as golden files under testdata/golden/mutate/mutants.<operators>/: one
// file per mutated file of R and E, by its path in the module, as the go
// command compiles it, and mutants.txt with one line per mutant (ID,
// operator, position, description, and the reason of a not-viable one).
// Rewrite with go test ./mutate -run Golden -update.
func TestSchemataGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		ops  []Operator
	}{
		{"interface", groupOperators(InterfaceGroup)},
		{"all", allOperators()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fixture.Copy(t, "mutants")
			g, err := newGenerator(analyze(t, dir, "./app", "./store"), tc.ops)
			require.NoError(t, err)
			// The import path the workspace gives the runtime in a module
			// without a clingprobe_rt directory.
			const rtImport = "example.com/mutants/clingprobe_rt"
			require.NoError(t, g.checkViability(rtImport))
			src, err := g.mutatedFiles(rtImport, schemata)
			require.NoError(t, err)

			var list strings.Builder
			for _, m := range g.mutants {
				fmt.Fprintf(&list, "%d\t%s\t%s\t%s", m.ID, m.Operator, m.Pos(), m.Description)
				if m.Status == NotViable {
					fmt.Fprintf(&list, "\tnot viable: %s", m.Reason)
				}
				list.WriteString("\n")
			}
			// The fixture's module is go1.18, so the mutated files get a
			// //line directive naming the temporary copy: Sources
			// normalises it.
			files := golden.Sources(t, dir, src)
			files["mutants.txt"] = golden.Normalise(list.String(), dir)
			golden.Dir(t, "mutate/mutants."+tc.name, files)
		})
	}
}
