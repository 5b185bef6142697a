package mutate

import (
	"fmt"
	"go/ast"

	"github.com/cling-go/cling/internal/typeinfo"
)

// RemoveConditionals replaces the condition of an if statement.
const RemoveConditionals Operator = "RemoveConditionals"

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: RemoveConditionals, Group: ConventionalGroup,
			Doc: "replaces the condition of an if with true, and with false"},
		order: 50,
		node:  visitorOf((*generator).removeCond),
	})
}

// removeCond mutates the condition of an if statement.
func (g *generator) removeCond(f *srcFile, is *ast.IfStmt) {
	tv := f.info().Types[is.Cond]
	if tv.Value != nil || !typeinfo.IsBool(tv.Type) {
		return
	}
	s := g.newSite(f)
	s.wrap(is.Cond, fmt.Sprintf("%s.Cond(%s, %s, ", rtName, ph(0), ph(1)), ")", layerCond)
	g.add(s, RemoveConditionals, is.Cond.Pos(), 0, "replaces the condition with true")
	g.add(s, RemoveConditionals, is.Cond.Pos(), 1, "replaces the condition with false")
}
