package mosa

import (
	"github.com/cling-go/cling/repair"
	"github.com/cling-go/cling/testcase"
)

func init() {
	RegisterCrossover("single-point", "one cut in each parent; each child is one parent's head and the other's tail", singlePoint{})
}

// singlePoint is single-point crossover with an independent cut in each
// parent: the children are a's head with b's tail and b's head with a's
// tail, the references of each tail into the head it lost resolved anew
// (repair.Graft).
type singlePoint struct{}

// Cross draws a cut in a, then one in b, and builds the two children.
func (singlePoint) Cross(g *testcase.Generator, a, b *testcase.Test) (*testcase.Test, *testcase.Test) {
	ca := g.Rnd.Intn(a.Len() + 1)
	cb := g.Rnd.Intn(b.Len() + 1)
	c1 := a.Prefix(ca)
	repair.Graft(g, c1, b, cb)
	c2 := b.Prefix(cb)
	repair.Graft(g, c2, a, ca)
	return c1, c2
}
