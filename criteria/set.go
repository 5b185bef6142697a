package criteria

import (
	"fmt"

	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/probe/rt"
)

// Selection is how the goals of several criteria go to the search.
type Selection int

const (
	// AllGoals gives the search every goal of every criterion.
	AllGoals Selection = iota
	// Smart keeps, of each group of correlated criteria, every goal of
	// its representative and the minimal subsets of the others.
	Smart
)

var selectionNames = [...]string{AllGoals: "all", Smart: "smart"}

// String returns the selection's name, as --goal-selection takes it.
func (s Selection) String() string { return selectionNames[s] }

// ParseSelection returns the selection named name: "all" or "smart".
func ParseSelection(name string) (Selection, error) {
	for s, n := range selectionNames {
		if n == name {
			return Selection(s), nil
		}
	}
	return 0, fmt.Errorf("unknown goal selection %q: use all or smart", name)
}

// Select returns the goals of criteria cs in pair p, per criterion in
// the order of cs, and whether selection sel gives each to the search.
// With AllGoals, every goal. With Smart, as Zhou et al. 2024 (see the
// README's References) choose them: the criteria fall into groups whose
// coverage correlates — {cbc, direct-branch, branch, line, weak-mutation},
// {method-no-panic, method}, {panic+error, panic}, {output} — and of each
// group the representative, the strictest listed member with a continuous
// objective (the coupled branches for the first), keeps all its goals;
// of the others, line keeps the last line of each basic block of at least
// LineThreshold lines, weak-mutation the mutants whose reaching does not
// already infect them, and the rest nothing. Dynamic criteria have no
// goals here: their goals join as they are met (see Set).
func Select(p *Pair, cs []*Criterion, sel Selection) (goals [][]Goal, selected [][]bool) {
	rep := map[string]*Criterion{}
	for _, c := range cs {
		if r := rep[c.Group]; r == nil || c.Rank < r.Rank {
			rep[c.Group] = c
		}
	}
	goals, selected = make([][]Goal, len(cs)), make([][]bool, len(cs))
	for i, c := range cs {
		if c.Dynamic {
			continue
		}
		for _, g := range c.goals(p) {
			g.Criterion = c
			goals[i] = append(goals[i], g)
			selected[i] = append(selected[i], sel == AllGoals || rep[c.Group] == c || c.minimal != nil && c.minimal(p, &g))
		}
	}
	return goals, selected
}

// Set is the goals of a list of criteria in one pair, numbered for the
// search: the coupled branches first, with their own numbers
// (couple.Analysis.Goals), then the other criteria's selected goals, in
// the order of the list, then the goals the selection leaves out, in the
// same order, then the goals of dynamic criteria (panics) in the order
// the search meets them. The goals left out are no objectives of the
// search (mosa.Targets), but a test that covers one is kept for it, so
// that the written file keeps the tests every listed criterion needs. It
// implements the search engine's objectives (mosa.Objectives,
// mosa.SuiteObjectives, mosa.Coverage, mosa.Targets).
type Set struct {
	P        *Pair
	Criteria []*Criterion
	goals    []*Goal
	// byIndex maps, per criterion, a goal's Index to its number (-1: no
	// goal of the set); byKey the key of a dynamic goal.
	byIndex map[*Criterion][]int32
	byKey   map[string]int32
	dynamic []*Criterion
	nCBC    int
	// aside is the number of the first goal the selection left out, and
	// the number of the goal after the last.
	aside  [2]int32
	x      *Exec
	loaded *rt.Trace
	ids    []int32
	// seen stamps the goals Covered has listed for the trace of epoch.
	seen  []uint32
	epoch uint32
	vals  []float64
	progs []fitness.Progress
	// fork is the copy EvaluateFork hands out (made on first use), and
	// joined the execution Join looks for new goals in.
	fork   *Set
	joined Exec
}

