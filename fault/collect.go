package fault

import (
	"strings"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/harness"
	"github.com/cling-go/cling/testcase"
)

// Fault is one fault candidate: a kind of failure at one place of the
// module's code, reached through one call site, and the shortest test
// that showed it.
type Fault struct {
	Kind Kind
	// Message says what happened: the panic's message, the state of a
	// hung goroutine, the report of a crash.
	Message string
	// Frame is the innermost frame of the module's code where it
	// happened; Stack the frames, innermost first.
	Frame Frame
	Stack []Frame
	// Site is the call site of R the failing call went through (nil if
	// none: a fault of R's own code, a crash in a goroutine E started).
	Site *couple.CallSite
	// Test is the shortest test that showed the fault, Stmt the statement
	// that failed (-1 if not known) and Result how it ended.
	Test   *testcase.Test
	Stmt   int
	Result harness.Result
	// Seen counts the executions that showed it.
	Seen int
}

// Key identifies a fault: its kind, the place in the module's code (the
// innermost frame's file:line; for a hang, its function, since the line a
// loop is at when it is stopped varies; for a stack overflow, the
// function that recurs, see Locator.Recursion) and the call site.
type Key struct {
	Kind  Kind
	Where string
	Site  int
}

// Key returns the fault's key.
func (f *Fault) Key() Key { return keyOf(f.Kind, f.Frame, f.Site) }

func keyOf(k Kind, fr Frame, s *couple.CallSite) Key {
	where := fr.Pos()
	if k.Hangs() || k == StackOverflow {
		where = enclosing(fr.Func)
	}
	site := -1
	if s != nil {
		site = s.Index
	}
	return Key{Kind: k, Where: where, Site: site}
}

// Collector watches the executions of a search and keeps one fault per
// key, the misuse and the explicit panics it saw (counted by key too),
// and the slow tests that may hang. It implements the search engine's
// watcher.
type Collector struct {
	c   *testcase.Cluster
	loc *Locator
	// faults, misuse, outside, explicit and slow hold one entry per key,
	// in the order first seen.
	faults, misuse, outside, explicit, slow group
	// openSites are the call sites where a fault was seen.
	openSites map[int]bool
	goalSite  []int
}

// group is a set of faults by key, in the order first seen.
type group struct {
	byKey map[Key]*Fault
	order []Key
}

// add records an execution of a fault; the shortest test is kept.
func (g *group) add(f *Fault) *Fault {
	k := f.Key()
	if g.byKey == nil {
		g.byKey = map[Key]*Fault{}
	}
	old := g.byKey[k]
	if old == nil {
		f.Seen = 1
		g.byKey[k] = f
		g.order = append(g.order, k)
		return f
	}
	old.Seen++
	if f.Test.Len() < old.Test.Len() {
		old.Test, old.Stmt, old.Result, old.Message, old.Stack = f.Test, f.Stmt, f.Result, f.Message, f.Stack
	}
	return old
}

func (g *group) list() []*Fault {
	out := make([]*Fault, len(g.order))
	for i, k := range g.order {
		out[i] = g.byKey[k]
	}
	return out
}

// NewCollector returns a collector for the search on a pair, whose tests
// come from cluster c.
func NewCollector(a *couple.Analysis, c *testcase.Cluster) *Collector {
	col := &Collector{c: c, loc: NewLocator(a), openSites: map[int]bool{}}
	for _, g := range a.Goals {
		col.goalSite = append(col.goalSite, g.Site.Index)
	}
	return col
}

// Locator returns the collector's locator.
func (col *Collector) Locator() *Locator { return col.loc }

// Observe classifies executions: res[i] is how tests[i] ran.
func (col *Collector) Observe(tests []*testcase.Test, res []harness.Result) {
	for i, r := range res {
		col.observe(tests[i], r)
	}
}

func (col *Collector) observe(t *testcase.Test, r harness.Result) {
	class, kind := Classify(r)
	if class == Normal {
		return
	}
	f := col.Describe(t, r, kind)
	if f == nil {
		return
	}
	switch class {
	case Explicit:
		col.explicit.add(f)
	case Slow:
		col.slow.add(f)
	case Candidate:
		if col.loc.Outside(t, f) != "" {
			col.outside.add(f)
			return
		}
		if Misused(col.c, t, f.Stmt, kind, f.Message, f.Frame.Func, nil) != "" {
			col.misuse.add(f)
			return
		}
		col.faults.add(f)
		if f.Site != nil {
			col.openSites[f.Site.Index] = true
		}
	}
}

