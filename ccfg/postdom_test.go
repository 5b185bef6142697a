package ccfg

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type postDomCase struct {
	name    string
	succs   [][]int
	exit    int
	ipdom   []int
	virtual [][2]int
	deps    [][]Edge
}

var postDomCases = []postDomCase{
	{
		// 0 -> 1; if c { 2 } else { 3 }; 4 (join) -> 5 (exit)
		name:  "diamond",
		succs: [][]int{{1}, {2, 3}, {4}, {4}, {5}, {}},
		exit:  5,
		ipdom: []int{1, 4, 4, 4, 5, -1},
		deps:  [][]Edge{nil, nil, {{1, 2}}, {{1, 3}}, nil, nil},
	},
	{
		// if c { 1 }; 2 (exit)
		name:  "if without else",
		succs: [][]int{{1, 2}, {2}, {}},
		exit:  2,
		ipdom: []int{2, 2, -1},
		deps:  [][]Edge{nil, {{0, 1}}, nil},
	},
	{
		// 0 -> 1 (header); 1 -> 2 (body) | 3 (exit); 2 -> 1
		name:  "while loop",
		succs: [][]int{{1}, {2, 3}, {1}, {}},
		exit:  3,
		ipdom: []int{1, 3, 1, -1},
		// The header is control dependent on its own true edge.
		deps: [][]Edge{nil, {{1, 2}}, {{1, 2}}, nil},
	},
	{
		// 0 -> 1 (outer header) -> 2 (inner header) | 6 (exit)
		// 2 -> 3 (inner body) | 5 (after inner loop)
		// 3 -> 5 (break) | 4 (inner latch); 4 -> 2; 5 -> 1
		name:  "nested loops with break",
		succs: [][]int{{1}, {2, 6}, {3, 5}, {5, 4}, {2}, {1}, {}},
		exit:  6,
		ipdom: []int{1, 6, 5, 5, 2, 1, -1},
		deps: [][]Edge{
			nil,
			{{1, 2}},
			{{1, 2}, {3, 4}},
			{{2, 3}},
			{{3, 4}},
			{{1, 2}},
			nil,
		},
	},
	{
		// As above, but the break leaves both loops: 3 -> 6 (exit) | 4.
		name:  "nested loops with labeled break to exit",
		succs: [][]int{{1}, {2, 6}, {3, 5}, {4, 6}, {2}, {1}, {}},
		exit:  6,
		ipdom: []int{1, 6, 6, 6, 2, 1, -1},
		deps: [][]Edge{
			nil,
			{{2, 5}},
			{{1, 2}, {3, 4}},
			{{2, 3}},
			{{3, 4}},
			{{2, 5}},
			nil,
		},
	},
	{
		// 0 -> 1; if c { return } (1 -> 4); 2 -> 3 -> 4 (exit)
		name:  "early return",
		succs: [][]int{{1}, {2, 4}, {3}, {4}, {}},
		exit:  4,
		ipdom: []int{1, 4, 3, 4, -1},
		deps:  [][]Edge{nil, nil, {{1, 2}}, {{1, 2}}, nil},
	},
	{
		// if x == nil { panic } (1); else 2; the caller links the panic
		// block 1 to the exit 3.
		name:  "panic block linked to exit",
		succs: [][]int{{1, 2}, {3}, {3}, {}},
		exit:  3,
		ipdom: []int{3, 3, 3, -1},
		deps:  [][]Edge{nil, {{0, 1}}, {{0, 2}}, nil},
	},
	{
		// The same panic block left as a dead end: it gets a virtual edge,
		// and the result is the same (virtual edges are not real edges).
		name:    "panic block as dead end",
		succs:   [][]int{{1, 2}, {}, {3}, {}},
		exit:    3,
		ipdom:   []int{3, 3, 3, -1},
		virtual: [][2]int{{1, 3}},
		deps:    [][]Edge{nil, {{0, 1}}, {{0, 2}}, nil},
	},
	{
		// 0 -> 1; for {} as a self loop on 1; exit 2 is unreachable.
		name:    "infinite self loop",
		succs:   [][]int{{1}, {1}, {}},
		exit:    2,
		ipdom:   []int{1, 2, -1},
		virtual: [][2]int{{1, 2}},
		deps:    [][]Edge{nil, {{1, 1}}, nil},
	},
	{
		// 0 -> 1 (header) -> 2 (body) -> 1; exit 3 is unreachable. The
		// sink region is {1, 2}; its highest node 2 gets the edge.
		name:    "infinite loop with body",
		succs:   [][]int{{1}, {2}, {1}, {}},
		exit:    3,
		ipdom:   []int{1, 2, 3, -1},
		virtual: [][2]int{{2, 3}},
		deps:    [][]Edge{nil, {{2, 1}}, {{2, 1}}, nil},
	},
	{
		// if c { for {} (1 <-> 2) } else { 3 }; 3 -> 4 (exit)
		name:    "infinite loop on one branch",
		succs:   [][]int{{1, 3}, {2}, {1}, {4}, {}},
		exit:    4,
		ipdom:   []int{4, 2, 4, 4, -1},
		virtual: [][2]int{{2, 4}},
		deps: [][]Edge{
			nil,
			{{0, 1}, {2, 1}},
			{{0, 1}, {2, 1}},
			{{0, 3}},
			nil,
		},
	},
	{
		// Two sink regions {1, 2} and {3, 4}: edges are added from the
		// highest node of each, highest first.
		name:    "two infinite loops",
		succs:   [][]int{{1, 3, 5}, {2}, {1}, {4}, {3}, {}},
		exit:    5,
		ipdom:   []int{5, 2, 5, 4, 5, -1},
		virtual: [][2]int{{4, 5}, {2, 5}},
		deps: [][]Edge{
			nil,
			{{0, 1}, {2, 1}},
			{{0, 1}, {2, 1}},
			{{0, 3}, {4, 3}},
			{{0, 3}, {4, 3}},
			nil,
		},
	},
	{
		// A loop {1, 2} that cannot reach exit but drains into the
		// infinite self loop 3: only the sink region {3} gets an edge.
		name:    "loop draining into infinite loop",
		succs:   [][]int{{1, 4}, {2}, {1, 3}, {3}, {}},
		exit:    4,
		ipdom:   []int{4, 2, 3, 4, -1},
		virtual: [][2]int{{3, 4}},
		deps: [][]Edge{
			nil,
			{{0, 1}, {2, 1}},
			{{0, 1}, {2, 1}},
			{{0, 1}, {3, 3}},
			nil,
		},
	},
	{
		name:  "single node",
		succs: [][]int{{}},
		exit:  0,
		ipdom: []int{-1},
		deps:  [][]Edge{nil},
	},
	{
		name:  "single node with self loop",
		succs: [][]int{{0, 0}},
		exit:  0,
		ipdom: []int{-1},
		deps:  [][]Edge{nil},
	},
	{
		// The successors of the exit 2 are ignored.
		name:  "exit with successors",
		succs: [][]int{{1}, {2}, {0, 1, 2}},
		exit:  2,
		ipdom: []int{1, 2, -1},
		deps:  [][]Edge{nil, nil, nil},
	},
	{
		// Diamond written with duplicate edges and a self loop on 1.
		name:  "duplicates and self loop",
		succs: [][]int{{2, 1, 2, 1}, {3, 1, 3, 1}, {3}, {}},
		exit:  3,
		ipdom: []int{3, 3, 3, -1},
		deps:  [][]Edge{nil, {{0, 1}, {1, 1}}, {{0, 2}}, nil},
	},
	{
		// 2 is unreachable from anything but reaches the exit 1; 3 is an
		// isolated dead end.
		name:    "unreachable nodes",
		succs:   [][]int{{1}, {}, {1}, {}},
		exit:    1,
		ipdom:   []int{1, -1, 1, 1},
		virtual: [][2]int{{3, 1}},
		deps:    [][]Edge{nil, nil, nil, nil},
	},
	{
		name:  "exit is node 0",
		succs: [][]int{{}, {0, 2}, {0}},
		exit:  0,
		ipdom: []int{-1, 0, 0},
		deps:  [][]Edge{nil, nil, {{1, 2}}},
	},
}

