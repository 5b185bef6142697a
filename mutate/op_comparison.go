package mutate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/cling-go/cling/internal/typeinfo"
)

// ConditionalsBoundary and NegateConditionals change comparisons. One
// guard of the probe runtime takes the IDs of both mutants of a
// comparison, so the two share a site and a visitor.
const (
	ConditionalsBoundary Operator = "ConditionalsBoundary"
	NegateConditionals   Operator = "NegateConditionals"
)

// comparisons mutates the comparisons of function bodies.
var comparisons = visitorOf((*generator).comparison)

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: ConditionalsBoundary, Group: ConventionalGroup,
			Doc: "replaces <, <=, > and >= with <=, <, >= and >"},
		order: 30,
		node:  comparisons,
	})
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: NegateConditionals, Group: ConventionalGroup,
			Doc: "negates a comparison: == with !=, < with >=, ..."},
		order: 40,
		node:  comparisons,
	})
}

var cmpHelpers = map[token.Token]struct {
	helper          string
	boundary, negat token.Token
}{
	token.LSS: {"LT", token.LEQ, token.GEQ},
	token.LEQ: {"LE", token.LSS, token.GTR},
	token.GTR: {"GT", token.GEQ, token.LEQ},
	token.GEQ: {"GE", token.GTR, token.LSS},
	token.EQL: {"EQ", token.ILLEGAL, token.NEQ},
	token.NEQ: {"NE", token.ILLEGAL, token.EQL},
}

// comparison mutates a comparison, for both operators at one site.
func (g *generator) comparison(f *srcFile, be *ast.BinaryExpr) {
	h, ok := cmpHelpers[be.Op]
	if !ok {
		return
	}
	info := f.info()
	tv := info.Types[be]
	if tv.Value != nil || (tv.Type != nil && !typeinfo.IsUntyped(tv.Type) && !types.Identical(tv.Type, types.Typ[types.Bool])) {
		return
	}
	t := operandType(info, be.X, be.Y)
	if t == nil {
		return
	}
	if _, isParam := t.(*types.TypeParam); isParam {
		return
	}
	ordered := h.boundary != token.ILLEGAL
	if ordered {
		i := typeinfo.BasicInfo(t)
		if i&(types.IsInteger|types.IsFloat|types.IsString) == 0 || i&types.IsComplex != 0 {
			return
		}
	} else if !types.Comparable(t) {
		return
	}
	doB := ordered && g.ops[ConditionalsBoundary]
	doN := g.ops[NegateConditionals]
	if !doB && !doN {
		return
	}
	s := g.newSite(f)
	ids := []string{}
	k := 0
	if ordered {
		if doB {
			ids = append(ids, ph(k))
			k++
		} else {
			ids = append(ids, "-1")
		}
	}
	if doN {
		ids = append(ids, ph(k))
	} else {
		ids = append(ids, "-1")
	}
	s.wrap(be, fmt.Sprintf("%s.%s(%s, ", rtName, h.helper, strings.Join(ids, ", ")), ")", layerCmp)
	opOff := f.off(be.OpPos)
	s.replace(opOff, opOff+len(be.Op.String()), ",")
	if doB {
		g.add(s, ConditionalsBoundary, be.OpPos, 0, fmt.Sprintf("replaces %s with %s", be.Op, h.boundary))
	}
	if doN {
		g.add(s, NegateConditionals, be.OpPos, 0, fmt.Sprintf("replaces %s with %s", be.Op, h.negat))
	}
}
