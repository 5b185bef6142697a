package mosa

import (
	"context"
	"strings"
	"testing"

	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/testcase"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPerformanceScore(t *testing.T) {
	p := Proxies{Loops: 4, Calls: 6, TestCalls: 1, Allocs: 2, Statements: 26, TestStatements: 1, Length: 2}
	want := 4.0/5 + 6.0/7 + 1.0/2 + 2.0/3 + 26.0/27 + 1.0/2 + 2.0/3
	assert.InDelta(t, want, p.Score(), 1e-12)
	assert.Zero(t, Proxies{}.Score())
	assert.Equal(t, Proxies{Loops: 8, Calls: 12, TestCalls: 2, Allocs: 4, Statements: 52, TestStatements: 2, Length: 4}, p.Add(p))
}

func TestProxiesOf(t *testing.T) {
	c := &testcase.Op{Kind: testcase.OpCall}
	lit := &testcase.Op{Kind: testcase.OpPrim}
	tc := &testcase.Test{Stmts: []testcase.Stmt{{Op: lit}, {Op: lit}, {Op: c}}}
	tr := &rt.Trace{Cost: rt.Cost{Loops: 1, Calls: 2, Allocs: 3, Stmts: 4}}
	assert.Equal(t, Proxies{Loops: 1, Calls: 2, TestCalls: 1, Allocs: 3, Statements: 4, TestStatements: 2, Length: 3}, ProxiesOf(tc, tr))
	assert.Equal(t, Proxies{TestCalls: 1, TestStatements: 2, Length: 3}, ProxiesOf(tc, nil), "no trace: only the static proxies")
}

// costly is an individual with the given proxies.
func costly(p Proxies) *individual {
	return &individual{t: testOfLen(int(p.Length)), proxies: p, traced: true}
}

func TestPerformanceHeuristic(t *testing.T) {
	// Over the front: Loops 0..4, Calls 2..6, TestCalls all 1 (0.5 each),
	// Allocs 1..3, Statements 10..30, TestStatements all 2 (0.5 each),
	// Length 3..5.
	a := costly(Proxies{Loops: 0, Calls: 2, TestCalls: 1, Allocs: 1, Statements: 10, TestStatements: 2, Length: 3})
	b := costly(Proxies{Loops: 4, Calls: 6, TestCalls: 1, Allocs: 3, Statements: 30, TestStatements: 2, Length: 5})
	c := costly(Proxies{Loops: 1, Calls: 5, TestCalls: 1, Allocs: 2, Statements: 25, TestStatements: 2, Length: 4})
	untraced := &individual{t: testOfLen(1)}
	performanceHeuristic([]*individual{a, b, c, untraced}, 0)
	assert.InDelta(t, 5+2*0.5, a.crowding, 1e-12, "cheapest on every proxy that differs")
	assert.InDelta(t, 0+2*0.5, b.crowding, 1e-12, "dearest")
	assert.InDelta(t, 3.0/4+1.0/4+0.5+1.0/2+5.0/20+0.5+1.0/2, c.crowding, 1e-12)
	assert.Zero(t, untraced.crowding, "no trace: as the dearest")
}

// A heuristic orders the last front survival admits, then length breaks
// ties.
func TestSurviveCutsTheLastFrontByTheHeuristic(t *testing.T) {
	// Goal 0 is best covered by a; b, c, d tie on it and form the second
	// front, where the performance heuristic prefers the cheapest: ph is
	// 2 + 50/90 for b, 4 for c and 3 for d.
	mk := func(obj float64, p Proxies) *individual {
		x := costly(p)
		x.goals, x.fit = []int32{0}, []float64{obj}
		return x
	}
	a := mk(0.1, Proxies{Length: 9, Statements: 90})
	b := mk(0.5, Proxies{Length: 3, Statements: 50, Calls: 5})
	c := mk(0.5, Proxies{Length: 3, Statements: 10})
	d := mk(0.5, Proxies{Length: 2, Statements: 100, Calls: 5})
	next := survive([]*individual{a, b, c, d}, []int32{0}, []int32{0}, nil, 2, 1, PerformanceHeuristic)
	assert.Equal(t, []*individual{a, c}, next)
	next = survive([]*individual{a, b, c, d}, []int32{0}, []int32{0}, nil, 2, 1, CrowdingDistance)
	assert.Equal(t, []*individual{a, d}, next, "crowding ties in the front: the shortest survives")
}

// Front 0, the best test of each goal, is cut by crowding distance
// whatever the heuristic: the best test of a hard goal is often a dear
// one, and ordering front 0 by cost would drop it.
func TestSurviveCutsFrontZeroByCrowding(t *testing.T) {
	// Each of a, b, c is alone at the minimum of one goal, so crowding
	// ties them and length decides: a (2), then b (3). By cost, b and c
	// would survive (a executes 1000 statements).
	mk := func(obj []float64, p Proxies) *individual {
		x := costly(p)
		x.goals, x.fit = []int32{0, 1, 2}, obj
		return x
	}
	a := mk([]float64{0.1, 0.9, 0.9}, Proxies{Length: 2, Statements: 1000})
	b := mk([]float64{0.9, 0.1, 0.9}, Proxies{Length: 3, Statements: 10})
	c := mk([]float64{0.9, 0.9, 0.1}, Proxies{Length: 4, Statements: 10})
	for _, h := range []Heuristic{CrowdingDistance, PerformanceHeuristic} {
		next := survive([]*individual{a, b, c}, []int32{0, 1, 2}, []int32{0, 1, 2}, nil, 2, 1, h)
		assert.Equal(t, []*individual{a, b}, next, h.Name)
	}
}

