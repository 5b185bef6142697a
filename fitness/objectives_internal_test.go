package fitness

import (
	"math/rand"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/cling-go/cling/probe/rt"
	"github.com/stretchr/testify/require"
)

// The approach walk over a slot's plan gives, bit for bit, what the walk
// over the ancestors gives, for every observed callee node at every site,
// on traces that evaluate random subsets of the callee's nodes.
func TestPlannedApproachEqualsTheAncestorWalk(t *testing.T) {
	for _, pair := range []struct{ fixture, caller, callee string }{
		{"cpubound", "./calc", "./lexer"},
		{"constructs", "./caller", "./callee"},
	} {
		t.Run(pair.fixture, func(t *testing.T) {
			a, err := couple.LoadPair(ccfg.LoadConfig{Dir: fixture.Copy(t, pair.fixture)}, pair.caller, pair.callee)
			require.NoError(t, err)
			o := NewObjectives(a, Layered)
			rng := rand.New(rand.NewSource(1))
			compared := 0
			for round := 0; round < 50; round++ {
				tr := &rt.Trace{}
				for s, slots := range o.ix.SiteSlots {
					for _, node := range slots {
						if rng.Intn(3) == 0 {
							tr.Callee = append(tr.Callee, rt.CalleeEval{Site: int32(s), Node: node,
								DistT: float64(rng.Intn(40)), DistF: float64(rng.Intn(40))})
						}
					}
				}
				o.load(tr)
				for s, slots := range o.ix.SiteSlots {
					for k, node := range slots {
						if o.ix.Nodes[node].Node == nil {
							continue // an entry pseudo-node has no ancestors to walk
						}
						slot := o.slotBase[s] + int32(k)
						require.Equal(t, o.approach(node, s), o.planned(slot, node, int32(s)), "site %d node %d", s, node)
						compared++
					}
				}
			}
			require.Positive(t, compared)
		})
	}
}
