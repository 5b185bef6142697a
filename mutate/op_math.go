package mutate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/cling-go/cling/internal/typeinfo"
)

// Math replaces an arithmetic or bitwise operator.
const Math Operator = "Math"

func init() {
	register(operatorDef{
		OperatorInfo: OperatorInfo{Name: Math, Group: ConventionalGroup,
			Doc: "replaces an arithmetic or bitwise operator, as in + with - and += with -="},
		order: 60,
		node: &nodeVisitor{visit: func(g *generator, f *srcFile, n ast.Node) {
			switch x := n.(type) {
			case *ast.BinaryExpr:
				g.arithmetic(f, x)
			case *ast.AssignStmt:
				g.assignOp(f, x)
			}
		}},
	})
}

var mathHelpers = map[token.Token]struct {
	helper  string
	to      token.Token
	integer bool
}{
	token.ADD:     {"Add", token.SUB, false},
	token.SUB:     {"Sub", token.ADD, false},
	token.MUL:     {"Mul", token.QUO, false},
	token.QUO:     {"Quo", token.MUL, false},
	token.REM:     {"Rem", token.MUL, true},
	token.AND:     {"And", token.OR, true},
	token.OR:      {"Or", token.AND, true},
	token.XOR:     {"Xor", token.AND, true},
	token.AND_NOT: {"AndNot", token.AND, true},
	token.SHL:     {"Shl", token.SHR, true},
	token.SHR:     {"Shr", token.SHL, true},
}

var assignOps = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
	token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.AND_NOT_ASSIGN: token.AND_NOT,
	token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR,
}

// arithmetic mutates a binary arithmetic or bitwise operation.
func (g *generator) arithmetic(f *srcFile, be *ast.BinaryExpr) {
	h, ok := mathHelpers[be.Op]
	if !ok {
		return
	}
	info := f.info()
	tv := info.Types[be]
	if tv.Value != nil || typeinfo.IsUntyped(tv.Type) {
		return
	}
	var t types.Type
	if be.Op == token.SHL || be.Op == token.SHR {
		t = info.Types[be.X].Type
		if typeinfo.IsUntyped(t) || !typeinfo.IsInteger(info.Types[be.Y].Type) {
			return
		}
	} else if t = operandType(info, be.X, be.Y); t == nil {
		return
	}
	if !typeinfo.IsNumeric(t) || (h.integer && !typeinfo.IsInteger(t)) {
		return
	}
	s := g.newSite(f)
	s.wrap(be, fmt.Sprintf("%s.%s(%s, ", rtName, h.helper, ph(0)), ")", layerMath)
	opOff := f.off(be.OpPos)
	s.replace(opOff, opOff+len(be.Op.String()), ",")
	g.add(s, Math, be.OpPos, 0, fmt.Sprintf("replaces %s with %s", be.Op, h.to))
}

// assignOp mutates an arithmetic or bitwise assignment (x += y).
func (g *generator) assignOp(f *srcFile, as *ast.AssignStmt) {
	op, ok := assignOps[as.Tok]
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isPure(as.Lhs[0]) {
		return
	}
	h := mathHelpers[op]
	info := f.info()
	t := info.Types[as.Lhs[0]].Type
	if !typeinfo.IsNumeric(t) || (h.integer && !typeinfo.IsInteger(t)) {
		return
	}
	if op == token.SHL || op == token.SHR {
		if !typeinfo.IsInteger(info.Types[as.Rhs[0]].Type) {
			return
		}
	}
	lhs := f.text(as.Lhs[0])
	if strings.ContainsAny(lhs, "\n\r") {
		return
	}
	s := g.newSite(f)
	tok := f.off(as.TokPos)
	s.replace(tok, tok+len(as.Tok.String()), fmt.Sprintf("= %s.%s(%s, %s, ", rtName, h.helper, ph(0), lhs))
	s.closeAt(f.off(as.Rhs[0].End()), ")", f.tree.Depth(as), layerMath)
	g.add(s, Math, as.TokPos, 0, fmt.Sprintf("replaces %s with %s=", as.Tok, h.to))
}