// Describe places an execution of kind k: where in the module's code it
// happened and through which call site. It returns nil for an execution
// that shows no fault of the pair: a stack without the module's code, or
// a hang outside any call made at one of R's call sites.
func (col *Collector) Describe(t *testcase.Test, r harness.Result, k Kind) *Fault {
	stack := r.Stack
	if k == Leak {
		stack = r.Leak
	}
	frames := ParseStack(stack)
	var fr Frame
	var ok bool
	// The call site of a runaway recursion is the one that entered it:
	// the frames outward of its outermost one (see Locator.Recursion).
	entry := frames
	if k == StackOverflow {
		var outer int
		fr, outer, ok = col.loc.Recursion(frames)
		entry = frames[outer+1:]
	} else {
		fr, ok = col.loc.Innermost(frames)
	}
	if !ok {
		return nil
	}
	// A leak's stack is the leaked goroutine's, and a crash's traceback
	// may be of any goroutine; the others are the test's own goroutine.
	site := col.loc.Site(entry, k == Leak || k.Fatal())
	if k.Hangs() && site == nil {
		return nil
	}
	stmt := r.Stmt
	if r.Status == harness.Passed || k.Fatal() {
		stmt = -1
	}
	return &Fault{Kind: k, Message: r.Message, Frame: fr, Stack: frames, Site: site, Test: t, Stmt: stmt, Result: r}
}

// Open reports whether a goal stays an objective of a search for faults
// after it is covered: a fault candidate was seen at its call site, so
// other inputs that reach the site may show more.
func (col *Collector) Open(goal int32) bool {
	return int(goal) < len(col.goalSite) && col.openSites[col.goalSite[goal]]
}

// Faults returns the fault candidates, one per key, in the order first
// seen.
func (col *Collector) Faults() []*Fault { return col.faults.list() }

// Slow returns the tests stopped at the adaptive limit, one per key: they
// may hang.
func (col *Collector) Slow() []*Fault { return col.slow.list() }

// Misuse and ExplicitPanics count the distinct misuses and explicit
// panics seen, by key.
func (col *Collector) Misuse() int { return len(col.misuse.order) }

// Outside counts the distinct fault candidates seen outside the pair, by
// key: failures of code the test called directly (see Locator.Outside).
func (col *Collector) Outside() int { return len(col.outside.order) }

// ExplicitPanics counts the distinct explicit panics seen, by key.
func (col *Collector) ExplicitPanics() int { return len(col.explicit.order) }

// Reclassify moves a fault candidate to the misuse, once a closer look
// (observed values) shows the test caused it.
func (col *Collector) Reclassify(f *Fault) {
	k := f.Key()
	if _, ok := col.faults.byKey[k]; !ok {
		return
	}
	delete(col.faults.byKey, k)
	for i, o := range col.faults.order {
		if o == k {
			col.faults.order = append(col.faults.order[:i:i], col.faults.order[i+1:]...)
			break
		}
	}
	col.misuse.add(f)
}

// Race records a data race the race detector reported while test t ran
// (report is its report) as a fault candidate, and returns it; nil if the
// report shows no frame of the module's code or the race lies outside the
// pair.
func (col *Collector) Race(t *testcase.Test, report string) *Fault {
	frames := ParseRaceReport(report)
	fr, ok := col.loc.Innermost(frames)
	if !ok {
		return nil
	}
	msg := "data race"
	lines := strings.SplitN(report, "\n", 3)
	if len(lines) > 1 {
		if access, _, ok := strings.Cut(lines[1], " at 0x"); ok {
			msg = "data race: " + strings.ToLower(access)
		}
	}
	f := &Fault{Kind: Race, Message: msg, Frame: fr, Stack: frames, Site: col.loc.Site(frames, true), Test: t, Stmt: -1}
	if col.loc.Outside(t, f) != "" {
		col.outside.add(f)
		return nil
	}
	return col.faults.add(f)
}
