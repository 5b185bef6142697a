package mutate

import (
	"fmt"
	"go/ast"
	"strings"

	"github.com/cling-go/cling/targets"
)

// RetStaRep replaces what a function of E returns.
const RetStaRep Operator = targets.RetStaRep

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: RetStaRep, Group: InterfaceGroup,
			Doc: "replaces each result of a function of E that R's call sites reach: zero value, negated bool, 0->1 and x->0, nil<->error"},
		order: 10,
		pass:  retStaRepPass,
	})
}

// altHelpers name, per alternative, the runtime helper that returns a
// value or its alternative; altKinds the alteration kind Ret takes.
var (
	altHelpers = [...]string{targets.AltZero: "Zero", targets.AltNot: "Not", targets.AltNum: "Num", targets.AltErr: "Err"}
	altKinds   = [...]string{targets.AltZero: "AltZero", targets.AltNot: "AltNot", targets.AltNum: "AltNum", targets.AltErr: "AltErr"}
)

// retStaRepPass renders the RetStaRep mutants of the pair, which package
// targets finds (the weak-mutation criterion shares them): a bare return
// returns its named results explicitly, each through its helper, in one
// site for all of them; a return of a call with several results alters
// result k through the call's function value; any other returned
// expression goes through its helper.
func retStaRepPass(g *generator) {
	var bare *site
	var bareReturn *ast.ReturnStmt
	for _, m := range g.interfaceMutants() {
		f := g.fileOf(m.Pos)
		if m.Operator != targets.RetStaRep || f == nil {
			continue
		}
		var s *site
		switch m.Shape {
		case targets.ReturnBare:
			if bareReturn != m.Return {
				bare, bareReturn = g.newSite(f), m.Return
				var parts []string
				for _, o := range g.interfaceMutants() {
					if o.Return == m.Return {
						parts = append(parts, fmt.Sprintf("%s.%s(%s, %s)", rtName, altHelpers[o.Alt], ph(o.Result), o.ResultName))
					}
				}
				at := f.off(m.Return.Return) + len("return")
				bare.replace(at, at, " "+strings.Join(parts, ", "))
			}
			s = bare
		case targets.ReturnCall:
			call := ast.Unparen(m.Return.Results[0]).(*ast.CallExpr)
			s = g.newSite(f)
			s.wrap(call.Fun, fmt.Sprintf("%s.Ret(%s, %d, %s.%s, ", rtName, ph(0), m.Result, rtName, altKinds[m.Alt]), ")", layerRet+m.Result)
		default:
			targs := ""
			if m.TypeArg != "" {
				targs = "[" + m.TypeArg + "]"
			}
			s = g.newSite(f)
			s.wrap(m.Expr, fmt.Sprintf("%s.%s%s(%s, ", rtName, altHelpers[m.Alt], targs, ph(0)), ")", layerRet)
		}
		g.add(s, RetStaRep, m.Pos, m.Variant, m.Description)
	}
}