func TestPostDomCases(t *testing.T) {
	for _, tc := range postDomCases {
		t.Run(tc.name, func(t *testing.T) {
			g := &Graph{Succs: tc.succs}
			p := NewPostDom(g, tc.exit)
			got := make([]int, len(tc.succs))
			for n := range got {
				got[n] = p.IPDom(n)
			}
			assert.Equal(t, tc.ipdom, got, "ipdom")
			assert.Equal(t, tc.virtual, p.VirtualEdges(), "virtual edges")
			assert.Equal(t, tc.deps, p.ControlDeps(g), "control deps")
			checkPostDomBruteForce(t, g, tc.exit, p)
		})
	}
}

func TestPostDominatesDiamond(t *testing.T) {
	g := &Graph{Succs: [][]int{{1}, {2, 3}, {4}, {4}, {5}, {}}}
	p := NewPostDom(g, 5)
	for _, c := range []struct {
		a, b int
		want bool
	}{
		{2, 2, true},
		{5, 0, true},
		{4, 1, true},
		{4, 2, true},
		{1, 0, true},
		{4, 0, true},
		{2, 1, false},
		{3, 1, false},
		{0, 1, false},
		{1, 4, false},
		{0, 5, false},
	} {
		assert.Equal(t, c.want, p.PostDominates(c.a, c.b), "PostDominates(%d, %d)", c.a, c.b)
	}
}

