package probe

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// weights renders the cost plan of lib/shapes.go in the costly fixture:
// per function and per outcome, its statements and allocation sites, and
// the loops.
func weights(t *testing.T) (map[string]string, []string) {
	dir := fixture.Copy(t, "costly")
	a, err := couple.LoadPair(ccfg.LoadConfig{Dir: dir}, "./app", "./lib")
	require.NoError(t, err)
	p := NewPlan(a, Search)
	out := map[string]string{}
	for i, f := range p.cost.funcs {
		if strings.HasPrefix(a.Prog.Pos(f.Pos()), "lib/shapes.go:") {
			out["func "+f.Name] = fmt.Sprintf("%d/%d", p.cost.funcStmts[i], p.cost.funcAllocs[i])
		}
	}
	name := func(o int32) string { return p.Nodes[o/2].Node.BranchID(o%2 == 0) }
	for o, s := range p.cost.outStmts {
		if n := name(o); strings.HasPrefix(n, "lib/shapes.go:") {
			out[strings.TrimPrefix(n, "lib/shapes.go:")] = fmt.Sprintf("%d/%d", s, p.cost.outAllocs[o])
		}
	}
	var loops []string
	for _, l := range p.cost.loops {
		var names []string
		for _, o := range l {
			names = append(names, name(o))
		}
		loops = append(loops, strings.Join(names, "+"))
	}
	return out, loops
}

// Statements and allocation sites are attributed to what makes them run:
// the function's calls, or the outcomes that open their block, through
// type switches, tagless switches with && and !, defaults, else if,
// early returns and breaks, and select.
func TestCostWeights(t *testing.T) {
	w, loops := weights(t)
	assert.Equal(t, map[string]string{
		// Classify: the switch; the cases int and int64; string, then the
		// if, the empty case, and what follows its return; default after
		// the last case, string, is false.
		"func Classify": "1/0",
		"6:7:true":      "1/0", "6:12:true": "1/0",
		"8:7:true": "1/0", "9:6:true": "1/0", "9:6:false": "1/0",
		"8:7:false": "1/0",
		// Grade: grade :=, switch, if, return; && runs its body when
		// !strict is true; default when score >= 50 is false; else if
		// under strict false.
		"func Grade": "4/0",
		"22:22:true": "1/0", "24:7:true": "1/0", "24:7:false": "1/0",
		"29:5:true": "1/0", "29:5:false": "1/0", "31:12:true": "1/0",
		// Pick: each clause's receive and return; default when the last
		// clause is not chosen.
		"func Pick": "1/0",
		"40:2:true": "2/0", "42:2:true": "2/0", "42:2:false": "1/0",
		// Pairs: the loop has no condition, so its body counts with the
		// function; after the break, the map store and &[2]int{}.
		"func Pairs": "6/1",
		"53:6:true":  "1/0", "53:6:false": "1/1",
	}, w)
	assert.Equal(t, []string{"lib/lib.go:12:14:true", "lib/lib.go:23:2:true"}, loops, "the for loop of Pairs has no condition")
}
