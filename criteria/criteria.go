// Package criteria holds the coverage criteria cling can optimise and
// measure besides the coupled branches, in a registry: each criterion is
// one file that registers itself with its goals in a pair, the probes
// those goals need, a continuous objective for the search (0 when a test
// covers the goal), how to tell coverage from one test's trace and from
// the record of a whole test run, and what smart selection keeps of it.
//
// A Set is the goals of a list of criteria in one pair, numbered for the
// search: the coupled branches first, in their own numbering, then the
// other criteria's goals (all of them, or smart selection's choice), then
// the panics as the search meets them. It implements the objectives the
// search engine consumes. Measure reports the coverage of criteria on a
// test run under the probes (cling cbc --criteria, and what cling gen
// reports on the file it writes).
package criteria

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/cling-go/cling/ccfg"
	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/fitness"
	"github.com/cling-go/cling/probe"
	"github.com/cling-go/cling/probe/rt"
	"github.com/cling-go/cling/targets"
)

// Criterion is a registered coverage criterion.
type Criterion struct {
	// Name is how --criteria names it; Doc says what it covers, in one
	// line.
	Name, Doc string
	// Group is the group of correlated criteria of smart selection (see
	// Select); Rank orders the members of a group, the representative
	// (the strictest criterion with a continuous objective) first.
	Group string
	Rank  int
	// Order places the criterion in reports and lists, lower first.
	Order int
	// Extras are the probes its goals need in the executor; Measured
	// those a test run needs under go test, when they differ (nil: the
	// same).
	Extras   probe.Extras
	Measured *probe.Extras
	// Dynamic criteria have no goals up front: they are found as tests
	// meet them (panics), by found (in a trace) and foundInRun.
	Dynamic bool

	// goals lists the criterion's goals in a pair; minimal, if set, says
	// which of them smart selection keeps when the criterion is not its
	// group's representative (none without it).
	goals   func(p *Pair) []Goal
	minimal func(p *Pair, g *Goal) bool
	// objective scores an execution for a goal: 0 when it covers the
	// goal, larger the farther it is, at most 1.
	objective func(x *Exec, g *Goal) float64
	// coveredIn lists the Index of the goals an execution covers (for a
	// dynamic criterion, ignored: found lists the keys).
	coveredIn func(x *Exec) []int
	// inRun tells whether a test run under go test covered a goal.
	inRun func(p *Pair, r *probe.TestRun, g *Goal) bool
	// found and foundInRun list the keys of a dynamic criterion's goals
	// an execution, or a test run, met.
	found      func(x *Exec) []string
	foundInRun func(r *probe.TestRun) []string
}

// Goal is one goal of a criterion.
type Goal struct {
	Criterion *Criterion
	// Index numbers the goal among its criterion's targets: the coupled
	// branch, the line, the outcome (2*node, +1 for false), the function
	// of R's API, the output, the mutant ID.
	Index int
	// Key is the panic (or error) of a dynamic goal.
	Key string
	// ID names the goal in reports; Test is its part of a test's name
	// and About what a test that covers it does, for the test's comment.
	ID, Test, About string
	// branch is the branch of a branch goal.
	branch couple.Branch
}

// registry holds the criteria, sorted by name on output.
var registry = map[string]*Criterion{}

// register adds a criterion; each criterion's file registers it from its
// init function.
func register(c *Criterion) {
	if c.Name == "" || c.Doc == "" || c.objective == nil || (c.coveredIn == nil) != c.Dynamic || (c.found == nil) != !c.Dynamic {
		panic(fmt.Sprintf("criteria: criterion %q is incomplete", c.Name))
	}
	if _, ok := registry[c.Name]; ok {
		panic(fmt.Sprintf("criteria: criterion %q registered twice", c.Name))
	}
	registry[c.Name] = c
}