func TestVirtualEdgesIsCopy(t *testing.T) {
	g := &Graph{Succs: [][]int{{1}, {1}, {}}}
	p := NewPostDom(g, 2)
	v := p.VirtualEdges()
	require.Equal(t, [][2]int{{1, 2}}, v)
	v[0] = [2]int{7, 7}
	assert.Equal(t, [][2]int{{1, 2}}, p.VirtualEdges())
}

func TestAvoidReach(t *testing.T) {
	diamond := &Graph{Succs: [][]int{{1}, {2, 3}, {4}, {4}, {5}, {}}}
	forever := &Graph{Succs: [][]int{{1}, {2}, {1}, {}}}
	set := func(n int, nodes ...int) []bool {
		s := make([]bool, n)
		for _, v := range nodes {
			s[v] = true
		}
		return s
	}
	const T, F = true, false
	for _, c := range []struct {
		name  string
		g     *Graph
		exit  int
		avoid []bool
		want  []bool
	}{
		{"diamond, nothing avoided", diamond, 5, nil, []bool{T, T, T, T, T, T}},
		{"diamond, then-arm avoided", diamond, 5, set(6, 2), []bool{T, T, F, T, T, T}},
		{"diamond, else-arm avoided", diamond, 5, set(6, 3), []bool{T, T, T, F, T, T}},
		{"diamond, both arms avoided", diamond, 5, set(6, 2, 3), []bool{F, F, F, F, T, T}},
		{"diamond, join avoided", diamond, 5, set(6, 4), []bool{F, F, F, F, F, T}},
		{"diamond, exit avoided", diamond, 5, set(6, 5), []bool{F, F, F, F, F, F}},
		{"diamond, short avoid slice", diamond, 5, []bool{F, F, T}, []bool{T, T, F, T, T, T}},
		{"infinite loop uses virtual edge", forever, 3, nil, []bool{T, T, T, T}},
		{"infinite loop, header avoided", forever, 3, set(4, 1), []bool{F, F, T, T}},
		{"infinite loop, body avoided", forever, 3, set(4, 2), []bool{F, F, F, T}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := NewPostDom(c.g, c.exit)
			assert.Equal(t, c.want, p.AvoidReach(c.g, c.avoid))
		})
	}
}

func TestNewPostDomPanics(t *testing.T) {
	assert.Panics(t, func() { NewPostDom(&Graph{Succs: [][]int{{}}}, 1) })
	assert.Panics(t, func() { NewPostDom(&Graph{Succs: [][]int{{}}}, -1) })
	assert.Panics(t, func() { NewPostDom(&Graph{}, 0) })
	assert.Panics(t, func() { NewPostDom(&Graph{Succs: [][]int{{2}, {}}}, 1) })
}

func TestPostDomRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		n := 1 + r.Intn(9)
		maxDeg := 1 + r.Intn(3)
		succs := make([][]int, n)
		for v := range succs {
			for d := r.Intn(maxDeg + 1); d > 0; d-- {
				succs[v] = append(succs[v], r.Intn(n))
			}
		}
		exit := r.Intn(n)
		g := &Graph{Succs: succs}
		t.Run(fmt.Sprintf("%d:%v->%d", i, succs, exit), func(t *testing.T) {
			p := NewPostDom(g, exit)
			checkPostDomBruteForce(t, g, exit, p)

			// Shuffled successor lists with extra duplicates describe the
			// same graph and must give identical results.
			g2 := &Graph{Succs: make([][]int, n)}
			for v, ss := range succs {
				s2 := slices.Clone(ss)
				if len(ss) > 0 {
					s2 = append(s2, ss[r.Intn(len(ss))])
				}
				r.Shuffle(len(s2), func(i, j int) { s2[i], s2[j] = s2[j], s2[i] })
				g2.Succs[v] = s2
			}
			p2 := NewPostDom(g2, exit)
			require.Equal(t, p, p2)
			require.Equal(t, p.ControlDeps(g), p2.ControlDeps(g2))

			for k := 0; k < 3; k++ {
				avoid := make([]bool, n)
				for v := range avoid {
					avoid[v] = r.Intn(4) == 0
				}
				require.Equal(t, bruteAvoidReach(augmentedSuccs(g, exit, p.VirtualEdges()), exit, avoid),
					p.AvoidReach(g, avoid), "avoid %v", avoid)
			}
		})
	}
}