// heuristics runs a secondary objective for generations whose stagnation
// is scripted, and returns the initials of the heuristics it picks.
func heuristics(t *testing.T, s Secondary, stagnated []bool) string {
	t.Helper()
	out := ""
	for gen := 0; gen <= len(stagnated); gen++ {
		stalled := false
		if gen > 0 {
			stalled = stagnated[gen-1]
		}
		out += strings.ToUpper(s.Next(gen, stalled).Name[:1])
	}
	return out
}

func newTestSecondary(t *testing.T, name string, patience int) Secondary {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Secondary, cfg.Patience = name, patience
	s, err := newSecondary(cfg)
	require.NoError(t, err)
	return s
}

func TestAdaptiveSwitchesOnStagnation(t *testing.T) {
	always := []bool{true, true, true, true, true, true, true}
	never := []bool{false, false, false, false}
	cases := []struct {
		name      string
		patience  int
		stagnated []bool
		want      string
	}{
		{"patience 1 alternates under permanent stagnation", 1, always, "PCPCPCPC"},
		{"patience 2 alternates in pairs", 2, always, "PPCCPPCC"},
		{"progress keeps the heuristic", 1, never, "PPPPP"},
		// P stalls once: C; C progresses, its counter back to 0; C
		// stalls: counters 1 and 1, P; P stalls: 2 > 1, C; C progresses.
		{"counters reset on progress", 1, []bool{true, false, true, true, false}, "PCCPCC"},
		// Patience 2: P stalls (1), P progresses (0), P stalls twice (2):
		// C; C stalls (1): 1 ≤ 0? no, C; C stalls (2): P.
		{"patience 2 with progress", 2, []bool{true, false, true, true, true, true}, "PPPPCCP"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, heuristics(t, newTestSecondary(t, "adaptive", tc.patience), tc.stagnated))
		})
	}
}

func TestFixedSecondaries(t *testing.T) {
	always := []bool{true, true, false}
	c := newTestSecondary(t, "crowding", 1)
	assert.False(t, c.ByPerformance())
	assert.Equal(t, "CCCC", heuristics(t, c, always))
	p := newTestSecondary(t, "performance", 1)
	assert.True(t, p.ByPerformance())
	assert.Equal(t, "PPPP", heuristics(t, p, always))
	assert.True(t, newTestSecondary(t, "adaptive", 1).ByPerformance())
}

func TestSecondaryErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Secondary = "fastest"
	_, err := New("dynamosa", cfg)
	assert.EqualError(t, err, `dynamosa: unknown secondary objective "fastest": use adaptive, crowding or performance`)
	cfg.Secondary, cfg.Patience = "adaptive", 0
	_, err = New("mosa", cfg)
	assert.EqualError(t, err, "mosa: secondary objective adaptive: patience 0 is below 1")
	reads, err := Reads("dynamosa")
	require.NoError(t, err)
	assert.NotZero(t, reads&ReadsSecondary)
	for _, name := range []string{"random", "onegoal", "ws", "wsa"} {
		reads, err := Reads(name)
		require.NoError(t, err)
		assert.Zero(t, reads&ReadsSecondary, name)
	}
}

// A generation stagnates when its offspring reach no better objective
// value for any goal than the search had reached, and cover no goal.
func TestProgress(t *testing.T) {
	e := &Engine{archive: NewArchive(), Goals: 3}
	mk := func(goals []int32, fit ...float64) *individual {
		return &individual{t: testOfLen(1), goals: goals, fit: fit}
	}
	all := []int32{0, 1, 2}
	p := newProgress(e, []*individual{mk(all, 0.5, 0.9, 0.3), mk(all, 0.4, 0.8, 0.7)}, all)
	assert.False(t, p.improved(e, []*individual{mk(all, 0.4, 0.8, 0.3)}, all), "equal to the best so far")
	assert.True(t, p.improved(e, []*individual{mk(all, 0.9, 0.79, 0.9)}, all), "goal 1 closer")
	assert.False(t, p.improved(e, []*individual{mk(all, 0.9, 0.795, 0.9)}, all), "closer than the last generation's best, not than the search's")
	e.archive.Update(testOfLen(1), 0, []int32{2}, 1)
	assert.True(t, p.improved(e, []*individual{mk([]int32{0, 1}, 0.4, 0.8)}, []int32{0, 1}), "goal 2 covered")
	assert.False(t, p.improved(e, []*individual{mk([]int32{0, 1}, 0.4, 0.8)}, []int32{0, 1}), "and not again")
}

// In a search where nothing ever improves, the adaptive secondary
// objective of MOSA and DynaMOSA alternates as its patience says, and the
// statistics count the generations of each heuristic.
func TestAdaptiveInTheSearch(t *testing.T) {
	g := generator(t)
	for _, tc := range []struct {
		algorithm, secondary string
		patience             int
		want                 map[string]int
	}{
		{"dynamosa", "adaptive", 1, map[string]int{"performance": 3, "crowding": 3}}, // PCPCPC
		{"mosa", "adaptive", 2, map[string]int{"performance": 4, "crowding": 2}},     // PPCCPP
		{"dynamosa", "performance", 1, map[string]int{"performance": 6}},
		{"dynamosa", "crowding", 1, map[string]int{"crowding": 6}},
	} {
		e := &Engine{Exec: &covering{}, Gen: g, Objectives: flat{}, Goals: 2, Budget: Budget{MaxEvals: 350}}
		cfg := DefaultConfig()
		cfg.Secondary, cfg.Patience = tc.secondary, tc.patience
		archive, st, err := e.Run(context.Background(), tc.algorithm, cfg)
		require.NoError(t, err)
		assert.Equal(t, 6, st.Generations)
		assert.Equal(t, tc.want, st.Heuristics, "%s %s", tc.algorithm, tc.secondary)
		assert.Equal(t, tc.secondary != "crowding", archive.byScore)
	}
}
