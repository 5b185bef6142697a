package couple_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The goal graphs of the personcar and shop fixtures, as
// docs/algorithms.md works them out: per branching node of E, the callee
// branches its goals depend on (the same for both outcomes, every call
// site and every caller target); a node left out is a root. Every goal
// (s, r, e) must have exactly the goals (s, r, p) for these p as parents.
func TestGoalParents(t *testing.T) {
	inventory := map[string][]string{
		// Reserve
		"inventory/inventory.go:53:5":  {"inventory/inventory.go:47:5:false"},
		"inventory/inventory.go:56:40": {"inventory/inventory.go:53:5:false"},
		// Release
		"inventory/inventory.go:72:5": {"inventory/inventory.go:66:5:false"},
		"inventory/inventory.go:75:5": {"inventory/inventory.go:72:5:false"},
		"inventory/inventory.go:78:5": {"inventory/inventory.go:75:5:false"},
	}
	money := map[string][]string{
		// New
		"money/money.go:40:5": {"money/money.go:37:36:false"},
		// Sub
		"money/money.go:85:5": {"money/money.go:82:5:false"},
		// MulPercent
		"money/money.go:102:17": {"money/money.go:102:5:false"},
		"money/money.go:108:7":  {"money/money.go:102:17:false"},
		"money/money.go:110:7":  {"money/money.go:108:7:false"},
		"money/money.go:110:18": {"money/money.go:110:7:true"},
	}
	pricing := map[string][]string{
		// NewEngine
		"pricing/engine.go:51:6": {"pricing/engine.go:50:2:true"},
		// Price: the range loop continues after the last check of an
		// iteration
		"pricing/engine.go:66:5":  {"pricing/engine.go:61:5:false"},
		"pricing/engine.go:70:2":  {"pricing/engine.go:66:5:false", "pricing/engine.go:81:53:false"},
		"pricing/engine.go:71:6":  {"pricing/engine.go:70:2:true"},
		"pricing/engine.go:71:21": {"pricing/engine.go:71:6:false"},
		"pricing/engine.go:74:6":  {"pricing/engine.go:71:21:false"},
		"pricing/engine.go:78:53": {"pricing/engine.go:74:6:false"},
		"pricing/engine.go:81:53": {"pricing/engine.go:78:53:false"},
		"pricing/engine.go:86:48": {"pricing/engine.go:70:2:false"},
		// priceLine, called after the checks of a line
		"pricing/engine.go:98:2":   {"pricing/engine.go:74:6:false"},
		"pricing/engine.go:100:6":  {"pricing/engine.go:98:2:true"},
		"pricing/engine.go:100:13": {"pricing/engine.go:100:6:false"},
		"pricing/engine.go:103:6":  {"pricing/engine.go:100:13:false"},
		"pricing/engine.go:108:5":  {"pricing/engine.go:74:6:false"},
		// the rules, called through the Rule interface in priceLine's loop
		"pricing/rules.go:34:5":  {"pricing/engine.go:98:2:true"},
		"pricing/rules.go:34:26": {"pricing/rules.go:34:5:false"},
		"pricing/rules.go:38:5":  {"pricing/rules.go:34:26:false"},
		"pricing/rules.go:55:5":  {"pricing/engine.go:98:2:true"},
		"pricing/rules.go:55:26": {"pricing/rules.go:55:5:false"},
		"pricing/rules.go:55:38": {"pricing/rules.go:55:26:false"},
		"pricing/rules.go:59:5":  {"pricing/rules.go:55:38:false"},
		"pricing/rules.go:78:5":  {"pricing/engine.go:98:2:true"},
		"pricing/rules.go:78:19": {"pricing/rules.go:78:5:false"},
	}
	for _, tc := range []struct {
		fixture, caller, callee string
		parents                 map[string][]string
		goals, roots            int
	}{
		{"personcar", "./person", "./car", nil, 2, 2},
		{"shop", "./checkout", "./inventory", inventory, 14, 4},
		{"shop", "./checkout", "./money", money, 18, 10},
		{"shop", "./checkout", "./pricing", pricing, 50, 4},
		{"shop", "./pricing", "./money", money, 54, 30},
	} {
		t.Run(tc.fixture+tc.caller[1:]+tc.callee[1:], func(t *testing.T) {
			a := analyze(t, tc.fixture, tc.caller, tc.callee)
			require.Len(t, a.Goals, tc.goals)
			got := a.GoalParents()
			require.Len(t, got, len(a.Goals))
			roots := 0
			for _, g := range a.Goals {
				want := append([]string{}, tc.parents[g.E.Node.ID()]...)
				var have []string
				for _, p := range got[g.Index] {
					pg := a.Goals[p]
					assert.Same(t, g.Site, pg.Site, "goal %d: a parent at another call site", g.Index)
					assert.Equal(t, g.R.ID(), pg.R.ID(), "goal %d: a parent with another caller branch", g.Index)
					have = append(have, pg.E.ID())
				}
				if len(have) == 0 {
					roots++
				}
				sort.Strings(want)
				sort.Strings(have)
				assert.Equal(t, strings.Join(want, " "), strings.Join(have, " "), "parents of goal %d (%s, %s)", g.Index, g.R.ID(), g.E.ID())
			}
			assert.Equal(t, tc.roots, roots)
		})
	}
}