// checkPostDomBruteForce compares p against the definitions, computed
// directly on g.
func checkPostDomBruteForce(t *testing.T, g *Graph, exit int, p *PostDom) {
	t.Helper()
	n := len(g.Succs)

	virtual := bruteAugment(g, exit)
	require.Equal(t, virtual, p.VirtualEdges(), "virtual edges")
	aug := augmentedSuccs(g, exit, virtual)

	pd := make([][]bool, n) // pd[a][b]: a post-dominates b
	for a := range pd {
		pd[a] = make([]bool, n)
		for b := range pd[a] {
			pd[a][b] = brutePostDominates(aug, exit, a, b)
			require.Equal(t, pd[a][b], p.PostDominates(a, b), "PostDominates(%d, %d)", a, b)
		}
	}

	require.Equal(t, -1, p.IPDom(exit))
	for b := 0; b < n; b++ {
		if b == exit {
			continue
		}
		d := p.IPDom(b)
		require.NotEqual(t, b, d)
		require.True(t, d >= 0 && d < n, "IPDom(%d) = %d", b, d)
		require.True(t, pd[d][b], "IPDom(%d) = %d does not post-dominate it", b, d)
		for c := 0; c < n; c++ {
			if c != b && pd[c][b] {
				require.True(t, pd[c][d], "%d strictly post-dominates %d but not IPDom = %d", c, b, d)
			}
		}
	}

	want := make([][]Edge, n)
	for x := 0; x < n; x++ {
		for a := 0; a < n; a++ {
			if a == exit {
				continue
			}
			bs := slices.Clone(g.Succs[a])
			slices.Sort(bs)
			bs = slices.Compact(bs)
			for _, b := range bs {
				if pd[x][b] && !(pd[x][a] && x != a) {
					want[x] = append(want[x], Edge{a, b})
				}
			}
		}
	}
	require.Equal(t, want, p.ControlDeps(g), "control deps")
}

// bruteAugment literally runs the augmentation rule documented at NewPostDom.
func bruteAugment(g *Graph, exit int) [][2]int {
	n := len(g.Succs)
	var added [][2]int
	for {
		aug := augmentedSuccs(g, exit, added)
		from := make([][]bool, n)
		for v := range from {
			from[v] = bruteReachable(aug, v, -1)
		}
		best := -1
		for v := 0; v < n; v++ {
			if from[v][exit] {
				continue
			}
			inSink := true
			for m := 0; m < n; m++ {
				if from[v][m] && !from[m][v] {
					inSink = false
				}
			}
			if inSink {
				best = v
			}
		}
		if best == -1 {
			return added
		}
		added = append(added, [2]int{best, exit})
	}
}

// augmentedSuccs returns the successor lists of g without the successors of
// exit, plus the given virtual edges.
func augmentedSuccs(g *Graph, exit int, virtual [][2]int) [][]int {
	out := make([][]int, len(g.Succs))
	for v, ss := range g.Succs {
		if v != exit {
			out[v] = slices.Clone(ss)
		}
	}
	for _, e := range virtual {
		out[e[0]] = append(out[e[0]], e[1])
	}
	return out
}

// bruteReachable returns the nodes reachable from start without entering
// removed (-1 for none).
func bruteReachable(succs [][]int, start, removed int) []bool {
	seen := make([]bool, len(succs))
	if start == removed {
		return seen
	}
	seen[start] = true
	work := []int{start}
	for len(work) > 0 {
		v := work[0]
		work = work[1:]
		for _, s := range succs[v] {
			if s != removed && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return seen
}

// brutePostDominates: a post-dominates b iff a == b or exit cannot be reached
// from b once a is removed.
func brutePostDominates(aug [][]int, exit, a, b int) bool {
	if a == b {
		return true
	}
	return !bruteReachable(aug, b, a)[exit]
}

func bruteAvoidReach(aug [][]int, exit int, avoid []bool) []bool {
	out := make([]bool, len(aug))
	for v := range out {
		if avoid[v] {
			continue
		}
		seen := make([]bool, len(aug))
		seen[v] = true
		work := []int{v}
		for len(work) > 0 && !out[v] {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			if u == exit {
				out[v] = true
			}
			for _, s := range aug[u] {
				if !seen[s] && !avoid[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
	}
	return out
}