// NewSet numbers the goals of criteria cs (which include the coupled
// branches) in pair p, as selection sel chooses them.
func NewSet(p *Pair, cs []*Criterion, sel Selection) *Set {
	s := &Set{P: p, Criteria: cs, byIndex: map[*Criterion][]int32{}, byKey: map[string]int32{}, x: newExec(p)}
	goals, selected := Select(p, cs, sel)
	for _, c := range cs {
		if c.Dynamic {
			s.dynamic = append(s.dynamic, c)
		}
	}
	// The selected goals, then those left out.
	for _, want := range []bool{true, false} {
		if !want {
			s.aside[0] = int32(len(s.goals))
		}
		for i, gs := range goals {
			c := cs[i]
			for k := range gs {
				if selected[i][k] == want {
					s.byIndex[c] = setAt(s.byIndex[c], gs[k].Index, int32(len(s.goals)))
					s.goals = append(s.goals, &gs[k])
				}
			}
			if want && c.Name == CBC {
				s.nCBC = len(gs)
			}
		}
	}
	s.aside[1] = int32(len(s.goals))
	return s
}

// Target reports whether goal id is an objective of the search
// (mosa.Targets): false for the goals the selection left out.
func (s *Set) Target(id int32) bool { return id < s.aside[0] || id >= s.aside[1] }

// Goals is the number of goals known so far (mosa.Coverage).
func (s *Set) Goals() int { return len(s.goals) }

// Goal returns goal number id.
func (s *Set) Goal(id int32) *Goal { return s.goals[id] }

// CBC reports whether goal id is a coupled branch (with the same number
// in couple.Analysis.Goals).
func (s *Set) CBC(id int32) bool { return int(id) < s.nCBC }

// Primary reports whether goal id is a coupled branch (mosa.Primaries):
// the goals the tool is for come first when the search must choose.
func (s *Set) Primary(id int32) bool { return s.CBC(id) }

// load indexes tr for the criteria, once per trace, and adds the dynamic
// goals it meets.
func (s *Set) load(tr *rt.Trace) {
	if tr != nil && tr == s.loaded {
		return
	}
	s.loaded = tr
	s.x.load(tr)
	s.discover(s.x)
}

// discover adds the dynamic goals execution x meets.
func (s *Set) discover(x *Exec) {
	for _, c := range s.dynamic {
		for _, k := range c.found(x) {
			if _, ok := s.byKey[k]; !ok {
				g := panicGoal(c, k)
				s.byKey[k] = int32(len(s.goals))
				s.goals = append(s.goals, &g)
			}
		}
	}
}

// EvaluateFork returns the Evaluate of a copy of s that may run on
// another goroutine while s runs (mosa.Forker), for the goals known now:
// it evaluates with its own objectives of the coupled branches
// (fitness.Objectives.Fork) and its own index of the trace, and finds no
// goals; Join finds them. The copy is made once and brought up to date
// at each call.
func (s *Set) EvaluateFork() func(tr *rt.Trace, goals []int32, out []float64) {
	if s.fork == nil {
		p := *s.P
		p.Obj = s.P.Obj.Fork()
		s.fork = &Set{P: &p, Criteria: s.Criteria, byIndex: s.byIndex, nCBC: s.nCBC, aside: s.aside, x: newExec(&p)}
	}
	// The goals known now: s may add goals while the copy runs, past the
	// ones the copy reads.
	s.fork.goals = s.goals
	return s.fork.Evaluate
}

// Join adds the dynamic goals met in trace tr, which a copy of s
// (EvaluateFork) evaluated: what s's own Evaluate would have added
// (mosa.Forker).
func (s *Set) Join(tr *rt.Trace) {
	if tr == nil || len(s.dynamic) == 0 {
		return
	}
	s.joined.Trace = tr
	s.discover(&s.joined)
	s.joined.Trace = nil
}

// Covered returns the goals the test of trace tr covers (mosa.Coverage).
func (s *Set) Covered(tr *rt.Trace) []int32 {
	if tr == nil {
		return nil
	}
	s.load(tr)
	// Each goal once, the first time it comes: a goal is listed when its
	// stamp is not this call's.
	s.epoch++
	if len(s.seen) < len(s.goals) {
		s.seen = append(s.seen, make([]uint32, len(s.goals)-len(s.seen))...)
	}
	var out []int32
	add := func(id int32) {
		if s.seen[id] != s.epoch {
			s.seen[id] = s.epoch
			out = append(out, id)
		}
	}
	for _, c := range s.Criteria {
		if c.Dynamic {
			for _, k := range c.found(s.x) {
				add(s.byKey[k])
			}
			continue
		}
		ids := s.byIndex[c]
		for _, i := range c.coveredIn(s.x) {
			if i < len(ids) && ids[i] >= 0 {
				add(ids[i])
			}
		}
	}
	return out
}