// All returns every registered criterion, in report order.
func All() []*Criterion {
	out := make([]*Criterion, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Order != out[j].Order {
			return out[i].Order < out[j].Order
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// CBC is the name of the coupled branches criterion, which every list
// includes.
const CBC = "cbc"

// Parse turns a --criteria value into criteria in report order: a
// comma-separated list of names, "default" (the coupled branches alone)
// or "all". The coupled branches are always included.
func Parse(list string) ([]*Criterion, error) {
	set := map[*Criterion]bool{registry[CBC]: true}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case "", "default", CBC:
			continue
		case "all":
			for _, c := range registry {
				set[c] = true
			}
			continue
		}
		c, ok := registry[name]
		if !ok {
			return nil, fmt.Errorf("unknown criterion %q: use %s, all or default", name, strings.Join(Names(), ", "))
		}
		set[c] = true
	}
	var out []*Criterion
	for _, c := range All() {
		if set[c] {
			out = append(out, c)
		}
	}
	return out, nil
}

// Names lists the registered criteria's names in report order.
func Names() []string {
	var out []string
	for _, c := range All() {
		out = append(out, c.Name)
	}
	return out
}

// ExtrasOf is the union of the probes criteria need in the executor.
func ExtrasOf(cs []*Criterion) probe.Extras {
	var x probe.Extras
	for _, c := range cs {
		x = union(x, c.Extras)
	}
	return x
}

// MeasuredExtrasOf is the union of the probes criteria need under go
// test.
func MeasuredExtrasOf(cs []*Criterion) probe.Extras {
	var x probe.Extras
	for _, c := range cs {
		if c.Measured != nil {
			x = union(x, *c.Measured)
		} else {
			x = union(x, c.Extras)
		}
	}
	return x
}

func union(a, b probe.Extras) probe.Extras {
	return probe.Extras{
		Lines: a.Lines || b.Lines, API: a.API || b.API, Errors: a.Errors || b.Errors,
		Direct: a.Direct || b.Direct, Mutants: a.Mutants || b.Mutants, Outcomes: a.Outcomes || b.Outcomes,
	}
}

// Pair is an analysed pair with its targets and the objectives of its
// coupled branches, which also give the distance to any branch.
type Pair struct {
	A   *couple.Analysis
	T   *targets.Targets
	Obj *fitness.Objectives
	// funcs maps the functions of R's API to their index in T.Funcs;
	// outputs maps slot*rt.MaxParts+part to the output's index.
	funcs   map[*ccfg.Function]int
	outputs map[int]int
}

// NewPair prepares the criteria's view of an analysed pair; form is the
// form of the coupled branches' objective.
func NewPair(a *couple.Analysis, t *targets.Targets, form fitness.Form) *Pair {
	p := &Pair{A: a, T: t, Obj: fitness.NewObjectives(a, form), funcs: map[*ccfg.Function]int{}, outputs: map[int]int{}}
	for i, f := range t.Funcs {
		p.funcs[f.Fn] = i
	}
	for i, o := range t.Outputs {
		p.outputs[o.Slot*rt.MaxParts+o.Part] = i
	}
	return p
}

// funcIndex returns the index of a function of R's API.
func (p *Pair) funcIndex(f *ccfg.Function) (int, bool) {
	i, ok := p.funcs[f]
	return i, ok
}

// outputIndex returns the index of the output of a slot and partition.
func (p *Pair) outputIndex(slot, part int) (int, bool) {
	i, ok := p.outputs[slot*rt.MaxParts+part]
	return i, ok
}

// Exec is one test execution as the criteria read it: its trace, indexed.
type Exec struct {
	Trace *rt.Trace
	p     *Pair
	// epoch stamps the per-target marks below as this execution's.
	epoch                                      uint32
	cbc, lines, called, returned, direct, muts []uint32
	infected                                   []bool
	outputs                                    map[int32]*[rt.MaxParts]float64
	panics                                     map[string]bool
}

// newExec prepares the indexes of executions of pair p.
func newExec(p *Pair) *Exec {
	n := 0
	if p.T != nil {
		n = len(p.T.Mutants) + 1
	}
	x := &Exec{p: p, outputs: map[int32]*[rt.MaxParts]float64{}, panics: map[string]bool{}, muts: make([]uint32, n), infected: make([]bool, n)}
	if p.T != nil {
		x.lines = make([]uint32, len(p.T.Lines))
		x.called = make([]uint32, len(p.T.Funcs))
		x.returned = make([]uint32, len(p.T.Funcs))
	}
	x.direct = make([]uint32, 2*len(p.A.Index().Nodes))
	x.cbc = make([]uint32, len(p.A.Goals))
	return x
}

// load indexes trace tr (nil: a test that timed out or crashed, which
// reached nothing).
func (x *Exec) load(tr *rt.Trace) {
	if tr == nil {
		tr = &rt.Trace{}
	}
	x.Trace = tr
	x.epoch++
	x.p.Obj.Load(tr)
	mark := func(marks []uint32, i int32) {
		if i >= 0 && int(i) < len(marks) {
			marks[i] = x.epoch
		}
	}
	for _, g := range tr.Covered {
		mark(x.cbc, g)
	}
	for _, l := range tr.Lines {
		mark(x.lines, l)
	}
	for _, c := range tr.Calls {
		mark(x.called, c.Func)
		if c.Returned {
			mark(x.returned, c.Func)
		}
	}
	for _, o := range tr.Direct {
		mark(x.direct, o)
	}
	for _, m := range tr.Mutants {
		mark(x.muts, m.ID)
		if m.ID >= 0 && int(m.ID) < len(x.infected) {
			x.infected[m.ID] = m.State == rt.MutantInfected
		}
	}
	clear(x.outputs)
	for i := range tr.Outputs {
		x.outputs[tr.Outputs[i].Slot] = &tr.Outputs[i].Dist
	}
	clear(x.panics)
	for _, k := range tr.Panics {
		x.panics[k] = true
	}
}

func (x *Exec) marked(marks []uint32, i int) bool {
	return i >= 0 && i < len(marks) && marks[i] == x.epoch
}

// ints converts a trace's list to indices.
func ints(xs []int32) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// nu normalises a distance to [0, 1).
func nu(d float64) float64 { return d / (d + 1) }

// guardDistance is how far the test is from taking one of the guards of
// a line or a mutant: the smallest branch distance, 1 without guards.
func (x *Exec) guardDistance(guards []couple.Branch) float64 {
	best := 1.0
	for _, g := range guards {
		if d := x.p.Obj.BranchDistance(g); d < best {
			best = d
		}
	}
	return best
}

// reachObjective is the objective of reaching a statement (a line, a
// mutant) that the test did not reach: 1/4 when it took one of the
// statement's guards (something in between stopped it), more the farther
// it is from taking one, at most 1.
func reachObjective(x *Exec, guards []couple.Branch) float64 {
	return 0.25 + 0.75*x.guardDistance(guards)
}

// ident makes words part of a Go identifier: letters and digits kept,
// each word capitalised, the rest dropped.
func ident(words ...string) string {
	var b strings.Builder
	for _, w := range words {
		up := true
		for _, r := range w {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				up = true
				continue
			}
			if up {
				r = unicode.ToUpper(r)
				up = false
			}
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "X"
	}
	return b.String()
}

// shortName is a function's name without its receiver: Price for
// (*Engine).Price.
func shortName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}
