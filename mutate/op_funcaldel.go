package mutate

import (
	"fmt"

	"github.com/cling-go/cling/targets"
)

// FunCalDel deletes a call of R into E, or replaces its result.
const FunCalDel Operator = targets.FunCalDel

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: FunCalDel, Group: InterfaceGroup,
			Doc: "deletes a call of R into E, or replaces its result by the zero value or by an argument of its type"},
		order: 20,
		pass:  funCalDelPass,
	})
}

// funCalDelPass renders the FunCalDel mutants of the pair, which package
// targets finds: the call is deleted (its results, if used, replaced by
// zero values), or its result replaced by an argument of the same type,
// each through the call's function value.
func funCalDelPass(g *generator) {
	for _, m := range g.interfaceMutants() {
		f := g.fileOf(m.Pos)
		if m.Operator != targets.FunCalDel || f == nil {
			continue
		}
		s := g.newSite(f)
		if m.Arg < 0 {
			s.wrap(m.Site.Call.Fun, fmt.Sprintf("%s.Del(%s, ", rtName, ph(0)), ")", layerCall)
		} else {
			s.wrap(m.Site.Call.Fun, fmt.Sprintf("%s.Prop(%s, %d, %d, ", rtName, ph(0), m.Arg, m.Result), ")", layerCall+m.Variant)
		}
		g.add(s, FunCalDel, m.Pos, m.Variant, m.Description)
	}
}