// setAt returns ids with ids[i] = id, grown as needed, the new places -1.
func setAt(ids []int32, i int, id int32) []int32 {
	for len(ids) <= i {
		ids = append(ids, -1)
	}
	ids[i] = id
	return ids
}

// Evaluate writes the objective of each goal in goals (all known goals if
// nil) for trace tr into out (mosa.Objectives); a nil trace scores Worst.
func (s *Set) Evaluate(tr *rt.Trace, goals []int32, out []float64) {
	if goals == nil {
		goals = s.all()
	}
	if tr == nil {
		for i := range goals {
			out[i] = fitness.Worst
		}
		return
	}
	// The coupled branches in one call, which shares its caches.
	s.cbcOf(goals)
	s.vals = append(s.vals[:0], make([]float64, len(s.ids))...)
	if len(s.ids) > 0 {
		s.P.Obj.Evaluate(tr, s.ids, s.vals)
		s.loaded = nil // the objectives hold the trace in their own way now
	}
	s.load(tr)
	k := 0
	for i, g := range goals {
		if s.CBC(g) {
			out[i] = s.vals[k]
			k++
			continue
		}
		goal := s.goals[g]
		out[i] = goal.Criterion.objective(s.x, goal)
	}
}

// Progress writes the progress of the test of trace tr towards each goal
// (mosa.SuiteObjectives): the coupled branches' own, and, for any other
// goal, one that counts its objective in the whole-suite distance as it
// is (the predicate reached twice).
func (s *Set) Progress(tr *rt.Trace, goals []int32, out []fitness.Progress) {
	if goals == nil {
		goals = s.all()
	}
	s.cbcOf(goals)
	s.progs = append(s.progs[:0], make([]fitness.Progress, len(s.ids))...)
	if len(s.ids) > 0 {
		s.P.Obj.Progress(tr, s.ids, s.progs)
		s.loaded = nil
	}
	k := 0
	for i, g := range goals {
		if s.CBC(g) {
			out[i] = s.progs[k]
			k++
			continue
		}
		out[i] = fitness.Progress{Layer: fitness.CalleeLayer, Reached: [3]uint8{2, 2, 2}}
	}
}

// cbcOf collects in s.ids the coupled branches of goals.
func (s *Set) cbcOf(goals []int32) {
	s.ids = s.ids[:0]
	for _, g := range goals {
		if s.CBC(g) {
			s.ids = append(s.ids, g)
		}
	}
}

// Worst is the objective of a goal for a test not evaluated for it.
func (s *Set) Worst() float64 { return fitness.Worst }

// all lists every known goal the search pursues (Target).
func (s *Set) all() []int32 {
	out := make([]int32, 0, len(s.goals))
	for i := range s.goals {
		if s.Target(int32(i)) {
			out = append(out, int32(i))
		}
	}
	return out
}

// Parents returns the goal graph for DynaMOSA in the set's numbers: the
// coupled branches' (parents, per coupled branch, as
// couple.Analysis.GoalParents lists them); every other goal is a root.
func (s *Set) Parents(cbc [][]int32) [][]int32 { return cbc[:min(len(cbc), s.nCBC)] }

// Extras are the probes the set's goals need in the executor: those of
// every criterion with a goal selected, and of the dynamic criteria.
func (s *Set) Extras() probe.Extras {
	var cs []*Criterion
	has := map[*Criterion]bool{}
	for _, g := range s.goals {
		has[g.Criterion] = true
	}
	for _, c := range s.Criteria {
		if has[c] || c.Dynamic {
			cs = append(cs, c)
		}
	}
	return ExtrasOf(cs)
}
