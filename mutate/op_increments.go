package mutate

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/cling-go/cling/internal/typeinfo"
)

// Increments swaps increments and decrements.
const Increments Operator = "Increments"

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: Increments, Group: ConventionalGroup,
			Doc: "replaces ++ with -- and -- with ++"},
		order: 70,
		node:  visitorOf((*generator).incDec),
	})
}

// incDec mutates an increment or decrement statement.
func (g *generator) incDec(f *srcFile, st *ast.IncDecStmt) {
	if !isPure(st.X) || !typeinfo.IsNumeric(f.info().Types[st.X].Type) {
		return
	}
	x := f.text(st.X)
	if strings.ContainsAny(x, "\n\r") {
		return
	}
	helper, to := "Inc", "--"
	if st.Tok == token.DEC {
		helper, to = "Dec", "++"
	}
	s := g.newSite(f)
	tok := f.off(st.TokPos)
	s.replace(tok, tok+2, fmt.Sprintf(" += %s.%s(%s, %s)", rtName, helper, ph(0), x))
	g.add(s, Increments, st.TokPos, 0, fmt.Sprintf("replaces %s with %s", st.Tok, to))
}
