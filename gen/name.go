package gen

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cling-go/cling/couple"
	"github.com/cling-go/cling/emit"
	"github.com/cling-go/cling/mosa"
	"github.com/cling-go/cling/testcase"
)

// namedTest is a kept test on its way to the file.
type namedTest struct {
	emit.Test
	goals   []int32
	covers  []int32
	proxies mosa.Proxies
	// assertionsDropped counts the assertions verification took out.
	assertionsDropped int
}

// name names each test after the first coupled branch it covers:
// Test<callee>_<R branch>_<E branch>, with a number when that name is
// taken, and gives it a comment that says which branches it takes. It
// keeps every test, in order, and takes the names it gives.
func (j *job) name(tests []observedTest) []namedTest {
	var out []namedTest
	for _, t := range tests {
		base, comment := j.describe(t.goals[0])
		name := base
		for n := 2; j.taken[name]; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		j.taken[name] = true
		comment = name + " " + comment
		if len(t.goals) > 1 {
			comment += j.more(t.goals[1:])
		}
		out = append(out, namedTest{Test: emit.Test{Name: name, Test: t.test, Outcome: t.outcome, Comment: comment}, goals: t.goals, covers: t.covers, proxies: t.proxies})
	}
	return out
}

// describe names the test kept for goal g and says, for its comment, what
// it does: Test<callee>_<R branch>_<E branch> for a coupled branch,
// Test<goal> for a goal of another criterion.
func (j *job) describe(id int32) (name, comment string) {
	if j.set != nil && !j.set.CBC(id) {
		g := j.set.Goal(id)
		return "Test" + g.Test, g.About + "."
	}
	g := j.a.Goals[id]
	name = "Test" + exportName(calleeShort(g.Site)) + "_" + branchShort(g.R) + "_" + branchShort(g.E)
	return name, fmt.Sprintf("takes %s and then, in the call of %s at %s (in %s), %s.",
		g.R.ID(), couple.CalleeName(g.Site), j.a.Prog.Pos(g.Site.Pos), g.Site.Func.Name, g.E.ID())
}

// more says what else a test is kept for: "It covers 3 more coupled
// branches." (and, with other criteria, "and 2 more goals").
func (j *job) more(goals []int32) string {
	cbc := 0
	for _, g := range goals {
		if j.set == nil || j.set.CBC(g) {
			cbc++
		}
	}
	var parts []string
	switch cbc {
	case 0:
	case 1:
		parts = append(parts, "1 more coupled branch")
	default:
		parts = append(parts, fmt.Sprintf("%d more coupled branches", cbc))
	}
	switch other := len(goals) - cbc; other {
	case 0:
	case 1:
		parts = append(parts, "1 more goal of the other criteria")
	default:
		parts = append(parts, fmt.Sprintf("%d more goals of the other criteria", other))
	}
	return " It covers " + strings.Join(parts, " and ") + "."
}

// calleeShort is the name of what a call site calls, without its package
// or receiver.
func calleeShort(s *couple.CallSite) string {
	n := couple.CalleeName(s)
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		n = n[i+1:]
	}
	return n
}

// branchShort names a branch within a test name: L22False, or EntryF.
func branchShort(b couple.Branch) string {
	if b.IsEntry() {
		name := b.Entry.Name
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		return "Entry" + exportName(name)
	}
	line := lineOf(b.ID())
	if b.Outcome {
		return "L" + line + "True"
	}
	return "L" + line + "False"
}

// lineOf extracts the line of file:line:col:outcome.
func lineOf(id string) string {
	parts := strings.Split(id, ":")
	if len(parts) >= 4 {
		return parts[len(parts)-3]
	}
	return "0"
}

// exportName makes a name without its package or receiver (Refuel,
// parse$1, Map[K, V], F-range1) part of an exported identifier: only its
// letters, digits and underscores, with an upper-case first letter; X
// before a leading digit, X if nothing is left.
func exportName(s string) string {
	// A runtime name can hold other characters: a range-over-func body
	// is F-range1.
	s = strings.Map(func(r rune) rune {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
	first, size := utf8.DecodeRuneInString(s)
	if s == "" || unicode.IsDigit(first) {
		return "X" + s
	}
	return string(unicode.ToUpper(first)) + s[size:]
}

// sortNamed orders tests by their first goal, those that change
// package-level state last: go test runs a file's tests in one process,
// in order, and the state such a test leaves would reach the tests after
// it, which cling ran each in a process without it.
func sortNamed(ts []namedTest) {
	sort.SliceStable(ts, func(i, j int) bool {
		if wi, wj := writesState(ts[i].Test.Test), writesState(ts[j].Test.Test); wi != wj {
			return wj
		}
		return ts[i].goals[0] < ts[j].goals[0]
	})
}

// writesState reports whether a test calls a function that changes
// package-level state.
func writesState(t *testcase.Test) bool {
	return t != nil && slices.ContainsFunc(t.Stmts, func(s testcase.Stmt) bool { return s.Op.WritesState })
}

// namesOf lists the names of the tests.
func namesOf(ts []namedTest) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

// avoidNames renames the tests whose names are taken, or given to an
// earlier test of tests, with a number: Name_2, Name_3 and so on.
func avoidNames(tests []namedTest, taken map[string]bool) {
	seen := map[string]bool{}
	for i := range tests {
		name := tests[i].Name
		for n := 2; taken[name] || seen[name]; n++ {
			name = fmt.Sprintf("%s_%d", tests[i].Name, n)
		}
		seen[name] = true
		tests[i].Name = name
	}
}
