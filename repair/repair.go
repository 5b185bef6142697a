// Package repair restores the property every test of the search must
// have: it calls at least one covering function of the caller R (paper
// 002, section 3.2.4). Mutation can delete the last covering call and
// crossover can cut it off; such broken chromosomes are repaired here.
package repair

import "github.com/cling-go/cling/testcase"

// Counts tally the repairs of a search.
type Counts struct {
	// Repaired counts mutation offspring fixed by further mutation;
	// Dropped those given up after the attempts; Replaced crossover
	// offspring replaced by a parent.
	Repaired, Dropped, Replaced int
}

// Mutation repairs a mutation offspring without a covering call by
// mutating it again, up to attempts times, until a covering call is
// inserted. It returns false if the offspring must be dropped.
func Mutation(g *testcase.Generator, t *testcase.Test, attempts int, c *Counts) bool {
	if t.HasCovering() {
		return true
	}
	for i := 0; i < attempts; i++ {
		g.Mutate(t)
		if t.HasCovering() {
			c.Repaired++
			return true
		}
	}
	c.Dropped++
	return false
}

// Crossover replaces a crossover offspring without a covering call by a
// copy of its parent.
func Crossover(child, parent *testcase.Test, c *Counts) *testcase.Test {
	if child.HasCovering() {
		return child
	}
	c.Replaced++
	return parent.Clone()
}
